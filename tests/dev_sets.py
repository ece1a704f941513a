"""Dev sets beside AmbigMT (GATE, CoCoA-MT, the Japanese and two-people sets) and the measures
that both the tests and benchmarks/detection.py take on them: is a question of the right family
asked about the right words, and does a checker read the reference's label."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from assistant.ambiguity import family_of, get_type
from assistant.checks import person_gender_reading, read_formality
from assistant.detection import Candidate, candidates_in, find_candidates, parse
from assistant.dialogue import Dialogue
from assistant.nlp.address import address_cues
from assistant.nlp.coreference import FEMININE, GENDERED_PRONOUNS, MASCULINE
from assistant.steps import ModelSteps
from assistant.transcript import Transcript, Turn
from assistant.verdicts import answer_check
from evaluation.data import Item, LoadReport
from evaluation.loaders import cocoa_mt, gate

TESTS_DATA = Path(__file__).parent / "data"
_WORD = re.compile(r"[\w']+")


def gate_items(root: Path, lang: str, every: int = 1) -> list[Item]:
    """The feminine and masculine items of every ``every``-th source of GATE's 2-variant file."""
    items = gate.load(root, [lang], LoadReport(), variants=[2])
    sources = list(dict.fromkeys(i.src for i in items))[::every]
    kept = set(sources)
    return [i for i in items if i.src in kept]


def cocoa_items(root: Path, lang: str, every: int = 1) -> list[Item]:
    """The formal and informal items of every ``every``-th source of CoCoA-MT's train split."""
    items = cocoa_mt.load(root, [lang], LoadReport(), split="train")
    kept = set(list(dict.fromkeys(i.src for i in items))[::every])
    return [i for i in items if i.src in kept]


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


# A pronoun's subject form: a question about "me" is about GATE's "I" ("this case leaves me a bit perplexed").
_SUBJECT_FORM = {"me": "i", "myself": "i", "us": "we", "ourselves": "we", "yourself": "you", "yourselves": "you",
                 "them": "they", "themselves": "they"}


def _covers(span: str, keywords: set[str]) -> bool:
    """Whether a question's span names a keyword (plural or singular: "Norwegians" / "Norwegian"; a pronoun in
    any case: "me" / "I")."""
    words = {_SUBJECT_FORM.get(w, w) for w in _words(span)}
    keywords = {_SUBJECT_FORM.get(k, k) for k in keywords}
    return any(w == k or w.startswith(k) or k.startswith(w) and len(w) > 3 for w in words for k in keywords)


def gender_question(source: str, lang: str, kw_s: str, inclusive: bool = True) -> Candidate | None:
    """The gender-family candidate about GATE's keyword (``kw_s``: the person's words), or None: its span names
    the keyword, or a word that agrees with the person it names does ("I am not an economist" asks about "I", as
    an economist). GATE gives each person's feminine and masculine translations, anyone of a kind's too ("any
    blogger"): its task is inclusive forms (``inclusive``)."""
    keywords = _words(kw_s.replace("[", " ").replace("]", " ")) - {"the", "a", "an"}
    parsed = parse(source, lang, inclusive)
    agreeing = {m.start: " ".join(m.agreement) for m in parsed.people}  # the people its candidates are of
    return next((c for c in candidates_in(parsed) if family_of(c.ambiguity) == "gender"
                 and _covers(f"{c.span} {agreeing.get(c.start, '')}", keywords)), None)


def address_question(source: str, lang: str) -> Candidate | None:
    return next((c for c in find_candidates(source, lang) if family_of(c.ambiguity) == "formality"), None)


def gender_reading(item: Item) -> str | None:
    """The gender the checker reads off the item's reference for the person asked about."""
    question = gender_question(item.src, item.lang, item.attributes["kw_s"])
    return checked_gender(item.refs[0], item.lang, item.src, question.span if question else None)


def checked_gender(translation: str, lang: str, source: str, span: str | None = None) -> str | None:
    """The gender the person-gender check reads off ``translation``, or None where the check is left
    unchecked (``verdicts.answer_check``: nothing read, or a reading in doubt)."""
    reading = person_gender_reading(translation, lang, source, span)
    check = answer_check("gender read", MASCULINE, span or "", reading, translation)
    return None if check.status == "unchecked" else check.observed


def formality_reading(item: Item) -> str | None:
    return read_formality(item.refs[0], item.lang)


def japanese_items() -> list[dict]:
    return yaml.safe_load((TESTS_DATA / "ja_addressed.yaml").read_text(encoding="utf-8"))


TWO_PEOPLE = ("two_people_real.yaml", "two_people_fresh.yaml")


def two_people(name: str = TWO_PEOPLE[0]) -> list[dict]:
    """Real sentences with two people and one gendered pronoun that settles one of them (see each file's header)."""
    return yaml.safe_load((TESTS_DATA / name).read_text(encoding="utf-8"))


PERSON_LOOKING_THINGS = ("person_looking_things.yaml", "person_looking_things_catalogue.yaml")


def person_looking_things(name: str = PERSON_LOOKING_THINGS[0]) -> list[dict]:
    """A set of tests/data: sentences (or a catalogue's messages) with a person-looking noun, labelled."""
    return yaml.safe_load((TESTS_DATA / name).read_text(encoding="utf-8"))


IT_SETS = ("expletive_it.yaml", "catalogue_it.yaml")


def expletive_it(name: str = IT_SETS[0]) -> list[dict]:
    """A set of tests/data with one "it" per text, labelled: expletive or referential sentences, or a
    catalogue's strings whose "it" the string names or leaves open (see each file's header)."""
    return yaml.safe_load((TESTS_DATA / name).read_text(encoding="utf-8"))


def it_question(text: str, lang: str = "fr") -> bool:
    """Whether the pre-pass asks what "it" refers to."""
    return any(family_of(c.ambiguity) == "referent" for c in find_candidates(text, lang))


def asked_about(head: str, words: set[str]) -> bool:
    """Whether the words of the questions asked name a labelled person's head word: a hyphenated one by each of
    its parts ("beer-runner", "Bang-Jensen")."""
    return _words(head) <= words


def asked_heads(text: str, lang: str = "fr") -> set[str]:
    """The words of every gender question the pre-pass raises ("Kerr's" also as "Kerr")."""
    words = {w for c in find_candidates(text, lang) if family_of(c.ambiguity) == "gender" for w in _words(c.span)}
    return words | {w.removesuffix("'s") for w in words}


class _EveryQuestion:
    """The pre-pass's gender questions, every one put: no model reads the text (a ``KnownQuestions``)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def question_for(self, candidate: Candidate, source: str) -> Turn | None:
        return ModelSteps.fixed_turn(candidate, self.lang) if family_of(candidate.ambiguity) == "gender" else None


def asked_in_dialogue(item: dict, lang: str = "fr") -> set[str]:
    """The words of the gender questions a person is asked, one after the other, on the pre-pass
    alone (see ``answered_in_turn``)."""
    transcript = Transcript(item["text"], lang, "intercpt", "pre-pass")
    return answered_in_turn(Dialogue(ModelSteps(chat_model=None), transcript, max_questions=len(item["text"]),
                                     known=_EveryQuestion(lang)), item)


def answered_in_turn(dialogue: Dialogue, item: dict) -> set[str]:
    """The words of the gender questions ``dialogue`` asks about ``item``'s text, one after the other, answering
    the person the pronoun settles with the pronoun's gender and everyone else with the other gender (any other
    question skipped): an answer may leave a pronoun only one person to refer to, who is then not asked.
    (Answered with the pronoun's gender, nobody is left out: every question is asked.)"""
    pronoun = next(w for w in re.findall(r"[a-z]+", item["text"].lower()) if w in GENDERED_PRONOUNS)
    open_gender = ({MASCULINE, FEMININE} - {GENDERED_PRONOUNS[pronoun]}).pop()
    asked: set[str] = set()
    while (turn := dialogue.ask_next()) is not None:
        if family_of(turn.ambiguity) != "gender":
            dialogue.answer(None, "none")
            continue
        words = _words(turn.span) | {w.removesuffix("'s") for w in _words(turn.span)}
        asked |= words
        gender = GENDERED_PRONOUNS[pronoun] if asked_about(item["settled"], words) else open_gender
        dialogue.answer(get_type(turn.ambiguity).oracle_answer({"gender": gender}), "oracle")
    return asked


SPEECH_PARTICIPANTS = {"i", "me", "myself", "you", "yourself"}


def cocoa_gendered_references(root: Path, lang: str, every: int = 1) -> list[tuple[str, list[tuple[str, str]]]]:
    """(source, [(reference, the one written for a woman speaking to a woman: ``*.feminine.XX``) per register
    where they differ]) for every ``every``-th distinct CoCoA-MT train source: where the list is not empty, the
    target shows the gender of "I" or "you"."""
    rows: dict[str, list[tuple[str, str]]] = {}
    for source in sorted((cocoa_mt.dataset_folder(root) / "train" / f"en-{lang}").glob(
            f"formality-control.train.*.en-{lang}.en")):
        stem = str(source)[:-len(".en")]
        lines = source.read_text(encoding="utf-8").splitlines()
        for level in cocoa_mt.LEVELS:
            plain = Path(f"{stem}.{level}.{lang}").read_text(encoding="utf-8").splitlines()
            feminine = Path(f"{stem}.{level}.feminine.{lang}").read_text(encoding="utf-8").splitlines()
            for line, a, b in zip(lines, plain, feminine):
                rows.setdefault(line, []).extend([(a.strip(), b.strip())] if a.strip() != b.strip() else [])
    return list(rows.items())[::every]


def cocoa_gender_shown(root: Path, lang: str, every: int = 1) -> list[tuple[str, bool]]:
    """(source, shown) for every ``every``-th distinct CoCoA-MT train source: ``shown`` when the
    references written for a woman speaking to a woman differ from the others (``cocoa_gendered_references``)."""
    return [(source, bool(pairs)) for source, pairs in cocoa_gendered_references(root, lang, every)]


def speaker_gender_span(source: str, lang: str) -> str | None:
    """The words of the pre-pass's question about the gender of "I" or "you" (or of the person an imperative
    addresses, kept as "you"'s, or of the noun "you" is called by: "Hi friend!"), if it asks one."""
    parsed = parse(source, lang)
    called = {token.lower_ for cue, token in address_cues(parsed.doc) if cue == "vocative"}
    return next((c.span for c in candidates_in(parsed) if family_of(c.ambiguity) == "gender"
                 and (_words(c.span) | {get_type(c.ambiguity).asks_about}) & (SPEECH_PARTICIPANTS | called)), None)


def speaker_gender_question(source: str, lang: str) -> bool:
    """Whether the pre-pass asks the gender of "I" or "you" (``speaker_gender_span``)."""
    return speaker_gender_span(source, lang) is not None


def references_differ(items: list[Item]) -> set[str]:
    """The sources whose formal and informal references differ: the target marks the register."""
    by_source: dict[str, set[str]] = {}
    for item in items:
        by_source.setdefault(item.src, set()).add(item.refs[0].strip())
    return {source for source, refs in by_source.items() if len(refs) > 1}
