"""Which words of an English sentence agree with a person in the translation, and whether one of
them shows that person's gender in a given target language.

French and Spanish inflect predicate adjectives and past participles for the person they are said
of ("je suis contente", "estás cansada"), unless the adjective has one form for both genders
(responsable, feliz) or the predicate becomes a verb or avoir/tener with a noun ("tu as raison").
German inflects neither: only a noun naming the person shows it ("Ich bin Lehrerin"), and that noun
is asked about as a mention of its own. The word lists are data: ``prompts/agreement.yaml``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import yaml

from ..paths import shipped_dir
from .coreference import SUBJECTS, to_infinitive
from .lexicon import name_gender, person_noun, place_nouns
from .noun_senses import PLACES

DATA_FILE = "agreement.yaml"
DEFAULT = "default"
LINKING_VERBS = {"be", "seem", "become", "feel", "look", "remain", "get", "stay", "appear", "sound", "prove"}
# Verbs of becoming with an adjective ("I would have gone nuts", "grow old", "turn pale", "fall ill"): French and
# Spanish say the adjective with a verb of their own (devenir fou, folle; volverse loco, loca), agreeing with the
# person; not what an "it" is said to be ("let it go unpunished": dejarlo impune, where the clitic shows it).
BECOMING_VERBS = {"go", "grow", "turn", "fall"}
PREDICATE_VERBS = LINKING_VERBS | BECOMING_VERBS  # verbs whose complement says what their subject is
# Quantifiers floating beside a pronoun ("you all", "we both"): tous/toutes, todos/todas, chacun/chacune.
FLOATING_QUANTIFIERS = {"all", "both", "each"}
# The reflexives of the person an imperative addresses ("Protect your loved ones and yourself").
ADDRESSED_REFLEXIVES = {"yourself", "yourselves"}
PARTICIPLE = "VBN"
OBJECTS = {"dobj", "dative", "ccomp", "xcomp", "attr"}  # what makes a verb's past one that agrees with no subject
# Pronouns whose gender a participle verb shows ("je suis partie"); an indefinite such as "someone"
# takes the masculine by convention ("quelqu'un est venu"), so only a name and these count.
PARTICIPANTS = {"i", "you", "we", "they"}
PERSONAL_OBJECTS = {"me", "you", "him", "her", "us", "them"}  # an object that controls the infinitive after it


@lru_cache(maxsize=1)
def _lexicon() -> dict:
    return yaml.safe_load((shipped_dir("prompts") / DATA_FILE).read_text(encoding="utf-8"))


def determiners(lang: str) -> dict:
    """``lang``'s determiners of a person's noun in each gender, and before a vowel ("le" -> "la", "la" -> "l'")."""
    return _lexicon()["determiners"][lang]


def never_a_person(lang: str) -> tuple[str, ...]:
    """Endings of ``lang``'s nouns that never name a person ("-tion", "-ité")."""
    return tuple(_lexicon()["never_a_person"].get(lang, ()))


@lru_cache(maxsize=None)
def greeting_words(lang: str) -> frozenset[str]:
    """Nouns of ``lang``'s greetings (« Bonjour l'amie », « Buenas tardes, amiga »): they name no one."""
    return frozenset(_lexicon()["greetings"].get(lang, ()))


@lru_cache(maxsize=None)
def grammatical_gender_only(lang: str) -> frozenset[str]:
    """Nouns of ``lang`` whose gender is the word's whoever they name (« la personne », « el miembro »)."""
    return frozenset(_lexicon()["grammatical_gender_only"].get(lang, {}).values())


def one_form_noun(lemma: str, lang: str) -> str | None:
    """The usual translation into ``lang`` of an English noun where it has one form for both genders ("child":
    « enfant »), whose determiner alone may show a person's gender; None for any other noun."""
    return _lexicon()["one_form_nouns"].get(lang, {}).get(lemma.lower())


def translated_with_one_gender(lemma: str, lang: str) -> bool:
    """Whether an English noun's usual translation into ``lang`` is one of those (person: « la personne »)."""
    return lemma.lower() in _lexicon()["grammatical_gender_only"].get(lang, {})


def _not_agreeing(lang: str = DEFAULT) -> set[str]:
    lists = _lexicon()["not_agreeing"]
    return set(lists[DEFAULT]) | set(lists.get(lang, ()))


def agreeing_words(token: Any) -> list[Any]:
    """Words whose translation agrees with the person ``token`` names, in French or Spanish:
    attributes, predicate adjectives and nouns, past participles, floating quantifiers, what "as" says they are."""
    words = [c for c in token.children if c.dep_ in ("amod", "acl", "appos") and c.pos_ in ("ADJ", "VERB", "NOUN")]
    if token.pos_ == "PRON":
        words += [c for c in token.children if c.lower_ in FLOATING_QUANTIFIERS]
        if token.dep_ == "pobj" and _partitive_quantifier(token.head.head):
            words.append(token.head.head)  # "none of us": aucun, aucune
        after = token.nbor() if token.i + 1 < len(token.doc) else None
        if after is not None and after.lower_ in FLOATING_QUANTIFIERS and after.head == token.head \
                and after.dep_ == token.dep_:
            words.append(after)  # "reminds us all of …", parsed as a second object
    head = token.head
    if token.dep_ in SUBJECTS and head is not token:
        words += _predicates(token, head)
        for verb in _sharing_the_subject(head):  # "I loved Jurassic Park so was hesitant": indecisa
            words += _predicates(token, verb)
        words += _own_reflexives(token, head)
    if token.dep_ == "pobj" and head.dep_ == "prep" and not any(
            c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN") for c in head.head.children):
        words += said_as(head.head)  # "say about Bridget Sullivan as a possible suspect"
    if token.dep_ in ("dobj",):
        words += [c for c in head.children if c.dep_ in ("oprd", "xcomp", "ccomp") and c.pos_ == "ADJ"]
        words += said_as(head)
        for clause in (c for c in head.children if c.dep_ == "xcomp"):  # "enable them to be qualified"
            words += [c for c in clause.children if clause.lemma_ == "be" and c.dep_ in ("acomp", "attr")
                      and c.pos_ in ("ADJ", "NOUN")]
            words += [clause] if any(c.dep_ == "auxpass" for c in clause.children) else []  # "want them to be hired"
    for clause in token.children:  # "you who are younger", "those who were injured"
        if clause.dep_ == "relcl" and any(c.dep_ in SUBJECTS and c.lower_ in ("who", "that") for c in clause.children):
            words += [c for c in clause.children if c.dep_ in ("acomp", "attr", "oprd") and c.pos_ in ("ADJ", "NOUN")]
            words += [clause] if any(c.dep_ == "nsubjpass" for c in clause.children) else []
    return _inflecting(words, token)


def _own_reflexives(subject: Any, verb: Any) -> list[Any]:
    """The subject's own reflexive under its verb where it is no object of it: after a preposition ("I can make it by
    myself": seul, seule; solo, sola; "for yourself": para ti misma) or stressing the subject ("played the game
    yourself": tú mismo); not a passive's agent ("developed by myself"), which has no such subject."""
    reflexives = _lexicon()["own_reflexives"].get(subject.lower_, [])
    return [t for t in verb.subtree if t.lower_ in reflexives and _own_reflexive(t) and _bound_by(t, verb)]


def _bound_by(reflexive: Any, verb: Any) -> bool:
    """Whether ``verb``'s subject is the one a reflexive below it stands for: no clause between them has a subject of
    its own ("you are like setting boundaries for yourself", not "you said that she did it herself")."""
    for head in reflexive.ancestors:
        if head == verb:
            return True
        if any(c.dep_ in SUBJECTS for c in head.children):
            return False
    return False


def said_of_the_addressed(verb: Any) -> list[Any]:
    """What an imperative says of the person it addresses, who has no word of their own in English: an adjective or
    a participle ("Be careful": prudent, prudente; "Don't be shy", "Get ready", "Please be seated"), and their own
    reflexive where it is no object ("Protect your loved ones and yourself": y a ti misma). A noun it says
    they are is a mention of its own ("Be a good boy"), asked about or settled there; so is a first name the parse
    took for an adjective, the person spoken to ("Look priya, …")."""
    if verb.dep_ == "auxpass":  # "be seated": the participle heads the clause
        return _inflecting([verb.head], verb)
    words = [c for c in verb.children if c.dep_ in ("acomp", "oprd") and c.pos_ in ("ADJ", "VERB")
             or c.dep_ == "xcomp" and c.pos_ == "ADJ"] if verb.lemma_ in LINKING_VERBS or verb.pos_ == "AUX" else []
    reflexives = [t for t in verb.subtree if t.lower_ in ADDRESSED_REFLEXIVES and _own_reflexive(t)
                  and _bound_by(t, verb)]
    return [w for w in _inflecting(words, verb) if not _said_with_a_verb(w) and name_gender(w.text)[1] is None] \
        + reflexives


def _said_with_a_verb(adjective: Any) -> bool:
    """An imperative's adjective that French and Spanish say with a verb ("Be sure to save": Assurez-vous de)."""
    idioms = _lexicon()["imperative_idioms"]
    clause = any(c.dep_ in ("xcomp", "ccomp") for c in adjective.children)
    return adjective.lower_ in idioms["words"] or clause and adjective.lower_ in idioms["before_a_clause"]


def _inflecting(words: list[Any], token: Any) -> list[Any]:
    """Of ``words`` said of ``token``'s person, with the words coordinated with them ("happy and proud"), those that
    can agree at all, once each."""
    for word in list(words):
        words += [c for c in word.children if c.dep_ == "conj" and c.pos_ == word.pos_]
    not_agreeing = _not_agreeing()
    return list({w.i: w for w in words if w.i != token.i and w.lower_ not in not_agreeing and _inflects(w)}.values())


def _predicates(subject: Any, head: Any) -> list[Any]:
    """What the verb or predicate ``head`` says of ``subject`` that agrees with it: a passive participle, a
    predicate with a copula, an adjective of a small clause ("make you happy"), an intransitive past."""
    words = []
    if subject.dep_ == "nsubjpass" or head.pos_ == "ADJ" or (
            head.pos_ == "NOUN" and any(c.dep_ == "cop" for c in head.children)):
        words.append(head)
    words += _said_with_a_linking_verb(head)
    words += [c for c in head.children if c.dep_ == "xcomp" and c.pos_ in ("ADJ", "VERB")]
    if subject.dep_ == "nsubj" and (subject.pos_ == "PROPN" or subject.lower_ in PARTICIPANTS) and _participle_verb(head):
        words.append(head)
    if not any(c.dep_ == "dobj" for c in head.children):  # with an object, "as" is said of it ("hired him as …")
        words += said_as(head)
    for clause in _infinitives_of_the_subject(head):  # "You need to be careful": prudent, prudente
        words += _said_with_a_linking_verb(clause)
        words += [clause] if any(c.dep_ == "auxpass" for c in clause.children) else []  # "I want to be hired"
    for clause in participial_adjuncts(subject, head):  # "Walt Perry, being thoughtful, knew": attentionné(e)
        words += _said_with_a_linking_verb(clause) if clause.tag_ == "VBG" else [clause]
    return words


def participial_adjuncts(subject: Any, verb: Any) -> list[Any]:
    """The participle clauses of ``verb`` with no subject, conjunction or auxiliary of their own that a comma sets
    right after its subject or that open the sentence before it, said of that subject: "Walt Perry, being
    thoughtful, knew", "Puzzled, Lucy stared" (a past participle agrees as an adjective does); not beside a noun
    the subject is said to be, of which they say it ("is a Brazilian rock band, formed in …")."""
    if any(c.dep_ == "attr" and c.pos_ in ("NOUN", "PROPN") for c in verb.children):
        return []
    return [c for c in verb.children if c.dep_ == "advcl" and c.tag_ in ("VBG", "VBN") and _set_beside(c, subject)
            and not any(a.dep_ in SUBJECTS | {"mark", "aux", "auxpass", "expl"} for a in c.children)]


def _set_beside(clause: Any, subject: Any) -> bool:
    """Whether a clause follows ``subject`` right after a comma, or opens its sentence before it."""
    start = clause.left_edge.i
    after_subject = start >= 2 and clause.doc[start - 1].text == "," and start - 2 == subject.right_edge.i
    return after_subject or start == clause.sent.start and clause.i < subject.i


def _said_with_a_linking_verb(verb: Any) -> list[Any]:
    """What a linking verb or a verb of becoming says its subject is ("you are sure", "I feel tired", "to be careful",
    "I would have gone nuts"); not how one feels where that is an adverb ("I feel bad")."""
    if verb.lemma_ not in PREDICATE_VERBS and verb.pos_ != "AUX":
        return []
    return [c for c in verb.children if c.dep_ in ("acomp", "attr", "oprd")
            and c.pos_ in ("ADJ", "NOUN", "PROPN", "VERB") and not _an_adverb_of_feeling(c)]


def _an_adverb_of_feeling(word: Any) -> bool:
    """How one feels, said with an adverb in French and Spanish ("I feel bad": je me sens mal, me siento mal)."""
    return word.head.lemma_ == "feel" and word.lower_ in _lexicon()["feel_adverbs"]


def _infinitives_of_the_subject(verb: Any) -> list[Any]:
    """The to-infinitives under ``verb`` whose understood subject is its subject ("You need to be careful", "I hope
    to be ready", "you can use that time to be more productive"), through a chain of them ("I want to try to stay
    calm"); not where a person is the verb's object, whose the infinitive is ("I asked him to be careful")."""
    if any(c.dep_ in ("dobj", "dative") and (c.lower_ in PERSONAL_OBJECTS or names_a_person(c)) for c in verb.children):
        return []
    clauses = [c for c in verb.children if c.dep_ == "xcomp" and c.pos_ in ("VERB", "AUX")
               and to_infinitive(c)
               and not any(a.dep_ in SUBJECTS for a in c.children)]
    return clauses + [deeper for clause in clauses for deeper in _infinitives_of_the_subject(clause)]


def said_as(verb: Any) -> list[Any]:
    """The person nouns an "as" phrase of ``verb`` says its subject or object is ("worked as a nurse", "was hired as
    a consultant", "As a consumer, you …"): « infirmière », « consultante », « consommatrice »."""
    if verb.pos_ not in ("VERB", "AUX"):
        return []
    return [noun for prep in verb.children if prep.dep_ == "prep" and prep.lower_ == "as"
            for noun in prep.children if noun.dep_ == "pobj" and noun.pos_ in ("NOUN", "ADJ") and names_a_person(noun)]


def _sharing_the_subject(verb: Any) -> list[Any]:
    """Verbs coordinated with ``verb`` that have no subject of their own, and so share its subject."""
    return [c for c in verb.children if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX")
            and not any(s.dep_ in SUBJECTS or s.dep_ == "expl" for s in c.children)]


def _inflects(word: Any) -> bool:
    """Whether a word of that kind can agree at all: an adjective, a past participle (not a gerund
    or another verb form: "I remember going"), a noun naming a person (not "the same way"), a
    nationality, a floating quantifier, a quantifier of "us" ("none of us": aucun, aucune), "by myself" (seul,
    seule)."""
    if _partitive_quantifier(word):  # whatever the tagger takes it for ("none" as a noun)
        return True
    if word.pos_ == "VERB":
        return word.tag_ == PARTICIPLE or _participle_verb(word) is not None
    if word.pos_ == "NOUN":
        return names_a_person(word)
    if word.pos_ == "PROPN":
        return word.ent_type_ == "NORP"
    return word.pos_ == "ADJ" or word.lower_ in FLOATING_QUANTIFIERS or _own_reflexive(word)


@lru_cache(maxsize=1)
def _partitive_words() -> frozenset[str]:
    return frozenset(word for words in _lexicon()["partitive_quantifiers"].values() for word in words)


def _partitive_quantifier(word: Any) -> bool:
    """A quantifier of "us", "you" or "them" ("none of us", "each of you"), said with a word that may agree with it."""
    return word.lower_ in _partitive_words() and any(
        prep.dep_ == "prep" and prep.lower_ == "of" and any(p.dep_ == "pobj" and p.lower_ in ("us", "you", "them")
                                                          for p in prep.children) for prep in word.children)


def _own_reflexive(word: Any) -> bool:
    """A reflexive ``_own_reflexives`` found: after a preposition, stressing the subject, or coordinated with
    another object, which Spanish says with a preposition too ("Protect your loved ones and yourself": a tus seres
    queridos y a ti misma)."""
    return word.pos_ == "PRON" and word.lower_.endswith(("self", "selves")) and (
        word.dep_ in ("npadvmod", "appos") or word.dep_ == "pobj" and word.head.dep_ in ("prep", "dative")
        or word.dep_ == "conj" and word.head.dep_ in ("dobj", "pobj"))


def _alone(word: Any) -> bool:
    """A reflexive after "by" ("by myself"), said with an adjective that agrees in French and Spanish: seul, seule;
    another is said so only in Spanish (``with_mismo``): para ti misma, tú mismo."""
    return word.dep_ == "pobj" and word.head.lower_ == "by"


def intransitive_past_may_agree(subject: Any, lang: str) -> bool:
    """Whether ``subject`` does something in the past with no object, in a ``lang`` that may say that past with a
    participle agreeing with it: French says it with être for more verbs than ``participle_verbs`` can list, as such or
    as a pronominal verb (« Landry s'est rendu au poste » for "Landry went down to the police station"), never for a
    verb with an object (« Linda a acheté une voiture »); a verb coordinated with its own, sharing its subject, as
    well ("Cook caught Russell's horse and rode to the cattle foreman's house": s'est rendu)."""
    if lang not in _lexicon()["intransitive_past_may_agree"] or subject.dep_ != "nsubj":
        return False
    return any(verb.pos_ == "VERB" and _in_the_past(verb) and not any(c.dep_ in OBJECTS for c in verb.children)
               for verb in [subject.head, *_sharing_the_subject(subject.head)])


def _in_the_past(verb: Any) -> bool:
    """A simple past ("left") or a perfect ("has left"): what French says with a compound past."""
    return verb.tag_ == "VBD" or verb.tag_ == PARTICIPLE and any(c.dep_ == "aux" and c.lemma_ == "have"
                                                                  for c in verb.children)


def possessive_agrees(lang: str) -> bool:
    """Whether ``lang``'s possessive determiner agrees with the person it is put before (« sa Shirley »,
    « seine Shirley »; not Spanish « su Shirley »)."""
    return lang in _lexicon()["possessive_agrees"]


US = frozenset({"us", "ourselves"})  # the first person plural after a verb or a preposition


def us_after_a_preposition(token: Any) -> bool:
    """"us" or "ourselves" after a preposition ("charge over us", "among ourselves")."""
    return token.lower_ in US and token.dep_ == "pobj"


def stressed_us_forms(lang: str) -> frozenset[str]:
    """The words of ``lang`` for such an "us", which show its gender (« nosotros », « nosotras »)."""
    return frozenset(_lexicon()["stressed_us"].get(lang, {}).get("forms", ()))


def stressed_us_shows_gender(token: Any, lang: str) -> bool:
    """Whether ``lang`` says such an "us" with a pronoun of its own that shows the group's gender (« sobre
    nosotras »), not with a clitic ("for us": « nos »)."""
    entry = _lexicon()["stressed_us"].get(lang)
    return entry is not None and us_after_a_preposition(token) and token.head.lower_ not in entry["clitic_after"]


def you_as_an_object(token: Any) -> bool:
    """"you" as a verb's only object ("they were trying to help you"; not "telling you that …")."""
    return token.lower_ == "you" and token.dep_ == "dobj" and not any(
        c.dep_ in ("dobj", "dative", "ccomp", "xcomp") and c.i != token.i for c in token.head.children)


def formal_object_you_shows_gender(token: Any, lang: str) -> bool:
    """Whether ``lang`` says such a "you", in the formal register, with a clitic that shows the person's gender
    (« ayudarlo », « ayudarla »; not the indirect « le » of "tell you")."""
    entry = _lexicon()["formal_object_you"].get(lang)
    return entry is not None and you_as_an_object(token) and token.head.lemma_.lower() not in entry["indirect_verbs"]


def title_noun(word: str) -> str | None:
    """The noun a title written before a name stands for ("Sen." or "Sen": senator; "Judge": judge), where the
    title is in ``prompts/agreement.yaml``'s list, else None."""
    titles, key = _lexicon()["titles"], word.lower().removesuffix(".")
    return titles["abbreviations"].get(key) or (key if key in titles["words"] else None)


def names_a_person(word: Any) -> bool:
    return person_noun(word.lemma_, word.text) is not None or person_noun(word.lower_, word.text) is not None \
        or word.ent_type_ == "NORP"


def shows_gender(words: list[Any], lang: str) -> bool:
    """Whether one of ``words`` (from ``agreeing_words``) shows the person's gender in ``lang``."""
    partitives = _lexicon()["partitive_quantifiers"].get(lang, ())
    if any(_partitive_quantifier(w) and w.lower_ in partitives for w in words):
        return True  # "none of us": aucune, ninguna, keine
    if lang not in _lexicon()["epicene"]:
        return False  # German: no predicate adjective or participle agrees
    not_agreeing, with_mismo = _not_agreeing(lang), lang in _lexicon()["with_mismo"]
    return any(w.lower_ not in not_agreeing and not _partitive_quantifier(w)
               and not (w.pos_ == "ADJ" and epicene(w.lemma_.lower(), lang))
               and ((use := _participle_verb(w)) is None or use in participle_verbs(lang))
               and (with_mismo or not _own_reflexive(w) or _alone(w))
               for w in words)


def participle_verbs(lang: str) -> frozenset[tuple[str, str]]:
    """(use, verb) pairs whose participle agrees with the subject in ``lang``: ("past", "leave")."""
    lists = _lexicon()["participle_verbs"].get(lang, {})
    return frozenset((use, verb) for use, verbs in lists.items() for verb in verbs)


def _participle_verb(verb: Any) -> tuple[str, str] | None:
    """(use, verb) where an active verb of the lists is in a use whose participle agrees in some
    language: an intransitive past ("she left", "she has left", "she got up") or a posture in
    progress ("she was sitting"); else None."""
    if verb.pos_ != "VERB" or any(c.dep_ in ("dobj", "nsubjpass", "auxpass") for c in verb.children):
        return None
    if _object_gap(verb) and verb.head.lemma_.lower() not in place_nouns() and verb.head.ent_type_ not in PLACES:
        return None  # "The URL you entered": the URL is what was entered, « l'URL que vous avez saisie »
    particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), None)
    key = f"{verb.lemma_.lower()} {particle}" if particle else verb.lemma_.lower()
    uses = {use for lists in _lexicon()["participle_verbs"].values() for use, verbs in lists.items() if key in verbs}
    if "past" in uses and _in_the_past(verb):
        return "past", key
    progressive = verb.tag_ == "VBG" and any(c.dep_ == "aux" and c.lemma_ == "be" for c in verb.children)
    return ("progressive", key) if "progressive" in uses and progressive else None


def _object_gap(verb: Any) -> bool:
    """A relative clause with a subject of its own and no relative word, whose noun is its verb's object ("the date
    you entered"; with "that" or "which" the parse makes that word the object): not one whose relative word is its
    subject ("the man who entered") or the place or time "where" or "when" it happens, nor one whose noun a
    preposition of the clause takes ("the room she came into")."""
    return verb.dep_ == "relcl" and not any(c.dep_ == "dobj" or c.tag_ == "WRB" or c.dep_ == "prep" and not c.n_rights
                                            for c in verb.children) \
        and any(c.dep_ == "nsubj" and c.tag_ not in ("WDT", "WP") for c in verb.children)


def it_is_adjective_shows_gender(adjectives: list[Any], lang: str) -> bool:
    """Whether saying in ``lang`` that "it" is ``adjectives`` shows the gender of the thing "it" stands for:
    not in French (« c'est génial »), in Spanish where an adjective has two forms ("es bonita")."""
    shown_by = _lexicon()["it_is_adjective"].get(lang, "pronoun")
    if shown_by == "adjective":
        return not all(epicene(a.lemma_.lower(), lang) for a in adjectives)
    return shown_by != "nothing"


def epicene(adjective: str, lang: str) -> bool:
    """Whether an English adjective's usual translation into ``lang`` has one form for both genders."""
    entry = _lexicon()["epicene"].get(lang, {})
    return adjective in entry.get("words", ()) or (adjective.endswith(tuple(entry.get("endings", ())))
                                                   and not adjective.endswith(tuple(entry.get("except_endings", ()))))
