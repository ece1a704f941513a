"""Published numbers on the benchmarks a run read (``datasets/published_results.yaml``), set beside
the run's own: the run computes its side, so no number of the comparison is typed by hand.

Each published entry names the metric the run reports beside it, the languages it averages and the
split and scorer options it was measured with; what the run did differently (another split, other
languages, a sample, another scorer option, who answered the questions) is listed with it, next to
the file's own judgement of how comparable the two are.
"""

from __future__ import annotations

from typing import Any

import yaml

from assistant.paths import shipped_dir

from .records import Record

PUBLISHED_FILE = "published_results.yaml"
ALL_LANGS = "all"
USER_NOTES = {"oracle": "the oracle answers each question with the gold label",
              "none": "nobody answers: questions are skipped"}


def load_published(path=None) -> dict[str, Any]:
    """The file's ``results`` and ``without_numbers`` (by data-set name)."""
    data = yaml.safe_load((path or shipped_dir("datasets") / PUBLISHED_FILE).read_text(encoding="utf-8")) or {}
    return {"results": list(data.get("results") or []), "without_numbers": dict(data.get("without_numbers") or {})}


def data_sets_of(records: list[Record]) -> list[str]:
    """The named benchmarks the run's items come from (the ``dataset`` attribute their loader sets)."""
    return list(dict.fromkeys(r.item.attributes["dataset"] for r in records if r.item.attributes.get("dataset")))


def compare(groups: list[dict[str, Any]], records: list[Record], run: dict[str, Any],
            published: dict[str, Any] | None = None) -> dict[str, Any]:
    """One row per published result on a data set of this run: the published value, this run's value
    of the named metric per method (mean of the per-language values over the entry's languages present
    in the run), and the differences in setting; plus the run's data sets that have no published number."""
    published = published if published is not None else load_published()
    present = data_sets_of(records)
    splits = sorted({r.item.attributes["split"] for r in records if r.item.attributes.get("split")})
    rows = []
    for entry in (e for e in published["results"] if e.get("data_set") in present):
        ours = entry["ours"]
        metric = ours["metric"]
        scored = [g for g in groups if g["scores"].get(metric, {}).get("value") is not None]
        run_langs = sorted({g["lang"] for g in groups if metric in g["scores"]})
        wanted = run_langs if ours.get("langs", ALL_LANGS) == ALL_LANGS else list(ours["langs"])
        langs = [lang for lang in wanted if lang in run_langs]
        this_run = {}
        for method in dict.fromkeys(g["method"] for g in scored):
            found = {g["lang"]: g["scores"][metric] for g in scored if g["method"] == method and g["lang"] in langs}
            if found:
                this_run[method] = {"value": sum(v["value"] for v in found.values()) / len(found),
                                    "n": sum(v["n"] for v in found.values()), "langs": sorted(found)}
        rows.append({key: entry.get(key) for key in ("benchmark", "paper", "source", "system", "setting", "metric",
                                                     "language", "value", "comparable")}
                    | {"our_metric": metric, "this_run": this_run,
                       "differences": _differences(entry, langs, wanted, splits, scored, run)})
    missing = {name: reason for name, reason in published["without_numbers"].items() if name in present}
    return {"results": rows, "without_numbers": missing}


def _differences(entry: dict[str, Any], langs: list[str], wanted: list[str], splits: list[str],
                 scored: list[dict[str, Any]], run: dict[str, Any]) -> list[str]:
    """How this run's setting differs from the published one, as far as the run can tell."""
    ours, notes = entry["ours"], []
    if not langs:
        notes.append(f"this run has none of the published languages ({', '.join(wanted)})")
    elif len(langs) < len(wanted):
        notes.append(f"this run has only {', '.join(langs)} of {', '.join(wanted)}")
    unscored = [lang for lang in langs if not any(g["lang"] == lang for g in scored)]
    if unscored:
        notes.append(f"no value in {', '.join(unscored)} (nothing the metric counts, e.g. no determined output)")
    if ours.get("langs", ALL_LANGS) == ALL_LANGS:
        notes.append("the published value averages the paper's own languages; this run's averages its own")
    if ours.get("split") and splits and splits != [ours["split"]]:
        notes.append(f"this run read the {', '.join(splits)} split; the published number is on {ours['split']}")
    signature = next((g["scores"][ours["metric"]]["signature"] for g in scored), "").split("|")
    if ours.get("signature") and ours["signature"] not in signature:
        key = ours["signature"].split(":")[0] + ":"
        own = [option for option in signature if option.startswith(key)] or ["not set"]
        notes.append(f"scorer options differ: published {ours['signature']}, this run {own[0]}")
    if run.get("limit"):
        notes.append(f"a seeded sample of at most {run['limit']} items per language")
    notes.append(f"intercpt's questions: {USER_NOTES.get(run.get('user'), 'a simulated user answers')}")
    return notes
