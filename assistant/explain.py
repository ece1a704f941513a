"""A short account of the choices behind a translation, for the person who reads it.

Every front end (the page, the terminal, the cards of the alternatives) words a check here, in a
translator's words: what was asked about and the words of the translation that show it ("the
lawyer reads as a woman: « l'avocate »"). Only a passed check carries a tick.
"""

from __future__ import annotations

from .checks import CHECKERS, expectations
from .fidelity import FIDELITY
from .languages import LANGUAGES
from .transcript import Check, Transcript
from .usage import total

# Who gave an answer (``Turn.answered_by``; ``none`` gives none), in the account's words.
WHO = {"human": "you said", "preference": "you said earlier", "setting": "your setting said",
       "picked": "the card you picked said", "simulated": "the simulated user said", "oracle": "the gold label says",
       "assumed": "assumed said", "profile": "the project profile says"}
MARKS = {"pass": "✓", "fail": "⚠", "unchecked": "?"}
CUT = "✂"  # a sentence the fidelity check removed: done, not verified
MAX_QUOTED = 3

# What a repair round fixes, by the check that failed (an answer's check: its checker's wording).
_FIXING = {FIDELITY: "an added or missing sentence", "language": "the language", "length": "what is missing or added",
           "terms": "the glossary terms"}


def explain(transcript: Transcript, *, brief: bool = False) -> list[str]:
    """Lines such as "you → formal, because you said: speaking to my boss".

    ``brief``: for a front end that shows each question and each alternative in a place of its own (the
    page's answer rows and variant cards): a question left unanswered is named by its word alone
    ("you → not answered"), and no alternative's translation is repeated. The terminal has no such places
    and gets them whole."""
    lines, lang = [], transcript.target_lang
    for turn in transcript.turns:
        if not turn.answer:
            lines.append(f"{turn.span} → not answered" + ("" if brief else f" ({turn.question})"))
            continue
        label = next((said(checker, label, lang) for checker, label in expectations([turn])), None)
        if turn.answer in turn.options:  # an answer button is named as its own label says
            label = option_name(turn.answer)
        who = WHO[turn.answered_by]
        lines.append(f"{turn.span} → {label + ', because ' if label else ''}{who}: {turn.answer}")
    for settled in transcript.settled:
        lines.append(f"{settled.span} → not asked: {settled.evidence}")
    lines += [line for check in transcript.checks if (line := check_line(check, lang))]
    for alternative in [] if brief else transcript.alternatives:
        lines.append(f"if {alternative.assumption}: {alternative.translation}")
    if transcript.usage:
        lines.append(cost(transcript))
    return lines


# Who gave an answer, as a reviewer of a translated file reads it in the unit's notes.
NOTE_WHO = {"human": "answered", "preference": "answered for the whole file", "simulated": "the simulated user's answer",
            "oracle": "the gold label", "profile": "the project profile"}


def decisions_note(transcript: Transcript) -> str | None:
    """Which answers or guesses shaped a translation, in one line for its unit's notes: "you → formal
    (answered for the whole file); the user → the model's guess (not answered)"; None where nothing was asked."""
    parts = [f"{turn.span} → {option_name(turn.answer)} ({NOTE_WHO.get(turn.answered_by, turn.answered_by)})"
             if turn.answer else f"{turn.span} → the model's guess (not answered)" for turn in transcript.turns]
    return "; ".join(dict.fromkeys(parts)) or None


def check_line(check: Check, lang: str = "") -> str | None:
    """One check of a translation into ``lang`` in a translator's words, marked ✓ only where it passed;
    None for a passed length check (it says nothing a translator needs)."""
    if check.name == "length" and check.status == "pass":
        return None
    if check.name == FIDELITY and check.status == "pass" and check.words:
        return f"{CUT} removed {quoted(check.words)}: the source does not say it"
    return f"{MARKS.get(check.status, '?')} {_wording(check, lang)}"


def said(checker: str, label: str | None, lang: str) -> str | None:
    """A checker's label as the questions into ``lang`` name it ("polite" for Japanese, not "formal")."""
    wording = CHECKERS[checker].wording if checker in CHECKERS else None
    if wording is None or not label:
        return label
    return wording.said_in.get(lang, wording.said).get(label, label)


def option_name(option: str) -> str:
    """An answer option without its examples: "polite" for "polite (です/ます: colleagues, strangers)"."""
    return option.split(" (", 1)[0]


def _wording(check: Check, lang: str) -> str:
    checker = CHECKERS.get(check.name)
    if checker is not None and checker.wording is not None:
        wording = checker.wording
        passed, failed, topic = wording.passed, wording.failed, wording.topic
        fields = {"about": _mid_sentence(check.about or ""), "want": said(check.name, check.expected, lang),
                  "got": said(check.name, check.observed, lang), "words": quoted(check.words),
                  "reads": "reads" if len(check.words) == 1 else "read"}
        if check.status == "unchecked":
            return f"not checked {topic.format(**fields)}: {check.doubt or 'nothing in the translation marks it'}"
        return (passed if check.status == "pass" else failed).format(**fields)
    if check.name == "language":
        language = LANGUAGES.get(check.expected, check.expected)
        return f"in {language}" if check.status == "pass" else f"not in {language}: it reads as English"
    if check.name == "length":
        return "its length does not fit the source's: part of it may be left out, or something added"
    if check.name == FIDELITY:
        return f"nothing added or left out: {check.observed}" if check.status == "pass" else check.observed or ""
    if check.name == "terms":
        source, _, target = check.expected.partition(" → ")
        if check.status == "pass":
            return f"glossary: “{source}” as {quoted([check.observed])}"
        return f"glossary: “{source}” should be « {target} », which the translation does not use"
    return f"{check.name}: {check.observed or check.expected}"


def _mid_sentence(span: str) -> str:
    """"The lawyer" as said inside a sentence: "the lawyer" (a name keeps its capital)."""
    first, _, rest = span.partition(" ")
    return f"{first.lower()} {rest}" if rest and first in ("The", "A", "An", "This", "That") else span


def quoted(words: list[str]) -> str:
    """« l'avocate », « elle » (at most three)."""
    shown = ", ".join(f"« {word} »" for word in words[:MAX_QUOTED])
    return shown + (" …" if len(words) > MAX_QUOTED else "")


def fixing(checks: list[Check]) -> str:
    """What a repair round fixes, in words: "the register and the gender of the lawyer"."""
    said = [_fixing(c.name).format(about=c.about) for c in checks if c.status == "fail"]
    said = list(dict.fromkeys(said))
    return " and ".join(said) if said else "the translation"


def _fixing(name: str) -> str:
    checker = CHECKERS.get(name)
    return checker.wording.fixing if checker is not None and checker.wording is not None else _FIXING.get(name, name)


def cost(transcript: Transcript) -> str:
    """What the translation cost, e.g. "cost: 3 model calls, 1,420 tokens"."""
    spent = total(transcript.usage.values())
    line = f"cost: {spent.calls} model call{'s' if spent.calls != 1 else ''}, {spent.tokens:,} tokens"
    if spent.unreported:
        line += f" ({spent.unreported} call{'s' if spent.unreported != 1 else ''} reported no tokens)"
    return line
