"""What one word of a French or Spanish translation shows of a person: the gender its form gives, and whether it
agrees with its subject at all (an adjective or a past participle does, a finite verb or a participle said with
« avoir » does not), with the small parsers' usual misreadings set right (« vous vous faites prendre » read as a
participle, « tu » as an article).
"""

from __future__ import annotations

from typing import Any

from .french_lexicon import finite_verb_form, french_genders
from .lexicon import FEMININE, MASCULINE

_MORPH_GENDER = {"Masc": MASCULINE, "Fem": FEMININE}
# French and Spanish pronouns that only ever stand before a verb: a "noun" right after one is a verb the tagger
# misread (« tu te mets » read as « mets », a dish), whatever it tagged the pronoun as.
_BEFORE_A_VERB_ONLY = {"me", "te", "se", "m'", "t'", "s'"}
# French subject pronouns (those of the speaker and the listener show no gender), and the words that may stand
# between one and its verb (« vous ne le lui faites »).
_FRENCH_SPEAKERS_AND_LISTENERS = {"je", "j'", "tu", "nous", "vous", "on"}
_FRENCH_SUBJECTS = _FRENCH_SPEAKERS_AND_LISTENERS | {"il", "elle", "ils", "elles"}
_FRENCH_BEFORE_THE_VERB = {"ne", "n'", "me", "m'", "te", "t'", "se", "s'", "le", "la", "l'", "les", "lui", "leur",
                           "nous", "vous", "y", "en"}


def word_gender(token: Any) -> str | None:
    """The gender a word's form shows: for French, the Lefff's where it lists the form (none for an
    epicene form: "l'astronome"), else the pipeline's morphology."""
    if not any(c.isalpha() for c in token.text) or token.dep_.startswith("expl"):
        return None  # a hyphen the tagger took for a word; an impersonal subject ("il y a", "il faut")
    if token.lang_ == "es" and token.lower_ == "lo" and token.dep_ == "det":
        return None  # the neuter article of « lo suficiente », « lo mejor », tagged as the pronoun
    if token.lang_ == "fr" and token.lower_ in _FRENCH_SPEAKERS_AND_LISTENERS:
        return None  # « tu », « vous » show no one's gender, whatever the tagger read (« si tu mens » as an article)
    if misread_verb(token):
        return None
    listed = french_genders(token.text, token.pos_) if token.lang_ == "fr" else None
    if listed is not None:
        return next(iter(listed)) if len(listed) == 1 else None
    french_noun = token.lang_ == "fr" and token.pos_ in ("NOUN", "ADJ")
    if french_noun and token.lower_ in (token.lemma_ + "e", token.lemma_ + "es"):
        return FEMININE  # a form the Lefff lacks, its masculine lemma plus -e: "apprenantes" (tagged Masc)
    if token.lang_ == "fr" and token.pos_ == "PROPN":
        return None  # a name the Lefff does not list shows no gender of its own ("Riley"): the tagger's is a guess
    values = token.morph.get("Gender")
    gender = _MORPH_GENDER.get(values[0]) if len(values) == 1 else None
    spanish = token.lang_ == "es" and token.pos_ in ("NOUN", "ADJ")
    return None if gender is not None and spanish and _spanish_ending_doubts(token, gender) else gender


def misread_verb(token: Any) -> bool:
    """A verb the tagger read as a noun or a participle: a "noun" right after a pronoun that only stands before a
    verb (« tu te mets »), or a French verb form right after a subject pronoun and the pronouns between them
    (« vous vous faites prendre », « tu le fais »)."""
    if token.pos_ == "NOUN" and token.i > 0 and token.nbor(-1).lower_ in _BEFORE_A_VERB_ONLY:
        return True
    return token.lang_ == "fr" and _after_a_subject_pronoun(token) and finite_verb_form(token.text)


def _after_a_subject_pronoun(token: Any) -> bool:
    """Whether a French word comes right after a subject pronoun and the pronouns that go between it and its verb:
    the word is that verb (« vous faites », « tu le fais », whatever the tagger read), where its form is one."""
    for before in reversed(token.doc[:token.i]):
        if before.lower_ in _FRENCH_SUBJECTS:
            return True
        if before.lower_ not in _FRENCH_BEFORE_THE_VERB:
            return False
    return False


# Spanish endings that say a gender (« oriunda », « casado ») and those of nouns one form serves for both
# (« parte », « estudiante », « artista »: only an article or an adjective shows whose they are).
_SPANISH_ENDINGS = {MASCULINE: ("o", "os"), FEMININE: ("a", "as")}
_SPANISH_EITHER = ("e", "ista", "istas", "ntes")
CONTRACTED = {"du", "au", "des", "aux", "del", "al"}  # a preposition and an article in one word


def _spanish_ending_doubts(token: Any, gender: str) -> bool:
    """Whether a Spanish word's form leaves the tagger's gender a guess: its ending says the other gender (« oriunda »
    tagged masculine), or it is a noun without an article or adjective in a form that serves for both (« fue
    parte del equipo »)."""
    other = FEMININE if gender == MASCULINE else MASCULINE
    bare = token.pos_ == "NOUN" and not any(c.dep_ in ("det", "amod") or c.lower_ in CONTRACTED
                                            for c in token.children)
    return token.lower_.endswith(_SPANISH_ENDINGS[other]) or bare and token.lower_.endswith(_SPANISH_EITHER)


# A participle said with avoir or haber does not agree with its subject ("elle a dit", "ha llegado").
_NON_AGREEING_AUXILIARIES = {"avoir", "haber"}
_PRESENT_OF_HABER = {"he", "has", "ha", "hemos", "habéis", "han"}
COPULAS = {"être", "ser", "estar"}


def agrees_with_subject(predicate: Any) -> bool:
    """An adjective, or a past participle not said with an auxiliary that keeps it masculine, unless with a
    passive's as well (« vous avez été élevée »); a finite verb agrees with no gender (« dit » in « Jessie dit » is
    the present, not the participle), nor does a present participle (« craint » tagged as one in « Naples craint
    que … »), nor the word of a prepositional predicate, whose gender is its own (« Robbie est en maternelle »)."""
    if any(c.dep_ == "case" for c in predicate.children):
        return False
    participle = "Part" in predicate.morph.get("VerbForm") and "Pres" not in predicate.morph.get("Tense")
    auxiliaries = {_auxiliary(c) for c in predicate.children if c.dep_.startswith("aux")}
    passive = bool(auxiliaries & COPULAS)  # « vous avez été élevée », « has sido criada »: it agrees
    return predicate.pos_ == "ADJ" or (predicate.pos_ == "VERB" and participle
                                       and (passive or not auxiliaries & _NON_AGREEING_AUXILIARIES))


def _auxiliary(token: Any) -> str:
    """An auxiliary's verb, without the pronoun Spanish may join to it (« haberse ido »), also where the tagger left
    a present of « haber » unlemmatised (« ¿Has jugado …? », capitalised)."""
    lemma = "haber" if token.lower_ in _PRESENT_OF_HABER else token.lemma_.lower()
    return next((verb for verb in _NON_AGREEING_AUXILIARIES if lemma.startswith(verb)), lemma)
