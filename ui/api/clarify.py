"""``/v1/clarify``: the asking API. Start with a text and get its questions and a session id; answer
them and get the transcript, the record ``intercpt translate --json`` prints.

The questions come one at a time, as the chain asks them (a later question may depend on an
earlier answer). Each carries an id, and an answer names the question it answers, so a retried
or concurrent request can never answer a question it did not see: the answers of one session
are taken one request at a time, the same answer sent again changes nothing (the reply is the
session's current state), a different one to a question already answered is a conflict (409).
A question with options takes one of them; an open one ("it", a word's sense: options the model
proposed) also takes free text; ``null`` skips a question (with ``alternatives: true`` at the
start, the translations under its options then come with the transcript). Sessions are kept in
memory, a bounded number for an hour, finished ones too, so a retried last answer gets the
transcript again.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field, field_validator

from assistant.ambiguity import get_type
from assistant.chain import MAX_QUESTIONS_LIMIT
from assistant.dialogue import Dialogue
from assistant.transcript import Turn

from . import ApiError
from .auth import Account, client_address
from .bodies import documented, read_body
from .deepl import target_code
from .glossary_store import GlossaryStore
from .service import TranslationService

MAX_SESSIONS = 256
SESSION_SECONDS = 3600.0
ANSWER_FORM = '{"question": ID, "answer": VALUE}'
INCLUSIVE = ('also ask the gender of anyone of a kind ("any user", "customers"), for inclusive forms; null: the '
             "server's --inclusive")


class StartRequest(BaseModel):
    text: str
    target_lang: str = Field(max_length=16, description="fr, de, es or ja")
    context: str | None = Field(None, description="background the translator may be given (recorded); billed "
                                "with the text, at most the server's --max-text-chars")
    formality: Literal["default", "more", "less", "prefer_more", "prefer_less"] = "default"
    glossary_id: str | None = Field(None, max_length=64, description="a glossary created through /v2/glossaries")
    max_questions: int | None = None
    alternatives: bool = Field(False, description="at the end, also translate under each option of a question "
                               "left unanswered (two more translations, each checked)")
    inclusive: bool | None = Field(None, description=INCLUSIVE)


class Answer(BaseModel):
    question: str = Field(max_length=16, description="the id of the question answered")
    answer: str | None = Field(description="one of the question's options (free text too when the question is "
                               "open), or null to skip it")


class AnswerRequest(BaseModel):
    answers: list[Answer] = Field(min_length=1, max_length=MAX_QUESTIONS_LIMIT, description=(
        f"each answer names its question: {ANSWER_FORM}; the pending question's is new, the others repeat "
        "answers already given"))

    @field_validator("answers", mode="before")
    @classmethod
    def each_names_its_question(cls, value):
        if isinstance(value, list) and not all(isinstance(item, dict) for item in value):
            raise ValueError(f"each answer names its question: {ANSWER_FORM}")
        return value


def api_key(request: Request) -> str | None:
    """``Authorization: Bearer KEY`` (or DeepL's ``DeepL-Auth-Key KEY``)."""
    scheme, _, key = request.headers.get("authorization", "").partition(" ")
    return key.strip() if scheme in ("Bearer", "DeepL-Auth-Key") and key.strip() else None


def caller(service: TranslationService, request: Request) -> tuple[str | None, Account]:
    """The request's key (its sessions are its own) and the account it is billed to."""
    key = api_key(request)
    return key, service.keys.account(key, client_address(request))


@dataclass
class Session:
    """A dialogue, the key that opened it, and its questions by id in the order they were asked.

    ``owed`` counts the characters of answers recorded by a drive that then failed: the request whose
    drive delivers the work is billed for them."""

    dialogue: Dialogue
    key: str | None
    started: float = field(default_factory=time.monotonic)
    asked: dict[str, Turn] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    owed: int = 0
    done: bool = False

    def __post_init__(self) -> None:
        self.note_pending()

    def note_pending(self) -> None:
        """Give the pending question, if it is new, the next id."""
        if self.dialogue.pending is not None and self.pending_id() is None:
            self.asked[f"q{len(self.asked) + 1}"] = self.dialogue.pending

    def pending_id(self) -> str | None:
        pending = self.dialogue.pending
        return next((qid for qid, turn in self.asked.items() if turn is pending), None)

    def new_answer(self, answers: list[Answer], check_length: Callable[[str, str], None]) -> list[str | None]:
        """The answer to the pending question among ``answers`` ([] when there is none), after checking
        that every answer names a question of this session with a value it takes, and that the others
        repeat the answers already given."""
        pending = self.pending_id()
        new: dict[str, str | None] = {}
        for item in answers:
            if item.answer is not None:
                check_length(f"the answer to {item.question}", item.answer)
            turn = self.asked.get(item.question)
            if turn is None:
                waiting = f"the pending one is {pending}" if pending else "none is pending"
                raise ApiError(400, f"no question {item.question!r} in this session ({waiting})")
            value = self.accepted(item.question, turn, item.answer)
            if item.question != pending:
                if value != turn.answer:
                    raise ApiError(409, f"question {item.question} was already answered "
                                   f"{'(skipped)' if turn.answer is None else repr(turn.answer)}")
            elif new.setdefault(item.question, value) != value:
                raise ApiError(400, f"two different answers to question {item.question}")
        return list(new.values())

    def accepted(self, qid: str, turn: Turn, answer: str | None) -> str | None:
        """The answer as recorded: None for a skip, the option it names, or free text for an open question."""
        value = answer.strip() if answer else ""
        if not value:
            return None
        if not get_type(turn.ambiguity).options(self.dialogue.transcript.target_lang):
            return value  # open: the model proposed the options, free text is an answer too
        option = next((option for option in turn.options if option.casefold() == value.casefold()), None)
        if option is None:
            raise ApiError(400, f"the answer to {qid} is not one of its options ({', '.join(turn.options)}); "
                           "give one of them, or null to skip it")
        return option

    async def go_on(self, service: TranslationService, account: Account, new: list[str | None]) -> None:
        """Record the new answer and drive on. An answer recorded by a drive that then failed stays
        recorded (the same answer sent again drives again) and is billed to the drive that succeeds."""
        asked = self.dialogue.pending
        characters = self.owed + sum(len(value or "") for value in new)
        try:
            await run_in_threadpool(service.go_on, account, self.dialogue, new, characters)
        except BaseException:
            if new and self.dialogue.pending is not asked:
                self.owed = characters
            raise
        self.owed, self.done = 0, self.dialogue.pending is None
        self.note_pending()

    def state(self, session: str) -> dict:
        """The pending question with its id, or the finished transcript."""
        pending = self.pending_id()
        if not self.done:
            questions = [{"id": pending, **asdict(self.dialogue.pending)}] if pending else []
            return {"session": session, "done": False, "questions": questions, "transcript": None}
        return {"session": session, "done": True, "questions": [], "transcript": self.dialogue.transcript.to_dict()}


class Sessions:
    """Sessions by id; the oldest go first, and every one after an hour."""

    def __init__(self) -> None:
        self._open: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: Session) -> str:
        session_id = secrets.token_urlsafe(16)
        with self._lock:
            self._expire()
            self._open[session_id] = session
            while len(self._open) > MAX_SESSIONS:
                self._open.popitem(last=False)
        return session_id

    def get(self, session_id: str, key: str | None) -> Session:
        with self._lock:
            self._expire()
            found = self._open.get(session_id)
        if found is None or found.key != key:
            raise ApiError(404, f"no session {session_id[:64]!r} (sessions are kept for an hour)")
        return found

    def _expire(self) -> None:
        now = time.monotonic()
        for session_id in [s for s, session in self._open.items() if now - session.started > SESSION_SECONDS]:
            del self._open[session_id]


def router(service: TranslationService, glossaries: GlossaryStore) -> APIRouter:
    api = APIRouter(prefix="/v1", tags=["intercpt: ask before translating"])
    sessions = Sessions()

    @api.post("/clarify", openapi_extra=documented(StartRequest),
              summary="Start: the text's first question with its id and options, and a session id")
    async def start(request: Request) -> dict:
        key, who = caller(service, request)
        body = await read_body(request, StartRequest)
        glossary = glossaries.get(who, body.glossary_id).glossary if body.glossary_id else None
        dialogue = await run_in_threadpool(service.start, who, body.text, target_code(body.target_lang),
                                           formality=body.formality, context=body.context, glossary=glossary,
                                           max_questions=body.max_questions, alternatives=body.alternatives,
                                           inclusive=body.inclusive)
        session = Session(dialogue, key, done=dialogue.pending is None)
        return session.state(sessions.add(session) if not session.done else "")

    @api.post("/clarify/{session_id}", openapi_extra=documented(AnswerRequest, form=False),
              summary="Answer the pending question by its id: the next question, or the transcript once translated")
    async def answer(session_id: str, request: Request) -> dict:
        key, who = caller(service, request)
        session = sessions.get(session_id, key)
        body = await read_body(request, AnswerRequest)
        async with session.lock:
            new = session.new_answer(body.answers, service.check_length)
            if new or (session.dialogue.pending is None and not session.done):  # or the last drive failed
                await session.go_on(service, who, new)
        return session.state(session_id)

    return api
