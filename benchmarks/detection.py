"""Measure the pre-pass questions and the target-side readers on the dev data and real-text sets.

    python benchmarks/detection.py [--data DIR] [--every N] [--model SPEC] [--only SECTION ...] \
        [--out benchmarks/results/detection.md]

Question recall (a question of the right family about the right words, the upper bound of ask
recall: the decide call may still drop it) on GATE (fr/es), CoCoA-MT train (de/es/fr), AmbigMT
names/professions/it (people also apart where the gender reader reads the person's gender in the
reference and where it reads none) and the Japanese set in tests/data; questions about the settled
and the open person on tests/data/two_people_real.yaml, expletive "it" and person-looking things
asked (with ``--model``, also by the chain on that model: its decide call, or the call that writes
the question about "it"; and AmbigMT's French "it" sources, every N-th), each set's tuning and
held-out halves apart; the share of needed questions in the labelled
tests/data/asked_questions.yaml; accuracy and coverage of the gender, formality and register
readers against references (for AmbigMT's names and Spanish professions also against a person's
reading of each reference, tests/data/ambigmt_reference_readings.yaml); milliseconds per sentence of the
pre-pass beside the spaCy parse alone (best of five passes each, taking turns in the same run).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from assistant.ambiguity import family_of, get_type  # noqa: E402
from assistant.backends import GenerationConfig, ModelSpec, load_chat_model  # noqa: E402
from assistant.chain import MAX_QUESTIONS_LIMIT, Assistant, ChainOptions  # noqa: E402
from assistant.checks import read_formality  # noqa: E402
from assistant.detection import PLACEHOLDER, find_candidates  # noqa: E402
from assistant.nlp.coreference import FEMININE, MASCULINE  # noqa: E402
from assistant.nlp.pipelines import english_pipeline  # noqa: E402
from assistant.nlp.people import find_person_mentions  # noqa: E402
from assistant.usage import total  # noqa: E402
from evaluation.data import Item, LoadReport  # noqa: E402
from evaluation.loaders import ambigmt  # noqa: E402
from evaluation.metrics.asking import gold_words, words  # noqa: E402
from tests.dev_sets import (IT_SETS, PERSON_LOOKING_THINGS, TWO_PEOPLE, address_question, asked_about,  # noqa: E402
                            asked_heads, answered_in_turn, asked_in_dialogue, checked_gender, cocoa_gendered_references,
                            cocoa_items, expletive_it, formality_reading, gate_items, gender_question,
                            gender_reading, it_question, japanese_items, person_looking_things, references_differ,
                            speaker_gender_span, two_people)


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
    rows.append(f"| GATE {lang} | gender question about the person (inclusive forms, GATE's task) | "
                f"{pct(found, len(pairs))} |")
    generic = sum(gender_question(src, lang, kw, inclusive=False) is not None for src, kw in pairs)
    rows.append(f"| GATE {lang} | gender question about the person, anyone of a kind left generic (the default) | "
                f"{pct(generic, len(pairs))} |")
    accuracy_rows(f"GATE {lang} f/m references", [(gender_reading(i), i.attributes["gender"]) for i in items], rows)


def cocoa(data: Path, lang: str, every: int, rows: list[str]) -> None:
    items = cocoa_items(data / "cocoa-mt", lang, every)
    sources = list(dict.fromkeys(i.src for i in items))
    rows.append(f"| CoCoA-MT train {lang} | formality question | "
                f"{pct(sum(address_question(s, lang) is not None for s in sources), len(sources))} |")
    differ = references_differ(items)
    marked = [s for s in sources if s in differ]
    rows.append(f"| CoCoA-MT train {lang} | formality question where the formal and informal references differ | "
                f"{pct(sum(address_question(s, lang) is not None for s in marked), len(marked))} |")
    gendered = cocoa_gendered_references(data / "cocoa-mt", lang, every)
    spans = {source: speaker_gender_span(source, lang) for source, _ in gendered}  # one pre-pass per source
    shown = [(bool(pairs), spans[source] is not None) for source, pairs in gendered]
    rows.append(f"| CoCoA-MT train {lang} | gender of \"I\"/\"you\" asked and needed (the feminine references differ) | "
                f"{pct(sum(n for n, a in shown if a), sum(a for _, a in shown))} |")
    rows.append(f"| CoCoA-MT train {lang} | gender of \"I\"/\"you\" asked where the feminine references differ | "
                f"{pct(sum(a for n, a in shown if n), sum(n for n, _ in shown))} |")
    accuracy_rows(f"CoCoA-MT train {lang} references",
                  [(formality_reading(i), i.attributes[get_type(i.ambiguity).gold]) for i in items], rows)
    accuracy_rows(f"CoCoA-MT train {lang} references and those for a woman where they differ, \"I\"/\"you\" asked "
                  "about", [(checked_gender(reference, lang, source, spans[source]), gender) for source, pairs
                            in gendered if pairs and spans[source] for pair in pairs
                            for reference, gender in zip(pair, (MASCULINE, FEMININE))], rows)


def ambigmt_people(data: Path, rows: list[str]) -> None:
    for kind in ambigmt.types_of_family("gender"):
        for lang in ambigmt.LAYOUT[kind].langs:
            items = ambigmt.load(data / "ambigmt-dev", [lang], LoadReport(), types=[kind])
            candidates = {i.src: find_candidates(i.src, lang) for i in items}
            questioned = {src: any(family_of(c.ambiguity) == "gender" for c in found) for src, found in candidates.items()}
            rows.append(f"| AmbigMT {kind} {lang} | gender question | "
                        f"{pct(sum(questioned[i.src] for i in items), len(items))} |")
            shown = {i.src: _reads_a_gender(i) for i in items}
            for reads, where in ((True, "the reader reads that person's gender in the reference"),
                                 (False, "the reader reads none in the reference (it may show none)")):
                these = [i for i in items if shown[i.src] is reads]
                rows.append(f"| AmbigMT {kind} {lang} | gender question where {where} | "
                            f"{pct(sum(questioned[i.src] for i in these), len(these))} |")
            gold = [i for i in items if i.attributes.get("gender")]
            asked = {i.src: PLACEHOLDER if PLACEHOLDER in i.src else  # the masked pronoun the label is about
                     next((c.span for c in candidates[i.src] if c.ambiguity == kind), None) for i in gold}
            readings = [checked_gender(i.refs[0], lang, i.src, asked[i.src]) if asked[i.src] else None for i in gold]
            accuracy_rows(f"AmbigMT {kind} {lang} reference", list(zip(readings, (i.attributes["gender"] for i in gold))),
                          rows)
            if any(key[:2] == (kind, lang) for key in PERSON_READ):
                read_by_a_person(f"AmbigMT {kind} {lang} reference", [
                    (reading, PERSON_READ.get((kind, lang, i.src, asked[i.src])))
                    for i, reading in zip(gold, readings) if reading is not None], rows)


def _reads_a_gender(item: Item) -> bool:
    """Whether the gender reader reads a gender in the item's reference for the person its label is about:
    its masked pronoun, else the first name or person noun of the source that the label's words name."""
    gold = gold_words(item)
    span = PLACEHOLDER if PLACEHOLDER in item.src else next(
        (m.text for m in find_person_mentions(item.src) if m.kind in ("name", "noun") and words(m.text) & gold), None)
    return span is not None and checked_gender(item.refs[0], item.lang, item.src, span) is not None


def read_by_a_person(name: str, readings: list[tuple[str, str | None]], rows: list[str]) -> None:
    """The reader against what a person reads in the same reference (``None``: a reading no one has labelled; "none":
    the reference shows no gender, and any reading of it is wrong)."""
    labelled = [(got, shown) for got, shown in readings if shown is not None]
    rows.append(f"| {name} | reader accuracy where readable, against a person's reading of the reference "
                f"({PERSON_READ_FILE}) | {pct(sum(got == shown for got, shown in labelled), len(labelled))} |")
    rows.append(f"| {name} | readings no person has read | {len(readings) - len(labelled)} |")


PERSON_READ_FILE = "tests/data/ambigmt_reference_readings.yaml"
PERSON_READ = {(r["type"], r["lang"], r["source"], r["span"]): r["shows"]  # "none": the reference shows none
               for r in yaml.safe_load((ROOT / PERSON_READ_FILE).read_text(encoding="utf-8"))}


def japanese(rows: list[str]) -> None:
    items = japanese_items()
    rows.append(f"| ja addressed (tests/data) | register question | "
                f"{pct(sum(address_question(i['en'], 'ja') is not None for i in items), len(items))} |")
    accuracy_rows("ja addressed polite/plain references", [
        (read_formality(i[level], "ja"), "formal" if level == "polite" else "informal")
        for i in items for level in ("polite", "plain")], rows)


def needless(rows: list[str], assistant: Assistant | None) -> None:
    """Questions about the person a pronoun settles and about the one it leaves open, asked by the
    pre-pass (parse and grammar rules alone) and, with ``--model``, after that model's decide call."""
    for file in TWO_PEOPLE:
        two_people_rows(rows, assistant, file)


def two_people_rows(rows: list[str], assistant: Assistant | None, file: str) -> None:
    """The rows of ``needless`` for one set of two-people sentences."""
    items = two_people(file)
    name = f"two people, real text ({len(items)}, tests/data/{file})"
    for reader, asked, calls in readers(assistant, "decide", asked_heads, "gender"):
        heads = [asked(i["text"]) for i in items]
        rows += split_rows(f"{name}, {reader}", "question about the settled person (≤ 30 %)",
                           [asked_about(i["settled"], h) for i, h in zip(items, heads)])
        open_asked = [asked_about(i["unsettled"], h) for i, h in zip(items, heads)]
        rows += split_rows(f"{name}, {reader}", "question about the open person where the French shows its gender: a "
                           "noun, or a name or title labelled so (`unsettled_shown_fr`) (≥ 95 %)",
                           [a if i.get("unsettled_shown_fr") is not False else None for i, a in zip(items, open_asked)])
        rows += split_rows(f"{name}, {reader}", "question about the open person, also where the French shows no "
                           "gender of theirs", open_asked)
        for shown, measure in ((True, "an open name or title whose gender the French shows, asked"),
                               (False, "an open name or title whose gender the French does not show, asked (needless)")):
            rows += split_rows(f"{name}, {reader}", f"{measure} (`unsettled_shown_fr`)",
                               [a if i.get("unsettled_shown_fr") is shown else None for i, a in zip(items, open_asked)])
        if calls:
            rows.append(f"| {name}, {reader} | model calls per sentence | {sum(calls) / len(calls):.2f} |")
    # answered with the pronoun's gender instead, every question is asked: the rows above
    # (the chain's calls are counted above: it reads each text once, and the dialogues below reuse its readings)
    dialogues = [("pre-pass", asked_in_dialogue)]
    if assistant is not None:
        dialogues.append((f"chain on {assistant.model_spec} (its decide call)",
                          lambda item: chain_answered_in_turn(assistant, item)))
    for reader, asked_of in dialogues:
        asked = [asked_of(i) for i in items]
        rows += split_rows(f"{name}, {reader}, asked one after the other, the open person of the other gender",
                           "question about the settled person (≤ 30 %)",
                           [asked_about(i["settled"], h) for i, h in zip(items, asked)])
        rows += split_rows(f"{name}, {reader}, asked one after the other, the open person of the other gender",
                           "question about the open person where the French shows its gender (≥ 95 %)",
                           [asked_about(i["unsettled"], h) if i.get("unsettled_shown_fr") is not False else None
                            for i, h in zip(items, asked)])


def people_and_things(rows: list[str], assistant: Assistant | None) -> None:
    """Person-looking things and real people asked about, by the pre-pass and, with ``--model``,
    by the chain (the pre-pass, then that model's decide call)."""
    for file in PERSON_LOOKING_THINGS:
        items = person_looking_things(file)
        for reader, asked, _ in readers(assistant, "decide", asked_heads, "gender"):
            hits = [i["word"].split()[0].lower() in asked(i["text"]) for i in items]
            for label, name, target in (("thing", "person-looking thing", "≤ 5 %"), ("person", "real person", "≥ 95 %")):
                rows += split_rows(f"person-looking things (tests/data/{file}), {reader}", f"{name} asked ({target})",
                                   [h if i["label"] == label else None for i, h in zip(items, hits)])


def referent_it(rows: list[str], assistant: Assistant | None) -> None:
    """Expletive and referential "it" asked about, by the pre-pass and, with ``--model``, by the
    chain (the pre-pass, then that model's call that writes the question)."""
    measures = {IT_SETS[0]: (("expletive", "expletive/clausal \"it\" asked (≤ 5 %)"),
                             ("referential", "referential \"it\" asked (recall)")),
                IT_SETS[1]: (("named", "\"it\" whose thing the string names, asked (needless)"),
                             ("open", "\"it\" whose thing the string leaves open, asked (recall)"))}
    for set_name, labels in measures.items():
        items = expletive_it(set_name)
        for reader, asked, _ in readers(assistant, "detect", lambda text: {"it"} if it_question(text) else set(),
                                        "referent"):
            hits = ["it" in asked(i["text"]) for i in items]
            for label, name in labels:
                rows += split_rows(f"{set_name.removesuffix('.yaml')} (tests/data), {reader}", name,
                                   [h if i["label"] == label else None for i, h in zip(items, hits)])


def readers(assistant: Assistant | None, call: str, pre_pass, family: str) -> list[tuple[str, object, list[int]]]:
    """(name, words asked about for a text, model calls per text): the pre-pass alone and, with a
    model, the whole chain."""
    found = [("pre-pass", pre_pass, [])]
    if assistant is not None:
        calls: list[int] = []
        found.append((f"{call} call of {assistant.model_spec}",
                      lambda text: chain_asked_heads(assistant, text, calls, family), calls))
    return found


def split_rows(name: str, measure: str, hits: list[bool | None]) -> list[str]:
    """One row for the items in the set file's even places (the half whose errors rules may be tuned
    on), one for its odd places (held out: no rule is written looking at them), one for all;
    ``None`` marks an item that does not count for this measure."""
    rows = []
    for half, part in (("tuning half", hits[0::2]), ("held-out half", hits[1::2]), ("all", hits)):
        counted = [h for h in part if h is not None]
        rows.append(f"| {name}, {half} | {measure} | {pct(sum(counted), len(counted))} |")
    return rows


def chain_asked_heads(assistant: Assistant, text: str, calls: list[int], family: str = "gender") -> set[str]:
    """The words of every question of ``family`` the chain asks (every question skipped, none capped)."""
    dialogue = assistant.start(text, "fr", options=ChainOptions(max_questions=MAX_QUESTIONS_LIMIT))
    asked = set()
    while (turn := dialogue.ask_next()) is not None:
        if family_of(turn.ambiguity) == family:
            asked |= {w.lower() for w in re.findall(r"\w+", turn.span)}
        dialogue.answer(None, "none")
    calls.append(total(dialogue.transcript.usage.values()).calls)
    return asked


def chain_answered_in_turn(assistant: Assistant, item: dict) -> set[str]:
    """``answered_in_turn`` on the chain with its model."""
    return answered_in_turn(assistant.start(item["text"], "fr", options=ChainOptions(max_questions=MAX_QUESTIONS_LIMIT)),
                            item)


def load_assistant(spec: str | None) -> Assistant | None:
    """The chain on a real model, its calls counted, or None without ``--model``."""
    if spec is None:
        return None
    parsed = ModelSpec.parse(spec)
    chat_model = load_chat_model(parsed, GenerationConfig(temperature=0.0, seed=0))
    return Assistant.for_model(chat_model, parsed)


def needed_questions(rows: list[str]) -> None:
    """The share of the questions the chain asked on real text that a translator labelled needed
    (tests/data/asked_questions.yaml, by the rule in its header), overall and per type."""
    path = ROOT / "tests" / "data" / "asked_questions.yaml"
    labelled = [q for q in yaml.safe_load(path.read_text(encoding="utf-8")) if q.get("needed") is not None]
    name = f"questions asked on real text ({len(labelled)} labelled, tests/data/asked_questions.yaml)"
    rows.append(f"| {name} | needed (≥ 90 %) | {pct(sum(q['needed'] for q in labelled), len(labelled))} |")
    for kind in sorted({q["type"] for q in labelled}):
        of_kind = [q for q in labelled if q["type"] == kind]
        rows.append(f"| … {kind} | needed | {pct(sum(q['needed'] for q in of_kind), len(of_kind))} |")
    for why in sorted({q.get("why") for q in labelled if not q["needed"]} - {None}):
        rows.append(f"| … needless: {why} | share of all | "
                    f"{pct(sum(q.get('why') == why for q in labelled), len(labelled))} |")


def ambigmt_it(data: Path, rows: list[str], assistant: Assistant | None, every: int) -> None:
    """The "it" question on AmbigMT's referent sources, by the pre-pass and, with ``--model``, by the
    chain into French on every ``every``-th French source (the call that writes the question may drop it)."""
    for kind in ambigmt.types_of_family("referent"):
        for lang in ambigmt.LAYOUT[kind].langs:
            sources = list(dict.fromkeys(i.src for i in ambigmt.load(data / "ambigmt-dev", [lang], LoadReport(),
                                                                     types=[kind])))
            rows.append(f"| AmbigMT {kind} {lang} | \"it\" question | "
                        f"{pct(sum(it_question(s, lang) for s in sources), len(sources))} |")
            if assistant is not None and lang == "fr":
                sample, calls = sources[::every], []
                asked = sum("it" in chain_asked_heads(assistant, s, calls, "referent") for s in sample)
                rows.append(f"| AmbigMT {kind} {lang}, every {every}. source, detect call of {assistant.model_spec} "
                            f"| \"it\" question | {pct(asked, len(sample))} |")


TIMING_SOURCES = 300
TIMING_RUNS = 5  # each time is the best of this many passes: one pass varies by ±30 % on a busy 2-core machine


def best_ms_per_sentence(steps: list, sources: list[str]) -> list[float]:
    """Milliseconds per source of each of ``steps`` over ``sources``, each the fastest of ``TIMING_RUNS`` passes;
    the steps take turns within each run, so that a change in the machine's load falls on all of them."""
    passes: list[list[float]] = [[] for _ in steps]
    for _ in range(TIMING_RUNS):
        for step, times in zip(steps, passes):
            start = time.perf_counter()
            for src in sources:
                step(src)
            times.append(time.perf_counter() - start)
    return [1000 * min(times) / len(sources) for times in passes]


def timing(data: Path, rows: list[str]) -> None:
    """The pre-pass beside the spaCy parse it starts with, on the same sources in one run: the parse is the part
    no rule can remove, so the ratio says what the rules cost on top of it, whatever the machine's load."""
    sources = list(dict.fromkeys(i.src for i in gate_items(data / "gate", "fr")))[:TIMING_SOURCES]
    pipeline = english_pipeline()
    parse_ms, pre_pass_ms = best_ms_per_sentence([pipeline, lambda src: find_candidates(src, "fr")], sources)
    name = f"GATE fr sources ({len(sources)}), best of {TIMING_RUNS} passes each, taking turns"
    rows.append(f"| {name} | spaCy parse alone ({pipeline.meta['name']} {pipeline.meta['version']}), "
                f"per sentence | {parse_ms:.1f} ms |")
    rows.append(f"| {name} | pre-pass per sentence (the parse and every rule) | {pre_pass_ms:.1f} ms "
                f"({pre_pass_ms / parse_ms:.1f}× the parse) |")


SECTIONS = ("gate", "cocoa", "ambigmt-people", "japanese", "two-people", "things", "it", "ambigmt-it", "needed",
            "timing")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("/work/shared/datasets"))
    parser.add_argument("--every", type=int, default=1, help="measure every N-th source of GATE and CoCoA-MT")
    parser.add_argument("--model", help="also run the chain on this model spec on the two-people, things and 'it' "
                        "sets and AmbigMT's French 'it' sources")
    parser.add_argument("--only", nargs="+", choices=SECTIONS, default=list(SECTIONS),
                        help="measure these sections only (default: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "detection.md")
    args = parser.parse_args()
    find_candidates("Warm up the pipelines.", "fr")
    assistant = load_assistant(args.model)
    sections = {
        "gate": lambda rows: [gate(args.data, lang, args.every, rows) for lang in ("fr", "es")],
        "cocoa": lambda rows: [cocoa(args.data, lang, args.every, rows) for lang in ("de", "es", "fr")],
        "ambigmt-people": lambda rows: ambigmt_people(args.data, rows),
        "japanese": japanese,
        "two-people": lambda rows: needless(rows, assistant),
        "things": lambda rows: people_and_things(rows, assistant),
        "it": lambda rows: referent_it(rows, assistant),
        "ambigmt-it": lambda rows: ambigmt_it(args.data, rows, assistant, args.every),
        "needed": needed_questions,
        "timing": lambda rows: timing(args.data, rows),
    }
    rows = ["| data | measure | result |", "| --- | --- | --- |"]
    for name in SECTIONS:
        if name in args.only:
            sections[name](rows)
    command = " ".join(["python benchmarks/detection.py", f"--every {args.every}",
                        *([f"--model {args.model}"] if args.model else []),
                        *([f"--only {' '.join(args.only)}"] if args.only != list(SECTIONS) else [])])
    text = ("# Detection pre-pass and target readers on the dev data\n\n"
            f"`{command}`: every {args.every}. source of GATE and CoCoA-MT "
            "train; a question counts when it is of the right family and names the person's words, or is about "
            "a pronoun that they agree with (\"I am not an economist\" asks about \"I\"; the "
            "decide call may still drop it). GATE readers read the person the question names; AmbigMT "
            "readers read the masked pronoun `[pr]` the label is about, else the person the pre-pass asks about with "
            "the item's type (a name by the words that agree with it), else nothing; a gender reading the check "
            "doubts (its words disagree, or may be another person's) counts as not read, as the check leaves it "
            "unchecked. AmbigMT's labels say what the source meant, and some references say otherwise or nothing: "
            "the rows \"against a person's reading\" score the same readings against what a person read in each "
            "reference (its file's header gives the rule). The labelled questions were "
            "asked with the 0.5B test model deciding (see the file's header for model, revision and rule); rows "
            "that name a model's call ran the chain on that model (greedy, seed 0); the other rows are the "
            "pre-pass alone. Real-text sets are split by their place in the file: rules may be tuned on the "
            "even places' errors, the odd places are held out (but the fresh two-people set, whose errors were all "
            "read after its first measure: its file's header gives that measure).\n\n"
            + "\n".join(rows) + "\n")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
