"""The console script in-process: commands found as plugins, arguments checked before any model loads."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from importlib.metadata import EntryPoint
from types import SimpleNamespace

import pytest

import assistant.backends
from assistant.cli import main as cli
from assistant.cli.main import main
from tests.fakes import StepFake
from tests.test_fidelity import ECHOES, REFERENCE, SOURCE


@pytest.fixture
def loads(monkeypatch):
    """The model loads a command asks for (``calls``); a load fails unless a test sets ``model``."""
    record = SimpleNamespace(calls=[], model=None)

    def load(spec, generation=None):
        record.calls.append(spec)
        if record.model is None:
            raise AssertionError(f"a model was loaded for {spec} before the arguments were checked")
        return record.model

    monkeypatch.setattr(assistant.backends, "load_chat_model", load)
    return record


def one_error_line(capsys) -> str:
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(("argv", "message"), [
    (["translate", "Hi", "--to", "fr", "--method", "guess"], "argument --method: invalid choice: 'guess'"),
    (["translate", "Hi", "--to", "fr", "--max-questions", "-1"], "argument --max-questions: must be at least 0"),
    (["translate", "Hi", "--to", "fr", "--max-questions", "99"], "argument --max-questions: must be at most"),
    (["translate", "Hi", "--to", "fr", "--context-strategy", "all"], "argument --context-strategy: invalid choice"),
    (["translate", "Hi"], "the following arguments are required: --to"),
    (["chat", "--to", "fr", "--context-budget", "100"], "unrecognized arguments: --context-budget 100"),
    (["ui", "--port", "70000"], "argument --port: a port is between 1 and 65535"),
    (["ui", "--method", "no-extra"], "unrecognized arguments: --method no-extra"),
    (["evaluate", "--data", "ambigmt"], "the following arguments are required: --out"),
    (["evaluate", "--out", "run", "--limit", "some"], "argument --limit: expected an integer, got 'some'"),
    (["evaluate", "--out", "run", "--method", "no-extra"], "unrecognized arguments: --method"),  # no abbreviations
    (["evaluate", "--out", "run", "--methods", "intercpt,guess"], "argument --methods: unknown 'guess'"),
    (["evaluate", "--out", "run", "--concurrency", "0"], "argument --concurrency: must be at least 1"),
    (["nonsense"], "argument COMMAND: invalid choice: 'nonsense'"),
])
def test_usage_errors_exit_2_in_one_line(argv, message, loads, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    line = one_error_line(capsys)
    assert line.startswith("intercpt") and message in line and "--help" in line
    assert loads.calls == []


@pytest.mark.parametrize(("argv", "message"), [
    (["translate", "Hi", "--to", "xx"], "unsupported target language 'xx'"),
    (["translate", "   ", "--to", "fr"], "nothing to translate"),
    (["translate", "Hi", "--to", "fr", "--method", "with-context"], "with-context method needs a context"),
    (["translate", "Hi", "--to", "fr", "--method", "with-context", "--context", "  "], "needs a context"),
    (["translate", "Hi", "--to", "fr", "--user", "simulated"], "simulated user needs a context"),
    (["translate", "Hi", "--to", "fr", "--user", "oracle"], "answers from gold labels"),
    (["translate", "Hi", "--to", "fr", "--user", "oracle", "--gold", "mood=happy"], "--gold takes KEY=VALUE"),
    (["translate", "Hi", "--to", "fr", "--context-budget", "2"], "budget must be at least 8"),
    (["translate", "Hi", "--to", "fr", "--context-file", "/no/such/context.txt"], "cannot read the context file"),
    (["translate", "--file", "/no/such/doc.txt", "--to", "fr"], "cannot read the file"),
    (["translate", "Hi", "--to", "fr", "--model", "gpt:foo"], "unknown backend 'gpt'"),
    (["translate", "Hi", "--to", "fr", "--user", "simulated", "--context", "Bob.", "--user-model", "vllm:"],
     "names no model"),
    (["chat", "--to", "fr", "--method", "with-context"], "chat has no context to read"),
    (["ui", "--context-budget", "3"], "budget must be at least 8"),
    (["ui", "--model", "openai:localhost"], "http(s) base URL"),
    (["serve"], "serve needs --model"),
    (["serve", "--model", "openai:http://127.0.0.1:9/v1"], "serve launches vLLM"),
])
def test_bad_input_exits_1_in_one_line_before_any_model_loads(argv, message, loads, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert main(argv) == 1
    line = one_error_line(capsys)
    assert line.startswith("intercpt: error:") and message in line
    assert loads.calls == []


def test_standard_input_beyond_one_request_is_refused_unread(loads, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"word " * 100_000)))
    assert main(["translate", "-", "--to", "fr"]) == 1
    assert "standard input holds more than 5000 characters" in one_error_line(capsys)
    assert loads.calls == []


def test_unreadable_document_and_empty_document(tmp_path, loads, capsys):
    binary = tmp_path / "doc.bin"
    binary.write_bytes(b"\xff\xfe\x00binary")
    assert main(["translate", "--file", str(binary), "--to", "fr"]) == 1
    assert "is not UTF-8 text" in one_error_line(capsys)
    empty = tmp_path / "empty.txt"
    empty.write_text("\n \n", encoding="utf-8")
    assert main(["translate", "--file", str(empty), "--to", "fr"]) == 1
    assert "empty" in one_error_line(capsys)
    assert loads.calls == []


def test_translate_runs_on_the_parsed_spec_once_arguments_pass(loads, capsys, monkeypatch):
    from fakes import StepFake

    loads.model = StepFake(translate=["Où est la gare ?"])
    monkeypatch.setenv("INTERCPT_MODEL", "openai:http://127.0.0.1:9/v1#m")
    assert main(["translate", "Where is the station?", "--to", "fr", "--method", "no-extra", "--json"]) == 0
    transcript = json.loads(capsys.readouterr().out)
    assert transcript["translation"] == "Où est la gare ?"
    assert transcript["model"] == "openai:http://127.0.0.1:9/v1#m"
    assert loads.calls == [assistant.backends.ModelSpec("openai", "http://127.0.0.1:9/v1", "m")]


def test_a_sweep_gives_one_config_per_translator_and_user_with_the_shared_options():
    argv = ["evaluate", "--out", "run", "--translator", "vllm:a", "--translator", "vllm:b", "--user", "none",
            "--max-questions", "1", "--methods", "intercpt"]
    args = cli.build_parser(argv).parse_args(argv)
    args.command.validate(args)
    assert [(c.translator, c.user) for c in args.configs] == [("vllm:a", "none"), ("vllm:b", "none")]
    assert {(c.chain.max_questions, c.methods) for c in args.configs} == {(1, ("intercpt",))}


def test_every_command_defines_each_option_once():
    for name in ("translate", "chat", "ui", "evaluate", "serve"):
        parser = cli.build_parser([name])  # argparse refuses an option string added twice
        help_text = parser._subparsers._group_actions[0].choices[name].format_help()
        assert help_text.count("--max-questions") <= 2  # its usage and its description


def test_chain_options_come_from_the_one_dataclass():
    from assistant.chain import ChainOptions
    from assistant.cli.options import option_name

    translate = cli.build_parser(["translate"])._subparsers._group_actions[0].choices["translate"]
    options = {s for action in translate._actions for s in action.option_strings}
    assert {option_name(name) for name in ChainOptions.__dataclass_fields__} <= options


def entry_points_with(*extra: EntryPoint):
    real = cli.entry_points(group=cli.COMMAND_GROUP)
    return lambda group: [*real, *extra]


def test_a_broken_plugin_is_one_line_when_chosen_and_a_warning_in_the_listing(monkeypatch, capsys):
    broken = EntryPoint("broken", "no_such_module.cli:Command", cli.COMMAND_GROUP)
    monkeypatch.setattr(cli, "entry_points", entry_points_with(broken))
    assert main(["broken", "--help"]) == 1
    line = one_error_line(capsys)
    assert line.startswith("intercpt: error: the 'broken' command (no_such_module.cli:Command) cannot be loaded")
    assert "ModuleNotFoundError" in line
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    captured = capsys.readouterr()
    assert "translate" in captured.out and "broken" not in captured.out
    assert captured.err.count("\n") == 1 and "warning: the 'broken' command" in captured.err


def test_a_plugin_that_is_not_a_command_is_refused(monkeypatch, capsys):
    odd = EntryPoint("odd", "json:JSONDecoder", cli.COMMAND_GROUP)
    monkeypatch.setattr(cli, "entry_points", entry_points_with(odd))
    assert main(["odd"]) == 1
    assert "is not a CLISubcommand" in one_error_line(capsys)


def test_no_installed_commands_says_how_to_install(monkeypatch, capsys):
    monkeypatch.setattr(cli, "entry_points", lambda group: [])
    assert main(["translate"]) == 1
    assert "pip install -e ." in one_error_line(capsys)


def test_only_the_chosen_command_is_imported():
    """The chain's commands never pull in the front ends (the web app, the evaluator)."""
    code = ("import sys\nfrom assistant.cli.main import main\ntry:\n    main(['translate', '--help'])\n"
            "except SystemExit:\n    pass\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'ui', 'evaluation', 'gradio', 'torch'}))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("echo", ECHOES)
def test_translate_delivers_no_sentence_restating_an_answer_and_ticks_none(echo, loads, capsys):
    """#26: a reply that appends a translated instruction to a right translation is printed without it;
    the account and the record say it was removed, and no passed check names it."""
    loads.model = StepFake(translate=[f"{REFERENCE} {echo}"], calls=[])
    argv = ["translate", SOURCE, "--to", "fr", "--answer", "formal", "--answer", "a man",
            "--model", "openai:http://127.0.0.1:9/v1#m"]
    assert main(argv) == 0
    printed = capsys.readouterr()
    assert printed.out.strip() == REFERENCE
    assert f"✂ removed « {echo} »" in printed.err
    assert not [line for line in printed.err.splitlines() if echo in line and "✓" in line], printed.err
    assert main([*argv, "--json"]) == 0
    transcript = json.loads(capsys.readouterr().out)
    assert transcript["translation"] == REFERENCE
    (fidelity,) = [c for c in transcript["checks"] if c["name"] == "fidelity"]
    assert f"removed “{echo}”" in fidelity["observed"] and f"{echo}: removed" in fidelity["features"]
    assert not [c for c in transcript["checks"] if c["status"] == "pass" and c["name"] != "fidelity"
                and echo in json.dumps(c, ensure_ascii=False)]
