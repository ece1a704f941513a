"""The benchmarks' own accuracies: CoCoA-MT contrastive formality and GATE gender keywords.

Both read a translation three ways: the gold label, the other label, or undetermined (no cue of
either, or cues of both). Each reports accuracy over all counted items, accuracy over the
determined ones (CoCoA-MT's published "matched accuracy") and the undetermined share. Items whose
data define no contrast (references with no distinct marked phrase; keywords that are the same in
both genders) are not counted and show as ``excluded``.

CoCoA-MT, following ``IWSLT2022/scorer.py`` of amazon-science/contrastive-controlled-mt: the marked
phrases are the non-greedy matches of ``\\[F\\](.*?)\\[/F\\]``; output and references are stripped;
for whitespace-delimited languages a phrase matches when the set of its tokens split on " " is a
subset of the output's tokens split on " " (case-sensitive, punctuation stays on the token, order
free); for Japanese (the scorer's ``--non_whitespace_delimited``) it matches as a substring. One
addition, on by default (``shared:ignored`` in the signature): a phrase marked identically in both
references (a shared verb in Japanese, a whole identical train reference) is dropped, since it
cannot tell the levels apart; ``ignore_shared=False`` reproduces the scorer exactly.

GATE has no keyword scorer upstream (GateEval.py compares whole sentences exactly, keeping case and
accents). Here each entity's feminine and masculine keywords are compared: the bracketed head word
(``a la [jefa]`` → ``jefa``) of each ``=``-joined mention, or the whole mention when it has no
brackets or when both genders share the head word (``[quiconque] présente``); ``(yo)``-style
dropped pronouns give no cue. A cue matches as whole words (not inside a longer word), ignoring
case but keeping accents, after NFC normalisation and with ’ read as '. With several entities the
item is correct when every entity reads as its gold gender, wrong when any reads as the other.
"""

from __future__ import annotations

import re
import unicodedata
from abc import abstractmethod
from typing import Any, Protocol

import numpy as np

from assistant.ambiguity import get_type
from assistant.checks import FEMININE, FORMAL, INFORMAL, MASCULINE

from ..loaders import cocoa_mt, gate
from .base import SegmentMetric

FORMALITY_MARKER = re.compile(r"\[F\](.*?)\[/F\]")
NON_WHITESPACE_LANGS = frozenset({"ja", "zh", "th"})
_HEAD = re.compile(r"\[([^\[\]]+)\]")
_BRACKETS = re.compile(r"[\[\]]")
STATISTICS = {"acc": "accuracy over counted items", "det_acc": "accuracy over determined items",
              "undet": "share of counted items that are undetermined"}


class ScoredRecord(Protocol):
    """What the metrics read of a record: the item (``.attributes``, ``.lang``, ``.type``) and the
    system output (``""`` for a failed item)."""

    item: Any
    translation: str


# ---- CoCoA-MT

def marked_phrases(annotated: str) -> list[str]:
    """The phrases between ``[F]`` and ``[/F]``, in order, as the reference scorer finds them."""
    return FORMALITY_MARKER.findall(annotated.strip())


def _phrase_in(phrase: str, output: str, whitespace_tokens: bool) -> bool:
    if not whitespace_tokens:
        return phrase in output
    return set(phrase.split(" ")).issubset(output.split(" "))


def classify_contrastive(output: str, formal_annotated: str, informal_annotated: str, *,
                         whitespace_tokens: bool = True, ignore_shared: bool = True) -> str | None:
    """``formal`` when the output contains a marked phrase of the formal reference and none of the
    informal one's, ``informal`` for the mirror, None otherwise (undetermined). Matching rules: see
    the module docstring; ``whitespace_tokens=False`` for Japanese."""
    output = output.strip()
    formal, informal = marked_phrases(formal_annotated), marked_phrases(informal_annotated)
    if ignore_shared:
        shared = set(formal) & set(informal)
        formal, informal = [p for p in formal if p not in shared], [p for p in informal if p not in shared]
    has_formal = any(_phrase_in(p, output, whitespace_tokens) for p in formal)
    has_informal = any(_phrase_in(p, output, whitespace_tokens) for p in informal)
    if has_formal != has_informal:
        return FORMAL if has_formal else INFORMAL
    return None


def contrastive_levels(formal_annotated: str, informal_annotated: str, ignore_shared: bool = True) -> bool:
    """Whether the references mark a phrase that tells the levels apart (else nothing can be read)."""
    formal, informal = set(marked_phrases(formal_annotated)), set(marked_phrases(informal_annotated))
    return bool(formal ^ informal) if ignore_shared else bool(formal or informal)


# ---- GATE

def _normalise(text: str) -> str:
    return unicodedata.normalize("NFC", text).replace("\u2019", "'")


def _mention_cues(feminine: str, masculine: str) -> tuple[set[str], set[str]]:
    """Cues of one entity: head words that differ between the genders, else whole mentions."""
    def mentions(field: str) -> list[str]:
        return [m.strip() for m in _normalise(field).split("=") if m.strip()]

    def head(mention: str) -> str:
        found = _HEAD.search(mention)
        return (found[1] if found else mention).strip().lower()

    def whole(mention: str) -> str:
        return " ".join(_BRACKETS.sub(" ", mention).split()).lower()

    f_mentions, m_mentions = mentions(feminine), mentions(masculine)
    shared_heads = {head(m) for m in f_mentions} & {head(m) for m in m_mentions}
    cues = []
    for side in (f_mentions, m_mentions):
        cues.append({whole(m) if head(m) in shared_heads else head(m) for m in side
                     if not (m.startswith("(") and m.endswith(")"))})
    both = cues[0] & cues[1]
    return cues[0] - both, cues[1] - both


def _word_in(cue: str, output: str, whitespace_tokens: bool) -> bool:
    if not whitespace_tokens:
        return cue in output
    pattern = r"(?<!\w)" + r"\s+".join(re.escape(word) for word in cue.split()) + r"(?!\w)"
    return re.search(pattern, output, flags=re.IGNORECASE) is not None


def classify_gate(output: str, kw_f: str, kw_m: str, lang: str) -> str | None:
    """``feminine`` when the output contains a feminine cue of the entity and no masculine one,
    ``masculine`` for the mirror, None otherwise. ``kw_f``/``kw_m`` are one entity's keyword fields
    (``a la [jefa]=la [jefa]``); cues and matching: see the module docstring."""
    feminine, masculine = _mention_cues(kw_f, kw_m)
    whitespace_tokens = lang not in NON_WHITESPACE_LANGS
    text = _normalise(output)
    has_f = any(_word_in(cue, text, whitespace_tokens) for cue in feminine)
    has_m = any(_word_in(cue, text, whitespace_tokens) for cue in masculine)
    if has_f != has_m:
        return FEMININE if has_f else MASCULINE
    return None


def gate_entities(attributes: dict[str, str]) -> list[tuple[str, str, str]]:
    """(feminine keywords, masculine keywords, gold gender) per entity with a cue in the data."""
    genders = attributes.get("genders", "").split(";")
    kw_f, kw_m = attributes.get("kw_f", ""), attributes.get("kw_m", "")
    if len(genders) > 1:
        entities = list(zip(kw_f.split(";"), kw_m.split(";"), genders))
    else:
        entities = [(kw_f, kw_m, genders[0])]
    return [entity for entity in entities if any(_mention_cues(entity[0], entity[1]))]


# ---- the metrics

class ThreeWayMetric(SegmentMetric):
    """Statistics per item: [counted, determined, correct]; ``statistic`` picks the aggregate
    (``acc``, ``det_acc`` or ``undet``, see ``STATISTICS``)."""

    prefix: str
    ambiguities: tuple[str, ...]
    data: tuple[str, ...]  # the item attributes the benchmark's own scoring reads

    def __init__(self, statistic: str = "acc") -> None:
        if statistic not in STATISTICS:
            raise ValueError(f"unknown statistic {statistic!r}; choose from: {', '.join(STATISTICS)}")
        self.statistic = statistic
        self.name = f"{self.prefix}_{statistic}"
        self.higher_is_better = statistic != "undet"

    def reported_for_output(self, output: ScoredRecord) -> bool:
        """Only for items of the benchmark itself (an AmbigMT formality item has no annotated references)."""
        return super().reported_for_output(output) and all(key in output.item.attributes for key in self.data)

    @abstractmethod
    def outcome(self, record: ScoredRecord) -> tuple[bool, str | None, str | None]:
        """(counted, label read off the translation, gold label)."""

    def row(self, record: ScoredRecord) -> list[float]:
        counted, observed, expected = self.outcome(record)
        if not counted:
            return [0.0, 0.0, 0.0]
        return [1.0, float(observed is not None), float(observed is not None and observed == expected)]

    def counted(self, stats: np.ndarray) -> np.ndarray:
        return stats[:, 1 if self.statistic == "det_acc" else 0] > 0

    def aggregate(self, totals: np.ndarray) -> float | None:
        counted, determined, correct = totals
        if self.statistic == "acc":
            return float(100 * correct / counted) if counted else None
        if self.statistic == "det_acc":
            return float(100 * correct / determined) if determined else None
        return float(100 * (counted - determined) / counted) if counted else None

    def segment(self, record: ScoredRecord) -> dict[str, Any]:
        counted, observed, _ = self.outcome(record)
        stats = self.row(record)
        value = {"acc": stats[2], "det_acc": stats[2] if stats[1] else None, "undet": 1.0 - stats[1]}[self.statistic]
        return {f"{self.prefix}_observed": observed, self.name: int(value) if counted and value is not None else None}


class CocoaFormality(ThreeWayMetric):
    """CoCoA-MT contrastive formality accuracy (``cocoa_acc``, ``cocoa_det_acc``, ``cocoa_undet``)."""

    prefix = "cocoa"
    ambiguities = (cocoa_mt.TYPE,)
    data = ("formal_annotated", "informal_annotated")

    def __init__(self, statistic: str = "acc", ignore_shared: bool = True) -> None:
        super().__init__(statistic)
        self.ignore_shared = ignore_shared

    def outcome(self, record: ScoredRecord) -> tuple[bool, str | None, str | None]:
        attributes = record.item.attributes
        formal, informal = attributes.get("formal_annotated"), attributes.get("informal_annotated")
        expected = attributes.get(get_type(cocoa_mt.TYPE).gold)
        if (record.item.ambiguity not in self.ambiguities or formal is None or informal is None
                or expected not in (FORMAL, INFORMAL) or not contrastive_levels(formal, informal, self.ignore_shared)):
            return False, None, None
        observed = classify_contrastive(record.translation, formal, informal, ignore_shared=self.ignore_shared,
                                        whitespace_tokens=record.item.lang not in NON_WHITESPACE_LANGS)
        return True, observed, expected

    def signature(self) -> str:
        shared = "ignored" if self.ignore_shared else "kept"
        return (f"stat:{self.statistic}|markers:[F]|match:token-subset(ja:substring)|case:kept|shared:{shared}"
                "|scorer:iwslt2022")


class GateGender(ThreeWayMetric):
    """GATE gender accuracy from the variant keywords (``gate_acc``, ``gate_det_acc``, ``gate_undet``)."""

    prefix = "gate"
    ambiguities = (gate.TYPE,)
    data = ("kw_f", "kw_m")

    def outcome(self, record: ScoredRecord) -> tuple[bool, str | None, str | None]:
        entities = gate_entities(record.item.attributes) if record.item.ambiguity in self.ambiguities else []
        if not entities:
            return False, None, None
        read = [classify_gate(record.translation, kw_f, kw_m, record.item.lang) for kw_f, kw_m, _ in entities]
        gold = [expected for _, _, expected in entities]
        if any(r is not None and r != g for r, g in zip(read, gold)):
            observed = ";".join(r or "?" for r in read)  # a wrong entity decides the item
        elif all(r is not None for r in read):
            observed = ";".join(read)
        else:
            observed = None
        return True, observed, ";".join(gold)

    def signature(self) -> str:
        return f"stat:{self.statistic}|cue:head-word|match:whole-word|case:ignored|accents:kept|norm:NFC"
