"""Whether a quantifier, a number or "one" standing alone stands for people or for things.

"Several were disappointed" speaks of people, "Show all" and "this will add one" of things, "all is well" of
everything: the verb, what the text named before and the word's own modifiers tell which (``people`` makes a mention
of those that stand for people).
"""

from __future__ import annotations

from typing import Any

from .coreference import GENDERED_PRONOUNS, SINGULAR, SUBJECTS, THING_PRONOUNS, speakers, subject_of
from .lexicon import done_to_people, person_noun
from .mentions import PLURAL
from .noun_senses import ARGUMENTS, marked_by_who, person_first

# Indefinite pronouns that always denote people ("someone else will do it": quelqu'un, alguien).
PERSON_INDEFINITE = {"someone": SINGULAR, "somebody": SINGULAR, "anyone": SINGULAR, "anybody": SINGULAR,
                     "everyone": SINGULAR, "everybody": SINGULAR, "nobody": SINGULAR, "whoever": SINGULAR,
                     "oneself": SINGULAR}
# Quantifiers standing alone for people ("several were disappointed", "a few have fished"): the
# translation picks a gendered pronoun (quelques-uns/quelques-unes, algunos/algunas, alle/einige).
QUANTIFIERS = {"one": SINGULAR, "another": SINGULAR, "each": SINGULAR, "none": PLURAL, "all": PLURAL,
               "few": PLURAL, "many": PLURAL, "some": PLURAL, "others": PLURAL, "those": PLURAL,
               "both": PLURAL, "several": PLURAL, "most": PLURAL, "any": PLURAL, "other": SINGULAR,
               "either": SINGULAR, "neither": SINGULAR, "enough": PLURAL}
INDEFINITE = PERSON_INDEFINITE | QUANTIFIERS
# Quantifiers that also mean everything or much of something ("all is well", "all you have to do").
MASS_QUANTIFIERS = {"all", "most", "enough"}
# Determiners after which a lone quantifier or number stands for a thing ("this one", "which one").
THING_DETERMINERS = {"this", "that", "which", "the"}
# Words that are people only with a relative clause or an agreeing word ("the ones who are orphaned").
RELATIVE_ONLY = {"ones": PLURAL, "lot": PLURAL}
# Determiners of "one" as a pro-form of a noun named before it ("a new one", "the first ones"), not "every one".
PRO_FORM_DETERMINERS = {"a", "an", "another", "the", "this", "that", "these", "those"}
# Prepositions of what holds something: a quantifier standing alone after them is a place or a container.
CONTAINING = {"in", "inside", "into"}
# The dependencies of a word that modifies a noun ("other reasons", "all users"), where a quantifier stands for no one.
MODIFIER_DEPENDENCIES = ("det", "predet", "amod", "advmod", "nummod", "quantmod")


def stands_for_people(token: Any) -> bool:
    """A quantifier or number heading a noun phrase of its own, as the argument of a verb: "several
    were disappointed", "four in Sweden were opposed" (not "some of the water", "this one", "in 1998", "put a cafe in
    each"); after "the" or "this", only one who says a quotation (""…," the other said to the bartender")."""
    if token.dep_ not in ARGUMENTS:
        return False
    if any(c.lower_ in THING_DETERMINERS for c in token.children if c.dep_ == "det"):
        return token.i in speakers(token.doc)
    if token.pos_ == "NUM" and (not token.text.isalpha() and len(token.text) == 4 or token.head.pos_ == "NOUN"):
        return False  # a year, or a number that counts a noun
    if _done_to_no_one(token) and not people_named_before(token) and not _reciprocal(token):
        return False  # "Show all", "Save and add another": what is done to no one is a thing
    if token.dep_ == "pobj" and token.head.lower_ in CONTAINING and not _reciprocal(token):
        return False  # "put a cafe in each", "keep the sauce for basting meat in one": what holds something
    return not echoes_a_thing(token)


def subject_read_as_a_determiner(token: Any) -> bool:
    """A quantifier the parser made the determiner of the verb after it: of a verb it took for a noun, a plural
    after a word that only counts one ("when each communicates", each + "communicates" tagged NNS), or of an
    auxiliary ("Some feel forced to …", "feel" tagged AUX). It is the verb's subject, standing alone."""
    head = token.head
    if token.dep_ != "det" or head.i != token.i + 1:
        return False
    counts_one = QUANTIFIERS[token.lower_] == SINGULAR and head.tag_ == "NNS" and head.dep_ in SUBJECTS
    return counts_one or head.pos_ == "AUX"


def _done_to_no_one(token: Any) -> bool:
    """The object of a verb whose first WordNet sense is never done to a person ("Show all": no "Somebody ----s
    somebody" frame). Too coarse for a noun: "visit my parents", "find our killer" have none either."""
    return token.dep_ == "dobj" and token.head.pos_ == "VERB" and not done_to_people(token.head.lemma_.lower())


def people_named_before(token: Any) -> bool:
    """Whether the text names people before a word: a noun whose first sense is a person, a name, a people, or a
    pronoun of a third person ("I met the students and liked all", "they came; I thanked both")."""
    return any(t.ent_type_ in ("PERSON", "NORP") or t.lower_ in GENDERED_PRONOUNS or t.lower_ in THING_PRONOUNS
               or person_first(t) for t in token.doc[:token.i])


def _reciprocal(token: Any) -> bool:
    """"each other", "one another": the subject's own people, whatever the verb."""
    before = token.nbor(-1).lower_ if token.i else ""
    return (before, token.lower_) in (("each", "other"), ("one", "another"))


def echoes_a_thing(token: Any) -> bool:
    """"one" standing for a count noun the text named before it (English's pro-form), where the nearest such noun
    names no person: a bare "one" or "another" as a verb's object (also what it is given "with": "to provide
    him with one" after "needed a job"), after a noun with a determiner or a possessor
    ("You do not currently have a password - this will add one", said "en ajouter un"; "This username is already
    taken. Please choose another."; not the verb's own subject: "We need a nurse tonight, so the hospital will send
    one"), and "one" or "ones" with a determiner or
    an adjective of its own, which is always the pro-form ("Enter your email address … for setting a new one";
    "do you watch Horror films? The first ones were inspired by …"), but with a "who" clause ("the one who was
    evolutionist") or a quantifier ("every one said to be Anglophone"): someone."""
    lower = token.lower_
    modified = lower in ("one", "ones") and not marked_by_who(token) and any(
        c.dep_ == "amod" or c.dep_ == "det" and c.lower_ in PRO_FORM_DETERMINERS for c in token.children)
    verb = _verb_of_object(token)
    bare = lower in ("one", "another") and verb is not None and not token.n_lefts and not token.n_rights
    if not (modified or bare):
        return False
    named = [t for t in token.doc[:token.i] if t.pos_ == "NOUN" and t.tag_ == ("NNS" if lower == "ones" else "NN")
             and (modified or any(c.dep_ in ("det", "poss") for c in t.children))
             and not (t.dep_ in SUBJECTS and t.head == verb)]  # the one who sends is not what is sent
    return bool(named) and person_noun(named[-1].lemma_, named[-1].text) is None


def names_its_noun_again(token: Any) -> bool:
    """A quantifier or "one" set beside a thing's noun names that thing again: in apposition to it ("two classes, one
    the hero, the other the villain", "cooling-heating units, each with its own thermostat"), with the noun in
    apposition to it ("The other, a shallow concave gradient, was produced …"), "one" said of its subject, and
    "another" answering "one" and a noun before it ("for one reason or another", "from one ultraviolet
    source to another"). Said of a person it stays a mention: « celui », « celle » may show a gender that the person's
    own words do not ("Dan Humphrey is the one who sent you that video")."""
    noun = _its_noun(token)
    return noun is not None and noun.i != token.i and noun.pos_ == "NOUN" and not noun.ent_type_ \
        and person_noun(noun.lemma_, noun.text) is None


def _its_noun(token: Any) -> Any | None:
    """The noun a quantifier names again, if the parse shows one (``names_its_noun_again``)."""
    if token.dep_ == "appos":
        return token.head
    if token.dep_ == "attr":
        return subject_of(token.head) if token.lower_ == "one" else None
    named = next((c for c in token.children if c.dep_ == "appos" and c.pos_ == "NOUN"), None)
    if named is not None or token.lower_ != "another" or _reciprocal(token):
        return named
    counted = [t.head for t in token.doc[token.sent.start:token.i] if t.lower_ == "one" and t.dep_ == "nummod"]
    return counted[-1] if counted else None


def modifier_in_a_coordination(token: Any) -> bool:
    """A quantifier coordinated with a determiner or an adjective of a noun is one as well ("for these and other
    reasons", "technical and other appropriate forms of assistance"): it stands for no one of its own."""
    first = token
    while first.dep_ == "conj":
        first = first.head
    return first is not token and first.dep_ in MODIFIER_DEPENDENCIES


def _verb_of_object(token: Any) -> Any | None:
    """The verb a word is the object of: its direct object, or what it is given "with" ("to provide him with
    one")."""
    if token.dep_ == "dobj":
        return token.head
    with_ = token.head
    return with_.head if token.dep_ == "pobj" and with_.lower_ == "with" and with_.head.pos_ == "VERB" else None


def mass_quantity(token: Any) -> bool:
    """"All", "most" or "enough" meaning everything, not everyone: with a singular verb ("all is
    well") or a relative clause that is not about people ("all you have to do", "all that matters")."""
    if token.lower_ not in MASS_QUANTIFIERS:
        return False
    singular_verb = token.dep_ in SUBJECTS and (token.head.tag_ == "VBZ" or any(
        c.dep_ in ("aux", "auxpass") and c.tag_ == "VBZ" or c.lower_ == "was" for c in token.head.children)
        or token.head.lower_ == "was")
    return singular_verb or any(c.dep_ == "relcl" for c in token.children) and not marked_by_who(token)


def reduced_relative(token: Any) -> bool:
    """A quantifier with a participle clause, a relative clause without "who": "none claiming to be
    Nigerian", "those participating" (aucun se disant, ceux qui participent)."""
    return any(c.dep_ == "acl" and c.pos_ == "VERB" for c in token.children)


def of_phrase(token: Any) -> Any | None:
    return next((c for c in token.children if c.dep_ == "prep" and c.lower_ == "of"), None)
