"""Command-line options generated from config dataclasses (assistant.cli.options)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from assistant.backends import ModelSpec
from assistant.cli.main import ArgumentParser
from assistant.cli.options import add_options, from_args


@dataclass(frozen=True)
class Inner:
    budget: int = field(default=256, metadata={"help": "tokens kept", "metavar": "TOKENS", "min": 8})
    method: str = "x"  # left out by the outer field's "exclude": the outer config has its own --method


@dataclass(frozen=True)
class Config:
    out: Path = field(metadata={"help": "run folder"})
    method: str = field(default="a", metadata={"help": "how", "choices": ("a", "b")})
    rounds: int = field(default=3, metadata={"help": "rounds at most", "min": 0, "max": 10})
    langs: tuple[str, ...] = field(default=("fr", "de"), metadata={"help": "languages", "choices": ("fr", "de", "es")})
    limit: int | None = field(default=None, metadata={"help": "items at most (default: all)", "min": 1})
    model: ModelSpec = field(default_factory=lambda: ModelSpec.parse("openai:http://127.0.0.1:1/v1"),
                             metadata={"help": "which model"})
    progress: bool = field(default=True, metadata={"help": "show progress"})
    inner: Inner = field(default_factory=Inner, metadata={"exclude": ("method",)})


def parser_for(cls=Config, **options) -> argparse.ArgumentParser:
    parser = ArgumentParser(prog="prog")
    add_options(parser, cls, **options)
    return parser


def test_options_given_are_parsed_by_the_field_types():
    args = parser_for().parse_args(["--out", "run", "--method", "b", "--rounds", "0", "--langs", "es, fr",
                                    "--limit", "5", "--model", "vllm:org/m", "--no-progress", "--budget", "64"])
    config = from_args(Config, args)
    assert config == Config(out=Path("run"), method="b", rounds=0, langs=("es", "fr"), limit=5,
                            model=ModelSpec("vllm", "org/m"), progress=False, inner=Inner(64))


def test_options_left_out_keep_the_dataclass_defaults():
    config = from_args(Config, parser_for().parse_args(["--out", "run"]))
    assert config == Config(out=Path("run"))


def test_a_nested_field_names_the_inner_fields_it_leaves_out():
    config = from_args(Config, parser_for().parse_args(["--out", "run", "--method", "b"]))
    assert (config.method, config.inner.method) == ("b", "x")


def test_given_values_override_the_options():
    args = parser_for().parse_args(["--out", "run", "--method", "b"])
    assert from_args(Config, args, method="a").method == "a"


def test_help_shows_metadata_and_defaults():
    text = parser_for().format_help()
    for expected in ("--out OUT", "run folder", "{a,b}", "--rounds ROUNDS", "(default: 3)", "--langs A,B",
                     "(default: fr,de)", "--budget TOKENS", "--progress, --no-progress", "(default: all)"):
        assert expected in text, expected


@pytest.mark.parametrize(("argv", "message"), [
    (["--rounds", "-1"], "argument --rounds: must be at least 0, not -1"),
    (["--rounds", "11"], "argument --rounds: must be at most 10, not 11"),
    (["--rounds", "many"], "argument --rounds: expected an integer, got 'many'"),
    (["--method", "c"], "argument --method: invalid choice: 'c'"),
    (["--langs", "fr,xx"], "argument --langs: unknown 'xx'; choose from: fr, de, es"),
    (["--langs", ","], "argument --langs: expected a comma-separated list"),
    (["--budget", "2"], "argument --budget: must be at least 8, not 2"),
    (["--model", "gpt:x"], "argument --model: unknown backend 'gpt'"),
    ([], "the following arguments are required: --out"),
])
def test_bad_values_are_refused_in_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_:
        parser_for().parse_args(["--out", "run", *argv] if argv else argv)
    assert exit_.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("prog: error: ") and message in lines[0], lines


def test_excluded_fields_are_not_options_and_repeatable_ones_collect_a_list():
    parser = parser_for(exclude=("method", "budget"), repeatable=("model",))
    args = parser.parse_args(["--out", "r", "--model", "vllm:a", "--model", "vllm:b"])
    assert args.model == [ModelSpec("vllm", "a"), ModelSpec("vllm", "b")]
    with pytest.raises(SystemExit):
        parser.parse_args(["--out", "r", "--method", "b"])
    assert "--budget" not in parser.format_help()


def test_a_field_type_without_a_parser_is_a_programming_error():
    @dataclass
    class Odd:
        pair: tuple[int, int] = (1, 2)

    with pytest.raises(TypeError, match="fixed-length tuple"):
        parser_for(Odd)
