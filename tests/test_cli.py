"""The console script as a user runs it."""

import json

import pytest


def test_help_lists_the_commands(intercpt_cli):
    result = intercpt_cli("--help")
    assert result.returncode == 0
    for command in ("translate", "chat", "serve", "evaluate", "ui"):  # found through entry points
        assert command in result.stdout


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["translate", "", "--to", "fr"], None, "nothing to translate"),
        (["translate", "Hello", "--to", "xx"], None, "unsupported target language 'xx'"),
        (["translate", "-", "--to", "fr"], b"\x00\x01binary\x00", "binary"),
        (["translate", "Hello", "--to", "fr", "--model", "transformers:/no/such/model.gguf"], None, "not found"),
        (["translate", "Hello", "--to", "fr", "--model", "vllm:/no/such/dir"], None, "not found"),
        (["translate", "Hello", "--to", "fr", "--model", "openai:http://127.0.0.1:9/v1"], None, "cannot reach"),
        (["translate", "Hello", "--to", "fr", "--model", "gpt:foo"], None, "unknown backend"),
        (["serve", "--model", "openai:http://127.0.0.1:9/v1"], None, "serve launches vLLM"),
    ],
)
def test_bad_input_exits_nonzero_with_one_line(intercpt_cli, args, stdin, message):
    result = intercpt_cli(*args, stdin=stdin)
    assert result.returncode == 1
    err = result.stderr.decode() if isinstance(result.stderr, bytes) else result.stderr
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("intercpt: error:") and message in lines[0]


@pytest.mark.real_model
def test_translate_reads_standard_input_and_prints_a_json_transcript(intercpt_cli, embedded_spec):
    result = intercpt_cli("translate", "--to", "de", "--method", "no-extra", "--model", embedded_spec, "--json",
                          stdin="Where is the station?\n")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["source"].strip() == "Where is the station?"
    assert (data["target_lang"], data["method"]) == ("de", "no-extra")
    assert data["model"] == embedded_spec
    assert data["translation"].strip()
    assert data["timings"]["translate"] > 0
