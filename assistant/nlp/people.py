"""Mentions of people whose translation into French, German or Spanish is gendered.

A mention is a person noun (WordNet), a personal name (spaCy's entities and the first-name list),
a pronoun or quantifier that an adjective or participle agrees with ("we are Japanese", "all
concerned"), an indefinite with a relative clause ("anyone who is ready"), or the ``[pr]``
placeholder. Each mention carries the gender that the English already settles (a gendered noun,
a title, a well-known person, a pronoun attributed to it) and the evidence (``mentions``: the mention
and how mentions are grouped into questions; ``source_roles``: what the checks read of the source).
"""

from __future__ import annotations

from typing import Any

from .address import imperatives, names_a_role, plural_you_cue
from .agreement import agreeing_words, said_of_the_addressed, title_noun
from .coreference import (GENDERED_PRONOUNS, SINGULAR, SUBJECTS, attribute_pronouns, clause_subject, gendered_pronouns,
                          speakers, subject_of)
from .generic import DEMONYM_SUFFIX, generic_noun, impersonal_one
from .labels import adjective_opening_a_sentence, common_noun_in_a_label, heads_a_verbless_label
from .lexicon import (FEMININE, MASCULINE, PersonNoun, about_software, agent_by_ending, done_only_to_people,
                      done_to_people, kinship_nouns, name_gender, names_a_part_of_a_program, person_noun, person_verbs,
                      singular_of, well_known_gender)
from .mentions import PLURAL, Mention, same_referent
from .settling import ADDRESSED, settle_participants, settle_predicates
from .source_roles import PLACEHOLDER, source_parse

TITLES = {"mr": MASCULINE, "mr.": MASCULINE, "mister": MASCULINE, "sir": MASCULINE, "lord": MASCULINE, "mrs": FEMININE,
          "mrs.": FEMININE, "ms": FEMININE, "ms.": FEMININE, "miss": FEMININE, "madam": FEMININE,
          "lady": FEMININE}
# Pronouns that denote people but carry no gender in English: a mention only when a word agrees with them.
PERSONAL = {"i": SINGULAR, "me": SINGULAR, "myself": SINGULAR, "you": None, "yourself": SINGULAR,
            "yourselves": PLURAL, "we": PLURAL, "us": PLURAL, "ourselves": PLURAL, "they": PLURAL,
            "them": PLURAL, "themselves": PLURAL}
# Indefinite pronouns that always denote people ("someone else will do it": quelqu'un, alguien).
PERSON_INDEFINITE = {"someone": SINGULAR, "somebody": SINGULAR, "anyone": SINGULAR, "anybody": SINGULAR,
                     "everyone": SINGULAR, "everybody": SINGULAR, "nobody": SINGULAR, "whoever": SINGULAR,
                     "oneself": SINGULAR}
# Quantifiers standing alone for people ("several were disappointed", "a few have fished"): the
# translation picks a gendered pronoun (quelques-uns/quelques-unes, algunos/algunas, alle/einige).
QUANTIFIERS = {"one": SINGULAR, "another": SINGULAR, "each": SINGULAR, "none": PLURAL, "all": PLURAL,
               "few": PLURAL, "many": PLURAL, "some": PLURAL, "others": PLURAL, "those": PLURAL,
               "both": PLURAL, "several": PLURAL, "most": PLURAL, "any": PLURAL, "other": SINGULAR,
               "either": SINGULAR, "neither": SINGULAR, "enough": PLURAL}
INDEFINITE = PERSON_INDEFINITE | QUANTIFIERS
PERSONAL_POSSESSIVES = {"my", "our", "your", "his", "her", "their"}
POSSESSIVE_PRONOUNS = {"mine", "ours", "yours", "his", "hers", "theirs"}  # "that child of yours", tagged a noun
YOU, ADDRESSEE = "you", "addressee"  # the head and kind of the person an imperative addresses
# Nouns of one gender whose plural names a group of any ("you guys are still good", "hi guys").
ANY_GENDER_PLURALS = {"guy"}
# A name after an article of its own names no one ("the dickens you say", "on the Bill's bench").
ARTICLES = {"the", "a", "an"}
# What settles a well-known person or character: the world knowledge WordNet records of them.
_WELL_KNOWN = "a well-known person (WordNet)"
# Quantifiers that also mean everything or much of something ("all is well", "all you have to do").
MASS_QUANTIFIERS = {"all", "most", "enough"}
# Personal pronouns that stand for things as readily as for people.
THING_PRONOUNS = {"they", "them", "themselves"}
ARGUMENTS = {"nsubj", "nsubjpass", "dobj", "pobj", "dative", "attr", "appos", "conj"}
# Determiners after which a lone quantifier or number stands for a thing ("this one", "which one").
THING_DETERMINERS = {"this", "that", "which", "the"}
# Words that are people only with a relative clause or an agreeing word ("the ones who are orphaned").
RELATIVE_ONLY = {"ones": PLURAL, "lot": PLURAL}
# Determiners of "one" as a pro-form of a noun named before it ("a new one", "the first ones"), not "every one".
PRO_FORM_DETERMINERS = {"a", "an", "another", "the", "this", "that", "these", "those"}
# The recogniser files religions and doctrines with the groups who hold them ("Christianity", "Judaism"): no people.
_DOCTRINE_SUFFIX = ("ity", "ism")
# Nouns naming an office, and contests for one: a person noun in their "of" complement names the
# office ("the post of Attorney General"), and so does the possessor of a contest ("the Mayor's
# race"); the possessor of an office is a person ("the doctor's office", "the captain's seat").
CONTESTS = {"race", "election", "campaign", "nomination", "candidacy"}
OFFICES = {"post", "position", "office", "role", "title", "rank", "seat", "job", "portfolio"} | CONTESTS
# Verbs whose object is a role the subject plays, not another person ("to play the trouble-maker").
ROLE_VERBS = {"play", "act", "portray", "impersonate"}
PLACES = {"GPE", "LOC", "FAC"}  # the entity recogniser's places
LOCATIVES = {"in", "at", "near", "inside", "outside", "around", "throughout", "across"}


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
    everyone = sorted(mentions + _implied_addressees(doc, mentions, source, sentence_of), key=lambda m: m.start)
    settle_predicates(doc, everyone)
    settle_participants(doc, everyone)
    settle_predicates(doc, everyone)  # again: what a person settled since then is said to be
    return everyone


def _implied_addressees(doc: Any, mentions: list[Mention], source: str, sentence_of: dict[int, int]) -> list[Mention]:
    """The person an imperative addresses, where it says something of them that agrees ("Be careful": prudent,
    prudente) and no "you" of the text is a mention already: one mention per imperative, named by the words from
    the verb to the last that agrees ("Don't be shy"), its head "you", whose question and answers it shares."""
    if any(m.head.lower() in ADDRESSED for m in mentions):
        return []
    found = []
    for first, verb in imperatives(doc):
        said = said_of_the_addressed(verb)
        if said:
            start, end = doc[first.i].idx, max(w.idx + len(w.text) for w in said)
            found.append(Mention(source[start:end], start, end, YOU, verb.i, sentence_of[verb.i], _you_number(verb),
                                 ADDRESSEE, agreement=tuple(w.text for w in said)))
    return found


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
    translation shows no one's gender (« l'administration Obama »)."""
    modifies_a_noun = ent.root.dep_ == "compound" and ent.root.head.pos_ == "NOUN"
    with_an_article = ent.text.islower() and any(c.dep_ == "det" and c.lower_ in ARTICLES
                                                 for c in ent.root.children)  # "the dickens you say"
    return not modifies_a_noun and not with_an_article and not any(t.pos_ == "PRON" for t in ent) \
        and not (len(ent) == 1 and _after_an_article(ent.root)) \
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
                   sentence_of[head.i], _number(head), "name", settled, evidence, _agreement(head), _conjunct_of(head),
                   role_of=named, likely=name_gender(first.text)[1])


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
                 and (noun := _compound_person_noun(c) or _title_reading(c)) is not None and noun.rank == 0),
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
        if (token.pos_ == "NOUN" and _before_an_acronym(token)) or _hyphenated_modifier(token) \
                or _names_a_thing(token) or adjective_opening_a_sentence(token) \
                or token.pos_ == "PROPN" and common_noun_in_a_label(token):
            return None
        noun = _compound_person_noun(token)
        if noun is not None and noun.rank > 0 and not _said_of_a_person(token):
            noun = None  # "the type", "her help": a person only in the word's second sense
        if noun is not None and _part_of_a_program(token) and not _said_of_a_person(token):
            noun = None  # "the interpreter terminates execution of the program"
        if noun is not None and not noun.only and (_said_of_a_thing(token) or _next_to_a_place(token)):
            noun = None  # "a circle was the embodiment of his concept of life", "the closest neighbor to the Earth"
        if noun is not None and noun.gender is None and _a_things_kin(token):
            noun = None  # "a child of itself or one of its descendants": nodes of a tree
        if noun is not None and _quoted_alone(token):
            noun = None  # a term: 'the "guard" is not evaluated', 'a British term for `quarry''
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
                                                   or agent_by_ending(lower) or _who_clause_of_its_own(token)
                                                   or token.tag_ == "NNPS" and lower.endswith(DEMONYM_SUFFIX)):
            plural = token.ent_type_ == "NORP" and lower.endswith(DEMONYM_SUFFIX)  # "Moldavians" tagged NNP
            return _make(token, "noun", PLURAL if plural else _number(token), sentence_of=sentence_of)  # the Viennese
        if lower in RELATIVE_ONLY and (_has_who_clause(token) or _agreement(token)) and not _echoes_a_thing(token):
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
        if agreement or (lower in ("they", "them") and token.dep_ in ARGUMENTS) or _unbound_themselves(token):
            mention = _make(token, "pronoun", number, sentence_of=sentence_of, agreement=agreement)
            mention.may_be_a_thing = lower in THING_PRONOUNS  # "you can set them up": things as well as people
            return mention
        return None
    if lower in INDEFINITE and token.dep_ not in ("det", "predet", "amod", "advmod", "nummod", "quantmod"):
        if token.dep_ == "appos" and token.head.pos_ == "PRON":
            return None  # "them all", "you all": a word that agrees with the pronoun, whose mention it is if any
        agreement = _agreement(token)
        if _of_phrase(token) is not None:
            return None  # "some of the water"; "some of the users" is the users' mention
        if heads_a_verbless_label(token) and lower not in PERSON_INDEFINITE:
            return None  # "None available", an interface's label of its items
        if _mass(token) or _echoes_a_thing(token):
            return None
        if agreement or _has_who_clause(token) or _reduced_relative(token) or lower in PERSON_INDEFINITE:
            return _make(token, "indefinite", INDEFINITE[lower], sentence_of=sentence_of, agreement=agreement)
        if _stands_for_people(token):
            return _standing_alone(token, INDEFINITE[lower], sentence_of)
        return None
    if lower in QUANTIFIERS and _subject_read_as_a_determiner(token):
        return _standing_alone(token, QUANTIFIERS[lower], sentence_of)
    if token.pos_ == "NUM" and token.dep_ in SUBJECTS and _stands_for_people(token):
        return _standing_alone(token, SINGULAR if lower == "one" else PLURAL, sentence_of)
    noun = person_noun(lower, token.text) if token.pos_ == "ADJ" and _noun_read_as_an_adjective(token) else None
    # "What would you say is your favorite ever?": a person only in the word's second sense; an agent noun the
    # tagger took for a comparative ("the cleaner") is read as the noun
    if noun is not None and noun.rank > 0 and token.tag_ != "JJR" and not _said_of_a_person(token):
        noun = None
    if noun is not None and not _partitive(token):
        return _make(token, "noun", PLURAL if lower.endswith("s") else SINGULAR, sentence_of=sentence_of,
                     settled=noun.gender, evidence=f"the noun {token.text}" if noun.gender else None)
    if token.pos_ in ("ADJ", "VERB") and not _partitive(token) and (token.dep_ in SUBJECTS | {"dobj", "pobj"}
                                          or token.dep_ in ARGUMENTS and _who_clause_of_its_own(token)) \
            and any(c.dep_ in ("det", "predet") and c.lower_ in ("the", "all", "those") for c in token.children):
        return _make(token, "noun", PLURAL, sentence_of=sentence_of)  # "the injured", "all concerned"
    return None


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


def _hyphenated_modifier(token: Any) -> bool:
    """The first part of a hyphenated word ("user-defined", "runner-up"; "the Department of Anti-drugs Policies",
    tagged a proper noun, but not a name's first part, "Jean-Pierre"): the word is read at its last part, and a
    modifier such as "user-defined" names no one."""
    doc = token.doc
    joined = not token.whitespace_ and token.i + 2 < len(doc) and doc[token.i + 1].text == "-" \
        and not doc[token.i + 1].whitespace_
    return joined and (token.pos_ != "PROPN" or doc[token.i + 2].is_lower)


def _before_an_acronym(token: Any) -> bool:
    """A noun right before an acronym that the parse takes for its appositive ("View your user ID"):
    the acronym is what is named, and the noun only says whose it is, as in "your user name"."""
    after = token.nbor() if token.i + 1 < len(token.doc) else None
    return after is not None and after.head == token and after.dep_ in ("appos", "compound") \
        and after.is_upper and after.is_alpha and 2 <= len(after) <= 5


def _names_a_thing(token: Any) -> bool:
    """The context makes a person-looking noun a thing or an office: a "which" relative clause
    ("the types to which ..."), the predicate of a thing ("experience is a demanding teacher"),
    an office ("the post of Secretary of Agriculture", "the Mayor's race"), a role played ("to
    play the trouble-maker": the player is the person), a language that labels the form after it
    ("Lin Hwai-min (Chinese: 林懷民; …)"), the place a named person is of ("Rep. Wesley Roberts of
    Seminole": a county, not one of the Seminole people), or a place the recogniser names where something is
    ("stationed in Appleton")."""
    head = token.head
    if token.tag_ == "NNP" and token.dep_ == "pobj" and head.lower_ == "of" and head.head.ent_type_ == "PERSON":
        return True
    if token.ent_type_ in PLACES and token.dep_ == "pobj" and head.lower_ in LOCATIVES:
        return True  # "stationed in Appleton, Wisconsin": a place that shares a name with a person WordNet knows
    if token.ent_type_ in ("NORP", "LANGUAGE") and token.i + 1 < len(token.doc) and token.nbor().text == ":":
        return True
    if any(c.dep_ == "relcl" and _relative_word(c) == "which" and token.nbor().text != ","
           for c in token.children) and not token.ent_type_:
        return True  # a restrictive "which" clause: ", which ..." may be about the whole clause
    if _said_of_a_thing(token) and _indefinite(token) and not _has_who_clause(token):
        return True  # a metaphor: what the thing is like, not who
    phrase = token  # "the post of Secretary of Veterans Affairs": the noun may modify the complement's head
    while phrase.dep_ in ("nmod", "compound") and phrase.head.i != phrase.i:
        phrase = phrase.head
    if phrase.dep_ == "pobj" and phrase.head.lower_ == "of" and phrase.head.head.lemma_.lower() in OFFICES:
        return True
    if token.dep_ == "poss" and head.lemma_.lower() in CONTESTS:
        return True
    return token.dep_ == "dobj" and head.lemma_ in ROLE_VERBS and clause_subject(token) is not None


def _indefinite(token: Any) -> bool:
    return all(c.lower_ in ("a", "an") for c in token.children if c.dep_ in ("det", "poss"))


def _relative_word(clause: Any) -> str | None:
    """The relative pronoun that opens a relative clause ("which", "who", "that"), if any."""
    first = clause.doc[clause.left_edge.i:clause.i + 1]
    return next((t.lower_ for t in first if t.tag_ in ("WDT", "WP", "WP$")), None)


def _capitalised_runs(token: Any) -> list[str]:
    """The runs of capitalised words that end with ``token``, longest first: a name the tagger took for nouns
    ("Paul Revere", "Then Aphrodite"); none for a word in lower case."""
    start = token.i
    while start > token.sent.start and token.doc[start - 1].text[:1].isupper() and token.doc[start - 1].is_alpha:
        start -= 1
    return [token.doc[i:token.i + 1].text for i in range(start, token.i + 1)] if token.text[:1].isupper() else []


def _thing_noun(token: Any) -> bool:
    """A common noun that names no person in any reading: the state, the concert, experience."""
    return token.pos_ == "NOUN" and not token.ent_type_ and _compound_person_noun(token) is None


def _said_of_a_person(token: Any) -> bool:
    """Context that makes a word whose first sense is a thing name a person ("type", "star",
    "tot"): the entity recogniser, a "who" clause, a person as its subject ("she is a star"),
    its appositive or its conjunct."""
    if token.ent_type_ in ("PERSON", "NORP") or _has_who_clause(token) or _governed_as_person(token):
        return True
    if _number(token) == PLURAL and any(c.dep_ == "poss" and c.lower_ in PERSONAL_POSSESSIVES for c in token.children):
        return True  # "our precursors", "her triplets" (but "her help", "its type")
    if token.dep_ in ("attr", "appos", "conj"):
        other = subject_of(token.head) if token.dep_ == "attr" else token.head
        return other is not None and (other.lower_ in PERSONAL or other.lower_ == "who" or other.lower_ in GENDERED_PRONOUNS
                                      or other.ent_type_ == "PERSON" or _person_first(other))
    return False


def _said_of_a_thing(token: Any) -> bool:
    """Whether a noun is the predicate of a noun that names no person: a metaphor when indefinite ("experience is
    a demanding teacher"), and what a word that also names things is ("that movie was the sleeper of the summer");
    a word that names only people stays one after "the" ("the problem is the teacher" says who the problem is)."""
    subject = subject_of(token.head) if token.dep_ == "attr" else None
    return subject is not None and _thing_noun(subject)


def _a_things_kin(token: Any) -> bool:
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
        or subject is not None and subject.pos_ == "NOUN" and not _person_first(subject)


def _next_to_a_place(token: Any) -> bool:
    """A noun related "to" a place the recogniser names ("the closest neighbor to the Earth", "a guide to
    Paris"): a word that also names things names one of the place's kind, or a thing about it."""
    return any(c.dep_ == "prep" and c.lower_ == "to" and any(o.dep_ == "pobj" and o.ent_type_ in PLACES
                                                              for o in c.children) for c in token.children)


def _governed_as_person(token: Any) -> bool:
    """The subject of a verb whose dominant sense only a person does ("fans will relish", "the
    moderator looks at you"), the one a verb of the mind done only to people is done to ("fans will not be
    disappointed"; not "The page has been rejected") or the one in a state of mind ("the principal was
    confused")."""
    verbs = person_verbs()
    head = token.head.head if token.head.dep_ in ("aux", "auxpass") else token.head  # a parse that hangs it on "was"
    if token.dep_ == "nsubj" and head.pos_ == "VERB":
        return verbs.get(head.lemma_.lower(), (False, False))[0]
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


def _person_first(token: Any) -> bool:
    """A noun whose first sense is a person, but for a part of a program in a text about programming ("a context
    manager is a context manager that …" says nothing of a person)."""
    noun = _compound_person_noun(token) if token.pos_ in ("NOUN", "PROPN") else None
    return noun is not None and noun.rank == 0 and not _part_of_a_program(token)


def _part_of_a_program(token: Any) -> bool:
    """A noun that names a part of a program ("handler", "context manager"), in a text about programming."""
    return names_a_part_of_a_program(token.lemma_) and about_software(token.doc)


def _quoted_alone(token: Any) -> bool:
    """A common noun alone between quotes (spaCy's ``is_quote``), emphasis marks or parentheses: the word itself, a
    term of the text or an aside ('the "guard" is not evaluated', "the *type* determines", "assign the “Editor”
    role", "older brother got his (masters)"), not a person."""
    doc = token.doc
    if not 0 < token.i < len(doc) - 1:
        return False
    before, after = doc[token.i - 1], doc[token.i + 1]
    return all(t.is_quote or t.text == "*" for t in (before, after)) or (before.text, after.text) == ("(", ")")


def _mistagged_noun(token: Any) -> bool:
    """A person noun the tagger took for another word class ("A disciple finds meaning …", tagged an
    adverb; "the accused", a participle): an argument of a verb, after an article. Not an adjective:
    "the poor", "the elderly" name people in general, whom the translation names in the masculine."""
    return token.pos_ in ("ADV", "VERB") and token.dep_ in ARGUMENTS \
        and person_noun(token.lemma_, token.text) is not None \
        and any(c.dep_ == "det" and c.lower_ in ("a", "an", "the") for c in token.children)


def _compound_person_noun(token: Any):
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


def _partitive(token: Any) -> bool:
    """A superlative with an "of" phrase, the best part of something ("enjoy the best of the city"); among
    people, the people are the "of" phrase's ("the youngest of the children")."""
    return token.tag_ == "JJS" and any(c.dep_ == "prep" and c.lower_ == "of" for c in token.children)


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
    it "all" or "others" as the object of a preposition ("Visible to all": everyone; "share it with others") or
    "those" ("only those with publishing permissions": anyone with them), or a noun that does
    (``generic.generic_noun``)."""
    if kind == "indefinite":
        anyone = (token.lower_ in ("all", "others") and token.dep_ == "pobj" or token.lower_ == "those") \
            and not _people_named_before(token)
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


def _stands_for_people(token: Any) -> bool:
    """A quantifier or number heading a noun phrase of its own, as the argument of a verb: "several
    were disappointed", "four in Sweden were opposed" (not "some of the water", "this one", "in 1998"); after "the"
    or "this", only one who says a quotation (""…," the other said to the bartender")."""
    if token.dep_ not in ARGUMENTS:
        return False
    if any(c.lower_ in THING_DETERMINERS for c in token.children if c.dep_ == "det"):
        return token.i in speakers(token.doc)
    if token.pos_ == "NUM" and (not token.text.isalpha() and len(token.text) == 4 or token.head.pos_ == "NOUN"):
        return False  # a year, or a number that counts a noun
    if _done_to_no_one(token) and not _people_named_before(token) and not _reciprocal(token):
        return False  # "Show all", "Save and add another": what is done to no one is a thing
    return not _echoes_a_thing(token)


def _subject_read_as_a_determiner(token: Any) -> bool:
    """A quantifier the parser made the determiner of the verb after it: of a verb it took for a noun, a plural
    after a word that only counts one ("when each communicates", each + "communicates" tagged NNS), or of an
    auxiliary ("Some feel forced to …", "feel" tagged AUX). It is the verb's subject, standing alone."""
    head = token.head
    if token.dep_ != "det" or head.i != token.i + 1:
        return False
    counts_one = QUANTIFIERS[token.lower_] == SINGULAR and head.tag_ == "NNS" and head.dep_ in SUBJECTS
    return counts_one or head.pos_ == "AUX"


def _done_to_no_one(token: Any) -> bool:
    """The object of a verb whose first WordNet sense is never done to a person ("Show all": no "Somebody ----s
    somebody" frame). Too coarse for a noun: "visit my parents", "find our killer" have none either."""
    return token.dep_ == "dobj" and token.head.pos_ == "VERB" and not done_to_people(token.head.lemma_.lower())


def _people_named_before(token: Any) -> bool:
    """Whether the text names people before a word: a noun whose first sense is a person, a name, a people, or a
    pronoun of a third person ("I met the students and liked all", "they came; I thanked both")."""
    return any(t.ent_type_ in ("PERSON", "NORP") or t.lower_ in GENDERED_PRONOUNS or t.lower_ in THING_PRONOUNS
               or _person_first(t) for t in token.doc[:token.i])


def _reciprocal(token: Any) -> bool:
    """"each other", "one another": the subject's own people, whatever the verb."""
    before = token.nbor(-1).lower_ if token.i else ""
    return (before, token.lower_) in (("each", "other"), ("one", "another"))


def _echoes_a_thing(token: Any) -> bool:
    """"one" standing for a count noun the text named before it (English's pro-form), where the nearest such noun
    names no person: a bare "one" or "another" as a verb's object, after a noun with a determiner or a possessor
    ("You do not currently have a password - this will add one", said "en ajouter un"; "This username is already
    taken. Please choose another."; not the verb's own subject: "We need a nurse tonight, so the hospital will send
    one"), and "one" or "ones" with a determiner or
    an adjective of its own, which is always the pro-form ("Enter your email address … for setting a new one";
    "do you watch Horror films? The first ones were inspired by …"), but with a "who" clause ("the one who was
    evolutionist") or a quantifier ("every one said to be Anglophone"): someone."""
    lower = token.lower_
    modified = lower in ("one", "ones") and not _has_who_clause(token) and any(
        c.dep_ == "amod" or c.dep_ == "det" and c.lower_ in PRO_FORM_DETERMINERS for c in token.children)
    bare = lower in ("one", "another") and token.dep_ == "dobj" and not token.n_lefts and not token.n_rights
    if not (modified or bare):
        return False
    named = [t for t in token.doc[:token.i] if t.pos_ == "NOUN" and t.tag_ == ("NNS" if lower == "ones" else "NN")
             and (modified or any(c.dep_ in ("det", "poss") for c in t.children))
             and not (t.dep_ in SUBJECTS and t.head == token.head)]  # the one who sends is not what is sent
    return bool(named) and person_noun(named[-1].lemma_, named[-1].text) is None


def _mass(token: Any) -> bool:
    """"All", "most" or "enough" meaning everything, not everyone: with a singular verb ("all is
    well") or a relative clause that is not about people ("all you have to do", "all that matters")."""
    if token.lower_ not in MASS_QUANTIFIERS:
        return False
    singular_verb = token.dep_ in SUBJECTS and (token.head.tag_ == "VBZ" or any(
        c.dep_ in ("aux", "auxpass") and c.tag_ == "VBZ" or c.lower_ == "was" for c in token.head.children)
        or token.head.lower_ == "was")
    return singular_verb or any(c.dep_ == "relcl" for c in token.children) and not _has_who_clause(token)


def _reduced_relative(token: Any) -> bool:
    """A quantifier with a participle clause, a relative clause without "who": "none claiming to be
    Nigerian", "those participating" (aucun se disant, ceux qui participent)."""
    return any(c.dep_ == "acl" and c.pos_ == "VERB" for c in token.children)


def _of_phrase(token: Any) -> Any | None:
    return next((c for c in token.children if c.dep_ == "prep" and c.lower_ == "of"), None)


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
        and any(c.dep_ == "relcl" and _relative_word(c) in ("who", "whom") for c in token.children)


def _has_who_clause(token: Any) -> bool:
    return any(c.dep_ in ("relcl", "acl") and any(g.lower_ in ("who", "whom", "whose") for g in c.subtree)
               for c in token.children) or token.lower_ == "whoever"


def _you_number(token: Any) -> str | None:
    return PLURAL if plural_you_cue(token.doc) else None  # a cue that "you" means several people
