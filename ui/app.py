"""The browser UI: a chat in which the assistant asks its clarifying questions as answer buttons.

Thin by design: every step is the assistant's ``Dialogue`` (driven by ``Dialogue.drive``, as
the CLI drives it); this module only turns the steps into chat messages and keeps each browser
session's state on the server (the pending dialogue and the last transcript, keyed by an id in
``gr.State``, so that a model never travels through Gradio's state copies).
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import gradio as gr

from assistant.chain import DEFAULT_MAX_QUESTIONS, METHODS, PROMPT_VARIANTS, Assistant
from assistant.dialogue import Dialogue
from assistant.errors import IntercptError, InputError
from assistant.explain import explain
from assistant.languages import LANGUAGES
from assistant.context.abstract import Summarizer
from assistant.context.sentences import MAX_CONTEXT_CHARS
from assistant.transcript import BoundedContext, Transcript, Turn
from assistant.users import make_user, scripted_then

SKIP = "skip"
MAX_UPLOAD_BYTES = 200_000
MAX_SESSIONS = 256


@dataclass
class Session:
    """One browser session's state on the server: the dialogue waiting for an answer, and the
    transcript last shown (the context panel and the summary read it from here)."""

    dialogue: Dialogue | None = None
    last: Transcript | None = None


class SessionStore:
    """Sessions by browser session id, least recently used dropped first beyond ``capacity``."""

    def __init__(self, capacity: int = MAX_SESSIONS):
        self.capacity = capacity
        self._sessions: OrderedDict[str, Session] = OrderedDict()

    def get(self, session_id: str | None) -> Session:
        """The session's state (a fresh one for an unknown id), marked as most recently used."""
        session = self._sessions.pop(session_id, None) if session_id else None
        session = session or Session()
        if session_id:
            self._sessions[session_id] = session
            while len(self._sessions) > self.capacity:
                self._sessions.popitem(last=False)
        return session


def read_context(context: str | None, upload: str | None) -> str | None:
    """The context box and an uploaded .txt file, joined; bounded in size."""
    parts = [context.strip()] if context and context.strip() else []
    if upload:
        path = Path(upload)
        if path.stat().st_size > MAX_UPLOAD_BYTES:
            raise InputError(f"the uploaded file is larger than {MAX_UPLOAD_BYTES // 1000} KB")
        try:
            parts.append(path.read_text(encoding="utf-8").strip())
        except UnicodeDecodeError:
            raise InputError("the uploaded file is not UTF-8 text") from None
    text = "\n\n".join(p for p in parts if p)
    if len(text) > MAX_CONTEXT_CHARS:
        raise InputError(f"the context has {len(text)} characters; the limit is {MAX_CONTEXT_CHARS}")
    return text or None


def question_message(turn: Turn) -> gr.ChatMessage:
    options = [{"label": option, "value": option} for option in turn.options] + [{"label": SKIP, "value": SKIP}]
    hint = "Click an answer, type your own, or skip."
    return gr.ChatMessage(content=f"{turn.question}\n\n_{hint}_", options=options)


def status_message(text: str) -> gr.ChatMessage:
    return gr.ChatMessage(content=text, metadata={"title": "Working", "status": "pending"})


def account_markdown(transcript: Transcript) -> str:
    return "\n".join(f"- {line}" for line in explain(transcript))


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


def summarize_context(assistant: Assistant, context: str, upload: str | None, lang: str,
                      last: Transcript | None) -> str:
    """The context panel with a summary the model writes of the extract (for the last text, or for none)."""
    try:
        text = read_context(context, upload)
        if text is None:
            return "_Add a context or upload a file first._"
        bounded = assistant.context_policy.for_source(text, last.source if last else "", lang)
        bounded.summary = Summarizer(assistant.chat_model, lang)(bounded.text)
        return context_markdown(bounded)
    except IntercptError as err:
        return f"⚠️ {err}"
    except Exception as err:  # noqa: BLE001 - a failing backend must reach the person as a message
        return f"⚠️ The model backend failed: {type(err).__name__}: {err}"


class ChatHandlers:
    """What the app's events call: the chat turn, the one-call translation, the context panel.

    Kept apart from the layout so the handlers can be tested on a fake chat model.
    """

    def __init__(self, assistants: dict[str, Assistant], sessions: SessionStore | None = None):
        self.assistants = assistants
        self.sessions = sessions or SessionStore()

    def respond(self, message: str, history: list, lang: str, method: str, max_questions: float, prompts: str,
                simulate: bool, context: str, upload: str | None, session_id: str | None
                ) -> Iterator[tuple[Any, ...]]:
        session_id = session_id or uuid.uuid4().hex
        session = self.sessions.get(session_id)

        def out(messages: list, transcript: Transcript | None = None) -> tuple[Any, ...]:
            if transcript is None:
                return messages, gr.update(), gr.update(), gr.update(), session_id
            account = account_markdown(transcript)
            result = gr.ChatMessage(content=f"**{transcript.translation}**" + (f"\n\n{account}" if account else ""))
            return messages + [result], transcript.translation, account, transcript.to_dict(), session_id

        shown: list[gr.ChatMessage] = []
        assistant = self.assistants[prompts]
        try:
            dialogue = session.dialogue
            if dialogue is not None and dialogue.pending is not None:
                dialogue.answer(None if message.strip().lower() == SKIP else message, "human")
            else:
                dialogue = assistant.start(message, lang, method=method, context=read_context(context, upload),
                                           max_questions=int(max_questions))
            session.dialogue = dialogue
            transcript = dialogue.transcript
            user = None
            if simulate:
                user = make_user("simulated", target_lang=lang, chat_model=assistant.chat_model,
                                 structured_output=assistant.structured_output, context=transcript.context,
                                 specialist=prompts == "specialist", context_policy=assistant.context_policy)
            yield out([status_message("Looking for ambiguities…")])
            for step in dialogue.drive(user):
                if step.kind == "asked" and user is None:
                    yield out(shown + [question_message(step.turn)])
                    return
                if step.kind == "asked":
                    shown.append(gr.ChatMessage(content=step.turn.question,
                                                metadata={"title": f"Question about “{step.turn.span}”"}))
                    yield out(shown + [status_message("The simulated user is answering…")])
                elif step.kind == "answered" and user is not None:
                    shown.append(gr.ChatMessage(content=step.turn.answer or SKIP, metadata={"title": "Simulated user"}))
                elif step.kind == "translating":
                    yield out(shown + [status_message("Translating…")])
            session.dialogue, session.last = None, transcript
            yield out(shown, transcript)
        except IntercptError as err:
            session.dialogue = None
            yield out(shown + [gr.ChatMessage(content=f"⚠️ {err}")])
        except Exception as err:  # noqa: BLE001 - a failing backend must reach the person as a message
            session.dialogue = None
            yield out(shown + [gr.ChatMessage(content=f"⚠️ The model backend failed: {type(err).__name__}: {err}")])

    def translate(self, text: str, target_lang: str, method: str = "intercpt", context: str = "",
                  answers: list[str] | None = None, max_questions: int = DEFAULT_MAX_QUESTIONS) -> dict:
        """Translate in one call, answering the questions with ``answers`` in order; returns the transcript."""
        user = make_user("human", target_lang=target_lang, ask=scripted_then(answers or [], None))
        transcript = self.assistants["generalist"].run(text, target_lang, method=method, context=context or None,
                                                  user=user, max_questions=max_questions)
        return transcript.to_dict()

    def show_context(self, session_id: str | None) -> str:
        last = self.sessions.get(session_id).last
        return context_markdown(last.bounded_context if last else None)

    def summarize(self, context: str, upload: str | None, lang: str, session_id: str | None) -> str:
        return summarize_context(self.assistants["generalist"], context, upload, lang, self.sessions.get(session_id).last)



def build_demo(assistants: dict[str, Assistant], model_spec: str, concurrency: int = 1) -> gr.Blocks:
    """The app for one model; ``assistants`` maps each prompt variant to an Assistant on that model."""
    handlers = ChatHandlers(assistants)
    with gr.Blocks(title="intercpt") as demo:
        gr.Markdown("## intercpt — translation that asks before it guesses\n"
                    "Paste English text. When it is ambiguous for the target language, you get a question first.")
        session = gr.State(None)
        with gr.Row():
            with gr.Column(scale=1, min_width=260):
                lang = gr.Dropdown(choices=[(name, code) for code, name in LANGUAGES.items()], value="fr",
                                   label="Translate into")
                method = gr.Radio(choices=list(METHODS), value="intercpt", label="Method",
                                  info="intercpt asks first; with-context uses the context; no-extra uses nothing")
                max_questions = gr.Slider(0, 5, value=DEFAULT_MAX_QUESTIONS, step=1, label="Maximum questions")
                prompts = gr.Radio(choices=list(PROMPT_VARIANTS), value="generalist", label="Detection prompts")
                simulate = gr.Checkbox(value=False, label="Simulated user (answers from the context)")
                context = gr.Textbox(label="Context (optional)", lines=4,
                                     placeholder="Background the assistant may use: who is speaking to whom…")
                upload = gr.File(label="Context file (.txt)", file_types=[".txt"], type="filepath")
                with gr.Accordion("What a model reads of the context", open=False):
                    context_view = gr.Markdown(context_markdown(None), elem_id="context-view")
                    summarize_button = gr.Button("Summarize it for me", size="sm")
                gr.Textbox(value=model_spec, label="Model", interactive=False)
            with gr.Column(scale=2):
                translation = gr.Textbox(label="Translation", buttons=["copy"], interactive=False, render=False,
                                         elem_id="translation")
                account = gr.Markdown(render=False)
                transcript_view = gr.JSON(label="Transcript", render=False)
                gr.ChatInterface(
                    handlers.respond,
                    additional_inputs=[lang, method, max_questions, prompts, simulate, context, upload, session],
                    additional_outputs=[translation, account, transcript_view, session],
                    api_name="chat",
                    concurrency_limit=concurrency,
                    fill_height=False,
                    textbox=gr.Textbox(placeholder="English text to translate", show_label=False, lines=1, max_lines=8,
                                       submit_btn=True, stop_btn=True),
                )
                translation.render()
                account.render()
                with gr.Accordion("Transcript (JSON)", open=False):
                    transcript_view.render()
        transcript_view.change(handlers.show_context, inputs=session, outputs=context_view, api_visibility="private")
        summarize_button.click(handlers.summarize, inputs=[context, upload, lang, session], outputs=context_view,
                               api_visibility="private", concurrency_limit=concurrency)
        gr.api(handlers.translate, api_name="translate", concurrency_limit=concurrency)
    return demo
