"""Request bodies as the translation APIs' clients send them: JSON, or form fields (a field given
several times, such as DeepL's ``text``, is a list), read into a pydantic model."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from fastapi import Request
from pydantic import BaseModel, ValidationError

from . import ApiError

Model = TypeVar("Model", bound=BaseModel)
LIST_FIELDS = {"text", "q", "answers"}


async def read_body(request: Request, model: type[Model]) -> Model:
    """The body as ``model``; 400 with the first problem for anything else."""
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("application/json"):
        try:
            data = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise ApiError(400, "the body is not valid JSON") from None
        if not isinstance(data, dict):
            raise ApiError(400, "the JSON body must be an object")
    else:
        form = await request.form()
        data = {key: (form.getlist(key) if key in LIST_FIELDS and len(form.getlist(key)) > 1 else form[key])
                for key in form.keys()}
    return parse(model, data)


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
