"""A mention of a person or a group, and the mentions one question can cover.

A mention carries the gender that the English already settles and the evidence (``people`` finds them); only
unsettled mentions become questions (``unsettled``), and ``group_mentions`` merges those that one question can
cover (coordinated nouns, a repeated noun or name, a noun named again by a wider one).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .coreference import SINGULAR

PLURAL = "plural"


@dataclass
class Mention:
    """One mention of a person or group. ``start``/``end`` are character offsets in the source;
    ``agreement`` lists the words whose translation agrees with it (predicates, participles)."""

    text: str
    start: int
    end: int
    head: str
    head_index: int
    sentence: int
    number: str
    kind: str  # name | noun | pronoun | indefinite | placeholder | addressee (of an imperative)
    settled: str | None = None
    evidence: str | None = None
    agreement: tuple[str, ...] = ()
    conjunct_of: int | None = None  # head index of the mention it is coordinated with
    # head index of the noun whose determiner it shares ("the professor and politician" is one person), or, for a
    # name, of the noun it is in apposition to ("his close friend Robert Henri")
    role_of: int | None = None
    # head index of the one earlier mention a definite noun names again by a wider word ("the eminent neurologist …
    # the doctor's collection"): one person, one question
    names_again: int | None = None
    undecided_pronouns: list[str] = field(default_factory=list)  # gendered pronouns that may be its
    likely_for: list[str] = field(default_factory=list)  # those of them a reader most often takes for it
    # What a first name usually is. Never enough to settle a gender (Jessie, Alex, Sasha; the product
    # cannot know the person), but a pronoun of the other gender is not this person's.
    likely: str | None = None
    # The noun also names things (a WordNet sense that is no person: "guard", "target"), or the pronoun
    # or quantifier may stand for things ("them", "add one"), so only reading the text tells whether it
    # names a person here.
    may_be_a_thing: bool = False
    # Anyone of a kind, not someone the text knows: "someone", "any blogger", "no spouse", "customers who are
    # serious". The translation's generic form is read as either gender, so only inclusive forms need the answer.
    generic: bool = False


@dataclass(frozen=True)
class MentionGroup:
    """Mentions one question can cover: coordinated ("the doctors and nurses") or repeated."""

    mentions: tuple[Mention, ...]

    @property
    def text(self) -> str:
        return " / ".join(dict.fromkeys(m.text for m in self.mentions))

    @property
    def start(self) -> int:
        return min(m.start for m in self.mentions)


def unsettled(mentions: list[Mention]) -> list[Mention]:
    """The mentions whose gender the target must choose and the source does not say."""
    return [m for m in mentions if m.settled is None]


def group_mentions(mentions: list[Mention]) -> list[MentionGroup]:
    """Per sentence, coordinated mentions and repeats of the same noun or name form one group."""
    groups: list[list[Mention]] = []
    for mention in mentions:
        for group in groups:
            if any(same_referent(mention, other) for other in group):
                group.append(mention)
                break
        else:
            named = [g for g in groups if any(m.kind == "name" and m.number == SINGULAR for m in g)]
            if mention.kind == "placeholder" and len(named) == 1:
                named[0].append(mention)  # "Blair said [pr] would come": the placeholder is Blair
            else:
                groups.append([mention])
    return [MentionGroup(tuple(g)) for g in groups]


def same_referent(a: Mention, b: Mention) -> bool:
    """One question covers both: a repeated noun or name, or one named again by a wider word ("the
    neurologist … the doctor"), coordinated groups ("the doctors and nurses"), and a mention that agrees
    with another in its sentence ("you became Buddhist", "you all"). Two coordinated individuals ("Johnny
    Mercer and Harold Arlen", "the accountant and the lawyer") are two questions: one answer cannot give
    each a gender of their own."""
    if a.head.lower() == b.head.lower() and a.kind in ("name", "noun") and a.number == b.number:
        return True
    if a.sentence == b.sentence and (b.head in a.agreement or a.head in b.agreement):
        return True
    if a.role_of == b.head_index or b.role_of == a.head_index:
        return True
    if a.names_again == b.head_index or b.names_again == a.head_index:
        return True
    coordinated = a.conjunct_of == b.head_index or b.conjunct_of == a.head_index
    return coordinated and PLURAL in (a.number, b.number)
