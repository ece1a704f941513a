"""A project profile: the answers a project has given, kept in a small YAML file beside its sources.

One answer ("the user is addressed informally", "Alex is a woman") holds for every file of a project, so
the answers are saved where a person can read, edit and commit them, and every later translation starts
from them. The profile is also the answers file of ``intercpt translate --answers-file``: one format.

    register:          # how "you" is addressed, per target language
      fr: informal
    people:            # a person, name or role noun (without "the", "a", "this"), and their gender
      alex: a woman
      administrator: a man
    senses:            # a word alone in a segment, and the sense meant
      bank: the river bank
    referents:         # what "it" stands for, per source segment
      Delete it?: the message
    glossary: terms.csv   # term translations, relative to the profile file

Sections follow the ambiguity table's families, so a type of a known family is kept without code here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from .ambiguity import FOR_TEXT, ambiguity_types, word_key
from .errors import InputError
from .languages import LANGUAGES

PER_LANGUAGE = "register"  # a section keyed by target language: the register differs per language
GLOSSARY = "glossary"
MAX_PROFILE_BYTES = 256_000
MAX_ENTRIES = 2_000
MAX_KEY_CHARS = 600  # a referent's key is a whole source segment
MAX_ANSWER_CHARS = 300
HEADER = ("# intercpt project profile: answers reused by every translation of the project; edit and commit it.\n"
          "# Sections: register (per target language), people, senses, referents (per source text), glossary.\n")


@dataclass
class Profile:
    """The answers by section: ``answers["people"]["alex"] == "a woman"``, ``answers["register"]["fr"]``;
    keys of every section but the register are words as the memory keeps them (``word_key``), a referent's
    key is its source text."""

    answers: dict[str, dict[str, str]] = field(default_factory=lambda: {name: {} for name in sections().values()})
    glossary: str | None = None

    def get(self, family: str, key: str) -> str | None:
        section = sections().get(family)
        return self.answers[section].get(key) if section else None

    def put(self, family: str, key: str, answer: str) -> bool:
        """Keep ``answer``; False for a family the profile has no section for (it is then not kept)."""
        section = sections().get(family)
        if section is None:
            return False
        self.answers[section][key] = _bounded(answer, MAX_ANSWER_CHARS, f"the answer for {key!r}")
        return True

    def updated_with(self, other: "Profile") -> "Profile":
        """A profile with this one's answers and ``other``'s, ``other`` winning where both answer."""
        return Profile({section: {**entries, **other.answers[section]} for section, entries in self.answers.items()},
                       other.glossary or self.glossary)

    def without(self, entries: Iterable[tuple[str, str]]) -> "Profile":
        """A copy without the answers kept under ``entries`` (family, key): answers a person set aside."""
        dropped = {(sections().get(family), key) for family, key in entries}
        return Profile({section: {key: answer for key, answer in kept.items() if (section, key) not in dropped}
                        for section, kept in self.answers.items()}, self.glossary)

    def entry_count(self) -> int:
        return sum(len(entries) for entries in self.answers.values())

    def to_yaml(self) -> str:
        data: dict[str, Any] = {name: dict(entries) for name, entries in self.answers.items() if entries}
        if self.glossary:
            data[GLOSSARY] = self.glossary
        return HEADER + (yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000) if data else "")


def parse_profile(text: str, name: str = "the profile") -> Profile:
    """The profile written in ``text``; an ``InputError`` that names what is wrong for anything else."""
    if len(text.encode("utf-8")) > MAX_PROFILE_BYTES:
        raise InputError(f"{name} is larger than {MAX_PROFILE_BYTES // 1000} KB; a profile holds answers, not texts")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        where = getattr(err, "problem_mark", None)
        line = f" (line {where.line + 1})" if where is not None else ""
        raise InputError(f"{name} is not valid YAML{line}: {getattr(err, 'problem', None) or err}") from None
    if data is None:
        return Profile()
    if not isinstance(data, dict):
        raise InputError(f"{name} must be a mapping of sections ({', '.join(sections().values())}, {GLOSSARY})")
    unknown = [str(key) for key in data if key not in (*sections().values(), GLOSSARY)]
    if unknown:
        raise InputError(f"{name}: unknown section {unknown[0][:40]!r}; the sections are "
                         f"{', '.join(sections().values())} and {GLOSSARY}")
    profile = Profile()
    for section in sections().values():
        entries = data.get(section) or {}
        if not isinstance(entries, dict):
            raise InputError(f"{name}: {section} must map each {'language' if section == PER_LANGUAGE else 'word'} "
                             "to its answer (one “key: answer” a line)")
        for key, answer in entries.items():
            key = _bounded(key, MAX_KEY_CHARS, f"{name}: a key of {section}")
            if section == PER_LANGUAGE and key not in LANGUAGES:
                raise InputError(f"{name}: register is per target language ({', '.join(LANGUAGES)}); got {key[:20]!r}")
            profile.answers[section][key if section == PER_LANGUAGE else _key(section, key)] = \
                _bounded(answer, MAX_ANSWER_CHARS, f"{name}: the answer for {key[:40]!r} in {section}")
    if profile.entry_count() > MAX_ENTRIES:
        raise InputError(f"{name} holds {profile.entry_count()} answers; at most {MAX_ENTRIES}")
    glossary = data.get(GLOSSARY)
    if glossary is not None:
        profile.glossary = _bounded(glossary, MAX_KEY_CHARS, f"{name}: {GLOSSARY}")
    return profile


def load_profile(path: str | Path, *, missing_ok: bool = False) -> Profile:
    """The profile in ``path``; an empty one where the file does not exist and ``missing_ok`` (a new project)."""
    path = Path(path)
    if not path.is_file():
        if missing_ok and not path.exists():
            return Profile()
        raise InputError(f"{path}: no such profile file")
    if path.stat().st_size > MAX_PROFILE_BYTES:
        raise InputError(f"{path} is larger than {MAX_PROFILE_BYTES // 1000} KB; a profile holds answers, not texts")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"{path} is not UTF-8 text (byte {err.start}); save it as UTF-8 and try again") from None
    return parse_profile(text, str(path))


def save_profile(profile: Profile, path: str | Path) -> None:
    """Write the profile as YAML (written whole, then moved into place: an interrupted save keeps the old one)."""
    path = Path(path)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(profile.to_yaml(), encoding="utf-8")
    partial.replace(path)


def glossary_path(profile: Profile, profile_path: str | Path) -> Path | None:
    """The profile's glossary, relative to the profile file's folder."""
    return Path(profile_path).parent / profile.glossary if profile.glossary else None


@lru_cache(maxsize=1)
def sections() -> dict[str, str]:
    """The profile's section for each ambiguity family (the table's ``profile``), in the table's order."""
    return {t.family: t.profile for t in ambiguity_types().values() if t.profile}


@lru_cache(maxsize=1)
def text_sections() -> frozenset[str]:
    """The sections keyed by a source text: those of the types asked afresh in every text ("it")."""
    return frozenset(t.profile for t in ambiguity_types().values() if t.profile and t.remember == FOR_TEXT)


def _key(section: str, key: str) -> str:
    """Words are matched as the memory of answers matches them ("The user" is "user"); a referent's source
    text as written."""
    return key if section in text_sections() else word_key(key)


def _bounded(value: Any, limit: int, what: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise InputError(f"{what} must be a text, not {type(value).__name__}")
    text = str(value).strip()
    if not text:
        raise InputError(f"{what} is empty")
    if len(text) > limit or "\x00" in text:
        raise InputError(f"{what} has {len(text)} characters; at most {limit}, as one line of text")
    return text
