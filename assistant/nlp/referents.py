"""What the text names that "it" may stand for.

Where the text plainly names the thing ("This workflow is disabled so it cannot be assigned"), the
translation names it too and its word decides the pronoun: no one need be asked. Otherwise a
person can answer "What does “it” refer to: the printer or the scanner?" from the text; not a
question whose options the model invented ("the report / the bag / the letter" for "it was a
great place") or one about grammar ("the object / the subject"). An option counts when each of
its nouns is, by lemma, a noun of one of the text's noun chunks.
"""

from __future__ import annotations

from itertools import takewhile
from typing import Any, Iterator

from .address import SENTENCE_ENDS
from .coreference import to_infinitive
from .expletive import DEFINITE, PREDICATES, SUBJECTS
from .lexicon import name_gender, person_noun
from .noun_senses import ARGUMENTS, PLACES

NOUNS = ("NOUN", "PROPN")
THING_ENTITIES = PLACES | {"ORG", "PRODUCT", "WORK_OF_ART", "EVENT", "LAW"}  # a name "it" may stand for
SAID_OF_SUBJECT = PREDICATES | {"xcomp", "ccomp"}  # what a clause says of its subject ("is timing it")
# Nouns said only in a fixed phrase ("for security's sake", "on my behalf", "in his stead"): never what "it" stands for.
IDIOM_NOUNS = {"sake", "behalf", "stead"}
# Prepositions of what a thing holds or bears ("with a check in it", "with his name on it").
HOLDING = {"in", "on", "inside", "under", "over", "around"}
# Pronouns that stand for people only: a sentence with no other word before "it" names nothing "it" may be.
PEOPLE_PRONOUNS = {"i", "me", "you", "we", "us", "he", "him", "she", "her", "my", "your", "our", "his"}


def named_antecedent(it: Any) -> Any | None:
    """The thing the "it" at token ``it`` stands for where the text names it plainly: the subject of
    the nearest earlier clause, a singular noun that names no person ("The page could not be
    saved as it is locked", "Your old password was entered incorrectly. Please enter it again.").
    A subject keeps being what a text is about, so this is how a reader takes it too. None where
    the text does not say: that subject is a pronoun, a plural, a person or a name, or another
    thing competes (``_competes``). A thing said to have something in or on "it" is what "it" is (``_holder``)."""
    holder = _holder(it)
    if holder is not None:
        return holder
    subject = next((_topic(t) for t in reversed(it.doc[:it.i]) if (t.dep_ in SUBJECTS or _existential(t)
                                                                  or _gerund_subject(t))
                    and it not in t.subtree and not _inside_the_subjects_relative(t)), None)
    if subject is None or subject.pos_ not in NOUNS or subject.tag_ in ("NNS", "NNPS") or not subject.is_alpha \
            or _person(subject):
        return _only_thing_before(it)
    return None if _competes(it, subject) else subject


def _holder(it: Any) -> Any | None:
    """"an envelope with a check in it", "rope with a loop in it": what a "with" phrase says is in or on "it" is in
    or on the singular thing that phrase describes (never in itself)."""
    where, what = it.head, it.head.head
    with_, thing = what.head, what.head.head
    described = it.dep_ == "pobj" and where.lower_ in HOLDING and what.dep_ == "pobj" and with_.lower_ == "with" \
        and thing.pos_ == "NOUN" and thing.tag_ == "NN" and not _person(thing)
    return thing if described else None


def _only_thing_before(it: Any) -> Any | None:
    """The one thing ``it``'s sentence names before it, outside its clause, where it names just one: a
    singular common noun, an argument of its clause, that names no person ("he built three levels of his
    cardcastle before it collapsed"). A reader has nothing else to take it for, and the translation, reading
    the same text, names it too. Where its sentence names nothing before it at all, the one thing the sentence
    before names ("Did you see that movie? I saw it."). None where anything else may be what "it" is: the name
    of a place, a work or an organisation, "everything"."""
    start = _sentence_start(it.doc, it.i)
    found = _one_thing_among(it, it.doc[start:it.i])
    if found is None and start > 0 and not any(t.pos_ in NOUNS or t.pos_ == "PRON" and t.lower_ not in PEOPLE_PRONOUNS
                                               for t in it.doc[start:it.i]):
        found = _definite_thing_alone(it, it.doc[_sentence_start(it.doc, start - 1):start])
    return found


def _definite_thing_alone(it: Any, sentence: Any) -> Any | None:
    """The one thing a sentence names, where it names no one and nothing by name and says which thing it means
    ("Did you see that movie?", "You cannot let your guard down at the drive thru!"); not "one foolish mistake
    after another" (what "it" is may be a book the text never names) nor "some change"."""
    if any(t.pos_ == "PROPN" or t.ent_type_ for t in sentence):
        return None
    found = _one_thing_among(it, sentence)
    definite = found is not None and any(c.dep_ == "poss" or c.dep_ == "det" and c.lower_ in DEFINITE
                                         for c in found.children)
    return found if definite else None


def _name_of_a_thing(token: Any) -> bool:
    """A word of the name a common noun is given in apposition ("the movie Big Hero 6"): the same thing."""
    while token.dep_ in ("compound", "nummod", "flat") and token.pos_ in ("PROPN", "NUM"):
        token = token.head
    return token.dep_ == "appos" and token.head.pos_ == "NOUN" and token.head.tag_ == "NN"


def _sentence_start(doc: Any, index: int) -> int:
    """Where the text's sentence of the token at ``index`` starts: the parser's may end at "but"."""
    return next((t.i + 1 for t in reversed(doc[:index]) if t.text in SENTENCE_ENDS), 0)


def _one_thing_among(it: Any, span: Any) -> Any | None:
    """The one thing ``span`` names outside the clause of ``it``, if it names just one (``_only_thing_before``)."""
    own_clause, used_on_it = _clause(it), _infinitive_of(it)
    before = [t for t in span if _clause(t) != own_clause and it not in t.subtree and used_on_it not in (t, _clause(t))]
    if any((t.ent_type_ in THING_ENTITIES or t.pos_ == "PROPN") and not _person(t) and not _name_of_a_thing(t)
           or t.pos_ == "PRON" and t.lower_.endswith("thing") for t in before):
        return None
    things = {t.lemma_.lower(): t for t in before if t.pos_ == "NOUN" and t.tag_ == "NN" and t.is_alpha
              and t.dep_ in ARGUMENTS and not _person(t) and t.lemma_.lower() not in IDIOM_NOUNS}
    return next(iter(things.values())) if len(things) == 1 else None


def _gerund_subject(token: Any) -> bool:
    """A gerund clause as subject ("Deactivating a workflow does not remove it …")."""
    return token.dep_ == "csubj" and token.tag_ == "VBG"


def _topic(subject: Any) -> Any:
    """What a subject is about: the object of a gerund subject (the workflow of "Deactivating a workflow"),
    else the subject itself."""
    if _gerund_subject(subject):
        return next((c for c in subject.children if c.dep_ == "dobj"), subject)
    return subject


def _aside_after(it: Any, subject: Any) -> bool:
    """Whether "it" is in a parenthesis opened after ``subject`` and not yet closed."""
    opening = next((t.i for t in reversed(it.doc[subject.i + 1:it.i]) if t.text in ("(", ")")), None)
    return opening is not None and it.doc[opening].text == "("


def _inside_the_subjects_relative(token: Any) -> bool:
    """The subject of a relative clause on a subject ("The URL you entered … looks like it matches"): the
    clause says which thing the outer subject is, and that subject is the one the text goes on about."""
    clause = token.head
    return clause.dep_ == "relcl" and clause.head.dep_ in SUBJECTS


def _existential(noun: Any) -> bool:
    """The noun "there is" introduces ("There's been an error. It's been reported …"): what its
    clause is about, as a subject is."""
    return noun.dep_ == "attr" and any(c.dep_ == "expl" and c.lower_ == "there" for c in noun.head.children)


def _person(noun: Any) -> bool:
    """Whether a noun names a person first ("the user", "Chloe"), not a thing that may also name one
    ("the page"): "it" stands for no person."""
    entry = person_noun(noun.lemma_, noun.text)
    return noun.ent_type_ in ("PERSON", "NORP") or entry is not None and entry.rank == 0 \
        or noun.pos_ == "PROPN" and name_gender(noun.text)[0]


def _competes(it: Any, subject: Any) -> bool:
    """Whether the text leaves open that "it" is ``subject``: "it" is the subject's own clause-mate
    ("Even muzzle flare can set it off": that would be "itself") or lies in its noun phrase or
    predicate ("The problem is timing it"), in an infinitive whose subject may be anyone ("the knob
    to make it bigger") or is the subject of a relative clause on another noun ("the class where
    it is defined");
    the subject sits in a relative clause itself ("where the error is detected"), belongs to
    another thing ("its type"), or its clause names a second thing as object in the sentence of "it"
    ("A match statement may have one case block, and it must be last"; but a sentence that opens with
    "it" goes on about the subject before: "This object doesn't have a change history. It probably
    wasn't added via this admin site."). A noun is never the "it" of its own modifier
    ("the following username associated with it", "other objects using it"). A parenthesis is no part of the
    predicate the parser hangs it on: it comments on what came before ("Ensure this value is %(limit_value)s (it
    is %(show_value)s)")."""
    verb = subject.head
    inside = [subject, *(c for c in verb.children if c.dep_ in SAID_OF_SUBJECT)]
    if any(it in part.subtree for part in inside) and not _aside_after(it, subject) or it.head == verb \
            or _infinitive_between(it, verb):
        return True
    if it.dep_ in SUBJECTS and any(a.dep_ in ("relcl", "acl") for a in it.ancestors if a.i > verb.i) \
            or verb.dep_ == "relcl":
        return True
    if any(c.dep_ == "poss" and (c.lower_ in ("its", "their") or c.pos_ in NOUNS) for c in subject.children):
        return True  # "its type", "the page's title": the possessor is a thing too ("your password" is not)
    return any(c.dep_ == "dobj" and c.pos_ == "NOUN" and c.tag_ == "NN" and c.i < it.i and it not in c.subtree
               and c.sent == it.sent and c != subject
               for c in verb.children)  # "the username associated with it" is not "it"


def _infinitive_between(it: Any, verb: Any) -> bool:
    """Whether "it" lies in a to-infinitive under ``verb`` ("Where's the knob to make it bigger?"), whose
    understood subject may be anyone."""
    return any(to_infinitive(head) for head in takewhile(lambda head: head != verb, _heads_above(it)))


def _infinitive_of(it: Any) -> Any | None:
    """What the nearest to-infinitive above "it" hangs on ("made a deal to buy it": "made"; "It takes a special
    key to open it": "takes"): a noun of that clause is what is used on "it", not "it"."""
    return next((head.head for head in _heads_above(it) if to_infinitive(head)), None)


def _heads_above(token: Any) -> Iterator[Any]:
    """The words ``token`` hangs under, nearest first, up to (not including) its sentence's root."""
    head = token.head
    while head.head != head:
        yield head
        head = head.head


def named_in_text(options: list[str], *texts: str | None) -> list[str]:
    """The ``options`` that name a noun phrase of ``texts`` (the source, and its context when one is
    given), in their order, one per thing ("the movie" and "the movie I don't know about" are one
    choice); an option without a noun names nothing."""
    from .pipelines import english_pipeline

    nlp = english_pipeline()
    known = {form for doc in nlp.pipe(t for t in texts if t) for chunk in doc.noun_chunks
             for token in chunk if token.pos_ in NOUNS for form in _forms(token)}
    kept: dict[str, str] = {}
    for option, doc in zip(options, nlp.pipe(options)):
        nouns = [token for token in doc if token.pos_ in NOUNS]
        if nouns and all(known.intersection(_forms(token)) for token in nouns):
            kept.setdefault(_thing(doc, nouns), option)
    return list(kept.values())


def named_before(option: str, source: str, start: int) -> bool:
    """Whether ``option`` names a thing that ``source`` names before the "it" at character ``start``,
    outside its clause ("We have sent you an email. If you have not received it …"): as the model
    reads the text, the text says what "it" is, and the translation, reading the same text, names
    it too. A noun of the pronoun's own clause does not count ("Just keep it behind your desk": a
    pronoun does not stand for a thing its own verb governs), nor a person, nor one whose phrase
    holds it or whose verb's infinitive does ("made a deal to buy it", "click the link to reset
    it": what is used on "it" is another thing), nor one after it."""
    from .pipelines import english_pipeline

    nlp = english_pipeline()
    doc, option_doc = nlp(source), nlp(option)
    it = next((t for t in doc if t.idx == start), None)
    nouns = [t for t in option_doc if t.pos_ in NOUNS]
    if it is None or not nouns:
        return False
    thing = _thing(option_doc, nouns)
    return any(t.pos_ in NOUNS and thing in _forms(t) and not _person(t) and not _holds(t, it) for t in doc[:it.i])


def _holds(noun: Any, it: Any) -> bool:
    """Whether "it" lies in ``noun``'s own clause, phrase, or an infinitive under its verb."""
    verb = _clause(noun)
    return verb == _clause(it) or it in noun.subtree or verb in it.ancestors and _infinitive_between(it, verb)


def _clause(token: Any) -> Any:
    """The verb whose clause ``token`` is in: the nearest verb above it (the root where none is)."""
    while token.pos_ not in ("VERB", "AUX") and token.head != token:
        token = token.head
    return token


def _thing(doc: Any, nouns: list[Any]) -> str:
    """What an option names: the head of its first noun phrase ("instance" in "the exception instance")."""
    head = next((chunk.root for chunk in doc.noun_chunks if chunk.root.pos_ in NOUNS), nouns[0])
    return head.lemma_.lower()


def _forms(token: Any) -> set[str]:
    """A noun's lemma and its own form, lower-cased: a word alone may be lemmatised unlike the same
    word in a sentence."""
    return {token.lemma_.lower(), token.lower_}
