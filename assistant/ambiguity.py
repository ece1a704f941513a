"""The ambiguity table (``prompts/ambiguities.yaml``): everything the product knows of each type.

One entry per type says where it matters, which pre-pass rule finds it, what a person may
answer, which checker verifies it (and reads the answer), what the translator is reminded of and
forbidden after an answer, how long an answer is remembered, which setting of a front end may
answer it in advance, how an oracle answers from a gold label and which metric heads its report,
so adding a type means adding one entry (and, if it needs one, a rule or a checker registered
under the name the entry gives). Code asks the type for these, never compares its name.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .errors import InputError
from .nlp.address import addressee
from .paths import shipped_dir

TABLE_FILE = "ambiguities.yaml"
REMINDERS_FILE, FORBIDDEN_FILE = "reminders.yaml", "forbidden_words.yaml"
UNLESS_THIRD_PERSON = "unless_third_person"
DEFAULT_OPTIONS = "default"
ANY_VALUE = "*"
DEFAULT_RANK = 9  # a type the table does not rank is asked after the ranked ones
# How long an answer holds (``remember``): for the text it was given for only, for the word it was
# about (the same person, the same word, later in a document), or for every word of the session.
FOR_TEXT, FOR_WORD, FOR_SESSION = "text", "word", "session"
REMEMBER = (FOR_TEXT, FOR_WORD, FOR_SESSION)
# When the decide call reads whether the text leaves a candidate open (``decided``): for every candidate,
# for none, or where the pre-pass is unsure (a pronoun the parse could not attribute may settle the
# person, or the word also names things).
DECIDED_ALWAYS, DECIDED_NEVER, DECIDED_WHERE_UNSURE = "always", "never", "unsure"
DECIDED = (DECIDED_ALWAYS, DECIDED_NEVER, DECIDED_WHERE_UNSURE)
_WORDS = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
# A possessive stays in the key: "my doctor" is not "your doctor".
_POSSESSIVES = {"my", "your", "his", "her", "its", "our", "their"}
# The front-end settings that may answer a type in advance (``preset``).
REGISTER, PERSON = "register", "person"


@dataclass(frozen=True)
class Reminders:
    """The explicit instructions that go with an answer: per label (and extra note) and language."""

    by_label: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def get(self, label: str, lang: str) -> str | None:
        """The instruction for an answer meaning ``label`` in ``lang``; None where there is none."""
        return (self.by_label.get(label) or {}).get(lang)

    def instruction(self, label: str, lang: str) -> str:
        """The instruction for ``label`` in ``lang``, or a general one where the table has none."""
        return self.get(label, lang) or f"Use the {label} form."

    @classmethod
    def parse(cls, section: Mapping[str, Any] | None) -> "Reminders":
        return cls({label: dict(by_lang) for label, by_lang in (section or {}).items() if isinstance(by_lang, Mapping)})


@dataclass(frozen=True)
class ForbiddenWords:
    """The words an answer forbids the translation, per label and language: ``always``, and
    ``unless_third_person``, forbidden too where the source names no third person they could
    translate (German "Sie" is also "she"; Spanish "su" also "his")."""

    always: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    unless_third_person: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)

    def always_words(self, label: str, lang: str) -> tuple[str, ...]:
        return tuple((self.always.get(label) or {}).get(lang, ()))

    def third_person_words(self, label: str, lang: str) -> tuple[str, ...]:
        """The words forbidden only where the source names no third person."""
        return tuple((self.unless_third_person.get(label) or {}).get(lang, ()))

    @classmethod
    def parse(cls, always: Mapping[str, Any] | None, unless: Mapping[str, Any] | None) -> "ForbiddenWords":
        def by_label(section: Mapping[str, Any] | None) -> dict[str, dict[str, tuple[str, ...]]]:
            return {label: {lang: tuple(words) for lang, words in by_lang.items()}
                    for label, by_lang in (section or {}).items() if label != UNLESS_THIRD_PERSON}
        return cls(by_label(always), by_label(unless))


@dataclass(frozen=True)
class AmbiguityType:
    """One entry of the table; see the comments at the top of ``prompts/ambiguities.yaml``."""

    name: str
    label: str
    languages: tuple[str, ...]
    family: str
    detect: str | None
    check: str | None
    gold: str | None
    oracle: Mapping[str, str]
    headline: str
    rank: int = DEFAULT_RANK
    options_by_lang: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    question_by_lang: Mapping[str, str] = field(default_factory=dict)
    brief_by_lang: Mapping[str, str] = field(default_factory=dict)
    lexicon: frozenset[str] = field(default_factory=frozenset)
    options_in_text: bool = False
    remember: str = FOR_WORD
    asks_about: str | None = None
    preset: str | None = None
    decided: str = DECIDED_ALWAYS
    implied_by: frozenset[str] = frozenset()
    profile: str | None = None
    labels: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    gold_words: str | None = None
    reminders: Reminders = field(default_factory=Reminders)
    forbidden: ForbiddenWords = field(default_factory=ForbiddenWords)

    def reminder(self, label: str, lang: str) -> str:
        """The explicit instruction that goes with an answer meaning ``label`` (or with a note the
        answer makes, "several"), in ``lang``."""
        return self.reminders.instruction(label, lang)

    def decided_for(self, may_be_a_thing: bool) -> bool:
        """Whether the decide call reads a candidate whose words may also name a thing: never for a type
        the pre-pass is sure of; for a person noun only where the word may name no person here (the
        call costs as much as half a translation, and a test model's reading of anything else, the
        pronouns the parse could not attribute included, only loses open people)."""
        return self.decided == DECIDED_ALWAYS or self.decided == DECIDED_WHERE_UNSURE and may_be_a_thing

    def memory_key(self, span: str, every_answer: bool) -> str | None:
        """Under which word an answer about ``span`` is remembered: "" for every word (a preference
        stated for the session, or a type remembered for the session), the words without a leading
        article ("a user", "the user" and "this user" are one person of a file), or None (asked afresh
        in every text)."""
        if not every_answer or self.remember == FOR_SESSION:
            return ""
        return None if self.remember == FOR_TEXT else self.same_question_key(span)

    def same_question_key(self, span: str) -> str:
        """What makes two questions of this type one question in a document: "" where the answer holds
        for the session (one register for all of a file), otherwise the words asked about, as remembered."""
        return "" if self.remember == FOR_SESSION else word_key(self.asks_about or span)

    def options(self, lang: str) -> tuple[str, ...]:
        """The answer buttons for ``lang``; empty when the translator model proposes them."""
        return self.options_by_lang.get(lang) or self.options_by_lang.get(DEFAULT_OPTIONS, ())

    def fixed_question(self, span: str, lang: str) -> str | None:
        """The table's question about ``span`` when the type has options in ``lang``; None when the
        translator model writes the question (open options: what "it" is, a word's sense). A question
        about address names its person as ``{addressee}``: the span may be a verb."""
        question = self.question_by_lang.get(lang) or self.question_by_lang.get(DEFAULT_OPTIONS)
        return question.format(span=span, addressee=addressee(span)) if question and self.options(lang) else None

    def open_question(self, span: str, lang: str) -> str | None:
        """The table's question for a type whose options the model proposes: it names the words asked
        about, with the model's options or, where those cannot be used, without (the person answers
        in their own words); None when the table has none."""
        question = self.question_by_lang.get(lang) or self.question_by_lang.get(DEFAULT_OPTIONS)
        return question.format(span=span) if question and not self.options(lang) else None

    def brief_question(self, span: str, lang: str) -> str | None:
        """The question as the translation prompt states it beside its answer, where the table gives one
        shorter than the asked question (the answer's reminder says what to do); None otherwise."""
        brief = self.brief_by_lang.get(lang) or self.brief_by_lang.get(DEFAULT_OPTIONS)
        return brief.format(span=span, addressee=addressee(span)) if brief else None

    def oracle_answer(self, gold: Mapping[str, str]) -> str | None:
        """What an oracle says when the item's gold label is known; None when the data gives none."""
        value = gold.get(self.gold) if self.gold else None
        if not value:
            return None
        template = self.oracle.get(value) or self.oracle.get(ANY_VALUE)
        return template.format(value=value) if template else None


def sharing(name: str) -> list[str]:
    """``name`` and the types whose question about a word is the same as its: of one family, with the same options,
    kept as long (a person's gender asked about a name, a noun, "you" or the person an imperative addresses)."""
    own = get_type(name)
    return [name] + [other.name for other in ambiguity_types().values() if other.name != name
                     and (other.family, other.options_by_lang, other.remember) == (own.family, own.options_by_lang,
                                                                                   own.remember)]


def word_key(span: str) -> str:
    """The words an answer is kept under: the head word asked about, lower-cased, after its possessive
    if it has one. "A user", "Dear user" and "at least one user" are one person of a file, "Johnny
    Mercer" and "Mercer" one name, and so is "Tom Hepker, a machinist" with "Hepker" (the words
    before an apposition); "your user" is another, but "his close friend Robert Henri" is "henri" (a name
    written after its noun is the person's whoever's friend they are)."""
    written = _WORDS.findall(span.split(",")[0])
    words = [w.lower() for w in written]
    if not words:
        return span.lower()
    head = re.sub(r"['’]s$", "", words[-1])
    named = written[-1][:1].isupper() and not written[0][:1].isupper()
    return f"{words[0]} {head}" if len(words) > 1 and words[0] in _POSSESSIVES and not named else head


def parse_table(data: Mapping[str, Any], reminders: Mapping[str, Any] | None = None,
                forbidden: Mapping[str, Any] | None = None) -> dict[str, AmbiguityType]:
    """Build the types from the table's YAML mapping (a type name to its entry); an entry's
    ``reminders`` and ``forbidden`` name a section of ``reminders`` and ``forbidden`` (the tables
    of ``prompts/reminders.yaml`` and ``prompts/forbidden_words.yaml``) or give their own."""
    for name, entry in data.items():
        if entry.get("remember", FOR_WORD) not in REMEMBER:
            raise InputError(f"ambiguity type {name!r}: remember must be one of {', '.join(REMEMBER)}")
        if entry.get("decided", DECIDED_ALWAYS) not in DECIDED:
            raise InputError(f"ambiguity type {name!r}: decided must be one of {', '.join(DECIDED)}")
    return {
        name: AmbiguityType(
            name=name,
            label=entry["label"],
            languages=tuple(entry["languages"]),
            family=entry.get("family", name),
            detect=entry.get("detect"),
            check=entry.get("check"),
            gold=entry.get("gold"),
            oracle=dict(entry.get("oracle") or {}),
            headline=entry.get("headline", "chrf"),
            rank=entry.get("rank", DEFAULT_RANK),
            options_by_lang={lang: tuple(opts) for lang, opts in (entry.get("options") or {}).items()},
            question_by_lang=_by_lang(entry.get("question")),
            brief_by_lang=_by_lang(entry.get("brief")),
            lexicon=frozenset(entry.get("lexicon") or ()),
            options_in_text=bool(entry.get("options_in_text")),
            remember=entry.get("remember", FOR_WORD),
            asks_about=entry.get("asks_about"),
            preset=entry.get("preset"),
            decided=entry.get("decided", DECIDED_ALWAYS),
            implied_by=frozenset(entry.get("implied_by") or ()),
            profile=entry.get("profile"),
            labels={option: dict(by_lang) for option, by_lang in (entry.get("labels") or {}).items()},
            gold_words=entry.get("gold_words"),
            reminders=Reminders.parse(_section(entry.get("reminders"), reminders or {})),
            forbidden=_forbidden(entry.get("forbidden"), forbidden or {}),
        )
        for name, entry in data.items()
    }


def _section(value: str | Mapping[str, Any] | None, table: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """An entry's own mapping, or the section of ``table`` it names."""
    return table.get(value) if isinstance(value, str) else value


def _forbidden(value: str | Mapping[str, Any] | None, table: Mapping[str, Any]) -> ForbiddenWords:
    """Forbidden words given in the entry (with their own ``unless_third_person``) or named: a section
    of ``forbidden_words.yaml`` and the section of the same name under its ``unless_third_person``."""
    if isinstance(value, str):
        return ForbiddenWords.parse(table.get(value), (table.get(UNLESS_THIRD_PERSON) or {}).get(value))
    return ForbiddenWords.parse(value, (value or {}).get(UNLESS_THIRD_PERSON))


def _by_lang(value: str | Mapping[str, str] | None) -> dict[str, str]:
    """A question given once (every language) or per language with a ``default``."""
    if value is None:
        return {}
    return {DEFAULT_OPTIONS: value} if isinstance(value, str) else dict(value)


def table_path() -> Path:
    """Where the table is read from: the copy shipped with the prompts."""
    return shipped_dir("prompts") / TABLE_FILE


def _read(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _prompt_tables() -> tuple[dict[str, Any], dict[str, Any]]:
    """``prompts/reminders.yaml`` and ``prompts/forbidden_words.yaml``, read once per process."""
    prompts = shipped_dir("prompts")
    return _read(prompts / REMINDERS_FILE), _read(prompts / FORBIDDEN_FILE)


@lru_cache(maxsize=1)
def ambiguity_types() -> dict[str, AmbiguityType]:
    """Every type of the table, read once per process."""
    return parse_table(_read(table_path()), *_prompt_tables())


def section_reminders(name: str) -> Reminders:
    """A section of ``prompts/reminders.yaml`` (a checker's, "formality"; a text check's, "length")."""
    return Reminders.parse(_prompt_tables()[0].get(name))


def section_forbidden(name: str) -> ForbiddenWords:
    """A section of ``prompts/forbidden_words.yaml`` with its ``unless_third_person`` part."""
    return _forbidden(name, _prompt_tables()[1])


def names_third_person(source: str) -> bool:
    """Whether an English text says he, she, they, its… (a word of the forbidden words' ``third_person``)."""
    words = set(_prompt_tables()[1]["third_person"])
    return any(word in words for word in re.findall(r"[a-z]+(?:'s)?", source.lower()))


def forbidden_for(answers: list[tuple[ForbiddenWords, str]], lang: str, source: str | None = None) -> tuple[str, ...]:
    """What answers (the forbidden words of each one's type, and the label it means) forbid the
    translation in ``lang``: every answer's words forbidden always, then, where ``source`` names no
    third person, those forbidden only then; each once."""
    words = [word for forbidden, label in answers for word in forbidden.always_words(label, lang)]
    if source is not None and not names_third_person(source):
        words += [word for forbidden, label in answers for word in forbidden.third_person_words(label, lang)]
    return tuple(dict.fromkeys(words))


def forbidden_words(expected: list[tuple[str, str]], lang: str, source: str | None = None) -> tuple[str, ...]:
    """The words answers forbid the translator, from their (section, label) pairs, as the section of
    ``prompts/forbidden_words.yaml`` gives them: after "informal", the formal register's pronouns
    ("vous", "votre"); and when ``source`` names no third person, also the words that then can only
    mean "you" (Spanish "su", German "Sie"). The chain asks each answer's type (``forbidden_for``)."""
    return forbidden_for([(section_forbidden(section), label) for section, label in expected], lang, source)


def get_type(name: str) -> AmbiguityType:
    """The type called ``name``; an unknown name gets the close ones."""
    known = ambiguity_types()
    if name not in known:
        close = difflib.get_close_matches(name, known, n=2)
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
        raise InputError(f"unknown ambiguity type {name!r}{hint}; known: {', '.join(known)}")
    return known[name]


def family_of(name: str) -> str:
    """The family of a type (a type outside the table is its own family)."""
    entry = ambiguity_types().get(name)
    return entry.family if entry else name


def preset_types(setting: str) -> list[AmbiguityType]:
    """The types a front end's ``setting`` answers in advance (the table's ``preset``: ``register``,
    a page's register or an API request's formality; ``person``, a page's list of people)."""
    return [ambiguity_type for ambiguity_type in ambiguity_types().values() if ambiguity_type.preset == setting]
