"""``/v1/sheet``: a document's question sheet over HTTP, for a CAT tool or a script that sends a file's strings;
``/v1/profiles``: project profiles kept per key, whose ``profile_id`` a DeepL ``/v2/translate`` call names.

Start with the texts (a file's strings, in order) and get every open question of them at once, each with an id,
its options, how many texts it affects and examples; a project profile sent along (the YAML of ``--profile``)
answers what it knows. Answer the questions by id in one request (``null`` skips one: the model's guess is
flagged in the texts' notes) and get every text translated with the answers, each with a note that says which
answer or guess shaped it. As in ``/v1/clarify``: the texts are billed when the sheet is read, the answers when
they are given; the same answers sent again get the same translations (kept with the sheet for an hour), other
answers to a sheet already translated are a conflict (409).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from assistant.document import DocumentTranslator
from assistant.errors import InputError
from assistant.explain import decisions_note
from assistant.inputs import validate_source
from assistant.options import ChainOptions
from assistant.profile import MAX_PROFILE_BYTES, Profile, parse_profile
from assistant.sheet import Sheet, SheetQuestion, prepared_sheet

from . import ApiError
from .auth import Account
from .bodies import documented, read_body
from .clarify import INCLUSIVE, Answer, Sessions, caller
from .deepl import target_code
from .service import TranslationService, extension
from .stored_profiles import MAX_NAME_CHARS, ProfileStore

MAX_SHEET_ANSWERS = 200


class SheetRequest(BaseModel):
    texts: list[str] = Field(description="the document's texts in order (a file's strings); at most the server's "
                             "--max-texts, each at most --max-text-chars")
    target_lang: str = Field(max_length=16, description="fr, de, es or ja")
    profile: str | None = Field(None, max_length=MAX_PROFILE_BYTES, description="a project profile (the YAML of "
                                "intercpt translate --profile): the questions it answers come answered")
    profile_id: str | None = Field(None, max_length=64, description="a profile stored through /v1/profiles, the "
                                   "same way (with profile too, profile's answers win)")
    inclusive: bool | None = Field(None, description=INCLUSIVE)


class ProfileRequest(BaseModel):
    name: str = Field(max_length=MAX_NAME_CHARS)
    profile: str = Field(max_length=MAX_PROFILE_BYTES, description="the YAML of intercpt translate --profile")


class SheetAnswers(BaseModel):
    answers: list[Answer] = Field(max_length=MAX_SHEET_ANSWERS, description=(
        'each names its question: {"question": ID, "answer": VALUE}; null, or a question left out, is skipped'))


@dataclass
class SheetSession:
    """A sheet, the texts it was read from and the key that asked; the translations once given."""

    sheet: Sheet
    texts: list[str]
    profile: Profile
    key: str | None
    options: ChainOptions
    started: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    answers: dict[str, str | None] | None = None
    translations: list[dict] | None = None

    def state(self, sheet_id: str) -> dict:
        return {"sheet": sheet_id, **self.sheet.to_dict(), "translations": self.translations}

    def given(self, answers: list[Answer], check_length) -> dict[str, str | None]:
        """Every question's answer as recorded (left out: skipped), after checking each names a question of
        the sheet with a value it takes."""
        given: dict[str, str | None] = {q.id: q.answer for q in self.sheet.every_question}
        for item in answers:
            if item.answer is not None:
                check_length(f"the answer to {item.question}", item.answer)
            try:
                question = self.sheet.question(item.question)
            except InputError as err:
                raise ApiError(400, str(err)) from None
            given[item.question] = _accepted(question, item.answer)
        return given


def _accepted(question: SheetQuestion, answer: str | None) -> str | None:
    """None for a skip, the option the answer names, or free text for a question whose options the model wrote."""
    value = answer.strip() if answer else ""
    if not value:
        return None
    if question.scope == "text" or not question.options:
        return value
    option = next((option for option in question.options if option.casefold() == value.casefold()), None)
    if option is None:
        raise ApiError(400, f"the answer to {question.id} is not one of its options ({', '.join(question.options)}); "
                       "give one of them, or null to skip it")
    return option


def checked_texts(service: TranslationService, texts: list[str]) -> list[str]:
    """The texts as the chain takes them; 400 or 413 for what a request may not hold."""
    service.check_texts(texts)
    try:
        return [validate_source(text) for text in texts]
    except InputError as err:
        raise ApiError(400, str(err)) from None


def read_sheet(service: TranslationService, account: Account, sources: list[str], target_lang: str,
               profile: Profile, options: ChainOptions) -> Sheet:
    """Every text read for questions under the request's ``options``, billed as text; the profile's answers filled
    in."""
    with service.at_the_model(account, sum(len(source) for source in sources)):
        return prepared_sheet(service.assistant.steps.under(options), sources, target_lang, profile)


def translate_sheet(service: TranslationService, account: Account, session: SheetSession,
                    answers: dict[str, str | None]) -> list[dict]:
    """The texts translated with the answers (billed their characters), each with its note."""
    sheet = session.sheet
    sheet.answer_all(answers)
    translator = DocumentTranslator(service.assistant, sheet.target_lang, session.options)
    characters = sum(len(answer or "") for answer in answers.values())
    with service.at_the_model(account, characters):
        transcripts = list(translator.translate_units(session.texts, sheet.user(session.profile),
                                                      preferences=sheet.memory(session.profile)))
    return [{"text": t.translation or "", "note": decisions_note(t),
             "guessed": any(turn.answer is None for turn in t.turns), "intercpt": extension(t)} for t in transcripts]


def router(service: TranslationService, profiles: ProfileStore) -> APIRouter:
    api = APIRouter(prefix="/v1", tags=["intercpt: a document's questions, asked once"])
    sessions = Sessions()

    @api.post("/sheet", openapi_extra=documented(SheetRequest),
              summary="Read a document's texts: every open question at once, with ids, options, counts and examples")
    async def start(request: Request) -> dict:
        key, who = caller(service, request)
        body = await read_body(request, SheetRequest)
        lang = target_code(body.target_lang)
        try:
            sent = parse_profile(body.profile, "the profile") if body.profile else Profile()
        except InputError as err:
            raise ApiError(400, str(err)) from None
        stored = profiles.get(who.key, body.profile_id).profile if body.profile_id else Profile()
        profile = stored.updated_with(sent)
        sources = checked_texts(service, body.texts)
        options = service.chain_options(inclusive=body.inclusive)
        sheet = await run_in_threadpool(read_sheet, service, who, sources, lang, profile, options)
        session = SheetSession(sheet, sources, profile, key, options)
        return session.state(sessions.add(session))

    @api.post("/sheet/{sheet_id}", openapi_extra=documented(SheetAnswers, form=False),
              summary="Answer the sheet's questions by id: every text translated with the answers")
    async def answer(sheet_id: str, request: Request) -> dict:
        key, who = caller(service, request)
        session = sessions.get(sheet_id, key)
        body = await read_body(request, SheetAnswers)
        async with session.lock:
            given = session.given(body.answers, service.check_length)
            if session.translations is None:
                session.translations = await run_in_threadpool(translate_sheet, service, who, session, given)
                session.answers = given
            elif given != session.answers:
                raise ApiError(409, f"sheet {sheet_id[:64]} was already answered and translated; read another "
                               "sheet to answer differently")
        return session.state(sheet_id)

    @api.post("/profiles", openapi_extra=documented(ProfileRequest),
              summary="Store a project profile; its profile_id applies its answers on /v2/translate, "
              "LibreTranslate's /translate and /translate_file, and /v1/sheet")
    async def create_profile(request: Request) -> dict:
        _, who = caller(service, request)
        body = await read_body(request, ProfileRequest)
        return profiles.create(who.key, body.name, body.profile).info()

    @api.get("/profiles", summary="This key's profiles")
    async def list_profiles(request: Request) -> dict:
        _, who = caller(service, request)
        return {"profiles": [stored.info() for stored in profiles.all(who.key)]}

    @api.get("/profiles/{profile_id}", summary="A profile as YAML, as intercpt translate --profile writes it")
    async def get_profile(profile_id: str, request: Request) -> Response:
        _, who = caller(service, request)
        return Response(profiles.get(who.key, profile_id).profile.to_yaml(), media_type="application/yaml")

    @api.delete("/profiles/{profile_id}", status_code=204, summary="Delete a profile")
    async def delete_profile(profile_id: str, request: Request) -> Response:
        _, who = caller(service, request)
        profiles.delete(who.key, profile_id)
        return Response(status_code=204)

    return api
