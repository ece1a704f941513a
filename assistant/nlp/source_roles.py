"""What the source says of the people its translations are checked for: each mention's grammatical role, the
nouns said of someone, the roles of the ``[pr]`` placeholders, and the people besides the one asked about. The
mentions (``people``) and the checks of every translation read one parse of the source: ``source_parse``."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .agreement import agreeing_words
from .lexicon import person_noun
from .mentions import Mention

PLACEHOLDER, PLACEHOLDER_STAND_IN = "[pr]", "they"  # same length: offsets stay those of the source
PREDICATIVE = "as"  # the role of what "as" says of someone ("served as dean")
RESTATING = {"attr", "acomp", "oprd", "appos"}  # the dependencies of a word that restates a mention


@lru_cache(maxsize=256)
def source_parse(text: str) -> Any:
    """The source's parse, one per text: its mentions and the checks of its translations read the same one."""
    from .pipelines import english_pipeline

    doc = english_pipeline()(text.replace(PLACEHOLDER, PLACEHOLDER_STAND_IN))
    doc.user_data["source"] = text
    return doc


def other_people(source: str, mentions: tuple[Mention, ...], asked: Mention, named: range) -> tuple[Mention, ...]:
    """The people of ``source`` besides ``asked`` (and the mentions in ``named``, the words its
    question named): not "I", "you" or a pronoun, nor ``asked`` again under another word (the
    same noun, a word that agrees with it as in "them all", a predicate or an appositive as in
    "anyone who is Armenian")."""
    again = _restating_heads(source)
    return tuple(m for m in mentions if m.kind != "pronoun" and m.start not in named and m.head_index not in again
                 and m.head.lower() != asked.head.lower() and m.head not in asked.agreement)


def _restating_heads(source: str) -> frozenset[int]:
    """The tokens of ``source`` that restate another mention: predicates and appositives."""
    return frozenset(t.i for t in source_parse(source) if t.dep_ in RESTATING)


@lru_cache(maxsize=256)
def source_nouns(source: str) -> frozenset[str]:
    """The lower-cased nouns of ``source`` (its one parse), but those said of someone: predicates, appositives
    and open complements ("anyone who is Armenian")."""
    return frozenset(t.lower_ for t in source_parse(source) if t.pos_ in ("NOUN", "PROPN")
                     and t.dep_ not in RESTATING | {"xcomp"})


def grammatical_role(source: str, mention: Mention) -> str:
    """The dependency of ``mention``'s head in the parse of ``source`` ("nsubj", "dobj", "poss" …): the translation
    keeps a person's role far more often than it keeps the person's place. What "as" introduces is said of someone
    ("served as dean"): ``PREDICATIVE``."""
    head = source_parse(source)[mention.head_index]
    return PREDICATIVE if head.dep_ == "pobj" and head.head.lower_ == "as" else head.dep_


def placeholder_roles(source: str) -> list[tuple[int, str, bool]]:
    """Where each ``[pr]`` of ``source`` starts, its dependency, and whether the source says something of it that
    agrees with it in French or Spanish ("[pr] was elected": « fue elegida »): every one stands for the same
    masked person ("Following an untimely demise of [pr] mother, [pr] was adopted"), so any of them may be read.
    One before a noun is its possessor ("named Riley as [pr] killer"), whatever the parse of the pronoun standing
    in makes of it."""
    return [(t.idx, "poss" if _before_its_noun(t) else t.dep_, bool(agreeing_words(t))) for t in source_parse(source)
            if source[t.idx:t.idx + len(PLACEHOLDER)] == PLACEHOLDER]


def _before_its_noun(token: Any) -> bool:
    """Whether the next word is a noun, or a modifier of a noun after it ("[pr] six-month training program")."""
    after = token.nbor() if token.i + 1 < len(token.doc) else None
    return after is not None and (after.tag_ in ("NN", "NNS") and after.dep_ != "npadvmod"  # "with [pr] today"
                                  or after.dep_ in ("amod", "compound", "nummod")
                                  and after.head.i > after.i and after.head.tag_ in ("NN", "NNS"))


def source_person_nouns(source: str) -> frozenset[str]:
    """The lower-cased nouns of ``source`` that name people ("president", not "courthouse")."""
    return frozenset(t.lower_ for t in source_parse(source)
                     if t.pos_ in ("NOUN", "PROPN") and person_noun(t.lemma_, t.text) is not None)


def named_with_a_noun(source: str, mention: Mention) -> bool:
    """Whether ``source`` says who the named person is with a noun beside the name ("Riley, the lawyer", "lawyer
    Riley", "the lawyer, Riley"): only then is a noun beside the name in a translation the person's (« Kris Kringle,
    Cour suprême » translates "Kris Kringle, New York County Courthouse", an address)."""
    name = source_parse(source)[mention.head_index]
    return any(c.dep_ in ("appos", "compound") and c.pos_ == "NOUN" for c in name.children) \
        or name.dep_ == "appos" and name.head.pos_ == "NOUN"
