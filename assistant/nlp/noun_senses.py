"""Which sense of a noun the text means: a person, or a thing that shares the word.

WordNet ranks each noun's senses; a noun whose first sense is a person names one unless the context says a thing
(an office, a metaphor, a role played, a place), and one whose person sense comes second names a person only where
the context says so (a verb of the mind, a "who" clause, a person it is said of). ``people`` reads every noun
through these.
"""

from __future__ import annotations

from typing import Any

from .coreference import clause_subject, subject_of
from .lexicon import (about_software, composers_of_music, done_only_to_people, kinship_nouns,
                      names_a_part_of_a_program, person_noun, person_verbs, singular_of)

ARGUMENTS = {"nsubj", "nsubjpass", "dobj", "pobj", "dative", "attr", "appos", "conj"}
PLACES = {"GPE", "LOC", "FAC"}  # the entity recogniser's places
LOCATIVES = {"in", "at", "near", "inside", "outside", "around", "throughout", "across"}
POSSESSIVE_PRONOUNS = {"mine", "ours", "yours", "his", "hers", "theirs"}  # "that child of yours", tagged a noun
# Nouns naming an office, and contests for one: a person noun in their "of" complement names the
# office ("the post of Attorney General"), and so does the possessor of a contest ("the Mayor's
# race"); the possessor of an office is a person ("the doctor's office", "the captain's seat").
CONTESTS = {"race", "election", "campaign", "nomination", "candidacy"}
OFFICES = {"post", "position", "office", "role", "title", "rank", "seat", "job", "portfolio"} | CONTESTS
# Nouns of a district whose "of" complement is its name ("the township of Guthrie", "the city of God").
DISTRICTS = {"city", "town", "township", "village", "county", "borough", "parish", "district", "province", "state",
             "territory", "island"}
# Verbs whose object is a role the subject plays, not another person ("to play the trouble-maker").
ROLE_VERBS = {"play", "act", "portray", "impersonate"}
# Verbs that put a piece on a programme or play it: their object, named after its composer, is the music.
PROGRAMME_VERBS = {"include", "play", "perform", "conduct", "record", "feature", "programme", "program", "schedule"}


def compound_person_noun(token: Any):
    """The person reading of a noun, trying "flight attendant" before "attendant" and
    "runner-up", "trouble-maker" as one word."""
    doc = token.doc
    if token.i >= 2 and doc[token.i - 1].text == "-" and not doc[token.i - 2].whitespace_ \
            and not doc[token.i - 1].whitespace_:
        first = doc[token.i - 2].lower_
        written = doc[token.i - 2].text
        found = person_noun(f"{first}-{token.lower_}", written) or person_noun(f"{first}{token.lower_}", written)
        if found is not None:
            return found
    compounds = [c for c in token.children if c.dep_ == "compound" and c.i < token.i]
    if compounds:
        found = person_noun(" ".join([compounds[-1].lower_, token.lemma_.lower()]), compounds[-1].text)
        if found is not None:
            return found
    as_written = person_noun(token.lower_, token.text)
    if as_written is not None and as_written.proper and token.pos_ == "NOUN":
        as_written = None  # "Fields marked with * are required": a common noun's plural, not W. C. Fields
    return person_noun(token.lemma_, token.text) or as_written or (
        person_noun(singular_of(token.lower_), token.text) if token.tag_ in ("NNS", "NNPS") else None)


def person_first(token: Any) -> bool:
    """A noun whose first sense is a person, but for a part of a program in a text about programming ("a context
    manager is a context manager that …" says nothing of a person)."""
    noun = compound_person_noun(token) if token.pos_ in ("NOUN", "PROPN") else None
    return noun is not None and noun.rank == 0 and not part_of_a_program(token)


def part_of_a_program(token: Any) -> bool:
    """A noun that names a part of a program ("handler", "context manager"), in a text about programming."""
    return names_a_part_of_a_program(token.lemma_) and about_software(token.doc)


def _thing_noun(token: Any) -> bool:
    """A common noun that names no person in any reading: the state, the concert, experience."""
    return token.pos_ == "NOUN" and not token.ent_type_ and compound_person_noun(token) is None


def said_of_a_thing(token: Any) -> bool:
    """Whether a noun is the predicate of a noun that names no person: a metaphor when indefinite ("experience is
    a demanding teacher"), and what a word that also names things is ("that movie was the sleeper of the summer");
    a word that names only people stays one after "the" ("the problem is the teacher" says who the problem is)."""
    subject = subject_of(token.head) if token.dep_ == "attr" else None
    return subject is not None and _thing_noun(subject)


def a_things_kin(token: Any) -> bool:
    """A noun of kinship without a gender said of a thing: "of" a thing ("a child of itself", "a child of this given
    parent page"), said of a thing ("The new page will be a child of …") or coordinated with one ("Page and
    children"), or, for a word whose first sense is kinship, with "its" ("its descendants"; "its children" may be a
    school's): nodes of a tree."""
    lemma = token.lemma_.lower()
    if lemma not in kinship_nouns():
        return False
    of_a_thing = any(c.dep_ == "prep" and c.lower_ == "of" and any(
        o.dep_ == "pobj" and (o.lower_ == "itself" or _thing_noun(o) and o.lower_ not in POSSESSIVE_PRONOUNS)
        for o in c.children) for c in token.children)
    subject = subject_of(token.head) if token.dep_ == "attr" else token.head if token.dep_ == "conj" else None
    its = kinship_nouns()[lemma] and any(c.dep_ == "poss" and c.lower_ == "its" for c in token.children)
    return of_a_thing or its \
        or subject is not None and subject.pos_ == "NOUN" and not person_first(subject)


def next_to_a_place(token: Any) -> bool:
    """A noun related "to" a place the recogniser names ("the closest neighbor to the Earth", "a guide to
    Paris"): a word that also names things names one of the place's kind, or a thing about it."""
    return any(c.dep_ == "prep" and c.lower_ == "to" and any(o.dep_ == "pobj" and o.ent_type_ in PLACES
                                                              for o in c.children) for c in token.children)


def inside_it(token: Any) -> bool:
    """A noun after "in", "inside", "under" or "beneath" ("the hours in the ward", "a mystical beast under the hood",
    "a chip-card which they insert in their decoder"): what something is in or under, a place or a thing; for a word
    that also names things, its thing."""
    return token.dep_ == "pobj" and token.head.lower_ in ("in", "inside", "under", "beneath")


def governed_as_person(token: Any) -> bool:
    """The subject of a verb whose dominant sense only a person does ("fans will relish", "the
    moderator looks at you"), also of its infinitive after "for" ("for your tot to learn"), the one a verb of
    the mind done only to people is done to ("fans will not be disappointed"; not "The page has been rejected")
    or the one in a state of mind ("the principal was confused")."""
    verbs = person_verbs()
    head = token.head.head if token.head.dep_ in ("aux", "auxpass") else token.head  # a parse that hangs it on "was"
    if token.dep_ == "nsubj" and head.pos_ == "VERB":
        return verbs.get(head.lemma_.lower(), (False, False))[0]
    infinitive = _for_subject_of(token)
    if infinitive is not None:
        return verbs.get(infinitive.lemma_.lower(), (False, False))[0]
    if token.dep_ == "nsubjpass" and head.pos_ == "VERB":
        lemma = head.lemma_.lower()  # "were disappointed", not "has been rejected" nor "is executed" (killed first)
        return lemma in verbs and done_only_to_people(lemma)
    if token.dep_ == "nsubjpass" or token.dep_ == "nsubj" and head.pos_ == "ADJ":
        done_to = [head]  # "was confused" (a participle tagged as an adjective: a state of mind)
    else:
        done_to = [c for c in head.children if c.dep_ == "acomp" and c.lower_.endswith("ed")] \
            if token.dep_ == "nsubj" else []
    return any(verbs.get(w.lemma_.lower(), (False, False))[1] or verbs.get(w.lower_[:-1], (False, False))[1]
               or verbs.get(w.lower_[:-2], (False, False))[1] for w in done_to)


def _for_subject_of(token: Any) -> Any | None:
    """The infinitive right after a noun that "for" makes its subject ("the perfect toy for your tot to learn",
    which the parser may hang on another word as a relative clause)."""
    after = token.doc[token.i + 1:token.i + 3]
    if token.dep_ != "pobj" or token.head.lower_ != "for" or len(after) < 2:
        return None
    return after[1] if after[0].lower_ == "to" and after[1].tag_ == "VB" else None


def names_a_thing(token: Any) -> bool:
    """The context makes a person-looking noun a thing or an office: a "which" relative clause
    ("the types to which ..."), the predicate of a thing ("experience is a demanding teacher"),
    an office ("the post of Secretary of Agriculture", "the Mayor's race"), a role played ("to
    play the trouble-maker": the player is the person), a language that labels the form after it
    ("Lin Hwai-min (Chinese: 林懷民; …)"), a composer's music (``names_the_music``), the place a named person is
    of ("Rep. Wesley Roberts of Seminole": a county, not one of the Seminole people), a district's name ("the
    township of Guthrie") or a place the recogniser names where something is ("stationed in Appleton")."""
    head = token.head
    if names_the_music(token):
        return True
    if token.tag_ == "NNP" and token.dep_ == "pobj" and head.lower_ == "of" and head.head.ent_type_ == "PERSON" \
            or names_a_district(token):
        return True
    if token.ent_type_ in PLACES and token.dep_ == "pobj" and head.lower_ in LOCATIVES:
        return True  # "stationed in Appleton, Wisconsin": a place that shares a name with a person WordNet knows
    if token.ent_type_ in ("NORP", "LANGUAGE") and token.i + 1 < len(token.doc) and token.nbor().text == ":":
        return True
    if with_a_which_clause(token) and not token.ent_type_:
        return True
    if said_of_a_thing(token) and _indefinite(token) and not marked_by_who(token):
        return True  # a metaphor: what the thing is like, not who
    phrase = token  # "the post of Secretary of Veterans Affairs": the noun may modify the complement's head
    while phrase.dep_ in ("nmod", "compound") and phrase.head.i != phrase.i:
        phrase = phrase.head
    if phrase.dep_ == "pobj" and phrase.head.lower_ == "of" and phrase.head.head.lemma_.lower() in OFFICES:
        return True
    if token.dep_ == "poss" and head.lemma_.lower() in CONTESTS:
        return True
    return token.dep_ == "dobj" and head.lemma_ in ROLE_VERBS and clause_subject(token) is not None


def names_a_district(name: Any) -> bool:
    """A proper noun in the "of" of a district's noun, its name: "the township of Guthrie", whom the recogniser took
    for a person."""
    return name.tag_ == "NNP" and name.dep_ == "pobj" and name.head.lower_ == "of" \
        and name.head.head.lower_ in DISTRICTS


def names_the_music(name: Any) -> bool:
    """A composer's name that stands for their music (WordNet's "the music of Brahms"): the name of what is played
    or put on a programme ("Brahms was included in the program"; not of who was born, buried or commissioned), or
    the name with "the" of its own ("There was in the Brahms none of the mysterious and marvelous alchemy …")."""
    if name.lower_ not in composers_of_music():
        return False
    verb = name.head
    played = name.dep_ in ("nsubjpass", "dobj") and verb.pos_ == "VERB" and verb.lemma_.lower() in PROGRAMME_VERBS
    return played or any(c.dep_ == "det" and c.lower_ == "the" for c in name.children)


def _indefinite(token: Any) -> bool:
    return all(c.lower_ in ("a", "an") for c in token.children if c.dep_ in ("det", "poss"))


def with_a_which_clause(token: Any) -> bool:
    """A restrictive "which" clause of its own ("the types to which …", "and one which did not encroach upon …"):
    said of a thing. ", which …" may be about the whole clause before it."""
    return any(c.dep_ == "relcl" and relative_word(c) == "which" for c in token.children) \
        and token.i + 1 < len(token.doc) and token.nbor().text != ","


def relative_word(clause: Any) -> str | None:
    """The relative pronoun that opens a relative clause ("which", "who", "that"), if any."""
    first = clause.doc[clause.left_edge.i:clause.i + 1]
    return next((t.lower_ for t in first if t.tag_ in ("WDT", "WP", "WP$")), None)


def marked_by_who(token: Any) -> bool:
    """A "who" clause of its own ("the one who called"), "whoever", or a "who" question that asks which one it is
    ("Who is the one that needs to be trained?", whose "who" and "one" the parse makes two predicates of "is")."""
    return any(c.dep_ in ("relcl", "acl") and any(g.lower_ in ("who", "whom", "whose") for g in c.subtree)
               for c in token.children) or token.lower_ == "whoever" or token.dep_ in ("attr", "nsubj") and any(
        c.lower_ in ("who", "whom") and c.dep_ in ("attr", "nsubj") and c.i != token.i for c in token.head.children)


def quoted_alone(token: Any) -> bool:
    """A common noun alone between quotes (spaCy's ``is_quote``), emphasis marks or parentheses: the word itself, a
    term of the text or an aside ('the "guard" is not evaluated', "the *type* determines", "assign the “Editor”
    role", "older brother got his (masters)"), not a person."""
    doc = token.doc
    if not 0 < token.i < len(doc) - 1:
        return False
    before, after = doc[token.i - 1], doc[token.i + 1]
    return all(t.is_quote or t.text == "*" for t in (before, after)) or (before.text, after.text) == ("(", ")")


def before_an_acronym(token: Any) -> bool:
    """A noun right before an acronym that the parse takes for its appositive ("View your user ID"):
    the acronym is what is named, and the noun only says whose it is, as in "your user name"."""
    after = token.nbor() if token.i + 1 < len(token.doc) else None
    return after is not None and after.head == token and after.dep_ in ("appos", "compound") \
        and after.is_upper and after.is_alpha and 2 <= len(after) <= 5
