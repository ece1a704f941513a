"""Which person a gendered pronoun ("he", "her", "himself") refers to, read from the parse.

A pronoun settles the gender of its antecedent; the others it might refer to stay open, so that
they are asked about rather than silently settled by a wrong guess.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

MASCULINE, FEMININE = "masculine", "feminine"
SINGULAR = "singular"
GENDERED_PRONOUNS = {"he": MASCULINE, "him": MASCULINE, "his": MASCULINE, "himself": MASCULINE,
                     "she": FEMININE, "her": FEMININE, "hers": FEMININE, "herself": FEMININE}
SUBJECTS = {"nsubj", "nsubjpass"}
CLAUSE_LINKS = {"advcl", "ccomp", "conj", "xcomp", "relcl", "acl", "pcomp"}


class Mention(Protocol):
    """What resolution reads and writes of a person mention (``people.Mention``)."""

    start: int
    end: int
    head_index: int
    sentence: int
    number: str
    kind: str
    settled: str | None
    evidence: str | None
    likely: str | None
    undecided_pronouns: list[str]


def attribute_pronouns(doc: Any, mentions: list[Mention], same_referent: Callable[[Mention, Mention], bool]) -> None:
    """Settle the gender of the mention each gendered pronoun refers to; a pronoun whose referent
    the parse cannot tell is recorded on every candidate as undecided."""
    by_head = {m.head_index: m for m in mentions}
    for pronoun in (t for t in doc if t.lower_ in GENDERED_PRONOUNS and t.pos_ == "PRON"):
        gender = GENDERED_PRONOUNS[pronoun.lower_]
        sentence = pronoun.sent
        candidates = [m for m in mentions if m.kind in ("name", "noun", "placeholder", "indefinite")
                      and m.number == SINGULAR and m.settled in (None, gender) and m.likely in (None, gender)
                      and not (m.start <= pronoun.idx < m.end)
                      and (m.sentence == _sentence_index(doc, sentence) and m.head_index < pronoun.i
                           or m.sentence == _sentence_index(doc, sentence) - 1)]
        chosen = _antecedent(pronoun, candidates, by_head)
        if chosen is None:
            for m in candidates:
                m.undecided_pronouns.append(pronoun.text)
        elif chosen.settled is None:
            chosen.settled, chosen.evidence = gender, f"pronoun {pronoun.text!r} refers to it"
            for m in mentions:  # a repeated noun or name is the same person
                if m is not chosen and m.settled is None and same_referent(m, chosen):
                    m.settled, m.evidence = gender, chosen.evidence
    for m in mentions:
        if m.settled is not None:
            m.undecided_pronouns.clear()


def _sentence_index(doc: Any, sentence: Any) -> int:
    return next(n for n, s in enumerate(doc.sents) if s.start == sentence.start)


def _antecedent(pronoun: Any, candidates: list[Mention], by_head: dict[int, Mention]) -> Mention | None:
    subject = clause_subject(pronoun)
    inside = subject is not None and pronoun.i in {t.i for t in subject.subtree}
    if subject is not None and subject.lower_ in ("who", "that", "which") and subject.head.dep_ == "relcl":
        subject = subject.head.head  # "the teacher, who thanked her": the teacher
    lower = pronoun.lower_
    own = by_head.get(subject.i) if subject is not None else None
    if pronoun.dep_ in ("dobj", "dative", "pobj") and lower not in ("himself", "herself") and own is not None:
        candidates = [m for m in candidates if m is not own]  # "asked him": never its own clause's subject
    thanked = _object_thanked_for(pronoun, by_head)
    if thanked in candidates:
        return thanked
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    if lower in ("himself", "herself") or (pronoun.dep_ == "poss" and own is not None
                                           and not inside):
        return own if own in candidates else None
    if pronoun.dep_ in SUBJECTS:
        main = _main_subject(pronoun)
        if main is not None and by_head.get(main.i) in candidates:
            return by_head[main.i]
        if pronoun.head.dep_ == "ROOT":  # a new sentence: the previous sentence's subject
            previous = [m for m in candidates if m.sentence < _sentence_index(pronoun.doc, pronoun.sent)]
            subjects = [m for m in previous if pronoun.doc[m.head_index].dep_ in SUBJECTS]
            return subjects[0] if len(subjects) == 1 else None
        return None
    if pronoun.dep_ in ("dobj", "dative", "pobj") and own is not None:
        others = [m for m in candidates if m is not own]  # "him" is never its own clause's subject
        return others[0] if len(others) == 1 else None
    return None


def _object_thanked_for(pronoun: Any, by_head: dict[int, Mention]) -> Mention | None:
    """"thanked the designer for her help", "blamed the driver for his mistake": a possessive in a
    "for" phrase of a verb with an object belongs to that object."""
    if pronoun.dep_ != "poss" or pronoun.head.dep_ != "pobj" or pronoun.head.head.lower_ != "for":
        return None
    verb = pronoun.head.head.head
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    return by_head.get(obj.i) if obj is not None else None


def clause_subject(token: Any) -> Any | None:
    """The subject of the clause a token belongs to: coordinated verbs share their subject, and
    "asked the researcher to present..." has the object of "asked" as the subject of "present"."""
    for verb in [token.head, *token.head.ancestors]:
        subject = next((c for c in verb.children if c.dep_ in SUBJECTS and c.i != token.i), None)
        if subject is not None:
            return subject
        if verb.dep_ == "xcomp":
            controller = next((c for c in verb.head.children if c.dep_ == "dobj"), None)
            if controller is not None:
                return controller
        if verb.dep_ == "conj" or verb.dep_ not in CLAUSE_LINKS | {"ROOT"}:
            continue
        return None
    return None


def _main_subject(pronoun: Any) -> Any | None:
    """For a subject pronoun of a subordinate or coordinate clause: the subject of the clause above."""
    verb = pronoun.head
    if verb.dep_ not in CLAUSE_LINKS:
        return None
    return clause_subject(verb) if verb.dep_ != "conj" else next(
        (c for c in verb.head.children if c.dep_ in SUBJECTS), None)

