"""Metrics on the translated text: corpus BLEU and chrF (sacreBLEU), and the polysemy metrics.

BLEU and chrF take their per-segment statistics and their aggregation from sacreBLEU itself
(the same internals its own significance module uses), so a corpus value equals a direct
``sacrebleu.corpus_bleu``/``corpus_chrf`` call and resampling never re-tokenises.
"""

from __future__ import annotations

import logging
import re
from abc import abstractmethod
from typing import Any

import numpy as np
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF

from ..records import Output
from .base import Metric, SegmentMetric, ShareMetric, references, single_language
from .table import SENSE, is_sense

log = logging.getLogger(__name__)

_SENTENCE_CHRF = CHRF()


def sentence_chrf(hypothesis: str, refs: list[str]) -> float:
    """sacreBLEU's sentence-level chrF2 (0-100)."""
    return float(_SENTENCE_CHRF.sentence_score(hypothesis, refs).score)


class _SacreMetric(Metric):
    """A sacreBLEU corpus metric over the group; a failed item is an empty translation."""

    @abstractmethod
    def scorer(self, lang: str) -> tuple[Any, str]:
        """The sacreBLEU metric for the target language and a note for the signature."""

    def measure(self, outputs: list[Output]) -> tuple[np.ndarray, str]:
        scorer, note = self.scorer(single_language(outputs))
        refs = [references(o) for o in outputs]
        # sacreBLEU takes reference streams; items with fewer references are padded with None.
        streams = [[r[j] if j < len(r) else None for r in refs] for j in range(max(map(len, refs)))]
        stats = scorer._extract_corpus_statistics([o.translation for o in outputs], streams)
        return np.array(stats, dtype=np.float64), scorer.get_signature().format() + note

    def aggregate(self, totals: np.ndarray) -> float | None:
        return float(self._aggregator._compute_score_from_stats(totals).score)


class CorpusBleu(_SacreMetric):
    """Corpus BLEU (sacreBLEU defaults: 13a tokenisation, exp smoothing).

    Japanese uses the ``ja-mecab`` tokeniser; without ``sacrebleu[ja]`` installed it falls back
    to character tokenisation, logs a warning and says ``ja-mecab:unavailable`` in the signature.
    Not reported for word-sense types (polysemy): their items are single words and short phrases,
    whose corpus BLEU is 0 whenever no reference has four words, even for a perfect system.
    """

    name = "bleu"

    def __init__(self) -> None:
        self._aggregator = BLEU()

    def reported_for(self, ambiguity: str) -> bool:
        return not is_sense(ambiguity)

    def scorer(self, lang: str) -> tuple[BLEU, str]:
        if lang != "ja":
            return BLEU(), ""
        try:
            return BLEU(tokenize="ja-mecab"), ""
        except RuntimeError:
            log.warning("BLEU for Japanese falls back to character tokens: pip install 'sacrebleu[ja]' for ja-mecab")
            return BLEU(tokenize="char"), "|ja-mecab:unavailable"


class CorpusChrf(_SacreMetric):
    """Corpus chrF2 (sacreBLEU defaults: character 6-grams, beta 2); per item, the sentence chrF."""

    name = "chrf"

    def __init__(self) -> None:
        self._aggregator = CHRF()

    def scorer(self, lang: str) -> tuple[CHRF, str]:
        return CHRF(), ""

    def segment(self, output: Output) -> dict[str, Any]:
        return {"chrf": round(sentence_chrf(output.translation, references(output)), 2)}


def mentions(candidate: str, word: str, lang: str) -> bool:
    """Whether ``word`` (casefolded) is the candidate or a whole-word part of it; Japanese, which
    has no spaces between words, accepts any substring."""
    text, word = candidate.casefold(), word.casefold().strip()
    if lang == "ja":
        return bool(word) and word in text
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


class _SenseMetric(SegmentMetric):
    """Reported for the types whose gold is a target word (``AmbiguityType.gold == "sense"``)."""

    def reported_for(self, ambiguity: str) -> bool:
        return is_sense(ambiguity)


class HitAtN(ShareMetric, _SenseMetric):
    """hit@n: the gold target word (``attributes["sense"]``) appears in one of the first n candidates
    (the translation, then the alternatives). Items without a gold word are not counted; a failed
    item counts as a miss."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.name = f"hit@{n}"
        self.reads_alternatives = n > 1

    def row(self, output: Output) -> list[float]:
        word = output.item.attributes.get(SENSE)
        if not word:
            return [0.0, 0.0]
        return [1.0, float(any(mentions(c, word, output.item.lang) for c in output.candidates(self.n)))]

    def signature(self) -> str:
        return f"candidates:{self.n}|match:casefold-whole-word"


class ChrfAtN(_SenseMetric):
    """chrF@n: the best sentence chrF among the first n candidates, averaged over the items
    (a failed item scores 0)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.name = f"chrf@{n}"
        self.reads_alternatives = n > 1

    def best(self, output: Output) -> float:
        refs = references(output)
        return max(sentence_chrf(c, refs) for c in output.candidates(self.n))

    def row(self, output: Output) -> list[float]:
        return [1.0, self.best(output)]

    def aggregate(self, totals: np.ndarray) -> float | None:
        return float(totals[1] / totals[0]) if totals[0] else None

    def segment(self, output: Output) -> dict[str, Any]:
        return {self.name: round(self.best(output), 2)}

    def signature(self) -> str:
        return f"candidates:{self.n}|sentence-chrF2|version:{sacrebleu.__version__}"
