"""Request bodies as the translation APIs' clients send them: JSON, or form fields (a field given
several times, such as DeepL's ``text``, is a list), read into a pydantic model.

A body that cannot be read strictly is refused (400), never guessed at: JSON nested past the
parser's depth or with a number too long to convert, a form whose bytes or percent-escapes are
not UTF-8 (decoding them with replacement characters would translate something nobody sent), a
multipart form whose text fields are not UTF-8 (Starlette, which has no strict option, would read
them as latin-1).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TypeVar
from urllib.parse import parse_qsl

from fastapi import HTTPException, Request
from pydantic import BaseModel, ValidationError
from python_multipart import FormParser
from python_multipart.exceptions import FormParserError
from python_multipart.multipart import Field, parse_options_header
from starlette.datastructures import FormData

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
        data = fields((await strict_form(request, max_fields=MAX_FORM_FIELDS)).multi_items())
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


async def strict_form(request: Request, **bounds: int) -> FormData:
    """A multipart body's form as Starlette reads it (``bounds``: its ``max_files``, ``max_fields``), once its
    text fields are known to be UTF-8; 400 in the API's own format for anything else."""
    check_text_fields(await request.body(), request.headers.get("content-type", ""))
    try:
        return await request.form(**bounds)
    except HTTPException as err:  # Starlette refuses too many fields or files, or a field over 1 MB
        raise ApiError(400, str(err.detail)) from None


def check_text_fields(body: bytes, content_type: str) -> None:
    """400 for a multipart body that python-multipart cannot read or with a text field (a part without a
    file name) whose bytes are not UTF-8."""
    _, options = parse_options_header(content_type)

    def strict(field: Field) -> None:
        try:
            field.value.decode("utf-8")
        except UnicodeDecodeError:
            name = field.field_name.decode("utf-8", "replace")
            raise ApiError(400, f"the form field {name!r} is not valid UTF-8") from None

    try:
        parser = FormParser("multipart/form-data", strict, lambda file: file.close(), boundary=options.get(b"boundary"),
                            config={"MAX_MEMORY_FILE_SIZE": len(body)})  # a file part is read in memory, not to disk
        parser.write(body)
        parser.finalize()
    except FormParserError:
        raise ApiError(400, "the multipart body is malformed") from None


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


def documented(model: type[BaseModel], *, form: bool = True) -> dict[str, Any]:
    """OpenAPI text for an endpoint that reads its body itself: JSON, and a form unless ``form`` is False."""
    schema = model.model_json_schema()
    kinds = ("application/json", "application/x-www-form-urlencoded") if form else ("application/json",)
    return {"requestBody": {"required": True, "content": {kind: {"schema": schema} for kind in kinds}}}
