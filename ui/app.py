"""The browser UI: a chat in which the assistant asks its clarifying questions as answer buttons.

Thin by design: every step is the assistant's ``Dialogue``; this module only turns it into
chat messages and keeps one dialogue per browser session (server-side, keyed by an id in
``gr.State``, so that a model never travels through Gradio's state copies).
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from pathlib import Path
from typing import Any, Iterator

import gradio as gr

from assistant.chain import DEFAULT_MAX_QUESTIONS, METHODS, PROMPT_VARIANTS, Assistant
from assistant.dialogue import Dialogue
from assistant.errors import IntercptError, InputError
from assistant.explain import explain
from assistant.languages import LANGUAGES
from assistant.context import BoundedContext, Summarizer
from assistant.context.sentences import MAX_CONTEXT_CHARS
from assistant.transcript import Transcript, Turn
from assistant.users import HumanUser, SimulatedUser, scripted_then

SKIP = "skip"
MAX_UPLOAD_BYTES = 200_000
MAX_SESSIONS = 256


class SessionStore:
    """Pending dialogues by browser session, oldest dropped first beyond ``capacity``."""

    def __init__(self, capacity: int = MAX_SESSIONS):
        self.capacity = capacity
        self._dialogues: OrderedDict[str, Dialogue] = OrderedDict()

    def get(self, session_id: str | None) -> Dialogue | None:
        return self._dialogues.get(session_id) if session_id else None

    def put(self, session_id: str, dialogue: Dialogue) -> None:
        self._dialogues[session_id] = dialogue
        self._dialogues.move_to_end(session_id)
        while len(self._dialogues) > self.capacity:
            self._dialogues.popitem(last=False)

    def drop(self, session_id: str) -> None:
        self._dialogues.pop(session_id, None)


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


def show_context(transcript: dict | None) -> str:
    """The context panel for the last transcript shown."""
    bounded = (transcript or {}).get("bounded_context")
    return context_markdown(BoundedContext(**bounded) if bounded else None)


def summarize_context(assistant: Assistant, context: str, upload: str | None, lang: str,
                      transcript: dict | None) -> str:
    """The context panel with a summary the model writes of the extract (for the last text, or for none)."""
    try:
        text = read_context(context, upload)
        if text is None:
            return "_Add a context or upload a file first._"
        source = (transcript or {}).get("source") or ""
        bounded = assistant.context_policy.for_source(text, source, lang)
        bounded.summary = Summarizer(assistant.chat_model, lang)(bounded.text)
        return context_markdown(bounded)
    except IntercptError as err:
        return f"⚠️ {err}"
    except Exception as err:  # noqa: BLE001 - a failing backend must reach the person as a message
        return f"⚠️ The model backend failed: {type(err).__name__}: {err}"


def build_demo(assistants: dict[str, Assistant], model_spec: str, concurrency: int = 1) -> gr.Blocks:
    """The app for one model; ``assistants`` maps each prompt variant to an Assistant on that model."""
    sessions = SessionStore()

    def respond(message: str, history: list, lang: str, method: str, max_questions: float, prompts: str,
                simulate: bool, context: str, upload: str | None, session_id: str | None
                ) -> Iterator[tuple[Any, ...]]:
        session_id = session_id or uuid.uuid4().hex

        def out(messages: list, transcript: Transcript | None = None) -> tuple[Any, ...]:
            if transcript is None:
                return messages, gr.update(), gr.update(), gr.update(), session_id
            account = account_markdown(transcript)
            result = gr.ChatMessage(content=f"**{transcript.translation}**" + (f"\n\n{account}" if account else ""))
            return messages + [result], transcript.translation, account, transcript.to_dict(), session_id

        shown: list[gr.ChatMessage] = []
        try:
            dialogue = sessions.get(session_id)
            if dialogue is not None and dialogue.pending is not None:
                answer = None if message.strip().lower() == SKIP else message
                dialogue.answer(answer, "human")
            else:
                dialogue = assistants[prompts].start(message, lang, method=method,
                                                     context=read_context(context, upload),
                                                     max_questions=int(max_questions))
            sessions.put(session_id, dialogue)
            transcript = dialogue.transcript
            if simulate and not transcript.context:
                raise InputError("the simulated user answers from the context: add a context first")
            simulated = (SimulatedUser(assistants[prompts].chat_model, transcript.context, lang,
                                       specialist=prompts == "specialist",
                                       context_policy=assistants[prompts].context_policy,
                                       structured_output=assistants[prompts].structured_output) if simulate else None)
            yield out([status_message("Looking for ambiguities…")])
            while (turn := dialogue.next_question()) is not None:
                if simulated is None:
                    yield out(shown + [question_message(turn)])
                    return
                shown.append(gr.ChatMessage(content=turn.question, metadata={"title": f"Question about “{turn.span}”"}))
                yield out(shown + [status_message("The simulated user is answering…")])
                reply = simulated.answer(turn, transcript.source)
                dialogue.answer(reply, simulated.name)
                shown.append(gr.ChatMessage(content=reply or SKIP, metadata={"title": "Simulated user"}))
            yield out(shown + [status_message("Translating…")])
            dialogue.finish()
            sessions.drop(session_id)
            yield out(shown, transcript)
        except IntercptError as err:
            sessions.drop(session_id)
            yield out(shown + [gr.ChatMessage(content=f"⚠️ {err}")])
        except Exception as err:  # noqa: BLE001 - a failing backend must reach the person as a message
            sessions.drop(session_id)
            yield out(shown + [gr.ChatMessage(content=f"⚠️ The model backend failed: {type(err).__name__}: {err}")])

    def translate(text: str, target_lang: str, method: str = "intercpt", context: str = "",
                  answers: list[str] | None = None, max_questions: int = DEFAULT_MAX_QUESTIONS) -> dict:
        """Translate in one call, answering the questions with ``answers`` in order; returns the transcript."""
        user = HumanUser(scripted_then(answers or [], None))
        transcript = assistants["generalist"].run(text, target_lang, method=method, context=context or None,
                                                  user=user, max_questions=max_questions)
        return transcript.to_dict()

    def summarize(context: str, upload: str | None, lang: str, transcript: dict | None) -> str:
        return summarize_context(assistants["generalist"], context, upload, lang, transcript)

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
                    respond,
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
        transcript_view.change(show_context, inputs=transcript_view, outputs=context_view, api_visibility="private")
        summarize_button.click(summarize, inputs=[context, upload, lang, transcript_view], outputs=context_view,
                               api_visibility="private", concurrency_limit=concurrency)
        gr.api(translate, api_name="translate", concurrency_limit=concurrency)
    return demo
