"""Request bodies as the translation APIs' clients send them: JSON, or form fields (a field given
several times, such as DeepL's ``text``, is a list), read into a pydantic model.

A body that cannot be read strictly is refused (400), never guessed at: JSON nested past the
parser's depth or with a number too long to convert, a form whose bytes or percent-escapes are
not UTF-8 (decoding them with replacement characters would translate something nobody sent).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TypeVar
from urllib.parse import parse_qsl

from fastapi import Request
from pydantic import BaseModel, ValidationError

from . import ApiError

Model = TypeVar("Model", bound=BaseModel)
LIST_FIELDS = {"text", "q"}
MAX_FORM_FIELDS = 2000  # above the largest --max-texts, with room for the other fields


async def read_body(request: Request, model: type[Model]) -> Model:
    """The body as ``model``; 400 with the first problem for anything else."""
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("application/json"):
        data = json_object(await request.body())
    elif content_type.startswith("multipart/form-data"):
        data = fields((await request.form(max_fields=MAX_FORM_FIELDS)).multi_items())
    else:
        data = fields(form_fields(await request.body()))
    return parse(model, data)


def json_object(body: bytes) -> dict[str, Any]:
    """A JSON body's object; 400 for anything else."""
    try:
        data = json.loads(body)
    except RecursionError:
        raise ApiError(400, "the JSON body is nested too deeply") from None
    except ValueError:  # not JSON, not UTF-8, or a number too long to convert
        raise ApiError(400, "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the JSON body must be an object")
    return data


def form_fields(body: bytes) -> list[tuple[str, str]]:
    """A form-encoded body's fields, its bytes and percent-escapes read as UTF-8 strictly."""
    try:
        return parse_qsl(body.decode("utf-8"), keep_blank_values=True, errors="strict",
                         max_num_fields=MAX_FORM_FIELDS)
    except UnicodeDecodeError:
        raise ApiError(400, "the form body is not valid UTF-8") from None
    except ValueError:
        raise ApiError(400, f"the form body has more than {MAX_FORM_FIELDS} fields") from None


def fields(items: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """Form fields by name: the last value of each, or every value of a list field given more than once."""
    grouped: dict[str, list[Any]] = {}
    for key, value in items:
        grouped.setdefault(key, []).append(value)
    return {key: values if key in LIST_FIELDS and len(values) > 1 else values[-1] for key, values in grouped.items()}


def parse(model: type[Model], data: dict[str, Any]) -> Model:
    try:
        return model.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        raise ApiError(400, f"{where}: {first['msg']}") from None


def documented(*models: type[BaseModel]) -> dict[str, Any]:
    """OpenAPI text for an endpoint that reads its body itself (JSON or form)."""
    schema = models[0].model_json_schema()
    return {"requestBody": {"required": True, "content": {
        "application/json": {"schema": schema}, "application/x-www-form-urlencoded": {"schema": schema}}}}
