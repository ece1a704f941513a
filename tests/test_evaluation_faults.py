"""The evaluator under faults: stop signals, failing items, server outages, two processes on one
run directory, bad data rows and bad arguments. Nothing finished may be lost, nothing recorded twice.

Fast tests on fake chat models, plus one subprocess run of the real command line against a
fake OpenAI-compatible server, where the signals are real and the exit must not wait.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import openai
import pytest
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from assistant.cli.main import main
from assistant.errors import BackendError, InputError, OutageError
from evaluation.config import EvalConfig
from evaluation.data import LoadReport
from evaluation.loaders import jsonl
from evaluation.records import RecordStore
from evaluation.runner import Evaluation, evaluate
from evaluation.retry import RetryAbandoned, with_retries
from evaluation.stopping import StopRequest, is_garbage_reply, is_server_failure
from tests.fake_openai import FakeOpenAIServer
from tests.fakes import StepFake

ROOT = Path(__file__).resolve().parent.parent


def write_data(path: Path, count: int, **row) -> Path:
    rows = [{"id": f"item-{n}", "src": f"Could you sign form {n}, please?", "ref": f"Pourriez-vous signer le {n} ?",
             "context": "At the bank.", "type": "formality", "lang": "fr", "attributes": {"formality": "formal"},
             **row} for n in range(count)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def config(tmp_path: Path, count: int = 20, **overrides) -> EvalConfig:
    settings = dict(out=tmp_path / "run", langs=None, methods=("no-extra",), translator="transformers:fake-model",
                    bootstrap=20, retry_wait=0.01)
    settings.update(overrides)
    if "data" not in settings:
        settings["data"] = str(write_data(tmp_path / "data.jsonl", count))
    return EvalConfig(**settings)


class ScriptedFake(StepFake):
    """A StepFake that runs ``script(n, messages)`` before its n-th translate call (from 1): to send
    a signal, block, or raise, as a fault would."""

    script: object = None

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        result = super()._generate(messages, stop, run_manager, **kwargs)
        if self.calls[-1][0] == "translate" and self.script is not None:
            reply = self.script(self.steps().count("translate"), messages[-1].content)
            if reply is not None:
                return ChatResult(generations=[ChatGeneration(message=AIMessage(content=reply))])
        return result


def fake(script=None) -> ScriptedFake:
    return ScriptedFake(detect=["{}"], translate=["Pourriez-vous signer ?"], calls=[], script=script)


def keys(path: Path) -> list[str]:
    return [json.loads(line)["key"] for line in path.read_text(encoding="utf-8").splitlines()]


# Stop signals


@pytest.mark.parametrize("number, raised", [(signal.SIGINT, KeyboardInterrupt), (signal.SIGTERM, SystemExit)])
def test_a_stop_signal_sends_nothing_more_keeps_what_finished_and_says_how_to_resume(tmp_path, capsys, number,
                                                                                       raised):
    def stop_at_4th(n, _):
        if n == 4:
            os.kill(os.getpid(), number)

    model = fake(stop_at_4th)
    before = signal.getsignal(number)
    with Evaluation(config(tmp_path, concurrency=2), lambda spec: model, resume_command="intercpt evaluate --out X") \
            as evaluation, pytest.raises(raised) as stopped:
        evaluation.run(progress=False)
    assert signal.getsignal(number) is before  # the command line's own handler is back
    if raised is SystemExit:
        assert stopped.value.code == 128 + signal.SIGTERM
    sent = model.steps().count("translate")
    kept = keys(tmp_path / "run" / "items.jsonl")
    assert sent <= 4 + 2, "items were launched after the stop"
    assert 3 <= len(kept) <= sent and len(set(kept)) == len(kept)
    session = json.loads((tmp_path / "run" / "run.json").read_text())["sessions"][-1]
    assert session["stopped"] == signal.Signals(number).name and session["items"] == len(kept)
    assert "resume with: intercpt evaluate --out X" in capsys.readouterr().err

    model.script = None
    evaluate(config(tmp_path, concurrency=2), progress=False, load_model=lambda spec: model)
    assert sorted(keys(tmp_path / "run" / "items.jsonl")) == sorted(f"no-extra/item-{n}" for n in range(20))
    assert model.steps().count("translate") == sent + 20 - len(kept)


def test_an_item_still_running_after_the_grace_period_is_dropped_and_the_run_ends(tmp_path):
    release = threading.Event()

    def stop_and_hang(n, _):
        if n == 3:
            os.kill(os.getpid(), signal.SIGINT)
            release.wait(10)

    model = fake(stop_and_hang)
    started = time.monotonic()
    with Evaluation(config(tmp_path), lambda spec: model, grace_s=0.3) as evaluation, \
            pytest.raises(KeyboardInterrupt):
        evaluation.run(progress=False)
    assert time.monotonic() - started < 3
    path = tmp_path / "run" / "items.jsonl"
    assert keys(path) == ["no-extra/item-0", "no-extra/item-1"]
    release.set()  # the abandoned call returns now: it must not be recorded
    time.sleep(0.2)
    assert keys(path) == ["no-extra/item-0", "no-extra/item-1"]


def test_a_second_signal_exits_at_once(tmp_path):
    def signal_twice_and_hang(n, _):
        if n == 2:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.2)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(10)

    started = time.monotonic()
    with Evaluation(config(tmp_path), lambda spec: fake(signal_twice_and_hang), grace_s=60) as evaluation, \
            pytest.raises(KeyboardInterrupt):
        evaluation.run(progress=False)
    assert time.monotonic() - started < 5
    assert keys(tmp_path / "run" / "items.jsonl") == ["no-extra/item-0"]


def test_stop_handlers_are_installed_only_while_active_and_restored():
    before = signal.getsignal(signal.SIGTERM)
    with StopRequest() as stop:
        assert signal.getsignal(signal.SIGTERM) is not before
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)
        assert stop.requested and stop.name == "SIGTERM"
        with pytest.raises(SystemExit):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)
    assert signal.getsignal(signal.SIGTERM) is before


# Failing items and outages


def test_an_empty_reply_is_the_item_s_recorded_failure_and_is_not_retried(tmp_path):
    model = fake(lambda n, text: "  " if "form 3," in text else None)
    summary = evaluate(config(tmp_path, count=5), progress=False, load_model=lambda spec: model)
    records = {json.loads(line)["key"]: json.loads(line) for line in
               (tmp_path / "run" / "items.jsonl").read_text(encoding="utf-8").splitlines()}
    assert len(records) == 5 and "returned no translation" in records["no-extra/item-3"]["error"]
    assert records["no-extra/item-3"]["scores"]["f_acc"] == 0  # scored as a failure
    assert summary["run"]["failed_items"] == 1 and (tmp_path / "run" / "report.md").is_file()
    model.calls.clear()
    evaluate(config(tmp_path, count=5), progress=False, load_model=lambda spec: model)
    assert model.calls == []


def test_an_item_that_cannot_be_scored_is_recorded_and_the_run_goes_on(tmp_path, monkeypatch):
    import evaluation.metrics as metrics

    real = metrics.segment_scores

    def scores(record):
        if record.item.id == "item-1":
            raise TypeError("unsupported operand type(s)")
        return real(record)

    monkeypatch.setattr(metrics, "segment_scores", scores)
    with Evaluation(config(tmp_path, count=3), lambda spec: fake()) as evaluation:
        evaluation.run(progress=False)
        failed = evaluation.store.records["no-extra/item-1"]
    assert failed.error == "cannot be scored: TypeError: unsupported operand type(s)"
    assert failed.transcript is not None and failed.translation == ""
    assert len(evaluation.store) == 3


def status_error(kind: type, status: int) -> openai.APIStatusError:
    request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    return kind("failed", response=httpx.Response(status, request=request), body=None)


def test_only_the_server_s_passing_failures_are_retried_and_never_recorded():
    request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")
    assert is_server_failure(openai.APIConnectionError(request=request))
    assert is_server_failure(openai.APITimeoutError(request=request))
    assert is_server_failure(status_error(openai.InternalServerError, 500))
    assert is_server_failure(status_error(openai.InternalServerError, 503))
    assert is_server_failure(status_error(openai.RateLimitError, 429))
    assert is_server_failure(httpx.ConnectError("refused", request=request))
    assert is_server_failure(httpx.RemoteProtocolError("peer closed connection", request=request))
    assert is_server_failure(ConnectionRefusedError(111, "refused"))
    assert is_server_failure(OutageError("the server went away"))
    wrapped = BackendError("the server failed")
    wrapped.__cause__ = status_error(openai.InternalServerError, 502)
    assert is_server_failure(wrapped)
    assert not is_server_failure(status_error(openai.BadRequestError, 400))  # a prompt it will never take
    assert not is_server_failure(BackendError("the model returned no translation (raw reply: '')"))
    assert not is_server_failure(TypeError("bad row"))


def test_a_reply_that_is_not_a_completion_is_garbage_and_an_empty_one_is_not():
    assert is_garbage_reply(ValueError("No generation chunks were returned"))
    assert is_garbage_reply(ValueError("Unexpected response type from OpenAI-compatible endpoint. Expected a dict"))
    assert is_garbage_reply(TypeError("Received response with null value for 'choices'. This can happen when"))
    assert is_garbage_reply(json.JSONDecodeError("Expecting value", "<html>", 0))
    assert not is_garbage_reply(BackendError("the model returned no translation (raw reply: '')"))
    assert not is_garbage_reply(ValueError("some other bug"))
    assert not is_garbage_reply(status_error(openai.InternalServerError, 500))


def test_a_server_error_is_retried_with_backoff_and_the_item_succeeds(tmp_path):
    def fail_twice(n, _):
        if n <= 2:
            raise status_error(openai.InternalServerError, 500)

    model = fake(fail_twice)
    evaluate(config(tmp_path, count=3), progress=False, load_model=lambda spec: model)
    records = [json.loads(line) for line in (tmp_path / "run" / "items.jsonl").read_text().splitlines()]
    assert sorted(r["key"] for r in records) == [f"no-extra/item-{n}" for n in range(3)]
    assert all(r["error"] is None for r in records)
    assert model.steps().count("translate") == 5


def test_a_wait_to_retry_ends_at_once_when_the_run_halts():
    halt = threading.Event()
    calls = []

    def always_500():
        calls.append(time.monotonic())
        raise status_error(openai.InternalServerError, 500)

    threading.Timer(0.2, halt.set).start()
    started = time.monotonic()
    with pytest.raises(RetryAbandoned):
        with_retries(always_500, retries=5, max_wait_s=60, halt=halt)
    assert time.monotonic() - started < 5 and len(calls) <= 3  # not the minutes of five long waits


def test_an_item_the_server_keeps_failing_stops_the_run_unrecorded_and_a_restart_runs_it(tmp_path):
    request = httpx.Request("POST", "http://127.0.0.1:9/v1/chat/completions")

    def refuse_from_3rd(n, _):
        if n >= 3:
            raise openai.APIConnectionError(request=request)

    model = fake(refuse_from_3rd)
    with pytest.raises(OutageError, match=r"1 item\(s\) failed for the model server and were not recorded \(after 2 "
                                          r"retries: APIConnectionError.*2 of 6 records kept.*resume"):
        evaluate(config(tmp_path, count=6, retries=2), progress=False, load_model=lambda spec: model)
    assert keys(tmp_path / "run" / "items.jsonl") == ["no-extra/item-0", "no-extra/item-1"]
    assert model.steps().count("translate") == 2 + 3  # the third item, tried three times; nothing after it
    model.script, model.calls[:] = None, []
    evaluate(config(tmp_path, count=6), progress=False, load_model=lambda spec: model)
    assert model.steps().count("translate") == 4
    assert len(set(keys(tmp_path / "run" / "items.jsonl"))) == 6


def test_a_garbage_reply_is_counted_fails_the_run_and_its_item_runs_again_once(tmp_path):
    def html_page_for_form_1(n, text):
        if "form 1," in text:
            raise ValueError("No generation chunks were returned")  # what the client says of an HTML body

    model = fake(html_page_for_form_1)
    with pytest.raises(BackendError, match=r"1 item\(s\) got a reply from the model server that is not a completion"):
        evaluate(config(tmp_path, count=3), progress=False, load_model=lambda spec: model)
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["run"]["garbage_items"] == 1 and summary["run"]["failed_items"] == 1
    assert "Garbage replies of the model server" in (tmp_path / "run" / "report.md").read_text()
    assert keys(tmp_path / "run" / "items.jsonl") == [f"no-extra/item-{n}" for n in range(3)]

    model.script, model.calls[:] = None, []
    summary = evaluate(config(tmp_path, count=3), progress=False, load_model=lambda spec: model)
    assert model.steps().count("translate") == 1 and summary["run"]["garbage_items"] == 0
    assert keys(tmp_path / "run" / "items.jsonl") == [f"no-extra/item-{n}" for n in range(3)]  # replaced in place
    assert all(r.error is None for r in RecordStore(tmp_path / "run" / "items.jsonl"))


def test_a_reply_that_is_not_a_translation_is_scored_as_it_is_and_counted(tmp_path):
    english = "Could you sign this form for me at the bank, please, before we leave?"
    model = fake(lambda n, text: english if "form 2," in text else None)
    summary = evaluate(config(tmp_path, count=3), progress=False, load_model=lambda spec: model)
    record = RecordStore(tmp_path / "run" / "items.jsonl").records["no-extra/item-2"]
    assert record.error is None and record.translation == english and record.not_a_translation
    assert summary["run"]["not_translation_items"] == 1 and summary["run"]["failed_items"] == 0
    assert "Replies that are not translations (English, or a length far from the source's; scored as they are): " \
           "fr no-extra 1" in (tmp_path / "run" / "report.md").read_text()


# Two processes, temporary files, duplicates


def test_a_second_evaluation_on_the_same_folder_is_refused_at_once(tmp_path):
    with Evaluation(config(tmp_path), lambda spec: fake()):
        with pytest.raises(InputError, match=r"run is in use by intercpt evaluate \(pid \d+\)"):
            Evaluation(config(tmp_path), lambda spec: fake())
    Evaluation(config(tmp_path), lambda spec: fake()).close()  # free again once the first is closed


def test_a_second_process_on_the_same_folder_is_refused_at_once(tmp_path):
    with Evaluation(config(tmp_path), lambda spec: fake()):
        other = subprocess.run(
            [sys.executable, "-m", "assistant.cli.main", "evaluate", "--out", str(tmp_path / "run"), "--data",
             str(tmp_path / "data.jsonl"), "--langs", "fr", "--methods", "no-extra", "--translator",
             "transformers:/nonexistent/model"], capture_output=True, text=True, cwd=ROOT, timeout=120,
            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert other.returncode == 1
    assert "is in use by intercpt evaluate" in other.stderr and "Traceback" not in other.stderr


def test_whole_file_rewrites_from_two_writers_never_collide(tmp_path):
    with Evaluation(config(tmp_path, count=3), lambda spec: fake()) as evaluation:
        evaluation.run(progress=False)
        records = list(evaluation.store)
    stores = [RecordStore(tmp_path / "run" / "items.jsonl") for _ in range(4)]
    errors = []

    def rewrite(store):
        try:
            for _ in range(100):
                store.rewrite(records)
        except OSError as err:
            errors.append(err)

    threads = [threading.Thread(target=rewrite, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert [p.name for p in (tmp_path / "run").iterdir() if p.name.endswith(".tmp")] == []


def test_a_record_found_twice_on_reload_is_reported_and_not_kept(tmp_path, capsys):
    evaluate(config(tmp_path, count=3), progress=False, load_model=lambda spec: fake())
    path = tmp_path / "run" / "items.jsonl"
    rows = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([*rows, rows[1]]) + "\n", encoding="utf-8")
    summary = evaluate(config(tmp_path, count=3), progress=False, load_model=lambda spec: fake())
    assert summary["data"]["duplicate_records"] == [f"{path}:4: no-extra/item-1"]
    assert "1 duplicate record(s) dropped" in capsys.readouterr().err
    assert keys(path) == ["no-extra/item-0", "no-extra/item-1", "no-extra/item-2"]


# Data rows and arguments


def test_every_jsonl_row_is_validated_and_reported_with_its_line(tmp_path):
    good = {"src": "Are you ready?", "ref": "Êtes-vous prêt ?", "lang": "fr", "type": "formality"}
    rows = [
        json.dumps({**good, "id": "ok"}).encode(),
        b'{"id": "bad-utf8", "src": "caf\xe9"}',
        json.dumps({**good, "src": 123}).encode(),
        json.dumps({**good, "context": ["a", "list"]}).encode(),
        json.dumps({**good, "refs": []}).encode(),
        json.dumps({**good, "ref": ""}).encode(),
        json.dumps({**good, "lang": "xx"}).encode(),
        json.dumps({**good, "attributes": {"formality": 1}}).encode(),
        json.dumps({**good, "context": "x" * 5_000_000}).encode(),
        json.dumps({**good, "id": "ok"}).encode(),
        json.dumps({**good, "id": "nothing-to-ask", "type": "none"}).encode(),
        b"[1, 2]",
        json.dumps({**good, "id": "typo", "type": "formalty"}).encode(),
        json.dumps({**good, "id": "no-type", "type": None}).encode(),
    ]
    path = tmp_path / "set.jsonl"
    path.write_bytes(b"\n".join(rows) + b"\n")
    report = LoadReport()
    items = jsonl.load(path, None, report)
    assert [(i.id, i.ambiguity) for i in items] == [("ok", "formality"), ("nothing-to-ask", "none"),
                                                    ("no-type", "unknown")]
    reasons = {int(m.split(":")[1]): m.split(": ", 1)[1] for m in report.malformed}
    assert sorted(reasons) == [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13]
    assert "not UTF-8" in reasons[2] and "'src' must be a non-empty string, got int 123" in reasons[3]
    assert "'context' must be a string" in reasons[4] and "'refs' must be a non-empty list" in reasons[5]
    assert "'ref' must be a non-empty string" in reasons[6] and "'lang' must be one of" in reasons[7]
    assert "'attributes'" in reasons[8] and "'context' has 5000000 characters" in reasons[9]
    assert "repeats the row of line 1" in reasons[10] and "expected a JSON object" in reasons[12]
    assert reasons[13].startswith("'type' must be one of formality, it_resolution,") and 'got str "formalty"' in reasons[13]


NO_MODEL = ["--translator", "transformers:/nonexistent/model"]  # loading it would fail with another message


@pytest.mark.parametrize("extra, message", [
    (["--max-questions", "-1"], "argument --max-questions: must be at least 0"),
    (["--concurrency", "257"], "argument --concurrency: must be at most 256"),
    (["--bootstrap", "0"], "argument --bootstrap: must be at least 1"),
    (["--bootstrap", "100001"], "argument --bootstrap: must be at most 100000"),
])
def test_bad_arguments_fail_before_any_model_loads(tmp_path, capsys, extra, message):
    data = write_data(tmp_path / "data.jsonl", 2)
    with pytest.raises(SystemExit):
        main(["evaluate", "--out", str(tmp_path / "run"), "--data", str(data), *NO_MODEL, *extra])
    assert message in capsys.readouterr().err


def test_with_context_on_data_without_context_fails_before_any_model_loads(tmp_path, capsys):
    data = write_data(tmp_path / "data.jsonl", 2, context="")
    assert main(["evaluate", "--out", str(tmp_path / "run"), "--data", str(data), *NO_MODEL,
                 "--methods", "with-context"]) == 1
    assert "--methods with-context needs items with a context; none of the 2 item(s)" in capsys.readouterr().err


def test_with_context_runs_only_on_the_items_that_have_a_context(tmp_path):
    data = write_data(tmp_path / "data.jsonl", 2)
    data.write_text(data.read_text() + write_data(tmp_path / "more.jsonl", 1, id="bare", context="").read_text())
    with Evaluation(config(tmp_path, data=str(data), methods=("with-context", "no-extra")), lambda s: fake()) as run:
        assert [f"{m}/{i.id}" for m, i in run.units] == [
            "with-context/item-0", "no-extra/item-0", "with-context/item-1", "no-extra/item-1", "no-extra/bare"]


def test_a_huge_context_is_a_reported_row_not_a_crash(tmp_path, capsys):
    data = write_data(tmp_path / "data.jsonl", 1, context="word " * 1_000_000)
    assert main(["evaluate", "--out", str(tmp_path / "run"), "--data", str(data), *NO_MODEL]) == 1
    assert f"{data}:1: 'context' has 5000000 characters; at most" in capsys.readouterr().err


# The real command line, real signals


def test_the_command_line_names_the_line_of_a_row_with_an_unknown_type_and_runs_the_others(tmp_path):
    data = write_data(tmp_path / "data.jsonl", 3)
    rows = data.read_text(encoding="utf-8").splitlines()
    rows[1] = rows[1].replace('"type": "formality"', '"type": "formal_you"')
    data.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "run"
    with FakeOpenAIServer() as server:
        done = subprocess.run(
            [sys.executable, "-m", "assistant.cli.main", "evaluate", "--out", str(out), "--data", str(data),
             "--langs", "fr", "--methods", "no-extra", "--translator", f"openai:{server.url}#fake", "--bootstrap", "20",
             "--no-progress"], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": "EMPTY"},
            capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"1 unreadable data row(s) skipped: {data}:2: 'type' must be one of formality," in done.stderr
    assert 'got str "formal_you"' in done.stderr and "Traceback" not in done.stderr
    assert sorted(keys(out / "items.jsonl")) == ["no-extra/item-0", "no-extra/item-2"]
    assert "1 unreadable row(s) skipped" in (out / "report.md").read_text(encoding="utf-8")


def test_the_command_line_stops_on_sigterm_promptly_and_a_rerun_finishes_the_run(tmp_path, monkeypatch):
    server = FakeOpenAIServer(delay=0.3)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    data = write_data(tmp_path / "data.jsonl", 12)
    out = tmp_path / "run"
    arguments = ["evaluate", "--out", str(out), "--data", str(data), "--langs", "fr", "--methods", "no-extra",
                 "--translator", f"openai:{server.url}#fake", "--concurrency", "2", "--bootstrap", "20", "--no-progress"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": "EMPTY"}
    monkeypatch.setenv("OPENAI_API_KEY", "EMPTY")
    try:
        process = subprocess.Popen([sys.executable, "-m", "assistant.cli.main", *arguments], cwd=ROOT, env=env,
                                   stderr=subprocess.PIPE, text=True)
        items = out / "items.jsonl"
        deadline = time.monotonic() + 120  # the start of a fresh interpreter, on a busy machine
        while not (items.exists() and len(items.read_text().splitlines()) >= 3) and time.monotonic() < deadline:
            assert process.poll() is None, process.stderr.read()
            time.sleep(0.05)
        sent_at_stop = server.requests
        stopped = time.monotonic()
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
        assert time.monotonic() - stopped < 15  # the grace period (5 s) and the exit, not the 9 items left
        assert process.returncode == 128 + signal.SIGTERM, stderr
        assert server.requests <= sent_at_stop + 2  # at most the items in flight, nothing launched after
        kept = keys(items)
        assert len(set(kept)) == len(kept) >= 3
        assert all(json.loads(line)["error"] is None for line in items.read_text().splitlines())
        assert "Traceback" not in stderr and "resume with: intercpt evaluate --out" in stderr

        handler = signal.getsignal(signal.SIGTERM)
        try:
            assert main(arguments) == 0  # the same command again, here in-process, finishes the run
        finally:
            signal.signal(signal.SIGTERM, handler)  # main() installs its own
        assert sorted(keys(items)) == sorted(f"no-extra/item-{n}" for n in range(12))
        assert (out / "report.md").is_file()
    finally:
        server.shutdown()
