"""Is the Japanese register the person chose kept, and can the register reader be trusted?

    python benchmarks/japanese_register.py [--model PATH.gguf] [--sources 50] [--skip 0] [--before main|none] \
        [--validate-only]

Data: CoCoA-MT's train split, pair en-ja (professional translations of conversational English, two
domains). Selection, fixed before any rule ran: the English sources of both domains, shuffled with
``random.Random(26)``; the first ``--sources`` are translated (after the first ``--skip``: a later
sample, held out from what the prompts were tuned on), every other one is the reader's validation set.
Labels, a rule written down first: a source's formal reference is polite and its
informal one plain, as the data set's README says ("informal was mapped to kudaketa and formal to
teineigo").

1. Validation: the register reader (assistant/nlp/japanese_register.py) on every reference of the
   validation sources, by morphology (SudachiPy) and by surface endings (the reading without it):
   accuracy where it reads one register, and coverage, per register.
2. Translation: each selected source translated by the chain's model steps into Japanese after the
   answer "plain" and after the answer "polite" (the register question's own options), then verified
   and repaired as the product does, all on the real GGUF model through llama.cpp: once with the
   code of git ref ``--before`` (extracted with ``git archive``) and once with this checkout's. Every
   output of both runs is read by this checkout's reader: the asked register, the other one, both
   (sentences disagree) or none.
Writes benchmarks/results/japanese_register.md (and the outputs beside it as .jsonl).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__" and "--translate-into" not in sys.argv:  # a translation run brings its own code
    sys.path.insert(0, str(ROOT))

SEED = 26
DATA = Path(os.environ.get("INTERCPT_SHARED", ROOT.parent / "shared")) / "datasets" / "cocoa-mt"
RESULTS = ROOT / "benchmarks" / "results"
ANSWERS = {"plain": 0, "polite": 1}   # the register question's options for ja, by position
DEFAULT_MODEL = Path.home() / ".cache/test-models/qwen2.5-coder-1.5b/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


def split_sources(data: Path, count: int, skip: int = 0) -> tuple[list, list]:
    """(an item of each source to translate, validation items): CoCoA-MT train en-ja items grouped by
    source, shuffled once; the ``count`` sources after the first ``skip`` are translated."""
    from evaluation.data import LoadReport
    from evaluation.loaders import cocoa_mt

    items = cocoa_mt.load(data, ["ja"], LoadReport(), split="train")
    sources = list(dict.fromkeys(item.src for item in items))
    random.Random(SEED).shuffle(sources)
    by_source = {item.src: item for item in items}  # the formal and the informal item share source and type
    chosen = sources[skip:skip + count]
    translated = set(chosen)
    return [by_source[source] for source in chosen], [item for item in items if item.src not in translated]


def validate(items: list) -> list[str]:
    """Markdown rows: the reader's accuracy and coverage per register, by morphology and by endings."""
    from assistant.ambiguity import get_type
    from assistant.nlp import japanese_register as reader

    gold = {"formal": reader.POLITE, "informal": reader.PLAIN}
    rows = []
    ways = [("endings", False)] + ([("morphology (SudachiPy)", True)] if reader.morphology_available() else [])
    for name, morphology in ways:
        reader_available = reader.morphology_available
        reader.morphology_available = lambda: morphology  # noqa: E731 - read this way for this row
        try:
            for level, register in gold.items():
                refs = [item.refs[0] for item in items if item.attributes[get_type(item.ambiguity).gold] == level]
                labels = [reader.japanese_register(ref).label for ref in refs]
                labels = [reader.POLITE if label == reader.HONORIFIC else label for label in labels]
                read = [label for label in labels if label is not None]
                right = sum(label == register for label in read)
                rows.append(f"| {name} | {register} | {len(refs)} | {len(read) / len(refs):.1%} | "
                            f"{right / max(len(read), 1):.1%} ({right}/{len(read)}) |")
        finally:
            reader.morphology_available = reader_available
    return rows


def translate(model: str, items: list, out: Path) -> None:
    """Translate every item's source after each answer to the question of its type, with the code on
    ``sys.path`` (whose loader gave the items their type); one JSON line per output."""
    from assistant.ambiguity import get_type
    from assistant.backends import ModelSpec, load_chat_model
    from assistant.repair import verify_and_repair
    from assistant.steps import ModelSteps
    from assistant.transcript import Transcript, Turn

    steps = ModelSteps(load_chat_model(ModelSpec.parse(f"llamacpp:{model}")))
    with out.open("w", encoding="utf-8") as sink:
        for item in items:
            kind, source = get_type(item.ambiguity), item.src
            for register, position in ANSWERS.items():
                turn = Turn(item.ambiguity, "you", kind.fixed_question("you", "ja"), list(kind.options("ja")),
                            answer=kind.options("ja")[position], answered_by="oracle")
                transcript = Transcript(source=source, target_lang="ja", method="intercpt", model=model, turns=[turn])
                start = time.monotonic()
                draft = steps.translate(transcript)
                final, checks = verify_and_repair(steps, transcript, draft)
                sink.write(json.dumps({"source": source, "asked": register, "draft": draft, "final": final,
                                       "attempts": max((c.attempts for c in checks), default=1),
                                       "seconds": round(time.monotonic() - start, 1)}, ensure_ascii=False) + "\n")
                sink.flush()


def run_code(code_root: Path, model: str, count: int, skip: int, out: Path) -> None:
    """Run the translation step in a fresh process whose ``assistant`` package is ``code_root``'s."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(code_root), *filter(None, [os.environ.get("PYTHONPATH")])]))
    subprocess.run([sys.executable, __file__, "--translate-into", str(out), "--model", model, "--sources", str(count),
                    "--skip", str(skip)], cwd=code_root, env=env, check=True)


def extract(ref: str, into: Path) -> Path:
    """The tree of git ``ref`` as files under ``into`` (prompts and data included)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=__import__("io").BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def judge(path: Path) -> dict[str, Counter]:
    """Per asked register: how many final outputs read as it, as the other, as both, as none."""
    from assistant.nlp.japanese_register import HONORIFIC, POLITE, japanese_register, sentence_registers

    outcome: dict[str, Counter] = {register: Counter() for register in ANSWERS}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        label = japanese_register(row["final"]).label
        label = POLITE if label == HONORIFIC else label
        marked = {reading for reading, _ in sentence_registers(row["final"]) if reading}
        verdict = ("asked" if label == row["asked"] else "other" if label else "both" if len(marked) > 1 else "none")
        outcome[row["asked"]][verdict] += 1
        outcome[row["asked"]]["seconds"] += row["seconds"]
    return outcome


def report_rows(name: str, outcome: dict[str, Counter]) -> list[str]:
    rows = []
    for register, counts in outcome.items():
        total = sum(counts[v] for v in ("asked", "other", "both", "none"))
        shown = counts["asked"] + counts["other"] + counts["both"]
        rows.append(f"| {name} | {register} | {total} | {counts['asked']} | {counts['other']} | {counts['both']} | "
                    f"{counts['none']} | {counts['asked'] / max(shown, 1):.0%} | {counts['none'] / max(total, 1):.0%} | "
                    f"{counts['seconds'] / max(total, 1):.0f} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(DEFAULT_MODEL))
    parser.add_argument("--sources", type=int, default=50)
    parser.add_argument("--skip", type=int, default=0, help="translate the sources after the first SKIP")
    parser.add_argument("--before", default="main", help="git ref of the code to compare with, or 'none'")
    parser.add_argument("--validate-only", action="store_true")
    parser.add_argument("--translate-into", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    chosen, validation = split_sources(DATA, args.sources, args.skip)
    if args.translate_into:
        import assistant

        print(f"translating with {Path(assistant.__file__).parent}", flush=True)
        translate(args.model, chosen, args.translate_into)
        return
    lines = ["# Japanese register: reader validation and register kept after an answer", "",
             f"Data: CoCoA-MT train en-ja, sources shuffled with seed {SEED} (see the script's header for the "
             "selection and the labels).", "", "## The register reader on the references of "
             f"{len(validation) // 2} validation sources", "",
             "| reading | reference register | references | coverage | accuracy where read |",
             "|---|---|---|---|---|", *validate(validation)]
    if not args.validate_only:
        RESULTS.mkdir(parents=True, exist_ok=True)
        outputs = {"before": RESULTS / "japanese_register.before.jsonl", "after": RESULTS / "japanese_register.after.jsonl"}
        if args.before == "none":
            del outputs["before"]
        else:
            with tempfile.TemporaryDirectory() as tmp:
                run_code(extract(args.before, Path(tmp)), args.model, args.sources, args.skip, outputs["before"])
        run_code(ROOT, args.model, args.sources, args.skip, outputs["after"])
        lines += ["", f"## Register of the delivered translation ({args.sources} sources after the first {args.skip}, "
                  f"model "
                  f"`{Path(args.model).name}`, llama.cpp, greedy, the product's repair rounds)", "",
                  ("Before: not run" if args.before == "none" else f"Before: the code of `{args.before}`")
                  + "; after: this checkout's. Both read by this checkout's reader. "
                  "\"shown\" = outputs that read as a register (asked, other, or both).", "",
                  "| code | asked | outputs | asked register | other | both (sentences disagree) | none | "
                  "asked / shown | none / outputs | s per output |", "|---|---|---|---|---|---|---|---|---|---|"]
        for name, path in outputs.items():
            lines += report_rows(name, judge(path))
    (RESULTS / "japanese_register.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
