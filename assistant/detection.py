"""The spaCy pre-pass: find words that may make a translation ambiguous, before any LM call.

It steers the translator LM to concrete words and keeps it from questioning text that has
nothing to ask about (no candidate: no question, no detection call at all). Each ambiguity
type of the table names the rule that finds its candidates (``detect``); the rules live in
``RULES`` and receive the parsed source.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .ambiguity import AmbiguityType, ambiguity_types
from .inputs import OPAQUE_TOKEN, blank_opaque_tokens
from .nlp.address import SECOND_PERSON as _SECOND_PERSON
from .nlp.address import address_candidates, address_cues, names_a_role
from .nlp.agreement import (agreeing_words, formal_object_you_shows_gender, intransitive_past_may_agree,
                            it_is_adjective_shows_gender, names_a_person, one_form_noun, possessive_agrees,
                            said_of_the_addressed, shows_gender, stressed_us_shows_gender, title_noun,
                            translated_with_one_gender)
from .nlp.coreference import GENDERED_PRONOUNS as _GENDERED_PRONOUNS
from .nlp.coreference import settled_by_a_pronoun
from .nlp.expletive import fixed_phrase_tokens, said_to_be, stands_for_a_thing
from .nlp.french_lexicon import one_french_form
from .nlp.lexicon import name_gender
from .nlp.mentions import PLURAL, Mention, MentionGroup, group_mentions, unsettled
from .nlp.people import ADDRESSEE, PERSONAL_POSSESSIVES, TITLES as _TITLES, find_person_mentions, object_you_only
from .nlp.pipelines import english_pipeline
from .nlp.quantifiers import INDEFINITE
from .nlp.referents import named_antecedent
from .nlp.source_roles import PLACEHOLDER, PLACEHOLDER_STAND_IN
from .transcript import Settled

# The cue words, as sets, for modules that bound a context around the words asked about.
SECOND_PERSON = frozenset(_SECOND_PERSON)
GENDERED_PRONOUNS = frozenset(_GENDERED_PRONOUNS)
TITLES = frozenset(_TITLES)
# The speaker and the person spoken to: pronouns whose translation shows no gender of its own, only
# the words that agree with them can.
SPEECH_PARTICIPANTS = SECOND_PERSON | {"i", "me", "myself", "we", "us", "ourselves"}
# English determiners whose French is one form for both genders before a vowel (l', mon, ton, son, notre, votre, leur).
ELIDED_BEFORE_A_VOWEL = {"the", "my", "your", "his", "her", "its", "our", "their"}
FRENCH_VOWELS = set("aeiouyàâéèêëîïôùûü")


@dataclass(frozen=True)
class Candidate:
    """A word that may be ambiguous: its type, its text and where it starts in the source;
    ``pronouns``: the gendered pronouns that may refer to this person, which the parse could not
    attribute (the person's answers settle them: ``Dialogue._eliminate``), and ``likely_for`` those of them a
    reader most often takes for this person (asked about last); ``may_be_a_thing``: the words also name things
    ("the guard", "a target"), and only reading the text tells which; ``formal_only``: the gender shows only where
    "you" is addressed formally (Spanish « ayudarlo », « ayudarla », but « ayudarte »), so the question goes once
    "you" is answered as informal or generic (``Dialogue._drop_formal_only``)."""

    ambiguity: str
    span: str
    start: int
    pronouns: tuple[str, ...] = ()
    may_be_a_thing: bool = False
    likely_for: tuple[str, ...] = ()
    formal_only: bool = False


@dataclass(frozen=True)
class Parsed:
    """A source, its parse (``[pr]`` placeholders read as "they") and the target language, handed
    to every rule; the people it mentions are found once for all the gender rules. ``inclusive``: the
    translation writes inclusive forms, so anyone of a kind ("any user", "customers") is asked about too."""

    source: str
    doc: Any
    target_lang: str = ""
    inclusive: bool = False

    @cached_property
    def open_people(self) -> list[MentionGroup]:
        """Mentions whose gender the target must choose and the source leaves open, grouped so that
        one question covers coordinated or repeated mentions. The name of the person spoken to ("Anna, ...") is
        no question: the formality question is about them, and the name shows no gender; a noun they are called by
        does ("..., friend!": ami, amie) and is asked about like any other. Anyone of a kind
        (``Mention.generic``) is asked about only for inclusive forms: the generic form reads as either gender."""
        mentions = [m for m in unsettled(self.people) if m.head_index not in self._listeners
                    and (self.inclusive or not m.generic)]
        return [g for g in group_mentions(mentions) if _its_gender_shown_in(g, self.doc, self.target_lang,
                                                                              self.inclusive)]

    @cached_property
    def settled_people(self) -> list[Mention]:
        """Mentions whose gender the target must show and the source settles (``evidence`` says how)."""
        return [m for m in self.people if m.settled is not None and m.head_index not in self._listeners]

    @cached_property
    def people(self) -> list[Mention]:
        """The people the source mentions whose gender the target language shows. For inclusive forms, anyone of a
        kind whom only a pronoun settles is open: that is English's generic "he" ("if a lawyer can provide evidence
        …, he moves"), which inclusive forms replace."""
        self.doc.user_data["source"] = self.source
        role = names_a_role(self.doc)  # a role a label names ("Recipient", "Contact Administrator") is no one
        people = [m for m in find_person_mentions(self.doc)
                  if not (role and m.kind == "noun") and _gendered_in(m, self.doc, self.target_lang)]
        for mention in people:
            if self.inclusive and mention.generic and settled_by_a_pronoun(mention):
                mention.settled = mention.evidence = None
        return people

    @cached_property
    def _listeners(self) -> set[int]:
        """The name or pronoun the person spoken to is called by ("Anna, ...", "Thanks, Sam", "Thanks, everyone"); a
        noun they are called by is no listener's word here but a person's to ask about ("..., friend!")."""
        return {token.i for cue, token in address_cues(self.doc)  # "You, be brave": "you" itself, asked as "you"
                if cue == "vocative" and token.lower_ not in SECOND_PERSON and token.pos_ != "NOUN"} | {
            t.i for t in self.doc if t.dep_ in ("npadvmod", "intj") and t.pos_ == "PROPN"
            and any(n.text == "," for n in self.doc[max(t.i - 1, 0):t.i + 2])}

    def undecided_pronouns(self, start: int) -> tuple[str, ...]:
        """The pronouns that may refer to the open people whose words start at ``start``."""
        return tuple(dict.fromkeys(p for m in self._open_mentions_at(start) for p in m.undecided_pronouns))

    def likely_pronouns(self, start: int) -> tuple[str, ...]:
        """Those of ``undecided_pronouns(start)`` that a reader most often takes for these people."""
        return tuple(dict.fromkeys(p for m in self._open_mentions_at(start) for p in m.likely_for))

    def may_be_a_thing(self, start: int) -> bool:
        """Whether the words of the open people starting at ``start`` also name things."""
        return any(m.may_be_a_thing for m in self._open_mentions_at(start))

    def formal_only(self, start: int) -> bool:
        """Whether the open people starting at ``start`` are a "you" whose gender only the formal register shows."""
        mentions = self._open_mentions_at(start)
        return bool(mentions) and all(object_you_only(self.doc, m) for m in mentions)

    def _open_mentions_at(self, start: int) -> list[Mention]:
        return [m for g in self.open_people if g.start == start for m in g.mentions]


# A rule yields (span, start) pairs for one ambiguity type.
Rule = Callable[[Parsed, AmbiguityType], list[tuple[str, int]]]
RULES: dict[str, Rule] = {}


def rule(name: str) -> Callable[[Rule], Rule]:
    """Register a pre-pass rule under the name the ambiguity table uses in ``detect``."""

    def register(function: Rule) -> Rule:
        RULES[name] = function
        return function

    return register


def parse(source: str, target_lang: str = "", inclusive: bool = False) -> Parsed:
    """The parse of ``source``, offsets kept: ``[pr]`` reads as "they", a file's opaque placeholder
    tokens as blanks."""
    text = blank_opaque_tokens(source.replace(PLACEHOLDER, PLACEHOLDER_STAND_IN))
    return Parsed(source, english_pipeline()(text), target_lang, inclusive)


def find_candidates(source: str, target_lang: str, inclusive: bool = False) -> list[Candidate]:
    """Candidates in source order, at most one per (type, word), for types that matter in ``target_lang``
    (``inclusive``: see ``Parsed``)."""
    return candidates_in(parse(source, target_lang, inclusive))


def settled_by_text(parsed: Parsed) -> list[Settled]:
    """The people whose gender the source settles, each with what settles it, for the transcript."""
    return [Settled("gender", m.text, m.settled, "text", m.evidence or "") for m in parsed.settled_people]


def candidates_in(parsed: Parsed) -> list[Candidate]:
    """The candidates of a parsed source (see ``find_candidates``)."""
    target_lang = parsed.target_lang
    found = [
        Candidate(ambiguity_type.name, span, start, parsed.undecided_pronouns(start), parsed.may_be_a_thing(start),
                  parsed.likely_pronouns(start), ambiguity_type.family == "gender" and parsed.formal_only(start))
        for ambiguity_type in ambiguity_types().values()
        if ambiguity_type.detect and target_lang in ambiguity_type.languages
        for span, start in RULES[ambiguity_type.detect](parsed, ambiguity_type)
    ]
    found = [c for c in found if not _determines_a_placeholder(parsed.source, c)]
    unique: dict[tuple[str, str], Candidate] = {}
    for candidate in sorted(found, key=lambda c: c.start):
        unique.setdefault((candidate.ambiguity, candidate.span.lower()), candidate)
    return list(unique.values())


def _determines_a_placeholder(source: str, candidate: Candidate) -> bool:
    """"Add another <x1/>" (Django's "Add another %(verbose_name)s"): a quantifier right before a
    file's hidden placeholder is the determiner of the word hidden there, no one to ask about ("the
    user <x1/>" is a user, named by the placeholder)."""
    after = source[candidate.start + len(candidate.span):]
    return candidate.span.lower() in INDEFINITE and OPAQUE_TOKEN.match(after.lstrip()) is not None \
        and after[:1].isspace()


@rule("single_word")
def _single_word(parsed: Parsed, ambiguity_type: AmbiguityType) -> list[tuple[str, int]]:
    """A text of one word; a file's hidden placeholder counts as a word ("<x1/> wrote:" is a sentence)."""
    words = [t for t in parsed.doc if t.is_alpha]
    alone = len(words) == 1 and OPAQUE_TOKEN.search(parsed.source) is None
    return [(words[0].text, words[0].idx)] if alone else []


@rule("address")
def _address(parsed: Parsed, ambiguity_type: AmbiguityType) -> list[tuple[str, int]]:
    """Where the register of address must be chosen: "you" or an imperative (fr/de/es), and for
    Japanese anything said to someone (a request, a question, a greeting, a reply)."""
    return [(c.span, c.start) for c in address_candidates(parsed.doc, parsed.target_lang)]


@rule("referential_it")
def _referential_it(parsed: Parsed, ambiguity_type: AmbiguityType) -> list[tuple[str, int]]:
    """The first "it" that may stand for a thing the text does not plainly name, where the translation shows
    that thing's gender (not French "c'est génial" for "it was great"); the type's ``lexicon`` lists the fixed
    phrases whose "it" refers to nothing ("that's the way it is")."""
    fixed = fixed_phrase_tokens(parsed.doc, ambiguity_type.lexicon)
    return [(t.text, t.idx) for t in parsed.doc
            if t.lower_ == "it" and stands_for_a_thing(t, fixed) and named_antecedent(t) is None
            and _its_gender_shown(t, parsed.target_lang)][:1]


def _its_gender_shown(it: Any, lang: str) -> bool:
    """Whether the translation of ``it``'s clause shows the gender of what it stands for in ``lang``."""
    adjectives = said_to_be(it)
    return not adjectives or it_is_adjective_shows_gender(adjectives, lang)


@rule("lexicon_nouns")
def _lexicon_nouns(parsed: Parsed, ambiguity_type: AmbiguityType) -> list[tuple[str, int]]:
    """Nouns whose lemma the type's entry lists under ``lexicon``: a new type needs no code."""
    return [(t.text, t.idx) for t in parsed.doc if t.pos_ == "NOUN" and t.lemma_.lower() in ambiguity_type.lexicon]


def _gendered_in(mention: Mention, doc: Any, lang: str) -> bool:
    """Whether to ask about a mention's gender. The speaker and the person spoken to ("I", "you",
    "we") only where a word that agrees with them shows it in ``lang``: "are you ready" (prêt/prête,
    listo/lista), not "Ich bin froh", "are you able" (capable, capaz) or "I remember going"; in Spanish
    also "us" after a preposition by its own form (« sobre nosotros, nosotras ») and the formal "you" as a
    verb's object by its clitic (« lo ganaría, la ganaría »: ``Candidate.formal_only``). German
    plural pronouns and adjectives carry none ("they", "we are ready"); nor does the French for
    "them" as a verb's object ("set them up": les configurer, "tell them": leur dire), but for a
    word that agrees with it or a past participle ("I saw them": je les ai vus/vues)."""
    token = doc[mention.head_index]
    if mention.kind == ADDRESSEE:
        return shows_gender(said_of_the_addressed(token), lang)
    if mention.kind == "pronoun" and (mention.head.lower() in SPEECH_PARTICIPANTS
                                      or lang == "fr" and _object_clitic(token)):
        return shows_gender(agreeing_words(token), lang) or stressed_us_shows_gender(token, lang) \
            or formal_object_you_shows_gender(token, lang)
    return not (lang == "de" and mention.number == PLURAL and mention.kind in ("pronoun", "indefinite"))


def _its_gender_shown_in(group: MentionGroup, doc: Any, lang: str, inclusive: bool) -> bool:
    """Whether the translation into ``lang`` will show the gender of a group of open mentions: where one of its
    mentions shows it (``_mention_shows_its_gender``), or a noun or pronoun stands for the same person."""
    return not lang or any(_mention_shows_its_gender(m, doc[m.head_index], lang, inclusive) for m in group.mentions)


def _mention_shows_its_gender(mention: Mention, head: Any, lang: str, inclusive: bool) -> bool:
    """A person's name shows none ("Alex's instruction was rapid": l'instruction d'Alex), unlike a
    people's ("Mormons": mormones, mormonas); a word that agrees with the name does ("Alex left":
    Alex est parti, partie), and so does a title it carries ("Doctor Fraud": le docteur, la
    docteure), a possessive before it where the target's agrees ("his Shirley": sa Shirley) or a past
    the target may say with a participle that agrees ("Landry went down": s'est rendu). A gendered pronoun that
    may be the name's shows nothing of its own: the source gives the pronoun's gender, whoever it stands for.
    A noun whose French is one form for both genders shows none by its determiner in the plural ("three biologists
    who believe": trois biologistes qui pensent; "their children": leurs enfants) nor where the singular's is shared
    (``_shared_french_determiner``: l'enfant, leur collègue), only by the words that agree with it ("the artists
    left": sont partis, parties); a noun whose translation has one gender whoever it names shows none ("the person":
    la personne); for inclusive forms every group is asked about, as GATE lists it."""
    if mention.kind == "name" and mention.number != PLURAL:
        return _name_shows_its_gender(mention, head, lang)
    if mention.kind != "noun" or inclusive:
        return True
    if translated_with_one_gender(head.lemma_, lang):
        return False  # "the person": « la personne », whoever it is
    french = _one_form_word(head.lemma_, lang)
    if french is not None and (mention.number == PLURAL or lang == "fr" and _shared_french_determiner(head, french)):
        return shows_gender(agreeing_words(head), lang) or intransitive_past_may_agree(head, lang)
    return True


def _one_form_word(lemma: str, lang: str) -> str | None:
    """The word ``lang`` says for an English noun with one form for both genders: the table's (« enfant »), or for
    an agent noun in "-ist" the Lefff's French one in "-iste"; None for any other noun."""
    listed = one_form_noun(lemma, lang)
    if listed is None and lang == "fr" and one_french_form(lemma):
        return f"{lemma}e"
    return listed


def _shared_french_determiner(noun: Any, french: str) -> bool:
    """Whether the French determiner of a singular noun is the same for both genders: "their" and "our" (leur
    collègue, notre élève) and, right before a vowel, "the" and the possessives (l'enfant, son ancêtre; not "the young
    child": le jeune enfant, la jeune enfant)."""
    found = [c for c in noun.children if c.dep_ in ("det", "poss")]
    if not found:
        return False
    right_before = all(d.lower_ in ELIDED_BEFORE_A_VOWEL for d in found) and found[-1].i == noun.i - 1
    return right_before and french[:1].lower() in FRENCH_VOWELS or all(d.lower_ in ("their", "our") for d in found)


def _name_shows_its_gender(name: Mention, head: Any, lang: str) -> bool:
    """Whether the translation into ``lang`` shows the gender of a name by words of its own (see above)."""
    return shows_gender(agreeing_words(head), lang) or _titled(name, head.doc) or _possessed(head, lang) \
        or intransitive_past_may_agree(head, lang)


def _possessed(name: Any, lang: str) -> bool:
    """Whether a possessive determiner before the name agrees with its person in ``lang``."""
    return possessive_agrees(lang) and any(c.dep_ == "poss" and c.lower_ in PERSONAL_POSSESSIVES
                                           for c in name.children)


def _titled(name: Mention, doc: Any) -> bool:
    """Whether a word before the name's last names a person and is no first name ("Doctor", not
    "Arthur"), or is a listed title ("Sen.", "Judge"): a title the translation carries."""
    span = doc.char_span(name.start, name.end, alignment_mode="expand")
    return span is not None and any(names_a_person(t) and not name_gender(t.text)[0] or title_noun(t.text)
                                    for t in span[:-1])


def _object_clitic(token: Any) -> bool:
    """"them" as the object of a verb not in the past: French says it "les"/"leur", which show no gender."""
    return token.lower_ == "them" and token.dep_ in ("dobj", "dative") and token.head.tag_ not in ("VBD", "VBN")


def _group_span(parsed: Parsed, group: MentionGroup) -> tuple[str, int]:
    """The words one question about a group names: coordinated mentions as the source writes them
    ("the doctors and nurses", "the professor and politician"), a name with the noun in apposition
    that the translation inflects ("Lloyd L. Simpkins, his administrative assistant"), up to the verb of a
    predicate noun; otherwise the first mention."""
    first, last = min(group.mentions, key=lambda m: m.start), max(group.mentions, key=lambda m: m.end)
    heads = {m.head_index for m in group.mentions}
    apposition = any(m.kind == "noun" and parsed.doc[m.head_index].dep_ == "appos"
                     and parsed.doc[m.head_index].head.i in heads for m in group.mentions)
    coordinated = all(m.sentence == first.sentence for m in group.mentions) and last.end - first.start < 80 \
        and (_coordinated(group) or apposition or any(m.role_of in heads for m in group.mentions))
    if not coordinated:
        return first.text, first.start
    end = first.end
    for mention in sorted(group.mentions, key=lambda m: m.start):
        if _finite_verb_between(parsed.doc, first.start, mention.end):
            break  # "Seigner is the dean of the company, the oldest actor": the question names "Seigner"
        end = max(end, mention.end)
    if _opens_a_quote(parsed.source[first.start:end], parsed.source[end:end + 1]):
        end += 1  # "the user 'Alex'": the name's mention leaves out the quotes around it
    return parsed.source[first.start:end], first.start


def _finite_verb_between(doc: Any, start: int, end: int) -> bool:
    """Whether a finite verb or an auxiliary stands between two character offsets: the mentions either side are in
    one clause as subject and predicate, not one phrase a question can quote."""
    return any(start <= t.idx < end and (t.pos_ == "AUX" or t.tag_ in ("VBD", "VBP", "VBZ", "MD")) for t in doc)


def _opens_a_quote(text: str, after: str) -> bool:
    """Whether ``text`` opens a quote that the character ``after`` it closes."""
    pairs = {"'": "'", '"': '"', "’": "‘", "”": "“"}
    if after not in pairs:
        return False
    opening = pairs[after]
    return text.count(opening) % 2 == 1 if opening == after else text.count(opening) > text.count(after)


def _people_rule(name: str, wanted: Callable[[MentionGroup], bool]) -> None:
    """Register a rule that asks about the open mention groups ``wanted`` picks (names, one person,
    several people), so each gender type keeps its own question and options."""
    rule(name)(lambda parsed, ambiguity_type: [_group_span(parsed, g) for g in parsed.open_people if wanted(g)])


def _kinds(group: MentionGroup) -> set[str]:
    return {m.kind for m in group.mentions}


def _coordinated(group: MentionGroup) -> bool:
    """Whether the group joins people by "and"/"or" ("the doctors and nurses"), not one person and
    the words that agree with them."""
    heads = {m.head_index for m in group.mentions}
    return any(m.conjunct_of in heads for m in group.mentions)


def _plural(group: MentionGroup) -> bool:
    return _coordinated(group) or any(m.number == PLURAL for m in group.mentions)


_people_rule("person_names", lambda g: not _plural(g) and bool(_kinds(g) & {"name", "placeholder"}))
_people_rule("person_nouns", lambda g: not _plural(g) and "noun" in _kinds(g) and not _kinds(g) & {"name", "placeholder"})
_people_rule("one_person", lambda g: not _plural(g) and not _kinds(g) & {"name", "placeholder", "noun", ADDRESSEE})
_people_rule("implied_addressee", lambda g: ADDRESSEE in _kinds(g))
_people_rule("people_groups", _plural)
