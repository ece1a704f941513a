"""What the text itself says of a person's gender beyond their own words: what they are said to be ("I am a
mother now", "she worked as a nurse") and what the person spoken to is called ("Won't you be seated, sir?"), and
that the speaker and the one spoken to are one person each within a turn. ``people.find_person_mentions`` runs
these passes over the mentions it found."""

from __future__ import annotations

from typing import Any

from .address import address_cues
from .agreement import participial_adjuncts, said_as
from .coreference import GENDERED_PRONOUNS, SUBJECTS, subject_of
from .lexicon import person_noun
from .mentions import Mention

# The words of the person spoken to, as mentions name them.
ADDRESSED = {"you", "yourself", "yourselves"}
# The words of the speaker, the one spoken to and "we": within one turn each stands for one person or group.
PARTICIPANTS = ({"i", "me", "myself"}, {"you", "yourself"}, {"we", "us", "ourselves"})
# Words that call anyone, whatever their gender ("I need you, man", "Come on, dude").
ANY_GENDER_VOCATIVES = {"man", "dude"}
# What opens a turn of a dialogue written on one line ("- Thank you, sir. - You're welcome.").
DIALOGUE_DASHES = {"-", "–", "—"}
# Masculine nouns English also uses as a title of a woman ("an Honorary Fellow of the American College of Surgeons").
TITLES_OF_EITHER = {"fellow"}


def settle_participants(doc: Any, mentions: list[Mention]) -> None:
    """The person spoken to is the one a vocative noun of one gender calls ("Mom, are you sure?": sûre; "Are you
    ready, ladies?": prêtes; not "man" or "dude", said to anyone): it settles "you" (and the person an imperative
    addresses) in its sentence and in the sentences after it within the same turn ("Thank you, sir. You are very
    kind."), not before it, and not across a dialogue's next turn (a new line, or a sentence opened by a dash). The
    speaker, the one spoken to and "we" are one in a turn: what settles one of their words settles the others."""
    by_head = {m.head_index: m for m in mentions}
    called = [by_head[t.i] for cue, t in address_cues(doc) if cue == "vocative" and t.i in by_head
              and by_head[t.i].settled is not None and t.lower_ not in ANY_GENDER_VOCATIVES]
    for vocative in called:
        for mention in mentions:
            if mention.head.lower() in ADDRESSED and mention.settled is None and vocative.sentence <= mention.sentence \
                    and _same_turn(doc, vocative.head_index, mention.head_index):
                mention.settled, mention.evidence = vocative.settled, f"the one spoken to, called {vocative.text!r}"
    for person in PARTICIPANTS:  # "I was a little girl when I was adopted": one speaker, one gender in a turn
        said = [m for m in mentions if m.head.lower() in person]
        for known in [m for m in said if m.settled is not None]:
            for mention in said:
                if mention.settled is None and _same_turn(doc, known.head_index, mention.head_index):
                    mention.settled, mention.evidence = known.settled, f"{known.text!r} ({known.evidence})"


def _same_turn(doc: Any, first: int, last: int) -> bool:
    """Whether no new line and no sentence opened by a dash (a dialogue's turns) lies between two tokens."""
    low, high = sorted((first, last))
    return not any(t.is_space and "\n" in t.text or t.is_sent_start and t.text in DIALOGUE_DASHES
                   for t in doc[low + 1:high + 1])


def settle_predicates(doc: Any, mentions: list[Mention]) -> None:
    """A predicate noun is its subject's person: "she is a teacher", "my sister is a teacher"
    settle the teacher's gender, and so does "he is a great guy and a tremendous actor" the actor's
    (a conjunct with no subject of its own says more of the same subject), and "she worked as a nurse" the
    nurse's (what "as" says is its verb's object's where it has one: "hired him as a consultant"). The other way
    round, a predicate noun of one gender settles its subject ("I am a mother now", "As a father, you …"), unless
    it is denied ("I'm not a mother") or is a title said of either ("the executive chairman", ``_own_gender``)."""
    by_head = {m.head_index: m for m in mentions}
    for mention in mentions:
        subject = _predicated_of(doc[mention.head_index])
        if subject is None:
            continue
        person = by_head.get(subject.i)
        if mention.settled is None and subject.lower_ in GENDERED_PRONOUNS:
            mention.settled, mention.evidence = GENDERED_PRONOUNS[subject.lower_], f"the subject {subject.text!r}"
        elif mention.settled is None and person is not None and person.settled is not None:
            mention.settled = person.settled
            mention.evidence = f"the subject {subject.text!r} ({person.evidence})"
        elif person is not None and person.settled is None and not any(c.dep_ == "neg" for c in subject.head.children):
            gender = _own_gender(doc[mention.head_index])
            if gender is not None:
                person.settled, person.evidence = gender, f"it is said to be {mention.text!r}"


def _own_gender(noun: Any) -> str | None:
    """The gender a predicate noun says its subject has: its own ("mother", "a good man"), but for titles English
    gives women too, an office in "-man" ("Madam Chairman", "the first woman to be appointed Chairman") and a
    learned society's "Fellow", and for a possessor's word ("at her mom's" is a place)."""
    word = noun.lemma_.lower()
    if word in TITLES_OF_EITHER or word.endswith("man") and not word.endswith("woman") and word != "man" \
            or any(c.dep_ == "case" for c in noun.children):
        return None
    found = person_noun(word, noun.text)
    return found.gender if found is not None else None


def _predicated_of(noun: Any) -> Any | None:
    """The subject (or, for "as" after an object, the object) a predicate noun or an "as" phrase is said of, and the
    subject a participle clause set beside it says it is ("Being a mom, I …")."""
    predicate = noun
    while predicate.dep_ == "conj" and not any(c.dep_ in SUBJECTS for c in predicate.children):
        predicate = predicate.head
    if predicate.dep_ == "attr" and predicate.head.dep_ == "advcl":  # "Being a mom, I …"
        clause, verb = predicate.head, predicate.head.head
        subject = subject_of(verb)
        return subject if subject is not None and clause in participial_adjuncts(subject, verb) else None
    said_of = predicate.head.head if predicate.dep_ == "pobj" and predicate.head.lower_ == "as" else None
    if predicate.dep_ not in ("attr", "acomp", "oprd") and (said_of is None or predicate not in said_as(said_of)):
        return None
    if said_of is not None:  # "hired him as a consultant": the object; "worked as a nurse": the subject
        return next((c for c in said_of.children if c.dep_ == "dobj"), None) or subject_of(said_of) or (
            subject_of(said_of.head) if said_of.dep_ == "conj" else None)  # "had been … and served as"
    return subject_of(predicate.head)
