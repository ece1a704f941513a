"""How well one git revision of the chain asks, on a small fixed sample: the before or after of a change.

    python benchmarks/asking_revisions.py REV [--model FILE.gguf] [--limit 6] [--seed 0] [--sets NAME ...] [--baseline] \\
        [--data /work/shared/datasets] [--runs runs/asking] [--out benchmarks/results/asking]

REV (a commit, a branch, HEAD; committed code only) is checked out with ``git worktree add`` into a
temporary folder, leaving this working tree alone, and this script runs itself there with
``PYTHONPATH`` at that checkout, so ``assistant`` and ``evaluation`` are the revision's code; the data
and the sample (``--limit`` items per set, drawn by the evaluator with ``--seed``) come from here and
are the same for every revision. One process runs the evaluator's ``evaluate`` (the ``intercpt
evaluate`` of ``--methods intercpt --user oracle --langs fr``) on each set in turn, so the model and its
prompt cache load once:

- GATE fr, the dev half (``gate:DATA/gate``): a person's gender (inclusive forms, where the revision has them);
- CoCoA-MT train fr (``cocoa-mt:DATA/cocoa-mt``): the register of "you";
- AmbigMT dev fr, the types of the family ``referent`` (``ambigmt:DATA/ambigmt-dev``): what "it" is;
- ``datasets/fixtures/nothing_ambiguous.jsonl`` fr: texts with nothing to ask (the needless-question rate).

Only the intercpt method asks, so the baselines are not run, except with ``--baseline``: no-extra (the
plain translation) then runs on the same items of each set, once before intercpt's run and once after it
(``RUNS/<short-hash>/<set>-no-extra-before`` and ``<set>-no-extra``), and each set gets the cost of intercpt
as a multiple of no-extra's: model time (every timed step of the transcripts but ``answer``, the oracle's;
no-extra's the mean of its two runs: the machine's speed drifts over a run, and the run after intercpt's
finds in the prompt cache the plain prompt of every item intercpt asked nothing about, the run before does
not) and model calls. A LangChain callback on the loaded model
(this checkout's ``assistant/usage.py``, whatever the revision) counts its calls and the tokens their
replies report (prompt tokens, those evaluated rather than reused from the prompt cache, and generated
tokens); at a revision whose llama.cpp backend streams without token counts, the streamed translation
reports none (``unreported`` calls). Each set is a
resumable evaluator run in ``RUNS/<short-hash>/<set>`` (rerun the command to finish it; calls and
tokens then cover the items run in the last invocation). Writes
``OUT/<short-hash>/``: each set's ``report.md``, ``summary.json`` and ``items.jsonl``, plus ``asking.json``
and ``asking.md`` (the revision's column of ``benchmarks/results/asking.md``).
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import inspect
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MODEL = Path("/root/.cache/test-models/qwen2.5-coder-1.5b/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")
LANG = "fr"
# name -> (--data value with {data} and {root} to fill, the family of the AmbigMT types it takes or
# None: all its items). The family is read in this checkout's table and the types passed to the
# revision as --types: an older revision knows the names only.
SETS = {
    "gate": ("gate:{data}/gate", None),
    "cocoa-mt": ("cocoa-mt:{data}/cocoa-mt", None),
    "ambigmt-it": ("ambigmt:{data}/ambigmt-dev", "referent"),
    "nothing-ambiguous": ("{root}/datasets/fixtures/nothing_ambiguous.jsonl", None),
}
ASKING = ("ask_recall", "question_precision", "questions_per_item", "needless_rate")
COPIED = ("report.md", "summary.json", "items.jsonl")
# Not from any set: "you", "it" and a name (the decide call reads it); a person noun, whose gender reader
# loads the target's spaCy pipeline (a text of its own: the chain asks at most three questions a text).
WARM_UP_TEXTS = ("Can you bring it back tomorrow? Blair says it is ready.", "The surgeon is tired.")


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout.strip()


def set_types() -> dict[str, list[str]]:
    """The AmbigMT types of each set that takes them, by its family in this checkout's table."""
    from evaluation.loaders.ambigmt import types_of_family

    return {name: list(types_of_family(family)) for name, (_, family) in SETS.items() if family}


def at_revision(args: argparse.Namespace) -> int:
    """Check REV out into a temporary worktree and run this script's ``--inside`` mode there."""
    short = git("rev-parse", "--short=7", f"{args.rev}^{{commit}}")
    folder = Path(tempfile.mkdtemp(prefix=f"asking-{short}-"))
    tree = folder / "tree"
    git("worktree", "add", "--detach", str(tree), short)
    try:
        command = [sys.executable, str(Path(__file__).resolve()), "--inside", short, "--model", str(args.model),
                   "--limit", str(args.limit), "--seed", str(args.seed), "--data", str(args.data),
                   "--runs", str(args.runs.resolve()), "--out", str(args.out.resolve()), "--sets", *args.sets,
                   "--types", json.dumps(set_types()), *(["--baseline"] if args.baseline else [])]
        env = {**os.environ, "PYTHONPATH": str(tree)}
        return subprocess.run(command, cwd=tree, env=env).returncode
    finally:
        git("worktree", "remove", "--force", str(tree))
        shutil.rmtree(folder, ignore_errors=True)


def usage_module() -> Any:
    """This checkout's ``assistant/usage.py`` (its callback counts a model's calls and tokens), loaded
    by its path: the revision measured may be older than the module, whose imports are all outside
    the chain."""
    spec = importlib.util.spec_from_file_location("intercpt_usage", ROOT / "assistant" / "usage.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def chain_options(set_name: str) -> dict[str, Any]:
    """GATE gives both forms of anyone of a kind ("any blogger"): its items run with inclusive forms at a revision
    that has them (the chain asks about such a person only then)."""
    from assistant.chain import ChainOptions

    inclusive = set_name == "gate" and "inclusive" in {f.name for f in fields(ChainOptions)}
    return {"chain": ChainOptions(inclusive=True)} if inclusive else {}


def inside(args: argparse.Namespace) -> int:
    """Run every set with the revision's evaluator (``PYTHONPATH`` is the checkout) and write the results."""
    from assistant.backends import load_chat_model
    from evaluation.config import EvalConfig
    from evaluation.runner import evaluate

    usage, loaded = usage_module(), {}
    counter = usage.UsageCounter()

    def load(spec: Any) -> Any:
        if str(spec) not in loaded:
            loaded[str(spec)] = load_chat_model(spec)
            loaded[str(spec)].callbacks = [counter]
        return loaded[str(spec)]

    warm_up(load, args.model)
    out = args.out / args.inside
    results: dict[str, Any] = {"revision": args.inside, "model": str(args.model), "lang": LANG,
                               "limit": args.limit, "seed": args.seed, "sets": {}}
    started = time.perf_counter()
    types_of = json.loads(args.types)
    for name, (data, _) in ((n, SETS[n]) for n in args.sets):
        types = tuple(types_of[name]) if name in types_of else None

        def run(method: str, folder: str) -> tuple[Any, dict[str, Any], dict[str, int]]:
            config = EvalConfig(out=args.runs / args.inside / folder, data=data.format(data=args.data, root=ROOT),
                                types=types, langs=(LANG,), methods=(method,), translator=f"llamacpp:{args.model}",
                                user="oracle", limit=args.limit, seed=args.seed, **chain_options(name))
            before = copy.copy(counter.total)
            summary = evaluate(config, progress=False, load_model=load)
            return config, summary, asdict(counter.total - before)

        if args.baseline:  # no-extra before and after intercpt (the module's docstring says why)
            plain_before, _, _ = run("no-extra", f"{name}-no-extra-before")
        config, summary, counts = run("intercpt", name)
        session = summary["run"]["sessions"][-1]
        results["sets"][name] = set_result(summary, session, counts)
        if args.baseline:
            plain, _, plain_counts = run("no-extra", f"{name}-no-extra")
            results["sets"][name]["vs_no_extra"] = versus(config.out, counts, (plain_before.out, plain.out),
                                                          plain_counts)
        results["sets"][name]["item_ids"] = [json.loads(line)["item"]["id"]
                                             for line in (config.out / "items.jsonl").read_text("utf-8").splitlines()]
        (out / name).mkdir(parents=True, exist_ok=True)
        for file in COPIED:
            shutil.copyfile(config.out / file, out / name / file)
    results["wall_s"] = round(time.perf_counter() - started, 1)
    keep_earlier_counts(results, out / "asking.json")
    (out / "asking.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    (out / "asking.md").write_text(render(results), encoding="utf-8")
    print(f"wrote {out}")
    return 0


def warm_up(load: Any, model: Path) -> None:
    """Load the model and fill llama.cpp's cache of prompt states with every fixed prompt the sets use
    (the decision, the question about "it", the plain and the clarified translation prompts, the latter
    with the answers of a user who picks the first option, and the repair's rewrite) and load what the
    checks read with, uncounted: the first item of a run would otherwise pay the whole prefix
    evaluation for the method that happens to run first, the first repair for every later one, and
    the first person noun checked the target language's pipeline (6 s for French)."""
    from assistant.backends import ModelSpec
    from assistant.chain import Assistant
    from assistant.users import HumanUser

    spec = ModelSpec.parse(f"llamacpp:{model}")
    answering = HumanUser(lambda turn: (turn.options or ["the parcel"])[0])  # the sets' oracle answers too
    for method, text in ((method, text) for method in ("intercpt", "no-extra") for text in WARM_UP_TEXTS):
        assistant = Assistant(load(spec), str(spec))
        if "method" in inspect.signature(assistant.run).parameters:  # before the chain took its options whole
            assistant.run(text, LANG, method=method, user=answering)
        else:
            from assistant.chain import ChainOptions

            transcript = assistant.run(text, LANG, options=ChainOptions(method=method), user=answering)
            steps = getattr(assistant, "steps", None)
            if method == "intercpt" and hasattr(steps, "rewrite"):  # a revision with the targeted rewrite
                steps.rewrite(transcript, transcript.translation, ["Keep it as it is."], transcript.turns)


def set_result(summary: dict[str, Any], session: dict[str, Any], counts: dict[str, int]) -> dict[str, Any]:
    """A set's asking scores (value and 95 % interval), seconds, calls and tokens per item."""
    group = next(g for g in summary["groups"] if g["method"] == "intercpt")
    ran = session["items"]
    return {"type": group["type"], "n": group["n"], "failed": group["errors"],
            "scores": {n: {k: group["scores"][n][k] for k in ("name", "value", "ci_low", "ci_high", "n")}
                       for n in ASKING if n in group["scores"]},
            "items_run": ran, "wall_s": session["wall_s"],
            "per_item": {k: round(v / ran, 1) for k, v in {"wall_s": session["wall_s"], **counts}.items()} if ran
            else None, "totals": counts}


def keep_earlier_counts(results: dict[str, Any], written: Path) -> None:
    """A set whose run was already complete made no model call in this invocation: its calls, tokens
    and seconds are those an earlier invocation wrote."""
    if not written.is_file():
        return
    earlier = json.loads(written.read_text(encoding="utf-8"))["sets"]
    for name, found in results["sets"].items():
        if not found["totals"]["calls"] and name in earlier:
            results["sets"][name] = {**earlier[name], **{k: v for k, v in found.items() if k == "vs_no_extra"}}


def model_seconds(run: Path) -> dict[str, float]:
    """Each finished item's model time in a run: its transcript's timed steps but the oracle's ``answer``."""
    records = (json.loads(line) for line in (run / "items.jsonl").read_text("utf-8").splitlines())
    return {r["item"]["id"]: sum(s for step, s in r["transcript"]["timings"].items() if step != "answer")
            for r in records if r.get("transcript") and not r.get("error")}


def versus(run: Path, counts: dict[str, int], plain_runs: tuple[Path, ...], plain_counts: dict[str, int]
           ) -> dict[str, Any]:
    """intercpt's model time (on the items every run finished) as a multiple of no-extra's, averaged over its
    runs before and after intercpt's (see the module's docstring), and its model calls (of the last
    invocation of each run) as a multiple of no-extra's."""
    ours, plain = model_seconds(run), [model_seconds(p) for p in plain_runs]
    theirs = {i: sum(p[i] for p in plain) / len(plain) for i in ours if all(i in p for p in plain)}
    shared = list(theirs)
    time_ratio = sum(ours[i] for i in shared) / sum(theirs[i] for i in shared) if shared else None
    calls_ratio = counts["calls"] / plain_counts["calls"] if plain_counts["calls"] else None
    return {"items": len(shared), "model_time": round(time_ratio, 2) if time_ratio else None,
            "calls": round(calls_ratio, 2) if calls_ratio else None,
            "no_extra_s_per_item": round(sum(theirs[i] for i in shared) / len(shared), 2) if shared else None}


def render(results: dict[str, Any]) -> str:
    """The revision's numbers, one row per set, in the order of ``benchmarks/results/asking.md``."""
    from evaluation.report import format_cell

    lines = [f"# Asking at {results['revision']}", "",
             f"Model `{results['model']}` (llama.cpp), target {results['lang']}, intercpt method, oracle answers, "
             f"at most {results['limit']} items per set (seed {results['seed']}); {results['wall_s']:.0f} s in all. "
             "Tokens are those of the calls that report them (`unreported` in asking.json counts the others: "
             "the streamed translation at a revision whose backend streams without token counts).", "",
             "| set | n | ask recall % | question precision % | questions/item | needless rate % | s/item | "
             "calls/item (streamed) | prompt tokens/item (evaluated) | output tokens/item |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name, found in results["sets"].items():
        scores, per = found["scores"], found["per_item"] or {}
        cells = " | ".join(format_cell(scores.get(n), None) for n in ASKING)
        lines.append(f"| {name} | {found['n']} | {cells} | {per.get('wall_s', '—')} | "
                     f"{per.get('calls', '—')} ({per.get('streamed', '—')}) | "
                     f"{per.get('input_tokens', '—')} ({per.get('evaluated_tokens', '—')}) | "
                     f"{per.get('output_tokens', '—')} |")
    costs = [(name, found["vs_no_extra"]) for name, found in results["sets"].items() if found.get("vs_no_extra")]
    if costs:
        lines += ["", "intercpt against no-extra (the plain translation) on the same items:", "",
                  "| set | items | no-extra model s/item | model time × | model calls × |", "|---|---|---|---|---|"]
        lines += [f"| {name} | {v['items']} | {v['no_extra_s_per_item']} | {v['model_time']} | {v['calls']} |"
                  for name, v in costs]
    return "\n".join(lines) + "\n"


MEASURES = (("ask_recall", "ask recall %"), ("question_precision", "question precision %"),
            ("needless_rate", "needless rate %"), ("questions_per_item", "questions / item"))
TITLES = {"gate": "GATE fr", "cocoa-mt": "CoCoA-MT train fr", "ambigmt-it": "AmbigMT dev {types} fr",
          "nothing-ambiguous": "nothing ambiguous fr"}


def set_title(name: str) -> str:
    """A set's name in the comparison table, with the AmbigMT types it takes."""
    return TITLES.get(name, name).format(types=" ".join(set_types().get(name, ())))


def compare(revisions: list[str], out: Path) -> str:
    """The table of ``benchmarks/results/asking.md``: one column per revision, from each one's asking.json."""
    from evaluation.report import format_cell

    results = [json.loads((out / rev / "asking.json").read_text(encoding="utf-8")) for rev in revisions]
    lines = ["| set (n) | measure | " + " | ".join(revisions) + " |", "|---|---|" + "---|" * len(revisions)]
    for name in results[0]["sets"]:
        found = [r["sets"].get(name, {}) for r in results]
        rows = [(label, [format_cell(f.get("scores", {}).get(key), None) for f in found])
                for key, label in MEASURES if any(key in f.get("scores", {}) for f in found)]
        per = [f.get("per_item") or {} for f in found]
        rows += [("s / item", [str(p.get("wall_s", "—")) for p in per]),
                 ("calls / item (streamed)", [f"{p.get('calls', '—')} ({p.get('streamed', '—')})" for p in per]),
                 ("prompt tokens / item (evaluated)",
                  [f"{p.get('input_tokens', '—')} ({p.get('evaluated_tokens', '—')})" for p in per]),
                 ("output tokens / item", [str(p.get("output_tokens", "—")) for p in per]),
                 ("model time × no-extra", [str((f.get("vs_no_extra") or {}).get("model_time", "—")) for f in found]),
                 ("model calls × no-extra", [str((f.get("vs_no_extra") or {}).get("calls", "—")) for f in found])]
        for i, (label, cells) in enumerate(rows):
            first = f"{set_title(name)} ({found[0].get('n', '—')})" if i == 0 else ""
            lines.append(f"| {first} | {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", nargs="?", help="the git revision to measure (a commit, branch or HEAD)")
    parser.add_argument("--inside", metavar="SHORT_HASH", help=argparse.SUPPRESS)  # run at a checkout
    parser.add_argument("--types", default="{}", help=argparse.SUPPRESS)  # set_types() of the calling checkout
    parser.add_argument("--model", type=Path, default=MODEL, help="the GGUF file (default: %(default)s)")
    parser.add_argument("--limit", type=int, default=6, help="items per set, a seeded sample (default 6)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", type=Path, default=Path("/work/shared/datasets"),
                        help="folder with gate/, cocoa-mt/ and ambigmt-dev/ (default: %(default)s)")
    parser.add_argument("--runs", type=Path, default=ROOT / "runs" / "asking", help="where the evaluator runs go")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "asking")
    parser.add_argument("--sets", nargs="+", choices=list(SETS), default=list(SETS), help="the sets to run (default: all)")
    parser.add_argument("--baseline", action="store_true",
                        help="also run no-extra on the same items and report intercpt's cost as a multiple of it")
    parser.add_argument("--compare", nargs="+", metavar="SHORT_HASH",
                        help="print the comparison table of revisions already measured, in this order")
    args = parser.parse_args()
    if args.compare:
        print(compare(args.compare, args.out), end="")
        return 0
    if args.inside:
        return inside(args)
    if not args.rev:
        parser.error("give the revision to measure, e.g. HEAD")
    return at_revision(args)


if __name__ == "__main__":
    sys.exit(main())
