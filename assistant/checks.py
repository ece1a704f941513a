"""Read formality and grammatical gender off a translation, to verify it against what the user said.

Per target language: T-V pronouns and possessives for formality, and for Japanese the register
of the whole text (``nlp.japanese_register``); for the gender of a person, the
words that translate the person asked about (``nlp.target_gender.gender_of_mention``: spaCy
morphology for French and Spanish, rules for German), located from the source and the span the
question named; gendered pronouns for what "it" stands for. A reader answers ``None`` when the
text carries no marker, so a caller can tell "could not be checked" from "wrong".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from functools import lru_cache

from .ambiguity import AmbiguityType, ambiguity_types
from .inputs import blank_opaque_tokens
from .nlp.language import is_target_not_english
from .nlp.mentions import Mention, unsettled
from .nlp.people import find_person_mentions
from .nlp.source_roles import other_people
from .nlp.japanese_register import HONORIFIC, PLAIN, POLITE, japanese_register
from .nlp.target_gender import PIPELINES as TARGET_PIPELINES
from .nlp.target_gender import UD_GENDER, Reading, gender_of_mention, gender_of_name, target_pipeline
from .transcript import Check, Turn

FORMAL, INFORMAL = "formal", "informal"
MASCULINE, FEMININE = "masculine", "feminine"


def _patterns(spec: dict[str, list[str]], flags: int = re.IGNORECASE) -> dict[str, list[re.Pattern]]:
    return {label: [re.compile(p, flags) for p in pats] for label, pats in spec.items()}


# Second-person markers. German "Sie/Ihnen/Ihr" are formal only when capitalised mid-sentence,
# so German is matched case-sensitively.
_FORMALITY = {
    "fr": _patterns({
        # a sentence opened by an imperative in -ez (« Veuillez confirmer », « Cliquez ici »): no pronoun
        # says the register in a program's short strings; the informal imperative (« Clique », « Entre »)
        # has no such ending. Not the interjection « Allez, … » said to anyone, nor « Pensez-vous », whose
        # « vous » counts already.
        FORMAL: [r"\bvous\b", r"\bvotre\b", r"\bvos\b", r"\bvôtres?\b",
                 r"(?:^|(?<=[.!?…:] ))(?!(?:chez|assez|nez|rez)\b|allez\s*[,!.…])[a-zà-ÿ]+ez\b(?!-)"],
        INFORMAL: [r"\btu\b", r"\btoi\b", r"\bte\b", r"\bt'", r"\bton\b", r"\bta\b", r"\btes\b", r"\btiens?\b",
                   r"\btiennes?\b", r"-tu\b", r"-toi\b"],
    }),
    "de": _patterns({
        FORMAL: [r"(?<![.!?:\"„«]\s)(?<!^)\bSie\b", r"\bIhnen\b", r"(?<![.!?:\"„«]\s)(?<!^)\bIhr(?:e[mnrs]?)?\b"],
        INFORMAL: [r"\b[Dd]u\b", r"\b[Dd]ich\b", r"\b[Dd]ir\b", r"\b[Dd]ein(?:e[mnrs]?)?\b", r"\b[Ee]uch\b",
                   r"\b[Ee]uer\b", r"\b[Ee]ure[mnrs]?\b", r"\bhast\b", r"\bbist\b", r"\bwillst\b", r"\bkannst\b",
                   r"\bmusst\b", r"\bweißt\b", r"\bsollst\b"],
    }, flags=0),
    "es": _patterns({
        FORMAL: [r"\busted(?:es)?\b", r"\bud(?:s)?\.", r"\ble\b(?=\s+(?:agradezco|ruego|pido))"],
        INFORMAL: [r"\btú\b", r"\bte\b", r"\bti\b", r"\bcontigo\b", r"\btus?\b", r"\btuy[oa]s?\b",
                   r"\bvosotr[oa]s\b", r"\bos\b", r"\bvuestr[oa]s?\b", r"\b(?:eres|estás|tienes|puedes|quieres|"
                   r"sabes|vas|haces|crees|dices|has|debes|necesitas|vienes)\b"],
    }),
}

# A word ending in -en after « sie » is mostly its plural verb (« sie waren »), but for the article of an object
# (« erreichte sie den vierzigsten Platz »).
_GERMAN_PLURAL_VERB = r"(?!(?:den|einen|keinen|diesen|jenen|seinen|ihren|meinen|deinen|unseren|euren|allen|ihnen)\b)\w+en"
# Verbs in the plural "you" form only (« Habt ihr … gefunden? »): « ihr » after one is "you", not "her".
_NOT_AFTER_A_PLURAL_YOU_VERB = "".join(
    rf"(?<!\b[{verb[0].upper()}{verb[0]}]{verb[1:]}\s)"
    for verb in ("habt", "seid", "wart", "könnt", "wollt", "sollt", "müsst", "dürft", "wisst", "werdet", "hattet",
                 "wurdet"))

# Gender of a person: third-person pronouns, possessives (German) and past-participle or
# adjective agreement after a copula (French, Spanish). Japanese marks none of these.
_PERSON_GENDER = {
    "fr": _patterns({
        MASCULINE: [r"\bil\b", r"\blui\b", r"\blui-même\b", r"\b(?:est|était|a été|fut)\s+(?:\w+\s+)?\w+é\b",
                    r"\bné\b", r"\b(?:un|le)\s+(?:acteur|auteur|chanteur|directeur|professeur|docteur)\b"],
        FEMININE: [r"\belle\b", r"\belle-même\b", r"\b(?:est|était|a été|fut)\s+(?:\w+\s+)?\w+ée\b",
                   r"\bnée\b", r"\b(?:une|la)\s+(?:actrice|autrice|chanteuse|directrice|professeure|doctoresse)\b"],
    }),
    "de": _patterns({
        # not the infinitive « sein » at a clause's end (« gefangen sein. »); not « sie »/« Sie » with a plural verb
        # (« Sie klingen », « sie waren »: they, or you); not « ihr » as the plural "you" (« ihr seid », « Wisst ihr, »)
        MASCULINE: [r"\b[Ee]r\b", r"\bihn\b", r"\bihm\b",
                    r"\b[Ss]ein(?:e[mnrs]?)?\b(?!\s*(?:[,.;:!?]|$))"],
        FEMININE: [rf"\bsie\b(?!\s+(?:sind|{_GERMAN_PLURAL_VERB})\b)", rf"^Sie\b(?!\s+(?:sind|{_GERMAN_PLURAL_VERB})\b)",
                   rf"(?<![.!?]\s)(?<!^){_NOT_AFTER_A_PLURAL_YOU_VERB}\bihre?[mnrs]?\b(?!\s*[,.;:!?]|\s+[a-zäöüß]\w*t\b)"],
    }, flags=0),
    "es": _patterns({
        MASCULINE: [r"\bél\b", r"\bnacido\b", r"\b(?:es|está|fue|era|estaba)\s+(?:muy\s+)?\w+o\b", r"\bsolo\b"],
        FEMININE: [r"\bella\b", r"\bnacida\b", r"\b(?:es|está|fue|era|estaba)\s+(?:muy\s+)?\w+a\b", r"\bsola\b"],
    }),
    "ja": {},
}

# Gender of the noun that "it" stands for: object and subject pronouns that replace it.
_REFERENT_GENDER = {
    "fr": _patterns({
        MASCULINE: [r"\bil\b", r"\ble\b(?=\s+(?:\w+er|\w+ir|\w+re|ai|as|a|avons|avez|ont|vois|veux|prends)\b)",
                    r"-le\b", r"\bcelui\b"],
        FEMININE: [r"\belle\b", r"\bla\b(?=\s+(?:\w+er|\w+ir|\w+re|ai|as|a|avons|avez|ont|vois|veux|prends)\b)",
                   r"-la\b", r"\bcelle\b"],
    }),
    "de": _patterns({
        MASCULINE: [r"\b[Ee]r\b", r"\bihn\b", r"\bihm\b"],
        FEMININE: [r"\bsie\b", r"(?<![.!?]\s)(?<!^)\bihr\b"],
    }, flags=0),
    "es": _patterns({
        MASCULINE: [r"\blo\b", r"\w(?:ar|er|ir)lo\b", r"\w(?:ándo|iéndo)lo\b", r"\bél\b"],
        FEMININE: [r"\bla\b(?=\s+\w+(?:o|as|a|es|e|amos|emos|imos|an|en|é|ó|ía|aba)\b)", r"\w(?:ar|er|ir)la\b",
                   r"\w(?:ándo|iéndo)la\b", r"\bella\b"],
    }),
    "ja": {},
}


def _classify(text: str, patterns: dict[str, list[re.Pattern]]) -> str | None:
    """The label with the most markers in ``text``; None on a tie or when nothing is marked."""
    counts = Counter({label: sum(len(p.findall(text)) for p in pats) for label, pats in patterns.items()})
    ranked = counts.most_common()
    if not ranked or ranked[0][1] == 0 or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


_REGISTER_FORMALITY = {PLAIN: INFORMAL, POLITE: FORMAL, HONORIFIC: FORMAL}


def read_formality(text: str, lang: str) -> str | None:
    """Formal or informal address in a translation, or None where no second person is marked;
    for Japanese the register of the whole text (plain: informal; polite or honorific: formal)."""
    if lang == "ja":
        return _REGISTER_FORMALITY.get(japanese_register(text).label)
    return formality_reading(text, lang).label


def _spanish_second_person(text: str) -> tuple[str, ...]:
    """The verbs and pronouns in the second person (tú or vosotros), by spaCy's Spanish morphology."""
    return tuple(dict.fromkeys(t.text for t in target_pipeline("es")(text) if "2" in t.morph.get("Person")))


def _markers(text: str, patterns: dict[str, list[re.Pattern]], label: str | None) -> tuple[str, ...]:
    """The words of ``text`` that mark ``label``, in order and once each."""
    found = sorted((m.start(), m.group(0)) for p in patterns.get(label, []) for m in p.finditer(text))
    return tuple(dict.fromkeys(word.lstrip("-") for _, word in found))  # "-tu" and "tu" are one word


UD_POLITE = {FORMAL: "Polite=Form", INFORMAL: "Polite=Infm"}


def _marked(text: str, patterns: dict[str, list[re.Pattern]], feature: dict[str, str]) -> Reading:
    """The label with the most markers in ``text``, with the words that mark it and their feature."""
    label = _classify(text, patterns)
    words = _markers(text, patterns, label)
    return Reading(label, words, features=tuple(f"{w}: {feature[label]}" for w in words))


def formality_reading(text: str, lang: str) -> Reading:
    """``read_formality`` with the pronouns and verb forms it rests on ("vous", "votre"); for
    Japanese, the sentences whose endings give the register (a repair names them)."""
    if lang == "ja":
        register = japanese_register(text)
        return Reading(_REGISTER_FORMALITY.get(register.label), register.evidence, features=register.features,
                       doubt=register.doubt,
                       parts=tuple((sentence, _REGISTER_FORMALITY[label]) for sentence, label in register.parts))
    reading = _marked(text, _FORMALITY.get(lang, {}), UD_POLITE)
    if reading.label is None and lang == "es" and (verbs := _spanish_second_person(text)):
        # "¿vienes?", "cuéntame": tú shows in the verb when the pronoun is dropped
        return Reading(INFORMAL, verbs, features=tuple(f"{v}: Person=2" for v in verbs))
    return reading


def read_person_gender(text: str, lang: str, source: str | None = None, span: str | None = None) -> str | None:
    """Masculine or feminine for the person asked about: the mention of ``source`` that ``span``
    names (or the first one the source leaves open) as the translation renders it. A name (or
    ``[pr]``) carries no gender in the translation: in French and Spanish the words that agree with
    it are read (``gender_of_name``); in German, and without a source, the gendered pronouns and
    agreement of the whole text. None where nothing marks it."""
    return person_gender_reading(text, lang, source, span).label


def person_gender_reading(text: str, lang: str, source: str | None = None, span: str | None = None) -> Reading:
    """``read_person_gender`` with the words it rests on ("le procureur") and, of those, the nouns,
    adjectives and participles a repair forbids when the gender is wrong ("procureur"; none for
    German, whose rules read "Lehrer", a prefix of "Lehrerin", nor for German names, read from pronouns).
    A file's placeholders are no one's words in the translation either (« le <x1/> », a date)."""
    text = blank_opaque_tokens(text)
    mention = asked_mention(source, span) if source is not None else None
    if mention is not None and mention.kind in ("name", "placeholder") and lang in TARGET_PIPELINES:
        return gender_of_name(text, lang, mention, source)  # its own words: no one else's to tell apart
    others = _other_people(source, span, mention) if mention is not None else ()
    if mention is None or mention.kind in ("name", "placeholder"):
        if mention is not None and mention.kind == "name" and lang == "de":
            text = _without_the_name_s_clause_mates(text, mention.text)
        reading = _marked(text, _PERSON_GENDER.get(lang, {}), UD_GENDER)
        if others and reading.label is not None:  # the pronouns of the whole text may be someone else's
            return replace(reading, doubt=f"the words read may be about “{others[0].text}”")
        return reading
    return gender_of_mention(text, lang, mention, source, others)


# A clause of a German text: a subordinate clause is always set off by commas.
_GERMAN_CLAUSE = re.compile(r"[^,.;:!?…–—\"„“]+")
_GERMAN_PERSONAL_PRONOUN = re.compile(r"\b(?:er|ihn|ihm|sie)\b", re.IGNORECASE)


def _without_the_name_s_clause_mates(text: str, name: str) -> str:
    """A German ``text`` with the personal pronouns blanked that share a clause with ``name``: a pronoun in the
    name's own clause is someone else (« Remy hat sie … gebracht », « Wenn Artie ihm vertraut »; the name's own
    would be « sich »), while a possessive there may be the name's (« Remy und seine Frau »)."""
    words = [w for w in re.findall(r"\w+", name) if w[:1].isupper()]

    def blank(clause: re.Match) -> str:
        if not any(re.search(rf"\b{re.escape(w)}\b", clause.group(0)) for w in words):
            return clause.group(0)
        return _GERMAN_PERSONAL_PRONOUN.sub(lambda pronoun: " " * len(pronoun.group(0)), clause.group(0))
    return _GERMAN_CLAUSE.sub(blank, text)


def beside_another_gender(source: str, span: str, gender: str, answered: Mapping[str, str]) -> bool:
    """Whether ``source`` names people besides the one ``span`` is about (not "I", "you" or a
    pronoun) who may be of another gender than ``gender``: those neither the source nor an answer
    (``answered``: the gender given to each answered question's words) says are of that gender too. The
    words a reading found by their place may then be another person's."""
    mention = asked_mention(source, span)
    if mention is None:
        return True
    said = [(range(at, at + len(words)), told) for words, told in answered.items()
            if (at := _place_of(source, words)) >= 0]
    return any((other.settled or _told(said, other)) != gender
               for other in _other_people(source, span, mention))


def _told(said: list[tuple[range, str]], mention: Mention) -> str | None:
    """The gender an answer gave the words that overlap ``mention``, if any."""
    return next((told for words, told in said if words.start < mention.end and mention.start < words.stop), None)


def _other_people(source: str, span: str | None, mention: Mention) -> tuple[Mention, ...]:
    """The source's people other than the one asked about and those its question names with it."""
    at = _place_of(source, span)
    return other_people(source, _mentions(source), mention,
                        range(at, at + len(span)) if at >= 0 else range(mention.start, mention.end))


def asked_mention(source: str, span: str | None) -> Mention | None:
    """The mention of a person in ``source`` that a question about ``span`` named: of those at a place of ``span``,
    the first whose gender the source leaves open, as asked ("you" of "how you were raised", not of "If you could
    think", with no word agreeing with it), else the first; without a span, or where no place of it is a mention,
    the first one whose gender the source leaves open."""
    mentions = _mentions(source)
    named = [m for at in _places_of(source, span) for m in mentions
             if at <= m.start < at + len(span) or m.start <= at < m.end]
    return next(iter(unsettled(named)), None) or next(iter(named), None) or next(iter(unsettled(mentions)), None)


def _place_of(source: str, span: str | None) -> int:
    """Where ``span`` first stands in ``source`` (``_places_of``); -1 where it does not."""
    return next(iter(_places_of(source, span)), -1)


def _places_of(source: str, span: str | None) -> list[int]:
    """Where ``span`` stands in ``source`` as a word of its own ("you", not the start of "your"), in this case, or
    else in another."""
    if not span:
        return []
    before = r"(?<!\w)" if span[0].isalnum() else ""  # a span may end on a quote the name was written with
    after = r"(?!\w)" if span[-1].isalnum() else ""
    for flags in (0, re.IGNORECASE):
        found = [match.start() for match in re.finditer(rf"{before}{re.escape(span)}{after}", source, flags)]
        if found:
            return found
    return []


@lru_cache(maxsize=256)
def _mentions(source: str) -> tuple[Mention, ...]:
    """The people of ``source`` as the pre-pass finds them: a file's placeholder is no one."""
    return tuple(find_person_mentions(blank_opaque_tokens(source)))


def read_referent_gender(text: str, lang: str) -> str | None:
    """Masculine or feminine for what "it" stands for, judged by the pronouns that replace it."""
    return referent_gender_reading(text, lang).label


def referent_gender_reading(text: str, lang: str) -> Reading:
    """``read_referent_gender`` with the pronouns it rests on."""
    return _marked(text, _REFERENT_GENDER.get(lang, {}), UD_GENDER)


@dataclass(frozen=True)
class AnswerLabels:
    """What a person's answer says, in a checker's labels (its answer vocabulary, called ``name``).

    ``labels``: each label with the words that say it, tried in order; an answer is read as a label
    when the words of one label only are found in it, or, with ``first_wins``, as the first label
    found ("informal" contains "formal", so the informal words are tried first), or when ``both``
    says it asks for the first label found (a mixed group: the masculine plural). ``notes``: what an
    answer may say beside its label, each with its own reminder ("several": "you" is several people).
    """

    name: str
    labels: tuple[tuple[str, re.Pattern], ...]
    first_wins: bool = False
    both: re.Pattern | None = None
    notes: tuple[tuple[str, re.Pattern], ...] = ()

    def label(self, answer: str) -> str | None:
        """The label ``answer`` asks for ("formal, my boss" -> formal); None when it does not say."""
        hits = [label for label, pattern in self.labels if pattern.search(answer)]
        if not hits:
            return None
        if len(set(hits)) == 1 or self.first_wins or (self.both is not None and self.both.search(answer)):
            return hits[0]
        return None

    def said(self, answer: str) -> tuple[str, ...]:
        """The notes ``answer`` makes beside its label."""
        return tuple(note for note, pattern in self.notes if pattern.search(answer))


def _words(words: str) -> re.Pattern:
    return re.compile(rf"\b(?:{words})\b", re.IGNORECASE)


_MIXED = _words("mixed|both|men and women|women and men")
# "several people", "all of you": the answer asks for a plural "you" (vous, ihr, vosotros/ustedes).
SEVERAL = "several"
REGISTER_ANSWERS = AnswerLabels("formality", (
    (INFORMAL, _words("informal|casual|plain|friends?|family|brother|sister|kids?|child(?:ren)?|tu|du|tú|ihr|"
                      "vosotr[oa]s")),
    (FORMAL, _words("formal|polite|honorific|boss|strangers?|clients?|customers?|vous|sie|usted(?:es)?|sir|madam")),
), first_wins=True, notes=((SEVERAL, _words("several|plural|group|all of you|everyone|you all|ihr|vosotr[oa]s|"
                                             "ustedes")),))
GENDER_ANSWERS = AnswerLabels("gender", (
    # A mixed group takes the masculine plural in French, German and Spanish.
    (MASCULINE, _MIXED),
    (FEMININE, _words("woman|women|female|girls?|she|her|feminine|lady|ladies|mother|wife|daughter")),
    (MASCULINE, _words("man|men|male|boys?|he|his|masculine|gentleman|father|husband|son")),
), both=_MIXED)


def addresses_several(answer: str) -> bool:
    """Whether an answer to the register question says that "you" is several people."""
    return SEVERAL in REGISTER_ANSWERS.said(answer)


@dataclass(frozen=True)
class Wording:
    """How a front end words a checker's check for a translator: each label in words (``said``, or
    ``said_in`` a language whose questions name the labels otherwise: Japanese asks for plain or
    polite forms), the line for a pass, a failure and an unchecked check (fields ``about``,
    ``want``, ``got``, ``words``, ``reads``), and what a repair round of it fixes."""

    said: Mapping[str, str]
    passed: str
    failed: str
    topic: str
    fixing: str
    said_in: Mapping[str, Mapping[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Checker:
    """Reads one kind of label off a translation, and off a person's answer.

    ``read(translation, lang)``; with ``about_mention``, ``read(translation, lang, source, span)``:
    the source and the ``span`` the question named let it look at the words that translate what
    was asked about (one person of two). ``metric`` is the prefix of the evaluator's metrics for it
    (``f`` gives f_acc and f_cov); ``answers`` reads a person's answer as one of its labels;
    ``explain``, called like ``read``, gives the same label as a ``Reading`` with the words it
    rests on, for a repair to name and forbid. ``whole_text``: the label is the whole text's (the
    register), so a repair is not told which words were asked about; ``wording``: how a front end
    words its checks.
    """

    name: str
    labels: tuple[str, ...]
    metric: str
    read: Callable[..., str | None]
    answers: AnswerLabels
    about_mention: bool = False
    explain: Callable[..., Reading] | None = None
    whole_text: bool = False
    wording: Wording | None = None


CHECKERS: dict[str, Checker] = {}


def register_checker(checker: Checker) -> None:
    """Make a checker available to the ambiguity table under its name."""
    CHECKERS[checker.name] = checker


register_checker(Checker(
    "formality", (FORMAL, INFORMAL), "f", read_formality, REGISTER_ANSWERS, explain=formality_reading, whole_text=True,
    wording=Wording({FORMAL: "formal", INFORMAL: "informal"}, "{want} address: {words}",
                    "{want} address was asked for, but {words} {reads} as {got}", "whether the address is {want}",
                    "the register", said_in={"ja": {FORMAL: "polite", INFORMAL: "plain"}})))
register_checker(Checker(
    "person_gender", (MASCULINE, FEMININE), "g", read_person_gender, GENDER_ANSWERS, about_mention=True,
    explain=person_gender_reading,
    wording=Wording({FEMININE: "a woman", MASCULINE: "a man"}, "{about} reads as {want}: {words}",
                    "{about} should read as {want}, but {words} {reads} as {got}", "whether {about} reads as {want}",
                    "the gender of {about}")))
register_checker(Checker(
    "referent_gender", (MASCULINE, FEMININE), "g", read_referent_gender, GENDER_ANSWERS, explain=referent_gender_reading,
    wording=Wording({FEMININE: "feminine", MASCULINE: "masculine"}, "“{about}” is rendered as {want}: {words}",
                    "“{about}” should be {want}, but {words} {reads} as {got}",
                    "whether “{about}” is rendered as {want}", "the gender of “{about}”")))


def checker_for(ambiguity: str) -> Checker | None:
    """The checker the table names for an ambiguity type (None: the type is not checked)."""
    entry = ambiguity_types().get(ambiguity)
    return CHECKERS.get(entry.check) if entry and entry.check else None


def label_from_answer(vocabulary: str, answer: str) -> str | None:
    """The label an answer asks for in the answer ``vocabulary`` of a registered checker ("formality"
    or "gender"), e.g. "formal, my boss" -> formal; None when it does not say."""
    found = next((c.answers for c in CHECKERS.values() if c.answers.name == vocabulary), None)
    return found.label(answer) if found else None


def reading_of(checker: str, text: str, lang: str, source: str | None = None, span: str | None = None) -> Reading:
    """Run the named checker on a translation (about ``span`` of ``source`` when given): its label,
    with the words it rests on where the checker can say."""
    named = CHECKERS[checker]
    args = (text, lang, source, span) if named.about_mention else (text, lang)
    return named.explain(*args) if named.explain else Reading(named.read(*args))


# Plausible character-length ratios translation/source; outside them the model most likely
# answered, obeyed or truncated instead of translating.
_LENGTH_BANDS = {"fr": (0.5, 2.5), "de": (0.5, 2.5), "es": (0.5, 2.5), "ja": (0.15, 1.5)}
MIN_CHARS_FOR_LENGTH_CHECK = 12


# Chat-template tokens and tags (also made inert with a zero-width space): markup, not text to
# translate, so a translation that drops them is not short for it, and one made of them is empty.
_MARKUP = re.compile(r"<\u200b?[|\uff5c][^<>]{0,60}?[|\uff5c]>|<\u200b?/?[A-Za-z_][\w\u2581-]{0,30}>"
                     r"|\[\u200b?/?[A-Z_]{2,20}\]|\u200b")


def without_markup(text: str) -> str:
    """``text`` without chat-template tokens and tags, stripped."""
    return _MARKUP.sub("", text).strip()


def markup_in(text: str) -> list[str]:
    """The chat-template tokens and tags of ``text``, in order."""
    return _MARKUP.findall(text)


def length_plausible(source: str, translation: str, lang: str) -> bool | None:
    """Whether the translation's length fits the source's, markup aside; None for sources too
    short to judge."""
    source, translation = without_markup(source), without_markup(translation)
    if len(source) < MIN_CHARS_FOR_LENGTH_CHECK:
        return None
    low, high = _LENGTH_BANDS.get(lang, (0.3, 3.0))
    return low <= len(translation) / len(source) <= high


LENGTH, LANGUAGE = "length", "language"
TEXT_CHECKS = (LENGTH, LANGUAGE)  # the checks whose failure means the reply is not a translation


def not_a_translation(checks: list[Check]) -> bool:
    """Whether a text check failed: the reply left out, added or answered part of the source."""
    return any(check.name in TEXT_CHECKS and check.status == "fail" for check in checks)


def text_checks(source: str, translation: str, lang: str) -> list[Check]:
    """The checks every translation gets, answers or not: a length that fits the source's, and the
    target language rather than English. A check that cannot judge (a short source, no cue) is left out."""
    checks = []
    plausible = length_plausible(source, translation, lang)
    if plausible is not None:
        checks.append(Check(name=LENGTH, expected="plausible", observed="plausible" if plausible else "implausible",
                            status="pass" if plausible else "fail"))
    in_target = is_target_not_english(translation, lang)
    if in_target is not None:
        checks.append(Check(name=LANGUAGE, expected=lang, observed=lang if in_target else "en",
                            status="pass" if in_target else "fail"))
    return checks


@dataclass(frozen=True)
class Expectation:
    """What an answered turn asks of the translation: its type, the checker that reads it, the label
    its answer means and the notes it makes beside it ("several")."""

    ambiguity_type: AmbiguityType
    checker: Checker
    label: str | None
    notes: tuple[str, ...]
    turn: Turn


def expected(turns: list[Turn]) -> list[Expectation]:
    """What each answered turn of a checked type asks of the translation (its label may be None:
    the answer says no label its checker can read)."""
    found = []
    for turn in turns:
        checker = checker_for(turn.ambiguity)
        if checker and turn.answer:
            found.append(Expectation(ambiguity_types()[turn.ambiguity], checker, checker.answers.label(turn.answer),
                                     checker.answers.said(turn.answer), turn))
    return found


def expectations(turns: list[Turn]) -> list[tuple[str, str]]:
    """(checker, label) for every answer a checker can read, e.g. ("formality", "formal")."""
    return [(e.checker.name, e.label) for e in expected(turns) if e.label]
