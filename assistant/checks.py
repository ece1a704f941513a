"""Read formality and grammatical gender off a translation, to verify it against what the user said.

Rule-based per target language: T-V pronouns, possessives and polite verb endings for
formality; gendered pronouns, articles and agreement for the gender of a person or
referent. A classifier answers ``None`` when the text carries no marker, so a caller can
tell "could not be checked" from "wrong".
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

FORMAL, INFORMAL = "formal", "informal"
MASCULINE, FEMININE = "masculine", "feminine"


def _patterns(spec: dict[str, list[str]], flags: int = re.IGNORECASE) -> dict[str, list[re.Pattern]]:
    return {label: [re.compile(p, flags) for p in pats] for label, pats in spec.items()}


# Second-person markers. German "Sie/Ihnen/Ihr" are formal only when capitalised mid-sentence,
# so German is matched case-sensitively.
_FORMALITY = {
    "fr": _patterns({
        FORMAL: [r"\bvous\b", r"\bvotre\b", r"\bvos\b", r"\bvôtres?\b"],
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
    "ja": _patterns({
        FORMAL: [r"です", r"ます", r"ください", r"ございま", r"でしょう", r"いらっしゃ", r"なさい"],
        INFORMAL: [r"だよ", r"だね", r"じゃん", r"だろ", r"(?:だ|よ|ね|の|か)[。！？!?]?$", r"君", r"お前"],
    }),
}

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
        MASCULINE: [r"\b[Ee]r\b", r"\bihn\b", r"\bihm\b", r"\b[Ss]ein(?:e[mnrs]?)?\b"],
        FEMININE: [r"\bsie\b(?!\s+(?:sind|haben|werden|waren|hatten|wurden))",
                   r"^Sie\b(?!\s+(?:sind|haben|werden|waren|hatten|wurden))", r"(?<![.!?]\s)(?<!^)\bihre?[mnrs]?\b"],
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


@dataclass(frozen=True)
class Reading:
    """What a classifier read: a label (or None) and the marker counts behind it."""

    label: str | None
    counts: dict[str, int]


def _classify(text: str, patterns: dict[str, list[re.Pattern]]) -> Reading:
    counts = Counter({label: sum(len(p.findall(text)) for p in pats) for label, pats in patterns.items()})
    ranked = counts.most_common()
    if not ranked or ranked[0][1] == 0 or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return Reading(None, dict(counts))
    return Reading(ranked[0][0], dict(counts))


def read_formality(text: str, lang: str) -> Reading:
    """Formal or informal address in a translation, or None where no second person is marked."""
    return _classify(text, _FORMALITY.get(lang, {}))


def read_gender(text: str, lang: str, about: str = "person") -> Reading:
    """Masculine or feminine for a person (``about="person"``) or for the referent of "it"
    (``about="referent"``), judged by the words that carry it; None where nothing does."""
    table = _PERSON_GENDER if about == "person" else _REFERENT_GENDER
    return _classify(text, table.get(lang, {}))


# What a person's answer says, for the checks: the informal/feminine words are tried first
# because "informal" contains "formal".
_ANSWER_LABELS = {
    "formality": [
        (INFORMAL, re.compile(r"\b(?:informal|casual|friends?|family|brother|sister|kids?|child(?:ren)?|tu|du|tú)\b",
                              re.IGNORECASE)),
        (FORMAL, re.compile(r"\b(?:formal|polite|boss|strangers?|clients?|customers?|vous|sie|usted|sir|madam)\b",
                            re.IGNORECASE)),
    ],
    "gender": [
        (FEMININE, re.compile(r"\b(?:woman|female|girl|she|her|feminine|lady|mother|wife|daughter)\b", re.IGNORECASE)),
        (MASCULINE, re.compile(r"\b(?:man|male|boy|he|his|masculine|gentleman|father|husband|son)\b", re.IGNORECASE)),
    ],
}


def label_from_answer(check: str, answer: str) -> str | None:
    """The label an answer asks for (e.g. "formal, my boss" -> formal); None when it does not say."""
    hits = [label for label, pattern in _ANSWER_LABELS.get(check, []) if pattern.search(answer)]
    return hits[0] if len(hits) == 1 or (hits and check == "formality") else None


def read_label(check: str, text: str, lang: str) -> str | None:
    """Run the named check on a translation."""
    reading = read_formality(text, lang) if check == "formality" else read_gender(text, lang)
    return reading.label


# Plausible character-length ratios translation/source; outside them the model most likely
# answered, obeyed or truncated instead of translating.
_LENGTH_BANDS = {"fr": (0.5, 2.5), "de": (0.5, 2.5), "es": (0.5, 2.5), "ja": (0.15, 1.5)}
MIN_CHARS_FOR_LENGTH_CHECK = 12


def length_plausible(source: str, translation: str, lang: str) -> bool | None:
    """Whether the translation's length fits the source's; None for sources too short to judge."""
    if len(source) < MIN_CHARS_FOR_LENGTH_CHECK:
        return None
    low, high = _LENGTH_BANDS.get(lang, (0.3, 3.0))
    return low <= len(translation) / len(source) <= high
