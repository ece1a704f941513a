"""What the page calls things: answer buttons a person understands, the model's display name."""

from __future__ import annotations

from pathlib import Path

from assistant.ambiguity import get_type
from assistant.backends import ModelSpec
from assistant.backends.spec import looks_like_path

SKIP = "skip"
SKIP_LABEL = "skip — offer me the variants"


def option_label(ambiguity: str, option: str, lang: str) -> str:
    """The button text of a chain option (``option`` itself where the ambiguity table gives it no label)."""
    labels = get_type(ambiguity).labels.get(option)
    return labels.get(lang, labels["default"]) if labels else option


def answer_options(ambiguity: str, options: list[str], lang: str) -> list[tuple[str, str]]:
    """(label, value) pairs of a question's answer buttons, skip last."""
    return [(option_label(ambiguity, o, lang), o) for o in options] + [(SKIP_LABEL, SKIP)]


def model_display_name(spec: str) -> str:
    """The model's name for people: a local file or folder by its name, never its full path."""
    try:
        parsed = ModelSpec.parse(spec)
    except Exception:  # noqa: BLE001 - a display name never fails the page
        return Path(spec).name or spec
    if parsed.backend == "openai":
        return f"{parsed.model or 'served model'} ({parsed.backend})"
    target = parsed.target
    name = Path(target).name.removesuffix(".gguf") if looks_like_path(target) else target
    return f"{name} ({parsed.backend})"
