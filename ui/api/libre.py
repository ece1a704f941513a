"""LibreTranslate's API, the subset its clients use: translate (with alternatives), languages, files.

``alternatives`` first returns the translations under the options of a question left open
(formal and informal "you", a feminine and a masculine reading), which is what a
LibreTranslate client shows as other ways to say it. ``format=html`` keeps tags as they are.
``profile_id`` names a project profile stored through ``/v1/profiles`` under the same key, as DeepL's
endpoint takes it: its answers are applied without asking.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field, field_validator
from starlette.datastructures import UploadFile as StarletteUploadFile

from assistant.formats import FORMATS
from assistant.formats.placeholders import mask
from assistant.languages import LANGUAGES, target_language

from ..file_store import KEPT_FILES
from . import ApiError
from .auth import client_address
from .bodies import documented, parse, read_body, strict_form
from .deepl import LANGUAGE_NAMES
from .service import TranslationService, extension
from .stored_profiles import ProfileStore

CHUNK = 1024 * 1024


class TranslateRequest(BaseModel):
    q: str | list[str] = Field(description="a text or a list of texts")
    source: str = Field("en", max_length=16, description="en or auto (intercpt translates from English)")
    target: str = Field(max_length=16)
    format: str = Field("text", description="text or html (tags are kept)")
    alternatives: int = Field(0, ge=0, le=3, description="how many alternative translations to return")
    api_key: str | None = None
    formality: str | None = Field(None, description="intercpt: DeepL's formality values, answered in advance")
    context: str | None = Field(None, description="intercpt: background a simulated user reads to answer; "
                                "billed with each text, at most the server's --max-text-chars")
    profile_id: str | None = Field(None, max_length=64, description="intercpt: a project profile stored through "
                                   "/v1/profiles under the same api_key: its answers are applied without asking")

    @field_validator("format")
    @classmethod
    def known_format(cls, value: str) -> str:
        if value not in ("text", "html"):
            raise ValueError("format must be text or html")
        return value


def check_languages(source: str, target: str) -> str:
    if source not in ("en", "auto"):
        raise ApiError(400, f"{source} is not supported as a source language; intercpt translates from en")
    lang = target_language(target)
    if lang is None:
        raise ApiError(400, f"{target} is not supported as a target language; use one of {', '.join(LANGUAGES)}")
    return lang


def router(service: TranslationService, profiles: ProfileStore) -> APIRouter:
    api = APIRouter(tags=["LibreTranslate"])

    @api.post("/translate", openapi_extra=documented(TranslateRequest),
              summary="Translate a text or a list; alternatives are the readings of an open question")
    async def translate(request: Request) -> dict:
        body = await read_body(request, TranslateRequest)
        who = service.keys.account(body.api_key, client_address(request))
        lang = check_languages(body.source, body.target)
        texts = [body.q] if isinstance(body.q, str) else body.q
        masks = [mask(text) if body.format == "html" else None for text in texts]
        sources = [m.text if m else text for m, text in zip(masks, texts)]
        transcripts = await run_in_threadpool(service.translate, who, sources, lang, formality=body.formality,
                                              context=body.context, alternatives=body.alternatives > 0,
                                              profile=profiles.named(who.key, body.profile_id))

        def shown(translation: str, index: int) -> str:
            return masks[index].restore(translation) if masks[index] else translation

        translated = [shown(t.translation or "", i) for i, t in enumerate(transcripts)]
        alternatives = [[shown(a.translation, i) for a in t.alternatives][:body.alternatives]
                        for i, t in enumerate(transcripts)]
        single = isinstance(body.q, str)
        answer: dict = {"translatedText": translated[0] if single else translated,
                        "intercpt": extension(transcripts[0]) if single else [extension(t) for t in transcripts]}
        if body.alternatives:
            answer["alternatives"] = alternatives[0] if single else alternatives
        if body.source == "auto":
            detected = {"confidence": 100.0, "language": "en"}
            answer["detectedLanguage"] = detected if single else [detected] * len(texts)
        return answer

    @api.get("/languages", summary="The languages: English into French, German, Spanish, Japanese")
    async def languages() -> list[dict]:
        targets = list(LANGUAGES)
        return [{"code": "en", "name": "English", "targets": targets}] + [
            {"code": code, "name": LANGUAGE_NAMES.get(code, code), "targets": []} for code in targets]

    @api.post("/translate_file", summary="Translate a .po, .xliff, .srt, .docx or .txt file; one question per file")
    async def translate_file(request: Request) -> dict:
        form = await strict_form(request, max_files=1, max_fields=10)
        upload = form.get("file")
        if not isinstance(upload, StarletteUploadFile) or not upload.filename:
            raise ApiError(400, "Invalid request: missing file parameter")
        body = parse(FileRequest, {k: v for k, v in form.items() if isinstance(v, str)})
        who = service.keys.account(body.api_key, client_address(request))
        lang = check_languages(body.source, body.target)
        name = Path(upload.filename).name
        if Path(name).suffix.lower() not in FORMATS:
            raise ApiError(400, f"{name}: unsupported file type; use one of {', '.join(FORMATS)}")
        profile = profiles.named(who.key, body.profile_id)
        with tempfile.TemporaryDirectory(prefix="intercpt-upload-") as folder:
            path = Path(folder) / name
            await store(upload, path, service.limits.max_file_bytes)
            out, record = await run_in_threadpool(service.translate_file, who, path, lang,
                                                  formality=body.formality, context=body.context, profile=profile)
        url = request.url_for("download_file", token=out.parent.name, name=out.name)
        return {"translatedFileUrl": str(url), "intercpt": record}

    @api.get("/download_file/{token}/{name}", name="download_file", summary="A translated file")
    async def download_file(token: str, name: str) -> FileResponse:
        stored = service.files.find(token, name)
        if stored is None:
            raise ApiError(404, f"no such file (files are kept for the last {KEPT_FILES} translations)")
        return FileResponse(stored, filename=name)

    return api


class FileRequest(BaseModel):
    source: str = Field("en", max_length=16)
    target: str = Field(max_length=16)
    api_key: str | None = None
    formality: str | None = None
    context: str | None = None
    profile_id: str | None = Field(None, max_length=64)


async def store(upload: StarletteUploadFile, path: Path, max_bytes: int) -> None:
    """Copy an upload to ``path``; 413 as soon as it passes ``max_bytes``."""
    written = 0
    with path.open("wb") as out:
        while chunk := await upload.read(CHUNK):
            written += len(chunk)
            if written > max_bytes:
                raise ApiError(413, f"the file is larger than {max_bytes // (1024 * 1024)} MB")
            out.write(chunk)
