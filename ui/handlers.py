"""What the page's events call, apart from the layout so that they can be tested on a fake model.

Every step is the assistant's ``Dialogue`` (driven by ``Dialogue.drive``, as the CLI drives it);
the handlers turn steps into ``View``s (the messages of this request, the streamed draft, the
finished transcript) and keep each session's state in the ``SessionStore``.

When is a message an answer? Only when it clearly is: an answer button (its option value, or
"skip"), a reply the page marks as an answer (``as_answer``), or text starting with "answer:".
Anything else is a new text and starts a new dialogue, even with a question pending.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import gradio as gr

from assistant.ambiguity import PERSON, REGISTER, preset_types
from assistant.chain import DEFAULT_MAX_QUESTIONS, Assistant, ChainOptions, scripted_then
from assistant.context.abstract import Summarizer
from assistant.context.sentences import MAX_CONTEXT_CHARS
from assistant.dialogue import Dialogue, PreferenceMemory
from assistant.errors import InputError
from assistant.transcript import Transcript, Turn

from .file_store import FileStore
from .labels import SKIP, SKIP_LABEL, option_label
from .messages import (account_markdown, context_markdown, describe_error, error_message, question_message,
                       result_message, status_message)
from .sessions import Session, SessionStore

MAX_UPLOAD_BYTES = 200_000
ANSWER_PREFIX = "answer:"
ASK_EACH_TIME = "ask me"
REGISTERS = (ASK_EACH_TIME, "formal", "informal")
SETTING = "setting"  # who answered a question that a preference of the page's settings settled
PICKED = "picked"  # who answered a skipped question whose variant card was used
NO_OPEN_QUESTION = ("That question is no longer open (it was answered, stopped, cleared, or the session expired "
                    "after an hour idle). Nothing was translated: send your text again.")
CHECKING = "Checking the translation…"
STOPPED = "Stopped. Nothing is waiting for an answer: type a new text, or press ↻ to run the last one again."
REPLACED = "_“{source}” is left untranslated: its question is closed, and this text replaces it._"
_PERSON_LINE = re.compile(r"^\s*(?P<name>[^:=]+?)\s*[:=]\s*(?:an?\s+)?(?P<gender>man|woman|male|female)\s*$", re.I)


@dataclass(frozen=True)
class ChatOptions:
    """One request's settings, as the page's settings panel and preferences give them: the chain's
    options (the server's, with the method, questions, prompts and inclusive forms the page chose) and the
    page's own."""

    lang: str = "fr"
    chain: ChainOptions = ChainOptions()
    simulate: bool = False
    context: str = ""
    upload: str | None = None
    register: str = ASK_EACH_TIME
    people: str = ""

    @classmethod
    def from_page(cls, server: ChainOptions, lang: str, method: str, max_questions: float, prompts: str,
                  inclusive: bool, simulate: bool, context: str | None, upload: str | None, register: str | None,
                  people: str | None) -> "ChatOptions":
        """The settings as the page's components give them (a slider's float, an empty box's None), over
        the ``server``'s chain options."""
        chain = replace(server, method=method, max_questions=int(max_questions), prompts=prompts,
                        inclusive=bool(inclusive))
        return cls(lang, chain, bool(simulate), context or "", upload, register or ASK_EACH_TIME, people or "")


@dataclass
class View:
    """What one step of a request shows: its messages so far, the draft translation while it
    streams, the pending question or the finished transcript, and whether it failed."""

    messages: list[gr.ChatMessage] = field(default_factory=list)
    draft: str | None = None
    pending: Turn | None = None
    source: str | None = None
    transcript: Transcript | None = None
    failed: bool = False


def read_upload(upload: str | None) -> str | None:
    """An uploaded context file's text: a UTF-8 .txt file of at most 200 KB, or a clear error."""
    if not upload:
        return None
    path = Path(upload)
    if path.suffix.lower() != ".txt":
        raise InputError(f"“{path.name}” is not a .txt file; upload plain text")
    if path.stat().st_size > MAX_UPLOAD_BYTES:
        raise InputError(f"“{path.name}” is larger than {MAX_UPLOAD_BYTES // 1000} KB")
    try:
        text = path.read_text(encoding="utf-8").strip()
    except UnicodeDecodeError:
        raise InputError(f"“{path.name}” is not UTF-8 text; save it as UTF-8 and upload it again") from None
    if "\x00" in text:
        raise InputError(f"“{path.name}” is not text")
    return text


def read_context(context: str | None, upload: str | None) -> str | None:
    """The context box and an uploaded .txt file, joined; bounded in size."""
    parts = [context.strip()] if context and context.strip() else []
    parts.append(read_upload(upload) or "")
    text = "\n\n".join(p for p in parts if p)
    if len(text) > MAX_CONTEXT_CHARS:
        raise InputError(f"the context has {len(text)} characters; the limit is {MAX_CONTEXT_CHARS}")
    return text or None


def preferences_from(register: str, people: str) -> PreferenceMemory:
    """The settings panel's preferences as the chain's memory: applied without asking."""
    memory = PreferenceMemory(every_answer=True)
    if register not in REGISTERS:
        raise InputError(f"the register preference must be one of: {', '.join(REGISTERS)}")
    if register != ASK_EACH_TIME:
        for ambiguity_type in preset_types(REGISTER):
            memory.remember(Turn(ambiguity_type.name, "you", "Formal or informal “you”?",
                                 ["formal", "informal", "generic"]), register)
    for line in filter(str.strip, (people or "").splitlines()):
        match = _PERSON_LINE.match(line)
        if match is None:
            raise InputError(f"cannot read the person “{line.strip()}”: write one a line, as “Blair: a woman”")
        gender = "a woman" if match["gender"].lower() in ("woman", "female") else "a man"
        for ambiguity_type in preset_types(PERSON):
            memory.remember(Turn(ambiguity_type.name, match["name"], f"Is {match['name']} a man or a woman?",
                                 ["a man", "a woman"]), gender)
    return memory


def preferences_markdown(register: str, people: str) -> str:
    """The preferences in force, as the settings panel lists them."""
    try:
        memory = preferences_from(register, people)
    except InputError as err:
        return f"⚠️ {err}"
    # a person is remembered once per type that asks about people: listed once
    lines = list(dict.fromkeys(f"- {turn.span} → {turn.answer}" for turn in memory.answered.values()))
    if not lines:
        return "_No preferences: every question is asked._"
    return "**Applied without asking:**\n" + "\n".join(lines)


def is_clear_answer(text: str, pending: Turn, lang: str) -> bool:
    """True when ``text`` is one of the pending question's buttons (its value or its label) or skip."""
    said = text.strip().lower()
    choices = {SKIP, SKIP_LABEL} | {o.lower() for o in pending.options}
    choices |= {option_label(pending.ambiguity, o, lang).lower() for o in pending.options}
    return said in choices


class ChatHandlers:
    """The chat request, the one-call translation, stop/clear/undo, change an answer, use an
    alternative, and the context panel; each keyed by a session id."""

    def __init__(self, assistant: Assistant, sessions: SessionStore | None = None, files: FileStore | None = None):
        self.assistant = assistant
        self.sessions = sessions or SessionStore()
        self.files = files or FileStore()  # the translated files and profiles the page hands out

    # -- the chat request ------------------------------------------------------------------
    def turn(self, message: str, options: ChatOptions, session_id: str, *, as_answer: bool = False
             ) -> Iterator[View]:
        """A new text, or the answer to the pending question: the dialogue as far as it goes."""
        session = self.sessions.get(session_id)
        run = session.begin()
        try:
            text = (message or "").strip()
            if text.lower().startswith(ANSWER_PREFIX):
                as_answer, text = True, text[len(ANSWER_PREFIX):].strip()
            pending, session.dialogue = session.dialogue, None
            question = pending.pending if pending is not None else None
            notes = []
            if as_answer or text.lower() in (SKIP, SKIP_LABEL) or (
                    question is not None and is_clear_answer(text, question, options.lang)):
                if question is None:
                    yield View([error_message(NO_OPEN_QUESTION)], failed=True)
                    return
                pending.answer(None if text.lower() in (SKIP, SKIP_LABEL) else text, "human")
                dialogue = pending
            else:
                if question is not None:  # the text whose question was open is dropped: the chat says so
                    notes.append(gr.ChatMessage(content=REPLACED.format(source=pending.transcript.source)))
                session.source = text
                dialogue = self.assistant.start(
                    text, options.lang, options.chain, context=read_context(options.context, options.upload),
                    preferences=preferences_from(options.register, options.people),
                    glossary=session.glossary_for(options.lang))
            yield from self._drive(session, run, dialogue, options, notes)
        except Exception as err:  # noqa: BLE001 - every failure reaches the person as a short message
            yield View([error_message(describe_error(err))], failed=True)

    def change_answer(self, session_id: str, index: int, answer: str | None, options: ChatOptions) -> Iterator[View]:
        """Translate the last text again with answer ``index`` changed, asking nothing already known."""
        session = self.sessions.get(session_id)
        last = session.last
        if last is None or not 0 <= index < len(last.turns):
            yield View([error_message("There is no answer to change: translate a text first.")], failed=True)
            return
        run = session.begin()
        try:
            turns = [replace(turn) for turn in last.turns]
            reply = answer.strip() if answer and answer.strip() and answer.strip().lower() != SKIP else None
            turns[index] = replace(turns[index], answer=reply, answered_by="human" if reply else "none")
            dialogue = self.assistant.start(last.source, last.target_lang,
                                            replace(options.chain, method=last.method, max_questions=0),
                                            context=last.context, glossary=session.glossary_for(last.target_lang))
            dialogue.transcript.turns = turns
            yield from self._drive(session, run, dialogue, replace(options, simulate=False))
        except Exception as err:  # noqa: BLE001
            yield View([error_message(describe_error(err))], failed=True)

    def use_alternative(self, session_id: str, index: int) -> Transcript | None:
        """Make alternative ``index`` of the last translation the translation, its assumption the answer
        (given by the card picked: the person said nothing)."""
        last = self.sessions.get(session_id).last
        if last is None or not 0 <= index < len(last.alternatives):
            return None
        alternative = last.alternatives[index]
        chosen = Transcript.from_dict(last.to_dict())
        for turn in chosen.turns:
            option = next((o for o in turn.options if f"{turn.span} → {o}" == alternative.assumption), None)
            if option is not None:
                turn.answer, turn.answered_by = option, PICKED
                break
        chosen.translation, chosen.checks = alternative.translation, list(alternative.checks)
        chosen.alternatives = last.alternatives
        self.sessions.get(session_id).last = chosen
        return chosen

    def stop(self, session_id: str | None) -> str:
        """Stop whatever runs; nothing stays pending."""
        self.sessions.get(session_id).reset()
        return STOPPED

    def clear(self, session_id: str | None) -> None:
        """Forget the conversation: the pending question and the last translation."""
        session = self.sessions.get(session_id)
        session.reset()
        session.last = None

    def retry(self, session_id: str, options: ChatOptions) -> Iterator[View]:
        """Run the newest text again from the start (a question it had pending is dropped)."""
        session = self.sessions.get(session_id)
        if not session.source:
            yield View([error_message("There is no text to run again: type one.")], failed=True)
            return
        yield from self.turn(session.source, options, session_id)

    def undo(self, session_id: str | None) -> None:
        """Take back the last text: its pending question goes, and so does its translation, which no box
        may show once the chat no longer has it (the text returns to the input box)."""
        session = self.sessions.get(session_id)
        session.reset()
        if session.last is not None and session.last.source == session.source:
            session.last = None

    def restore(self, session_id: str, source: str | None, transcript: dict | None) -> Session:
        """The session of a reloaded page: the server's own while it keeps it (an open question can still
        be answered); once it expired, the last text and translation the browser kept, so that ↻ and
        Change answer work on them (a question it had open is gone with the dialogue)."""
        session = self.sessions.get(session_id)
        if session.source is None and session.last is None:
            session.source = source
            session.last = Transcript.from_dict(transcript) if transcript else None
        return session

    def page_state(self, session_id: str | None) -> dict:
        """What the browser keeps of a session for ``restore``: its id, its last text and translation."""
        session = self.sessions.get(session_id)
        return {"session": session_id, "source": session.source,
                "transcript": session.last.to_dict() if session.last else None}

    def _drive(self, session: Session, run: int, dialogue: Dialogue, options: ChatOptions,
               notes: list[gr.ChatMessage] | None = None) -> Iterator[View]:
        """Drive ``dialogue`` and report each step with its elapsed time, after ``notes``; a superseded run
        (Stop, Clear, a newer text) stops at its next step and leaves the session as the newer one set it."""
        transcript = dialogue.transcript
        user = None
        if options.simulate:
            user = self.assistant.user("simulated", options.lang, options.chain, context=transcript.context)
        shown: list[gr.ChatMessage] = list(notes or [])
        doing: list = []  # (what, since): the step that runs now

        def now_doing(what: str, draft: str | None = None) -> View:
            if not doing or doing[0][0] != what:
                doing[:] = [(what, time.monotonic())]
                session.doing(what)
            status = status_message(what, time.monotonic() - doing[0][1])
            return View(shown + [status], source=transcript.source, draft=draft)

        try:
            yield now_doing("Looking for ambiguities…")
            draft = ""
            for step in dialogue.drive(user):
                if not session.current(run):
                    return
                if step.kind == "asked" and user is None:
                    session.dialogue = dialogue
                    yield View(shown + [question_message(step.turn, transcript.target_lang)], pending=step.turn,
                               source=transcript.source)
                    return
                if step.kind == "asked":
                    shown.append(gr.ChatMessage(content=step.turn.question,
                                                metadata={"title": f"Question about “{step.turn.span}”"}))
                    yield now_doing("The simulated user is answering…")
                elif step.kind == "answered" and user is not None:
                    shown.append(gr.ChatMessage(content=step.turn.answer or SKIP, metadata={"title": "Simulated user"}))
                elif step.kind in ("translating", "token"):
                    draft += step.text
                    yield now_doing("Translating…", draft)
                elif step.kind == "checking":
                    yield now_doing(CHECKING, draft)
                elif step.kind == "repairing":  # the draft stays in its box until the repaired text replaces it
                    yield now_doing(f"{step.text}…", draft)
            if not session.current(run):
                return
            for turn in transcript.turns:
                if turn.answered_by == "preference":  # the page's memory holds only the settings panel's answers
                    turn.answered_by = SETTING
            session.last = transcript
            yield View(shown, source=transcript.source, transcript=transcript)
            yield from self._offer_alternatives(session, run, dialogue, shown)
        finally:
            if session.current(run):
                session.doing(None)

    @staticmethod
    def _offer_alternatives(session: Session, run: int, dialogue: Dialogue, shown: list) -> Iterator[View]:
        """After the translation is on screen, the translation under each option of a skipped question,
        one card at a time; Stop, Clear or a newer text ends it between two."""
        if dialogue.skipped_question() is None:
            return
        session.doing("Translating under each option…")
        alternatives = dialogue.alternatives()
        while session.current(run) and next(alternatives, None) is not None:
            yield View(shown, source=dialogue.transcript.source, transcript=dialogue.transcript)

    def activity(self, session_id: str | None) -> str:
        """What the session's request is doing and for how long (the page's status line ticks with it)."""
        session = self.sessions.peek(session_id)
        return session.activity_text() if session else ""

    # -- the API (gradio_client) ------------------------------------------------------------
    def respond(self, message: str, history: list, lang: str, method: str, max_questions: float, prompts: str,
                simulate: bool, context: str, upload: str | None, session_id: str | None
                ) -> Iterator[tuple[Any, ...]]:
        """``/chat``: the messages of this request, the translation (streamed), the account, the
        transcript and the session id."""
        session_id = session_id or uuid.uuid4().hex
        try:
            options = ChatOptions.from_page(self.assistant.options, lang, method, max_questions, prompts,
                                            self.assistant.options.inclusive, simulate, context, upload, None, None)
        except InputError as err:
            yield api_outputs(View([error_message(describe_error(err))], failed=True), session_id)
            return
        for view in self.turn(message, options, session_id):
            yield api_outputs(view, session_id)

    def translate(self, text: str, target_lang: str, method: str = "intercpt", context: str = "",
                  answers: list[str] | None = None, max_questions: int = DEFAULT_MAX_QUESTIONS,
                  alternatives: bool = False) -> dict:
        """Translate in one call, answering the questions with ``answers`` in order; returns the transcript
        (with ``alternatives``, also the translations under the options of a question left unanswered)."""
        options = replace(self.assistant.options, method=method, max_questions=max_questions)
        user = self.assistant.user("human", target_lang, ask=scripted_then(answers or [], None))
        transcript = self.assistant.run(text, target_lang, options, context=context or None, user=user,
                                        alternatives=alternatives)
        return transcript.to_dict()

    # -- the context panel --------------------------------------------------------------------
    def show_context(self, session_id: str | None) -> str:
        last = self.sessions.get(session_id).last
        return context_markdown(last.bounded_context if last else None)

    def summarize(self, context: str, upload: str | None, lang: str, session_id: str | None) -> str:
        """The context panel with a summary the model writes of the extract (for the last text, or for none)."""
        last = self.sessions.get(session_id).last
        try:
            text = read_context(context, upload)
            if text is None:
                return "_Add a context or upload a file first._"
            bounded = self.assistant.context_policy.for_source(text, last.source if last else "", lang)
            bounded.summary = Summarizer(self.assistant.chat_model, lang)(bounded.text)
            return context_markdown(bounded)
        except Exception as err:  # noqa: BLE001
            return f"⚠️ {describe_error(err)}"


def api_outputs(view: View, session_id: str) -> tuple[Any, ...]:
    """A view as ``/chat``'s outputs: messages, translation, account, transcript, session id."""
    if view.transcript is None:
        draft = view.draft if view.draft is not None else gr.update()
        return view.messages, draft, gr.update(), gr.update(), session_id
    t = view.transcript
    return view.messages + [result_message(t)], t.translation, account_markdown(t), t.to_dict(), session_id
