"""One server, one port: the web app (Gradio, mounted on FastAPI) and the HTTP APIs beside it.

``/`` is the page, ``/v2/...`` DeepL's API, ``/translate``, ``/languages``, ``/translate_file``
LibreTranslate's, ``/v1/clarify`` the asking API, ``/docs`` the OpenAPI docs. Every request
body is bounded, uploads of a type the app does not read are refused before anything is
stored, the model's queue is bounded (the next request hears "busy, try again"), and every API
request has a deadline (a model server that hangs or fails is a prompt 503, not a locked queue).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers

from assistant.chain import MAX_QUESTIONS_LIMIT, Assistant
from assistant.errors import BackendError, DeadlineExceeded, InputError, IntercptError, RequestCancelled
from assistant.formats import FORMATS
from assistant.inputs import MAX_SOURCE_CHARS

from .api import ApiError
from .api.auth import KeyRing, is_loopback, load_keys
from .api.deadlines import RequestDeadlines, model_failure
from .file_store import FileStore
from .api.glossary_store import GlossaryStore
from .api.stored_profiles import ProfileStore
from .api.service import Limits, TranslationService

AUTH_ENV_VAR = "INTERCPT_AUTH"
# What the page and the APIs read: localisation files, text, glossaries.
UPLOAD_SUFFIXES = frozenset(FORMATS) | {".csv", ".tsv", ".tbx"}
UPLOAD_PATHS = ("/gradio_api/upload", "/translate_file")
MB = 1024 * 1024
log = logging.getLogger("intercpt.api")


@dataclass(frozen=True)
class ServerSettings:
    """How the server is shared and bounded; each field is a command-line option of ``intercpt ui``."""

    auth: str | None = field(default=None, metadata={
        "help": f"USER:PASSWORD the web app asks for (or ${AUTH_ENV_VAR}); set it before sharing the app beyond "
                "this machine", "metavar": "USER:PASS"})
    api_keys: Path | None = field(default=None, metadata={
        "help": "file of accepted API keys, one a line (or $INTERCPT_API_KEYS, comma-separated); without keys the "
                "APIs are open on a loopback address and closed on any other", "metavar": "FILE"})
    max_file_size: int = field(default=10, metadata={
        "help": "largest upload or request body, in MB", "metavar": "MB", "min": 1, "max": 200})
    queue_size: int = field(default=16, metadata={
        "help": "requests that may wait for the model; the next one is told to try again", "metavar": "N",
        "min": 0, "max": 1000})
    max_texts: int = field(default=50, metadata={
        "help": "most texts in one API request", "metavar": "N", "min": 1, "max": 1000})
    max_text_chars: int = field(default=MAX_SOURCE_CHARS, metadata={
        "help": "most characters in one text of an API request", "metavar": "N", "min": 1, "max": MAX_SOURCE_CHARS})
    max_questions: int = field(default=3, metadata={
        "help": "most questions an API request may raise per text", "metavar": "J", "min": 0,
        "max": MAX_QUESTIONS_LIMIT})
    rate_limit: int = field(default=60, metadata={
        "help": "most API requests a minute per key", "metavar": "N", "min": 1, "max": 100_000})
    request_timeout: float = field(default=300.0, metadata={
        "help": "seconds an API request may take, its wait for the model included; then its client hears 503 "
                "and its work stops", "metavar": "SECONDS", "min": 1, "max": 3600})
    character_limit: int = field(default=0, metadata={
        "help": "most characters each key may translate while the server runs (0: no limit)", "metavar": "N",
        "min": 0})

    def credentials(self) -> tuple[str, str] | None:
        """The web app's user and password (--auth, else $INTERCPT_AUTH), or None."""
        text = self.auth or os.environ.get(AUTH_ENV_VAR)
        if not text:
            return None
        user, sep, password = text.partition(":")
        if not sep or not user or not password:
            raise InputError(f"--auth (or ${AUTH_ENV_VAR}) takes USER:PASSWORD, both non-empty")
        return user, password

    def limits(self) -> Limits:
        return Limits(max_texts=self.max_texts, max_text_chars=self.max_text_chars, max_questions=self.max_questions,
                      max_file_bytes=self.max_file_size * MB, queue_size=self.queue_size)


def exposure_warnings(settings: ServerSettings, host: str) -> list[str]:
    """What a person binding ``host`` should know before the app is reachable by others."""
    if is_loopback(host):
        return []
    warnings = []
    if settings.credentials() is None:
        warnings.append(f"{host} is reachable from other machines and the web app has no password: "
                        f"give --auth USER:PASS (or set {AUTH_ENV_VAR})")
    if load_keys(settings.api_keys) is None:
        warnings.append("the APIs refuse every request until API keys are configured (--api-keys FILE or "
                        "INTERCPT_API_KEYS)")
    return warnings


def build_service(assistant: Assistant, settings: ServerSettings, *, host: str,
                  concurrency: int = 1) -> TranslationService:
    keys = KeyRing(load_keys(settings.api_keys), required=not is_loopback(host), rate_limit=settings.rate_limit,
                   character_limit=settings.character_limit)
    return TranslationService(assistant, keys, settings.limits(), FileStore(), concurrency=concurrency)


def build_app(assistant: Assistant, model_spec: str, settings: ServerSettings | None = None, *,
              host: str = "127.0.0.1", concurrency: int = 1, web_app: bool = True) -> FastAPI:
    """The APIs on ``assistant`` under its options and, with ``web_app``, the page at ``/`` (whose
    requests choose their method, questions and prompts)."""
    from .api import clarify, deepl, libre, sheets

    settings = settings or ServerSettings()
    service = build_service(assistant, settings, host=host, concurrency=concurrency)
    app = FastAPI(title="intercpt", version="1", description=(
        "Translation that asks before it guesses. DeepL's API v2 (under /v2) and LibreTranslate's API take "
        "intercpt's questions' answers in advance (formality) or leave them to its best guess, and say which "
        "questions there were; /v1/clarify asks them."))
    glossaries, profiles = GlossaryStore(), ProfileStore()
    for api in (deepl.router(service, glossaries, profiles), libre.router(service, profiles),
                clarify.router(service, glossaries), sheets.router(service, profiles)):
        app.include_router(api)
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    for failure in (BackendError, DeadlineExceeded, RequestCancelled):
        app.add_exception_handler(failure, _model_failure)
    app.state.service = service
    if web_app:
        import gradio as gr

        from .app import STYLESHEET, build_demo

        demo = build_demo(assistant, model_spec, concurrency=concurrency)
        demo.queue(default_concurrency_limit=concurrency, max_size=settings.queue_size or None)
        app = gr.mount_gradio_app(app, demo, path="/", auth=settings.credentials(), css_paths=[STYLESHEET],
                                  max_file_size=settings.max_file_size * MB)
    app.add_middleware(RequestDeadlines, seconds=settings.request_timeout)
    app.add_middleware(UploadGuard, max_bytes=settings.max_file_size * MB)
    return app


def error_body(path: str, message: str) -> dict:
    """An error as each API's clients read it: DeepL's ``message``, LibreTranslate's ``error``, else ``detail``."""
    if path.startswith("/v2/"):
        return {"message": message}
    if path.startswith("/v1/"):
        return {"detail": message}
    return {"error": message}


async def _api_error(request: Request, err: ApiError) -> JSONResponse:
    return JSONResponse(error_body(request.url.path, err.message), status_code=err.status, headers=err.headers)


async def _model_failure(request: Request, err: IntercptError) -> JSONResponse:
    """A request the model could not finish, as its API's error (and a line in the server's log)."""
    failure = model_failure(err)
    log.warning("%s %s: %d %s", request.method, request.url.path, failure.status, failure.message)
    return await _api_error(request, failure)


async def _validation_error(request: Request, err: RequestValidationError) -> JSONResponse:
    first = err.errors()[0] if err.errors() else {"loc": (), "msg": "invalid request"}
    where = ".".join(str(part) for part in first["loc"] if part not in ("body", "query")) or "request"
    return JSONResponse(error_body(request.url.path, f"{where}: {first['msg']}"), status_code=400)


class UploadGuard:
    """ASGI middleware: a request body past the bound is refused (413) before the app reads it, and an
    upload of a file type the app does not read is refused (400) before Gradio or the API store it.

    A body of declared length is refused from its ``Content-Length``; a chunked one (no length) is
    read here up to the bound and then handed on whole, so that passing the bound is a clean 413."""

    def __init__(self, app, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = Headers(scope=scope)
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > self.max_bytes:
            return await self._refuse(scope, send, 413, f"the request is larger than {self.max_bytes // MB} MB")
        upload = scope["path"].endswith(UPLOAD_PATHS) and headers.get("content-type", "").startswith("multipart/")
        if length.isdigit() and not upload:
            return await self.app(scope, receive, send)  # the server reads no more than the declared length
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client left: nobody to answer
            body += message.get("body", b"")
            if len(body) > self.max_bytes:
                what = "upload" if upload else "request"
                return await self._refuse(scope, send, 413, f"the {what} is larger than {self.max_bytes // MB} MB")
            if not message.get("more_body", False):
                break
        refused = [name for name in upload_names(bytes(body), headers["content-type"])
                   if Path(name).suffix.lower() not in UPLOAD_SUFFIXES] if upload else []
        if refused:
            return await self._refuse(scope, send, 400, f"{refused[0]}: this file type is not accepted; "
                                      f"upload one of {', '.join(sorted(UPLOAD_SUFFIXES))}")
        replayed = False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        return await self.app(scope, replay, send)

    async def _refuse(self, scope, send, status: int, message: str) -> None:
        response = JSONResponse(error_body(scope["path"], message), status_code=status)
        await response(scope, _nothing, send)


async def _nothing():
    return {"type": "http.disconnect"}


def upload_names(body: bytes, content_type: str) -> list[str]:
    """The file names of a multipart body's parts (read from each part's Content-Disposition)."""
    from python_multipart.multipart import parse_options_header

    _, options = parse_options_header(content_type)
    boundary = options.get(b"boundary")
    if not boundary:
        return []
    names = []
    for part in body.split(b"--" + boundary)[1:]:
        head = part.split(b"\r\n\r\n", 1)[0]
        for line in head.split(b"\r\n"):
            field_name, _, value = line.partition(b":")
            if field_name.strip().lower() == b"content-disposition":
                _, params = parse_options_header(value.strip())
                if b"filename" in params:
                    names.append(params[b"filename"].decode("utf-8", "replace"))
    return names
