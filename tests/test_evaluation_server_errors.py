"""The real ``intercpt evaluate`` process against a model server that fails: HTTP 500 to everything,
500 for a while, or 200s that are not completions. A server's failure is never an item's final
record: it is retried with backoff, and what still fails exits non-zero and runs again at the next
start; a garbage reply is counted in the report and also runs again.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fake_openai import FakeOpenAIServer
from tests.test_evaluation_faults import ROOT, write_data

ITEMS = 4
QUICK_RETRIES = ["--retries", "2", "--retry-wait", "0.05"]  # short backoff: the test measures behaviour, not time


@pytest.fixture
def server():
    with FakeOpenAIServer() as fake:
        yield fake


def run_evaluate(server: FakeOpenAIServer, tmp_path: Path) -> subprocess.CompletedProcess:
    """The same command line each time, as a person resuming a run types it again."""
    data = tmp_path / "data.jsonl"
    if not data.exists():
        write_data(data, ITEMS)
    command = [sys.executable, "-m", "assistant.cli.main", "evaluate", "--out", str(tmp_path / "run"), "--data",
               str(data), "--langs", "fr", "--methods", "no-extra", "--translator", f"openai:{server.url}#fake",
               "--bootstrap", "20", "--no-progress", *QUICK_RETRIES]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "OPENAI_API_KEY": "EMPTY"})


def records(tmp_path: Path) -> list[dict]:
    path = tmp_path / "run" / "items.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


def test_a_server_answering_500_fails_the_run_records_nothing_and_a_rerun_after_recovery_finishes(server, tmp_path):
    server.mode = "error"
    failed = run_evaluate(server, tmp_path)
    assert failed.returncode == 1, failed.stderr
    message = [line for line in failed.stderr.splitlines() if line.startswith("intercpt: error:")]
    assert len(message) == 1 and "1 item(s) failed for the model server and were not recorded" in message[0]
    assert "HTTP 500" in message[0] and "resume with: intercpt evaluate" in message[0]
    assert "Traceback" not in failed.stderr
    assert records(tmp_path) == []  # no final failure records
    assert 3 <= server.requests <= 6  # the first item tried three times (each maybe twice by the client itself)

    server.mode, server.requests = "ok", 0
    finished = run_evaluate(server, tmp_path)
    assert finished.returncode == 0, finished.stderr
    assert server.requests == ITEMS
    done = records(tmp_path)
    assert sorted(r["key"] for r in done) == [f"no-extra/item-{n}" for n in range(ITEMS)]
    assert all(r["error"] is None for r in done)


def test_a_server_that_fails_a_few_requests_is_retried_and_the_run_succeeds(server, tmp_path):
    server.errors_left = 2  # more than the client's own retry takes
    finished = run_evaluate(server, tmp_path)
    assert finished.returncode == 0, finished.stderr
    assert server.requests == ITEMS + 2
    done = records(tmp_path)
    assert len(done) == ITEMS and all(r["error"] is None for r in done)


def test_garbage_replies_are_counted_in_the_report_and_run_again_at_the_next_start(server, tmp_path):
    server.mode = "garbage"
    failed = run_evaluate(server, tmp_path)
    assert failed.returncode == 1, failed.stderr
    assert f"{ITEMS} item(s) got a reply from the model server that is not a completion" in failed.stderr
    garbage = records(tmp_path)
    assert len(garbage) == ITEMS and all(r["garbage"] and r["error"] for r in garbage)
    report = (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
    assert f"{ITEMS} records ({ITEMS} failed, of which {ITEMS} for a garbage reply of the server" in report
    assert f"Garbage replies of the model server (not completions; failed items, run again at the next start): " \
           f"fr no-extra {ITEMS}" in report
    summary = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))
    assert summary["run"]["garbage_items"] == ITEMS and summary["groups"][0]["garbage"] == ITEMS

    server.mode, server.requests = "ok", 0
    finished = run_evaluate(server, tmp_path)
    assert finished.returncode == 0, finished.stderr
    assert server.requests == ITEMS
    done = records(tmp_path)
    assert sorted(r["key"] for r in done) == [f"no-extra/item-{n}" for n in range(ITEMS)]  # each once
    assert all(r["error"] is None and not r["garbage"] for r in done)
    assert "Garbage replies" not in (tmp_path / "run" / "report.md").read_text(encoding="utf-8")
