"""The browser page: layout and event wiring around ``ChatHandlers``.

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
from dataclasses import asdict
from pathlib import Path
from typing import Any

import gradio as gr

from assistant.chain import DEFAULT_MAX_QUESTIONS, METHODS, PROMPT_VARIANTS, Assistant
from assistant.errors import InputError
from assistant.languages import LANGUAGES
from assistant.transcript import Transcript, Turn

from .files import FileHandlers
from .handlers import ASK_EACH_TIME, REGISTERS, ChatHandlers, ChatOptions, View, preferences_markdown, read_upload
from .labels import SKIP, answer_options, model_display_name, option_label
from .messages import (account_markdown, checks_markdown, context_markdown, highlighted_source, result_message,
                       translation_label, variants_note)
from .panels import file_panel, glossary_panel

MAX_ALTERNATIVES = 2   # the chain offers the first two options of a skipped question
MAX_ANSWER_ROWS = 5    # the settings allow at most 5 questions
WHO_ANSWERED = {"human": "your answer", "none": "skipped", "simulated": "the simulated user",
                "setting": "your setting", "picked": "the card you picked"}
UNSENT = object()  # a component this request has sent nothing to yet
GONE = ("_This question is no longer open: the server forgot it (an hour idle, or a restart). "
        "Press ↻ to ask it again._")
STYLESHEET = Path(__file__).with_name("page.css")  # what Gradio's components cannot be told; given at mount
TOUCH = ["touch-target"]  # a button at least 44 px tall on a phone (page.css)


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


def build_demo(assistant: Assistant, model_spec: str, concurrency: int = 1) -> gr.Blocks:
    """The app for one model; each request chooses its method, questions and prompts over the assistant's options."""
    handlers = ChatHandlers(assistant)
    files = FileHandlers(handlers)
    with gr.Blocks(title="intercpt") as demo:
        gr.Markdown("## intercpt — translation that asks before it guesses\n"
                    "Paste English text. When it is ambiguous for the target language, you get a question first.")
        session = gr.State(None)
        saved_chat = gr.BrowserState([], storage_key="intercpt-conversation")
        saved_prefs = gr.BrowserState([ASK_EACH_TIME, ""], storage_key="intercpt-preferences")
        saved_page = gr.BrowserState({}, storage_key="intercpt-page")  # ChatHandlers.page_state
        with gr.Row(equal_height=False):
            with gr.Column(scale=1, min_width=320):
                text = gr.Textbox(label="English text", placeholder="English text to translate", lines=1,
                                  max_lines=8, elem_id="source-text")
                with gr.Row():
                    lang = gr.Dropdown(choices=[(name, code) for code, name in LANGUAGES.items()], value="fr",
                                       label="Translate into", min_width=120)
                    as_answer = gr.Checkbox(False, label="My message answers the question", visible=False,
                                            elem_id="as-answer", min_width=120)
                with gr.Row():
                    send = gr.Button("Translate", variant="primary", elem_id="send", elem_classes=TOUCH)
                    stop = gr.Button("Stop", variant="stop", elem_id="stop", elem_classes=TOUCH)
                status = gr.Markdown(elem_id="status")
                question_source = gr.HighlightedText(label="The word in question", visible=False,
                                                     color_map={"in question": "orange"}, show_legend=False,
                                                     show_inline_category=False,
                                                     elem_id="question-source")
                # Most of a phone's screen: a question shows whole with its answer buttons.
                chatbot = gr.Chatbot(label="Conversation", height="min(75vh, 640px)", elem_id="chat")
            with gr.Column(scale=1, min_width=320):
                translation = gr.Textbox(label="Translation", buttons=["copy"], interactive=False, lines=3,
                                         elem_id="translation")
                translation_note = gr.Markdown(elem_id="translation-note")
                account = gr.Markdown(elem_id="account")
                cards, card_texts, card_uses, card_notes = [], [], [], []
                for i in range(MAX_ALTERNATIVES):
                    with gr.Group(visible=False, elem_id=f"alternative-{i}") as card:
                        card_texts.append(gr.Textbox(buttons=["copy"], interactive=False))  # the label: its option
                        card_notes.append(gr.Markdown())
                        card_uses.append(gr.Button("Use this one", size="sm", elem_id=f"use-{i}",
                                                   elem_classes=TOUCH))
                    cards.append(card)
                rows, row_notes, row_choices, row_changes = [], [], [], []
                for i in range(MAX_ANSWER_ROWS):
                    # The answer above its menu: the menu as wide as the column, so no answer's label is cut.
                    with gr.Column(visible=False, elem_id=f"answer-{i}", variant="panel") as row:
                        row_notes.append(gr.Markdown())
                        with gr.Row(equal_height=True):
                            row_choices.append(gr.Dropdown(allow_custom_value=True, show_label=False, container=False,
                                                           scale=3, min_width=300, elem_id=f"answer-choice-{i}"))
                            row_changes.append(gr.Button("Change answer", size="sm", scale=1, min_width=120,
                                                         elem_id=f"change-{i}", elem_classes=TOUCH))
                    rows.append(row)
                with gr.Accordion("Transcript (JSON)", open=False):
                    transcript_view = gr.JSON(label="Transcript")
        # Below both columns: on a phone the conversation and the translation come first.
        with gr.Accordion("Settings", open=False, elem_id="settings"):
            method = gr.Radio(choices=list(METHODS), value="intercpt", label="Method",
                              info="intercpt asks first; with-context uses the context; no-extra uses nothing")
            max_questions = gr.Slider(0, MAX_ANSWER_ROWS, value=DEFAULT_MAX_QUESTIONS, step=1,
                                      label="Maximum questions")
            prompts = gr.Radio(choices=list(PROMPT_VARIANTS), value="generalist", label="Detection prompts")
            simulate = gr.Checkbox(value=False, label="Simulated user (answers from the context)")
            context = gr.Textbox(label="Context (optional)", lines=4,
                                 placeholder="Background the assistant may use: who is speaking to whom…")
            upload = gr.File(label="Context file (.txt, UTF-8, at most 200 KB)", file_types=[".txt"],
                             type="filepath", elem_id="upload")
            upload_note = gr.Markdown(elem_id="upload-note")
            with gr.Accordion("What a model reads of the context", open=False):
                context_view = gr.Markdown(context_markdown(None), elem_id="context-view")
                summarize_button = gr.Button("Summarize it for me", size="sm", elem_classes=TOUCH)
            gr.Textbox(value=model_display_name(model_spec), label="Model", interactive=False)
        with gr.Accordion("Preferences", open=False, elem_id="preferences"):
            register = gr.Radio(choices=list(REGISTERS), value=ASK_EACH_TIME, label="Address people",
                                info="formal or informal “you”, applied without asking", elem_id="register")
            people = gr.Textbox(label="People", lines=2, placeholder="Blair: a woman", elem_id="people",
                                info="one a line: the gender to use for a named person")
            preferences_view = gr.Markdown(preferences_markdown(ASK_EACH_TIME, ""), elem_id="preferences-view")
            glossary_panel(files, session)
        settings = [lang, method, max_questions, prompts, simulate, context, upload, register, people]
        result_parts = [translation_note, *cards, *card_notes, *card_texts, *rows, *row_notes, *row_choices]
        shown_parts = [translation, account, transcript_view, *result_parts]  # what ``shown_result`` updates
        run_outputs = [chatbot, text, as_answer, question_source, session, saved_chat, saved_page, *shown_parts]

        def result_updates(t: Transcript | None) -> dict:
            """The alternative cards, what the translation box holds beside them, and the answered questions
            of a finished translation (hidden without one)."""
            updates: dict = {translation_note: variants_note(t)}
            alternatives = t.alternatives if t else []
            for i in range(MAX_ALTERNATIVES):
                alt = alternatives[i] if i < len(alternatives) else None
                updates[cards[i]] = gr.update(visible=alt is not None)
                updates[card_notes[i]] = checks_markdown(alt.checks, t.target_lang) if alt else ""
                updates[card_texts[i]] = gr.update(value=alt.translation, label=f"If {alt.assumption}") if alt else ""
            turns = t.turns if t else []
            for i in range(MAX_ANSWER_ROWS):
                turn = turns[i] if i < len(turns) else None
                updates[rows[i]] = gr.update(visible=turn is not None)
                if turn is None:
                    continue
                who = WHO_ANSWERED.get(turn.answered_by, turn.answered_by)
                updates[row_notes[i]] = f"“{turn.span}” → **{turn.answer or 'not answered'}** ({who})"
                updates[row_choices[i]] = gr.update(choices=answer_options(turn.ambiguity, turn.options, t.target_lang),
                                                    value=turn.answer or SKIP)
            return updates

        def shown_result(t: Transcript | None) -> dict:
            """The translation box, labelled with the text it translates, its account, cards and answered
            questions: those of ``t``, or cleared."""
            return {translation: gr.update(value=t.translation if t else "", label=translation_label(t)),
                    account: account_markdown(t) if t else "", transcript_view: t.to_dict() if t else None,
                    **result_updates(t)}

        def saved(chat: list, session_id: str | None) -> dict:
            """The conversation and the session as the browser keeps them for a reload."""
            return {saved_chat: chat, saved_page: handlers.page_state(session_id)}

        def question_panel(pending: Turn | None, source: str | None = None) -> dict:
            """The word in question and "My message answers the question": on screen only while a
            question is open."""
            marked = highlighted_source(source or "", pending.span, pending.start) if pending else None
            return {question_source: gr.update(visible=pending is not None, value=marked),
                    as_answer: gr.update(visible=pending is not None, value=False)}

        def show(views: Iterator[View], history: list, session_id: str, asked: str | None,
                 typed: str | None = None) -> Iterator[dict]:
            """Each view as the page's updates: the chat (earlier questions without their buttons), the
            streamed translation (the previous text's account and answers cleared as it starts), the
            question panel (gone from the request's first step, back with a question); the ``typed`` text
            leaves the input box once its request succeeded, and stays after an error."""
            base = closed(without_status(history)) + ([{"role": "user", "content": asked}] if asked else [])
            panel_for: Any = UNSENT  # the question the panel was sent for
            drafting = False
            for view in views:
                shown = view.messages + ([result_message(view.transcript)] if view.transcript else [])
                chat = base + [as_message(m) for m in shown]
                updates: dict = {chatbot: chat, session: session_id}
                if view.pending is not panel_for:
                    updates |= question_panel(view.pending, view.source)
                    panel_for = view.pending
                if view.draft is not None:
                    if not drafting:
                        updates |= shown_result(None)
                        drafting = True
                    updates[translation] = gr.update(value=view.draft, label=translation_label(view.source))
                if view.pending is not None or view.transcript is not None or view.failed:
                    if typed is not None:
                        updates[text] = typed if view.failed else ""
                    updates |= saved(chat, session_id)
                if view.transcript is not None:
                    updates |= shown_result(view.transcript)
                yield updates

        def submit(message: str, answer: bool, history: list, *values: Any) -> Iterator[dict]:
            *options, session_id = values
            if not (message or "").strip():
                yield {text: gr.skip()}  # an empty submit is ignored
                return
            session_id = session_id or uuid.uuid4().hex
            views = handlers.turn(message, ChatOptions.from_page(assistant.options, *options), session_id,
                                  as_answer=answer)
            yield from show(views, history, session_id, message.strip(), typed=message)

        def pick(evt: gr.SelectData, history: list, lang: str, method: str, max_questions: float, prompts: str,
                 simulate: bool, context: str, upload: str | None, register: str, people: str,
                 session_id: str | None) -> Iterator[dict]:
            session_id = session_id or uuid.uuid4().hex
            chat_options = ChatOptions.from_page(assistant.options, lang, method, max_questions, prompts, simulate,
                                                 context, upload, register, people)
            views = handlers.turn(str(evt.value), chat_options, session_id, as_answer=True)
            yield from show(views, history, session_id, clicked_label(history, evt.value))

        def retry(history: list, lang: str, method: str, max_questions: float, prompts: str, simulate: bool,
                  context: str, upload: str | None, register: str, people: str, session_id: str | None
                  ) -> Iterator[dict]:
            session_id = session_id or uuid.uuid4().hex
            source = handlers.sessions.get(session_id).source
            start = text_start(history, source)
            options = ChatOptions.from_page(assistant.options, lang, method, max_questions, prompts, simulate,
                                            context, upload, register, people)
            yield from show(handlers.retry(session_id, options), history if start is None else history[:start],
                            session_id, source)

        def change(index: int):
            def run(choice: str, history: list, *values: Any) -> Iterator[dict]:
                *options, session_id = values
                last = handlers.sessions.get(session_id).last
                turn = last.turns[index] if last and index < len(last.turns) else None
                said = None if turn is None else \
                    f"Change: “{turn.span}” → {option_label(turn.ambiguity, choice, last.target_lang)}"
                views = handlers.change_answer(session_id or "", index, choice,
                                               ChatOptions.from_page(assistant.options, *options))
                yield from show(views, history, session_id, said)
            return run

        def use(index: int):
            def run(history: list, session_id: str | None) -> dict:
                chosen = handlers.use_alternative(session_id or "", index)
                if chosen is None:
                    return {account: "_That alternative is gone: translate the text again._"}
                picked = {"role": "user", "content": f"Use this one: if {chosen.alternatives[index].assumption}"}
                chat = without_status(history) + [picked, as_message(result_message(chosen))]
                return {chatbot: chat, **saved(chat, session_id), **shown_result(chosen)}
            return run

        def stop_all(history: list, session_id: str | None) -> dict:
            """Stop: a half-written draft must not pass for a translation, so the box shows the last finished
            one, labelled with its own text."""
            note = handlers.stop(session_id)
            chat = closed(without_status(history)) + [{"role": "assistant", "content": note}]
            return {chatbot: chat, **saved(chat, session_id), **question_panel(None),
                    **shown_result(handlers.sessions.get(session_id).last)}

        def clear_all(session_id: str | None) -> dict:
            handlers.clear(session_id)
            return {**saved([], session_id), **question_panel(None), **shown_result(None)}

        def undo_last(evt: gr.UndoData, history: list, session_id: str | None) -> dict:
            """Undo: the text goes back to the input box, its translation with it from every box."""
            source = handlers.sessions.get(session_id).source
            handlers.undo(session_id)
            start = text_start(history, source, evt.index)  # an answer is taken back with its text
            chat = history[:evt.index if start is None else start]
            return {chatbot: chat, **saved(chat, session_id), text: str(evt.value or "") if start is None else source,
                    **question_panel(None), **shown_result(handlers.sessions.get(session_id).last)}

        def restore(chat: list | None, prefs: list | None, page: dict | None) -> dict:
            """A reloaded page as it was: the conversation, the preferences, the session and its last
            translation; a question the server no longer holds loses its buttons and says so."""
            session_id = (page or {}).get("session") or uuid.uuid4().hex
            kept = handlers.restore(session_id, (page or {}).get("source"), (page or {}).get("transcript"))
            chat, open_question = chat or [], kept.dialogue.pending if kept.dialogue else None
            if open_question is not None:
                chat = closed(chat[:-1]) + chat[-1:]
            elif chat and chat[-1].get("options"):
                chat = closed(chat) + [{"role": "assistant", "content": GONE}]
            register_value, people_value = prefs or [ASK_EACH_TIME, ""]
            return {chatbot: chat, register: register_value, people: people_value, session: session_id,
                    **saved(chat, session_id), **question_panel(open_question, kept.source),
                    **shown_result(kept.last)}

        def check_upload(path: str | None) -> tuple[Any, str]:
            try:
                content = read_upload(path)
            except InputError as err:
                return None, f"⚠️ {err}"
            return path, f"✓ {len(content or ''):,} characters of context" if path else ""

        model_slot = {"concurrency_limit": concurrency, "concurrency_id": "model"}  # one queue for the model
        private = {"api_visibility": "private", **model_slot}
        runs = [
            text.submit(submit, [text, as_answer, chatbot, *settings, session], run_outputs, **private),
            send.click(submit, [text, as_answer, chatbot, *settings, session], run_outputs, **private),
            chatbot.option_select(pick, [chatbot, *settings, session], run_outputs, **private),
            chatbot.retry(retry, [chatbot, *settings, session], run_outputs, **private),
        ]
        runs += [button.click(change(i), [choice, chatbot, *settings, session], run_outputs, **private)
                 for i, (button, choice) in enumerate(zip(row_changes, row_choices))]
        runs.append(file_panel(files, settings, session, private))
        runs.append(summarize_button.click(handlers.summarize, inputs=[context, upload, lang, session],
                                           outputs=context_view, api_visibility="private", **model_slot))
        for i, button in enumerate(card_uses):
            button.click(use(i), [chatbot, session], [chatbot, saved_chat, saved_page, *shown_parts],
                         api_visibility="private")
        stop.click(stop_all, [chatbot, session], [chatbot, saved_chat, saved_page, question_source, as_answer,
                                                  *shown_parts], cancels=runs, queue=False, api_visibility="private")
        chatbot.clear(clear_all, [session], [saved_chat, saved_page, question_source, as_answer, *shown_parts],
                      cancels=runs, api_visibility="private")
        chatbot.undo(undo_last, [chatbot, session], [chatbot, saved_chat, saved_page, text, question_source, as_answer,
                                                     *shown_parts], cancels=runs, api_visibility="private")
        gr.Timer(1.0).tick(handlers.activity, session, status, queue=False, show_progress="hidden",
                           api_visibility="private")
        upload.upload(check_upload, upload, [upload, upload_note], api_visibility="private")
        upload.clear(lambda: "", None, upload_note, api_visibility="private")
        for preference in (register, people):
            preference.change(lambda r, p: (preferences_markdown(r, p), [r, p]), [register, people],
                              [preferences_view, saved_prefs], api_visibility="private")
        demo.load(restore, [saved_chat, saved_prefs, saved_page],
                  [chatbot, register, people, session, saved_chat, saved_page, question_source, as_answer,
                   *shown_parts], api_visibility="private")
        transcript_view.change(handlers.show_context, inputs=session, outputs=context_view, api_visibility="private")

        # The API of gradio_client callers: /chat (one message at a time) and /translate (one call).
        api_message = gr.Textbox(visible=False)
        api_chat = gr.Chatbot(visible=False)
        def chat(message: str, *rest: Any) -> Iterator[tuple]:
            yield from handlers.respond(message, [], *rest)

        gr.Button(visible=False).click(
            chat, [api_message, lang, method, max_questions, prompts, simulate, context, upload, session],
            [api_chat, translation, account, transcript_view, session], api_name="chat", **model_slot)
        gr.api(handlers.translate, api_name="translate", **model_slot)
    return demo
