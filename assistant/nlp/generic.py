"""Whether a person mention stands for anyone of its kind ("any blogger", "Directors often become producers", "While
a decathlon champion has to compete"): its generic form in French or Spanish reads as either gender, so its gender
is asked only where the person wants inclusive forms (``ChainOptions.inclusive``)."""

from __future__ import annotations

from typing import Any

from .coreference import clause_subject
from .lexicon import organisation_nouns, place_nouns, singular_of
from .noun_senses import PLACES

# Plural proper nouns with these endings name peoples and other groups ("Greenlanders", "Bosnians",
# "Cypriots", "Viennese"), which the entity recogniser often takes for organisations.
DEMONYM_SUFFIX = ("ans", "ers", "ese", "ites", "iots")
# The entity recogniser's owners of a population: places, and organisations ("Google employees").
OWNERS = PLACES | {"ORG"}
# Determiners that make a noun stand for anyone of its kind ("any blogger", "no spouse", "every citizen", "all
# users"), not for someone the text knows ("all my sisters" has a possessor as well).
QUANTIFYING_DETERMINERS = {"any", "no", "every", "each", "either", "neither", "all"}
# What any of a kind can, must or would do ("Only a jerk would slip on a banana peel"); "ca" of "can't"; not "will":
# what one of them will do.
GENERIC_MODALS = {"can", "ca", "must", "should", "may", "might", "ought", "would"}


def generic_noun(noun: Any) -> bool:
    """Whether a noun that names a person stands for anyone of its kind: one under a quantifying determiner ("any
    blogger", "no spouse", "every citizen"), a plural with no determiner in a clause that does not tell what
    happened ("Directors often become producers", "customers who are serious"; not "Moldavians voted"), "a"/"an"
    and a noun as the subject of what one of the kind must, can or would do, or a letter's "Dear customer". A noun
    coordinated without a determiner shares the first one's ("the doctors and nurses"); a predicate noun is as
    generic as what it is said of ("they are doctors"); a place's or an organisation's people are its population
    (``_a_population``)."""
    while noun.dep_ == "conj" and noun.head.pos_ in ("NOUN", "PROPN") and not _determiners(noun):
        noun = noun.head
    if noun.dep_ in ("attr", "appos"):  # what it is said of decides: "Directors become producers"
        said_of = noun.head if noun.dep_ == "appos" else clause_subject(noun)
        return said_of is not None and said_of.pos_ in ("NOUN", "PROPN") and generic_noun(said_of)
    if _a_population(noun):
        return True
    found = _determiners(noun)
    if not found and any(c.dep_ == "amod" and c.lower_ == "dear" for c in noun.children):
        return True  # a letter's form of address, "Dear customer, your order has shipped": whoever reads it
    if [d.lower_ for d in found] in (["a"], ["an"]):
        return _what_one_of_a_kind_must_or_can_do(noun)
    if found:
        return all(d.lower_ in QUANTIFYING_DETERMINERS for d in found)
    a_people = noun.tag_ == "NNPS" and (noun.ent_type_ == "NORP" or noun.lower_.endswith(DEMONYM_SUFFIX))
    return (noun.tag_ == "NNS" or a_people) and noun.dep_ != "compound" and not _told_in_the_past(noun)


def _a_population(noun: Any) -> bool:
    """Whether a plural names the people a place, an organisation or a thing has ("the site administrators", "the
    citizens of France", "the hospital's nurses", "Google employees", "passes on these savings to its members"):
    many people of both genders, whom French and Spanish name in the masculine plural unless inclusive forms are
    asked for."""
    owners = [c for c in noun.children if c.dep_ in ("poss", "compound") and c.i < noun.i] + [
        o for p in noun.children if p.dep_ == "prep" and p.lower_ == "of" for o in p.children if o.dep_ == "pobj"]
    named = bool(noun.ent_type_)  # a group's own name: "the Mills Chamber Players", "the Knights of Columbus"
    counted = any(c.dep_ == "nummod" for c in noun.children)  # "two members of our Trustee Board": those two
    # "the other members of the patents committee -- Wilfred C. Leland, Howard E. Coffin, …": those people
    listed = any(c.dep_ == "appos" and c.ent_type_ == "PERSON" for c in noun.children)
    # "the most ruthless of all of the Salem prosecutors", "one of Russia's leading comedians": who is asked about
    # is the one the sentence singles out of them
    partitive = noun.dep_ == "pobj" and noun.head.lower_ == "of" and noun.head.head.pos_ not in ("NOUN", "PROPN")
    return noun.tag_ in ("NNS", "NNPS") and not (named or counted or listed or partitive) and any(
        o.ent_type_ in OWNERS or o.pos_ == "NOUN" and not o.ent_type_ and _an_owner_noun(o.lemma_)
        or o.lower_ == "its" or o.lower_ == "their" and _owners_their(o) for o in owners)


def _an_owner_noun(lemma: str) -> bool:
    """A noun that names a place, a building, an organisation or a nation first ("the hospital's nurses", "the
    company's employees", "the team's players")."""
    return lemma.lower() in place_nouns() or lemma.lower() in organisation_nouns()


def _owners_their(their: Any) -> bool:
    """Whether the nearest plural before "their" in its sentence names organisations or nations ("The desire of
    States to protect their national security … denying their citizens the right"; "parties … their candidates"),
    whose people "their" names; a proper noun counts as a plural where its singular is such a noun ("States",
    "Nations"). Not a plural of places ("the sources of their mistrust of their parents"): the owner of a place's
    people is named with "its" or its own name."""
    plurals = [t for t in their.doc[their.sent.start:their.i] if t.tag_ in ("NNS", "NNPS")
               or t.pos_ == "PROPN" and t.lower_.endswith("s") and _an_owner_noun(singular_of(t.lower_))]
    if not plurals:
        return False
    last = plurals[-1]
    return last.ent_type_ in OWNERS or (last.lemma_ if last.pos_ == "NOUN" else singular_of(last.text)).lower() \
        in organisation_nouns()


def impersonal_one(token: Any) -> bool:
    """Whether "one" is the pronoun of anyone at all ("when one wishes to entertain …, one visits the restaurant",
    "One can never be too careful": on, uno, man): a bare "one" as the subject of what is so, not of what happened
    ("One came forward", "One is Pentecostal and has been leading the worship service") and not a number of
    something ("one of them", "the one who")."""
    verb = token.head
    if token.lower_ != "one" or token.dep_ != "nsubj" or token.n_lefts or token.n_rights \
            or verb.pos_ not in ("VERB", "AUX"):
        return False
    shared = [c for c in verb.children if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX")]
    present = verb.tag_ == "VBZ" and not any(c.dep_ in ("aux", "auxpass") for c in verb.children)  # "one visits"
    return (_with_a_generic_modal(verb) or present) and not any(map(_happened, shared))


def _what_one_of_a_kind_must_or_can_do(noun: Any) -> bool:
    """Whether "a"/"an" and a noun are the subject of what any of its kind must, can, should or would do ("While a
    decathlon champion has to compete in ten events", "a suer must represent themself", "Only a jerk would slip on
    a banana peel"): anyone of the kind. Not "A reader reports" or "a technician will call you": one of them, in
    what happens."""
    verb = noun.head
    if noun.dep_ != "nsubj" or verb.pos_ not in ("VERB", "AUX"):
        return False
    must = verb.lemma_ in ("have", "need") and any(c.dep_ == "xcomp" and any(a.lower_ == "to" for a in c.children)
                                                  for c in verb.children)
    return (_with_a_generic_modal(verb) or must) and verb.tag_ != "VBD"


def _with_a_generic_modal(verb: Any) -> bool:
    """Whether a verb says what any of a kind may, must or would do ("can", "must", "should", "would"), not what one
    of them will do ("will")."""
    return any(c.dep_ == "aux" and c.lower_ in GENERIC_MODALS for c in verb.children)


def _told_in_the_past(noun: Any) -> bool:
    """Whether the clause of a noun tells what happened ("Moldavians voted against the plan", "soldiers were
    killed", "doctors have warned"): some of the kind, once, not the kind as such."""
    verb = next((t for t in noun.ancestors if t.pos_ in ("VERB", "AUX")), None)
    return verb is not None and _happened(verb)


def _happened(verb: Any) -> bool:
    """A verb in the past or the perfect ("voted", "were killed", "have warned", "has been leading")."""
    return verb.tag_ == "VBD" or any(c.dep_ in ("aux", "auxpass") and (c.tag_ == "VBD" or c.lemma_ == "have")
                                     for c in verb.children)


def _determiners(noun: Any) -> list[Any]:
    """The words before a noun that say which of its kind it is: determiners, possessors, numbers, and a
    pronoun ("you guys", "them cops")."""
    return [c for c in noun.children if c.dep_ in ("det", "poss", "nummod", "predet")
            or c.pos_ == "PRON" and c.i < noun.i]
