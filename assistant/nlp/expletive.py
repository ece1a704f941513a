"""Whether an "it" may stand for a thing, whose gender the French, German or Spanish translation
must show. An "it" that refers to nothing or stands in for a clause needs no referent question.

The parse finds the productive forms: spaCy's ``expl``; a clause extraposed to the right of the
predicate of "it" ("It is a SyntaxError to use …", "It was so nice chatting with you", "it seems
clear to me that …", "It's more like I believe in aliens", "made it his business to escort Paula"); a
passive verb of saying with a that-clause ("It is recommended that …"); a cleft ("it is the things that
you think …", "It was for love that he had served"); "it seemed" set off by commas; and a noun predicate ("it was a
great place": c'est, es ist, whatever "it" is).
An infinitive whose object is missing is no extraposition but the "it" itself read as that
object ("it was fun to watch": the game), so it keeps its question. Fixed phrases (weather,
time, idioms such as "that's the way it is", "call it a day") are data: lemma sequences listed
in the ``lexicon`` of the ambiguity table's entry for what "it" refers to, matched by spaCy's
Matcher. Whatever "it" is left (the situation of "It is unbelievable!") the decide call drops.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .agreement import LINKING_VERBS
from .coreference import to_infinitive

SUBJECTS = {"nsubj", "nsubjpass"}
PREDICATES = {"acomp", "attr", "oprd"}
CLAUSES = {"ccomp", "csubj", "xcomp", "advcl"}
# Verbs whose subject "it" may stand for an extraposed clause: "it is/seems/looks/feels … that/to/like".
LINKING = {"be", "seem", "appear", "look", "sound", "feel", "become", "remain", "happen", "turn", "take", "cost"}
# Verbs whose object is the predicate of an "it" that stands for the infinitive after them ("it takes time to
# learn", "it costs two to three times as much to remove a BTU"); without an object, "it" is what takes or costs.
PRICE_VERBS = {"take", "cost"}
# Verbs whose "it" stands for the clause after them, "that" or no "that" ("it seems he was right").
SEEMING = {"seem", "appear"}
# Verbs that raise the subject of their infinitive ("it seems to work": "it" is the thing that works).
RAISING = {"seem", "appear", "happen", "turn", "look", "sound", "feel", "become", "remain"}
# Dependents that give an infinitive or gerund clause its own complement (no gap for "it" to fill).
COMPLEMENTS = {"dobj", "ccomp", "xcomp", "attr", "acomp", "oprd", "dative", "nsubj", "nsubjpass", "auxpass",
               "agent", "csubj", "advcl", "conj", "pcomp"}
COMPARISONS = ({"like"}, {"as", "if"}, {"as", "though"})  # "it is like/as if/as though <clause>"
CLAUSE_SEPARATORS = {",", ":", "."}  # tags of tokens that end a clause: what follows is not extraposed
DEFINITE = {"the", "this", "that", "these", "those"}
# Pronouns that, as the predicate of "it", make it "c'est"/"es ist" whatever "it" stands for:
# "it's everything you have to consider" (c'est tout ce que), "it's that" (c'est ça).
DEMONSTRATIVE_PREDICATES = {"everything", "something", "nothing", "anything", "this", "that"}
NOMINAL = {"NOUN", "PROPN", "PRON"}
# Words between two words of a fixed phrase: adverbs, negation, auxiliaries ("it's really been a while").
INSERTABLE = ["ADV", "PART", "AUX"]


def stands_for_a_thing(it: Any, fixed: set[int]) -> bool:
    """Whether the "it" at token ``it`` may stand for a thing; ``fixed`` holds the indexes of the
    tokens inside fixed phrases (``fixed_phrase_tokens``)."""
    if it.dep_ == "expl" or it.i in fixed:
        return False
    if it.dep_ not in SUBJECTS:
        return True
    verb = it.head
    if _fused_gerund(verb, it):
        return False
    if verb.lemma_ == "be" and (_presentational(verb) or _cleft_on_a_phrase(verb, it)):
        return False
    if verb.lemma_ in SEEMING and _parenthetical(verb, it):
        return False
    small_clause = verb.pos_ in ("ADJ", "NOUN")  # "I find it hard to believe that …"
    if verb.lemma_ in LINKING or small_clause:
        predicates = [c for c in verb.children if c.dep_ in PREDICATES]
        if verb.lemma_ in PRICE_VERBS:
            predicates = [c for c in verb.children if c.dep_ == "dobj"]
            if not predicates:
                return True
        has_predicate = bool(predicates) or small_clause
        return not any(_extraposed(clause, it, head, has_predicate)
                       for head in (verb, *predicates) for clause in head.children) \
            and not any(_cleft(p) for p in predicates if verb.lemma_ == "be")
    if it.dep_ == "nsubjpass":  # "it is said that …", not "it is meant to disintegrate"
        return not any(c.dep_ == "ccomp" and c.i > verb.i and _subordinated(c) for c in verb.children)
    return True


def said_to_be(it: Any) -> list[Any]:
    """The adjectives the "it" at token ``it`` is said to be, as the subject of a linking verb whose predicates
    are adjectives alone ("it was great", "is it important?", "it got a little easier"); none for a noun
    predicate, a participle ("it is written as …") or an "it" that is no subject."""
    verb = it.head
    if it.dep_ != "nsubj" or verb.lemma_ not in LINKING_VERBS:
        return []
    predicates = [c for c in verb.children if c.dep_ in PREDICATES]
    predicates += [c for p in predicates for c in p.children if c.dep_ == "conj"]
    return predicates if predicates and all(p.pos_ == "ADJ" for p in predicates) else []


def _extraposed(clause: Any, it: Any, head: Any, has_predicate: bool) -> bool:
    """Whether ``clause``, a dependent of the verb or predicate ``head`` of "it", is a clause that "it"
    stands in for: it comes after both, in the same clause (no comma between), and is a that-/wh-
    clause, an infinitive or gerund with its own complement, a comparison ("like …", "as if …") or
    a for-to infinitive ("for both … to be used")."""
    if clause.i < it.i or clause.i < head.i or _separated(head, clause):
        return False
    verb = head if head.dep_ not in PREDICATES else head.head
    if clause.dep_ == "prep":
        return _comparison_clause(clause) or _for_to(clause)
    if clause.pos_ not in ("VERB", "AUX"):
        return False
    marks = {c.lower_ for c in clause.children if c.dep_ == "mark"}
    if marks in COMPARISONS:
        return True
    if marks == {"for"} and _nonfinite(clause):  # "important for the Republic to defend …", parsed as a clause
        return has_predicate and _complete(clause, besides=SUBJECTS)  # not "ready for us to use": "it" is used
    # "It was so nice chatting with you": the parser may hang the adjective on the gerund, and the
    # gerund anywhere under "be".
    fused = clause.tag_ == "VBG" and any(c.dep_ == "amod" and c.pos_ == "ADJ" for c in clause.lefts)
    # "made it his business to escort Paula": the parser hangs the infinitive on the small clause's noun
    on_a_noun = head.i == it.head.i and head.pos_ == "NOUN" and _nonfinite(clause)
    if marks - {"that", "whether", "if"} or clause.dep_ not in CLAUSES | ({"attr"} if fused else set()) \
            | ({"acl"} if on_a_noun else set()):
        return False
    if _nonfinite(clause):
        raised = verb.lemma_ in RAISING and clause.dep_ == "xcomp"  # "it seems to work"
        return (has_predicate or fused) and not raised and _complete(clause)
    if clause.dep_ == "advcl":
        return False
    nominal = [c for c in verb.children if c.dep_ == "attr" and c.i < clause.i and c.pos_ in NOMINAL]
    if nominal and not marks:  # a relative clause on the predicate noun: a cleft only after a definite one
        return _definite(nominal[0])  # ("it is a pity that …" has a conjunction: extraposed)
    return has_predicate or _subordinated(clause) or verb.lemma_ in SEEMING and _has_subject(clause)


def _has_subject(clause: Any) -> bool:
    """A finite clause with a subject of its own: "he was right" of "it seems he was right", whose "that" English
    may leave out."""
    return any(c.dep_ in SUBJECTS | {"expl"} for c in clause.children)


def _fused_gerund(verb: Any, it: Any) -> bool:
    """"It was nice chatting with you", "it has been great working with you", "it's been good
    talking": the parser hangs "it" on the gerund (with "be" as its auxiliary) or takes the gerund for
    a bare predicate noun; either way an adjective of "be" stands between them, and the gerund is the
    clause "it" stands in for. A gerund with a determiner is a thing ("it was a good meeting")."""
    def evaluated(gerund: Any) -> bool:
        return gerund.lower_.endswith("ing") and not any(c.dep_ in ("det", "poss") for c in gerund.children) \
            and any(c.pos_ == "ADJ" and it.i < c.i < gerund.i for c in gerund.children)
    gerund = verb.head if verb.dep_ == "aux" else verb  # "It" may hang on the auxiliary "been"
    if gerund.tag_ == "VBG":
        return any(c.dep_ == "aux" and c.lemma_ == "be" for c in gerund.children) and evaluated(gerund)
    return verb.lemma_ == "be" and any(c.dep_ == "attr" and evaluated(c) for c in verb.children)


def _presentational(verb: Any) -> bool:
    """"It was a great place", "Was it the right perpetrator?", "if it was you", "it's everything":
    with a noun, a person or an indefinite or demonstrative pronoun as predicate, "it" is said
    "c'est" or "es ist" (Spanish leaves it out) whatever it stands for. Not with a possessive
    ("it's mine": le mien, la mienne) or "one" ("it's the one you wanted": celui, celle) as
    predicate."""
    return any(c.dep_ == "attr" and (c.pos_ in ("NOUN", "PROPN") and c.lemma_ != "one" or _personal(c)
                                     or c.lower_ in DEMONSTRATIVE_PREDICATES)
               for c in verb.children)


def _personal(pronoun: Any) -> bool:
    """A personal pronoun, not a possessive one: "me", "you", "them" (not "mine", "yours")."""
    return pronoun.tag_ == "PRP" and "Prs" in pronoun.morph.get("PronType") and "Yes" not in pronoun.morph.get("Poss")


def _nonfinite(clause: Any) -> bool:
    """A gerund or a to-infinitive."""
    return clause.tag_ == "VBG" or to_infinitive(clause)


def _complete(clause: Any, besides: set[str] = frozenset()) -> bool:
    """Whether an infinitive or gerund has its own complement ("to use a yield expression", "chatting
    with you") rather than a gap that "it" fills ("it was fun to watch", "easy to use"); ``besides``:
    dependents that do not count (the for-subject of "for us to use")."""
    return clause.lemma_ == "be" or any(
        c.dep_ in COMPLEMENTS - besides or (c.dep_ == "prep" and any(c.children)) for c in clause.children)


def _subordinated(clause: Any) -> bool:
    """A that-, whether- or wh-clause ("that mappings provide …", "how different areas have …")."""
    return any(c.dep_ == "mark" or c.tag_ in ("WRB", "WP", "WDT") for c in clause.subtree if c.i <= clause.i)


def _comparison_clause(prep: Any) -> bool:
    """"like moving from college": a comparison with a clause, not with a thing ("like a device")."""
    return prep.lower_ == "like" and any(c.dep_ == "pcomp" and c.pos_ == "VERB" for c in prep.children)


def _for_to(prep: Any) -> bool:
    """"for both keyword arguments … to be used": the for-subject of an extraposed infinitive."""
    return prep.lower_ == "for" and any(to_infinitive(clause) for obj in prep.children if obj.dep_ == "pobj"
                                        for clause in obj.subtree if clause.pos_ in ("VERB", "AUX"))


def _cleft(attr: Any) -> bool:
    """"it was me who called": a definite pronoun or noun phrase with a relative clause right after it (a
    noun predicate is no question anyway, ``_presentational``)."""
    return _definite(attr) and any(c.dep_ == "relcl" and c.i > attr.i and not _nonfinite(c) and not _separated(attr, c)
                                   for c in attr.children)


def _cleft_on_a_phrase(verb: Any, it: Any) -> bool:
    """"It was for love that he had served the Navy", "It was in order to avoid … that Holmes became a detective": a
    phrase right after "be", and a "that" clause on its noun that lacks nothing (a relative clause would: "it was in
    the drawer that I opened" is what was in it). The parser takes the clause for a relative one."""
    phrases = [c for c in verb.children if c.dep_ == "prep" and c.i > it.i]
    return any(clause.dep_ == "relcl" and _relative_that(clause) and _complete(clause, besides=SUBJECTS)
               for phrase in phrases for clause in phrase.subtree)


def _relative_that(clause: Any) -> bool:
    """A clause opened by "that" whose "that" is no argument of it (not "the drawer that I opened", where it is)."""
    first = clause.doc[clause.left_edge.i]
    return first.lower_ == "that" and first.dep_ not in COMPLEMENTS


def _parenthetical(verb: Any, it: Any) -> bool:
    """"I was, it seemed, persona non grata": "it seems" set off by punctuation, with nothing of its own after it,
    says how things seem; it stands for nothing."""
    doc = verb.doc
    own = [c for c in verb.children if c.dep_ not in ("nsubj", "aux", "advmod", "neg", "punct")]
    return not own and it.i > 0 and doc[it.i - 1].is_punct and verb.i + 1 < len(doc) and doc[verb.i + 1].is_punct


def _definite(noun: Any) -> bool:
    """A name, a personal pronoun ("it was me who …") or a noun with a definite determiner or possessor."""
    return noun.pos_ == "PROPN" or noun.tag_ == "PRP" or any(
        c.dep_ == "poss" or (c.dep_ == "det" and c.lower_ in DEFINITE) for c in noun.children)


def _separated(head: Any, clause: Any) -> bool:
    """Whether punctuation that ends a clause stands between ``head`` and ``clause``."""
    return any(t.tag_ in CLAUSE_SEPARATORS for t in head.doc[head.i + 1:clause.left_edge.i])


def fixed_phrase_tokens(doc: Any, phrases: frozenset[str]) -> set[int]:
    """Indexes of the tokens of ``doc`` inside one of the fixed ``phrases`` (lemmas; a word in
    capitals is a part of speech, e.g. PUNCT), adverbs, negation and auxiliaries allowed between
    the words ("that's just how it is", "it has been a while", "called it a day"). A token counts
    only where the parse keeps it inside the phrase: the "it" of "we can make it go away" belongs
    to "go away", not to "can make it"."""
    if not phrases:
        return set()
    return {t.i for _, start, end in _matcher(phrases)(doc) for t in doc[start:end] if start <= t.head.i < end}


@lru_cache(maxsize=4)
def _matcher(phrases: frozenset[str]) -> Any:
    from spacy.matcher import Matcher
    from spacy.parts_of_speech import IDS

    from .pipelines import english_pipeline

    matcher = Matcher(english_pipeline().vocab)
    for phrase in sorted(phrases):
        pattern: list[dict[str, Any]] = []
        for word in phrase.split():
            if pattern:
                pattern.append({"POS": {"IN": INSERTABLE}, "OP": "*"})
            pattern.append({"POS": word} if word.isupper() and word in IDS else {"LEMMA": word})
        matcher.add(phrase, [pattern])
    return matcher
