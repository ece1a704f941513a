"""Measure the spaCy pre-pass (people, address) and the target-side readers on the dev data.

    python benchmarks/detection.py [--data DIR] [--out benchmarks/results/detection.md]

Candidate recall on GATE (fr/es), CoCoA-MT (de/es/fr), AmbigMT names/professions and the Japanese
set in tests/data; needless questions on tests/data/two_people.yaml; accuracy and coverage of the
gender, formality and register readers against references; milliseconds per sentence.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.checks import read_formality  # noqa: E402
from assistant.detection import english_pipeline  # noqa: E402
from assistant.nlp.address import address_candidates  # noqa: E402
from assistant.nlp.people import find_person_mentions, unsettled  # noqa: E402
from assistant.nlp.target_gender import gender_of_mention, japanese_register  # noqa: E402
from evaluation.data import load_ambigmt  # noqa: E402

GENDERS = {"f": "feminine", "m": "masculine"}


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f} % ({n}/{d})" if d else "n/a"


def kw_words(kw: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[\w']+", kw)}


def covering(candidates, kw: set[str]):
    for m in candidates:
        words = {w.lower() for w in re.findall(r"[\w']+", m.text)} | {w.lower() for w in m.agreement}
        if words & kw:
            return m
    return None


def gate(data: Path, lang: str, rows: list[str]) -> None:
    path = data / "gate" / "data" / lang.upper() / f"{lang.upper()}_2_variants.tsv"
    with open(path, encoding="utf-8", newline="") as handle:
        records = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    found = read = right = 0
    for r in records:
        mention = covering(unsettled(find_person_mentions(r["source"])), kw_words(r["kw_s"]))
        found += mention is not None
        for variant, gender in GENDERS.items():
            label = gender_of_mention(r[variant], lang, mention, r["source"]).label if mention else None
            read += label is not None
            right += label == gender
    rows.append(f"| GATE {lang} | gender candidate covering kw_s | {pct(found, len(records))} |")
    rows.append(f"| GATE {lang} | gender read off f/m references: accuracy | {pct(right, read)} |")
    rows.append(f"| GATE {lang} | gender read off f/m references: coverage | {pct(read, 2 * len(records))} |")


def cocoa(data: Path, lang: str, rows: list[str]) -> None:
    base = data / "cocoa-mt" / "CoCoA-MT" / "train" / f"en-{lang}"
    found = total = read = right = 0
    for domain in ("telephony", "topical_chat"):
        stem = base / f"formality-control.train.{domain}.en-{lang}"
        sources = Path(f"{stem}.en").read_text(encoding="utf-8").splitlines()
        for src in sources:
            total += 1
            found += bool(address_candidates(src, lang))
        for label in ("formal", "informal"):
            for ref in Path(f"{stem}.{label}.{lang}").read_text(encoding="utf-8").splitlines():
                got = read_formality(ref, lang).label
                read += got is not None
                right += got == label
    rows.append(f"| CoCoA-MT {lang} | address candidate | {pct(found, total)} |")
    rows.append(f"| CoCoA-MT {lang} | formality read off references (checks.read_formality): accuracy | {pct(right, read)} |")
    rows.append(f"| CoCoA-MT {lang} | formality read off references: coverage | {pct(read, 2 * total)} |")


def ambigmt(data: Path, rows: list[str]) -> None:
    for kind, langs in (("neutral_names", ("de", "es", "fr")), ("neutral_professions", ("de", "es"))):
        for lang in langs:
            items = load_ambigmt(data / "ambigmt-dev", types=[kind], langs=[lang])
            found = read = right = gold = 0
            for item in items:
                candidates = unsettled(find_person_mentions(item.src))
                found += bool(candidates)
                if "gender" not in item.attributes:
                    continue
                gold += 1
                mention = next((m for m in candidates if m.kind in ("placeholder", "name", "noun")), None)
                label = gender_of_mention(item.refs[0], lang, mention, item.src).label
                read += label is not None
                right += label == item.attributes["gender"]
            rows.append(f"| AmbigMT {kind} {lang} | gender candidate | {pct(found, len(items))} |")
            rows.append(f"| AmbigMT {kind} {lang} | gender read off reference: accuracy / coverage | "
                        f"{pct(right, read)} / {pct(read, gold)} |")


def japanese(rows: list[str]) -> None:
    items = yaml.safe_load((ROOT / "tests" / "data" / "ja_addressed.yaml").read_text(encoding="utf-8"))
    found = sum(bool(address_candidates(i["en"], "ja")) for i in items)
    rows.append(f"| ja addressed (tests/data) | address candidate | {pct(found, len(items))} |")
    read = right = 0
    for item in items:
        for label in ("polite", "plain"):
            got = japanese_register(item[label]).label
            got = "polite" if got == "honorific" else got
            read += got is not None
            right += got == label
    rows.append(f"| ja addressed (tests/data) | register read off polite/plain references: accuracy | {pct(right, read)} |")
    rows.append(f"| ja addressed (tests/data) | register read off references: coverage | {pct(read, 2 * len(items))} |")


def needless(rows: list[str]) -> None:
    items = yaml.safe_load((ROOT / "tests" / "data" / "two_people.yaml").read_text(encoding="utf-8"))
    settled = open_ = 0
    for item in items:
        asked = {m.head.lower() for m in unsettled(find_person_mentions(item["text"]))}
        settled += item["settled"].lower() in asked
        open_ += item["unsettled"].lower() in asked
    rows.append(f"| two people (tests/data) | question about the settled person (≤ 5 %) | {pct(settled, len(items))} |")
    rows.append(f"| two people (tests/data) | question about the unsettled person (≥ 80 %) | {pct(open_, len(items))} |")


def timing(data: Path, rows: list[str]) -> None:
    path = data / "gate" / "data" / "FR" / "FR_2_variants.tsv"
    with open(path, encoding="utf-8", newline="") as handle:
        sources = [r["source"] for r in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)][:300]
    nlp = english_pipeline()
    start = time.perf_counter()
    for src in sources:
        doc = nlp(src)
        find_person_mentions(doc)
        address_candidates(doc, "fr")
    per = 1000 * (time.perf_counter() - start) / len(sources)
    rows.append(f"| GATE fr sources (300) | pre-pass time per sentence (parse + people + address) | {per:.1f} ms |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("/work/shared/datasets"))
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "detection.md")
    args = parser.parse_args()
    find_person_mentions("Warm up the pipelines.")
    rows = ["| data | measure | result |", "| --- | --- | --- |"]
    for lang in ("fr", "es"):
        gate(args.data, lang, rows)
    for lang in ("de", "es", "fr"):
        cocoa(args.data, lang, rows)
    ambigmt(args.data, rows)
    japanese(rows)
    needless(rows)
    timing(args.data, rows)
    text = "# Detection pre-pass and target readers on the dev data\n\n" + "\n".join(rows) + "\n"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
