"""Measure the pre-pass questions and the target-side readers on the dev data.

    python benchmarks/detection.py [--data DIR] [--every N] [--out benchmarks/results/detection.md]

Question recall (a question of the right family about the right words, the upper bound of ask
recall: the decide call may still drop it) on GATE (fr/es), CoCoA-MT train (de/es/fr), AmbigMT
names/professions and the Japanese set in tests/data; needless questions on
tests/data/two_people.yaml; accuracy and coverage of the gender, formality and register readers
against references; milliseconds per sentence.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.ambiguity import family_of  # noqa: E402
from assistant.checks import read_formality, read_person_gender  # noqa: E402
from assistant.detection import find_candidates  # noqa: E402
from evaluation.data import LoadReport  # noqa: E402
from evaluation.loaders import ambigmt  # noqa: E402
from tests.dev_sets import (address_question, asked_heads, cocoa_items, formality_reading, gate_items,  # noqa: E402
                            gender_question, gender_reading, japanese_items, two_people)
from tests.dev_sets import expletive_it, it_question  # noqa: E402


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f} % ({n}/{d})" if d else "n/a"


def accuracy_rows(name: str, readings: list[tuple[str | None, str]], rows: list[str]) -> None:
    read = [(got, gold) for got, gold in readings if got is not None]
    rows.append(f"| {name} | reader accuracy where readable | {pct(sum(g == o for g, o in read), len(read))} |")
    rows.append(f"| {name} | reader coverage | {pct(len(read), len(readings))} |")


def gate(data: Path, lang: str, every: int, rows: list[str]) -> None:
    items = gate_items(data / "gate", lang, every)
    pairs = list(dict.fromkeys((i.src, i.attributes["kw_s"]) for i in items))
    found = sum(gender_question(src, lang, kw) is not None for src, kw in pairs)
    rows.append(f"| GATE {lang} | gender question about the person | {pct(found, len(pairs))} |")
    accuracy_rows(f"GATE {lang} f/m references", [(gender_reading(i), i.attributes["gender"]) for i in items], rows)


def cocoa(data: Path, lang: str, every: int, rows: list[str]) -> None:
    items = cocoa_items(data / "cocoa-mt", lang, every)
    sources = list(dict.fromkeys(i.src for i in items))
    rows.append(f"| CoCoA-MT train {lang} | formality question | "
                f"{pct(sum(address_question(s, lang) is not None for s in sources), len(sources))} |")
    accuracy_rows(f"CoCoA-MT train {lang} references", [(formality_reading(i), i.attributes["formality"])
                                                         for i in items], rows)


def ambigmt_people(data: Path, rows: list[str]) -> None:
    for kind, langs in (("neutral_names", ("de", "es", "fr")), ("neutral_professions", ("de", "es"))):
        for lang in langs:
            items = ambigmt.load(data / "ambigmt-dev", [lang], LoadReport(), types=[kind])
            found = sum(any(family_of(c.ambiguity) == "gender" for c in find_candidates(i.src, lang)) for i in items)
            rows.append(f"| AmbigMT {kind} {lang} | gender question | {pct(found, len(items))} |")
            gold = [i for i in items if i.attributes.get("gender")]
            accuracy_rows(f"AmbigMT {kind} {lang} reference", [
                (read_person_gender(i.refs[0], lang, i.src), i.attributes["gender"]) for i in gold], rows)


def japanese(rows: list[str]) -> None:
    items = japanese_items()
    rows.append(f"| ja addressed (tests/data) | register question | "
                f"{pct(sum(address_question(i['en'], 'ja') is not None for i in items), len(items))} |")
    accuracy_rows("ja addressed polite/plain references", [
        (read_formality(i[level], "ja"), "formal" if level == "polite" else "informal")
        for i in items for level in ("polite", "plain")], rows)


def needless(rows: list[str]) -> None:
    items = two_people()
    settled = sum(i["settled"].lower() in asked_heads(i["text"]) for i in items)
    open_ = sum(i["unsettled"].lower() in asked_heads(i["text"]) for i in items)
    rows.append(f"| two people (tests/data) | question about the settled person (≤ 5 %) | {pct(settled, len(items))} |")
    rows.append(f"| two people (tests/data) | question about the unsettled person (≥ 80 %) | {pct(open_, len(items))} |")


def referent_it(rows: list[str]) -> None:
    items = expletive_it()
    for label, name in (("expletive", "expletive/clausal \"it\" asked (≤ 5 %)"),
                        ("referential", "referential \"it\" asked (recall)")):
        chosen = [i for i in items if i["label"] == label]
        rows.append(f"| expletive it (tests/data) | {name} | {pct(sum(it_question(i['text']) for i in chosen), len(chosen))} |")


def ambigmt_it(data: Path, rows: list[str]) -> None:
    for lang in ("de", "es", "fr"):
        sources = list(dict.fromkeys(i.src for i in ambigmt.load(data / "ambigmt-dev", [lang], LoadReport(),
                                                                 types=["it_resolution"])))
        rows.append(f"| AmbigMT it_resolution {lang} | \"it\" question | "
                    f"{pct(sum(it_question(s, lang) for s in sources), len(sources))} |")


def timing(data: Path, rows: list[str]) -> None:
    sources = list(dict.fromkeys(i.src for i in gate_items(data / "gate", "fr")))[:300]
    start = time.perf_counter()
    for src in sources:
        find_candidates(src, "fr")
    per = 1000 * (time.perf_counter() - start) / len(sources)
    rows.append(f"| GATE fr sources ({len(sources)}) | pre-pass time per sentence (every rule) | {per:.1f} ms |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("/work/shared/datasets"))
    parser.add_argument("--every", type=int, default=1, help="measure every N-th source of GATE and CoCoA-MT")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "detection.md")
    args = parser.parse_args()
    find_candidates("Warm up the pipelines.", "fr")
    rows = ["| data | measure | result |", "| --- | --- | --- |"]
    for lang in ("fr", "es"):
        gate(args.data, lang, args.every, rows)
    for lang in ("de", "es", "fr"):
        cocoa(args.data, lang, args.every, rows)
    ambigmt_people(args.data, rows)
    japanese(rows)
    needless(rows)
    referent_it(rows)
    ambigmt_it(args.data, rows)
    timing(args.data, rows)
    text = ("# Detection pre-pass and target readers on the dev data\n\n"
            f"`python benchmarks/detection.py --every {args.every}`: every {args.every}. source of GATE and CoCoA-MT "
            "train; a question counts when it is of the right family and names the person's words (the "
            "decide call may still drop it). GATE readers read the person the question names; AmbigMT "
            "readers read without a question (names: the pronouns of the whole text).\n\n"
            + "\n".join(rows) + "\n")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
