"""The question sheet of a 200-string .po (tests/data/formats/accounts_200.po, real account and messaging
catalogues): how many questions it asks, per register and per distinct person; then the file translated with
fixed answers, and whether the checkers read each segment as the answers say.

The answers are fixed by rule, before the sheet is read: the register formal; every person or group asked
about a woman (women), a gender French shows in agreement, where the masculine would hide an answer not
applied; any other question skipped. They are written as a project profile and applied as
``intercpt translate --answers-file`` applies one (``prepared_sheet``), then the file's first ``--limit``
segments are translated through the document driver with the sheet's memory, as the CLI does.

For every segment translated, each check of a register or a person's gender is read: **coverage** is the
share of those answered questions whose checker could read the translation (pass or fail, not unchecked),
**agreement** the share of those read that agree with the answer. **asked again** counts the register and
person questions the translation put to the user instead of applying the sheet's answer (the target is 0).

    python benchmarks/sheet_po.py --model "$INTERCPT_TEST_MODEL" --limit 30
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from pathlib import Path

from assistant.ambiguity import ambiguity_types, get_type, word_key
from assistant.checks import checker_for
from assistant.formats import read_document, translator_segments
from assistant.profile import Profile, save_profile
from assistant.sheet import Sheet, prepared_sheet
from assistant.transcript import IN_ADVANCE, Transcript
from evaluation.report import table_cell

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "formats" / "accounts_200.po"
LANG = "fr"
# The table's families of the register and of a person's gender, found by their profile sections.
REGISTER, PEOPLE = (next(t.family for t in ambiguity_types().values() if t.profile == section)
                    for section in ("register", "people"))
ANSWERS = {REGISTER: "formal", PEOPLE: ("a woman", "women")}


def fixed_answers(sheet: Sheet) -> Profile:
    """The rule's answers to ``sheet``'s register and person questions, as a profile (``--answers-file``)."""
    profile = Profile()
    for question in sheet.questions:
        family = get_type(question.ambiguity).family
        wanted = ANSWERS.get(family)
        if family == PEOPLE:
            wanted = next(option for option in question.options if option in wanted)
        if wanted:
            profile.put(family, LANG if family == REGISTER else question.key, wanted)
    return profile


def head_noun(key: str) -> str:
    """Who a person question is about, read crudely: the key's last word without a plural s ("dear user",
    "some users" and "user" are one person), so that several keys for one person show."""
    word = key.split()[-1] if key.split() else key
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


def sheet_lines(sheet: Sheet, seconds: float) -> list[str]:
    families = Counter(get_type(q.ambiguity).family for q in sheet.questions)
    per_key = Counter(q.key for q in sheet.questions if get_type(q.ambiguity).family == PEOPLE)
    per_head = Counter(head_noun(key) for key in per_key.elements())
    lines = [f"- segments read: {sheet.segment_count}, in {seconds:.0f} s",
             f"- questions in all: {len(sheet.questions)} (target ≤ 10)",
             f"- register questions: {families[REGISTER]} (target ≤ 1 for the file's one addressee)",
             f"- person questions: {sum(per_key.values())} about {len(per_key)} distinct words asked about; "
             f"most about one word: {max(per_key.values(), default=0)}",
             f"- the same by head noun: {len(per_head)} distinct; most about one: "
             f"{max(per_head.values(), default=0)} ({', '.join(f'{h} {n}' for h, n in per_head.most_common() if n > 1) or 'none twice'}) "
             "(target ≤ 1)",
             f"- other questions: {len(sheet.questions) - families[REGISTER] - families[PEOPLE]}",
             f"- kept for review (about one segment only, guessed and flagged, not asked): {len(sheet.for_review)}",
             "", "| id | type | words | segments | question |", "|---|---|---|---|---|"]
    lines += [f"| {q.id} | {q.ambiguity} | {q.span}{''.join(f' (and {o.span})' for o in q.also)} | "
              f"{len(q.segments)} | {q.question} |" for q in sheet.every_question]
    return lines


def agreement_lines(transcripts: list[Transcript]) -> list[str]:
    """Coverage and agreement of the checks of the answered register and person questions (one per segment and
    question), the questions asked again, and the segments whose check fails or cannot read the answer (for a
    reader to judge whether their translation shows it)."""
    read: Counter = Counter()
    failing: list[str] = []
    unread: list[str] = []
    asked_again = 0
    for transcript in transcripts:
        answered = {}
        for turn in transcript.turns:
            kind = get_type(turn.ambiguity)
            if kind.family in ANSWERS:
                asked_again += turn.answered_by not in IN_ADVANCE
                if turn.answer and checker_for(turn.ambiguity):
                    answered.setdefault((kind.family, kind.memory_key(turn.span, True)), turn)
        for (family, _), turn in answered.items():
            name = checker_for(turn.ambiguity).name
            checks = [c for c in transcript.checks if c.name == name
                      and (c.about is None or word_key(c.about) == word_key(turn.span))]
            status = checks[0].status if checks else "unchecked"
            read[family, "answered"] += 1
            read[family, status] += 1
            if status != "pass":
                seen = f"{checks[0].observed}: {', '.join(checks[0].words)}" if checks and checks[0].observed \
                    else (checks[0].doubt if checks else None) or "nothing read"
                cells = [transcript.source, turn.span, transcript.translation, seen]
                (failing if status == "fail" else unread).append("| " + " | ".join(table_cell(c) for c in cells) + " |")
    lines = ["| answer | segment × question | read (coverage) | agree (of read) |", "|---|---|---|---|"]
    for family in ANSWERS:
        total, passed, failed = read[family, "answered"], read[family, "pass"], read[family, "fail"]
        shown = passed + failed
        lines.append(f"| {family} | {total} | {shown} ({_share(shown, total)}) | {passed} ({_share(passed, shown)}) |")
    lines += ["", f"- register or person questions asked again while translating: {asked_again} (target 0)"]
    if failing:
        lines += ["", "Segments whose check reads the other register or gender:", "",
                  "| segment | words asked about | translation | what the check read |", "|---|---|---|---|", *failing]
    if unread:
        lines += ["", "Segments whose check could not read the answer (unchecked, not counted as read):", "",
                  "| segment | words asked about | translation | what the check saw |", "|---|---|---|---|", *unread]
    return lines


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "–"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=os.environ.get("INTERCPT_TEST_MODEL"), help="a GGUF chat model")
    parser.add_argument("--file", type=Path, default=DATA, help="the .po (or any file intercpt reads)")
    parser.add_argument("--limit", type=int, default=None, help="translate only the first N segments "
                        "(the sheet is always read on all of them)")
    parser.add_argument("--answers-out", type=Path, default=None, help="write the fixed answers here as a profile")
    args = parser.parse_args()
    if not args.model:
        parser.error("give --model or set INTERCPT_TEST_MODEL")
    from assistant.backends import GenerationConfig, ModelSpec, load_chat_model
    from assistant.chain import Assistant
    from assistant.document import DocumentTranslator

    spec = ModelSpec.parse(f"llamacpp:{args.model}")
    assistant = Assistant.for_model(load_chat_model(spec, GenerationConfig(temperature=0.0, seed=0)), spec)
    segments = translator_segments(read_document(args.file))
    started = time.perf_counter()
    sheet = prepared_sheet(assistant.steps, segments, LANG)
    read_s = time.perf_counter() - started
    answers = fixed_answers(sheet)
    sheet.apply_profile(answers)  # as --answers-file applies its profile
    if args.answers_out:
        save_profile(answers, args.answers_out)
    print("\n".join([f"# Question sheet of {args.file.name} into {LANG} ({Path(args.model).name})", "",
                     "## The sheet", "", *sheet_lines(sheet, read_s), ""]), flush=True)  # kept if the rest is cut
    chosen = segments[:args.limit]
    started = time.perf_counter()
    transcripts = list(DocumentTranslator(assistant, LANG).translate_units(
        chosen, sheet.user(answers), preferences=sheet.memory(answers)))
    translate_s = time.perf_counter() - started
    print("\n".join([f"## The translation of the first {len(chosen)} segments with the fixed answers "
                     f"({translate_s:.0f} s, {len(chosen) / translate_s * 60:.1f} segments/minute)", "",
                     *agreement_lines(transcripts)]))


if __name__ == "__main__":
    main()
