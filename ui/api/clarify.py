"""``/v1/clarify``: the asking API. Start with a text and get its questions and a session id; answer
them and get the transcript, the record ``intercpt translate --json`` prints.

The questions come one at a time, as the chain asks them (a later question may depend on an
earlier answer); ``answers`` may answer several in order, ``null`` skips one (its alternatives
then come with the transcript). Sessions are kept in memory, a bounded number for an hour.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import asdict
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from assistant.dialogue import Dialogue

from . import ApiError
from .auth import client_address
from .bodies import documented, read_body
from .deepl import target_code
from .service import TranslationService

MAX_SESSIONS = 256
SESSION_SECONDS = 3600.0


class StartRequest(BaseModel):
    text: str
    target_lang: str = Field(description="fr, de, es or ja")
    context: str | None = Field(None, description="background the translator may be given (recorded)")
    formality: Literal["default", "more", "less", "prefer_more", "prefer_less"] = "default"
    glossary_id: str | None = Field(None, description="a glossary created through /v2/glossaries")
    max_questions: int | None = None


class AnswerRequest(BaseModel):
    answers: list[str | None] = Field(description="the answers to the pending questions, in order; null skips one")


def api_key(request: Request) -> str | None:
    """``Authorization: Bearer KEY`` (or DeepL's ``DeepL-Auth-Key KEY``)."""
    scheme, _, key = request.headers.get("authorization", "").partition(" ")
    return key.strip() if scheme in ("Bearer", "DeepL-Auth-Key") and key.strip() else None


class Sessions:
    """Open dialogues by id, each with the key that opened it; the oldest go first."""

    def __init__(self) -> None:
        self._open: OrderedDict[str, tuple[Dialogue, str | None, float]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, dialogue: Dialogue, key: str | None) -> str:
        session = secrets.token_urlsafe(16)
        with self._lock:
            self._expire()
            self._open[session] = (dialogue, key, time.monotonic())
            while len(self._open) > MAX_SESSIONS:
                self._open.popitem(last=False)
        return session

    def get(self, session: str, key: str | None) -> Dialogue:
        with self._lock:
            self._expire()
            found = self._open.get(session)
        if found is None or found[1] != key:
            raise ApiError(404, f"no open session {session!r} (sessions end when translated or after an hour)")
        return found[0]

    def close(self, session: str) -> None:
        with self._lock:
            self._open.pop(session, None)

    def _expire(self) -> None:
        now = time.monotonic()
        for session in [s for s, (_, _, started) in self._open.items() if now - started > SESSION_SECONDS]:
            del self._open[session]


def state(session: str, dialogue: Dialogue) -> dict:
    """The pending question, or the finished transcript."""
    if dialogue.pending is not None:
        return {"session": session, "done": False, "questions": [asdict(dialogue.pending)], "transcript": None}
    return {"session": session, "done": True, "questions": [], "transcript": dialogue.transcript.to_dict()}


def router(service: TranslationService) -> APIRouter:
    api = APIRouter(prefix="/v1", tags=["intercpt: ask before translating"])
    sessions = Sessions()

    @api.post("/clarify", openapi_extra=documented(StartRequest),
              summary="Start: the text's first question with its options, and a session id")
    async def start(request: Request) -> dict:
        key = api_key(request)
        who = service.keys.account(key, client_address(request))
        body = await read_body(request, StartRequest)
        glossary = service.glossary(who, body.glossary_id).glossary if body.glossary_id else None
        dialogue = await run_in_threadpool(service.start, who, body.text, target_code(body.target_lang),
                                           formality=body.formality, context=body.context, glossary=glossary,
                                           max_questions=body.max_questions)
        session = sessions.add(dialogue, key) if dialogue.pending is not None else ""
        return state(session, dialogue)

    @api.post("/clarify/{session}", openapi_extra=documented(AnswerRequest),
              summary="Answer: the next question, or the transcript once translated")
    async def answer(session: str, request: Request) -> dict:
        key = api_key(request)
        service.keys.account(key, client_address(request))
        dialogue = sessions.get(session, key)
        body = await read_body(request, AnswerRequest)
        dialogue = await run_in_threadpool(service.go_on, dialogue, body.answers)
        if dialogue.pending is None:
            sessions.close(session)
        return state(session, dialogue)

    return api
