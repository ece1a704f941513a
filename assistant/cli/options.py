"""Command-line options generated from a config dataclass, so every option is written once, beside its field.

A field becomes ``--field-name``; its ``metadata`` gives ``help``, ``metavar``, ``choices`` and
``min``/``max`` bounds (other keys, such as ``identity``, belong to other readers). The type
annotation decides the parsing: ``int``/``float``/``str``/``Path``, a class with a ``parse``
classmethod (``ModelSpec``), ``X | None``, ``tuple[X, ...]`` (a comma-separated list whose every
element is checked), ``bool`` (``--x``/``--no-x``). A field whose type is itself a dataclass
adds that dataclass's options (flattened), less those its ``exclude`` metadata names. Options
left out keep the dataclass's defaults, because ``from_args`` passes only what was given.
"""

from __future__ import annotations

import argparse
import dataclasses
import types
import typing
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from ..errors import IntercptError


def add_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup, cls: type, *,
                exclude: Collection[str] = (), repeatable: Collection[str] = ()) -> None:
    """Add one option per field of ``cls``; ``repeatable`` fields may be given several times (a list)."""
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        if f.name in exclude or not f.init:
            continue
        kind = hints[f.name]
        if _is_nested(kind):
            add_options(parser, kind, exclude=(*exclude, *f.metadata.get("exclude", ())), repeatable=repeatable)
        else:
            parser.add_argument(option_name(f.name), **_argument(f, kind, repeat=f.name in repeatable))


def from_args(cls: type, args: argparse.Namespace, *, exclude: Collection[str] = (), **given: Any) -> Any:
    """Build ``cls`` (and its nested config dataclasses) from parsed options; ``given`` overrides them.

    Fields ``exclude``d (and those a nested field's ``exclude`` metadata names) keep their defaults."""
    hints = typing.get_type_hints(cls)
    values = {}
    for f in dataclasses.fields(cls):
        if not f.init or f.name in exclude:
            continue
        if f.name in given:
            values[f.name] = given[f.name]
        elif _is_nested(hints[f.name]):
            values[f.name] = from_args(hints[f.name], args, exclude=(*exclude, *f.metadata.get("exclude", ())))
        elif hasattr(args, f.name):
            values[f.name] = getattr(args, f.name)
    return cls(**values)


def _is_nested(kind: Any) -> bool:
    """A config dataclass inside another (its options are added flat); a class that parses text is one value."""
    return dataclasses.is_dataclass(kind) and not hasattr(kind, "parse")


def option_name(field_name: str) -> str:
    return "--" + field_name.replace("_", "-")


def _argument(f: dataclasses.Field, kind: Any, *, repeat: bool) -> dict[str, Any]:
    meta = f.metadata
    element, is_list = _element_type(_without_none(kind))
    argument: dict[str, Any] = {"dest": f.name, "default": argparse.SUPPRESS, "help": _help(f)}
    if "metavar" in meta:
        argument["metavar"] = meta["metavar"]
    if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
        argument["required"] = True
    if element is bool and not is_list:
        argument["action"] = argparse.BooleanOptionalAction
        return argument
    convert = _converter(element, meta.get("min"), meta.get("max"))
    if is_list:
        argument["type"] = _comma_list(convert, meta.get("choices"))
        argument.setdefault("metavar", "A,B")
    else:
        argument["type"] = convert
        if "choices" in meta:
            argument["choices"] = tuple(meta["choices"])
    if repeat:
        argument["action"] = "append"
    return argument


def _help(f: dataclasses.Field) -> str:
    text = f.metadata.get("help", "").replace("%", "%%")
    if f.default is dataclasses.MISSING or f.default is None or "default" in text:
        return text
    shown = ",".join(map(str, f.default)) if isinstance(f.default, tuple) else str(f.default)
    return f"{text} (default: {shown.replace('%', '%%')})".strip()


def _without_none(kind: Any) -> Any:
    """``X | None`` -> X (None stays the default: there is no way to type it)."""
    if isinstance(kind, types.UnionType) or typing.get_origin(kind) is typing.Union:
        members = [k for k in typing.get_args(kind) if k is not type(None)]
        if len(members) == 1:
            return members[0]
        raise TypeError(f"cannot make an option of the union {kind}")
    return kind


def _element_type(kind: Any) -> tuple[Any, bool]:
    """``tuple[X, ...]`` -> (X, True); anything else -> (kind, False)."""
    if typing.get_origin(kind) is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return args[0], True
        raise TypeError(f"cannot make an option of the fixed-length tuple {kind}")
    return kind, False


def _converter(kind: Any, low: float | None, high: float | None) -> Callable[[str], Any]:
    parse = kind.parse if hasattr(kind, "parse") else Path if kind is Path else kind
    if parse not in (int, float, str, Path) and not hasattr(kind, "parse"):
        raise TypeError(f"cannot make an option of type {kind}")

    def convert(text: str) -> Any:
        try:
            value = parse(text)
        except ValueError:
            expected = {int: "an integer", float: "a number"}.get(kind, kind.__name__)
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        except IntercptError as err:
            raise argparse.ArgumentTypeError(str(err)) from None
        if low is not None and value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}, not {value}")
        return value

    convert.__name__ = getattr(kind, "__name__", "value")  # argparse names the type in its messages
    return convert


def _comma_list(convert: Callable[[str], Any], choices: Collection[str] | None) -> Callable[[str], tuple]:
    def convert_list(text: str) -> tuple:
        parts = [part.strip() for part in text.split(",") if part.strip()]
        if not parts:
            raise argparse.ArgumentTypeError("expected a comma-separated list")
        unknown = [part for part in parts if choices is not None and part not in choices]
        if unknown:
            raise argparse.ArgumentTypeError(f"unknown {', '.join(map(repr, unknown))}; choose from: "
                                             f"{', '.join(map(str, choices))}")
        return tuple(convert(part) for part in parts)

    convert_list.__name__ = "list"
    return convert_list
