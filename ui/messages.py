"""How the chain's steps read on the page: questions that name their word, statuses with the
time spent, the account of the choices, and errors as a short cause (the detail goes to the log)."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import gradio as gr

from assistant.errors import InputError, IntercptError
from assistant.explain import check_line, explain
from assistant.transcript import BoundedContext, Transcript, Turn

from .labels import answer_options

log = logging.getLogger("intercpt.ui")
LABEL_CHARS = 60  # the most of a text a label quotes
ACCOUNT_POINTER = "_Choices and checks: under the translation._"

_CLI_FLAGS = re.compile(r"\s*\((?:[^()]*\s)?--[a-z][\w-]*[^()]*\)|\s--[a-z][\w-]*")
_BACKEND_CAUSES = (("timeout", "the model server did not answer in time"),
                   ("connect", "the model server could not be reached"),
                   ("memory", "the model ran out of memory"))


def highlighted_source(source: str, span: str, start: int | None = None) -> list[tuple[str, str | None]]:
    """The source as ``gr.HighlightedText`` pieces, the word in question marked: the one the pre-pass found
    at ``start`` (not the "you" of an earlier "Thank you"), else the first whole-word match."""
    word = re.compile(rf"(?<!\w){re.escape(span)}(?!\w)", re.IGNORECASE) if span else None
    match = word and ((word.match(source, start) if start is not None else None) or word.search(source))
    if not match:
        return [(source, None)]
    pieces = [(source[:match.start()], None), (match.group(0), "in question"), (source[match.end():], None)]
    return [piece for piece in pieces if piece[0]]


def question_message(turn: Turn, lang: str) -> gr.ChatMessage:
    """The question, naming its word, with one answer button per option (values as the chain expects)."""
    options = [{"label": label, "value": value} for label, value in answer_options(turn.ambiguity, turn.options, lang)]
    hint = "Click an answer, or tick “my message answers the question” and type your own."
    names_its_word = re.search(rf"(?<!\w){re.escape(turn.span)}(?!\w)", turn.question, re.IGNORECASE)
    question = turn.question if names_its_word else f"**About “{turn.span}”:** {turn.question}"
    return gr.ChatMessage(content=f"{question}\n\n_{hint}_", options=options)


def status_message(text: str, elapsed: float) -> gr.ChatMessage:
    return gr.ChatMessage(content=f"{text} ({elapsed:.1f} s)", metadata={"title": "Working", "status": "pending"})


def error_message(text: str) -> gr.ChatMessage:
    return gr.ChatMessage(content=f"⚠️ {text}")


def account_lines(transcript: Transcript) -> list[str]:
    """The chain's account as the page shows it under the translation, and how many of the session
    glossary's terms the source holds: brief, since the answer rows name each question and the cards hold
    each alternative."""
    terms = len(transcript.terms)
    glossary = [f"terms: {terms} from your glossary"] if terms else []
    return glossary + explain(transcript, brief=True)


def account_markdown(transcript: Transcript) -> str:
    return "\n".join(f"- {line}" for line in account_lines(transcript))


def result_message(transcript: Transcript) -> gr.ChatMessage:
    """The translation as the conversation's last message, pointing to its account (under the translation
    box, never repeated in the chat)."""
    return gr.ChatMessage(content=f"**{transcript.translation}**\n\n{ACCOUNT_POINTER}")


def translation_label(source: Transcript | str | None) -> str:
    """The translation box's label, naming the text it translates: after Stop or a newer text it may
    hold an earlier one's."""
    text = source.source if isinstance(source, Transcript) else source
    if not text:
        return "Translation"
    shown = " ".join(text.split())
    return f"Translation of “{shown if len(shown) <= LABEL_CHARS else shown[:LABEL_CHARS - 1] + '…'}”"


def variants_note(transcript: Transcript | None) -> str:
    """What the translation box holds beside a skipped question's variant cards: the card it is, the
    text of every card, or the model's own guess, which matches none (empty without cards)."""
    if transcript is None or not transcript.alternatives:
        return ""
    same = [a for a in transcript.alternatives if a.translation == transcript.translation]
    if len(same) == 1:
        return f"_Assumes **{same[0].assumption}**: the card “If {same[0].assumption}” below._"
    if same:
        return "_The same under every option: each card below holds this text._"
    return "_The model's own guess, which assumes neither option: use a card below to pick one._"


def describe_error(err: Exception) -> str:
    """A short cause for the person: the chain's own message without command-line flags, or a
    backend failure's kind; a backend failure's detail (server URLs, traces) goes to the log only."""
    if isinstance(err, IntercptError):
        return _CLI_FLAGS.sub("", str(err))
    log.error("the model backend failed", exc_info=err)
    kind = f"{type(err).__name__} {err}".lower()
    cause = next((cause for key, cause in _BACKEND_CAUSES if key in kind),
                 f"the model backend failed ({type(err).__name__})")
    return f"{cause}. Try again; the server log has the details."


def upload_error(err: InputError, path: Path) -> InputError:
    """``err`` naming an uploaded file by its own name, not by the server's upload path."""
    return InputError(str(err).replace(str(path), f"“{path.name}”"))


def context_markdown(bounded: BoundedContext | None) -> str:
    """What a model reads of the context: its size, the sentences kept, the summary if one was written."""
    if bounded is None or not bounded.text:
        return "_No context yet: the part a model reads appears here after a translation._"
    sentences = ", ".join(str(i + 1) for i in bounded.indices)
    lines = [f"**{bounded.strategy}**: {bounded.tokens_out} of {bounded.tokens_in} tokens (sentences {sentences})"]
    if bounded.summary:
        lines.append(f"**Summary:** {bounded.summary}")
    lines.append("> " + bounded.text.replace("\n", "\n> "))
    return "\n\n".join(lines)


def checks_markdown(checks, lang: str) -> str:
    """The checks of a translation into ``lang`` in the account's words, e.g. "✓ formal address: « vous »"."""
    return " · ".join(line for check in checks if (line := check_line(check, lang))) or "no checks"
