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
REFLEXIVES = {"himself", "herself"}
# Personal pronouns that stand for things as readily as for people.
THING_PRONOUNS = {"they", "them", "themselves"}
SUBJECTS = {"nsubj", "nsubjpass"}
CLAUSE_LINKS = {"advcl", "ccomp", "conj", "xcomp", "relcl", "acl", "pcomp"}
QUOTES = {'"', "“", "”", "``", "''"}
NEGATIVE_PEOPLE = {"nobody", "none", "noone"}


class Mention(Protocol):
    """What resolution reads and writes of a person mention (``mentions.Mention``)."""

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
    likely_for: list[str]


PRONOUN_EVIDENCE = "pronoun"  # the first word of the evidence of a person a gendered pronoun settles


def settled_by_a_pronoun(mention: Mention) -> bool:
    """Whether a gendered pronoun that refers to the mention is all that settles it."""
    return mention.evidence is not None and mention.evidence.startswith(f"{PRONOUN_EVIDENCE} ")


def gendered_pronouns(tokens: Any) -> list[Any]:
    """The gendered personal pronouns among ``tokens`` (a doc, a sentence): "her" as a pronoun, not a name."""
    return [t for t in tokens if t.lower_ in GENDERED_PRONOUNS and t.pos_ == "PRON"]


def attribute_pronouns(doc: Any, mentions: list[Mention], same_referent: Callable[[Mention, Mention], bool]) -> None:
    """Settle the gender of the mention a gendered pronoun refers to, where the grammar leaves one
    candidate; otherwise record the pronoun on every candidate as undecided, and settle none."""
    by_head = {m.head_index: m for m in mentions}
    unnamed: set[str] = set()  # genders of pronouns that stand for someone the text does not name
    found = quotations(doc)
    for pronoun in gendered_pronouns(doc):
        gender = GENDERED_PRONOUNS[pronoun.lower_]
        not_its_referent = _speaker_and_listener(pronoun, found) | _said_to_be_its_noun(pronoun)
        compatible = [m for m in mentions if m.kind in ("name", "noun", "placeholder", "indefinite")
                      and m.number == SINGULAR and (m.settled or m.likely) in (None, gender)
                      and not _inside(pronoun, doc[m.head_index]) and m.head_index not in not_its_referent
                      and not _out_of_scope(pronoun, doc[m.head_index])]
        candidates = _preceding(pronoun, compatible) or _cataphora(pronoun, compatible)
        if not candidates:
            unnamed.add(gender)
        chosen = _antecedent(pronoun, candidates, by_head, same_referent)
        if chosen is not None and gender in unnamed and pronoun.lower_ not in REFLEXIVES:
            chosen = None  # "He didn't want to go to the ophthalmologist, but he went": the first "He" again
        if chosen is None:
            for m in candidates:
                m.undecided_pronouns.append(pronoun.text)
            preferred = _preferred(pronoun, candidates, by_head)
            if preferred is not None:
                preferred.likely_for.append(pronoun.text)
        elif chosen.settled is None:
            chosen.settled, chosen.evidence = gender, f"{PRONOUN_EVIDENCE} {pronoun.text!r} refers to it"
            for m in mentions:  # a repeated noun or name is the same person
                if m is not chosen and m.settled is None and same_referent(m, chosen):
                    m.settled, m.evidence = gender, chosen.evidence
    for m in mentions:
        if m.settled is not None:
            m.undecided_pronouns.clear()
            m.likely_for.clear()


def _stresses(pronoun: Any, head: Any) -> bool:
    """A reflexive in apposition to a person's noun stresses that person ("of the creative artist himself")."""
    return pronoun.lower_ in REFLEXIVES and pronoun.dep_ == "appos" and pronoun.head.i == head.i


def _inside(pronoun: Any, head: Any) -> bool:
    """Whether a pronoun is part of the person's own noun phrase outside any clause of it ("his
    assistant", "Simpkins, his assistant"), where it cannot stand for that person; in a relative
    clause it can ("the lawyer who lost his case"), in a noun coordinated with it ("the
    accountant and her assistant"), and a reflexive that stresses it does ("the creative artist himself")."""
    if _stresses(pronoun, head):
        return False
    for token in [pronoun, *pronoun.ancestors]:
        if token.i == head.i:
            return True
        if token.pos_ in ("VERB", "AUX") or token.dep_ in ("relcl", "acl", "advcl", "ccomp", "conj"):
            return False
    return False


def _said_to_be_its_noun(pronoun: Any) -> set[int]:
    """The people a possessive's noun says someone is, who are not its possessor: no one is their own deputy ("Pat
    was his assistant", "Neal Brown as his deputy, Tilghman left"). For "as" after a passive, the subject and the one
    by whom ("was hired by Smith as his assistant"): the parse does not tell whom the role is said of."""
    noun = pronoun.head
    if pronoun.dep_ != "poss":
        return set()
    if noun.dep_ == "attr":
        said_of = [subject_of(noun.head)]
    elif noun.dep_ == "pobj" and noun.head.lower_ == "as" and noun.head.head.pos_ in ("VERB", "AUX"):
        verb = noun.head.head
        objects = [c for c in verb.children if c.dep_ == "dobj"]
        by = [g for c in verb.children if c.dep_ == "agent" for g in c.children if g.dep_ == "pobj"]
        said_of = objects or [subject_of(verb), *by]
    else:
        return set()
    return {t.i for t in said_of if t is not None}


def quotations(doc: Any) -> list[tuple[int, int]]:
    """The text's quotations as (opening mark, closing mark) token indexes; an unpaired last mark opens one that
    runs to the end."""
    marks = [t.i for t in doc if t.text in QUOTES]
    return list(zip(marks[::2], marks[1::2])) + ([(marks[-1], len(doc))] if len(marks) % 2 else [])


def _speaker_and_listener(pronoun: Any, quotes: list[tuple[int, int]]) -> set[int]:
    """The subject and the objects of the clause that introduces the quotation a pronoun is in ("A novice asked
    the Master: "Here is a programmer that never … tests his programs.""; ""…," the other said to the bartender,
    "he sure knows when to stop.""): in their own words they are "I" and "you", so a "he" or "she" there is
    someone else."""
    around = next((n for n, (o, c) in enumerate(quotes) if o < pronoun.i < c), None)
    if around is None:
        return set()
    arguments = _introducing_arguments(pronoun.doc, quotes, around)
    told = [g for c in arguments if c.dep_ == "prep" and c.lower_ == "to" for g in c.children if g.dep_ == "pobj"]
    return {c.i for c in arguments if c.dep_ in SUBJECTS | {"dobj", "dative"}} | {g.i for g in told}  # "said to …"


def speakers(doc: Any) -> set[int]:
    """The subjects of the clauses that introduce the text's quotations: whoever says them (""…," the other said")."""
    found = quotations(doc)
    return {c.i for n in range(len(found)) for c in _introducing_arguments(doc, found, n) if c.dep_ in SUBJECTS}


def _introducing_arguments(doc: Any, quotes: list[tuple[int, int]], around: int) -> list[Any]:
    """The dependents of the verbs of the clause that introduces quotation number ``around``: the words between
    it and the quotation before or after it, or the sentence's edge, where a comma or a colon joins them."""
    opening, closing = quotes[around]
    between = []
    if opening > 0 and doc[opening - 1].text in (":", ","):
        between += doc[quotes[around - 1][1] + 1 if around else doc[opening].sent.start:opening - 1]
    if closing + 1 < len(doc) and doc[closing - 1].text == ",":
        between += doc[closing + 1:quotes[around + 1][0] if around + 1 < len(quotes) else doc[closing].sent.end]
    return [c for verb in between if verb.pos_ == "VERB" for c in verb.children]


def _out_of_scope(pronoun: Any, head: Any) -> bool:
    """"What no spouse of a writer can ever understand is that a writer is working when he's staring out the
    window": a person named with "no" ("no spouse", "nobody") is no one a pronoun outside its own clause can
    take up."""
    negative = head.lower_ in NEGATIVE_PEOPLE or any(c.dep_ == "det" and c.lower_ == "no" for c in head.children)
    return negative and pronoun not in head.head.subtree


def _one_per_person(candidates: list[Mention], same_referent: Callable[[Mention, Mention], bool],
                    pronoun: Any) -> list[Mention]:
    """The candidates with a person named twice ("a writer … a writer", "Dave Grayson, the speedy halfback")
    counted once, by the mention nearest before the pronoun."""
    kept: list[Mention] = []
    for mention in sorted(candidates, key=lambda m: (m.head_index < pronoun.i, m.head_index), reverse=True):
        if not any(same_referent(mention, other) for other in kept):
            kept.append(mention)
    return sorted(kept, key=lambda m: m.head_index)


def _preceding(pronoun: Any, mentions: list[Mention]) -> list[Mention]:
    """The mentions a pronoun may take up: before it in its sentence, or in the sentence before."""
    sentence = _sentence_index(pronoun.doc, pronoun.sent)
    return [m for m in mentions if m.sentence == sentence and m.head_index < pronoun.i or m.sentence == sentence - 1]


def _cataphora(pronoun: Any, mentions: list[Mention]) -> list[Mention]:
    """A pronoun in a subordinate clause put before its main clause may look ahead to the people of
    that clause ("After he finished his shift, the intern took over"); elsewhere a pronoun with no
    one before it stands for someone the text does not name ("His mother called the doctor"). A participle clause
    the parse hangs on a noun before the main verb counts as one ("On a cold day, accompanied by Neal Brown as his
    deputy, Tilghman left")."""
    fronted = _fronted_clause(pronoun)
    if fronted is None:
        return []
    return [m for m in mentions if m.sentence == _sentence_index(pronoun.doc, pronoun.sent)
            and m.head_index > max(t.i for t in fronted[0].subtree)]


def _fronted_clause(pronoun: Any) -> tuple[Any, Any] | None:
    """The subordinate clause around ``pronoun`` put before its main clause, and that clause's verb, or None."""
    clause = next((t for t in [pronoun, *pronoun.ancestors] if t.dep_ == "advcl"), None)
    if clause is not None:
        return (clause, clause.head) if clause.i < clause.head.i else None
    root = pronoun.sent.root
    participle = next((t for t in pronoun.ancestors if t.dep_ == "acl" and t.tag_ in ("VBN", "VBG")
                       and t.i > 0 and t.nbor(-1).text == ","), None)
    return (participle, root) if participle is not None and max(t.i for t in participle.subtree) < root.i else None


def _sentence_index(doc: Any, sentence: Any) -> int:
    return next(n for n, s in enumerate(doc.sents) if s.start == sentence.start)


def _antecedent(pronoun: Any, candidates: list[Mention], by_head: dict[int, Mention],
                same_referent: Callable[[Mention, Mention], bool]) -> Mention | None:
    """The one candidate the grammar leaves, or None. A reflexive is its clause's subject ("asked
    herself") or the person it stresses ("of the creative artist himself"); any other object pronoun is never a
    co-argument of its own verb ("the nurse told him"); a possessive in the "for" phrase of a verb of judging
    belongs to its object ("thanked the designer for her help"), one on a conjunct to the first conjunct ("the
    manager and his chef"); a person named twice (an apposition, a predicate noun, a repeated noun) is one
    candidate.
    Preferences (the subject, the nearest) are not enough: reading most pronouns takes knowledge of
    the world, and a wrong guess settles the person the text leaves open."""
    subject = _taken_up(clause_subject(pronoun))
    own = by_head.get(subject.i) if subject is not None else None
    if pronoun.lower_ in REFLEXIVES:
        stressed = next((m for m in candidates if _stresses(pronoun, pronoun.doc[m.head_index])), None)
        if stressed is not None:
            return stressed
        if pronoun.dep_ in SUBJECTS:  # "sees himself seated": the subject of the verb above
            binder = clause_subject(pronoun.head)
            own = by_head.get(binder.i) if binder is not None else None
        return own if own in candidates else None
    if pronoun.dep_ in ("dobj", "dative", "pobj"):
        subject_known = own is not None and not _coordinated_antecedent(clause_subject(pronoun))
        excluded = {t.i for t in _co_arguments(pronoun)} | ({own.head_index} if subject_known else set())
        excluded_people = [by_head[i] for i in excluded if i in by_head]
        candidates = [m for m in candidates if m.head_index not in excluded
                      and not any(same_referent(m, other) for other in excluded_people)]
    if pronoun.dep_ in SUBJECTS and pronoun.head.dep_ == "relcl":  # "the prisoner he was transporting": the
        candidates = [m for m in candidates if m.head_index != pronoun.head.head.i]  # noun fills another gap
    partner = _coordinated_possessor(pronoun, by_head)
    if partner in candidates:
        return partner
    thanked = _object_thanked_for(pronoun, by_head)
    if thanked in candidates:
        return thanked
    candidates = _one_per_person(candidates, same_referent, pronoun)
    if len(candidates) != 1:
        return None
    if candidates[0].head_index > pronoun.i:  # cataphora: only to the main clause's subject
        _, main_verb = _fronted_clause(pronoun)
        main_subject = next((c for c in main_verb.children if c.dep_ in SUBJECTS), None)
        return candidates[0] if main_subject is not None and main_subject.i == candidates[0].head_index else None
    return candidates[0]


def _preferred(pronoun: Any, candidates: list[Mention], by_head: dict[int, Mention]) -> Mention | None:
    """The candidate a reader most often takes a pronoun for: the subject of its clause for a possessive or an
    object ("the hunter showed the ranger his game bag"), else of the nearest clause above ("Jess mumbled, dabbing
    at his nose"; "Juet demanded that Hudson prove his charges"). On real sentences this is right about two times
    in three (``tests/data/two_people_real.yaml``): enough to ask about that person last, so that an answer about
    the others may settle them, never enough to settle them unasked."""
    subject = None if pronoun.dep_ in SUBJECTS else clause_subject(pronoun)
    above = iter(pronoun.ancestors)
    while subject is None and (word := next(above, None)) is not None:
        subject = next((c for c in word.children if c.dep_ in SUBJECTS and pronoun not in c.subtree), None)
    subject = _taken_up(subject)
    found = by_head.get(subject.i) if subject is not None else None
    return found if found in candidates else None


def _coordinated_antecedent(subject: Any | None) -> bool:
    """Whether a relative pronoun's clause hangs on one of coordinated nouns, where the parse cannot tell
    which it is about ("your little sister and her friend who came with her")."""
    if subject is None or subject.lower_ not in ("who", "that") or subject.head.dep_ != "relcl":
        return False
    noun = subject.head.head
    return noun.dep_ == "conj" or any(c.dep_ == "conj" for c in noun.children)


def _taken_up(subject: Any | None) -> Any | None:
    """A relative pronoun read as the noun its clause is about ("the teacher, who thanked her": the teacher)."""
    if subject is not None and subject.lower_ in ("who", "that", "which") and subject.head.dep_ == "relcl":
        return subject.head.head
    return subject


def _co_arguments(pronoun: Any) -> list[Any]:
    """The other arguments of the verb whose object a pronoun is ("introduced the nurse to her")."""
    verb = pronoun.head.head if pronoun.dep_ == "pobj" and pronoun.head.dep_ in ("prep", "dative") else pronoun.head
    if verb.pos_ not in ("VERB", "AUX"):
        return []
    return [c for c in verb.children if c.dep_ in SUBJECTS | {"dobj", "dative"} and c.i != pronoun.i]


def _coordinated_possessor(pronoun: Any, by_head: dict[int, Mention]) -> Mention | None:
    """"the manager and his chef", "Aaron and her sister": a possessive on the second of two
    coordinated nouns belongs to the first."""
    noun = pronoun.head
    if pronoun.dep_ != "poss" or noun.dep_ != "conj":
        return None
    return by_head.get(noun.head.i)


def _object_thanked_for(pronoun: Any, by_head: dict[int, Mention]) -> Mention | None:
    """"thanked the designer for her help", "blamed the driver for his mistake": a possessive in a
    "for" phrase of a verb with an object belongs to that object."""
    if pronoun.dep_ != "poss" or pronoun.head.dep_ != "pobj" or pronoun.head.head.lower_ != "for":
        return None
    verb = pronoun.head.head.head
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    return by_head.get(obj.i) if obj is not None else None


def subject_of(verb: Any) -> Any | None:
    """The subject a verb itself has, if any."""
    return next((child for child in verb.children if child.dep_ in SUBJECTS), None)


def clause_subject(token: Any) -> Any | None:
    """The subject of the clause a token belongs to: coordinated verbs share their subject,
    "asked the researcher to present..." has the object of "asked" as the subject of "present",
    and "was obliged to prepare..." and "turned to survey him" the subject of "obliged" and of "turned"."""
    for verb in _verb_chain(token.head):
        subjects = [c for c in _with_auxiliaries(verb) if c.dep_ in SUBJECTS and c.i != token.i]
        if subjects:  # two nouns are a misparse ("The doctor, since Scotty was … allowed"): neither is known to be it
            return None if sum(c.pos_ != "PRON" for c in subjects) > 1 else subjects[0]
        if verb.dep_ == "xcomp":
            controller = next((c for c in verb.head.children if c.dep_ == "dobj"), None)
            if controller is not None:
                return controller
            continue  # "Alex was obliged to prepare himself": the subject above controls it
        if verb.dep_ == "advcl" and verb.tag_ == "VB" and to_infinitive(verb):
            continue  # what one does something for: "Pat turned to survey him" (Pat surveys)
        if verb.dep_ == "conj" or verb.dep_ not in CLAUSE_LINKS | {"ROOT"}:
            continue
        return None
    return None


def to_infinitive(verb: Any) -> bool:
    """A verb with "to" as its auxiliary ("to check", "to be used")."""
    return any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children)


def _with_auxiliaries(verb: Any) -> list[Any]:
    """A verb's dependents and its auxiliaries': the parser may hang the subject on the auxiliary ("The red-haired
    captain, towering above the prisoner …, was shocked to find himself …": "captain" under "was")."""
    return [*verb.children, *(c for a in verb.children if a.dep_ in ("aux", "auxpass") for c in a.children)]


def _verb_chain(verb: Any) -> list[Any]:
    """``verb`` and its ancestors, where a conjunct the parser hung on a verb of another form is read
    as coordinated with the nearest one of its own form: in "asking Harold to move … and placing
    himself", "placing" goes with "asking", not with "move" (whose subject is Harold)."""
    chain = [verb, *verb.ancestors]
    if verb.dep_ == "conj" and verb.tag_ == "VBG" and verb.head.tag_ != "VBG":
        same_form = next((n for n, v in enumerate(chain[1:], 1) if v.tag_ == verb.tag_), None)
        if same_form is not None:
            return [verb, *chain[same_form:]]
    return chain
