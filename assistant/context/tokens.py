"""How context size is counted: spaCy word tokens.

The translator's own tokenizer is not always at hand (an OpenAI-compatible server hides
it), so budgets are counted in the tokens of the English spaCy pipeline that the pre-pass
already loads: words and punctuation marks, whitespace not counted. A BPE tokenizer such
as Qwen2.5's gives somewhat more tokens for the same English text (``benchmarks/context_budget.py``
measures the ratio when given one).
"""

from __future__ import annotations

from ..nlp.pipelines import english_pipeline


def count_tokens(text: str) -> int:
    """spaCy tokens in ``text``, whitespace excluded."""
    return sum(not token.is_space for token in english_pipeline().tokenizer(text))
