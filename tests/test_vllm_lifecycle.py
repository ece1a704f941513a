"""The vLLM server lifecycle under faults, on a fake server: the real lock, record, supervisor, user
count, reaping and key handling run in real processes; only the model is missing."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from assistant.backends import ModelSpec, load_chat_model
from assistant.backends import vllm
from assistant.backends.server_registry import Registry, process_stamp
from assistant.errors import InputError
from tests.vllm_fakes import fake_command

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def model_dir(tmp_path, monkeypatch):
    """A model folder (never loaded) and a private intercpt cache shared with the user processes."""
    monkeypatch.setenv("INTERCPT_CACHE", str(tmp_path / "cache"))
    folder = tmp_path / "tiny-model"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    monkeypatch.setattr(vllm, "server_command", fake_command)
    yield str(folder)
    vllm.release_all(wait=True)


def _user(model_dir: str, *flags: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    return subprocess.Popen([sys.executable, "-m", "tests.vllm_fakes", model_dir, *flags], cwd=REPO, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def _record_of(user: subprocess.Popen) -> vllm.ServerRecord:
    line = user.stdout.readline()
    assert line, f"the user process ended with code {user.wait()}"
    return vllm.ServerRecord(**json.loads(line))


def _alive(pid: int) -> bool:
    return process_stamp(pid) is not None


def _eventually(condition, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _kill(user: subprocess.Popen) -> None:
    user.kill()
    user.wait()


def _model(model_dir: str) -> str:
    return vllm.resolve_model(model_dir)[0]


def test_a_sigkilled_owner_leaves_no_server_and_no_record(model_dir):
    user = _user(model_dir)
    record = _record_of(user)
    assert _alive(record.pid) and _alive(record.supervisor_pid) and record.owner == user.pid
    _kill(user)
    assert _eventually(lambda: not _alive(record.pid) and not _alive(record.supervisor_pid))
    assert Registry(_model(model_dir)).read() is None


def test_an_owner_killed_during_start_up_leaves_nothing_behind(model_dir):
    user = _user(model_dir, "--start-delay", "30")
    registry = Registry(_model(model_dir))
    assert _eventually(lambda: registry.read() is not None), "no record written at launch"
    record = registry.read()
    assert _alive(record.pid) and not vllm._healthy(record)
    _kill(user)
    assert _eventually(lambda: not _alive(record.pid) and not _alive(record.supervisor_pid))
    assert registry.read() is None


def test_two_processes_starting_together_share_one_server_until_the_last_leaves(model_dir):
    first, second = _user(model_dir), _user(model_dir)
    one, two = _record_of(first), _record_of(second)
    assert (one.pid, one.port, one.api_key) == (two.pid, two.port, two.api_key)
    _kill(first)
    time.sleep(1.5)  # three supervisor rounds
    assert _alive(one.pid), "stopped while a user was still using it"
    second.stdin.close()  # a clean exit
    second.wait()
    assert _eventually(lambda: not _alive(one.pid))
    assert Registry(_model(model_dir)).read() is None


def test_a_server_that_dies_is_reaped_and_replaced(model_dir):
    record = vllm.ensure_server(model_dir, progress=False)
    os.killpg(record.pid, signal.SIGKILL)
    assert _eventually(lambda: Registry(record.model).read() is None and not _alive(record.supervisor_pid))
    vllm.release(record.model)
    replacement = vllm.ensure_server(model_dir, progress=False)
    assert replacement.pid != record.pid and vllm._healthy(replacement)


def test_a_sigkilled_supervisor_takes_its_server_along_and_its_record_is_reaped(model_dir):
    record = vllm.ensure_server(model_dir, progress=False)
    os.kill(record.supervisor_pid, signal.SIGKILL)
    assert _eventually(lambda: not _alive(record.pid))
    assert vllm.find_running(record.model) is None
    assert Registry(record.model).read() is None


def test_the_record_is_private_and_the_key_is_off_the_command_line(model_dir):
    record = vllm.ensure_server(model_dir, progress=False)
    path = Registry(record.model).record_path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(record.api_key) >= 32
    for pid in (record.pid, record.supervisor_pid):
        assert record.api_key not in " ".join(vllm.psutil.Process(pid).cmdline())


def test_the_users_provider_key_is_never_sent_to_the_server(model_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-provider-secret")
    monkeypatch.setenv("INTERCPT_API_KEY", "sk-other-secret")
    monkeypatch.setenv("FAKE_VLLM_AUTH_LOG", str(tmp_path / "auth.log"))
    model = load_chat_model(ModelSpec.parse(f"vllm:{model_dir}"))
    assert model.invoke("Hello").content == "Bonjour."
    record = vllm._IN_USE[_model(model_dir)]
    sent = set((tmp_path / "auth.log").read_text().splitlines())
    assert sent == {f"Bearer {record.api_key}"}


def test_a_record_naming_another_process_is_not_trusted_and_that_process_is_spared(model_dir):
    stranger = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    with socket.socket() as sock:  # something healthy-looking would not help: the command line is checked
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    model = _model(model_dir)
    forged = vllm.ServerRecord(pid=stranger.pid, supervisor_pid=stranger.pid, host="127.0.0.1", port=port,
                               model=model, served_name="tiny-model", api_key="forged", owner=stranger.pid,
                               command=stranger.args)
    Registry(model).write(forged)
    try:
        record = vllm.ensure_server(model_dir, progress=False)
        assert record.pid != stranger.pid and record.api_key != "forged"
        assert stranger.poll() is None, "a process that reused a recorded PID was killed"
    finally:
        stranger.kill()
        stranger.wait()


def test_a_server_serving_another_model_is_refused(model_dir, monkeypatch):
    real_command = vllm.server_command
    monkeypatch.setattr(vllm, "server_command", lambda model, name, *rest: real_command(model, "impostor", *rest))
    with pytest.raises(vllm.BackendError, match="not 'tiny-model'"):
        vllm.ensure_server(model_dir, progress=False)


def test_a_busy_port_is_named_with_its_process(model_dir):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        with pytest.raises(InputError, match=rf"port {port} .* in use by PID {os.getpid()} \(.*python"):
            vllm.ensure_port_free("127.0.0.1", port)


def test_serve_on_a_busy_port_says_so_and_starts_nothing(model_dir, capsys):
    from assistant.cli.main import main

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        code = main(["serve", "--model", f"vllm:{model_dir}", "--port", str(port)])
    err = capsys.readouterr().err
    assert code != 0 and f"port {port}" in err and f"PID {os.getpid()}" in err and "Serving" not in capsys.readouterr().out
    assert Registry(_model(model_dir)).read() is None


REAL_SERVER_COMMAND = vllm.server_command  # before the fixture swaps in the fake server's
PARALLEL_FLAGS = ["--tensor-parallel-size", "4", "--pipeline-parallel-size", "2", "--distributed-executor-backend", "ray"]


def test_serve_passes_the_flags_after_the_double_dash_to_vllm(model_dir, monkeypatch, capsys):
    """Multi-GPU and multi-node deployments are vLLM's own flags: serve hands them over untouched."""
    from assistant.cli.main import main

    served = []
    monkeypatch.setattr(vllm, "wait_stopped", served.append)  # instead of serving until Ctrl-C
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    main(["serve", "--model", f"vllm:{model_dir}", "--port", str(port), "--", *PARALLEL_FLAGS])
    assert "Serving" in capsys.readouterr().out
    (record,) = served
    assert record.command[-len(PARALLEL_FLAGS):] == PARALLEL_FLAGS
    assert not _alive(record.pid)  # stopped when serve returned
    real = REAL_SERVER_COMMAND(_model(model_dir), "tiny-model", "127.0.0.1", port, tuple(PARALLEL_FLAGS))
    assert all(real.count(flag) == 1 for flag in PARALLEL_FLAGS[::2])
    assert [real[real.index(flag) + 1] for flag in PARALLEL_FLAGS[::2]] == PARALLEL_FLAGS[1::2]
