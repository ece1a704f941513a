"""Mentions of people whose translation into French, German or Spanish is gendered.

A mention is a person noun (WordNet), a personal name (spaCy's entities and the first-name list),
a pronoun or quantifier that an adjective or participle agrees with ("we are Japanese", "all
concerned"), an indefinite with a relative clause ("anyone who is ready"), or the ``[pr]``
placeholder. Each mention carries the gender that the English already settles (a gendered noun,
a title, a well-known person, a pronoun attributed to it) and the evidence (``mentions``: the mention
and how mentions are grouped into questions; ``noun_senses``: whether a noun names a person here;
``quantifiers``: whether a quantifier standing alone does; ``source_roles``: what the checks read of the source).
"""

from __future__ import annotations

from typing import Any

from .address import imperatives, names_a_role, plural_you_cue
from .agreement import (agreeing_words, said_of_the_addressed, title_noun, us_after_a_preposition,
                        you_as_an_object)
from .coreference import (GENDERED_PRONOUNS, SINGULAR, SUBJECTS, THING_PRONOUNS, attribute_pronouns, clause_subject,
                          gendered_pronouns, subject_of)
from .expletive import PREDICATES
from .generic import DEMONYM_SUFFIX, generic_noun, impersonal_one
from .labels import adjective_opening_a_sentence, common_noun_in_a_label, heads_a_verbless_label
from .lexicon import (FEMININE, MASCULINE, PersonNoun, agent_by_ending, language_names, name_gender, person_noun,
                      well_known_gender, wider_person_nouns)
from .mentions import PLURAL, Mention, same_referent
from .noun_senses import (ARGUMENTS, a_things_kin, before_an_acronym, compound_person_noun, governed_as_person,
                          inside_it, marked_by_who, names_a_district, names_a_thing, names_the_music, next_to_a_place,
                          part_of_a_program, person_first, quoted_alone, relative_word, said_of_a_thing,
                          with_a_which_clause)
from .quantifiers import (INDEFINITE, MODIFIER_DEPENDENCIES, PERSON_INDEFINITE, QUANTIFIERS, RELATIVE_ONLY,
                          echoes_a_thing, mass_quantity, modifier_in_a_coordination, names_its_noun_again, of_phrase,
                          people_named_before, reduced_relative, stands_for_people, subject_read_as_a_determiner)
from .settling import ADDRESSED, settle_participants, settle_predicates
from .source_roles import PLACEHOLDER, source_parse

TITLES = {"mr": MASCULINE, "mr.": MASCULINE, "mister": MASCULINE, "sir": MASCULINE, "lord": MASCULINE, "mrs": FEMININE,
          "mrs.": FEMININE, "ms": FEMININE, "ms.": FEMININE, "miss": FEMININE, "madam": FEMININE,
          "lady": FEMININE}
# Pronouns that denote people but carry no gender in English: a mention only when a word agrees with them.
PERSONAL = {"i": SINGULAR, "me": SINGULAR, "myself": SINGULAR, "you": None, "yourself": SINGULAR,
            "yourselves": PLURAL, "we": PLURAL, "us": PLURAL, "ourselves": PLURAL, "they": PLURAL,
            "them": PLURAL, "themselves": PLURAL}
PERSONAL_POSSESSIVES = {"my", "our", "your", "his", "her", "their"}
YOU, ADDRESSEE = "you", "addressee"  # the head and kind of the person an imperative addresses
# Nouns of one gender whose plural names a group of any ("you guys are still good", "hi guys").
ANY_GENDER_PLURALS = {"guy"}
# A name after an article of its own names no one ("the dickens you say", "on the Bill's bench").
ARTICLES = {"the", "a", "an"}
# What settles a well-known person, character or being: the world knowledge WordNet records of them, and the
# names of prompts/known_beings.yaml.
_WELL_KNOWN = "a well-known person or being (WordNet, prompts/known_beings.yaml)"
# The recogniser files religions and doctrines with the groups who hold them ("Christianity", "Judaism"): no people.
_DOCTRINE_SUFFIX = ("ity", "ism")


def find_person_mentions(doc_or_text: Any) -> list[Mention]:
    """Mentions of people in source order, with the gender English already settles for each."""
    doc = source_parse(doc_or_text) if isinstance(doc_or_text, str) else doc_or_text
    source = doc.user_data.get("source", doc.text)
    sentence_of = {t.i: n for n, sent in enumerate(doc.sents) for t in sent}
    mentions: list[Mention] = []
    taken: set[int] = set()
    names = [ent for ent in doc.ents if ent.label_ == "PERSON" and _reads_as_a_name(ent)]
    for ent in names + _titled_names(doc):
        mentions.append(_name(ent, sentence_of))
        taken.update(range(ent.start, ent.end))
    for token in doc:
        if token.i in taken:
            continue
        mention = _mention_at(token, source, sentence_of)
        if mention is not None:
            mentions.append(mention)
    mentions.sort(key=lambda m: m.start)
    attribute_pronouns(doc, mentions, same_referent)
    _link_wider_nouns(doc, mentions)
    everyone = sorted(mentions + _implied_addressees(doc, mentions, source, sentence_of), key=lambda m: m.start)
    everyone = _without_a_second_you(doc, everyone)
    settle_predicates(doc, everyone)
    settle_participants(doc, everyone)
    settle_predicates(doc, everyone)  # again: what a person settled since then is said to be
    return everyone


def _link_wider_nouns(doc: Any, mentions: list[Mention]) -> None:
    """A bare definite noun that names again, by a wider word, the one person named before it whose noun it covers:
    "the eminent neurologist … the doctor's collection", "a machinist … the worker" (WordNet's kinds), and as
    surely a person: both are asked about in one question. With two such people before it ("the surgeon and the
    neurologist … the doctor") it may be either, and with words of its own it may be someone else ("the President …
    the Soviet leader", Brown Corpus); either stays a mention of its own. The link is made after the pronouns are
    attributed and settles no one: "the juror … him … The judge" (Brown) are two people to a reader, one to WordNet."""
    kinds = wider_person_nouns()
    for later in mentions:
        token = doc[later.head_index]
        bare = all(c.dep_ in ("det", "case") for c in token.children)
        if later.kind != "noun" or later.number != SINGULAR or later.settled or not bare or not any(
                c.dep_ == "det" and c.lower_ in ("the", "this", "that") for c in token.children):
            continue
        covered = [m for m in mentions if m.start < later.start and m.kind == "noun" and m.number == SINGULAR
                   and m.settled is None and token.lemma_.lower() in kinds.get(doc[m.head_index].lemma_.lower(), ())]
        if len(covered) == 1:
            later.names_again = covered[0].head_index
            later.may_be_a_thing = covered[0].may_be_a_thing  # a person as surely as the one it names again


def _implied_addressees(doc: Any, mentions: list[Mention], source: str, sentence_of: dict[int, int]) -> list[Mention]:
    """The person an imperative addresses, where it says something of them that agrees ("Be careful": prudent,
    prudente) and no "you" of the text is a mention already: one mention per imperative, named by the words from
    the verb to the last that agrees ("Don't be shy"), its head "you", whose question and answers it shares."""
    if any(m.head.lower() in ADDRESSED and not object_you_only(doc, m) for m in mentions):
        return []
    found = []
    for first, verb in imperatives(doc):
        said = said_of_the_addressed(verb)
        if said:
            start, end = doc[first.i].idx, max(w.idx + len(w.text) for w in said)
            found.append(Mention(source[start:end], start, end, YOU, verb.i, sentence_of[verb.i], _you_number(verb),
                                 ADDRESSEE, agreement=tuple(w.text for w in said)))
    return found


def object_you_only(doc: Any, mention: Mention) -> bool:
    """A "you" that is a verb's direct object and nothing agrees with ("trying to help you")."""
    return mention.kind == "pronoun" and not mention.agreement and you_as_an_object(doc[mention.head_index])


def _without_a_second_you(doc: Any, mentions: list[Mention]) -> list[Mention]:
    """``mentions`` without the "you" that is only a direct object where another mention of the person spoken to
    carries the question ("Are you sure they will help you?", "Be careful, they will find you"): one question
    about them is enough."""
    addressed = any(m.kind == ADDRESSEE or m.head.lower() in ADDRESSED and not object_you_only(doc, m)
                    for m in mentions)
    return [m for m in mentions if not (addressed and object_you_only(doc, m))]


def _titled_names(doc: Any) -> list[Any]:
    """Proper nouns that a title before them makes names where the recogniser took them for nothing or for something
    other than a person ("against Dallas and Sen. Parkhouse", "Col. Faget's information"), each without its title
    (the name's role, ``_role_before``)."""
    spans = []
    for token in doc:  # every word of every text the pre-pass reads: its class and role before its children
        if token.pos_ != "PROPN" or token.ent_type_ == "PERSON" or token.dep_ == "compound":
            continue
        before = [c for c in token.children if c.dep_ == "compound" and c.i < token.i]
        titles = [c for c in before if title_noun(c.text) or c.lower_ in TITLES or c.text == "."]
        if titles and before[0] in titles:
            spans.append(doc[max(c.i for c in titles) + 1:token.i + 1])
    return spans


def _reads_as_a_name(ent: Any) -> bool:
    """Whether a span the tagger calls a person is a name: no pronoun among its words (a title-case label,
    "Please Confirm Your Email Address", is tagged so too). Its words' parts of speech say no more: names in
    lower case ("won't you, steve?", "cody and kerry") are tagged as nouns, verbs or adjectives. A name that
    modifies a noun names a thing after someone ("two-time Tony winner", "the Obama administration"), whose
    translation shows no one's gender (« l'administration Obama »); so does a composer's name said of their music
    ("Brahms was included in the program"), and a district's name names the place ("the township of Guthrie")."""
    modifies_a_noun = ent.root.dep_ == "compound" and ent.root.head.pos_ == "NOUN"
    with_an_article = ent.text.islower() and any(c.dep_ == "det" and c.lower_ in ARTICLES
                                                 for c in ent.root.children)  # "the dickens you say"
    return not modifies_a_noun and not with_an_article and not any(t.pos_ == "PRON" for t in ent) \
        and not (len(ent) == 1 and (_after_an_article(ent.root) or names_the_music(ent.root))) \
        and not names_a_district(ent.root) \
        and not (common_noun_in_a_label(ent.root) and (len(ent) == 1 or names_a_role(ent.doc)))  # "Product Types"


def _after_an_article(name: Any) -> bool:
    """A one-word name right after an article of its own: "sitting on the Bill's bench" (the Bills, a team), not
    someone called Bill."""
    before = name.nbor(-1) if name.i > 0 else None
    return before is not None and before.lower_ in ARTICLES and before.head.i == name.i


def _number(token: Any, default: str = SINGULAR) -> str:
    if token.tag_ in ("NNS", "NNPS"):
        return PLURAL
    if token.tag_ in ("NN", "NNP"):
        return SINGULAR
    return PLURAL if "Plur" in token.morph.get("Number") else default


def _name(ent: Any, sentence_of: dict[int, int]) -> Mention:
    doc = ent.doc
    before = doc[ent.start - 2] if ent.start > 1 and doc[ent.start - 1].text == "." else \
        doc[ent.start - 1] if ent.start > 0 else None  # "mr. emery", where the tokenizer splits off the dot
    title_token = ent[0] if ent[0].lower_ in TITLES else before
    first = ent[1] if ent[0].lower_ in TITLES and len(ent) > 1 else ent[0]
    title = title_token.lower_ if title_token is not None else ""
    settled, evidence = TITLES.get(title), f"title {title_token.text}" if title in TITLES else None
    head = ent.root
    start = ent.start_char
    role, noun = _role_before(ent)
    if role is not None:
        start = _role_phrase_start(role).idx
        if settled is None and noun.gender is not None:
            settled, evidence = noun.gender, f"the noun {role.text}"
    name = doc[first.i:ent.end].text
    if settled is None and (known := well_known_gender(name)) is not None:
        settled, evidence = known, _WELL_KNOWN
    # the tagger may take in the quotes a name is written with ("Andrew Campbell' '"): they are no part of it
    end = max((t.idx + len(t.text) for t in ent if any(c.isalnum() for c in t.text)), default=ent.end_char)
    named = head.head.i if head.dep_ == "appos" and head.head.pos_ == "NOUN" and sum(
        c.dep_ == "appos" and c.pos_ == "PROPN" for c in head.head.children) == 1 else None  # not a list of names
    return Mention(doc.user_data.get("source", doc.text)[start:end], start, end, head.text, head.i,
                   sentence_of[head.i], _name_number(head), "name", settled, evidence, _agreement(head),
                   _conjunct_of(head), role_of=named, likely=name_gender(first.text)[1])


def _name_number(head: Any) -> str:
    """A name with a first name or a title before its last is one person, whatever its ending ("Judge Parsons",
    "Dr. Ezra Styles", tagged as plurals); with "the" it may be a family ("the Grant B. Coopers")."""
    first_or_title = any(c.dep_ == "compound" and c.pos_ == "PROPN" and c.i < head.i for c in head.children)
    family = any(c.dep_ == "det" for c in head.children)
    return SINGULAR if first_or_title and not family else _number(head)


def _role_phrase_start(role: Any) -> Any:
    """The first word of the role's phrase ("Town Solicitor", "his protege"), not a name that modifies it: in "two-time
    Tony winner Sutton Foster" the person is the winner, and the Tony is an award."""
    start = role
    while start.i > role.left_edge.i and not start.nbor(-1).ent_type_ and start.nbor(-1) in role.subtree:
        start = start.nbor(-1)
    return start


def _role_before(ent: Any) -> tuple[Any, Any] | tuple[None, None]:
    """A noun naming the person's role, written before the name ("neighbor Smith", "Town Solicitor Michael A.
    Abatuno", "his protege Greene", "grandmother Rose Kelly"), or a title's abbreviation ("Sen. Parkhouse"), and its
    person reading: the translation inflects it (« la voisine Smith », « la sénatrice »), so the
    question names it with the name, and a gendered one settles the person."""
    return next(((c, noun) for c in ent.root.children if c.dep_ == "compound" and c.i < ent.start
                 and (noun := compound_person_noun(c) or _title_reading(c)) is not None and noun.rank == 0),
                (None, None))


def _title_reading(token: Any) -> PersonNoun | None:
    """The person reading of the noun a listed title stands for ("Sen.": senator), or None."""
    title = title_noun(token.text)
    return person_noun(title) if title else None


def _mention_at(token: Any, source: str, sentence_of: dict[int, int]) -> Mention | None:
    lower = token.lower_
    if source[token.idx:token.idx + len(PLACEHOLDER)] == PLACEHOLDER:
        return _make(token, "placeholder", SINGULAR, text=PLACEHOLDER, sentence_of=sentence_of)
    if (token.pos_ in ("NOUN", "PROPN") or _mistagged_noun(token)) and lower not in INDEFINITE:
        if (token.pos_ == "NOUN" and before_an_acronym(token)) \
                or _an_adjective_tagged_a_noun(token) or _an_organisation(token) \
                or names_a_thing(token) or adjective_opening_a_sentence(token) \
                or token.pos_ == "PROPN" and common_noun_in_a_label(token):
            return None
        noun = compound_person_noun(token)
        if noun is not None and noun.rank > 0 and not _said_of_a_person(token):
            noun = None  # "the type", "her help": a person only in the word's second sense
        if noun is not None and part_of_a_program(token) and not _said_of_a_person(token):
            noun = None  # "the interpreter terminates execution of the program"
        if noun is not None and not noun.only and (said_of_a_thing(token) or next_to_a_place(token)
                                                   or inside_it(token)):
            noun = None  # "a circle was the embodiment of his concept of life", "the closest neighbor to the Earth",
            # "the hours in the ward"
        if noun is not None and noun.gender is None and a_things_kin(token):
            noun = None  # "a child of itself or one of its descendants": nodes of a tree
        if noun is not None and quoted_alone(token):
            noun = None  # a term: 'the "guard" is not evaluated', 'a British term for `quarry''
        if noun is not None and _a_peoples_word_alone(token):
            noun = None  # "translates many books from English into Italian": the language
        # A verb takes no noun compound: "for each guest overload his …", with "guest" a compound of "overload".
        if noun is not None and (token.dep_ != "compound" or token.head.pos_ in ("VERB", "AUX")):
            number = _number(token)
            gender = None if number == PLURAL and token.lemma_.lower() in ANY_GENDER_PLURALS else noun.gender
            known = None if gender else next(filter(None, map(well_known_gender, _capitalised_runs(token))), None)
            evidence = f"the noun {token.text}" if gender else _WELL_KNOWN if known else None
            mention = _make(token, "noun", number, sentence_of=sentence_of, settled=gender or known, evidence=evidence)
            mention.may_be_a_thing = not noun.only
            return mention
        if token.dep_ in ARGUMENTS | {"ROOT"} and (token.ent_type_ == "NORP" and not lower.endswith(_DOCTRINE_SUFFIX)
                                                   and not _a_peoples_word_alone(token)
                                                   or agent_by_ending(lower) or _who_clause_of_its_own(token)
                                                   or token.tag_ == "NNPS" and lower.endswith(DEMONYM_SUFFIX)):
            plural = token.ent_type_ == "NORP" and lower.endswith(DEMONYM_SUFFIX)  # "Moldavians" tagged NNP
            return _make(token, "noun", PLURAL if plural else _number(token), sentence_of=sentence_of)  # the Viennese
        if lower in RELATIVE_ONLY and (marked_by_who(token) or _agreement(token)) and not echoes_a_thing(token):
            return _make(token, "indefinite", RELATIVE_ONLY[lower], sentence_of=sentence_of)
        if token.pos_ == "PROPN" and token.dep_ in SUBJECTS | {"poss", "dobj"} and not token.ent_type_ \
                and not _after_an_article(token):
            known, gender = name_gender(token.text)
            if known:
                mention = _make(token, "name", SINGULAR, sentence_of=sentence_of)
                mention.likely = gender
                return mention
        if _surname_beside_a_pronoun(token) or _named_beside_a_person_noun(token):
            return _make(token, "name", SINGULAR, sentence_of=sentence_of)
        return None
    if token.pos_ == "PRON" and lower in PERSONAL:
        agreement = _agreement(token)
        number = PERSONAL[lower] or _you_number(token)
        if lower in ("they", "them") and _plural_antecedent(token):
            return None  # the plural before it is what it stands for, and that is the mention if any
        if agreement or (lower in ("they", "them") and token.dep_ in ARGUMENTS) or _unbound_themselves(token) \
                or us_after_a_preposition(token) or you_as_an_object(token):  # « nosotras », « ayudarla »
            mention = _make(token, "pronoun", number, sentence_of=sentence_of, agreement=agreement)
            mention.may_be_a_thing = lower in THING_PRONOUNS  # "you can set them up": things as well as people
            return mention
        return None
    if lower in INDEFINITE and token.dep_ not in MODIFIER_DEPENDENCIES and not modifier_in_a_coordination(token):
        if token.dep_ == "appos" and token.head.pos_ == "PRON":
            return None  # "them all", "you all": a word that agrees with the pronoun, whose mention it is if any
        agreement = _agreement(token)
        if of_phrase(token) is not None:
            return None  # "some of the water"; "some of the users" is the users' mention
        if heads_a_verbless_label(token) and lower not in PERSON_INDEFINITE:
            return None  # "None available", an interface's label of its items
        if mass_quantity(token) or echoes_a_thing(token) or names_its_noun_again(token) or with_a_which_clause(token):
            return None
        if agreement or marked_by_who(token) or reduced_relative(token) or lower in PERSON_INDEFINITE:
            return _make(token, "indefinite", INDEFINITE[lower], sentence_of=sentence_of, agreement=agreement)
        if stands_for_people(token):
            return _standing_alone(token, INDEFINITE[lower], sentence_of)
        return None
    if lower in QUANTIFIERS and subject_read_as_a_determiner(token):
        return _standing_alone(token, QUANTIFIERS[lower], sentence_of)
    if token.pos_ == "NUM" and token.dep_ in SUBJECTS and stands_for_people(token):
        return _standing_alone(token, SINGULAR if lower == "one" else PLURAL, sentence_of)
    noun = person_noun(lower, token.text) if token.pos_ == "ADJ" and _noun_read_as_an_adjective(token) else None
    # "What would you say is your favorite ever?": a person only in the word's second sense; an agent noun the
    # tagger took for a comparative ("the cleaner") is read as the noun
    if noun is not None and noun.rank > 0 and token.tag_ != "JJR" and not _said_of_a_person(token):
        noun = None
    if noun is not None and not _partitive(token):
        return _make(token, "noun", PLURAL if lower.endswith("s") else SINGULAR, sentence_of=sentence_of,
                     settled=noun.gender, evidence=f"the noun {token.text}" if noun.gender else None)
    if token.pos_ in ("ADJ", "VERB") and not _partitive(token) and not _ordinal(token):
        argument = token.dep_ in SUBJECTS | {"dobj", "pobj"} or (
            token.dep_ in ARGUMENTS and _who_clause_of_its_own(token))
        if argument and any(c.dep_ in ("det", "predet") and c.lower_ in ("the", "all", "those")
                            for c in token.children):
            return _make(token, "noun", PLURAL, sentence_of=sentence_of)  # "the injured", "all concerned"
    return None


def _a_peoples_word_alone(token: Any) -> bool:
    """A capitalised word for one of a people or a faith, singular and with no determiner, that names a language
    ("from English into Italian", "taught them English and French") or modifies a noun ("Catholic higher
    education"). One of the people takes an article ("an Italian", "The Greek evidently fell for her"), and one said
    of someone agrees with that person ("Anyone who is Armenian", "someone Singaporean", "identified as Australian")."""
    article = token.i > 0 and token.nbor(-1).pos_ == "DET"
    alone = token.tag_ in ("NN", "NNP") and token.text[:1].isupper() and token.ent_type_ != "PERSON" and not article \
        and not any(c.dep_ in ("det", "poss", "nummod", "predet") for c in token.children)
    said_of_someone = token.dep_ in PREDICATES or token.head.pos_ == "PRON" or token.head.lower_ == "as"
    modifies = token.dep_ in ("nmod", "amod", "compound") and token.head.pos_ in ("NOUN", "PROPN")
    return alone and not said_of_someone and (modifies or token.lower_ in language_names())


def _an_adjective_tagged_a_noun(token: Any) -> bool:
    """An adjectival complement the tagger took for a noun ("with Wally coming home drunk"): the adjective."""
    return token.pos_ == "NOUN" and token.dep_ == "acomp"


def _an_organisation(token: Any) -> bool:
    """A plural proper noun the recogniser files as an organisation: a team, a board or a college ("your Cubs",
    "the Board of Directors", "the American College of Surgeons"), named as an institution, not as the people in
    it; not a people ("Icelanders") nor people counted ("the three Legislative Councillors"); also a capitalised
    plural whose possessive begins a proper noun, which the recogniser may miss ("the Stockgrowers' Association")."""
    marker = next((c for c in token.children if c.dep_ == "case"), None)  # the "'" of "Stockgrowers'"
    after = token.doc[marker.i + 1] if marker is not None and marker.i + 1 < len(token.doc) else None
    return token.tag_ == "NNPS" and token.ent_type_ == "ORG" and not token.lower_.endswith(DEMONYM_SUFFIX) \
        and not any(c.dep_ == "nummod" or c.lower_ in QUANTIFIERS for c in token.children) \
        or token.tag_ in ("NNS", "NNPS") and token.text[:1].isupper() and token.dep_ == "poss" \
        and after is not None and after.pos_ == "PROPN" and after.text[:1].isupper()


def _surname_beside_a_pronoun(token: Any) -> bool:
    """A lone proper noun that acts ("Stiggs sneered", "Kearton and Ulyate had started", "to help
    Benington") in a text whose "he" or "she" says it speaks of people: the entity recogniser takes
    many surnames for organisations, and a person left out of the mentions is silently settled
    where the pronoun is attributed to the only other one."""
    if token.pos_ != "PROPN" or token.tag_ != "NNP" or token.ent_type_ not in ("", "ORG"):
        return False
    if token.dep_ not in SUBJECTS | {"dobj", "conj"} or token.dep_ == "conj" and token.head.pos_ != "PROPN":
        return False
    if token.head.dep_ == "compound" or any(c.pos_ == "PROPN" and c.dep_ in ("compound", "flat")
                                            for c in token.children):
        return False  # a multi-word name ("Stanford University") is an institution as often as a person
    if token.is_upper or any(c.dep_ == "det" for c in token.children):
        return False  # "the FBI needs to talk to this guy … we can't locate him": an acronym, a name with an article
    return bool(gendered_pronouns(token.doc))


def _named_beside_a_person_noun(token: Any) -> bool:
    """A proper noun the recogniser left unclassed, with a person noun in apposition ("an avenue named for Bankhead
    McGruder, a Civil War general"): a person's name, asked about with the noun."""
    return token.pos_ == "PROPN" and token.ent_type_ in ("", "PERSON") and token.dep_ != "compound" and any(
        c.dep_ == "appos" and c.pos_ == "NOUN" and person_noun(c.lemma_, c.text) is not None for c in token.children)


def _noun_read_as_an_adjective(token: Any) -> bool:
    """A word tagged as an adjective that heads an argument ("the cleaner", tagged as a comparative) or
    takes a determiner of its own ("grants the learner enough time", parsed as "the learner time"), but not
    one coordinated with an adjective ("smaller than or equal to")."""
    if token.dep_ == "conj" and token.head.pos_ == "ADJ":
        return False
    return token.dep_ in ARGUMENTS or token.dep_ == "amod" and any(
        c.dep_ == "det" and c.i < token.i for c in token.children)


def _standing_alone(token: Any, number: str, sentence_of: dict[int, int]) -> Mention:
    """A quantifier or number standing alone as an argument: people ("several were there") or things
    ("this will add one"); nothing in it tells which, so the decide call reads it."""
    mention = _make(token, "indefinite", number, sentence_of=sentence_of)
    mention.may_be_a_thing = True
    return mention


def _capitalised_runs(token: Any) -> list[str]:
    """The runs of capitalised words that end with ``token``, longest first: a name the tagger took for nouns
    ("Paul Revere", "Then Aphrodite"); none for a word in lower case."""
    start = token.i
    while start > token.sent.start and token.doc[start - 1].text[:1].isupper() and token.doc[start - 1].is_alpha:
        start -= 1
    return [token.doc[i:token.i + 1].text for i in range(start, token.i + 1)] if token.text[:1].isupper() else []


def _said_of_a_person(token: Any) -> bool:
    """Context that makes a word whose first sense is a thing name a person ("type", "star",
    "tot"): the entity recogniser, a "who" clause, the one given something ("gave the manufacturer a new degree of
    freedom"), a person as its subject ("she is a star"), its appositive or its conjunct."""
    if token.ent_type_ in ("PERSON", "NORP") or marked_by_who(token) or governed_as_person(token):
        return True
    if token.dep_ == "dative":
        return True  # the one given something
    if _number(token) == PLURAL and any(c.dep_ == "poss" and c.lower_ in PERSONAL_POSSESSIVES for c in token.children) \
            and not _body_parts(token):
        return True  # "our precursors", "her triplets" (but "her help", "its type", "his hands")
    if token.dep_ in ("attr", "appos", "conj"):
        other = subject_of(token.head) if token.dep_ == "attr" else token.head
        return other is not None and (other.lower_ in PERSONAL or other.lower_ == "who" or other.lower_ in GENDERED_PRONOUNS
                                      or other.ent_type_ == "PERSON" or person_first(other))
    return False


def _body_parts(token: Any) -> bool:
    """A word whose first sense is a part of the body ("his hands"): its possessor's, whatever its other senses."""
    noun = person_noun(token.lemma_, token.text)
    return noun is not None and noun.body_part


def _mistagged_noun(token: Any) -> bool:
    """A person noun the tagger took for another word class ("A disciple finds meaning …", tagged an
    adverb; "the accused", a participle): an argument of a verb, after an article. Not an adjective:
    "the poor", "the elderly" name people in general, whom the translation names in the masculine."""
    return token.pos_ in ("ADV", "VERB") and token.dep_ in ARGUMENTS \
        and person_noun(token.lemma_, token.text) is not None \
        and any(c.dep_ == "det" and c.lower_ in ("a", "an", "the") for c in token.children)


def _ordinal(token: Any) -> bool:
    """An ordinal, "former" or "latter" used alone stands for a noun named before it, as "one" does ("in the third
    [inning]", "the former made a better appearance"): not people of the kind an adjective names ("the injured")."""
    return token.ent_type_ == "ORDINAL" or token.lower_ in ("former", "latter")


def _partitive(token: Any) -> bool:
    """A superlative with an "of" phrase, the best part of something ("enjoy the best of the city"), or another
    adjective picking from a plural ("the more remarkable of the new cooling systems"); among people, the people
    are the "of" phrase's ("the youngest of the children", "the older of the two brothers"). Not "the poor of the
    city", who are people of a place."""
    of = [c for c in token.children if c.dep_ == "prep" and c.lower_ == "of"]
    return bool(of) and (token.tag_ == "JJS" or token.tag_ in ("JJ", "JJR") and any(
        g.dep_ == "pobj" and g.tag_ in ("NNS", "NNPS") for c in of for g in c.children))


def _make(token: Any, kind: str, number: str, *, sentence_of: dict[int, int], text: str | None = None,
          settled: str | None = None, evidence: str | None = None,
          agreement: tuple[str, ...] | None = None) -> Mention:
    doc = token.doc
    left = min([token.i] + [c.left_edge.i for c in token.lefts if c.dep_ in ("det", "poss", "amod", "compound",
                                                                              "nummod", "predet", "advmod")
                            and c.pos_ != "INTJ"])  # "Hi friend!", parsed as a determiner
    start = doc[left].idx if text is None else token.idx
    end = token.idx + len(token.text if text is None else text)
    role_of = _role_of(token)
    return Mention(doc.user_data.get("source", doc.text)[start:end], start, end, text or token.text, token.i,
                   sentence_of[token.i], number, kind, settled, evidence,
                   _agreement(token) if agreement is None else agreement,
                   None if role_of is not None else _conjunct_of(token), role_of=role_of,
                   generic=_generic(token, kind))


def _generic(token: Any, kind: str) -> bool:
    """Whether a mention stands for anyone of its kind: an indefinite pronoun of people ("someone", "whoever"),
    "one" said of anyone ("one visits the restaurant": ``generic.impersonal_one``), where no one is named before
    it "all" or "others" as the object of a preposition or a verb ("Visible to all": everyone; "share it with others";
    "to help all incorporate new technology") or
    "those" ("only those with publishing permissions": anyone with them), or a noun that does
    (``generic.generic_noun``)."""
    if kind == "indefinite":
        anyone = (token.lower_ in ("all", "others") and token.dep_ in ("pobj", "dobj") or token.lower_ == "those") \
            and not people_named_before(token)
        return token.lower_ in PERSON_INDEFINITE or impersonal_one(token) or anyone
    return kind == "noun" and generic_noun(token)


def _conjunct_of(token: Any) -> int | None:
    return token.head.i if token.dep_ == "conj" else None


def _role_of(token: Any) -> int | None:
    """The noun a singular common noun is a second role of: coordinated with it under its determiner
    or possessor, with none of its own ("the professor and politician", "my friend and colleague",
    not "the accountant and the lawyer")."""
    head = token.head
    if token.dep_ != "conj" or token.tag_ != "NN" or head.tag_ != "NN":
        return None
    own = any(c.dep_ in ("det", "poss") for c in token.children)
    shared = any(c.dep_ in ("det", "poss") for c in head.children)
    return head.i if shared and not own else None


def _agreement(token: Any) -> tuple[str, ...]:
    """Words whose form agrees with this person in fr/es: attributes, participles, predicates."""
    return tuple(w.text for w in agreeing_words(token))


def _unbound_themselves(token: Any) -> bool:
    """"themselves" after a preposition with no plural before it ("just among themselves"): people the text does
    not name, said « entre eux » or « entre elles »; after a plural or "they" it is theirs, asked about there."""
    return token.lower_ == "themselves" and token.dep_ == "pobj" and not any(
        t.tag_ in ("NNS", "NNPS") or t.lower_ in ("they", "them") for t in token.doc[:token.i])


def _plural_antecedent(token: Any) -> bool:
    """Whether a plural noun before "they"/"them" may be what it stands for; without one, "they"
    stands for people the text does not name ("they say", "they had the resources"): ils or elles.
    The subject of the pronoun's own clause does not count."""
    subject = None if token.dep_ in SUBJECTS else clause_subject(token)  # "the eggs were broken by them"
    return any((t.tag_ in ("NNS", "NNPS") or t.lower_ in ("they", "them")) and (subject is None or t.i != subject.i)
               for t in token.doc[:token.i])


def _who_clause_of_its_own(token: Any) -> bool:
    """A word WordNet does not list as a person, with a "who" clause of its own: "a xenophile, who is attracted
    to …", "these are the undocumented who were at the center" (not "whose", which things take too). Not a word
    with a possessor, whose clause the parse may have taken from it ("taking someone's time who could be
    selling"); a name the entity recogniser files as a place or a firm is left to it."""
    return not token.ent_type_ and not any(c.dep_ == "poss" for c in token.children) \
        and any(c.dep_ == "relcl" and relative_word(c) in ("who", "whom") for c in token.children)


def _you_number(token: Any) -> str | None:
    return PLURAL if plural_you_cue(token.doc) else None  # a cue that "you" means several people
