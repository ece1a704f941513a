"""Long contexts, bounded: the part of a context a model reads, and optional summaries of it.

``ContextPolicy(strategy, budget, encoder).apply(context, source, focus)`` gives a
``BoundedContext``; ``abstract.Summarizer`` writes the abstractive summary.
"""

from ..transcript import BoundedContext
from .encoders import ENCODERS
from .policy import DEFAULT_BUDGET, DEFAULT_STRATEGY, STRATEGIES, ContextPolicy, focus_spans
from .tokens import count_tokens

__all__ = ["STRATEGIES", "DEFAULT_STRATEGY", "DEFAULT_BUDGET", "ENCODERS", "BoundedContext", "ContextPolicy",
           "focus_spans", "count_tokens"]
