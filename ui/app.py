"""The browser page (``Page``): its layout, and its events around ``ChatHandlers``, each reading the
page's state (the conversation, the session and the settings) as one ``PageState``.

Two columns on a desktop (source and conversation | translation) above the folded settings and
preferences; on a phone one column in that order, so the input, the question and the translation come
before the settings. The conversation, the preferences, the session id and the last
translation live in the browser (``gr.BrowserState``) and survive a reload; the dialogue state stays on
the server (``ui.sessions``), so a question open before the reload can still be answered while the
server keeps it, and shows no buttons once it is gone. Every box of the translation says which text it
translates, or is cleared with the chat (Undo). Stop cancels every event that runs the model, whichever
button started it.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import gradio as gr

from assistant.chain import METHODS, PROMPT_VARIANTS, Assistant, ChainOptions
from assistant.errors import InputError
from assistant.languages import LANGUAGES
from assistant.transcript import Turn

from .files import FileHandlers
from .handlers import ASK_EACH_TIME, REGISTERS, ChatHandlers, ChatOptions, View, preferences_markdown, read_upload
from .labels import model_display_name, option_label
from .messages import context_markdown, highlighted_source, result_message
from .panels import file_panel, glossary_panel
from .result_panel import MAX_ANSWER_ROWS, TOUCH, ResultPanel

UNSENT = object()  # a component this request has sent nothing to yet
GONE = ("_This question is no longer open: the server forgot it (an hour idle, or a restart). "
        "Press ↻ to ask it again._")
STYLESHEET = Path(__file__).with_name("page.css")  # what Gradio's components cannot be told; given at mount


def as_message(message: Any) -> dict:
    """A chat message as the dict the Chatbot keeps in the browser."""
    return {k: v for k, v in asdict(message).items() if v not in (None, {}, [])} if not isinstance(message, dict) \
        else message


def without_status(history: list) -> list:
    """The conversation without "Working" messages a cancelled request left behind."""
    return [m for m in history if (m.get("metadata") or {}).get("status") != "pending"]


def closed(history: list) -> list:
    """The conversation with no answer buttons: a question answered, replaced or forgotten takes none."""
    return [{k: v for k, v in m.items() if k != "options"} for m in history]


def clicked_label(history: list, value: Any) -> str:
    """The label of the answer button whose value was clicked (the value itself if none has it)."""
    return next((o.get("label", value) for m in reversed(history) for o in m.get("options") or []
                 if o.get("value", o.get("label")) == value), str(value))


def text_start(history: list, source: str | None, upto: int | None = None) -> int | None:
    """Where the newest message that sent ``source`` is (at or before ``upto``): a retry or an undo
    of an answer goes back to there, since the dialogue it answered is gone."""
    starts = [i for i, m in enumerate(history[:None if upto is None else upto + 1])
              if m.get("role") == "user" and message_text(m) == source]
    return starts[-1] if starts else None


def message_text(message: dict) -> str:
    """A chat message's text: the page sends its content as a list of parts, the handlers write a string."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content or [] if isinstance(part, dict))


@dataclass
class PageState:
    """What a request of the page brings: the conversation, the session and the settings as one object."""

    history: list
    session_id: str
    options: ChatOptions


class Settings:
    """The settings panel and the preferences: the components every request reads, as one ``ChatOptions``."""

    def __init__(self, lang: gr.Dropdown, server: ChainOptions, model_spec: str) -> None:
        self.server = server  # the assistant's: the page chooses the method, the questions, prompts, inclusive forms
        self.lang = lang
        with gr.Accordion("Settings", open=False, elem_id="settings"):
            self.method = gr.Radio(choices=list(METHODS), value=server.method, label="Method",
                                   info="intercpt asks first; with-context uses the context; no-extra uses nothing")
            self.max_questions = gr.Slider(0, MAX_ANSWER_ROWS, value=server.max_questions, step=1,
                                           label="Maximum questions")
            self.prompts = gr.Radio(choices=list(PROMPT_VARIANTS), value=server.prompts, label="Detection prompts")
            self.inclusive = gr.Checkbox(value=server.inclusive, label="Inclusive forms", elem_id="inclusive",
                                         info="also ask the gender of anyone of a kind (“any user”, “customers”); "
                                              "otherwise their generic form is kept")
            self.simulate = gr.Checkbox(value=False, label="Simulated user (answers from the context)")
            self.context = gr.Textbox(label="Context (optional)", lines=4,
                                      placeholder="Background the assistant may use: who is speaking to whom…")
            self.upload = gr.File(label="Context file (.txt, UTF-8, at most 200 KB)", file_types=[".txt"],
                                  type="filepath", elem_id="upload")
            self.upload_note = gr.Markdown(elem_id="upload-note")
            with gr.Accordion("What a model reads of the context", open=False):
                self.context_view = gr.Markdown(context_markdown(None), elem_id="context-view")
                self.summarize = gr.Button("Summarize it for me", size="sm", elem_classes=TOUCH)
            gr.Textbox(value=model_display_name(model_spec), label="Model", interactive=False)

    def preferences(self, files: FileHandlers, session: gr.State) -> None:
        """The preferences panel (applied without asking), with the glossary upload."""
        with gr.Accordion("Preferences", open=False, elem_id="preferences"):
            self.register = gr.Radio(choices=list(REGISTERS), value=ASK_EACH_TIME, label="Address people",
                                     info="formal or informal “you”, applied without asking", elem_id="register")
            self.people = gr.Textbox(label="People", lines=2, placeholder="Blair: a woman", elem_id="people",
                                     info="one a line: the gender to use for a named person")
            self.preferences_view = gr.Markdown(preferences_markdown(ASK_EACH_TIME, ""), elem_id="preferences-view")
            glossary_panel(files, session)

    @property
    def components(self) -> list:
        """In the order of ``ChatOptions.from_page``."""
        return [self.lang, self.method, self.max_questions, self.prompts, self.inclusive, self.simulate, self.context,
                self.upload, self.register, self.people]

    def read(self, values: dict) -> ChatOptions:
        """The request's settings from the values of an event whose inputs are a set of components."""
        return ChatOptions.from_page(self.server, *(values[c] for c in self.components))


class Page:
    """The app for one model: the layout, and each event as a method that takes the page's state
    (``PageState``) and returns the updates of the components it changes."""

    def __init__(self, assistant: Assistant, model_spec: str, concurrency: int = 1):
        self.handlers = ChatHandlers(assistant)
        self.files = FileHandlers(self.handlers)
        # Gradio keeps a copy of every file it serves; those older than a day go, checked hourly.
        with gr.Blocks(title="intercpt", delete_cache=(3600, 86400)) as self.demo:
            gr.Markdown("## intercpt — translation that asks before it guesses\n"
                        "Paste English text. When it is ambiguous for the target language, you get a question "
                        "first.")
            self.session = gr.State(None)
            self.saved_chat = gr.BrowserState([], storage_key="intercpt-conversation")
            self.saved_prefs = gr.BrowserState([ASK_EACH_TIME, ""], storage_key="intercpt-preferences")
            self.saved_page = gr.BrowserState({}, storage_key="intercpt-page")  # ChatHandlers.page_state
            self._lay_out(assistant, model_spec)
            self._wire(concurrency)

    def _lay_out(self, assistant: Assistant, model_spec: str) -> None:
        """Two columns (source and conversation | translation) above the folded settings and preferences."""
        with gr.Row(equal_height=False):
            with gr.Column(scale=1, min_width=320):
                self.text = gr.Textbox(label="English text", placeholder="English text to translate", lines=1,
                                       max_lines=8, elem_id="source-text")
                with gr.Row():
                    lang = gr.Dropdown(choices=[(name, code) for code, name in LANGUAGES.items()], value="fr",
                                       label="Translate into", min_width=120)
                    self.as_answer = gr.Checkbox(False, label="My message answers the question", visible=False,
                                                 elem_id="as-answer", min_width=120)
                with gr.Row():
                    self.send = gr.Button("Translate", variant="primary", elem_id="send", elem_classes=TOUCH)
                    self.stop = gr.Button("Stop", variant="stop", elem_id="stop", elem_classes=TOUCH)
                self.status = gr.Markdown(elem_id="status")
                self.question_source = gr.HighlightedText(label="The word in question", visible=False,
                                                          color_map={"in question": "orange"}, show_legend=False,
                                                          show_inline_category=False, elem_id="question-source")
                # Most of a phone's screen: a question shows whole with its answer buttons.
                self.chatbot = gr.Chatbot(label="Conversation", height="min(75vh, 640px)", elem_id="chat")
            with gr.Column(scale=1, min_width=320):
                self.result = ResultPanel()
        # Below both columns: on a phone the conversation and the translation come first.
        self.settings = Settings(lang, assistant.options, model_spec)
        self.settings.preferences(self.files, self.session)

    @property
    def state_inputs(self) -> set:
        """The components a ``PageState`` is read from."""
        return {self.chatbot, self.session, *self.settings.components}

    def state(self, values: dict) -> PageState:
        session_id = values[self.session] or uuid.uuid4().hex
        return PageState(values[self.chatbot], session_id, self.settings.read(values))

    def _wire(self, concurrency: int) -> None:
        handlers, result, s = self.handlers, self.result, self.settings
        run_outputs = [self.chatbot, self.text, self.as_answer, self.question_source, self.session, self.saved_chat,
                       self.saved_page, *result.parts]
        model_slot = {"concurrency_limit": concurrency, "concurrency_id": "model"}  # one queue for the model
        private = {"api_visibility": "private", **model_slot}
        runs = [
            self.text.submit(self.submit, self.state_inputs | {self.text, self.as_answer}, run_outputs, **private),
            self.send.click(self.submit, self.state_inputs | {self.text, self.as_answer}, run_outputs, **private),
            self.chatbot.option_select(self.pick, self.state_inputs, run_outputs, **private),
            self.chatbot.retry(self.retry, self.state_inputs, run_outputs, **private),
        ]
        runs += [button.click(partial(self.change, i), self.state_inputs | {choice}, run_outputs, **private)
                 for i, (button, choice) in enumerate(zip(result.row_changes, result.row_choices))]
        runs += file_panel(self.files, s.read, s.components, self.session, private)
        runs.append(s.summarize.click(handlers.summarize, inputs=[s.context, s.upload, s.lang, self.session],
                                      outputs=s.context_view, api_visibility="private", **model_slot))
        saved = [self.saved_chat, self.saved_page]
        for i, button in enumerate(result.card_uses):
            button.click(partial(self.use, i), [self.chatbot, self.session], [self.chatbot, *saved, *result.parts],
                         api_visibility="private")
        cleared = [*saved, self.question_source, self.as_answer, *result.parts]
        self.stop.click(self.stop_all, [self.chatbot, self.session], [self.chatbot, *cleared], cancels=runs,
                        queue=False, api_visibility="private")
        self.chatbot.clear(self.clear_all, [self.session], cleared, cancels=runs, api_visibility="private")
        self.chatbot.undo(self.undo_last, [self.chatbot, self.session], [self.chatbot, self.text, *cleared],
                          cancels=runs, api_visibility="private")
        gr.Timer(1.0).tick(handlers.activity, self.session, self.status, queue=False, show_progress="hidden",
                           api_visibility="private")
        s.upload.upload(check_upload, s.upload, [s.upload, s.upload_note], api_visibility="private")
        s.upload.clear(lambda: "", None, s.upload_note, api_visibility="private")
        for preference in (s.register, s.people):
            preference.change(lambda r, p: (preferences_markdown(r, p), [r, p]), [s.register, s.people],
                              [s.preferences_view, self.saved_prefs], api_visibility="private")
        self.demo.load(self.restore, [self.saved_chat, self.saved_prefs, self.saved_page],
                       [self.chatbot, s.register, s.people, self.session, *cleared], api_visibility="private")
        result.transcript.change(handlers.show_context, inputs=self.session, outputs=s.context_view,
                                 api_visibility="private")

        # The API of gradio_client callers: /chat (one message at a time) and /translate (one call).
        api_message = gr.Textbox(visible=False)
        api_chat = gr.Chatbot(visible=False)
        gr.Button(visible=False).click(
            self.chat, [api_message, s.lang, s.method, s.max_questions, s.prompts, s.simulate, s.context, s.upload,
                        self.session],
            [api_chat, result.translation, result.account, result.transcript, self.session], api_name="chat",
            **model_slot)
        gr.api(handlers.translate, api_name="translate", **model_slot)

    # -- what a request shows --------------------------------------------------------------------------
    def saved(self, chat: list, session_id: str | None) -> dict:
        """The conversation and the session as the browser keeps them for a reload."""
        return {self.saved_chat: chat, self.saved_page: self.handlers.page_state(session_id)}

    def question_panel(self, pending: Turn | None, source: str | None = None) -> dict:
        """The word in question and "My message answers the question": on screen only while a
        question is open."""
        marked = highlighted_source(source or "", pending.span, pending.start) if pending else None
        return {self.question_source: gr.update(visible=pending is not None, value=marked),
                self.as_answer: gr.update(visible=pending is not None, value=False)}

    def show(self, views: Iterator[View], history: list, session_id: str, asked: str | None,
             typed: str | None = None) -> Iterator[dict]:
        """Each view as the page's updates: the chat (earlier questions without their buttons), the
        streamed translation (the previous text's account and answers cleared as it starts), the
        question panel (gone from the request's first step, back with a question); the ``typed`` text
        leaves the input box as its request starts, so that the next text can be typed meanwhile, and
        comes back after an error."""
        base = closed(without_status(history)) + ([{"role": "user", "content": asked}] if asked else [])
        panel_for: Any = UNSENT  # the question the panel was sent for
        drafting = left_box = False
        for view in views:
            shown = view.messages + ([result_message(view.transcript)] if view.transcript else [])
            chat = base + [as_message(m) for m in shown]
            updates: dict = {self.chatbot: chat, self.session: session_id}
            if view.pending is not panel_for:
                updates |= self.question_panel(view.pending, view.source)
                panel_for = view.pending
            if view.draft is not None:
                if not drafting:
                    updates |= self.result.shown(None)
                    drafting = True
                updates |= self.result.drafting(view.draft, view.source)
            if typed is not None and (view.failed or not left_box):
                # once, as the request starts: a later update would wipe the next text typed meanwhile
                updates[self.text] = typed if view.failed else ""
                left_box = not view.failed
            if view.pending is not None or view.transcript is not None or view.failed:
                updates |= self.saved(chat, session_id)
            if view.transcript is not None:
                updates |= self.result.shown(view.transcript)
            yield updates

    # -- the events that run the model ------------------------------------------------------------------
    def submit(self, values: dict) -> Iterator[dict]:
        message = values[self.text]
        if not (message or "").strip():
            yield {self.text: gr.skip()}  # an empty submit is ignored
            return
        page = self.state(values)
        views = self.handlers.turn(message, page.options, page.session_id, as_answer=values[self.as_answer])
        yield from self.show(views, page.history, page.session_id, message.strip(), typed=message)

    def pick(self, evt: gr.SelectData, values: dict) -> Iterator[dict]:
        page = self.state(values)
        views = self.handlers.turn(str(evt.value), page.options, page.session_id, as_answer=True)
        yield from self.show(views, page.history, page.session_id, clicked_label(page.history, evt.value))

    def retry(self, values: dict) -> Iterator[dict]:
        page = self.state(values)
        source = self.handlers.sessions.get(page.session_id).source
        start = text_start(page.history, source)
        yield from self.show(self.handlers.retry(page.session_id, page.options),
                             page.history if start is None else page.history[:start], page.session_id, source)

    def change(self, index: int, values: dict) -> Iterator[dict]:
        page, choice = self.state(values), values[self.result.row_choices[index]]
        last = self.handlers.sessions.get(values[self.session]).last
        turn = last.turns[index] if last and index < len(last.turns) else None
        said = None if turn is None else \
            f"Change: “{turn.span}” → {option_label(turn.ambiguity, choice, last.target_lang)}"
        views = self.handlers.change_answer(values[self.session] or "", index, choice, page.options)
        yield from self.show(views, page.history, values[self.session], said)

    # -- the events that do not --------------------------------------------------------------------------
    def use(self, index: int, history: list, session_id: str | None) -> dict:
        chosen = self.handlers.use_alternative(session_id or "", index)
        if chosen is None:
            return {self.result.account: "_That alternative is gone: translate the text again._"}
        picked = {"role": "user", "content": f"Use this one: if {chosen.alternatives[index].assumption}"}
        chat = without_status(history) + [picked, as_message(result_message(chosen))]
        return {self.chatbot: chat, **self.saved(chat, session_id), **self.result.shown(chosen)}

    def stop_all(self, history: list, session_id: str | None) -> dict:
        """Stop: a half-written draft must not pass for a translation, so the box shows the last finished
        one, labelled with its own text."""
        note = self.handlers.stop(session_id)
        chat = closed(without_status(history)) + [{"role": "assistant", "content": note}]
        return {self.chatbot: chat, **self.saved(chat, session_id), **self.question_panel(None),
                **self.result.shown(self.handlers.sessions.get(session_id).last)}

    def clear_all(self, session_id: str | None) -> dict:
        self.handlers.clear(session_id)
        return {**self.saved([], session_id), **self.question_panel(None), **self.result.shown(None)}

    def undo_last(self, evt: gr.UndoData, history: list, session_id: str | None) -> dict:
        """Undo: the text goes back to the input box, its translation with it from every box."""
        source = self.handlers.sessions.get(session_id).source
        self.handlers.undo(session_id)
        start = text_start(history, source, evt.index)  # an answer is taken back with its text
        chat = history[:evt.index if start is None else start]
        return {self.chatbot: chat, **self.saved(chat, session_id),
                self.text: str(evt.value or "") if start is None else source, **self.question_panel(None),
                **self.result.shown(self.handlers.sessions.get(session_id).last)}

    def restore(self, chat: list | None, prefs: list | None, page: dict | None) -> dict:
        """A reloaded page as it was: the conversation, the preferences, the session and its last
        translation; a question the server no longer holds loses its buttons and says so."""
        session_id = (page or {}).get("session") or uuid.uuid4().hex
        kept = self.handlers.restore(session_id, (page or {}).get("source"), (page or {}).get("transcript"))
        chat, open_question = chat or [], kept.dialogue.pending if kept.dialogue else None
        if open_question is not None:
            chat = closed(chat[:-1]) + chat[-1:]
        elif chat and chat[-1].get("options"):
            chat = closed(chat) + [{"role": "assistant", "content": GONE}]
        register_value, people_value = prefs or [ASK_EACH_TIME, ""]
        return {self.chatbot: chat, self.settings.register: register_value, self.settings.people: people_value,
                self.session: session_id, **self.saved(chat, session_id),
                **self.question_panel(open_question, kept.source), **self.result.shown(kept.last)}

    def chat(self, message: str, *rest: Any) -> Iterator[tuple]:
        """``/chat`` for gradio_client callers."""
        yield from self.handlers.respond(message, [], *rest)


def check_upload(path: str | None) -> tuple[Any, str]:
    """An uploaded context file kept with its size, or dropped with the reason."""
    try:
        content = read_upload(path)
    except InputError as err:
        return None, f"⚠️ {err}"
    return path, f"✓ {len(content or ''):,} characters of context" if path else ""


def build_demo(assistant: Assistant, model_spec: str, concurrency: int = 1) -> gr.Blocks:
    """The app for one model; each request chooses its method, questions and prompts over the assistant's options."""
    return Page(assistant, model_spec, concurrency).demo
