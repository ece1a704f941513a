"""DeepL API v2, the subset translation tools use: translate, languages, usage, glossaries.

Clients (the official ``deepl`` library, Weblate, CAT plugins) point their server URL here and
send ``Authorization: DeepL-Auth-Key KEY``. Each translation carries an ``intercpt`` field
beside DeepL's own: the questions the text raised, the checks; clients that do not know it
ignore it. No alternative is computed here (no DeepL client reads one): the LibreTranslate and
clarify APIs translate under each option of an open question when asked.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field, field_validator

from assistant.languages import LANGUAGES, target_language

from . import ApiError
from .auth import client_address
from .bodies import documented, read_body
from .glossary_store import GlossaryStore
from .service import TranslationService, billable, extension
from .stored_profiles import ProfileStore

LANGUAGE_NAMES = {"fr": "French", "de": "German", "es": "Spanish", "ja": "Japanese"}


class TranslateRequest(BaseModel):
    text: list[str] = Field(description="the texts to translate (at most the server's --max-texts)")
    target_lang: str = Field(max_length=16, description="FR, DE, ES or JA")
    source_lang: str | None = Field(None, max_length=16, description="EN, or left out")
    formality: Literal["default", "more", "less", "prefer_more", "prefer_less"] = Field(
        "default", description="the answer to the formality question, given in advance: it is then not asked")
    context: str | None = Field(None, description="background a simulated user reads to answer the questions; "
                                "billed with each text, at most the server's --max-text-chars")
    glossary_id: str | None = Field(None, max_length=64)
    profile_id: str | None = Field(None, max_length=64, description="a project profile stored through /v1/profiles: "
                                   "its answers are applied without asking")
    max_questions: int | None = Field(None, description="intercpt: ask at most this many questions per text")
    model_config = {"extra": "ignore"}

    @field_validator("text", mode="before")
    @classmethod
    def one_text_is_a_list(cls, value):
        return [value] if isinstance(value, str) else value


class GlossaryRequest(BaseModel):
    name: str = Field(min_length=1)
    source_lang: str
    target_lang: str
    entries: str
    entries_format: str = "tsv"


def target_code(code: str) -> str:
    """The target language of DeepL's ``target_lang``: a language code or a regional variant that exists
    (``FR``, ``ES-419``, ``DE-AT``); 400 otherwise, in DeepL's words."""
    lang = target_language(code)
    if lang is None:
        raise ApiError(400, f"Value for 'target_lang' not supported: {code!r}; use one of "
                       f"{', '.join(c.upper() for c in LANGUAGES)}, or one with a region (ES-419, FR-CA)")
    return lang


def api_key(request: Request) -> str | None:
    """The key of ``Authorization: DeepL-Auth-Key KEY``."""
    scheme, _, key = request.headers.get("authorization", "").partition(" ")
    return key.strip() if scheme == "DeepL-Auth-Key" and key.strip() else None


def router(service: TranslationService, glossaries: GlossaryStore, profiles: ProfileStore) -> APIRouter:
    api = APIRouter(prefix="/v2", tags=["DeepL API v2"])

    def account(request: Request):
        return service.keys.account(api_key(request), client_address(request))

    @api.post("/translate", openapi_extra=documented(TranslateRequest),
              summary="Translate texts; formality answers the formality question in advance")
    async def translate(request: Request) -> dict:
        who = account(request)
        body = await read_body(request, TranslateRequest)
        lang = target_code(body.target_lang)
        if body.source_lang and body.source_lang.upper() != "EN":
            raise ApiError(400, f"Value for 'source_lang' not supported: {body.source_lang!r}; intercpt translates "
                           "from English (EN)")
        glossary = None
        if body.glossary_id:
            if not body.source_lang:
                raise ApiError(400, "Use of a glossary requires the source_lang parameter to be specified")
            stored = glossaries.get(who, body.glossary_id)
            if stored.target_lang != lang:
                raise ApiError(400, f"the glossary translates into {stored.target_lang.upper()}, not {lang.upper()}")
            glossary = stored.glossary
        transcripts = await run_in_threadpool(service.translate, who, body.text, lang, formality=body.formality,
                                              context=body.context, glossary=glossary,
                                              max_questions=body.max_questions,
                                              profile=profiles.named(who.key, body.profile_id))
        return {"translations": [{"detected_source_language": "EN", "text": t.translation or "",
                                  "billed_characters": billable(text, body.context), "intercpt": extension(t)}
                                 for text, t in zip(body.text, transcripts)]}

    @api.get("/languages", summary="Source (EN) or target languages")
    async def languages(request: Request, type: Literal["source", "target"] = "source") -> list[dict]:
        account(request)
        if type == "source":
            return [{"language": "EN", "name": "English"}]
        return [{"language": code.upper(), "name": LANGUAGE_NAMES.get(code, code), "supports_formality": True}
                for code in LANGUAGES]

    @api.get("/usage", summary="Characters translated with this key, and its quota")
    async def usage(request: Request) -> dict:
        who = account(request)
        limit = service.keys.character_limit or 1_000_000_000_000
        return {"character_count": who.characters, "character_limit": limit}

    @api.post("/glossaries", status_code=201, openapi_extra=documented(GlossaryRequest),
              summary="Create a glossary from TSV or CSV entries")
    async def create_glossary(request: Request) -> dict:
        who = account(request)
        body = await read_body(request, GlossaryRequest)
        stored = await run_in_threadpool(glossaries.create, who, body.name, body.source_lang,
                                         target_code(body.target_lang), body.entries,
                                         body.entries_format)  # builds its matcher
        return stored.info()

    @api.get("/glossaries", summary="This key's glossaries")
    async def list_glossaries(request: Request) -> dict:
        return {"glossaries": [g.info() for g in glossaries.of(account(request))]}

    @api.get("/glossaries/{glossary_id}", summary="One glossary's description")
    async def get_glossary(glossary_id: str, request: Request) -> dict:
        return glossaries.get(account(request), glossary_id).info()

    @api.get("/glossaries/{glossary_id}/entries", summary="A glossary's entries as TSV")
    async def glossary_entries(glossary_id: str, request: Request) -> Response:
        stored = glossaries.get(account(request), glossary_id)
        return Response(stored.tsv(), media_type="text/tab-separated-values")

    @api.delete("/glossaries/{glossary_id}", status_code=204, summary="Delete a glossary")
    async def delete_glossary(glossary_id: str, request: Request) -> Response:
        glossaries.delete(account(request), glossary_id)
        return Response(status_code=204)

    return api
