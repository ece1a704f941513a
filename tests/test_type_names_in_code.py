"""No code spells an ambiguity type's name: it asks the type (``assistant.ambiguity``) instead.

A type's name lives in ``prompts/ambiguities.yaml``, and which data file holds which type in the
data sets' layout files; code compares or builds a name only by asking the table, so a new type is
one table entry. Every string literal of the product's and the benchmarks' code (docstrings aside)
is read: one that is a type's name, or that holds a name no English word spells (one with an
underscore), is code spelling a type. Prose may still say "formality". The few registrations that
give a checker or its answer vocabulary the name a table entry uses are listed below, each with
its reason.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

from assistant.ambiguity import ambiguity_types

ROOT = Path(__file__).resolve().parent.parent
CODE = ("assistant", "ui", "evaluation", "benchmarks")

# (file, name, reason): one entry per string literal allowed to be a type's name.
ALLOWED = (
    ("assistant/checks.py", "formality", "the register checker's registration (a type's `check` names it)"),
    ("assistant/checks.py", "formality", "the register checker's answer vocabulary, registered with it"),
    ("assistant/checks.py", "person_gender", "the person checker's registration (a type's `check` names it)"),
    ("assistant/nlp/address.py", "formality", "what a T-V language chooses for a candidate's \"you\" (Japanese: "
                                              "the register), a word of the address reader, not the type"),
)


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def spelled_names(text: str, names: set[str]) -> list[str]:
    """The type names a string literal spells: the whole string, or a name with an underscore in it."""
    if text in names:
        return [text]
    return [name for name in names if "_" in name and re.search(rf"\b{re.escape(name)}\b", text)]


def names_in_code() -> Counter:
    """(file, name) of every string literal of the code that spells a type's name."""
    names = set(ambiguity_types())
    found: Counter = Counter()
    for folder in CODE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            skip = docstrings(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                    for name in spelled_names(node.value, names):
                        found[(path.relative_to(ROOT).as_posix(), name)] += 1
    return found


def test_no_code_spells_an_ambiguity_type_name():
    allowed = Counter((path, name) for path, name, _ in ALLOWED)
    unexpected = names_in_code() - allowed
    assert not unexpected, f"ask the type (assistant.ambiguity) instead of spelling its name: {dict(unexpected)}"


def test_the_check_finds_a_spelled_name():
    names = set(ambiguity_types())
    assert spelled_names("formality", names) == ["formality"]
    assert spelled_names("AmbigMT dev it_resolution fr", names) == ["it_resolution"]
    assert spelled_names("the formality question", names) == []


def test_every_allowed_name_is_still_there():
    """An entry of the allow-list that no longer matches is removed, so the list stays the exceptions."""
    found = names_in_code()
    allowed = Counter((path, name) for path, name, _ in ALLOWED)
    assert all(found[key] >= count for key, count in allowed.items())
