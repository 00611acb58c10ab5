"""`--llm-url`: the OpenAI-compatible backend against a small streaming server written here with the
standard library (127.0.0.1, a free port, shut down by each test). Words arrive through ``on_text``
before the server has finished; the chat or completions endpoint is used as set or as the server
says; every failure is one line naming the URL, and a real session goes on with the oracle's words."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

pytest.importorskip("openai", reason="the remote extra (openai) is not installed: pip install -e '.[remote]'")

from solo.kernel.errors import NarratorError  # noqa: E402
from solo.store.journal import Journal  # noqa: E402
from solo.llm import backends  # noqa: E402
from solo.llm.graph import ModelNarrator  # noqa: E402
from solo.llm.remote import CHAT_LEAD, OpenAIBackend, chat_by_name  # noqa: E402
from solo.table.session import Session  # noqa: E402

WORDS = [" Somewhere", " a", " gramophone", " crackles", " into", " life", "."]
CHATML = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
GEMMA = "{% for m in messages %}<start_of_turn>{{ m.role }}\n{{ m.content }}<end_of_turn>\n{% endfor %}"
PROMPT = "Example\nTask: blunder\nFacts: The rope snaps.\nNarration: The rope snaps"
PARAMS: dict[str, Any] = {"max_tokens": 40, "stop": ["\n\n"], "temperature": 0.7, "seed": 1}


class StreamingServer:
    """An OpenAI-compatible server in a thread: ``/v1/models``, llama.cpp's ``/props`` (when set),
    and both completion endpoints, streamed as server-sent events one word at a time. ``mode``
    picks a failure; ``hold`` makes it wait after ``hold_after`` words until the test says go."""

    def __init__(self, port: int = 0) -> None:
        self.words = list(WORDS)
        self.models = ["base-model.gguf"]
        self.props: dict[str, Any] | None = None
        self.usage: dict[str, int] | None = None
        self.mode = "ok"
        self.gap = 0.0
        self.hold = threading.Event()
        self.hold.set()
        self.hold_after = 0
        self.held = threading.Event()  # the first words are sent and the server holds back the rest
        self.refuse_stream_options = False
        self.requests: list[tuple[str, str, dict[str, Any] | None]] = []
        self.finished = threading.Event()  # the last byte of the last answer is sent
        self.stop = threading.Event()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), self._handler())
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.hold.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)

    def paths(self, method: str | None = None) -> list[str]:
        return [path for m, path, _ in self.requests if method in (None, m)]

    def posted(self) -> dict[str, Any]:
        return next(body for m, _, body in reversed(self.requests) if m == "POST" and body is not None)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                pass

            def _json(self, status: int, payload: Any) -> None:
                body = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                server.requests.append(("GET", self.path, None))
                if self.path == "/v1/models":
                    self._json(200, {"object": "list", "data": [{"id": m, "object": "model"} for m in server.models]})
                elif self.path == "/props" and server.props is not None:
                    self._json(200, server.props)
                else:
                    self._json(404, {"error": {"message": "not found", "code": 404}})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(("POST", self.path, body))
                try:
                    self._answer(body)
                except (BrokenPipeError, ConnectionResetError):  # the client left (a deadline): fine
                    self.close_connection = True

            def _answer(self, body: dict[str, Any]) -> None:
                mode, chat = server.mode, self.path == "/v1/chat/completions"
                if mode == "silent":
                    server.stop.wait(10)
                    self.close_connection = True
                    return
                if mode == "missing" or self.path not in ("/v1/completions", "/v1/chat/completions"):
                    return self._json(404, {"error": {"message": "File Not Found", "code": 404}})
                if mode == "http500":
                    return self._json(500, {"error": {"message": "the model crashed", "code": 500}})
                if server.refuse_stream_options and "stream_options" in body:
                    return self._json(400, {"error": {"message": "unknown field stream_options", "code": 400}})
                self.send_response(200)
                if mode == "html":
                    self.send_header("Content-Type", "text/html")
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    self._chunk(b"<html><body>It works!</body></html>")
                    self.wfile.write(b"0\r\n\r\n")
                    server.finished.set()
                    return
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                if mode == "garbage":
                    self._event("this is not JSON {")
                elif mode == "bad_chunk":
                    self._event(json.dumps({"choices": "none today"}))
                for i, word in enumerate(server.words):
                    if i == server.hold_after:
                        server.held.set()
                        server.hold.wait(20)
                    if mode == "die" and i == 3:  # the process dies: the connection drops mid-body
                        self.wfile.write(b"40\r\ndata: {\"choi")
                        self.close_connection = True
                        self.connection.shutdown(socket.SHUT_RDWR)
                        server.finished.set()
                        return
                    self._event(json.dumps(self._chunk_of(word, None, chat)))
                    if server.gap:
                        time.sleep(server.gap)
                if mode != "end_early":  # a clean end with no finish reason: the answer stopped short
                    self._event(json.dumps(self._chunk_of("", "stop", chat)))
                    if server.usage is not None:
                        self._event(json.dumps({"id": "x", "object": "chat.completion.chunk" if chat else "text_completion",
                                                "created": 0, "model": body["model"], "choices": [],
                                                "usage": server.usage}))
                    self._event("[DONE]")
                self.wfile.write(b"0\r\n\r\n")
                server.finished.set()

            @staticmethod
            def _chunk_of(word: str, finish: str | None, chat: bool) -> dict[str, Any]:
                if chat:
                    choice: dict[str, Any] = {"index": 0, "delta": {"content": word} if word else {},
                                              "finish_reason": finish}
                    return {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "m",
                            "choices": [choice]}
                return {"id": "x", "object": "text_completion", "created": 0, "model": "m",
                        "choices": [{"index": 0, "text": word, "finish_reason": finish, "logprobs": None}]}

            def _event(self, data: str) -> None:
                self._chunk(f"data: {data}\n\n".encode())

            def _chunk(self, payload: bytes) -> None:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(payload), payload))

        return Handler


@pytest.fixture
def server() -> Iterator[StreamingServer]:
    s = StreamingServer()
    yield s
    s.close()


def refused_url() -> str:
    """A loopback port nobody listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def backend(url: str, **kwargs: Any) -> OpenAIBackend:
    kwargs.setdefault("read_timeout", 5.0)
    return OpenAIBackend(url, **kwargs)


# --- streaming -------------------------------------------------------------------------


def test_words_arrive_in_order_before_the_server_has_finished(server):
    server.hold.clear()
    server.hold_after = 3  # three words, then the server waits for the test
    seen: list[tuple[str, bool]] = []
    done: dict[str, Any] = {}

    def run() -> None:
        done["completion"] = backend(server.url).complete(
            PROMPT, on_text=lambda piece: seen.append((piece, server.finished.is_set())), **PARAMS)

    worker = threading.Thread(target=run)
    worker.start()
    end = time.monotonic() + 20
    while len(seen) < 3 and time.monotonic() < end:
        time.sleep(0.01)
    assert [p for p, _ in seen] == WORDS[:3] and not server.finished.is_set()  # the server is still holding
    server.hold.set()
    worker.join(timeout=20)
    completion = done["completion"]
    assert [p for p, _ in seen] == WORDS and not any(finished for _, finished in seen[:3])
    assert completion.text == "".join(WORDS) and completion.stopped_early is None
    assert completion.first_token_seconds is not None and completion.first_token_seconds < completion.seconds


def test_usage_is_recorded_when_the_server_sends_it_and_asked_for_in_the_stream(server):
    server.usage = {"prompt_tokens": 31, "completion_tokens": 7, "total_tokens": 38}
    done = backend(server.url).complete(PROMPT, **PARAMS)
    assert server.posted()["stream_options"] == {"include_usage": True}
    assert (done.prompt_tokens, done.completion_tokens) == (31, 7)
    server.usage = None  # a server that ignores the option: no error; a token per streamed piece, prompt unknown
    done = backend(server.url).complete(PROMPT, **PARAMS)
    assert (done.text, done.prompt_tokens, done.completion_tokens) == ("".join(WORDS), 0, len(WORDS))


def test_a_server_refusing_stream_options_is_asked_again_without_them(server):
    server.refuse_stream_options = True
    remote = backend(server.url)
    assert remote.complete(PROMPT, **PARAMS).text == "".join(WORDS)
    remote.complete(PROMPT, **PARAMS)
    posts = [body for m, _, body in server.requests if m == "POST"]
    assert ["stream_options" in b for b in posts] == [True, False, False]  # refused once, then never sent


def test_the_deadline_stops_a_slow_stream_midway(server):
    server.words = [f" word{i}" for i in range(40)]
    server.gap = 0.1
    begun = time.perf_counter()
    done = backend(server.url).complete(PROMPT, deadline=begun + 0.6, **PARAMS)
    assert done.stopped_early == "deadline" and done.text.startswith(" word0") and "word39" not in done.text
    assert time.perf_counter() - begun < 3.0


# --- chat or completions ------------------------------------------------------------------


def test_the_endpoints_are_used_as_set_and_the_chat_one_gets_the_lead_and_the_whole_prompt(server):
    backend(server.url, api="chat", model="m").complete(PROMPT, **PARAMS)
    body = server.posted()
    assert server.paths("POST") == ["/v1/chat/completions"] and server.paths("GET") == []  # nothing to ask
    assert body["messages"] == [{"role": "user", "content": CHAT_LEAD + PROMPT}] and body["stream"] is True
    assert body["stop"] == PARAMS["stop"] and body["seed"] == 1 and body["max_tokens"] == 40
    backend(server.url, api="completions", model="m").complete(PROMPT, **PARAMS)
    assert server.paths("POST")[-1] == "/v1/completions" and server.posted()["prompt"] == PROMPT


@pytest.mark.parametrize(("props", "models", "endpoint"), [
    ({"chat_template": GEMMA, "eos_token": "<end_of_turn>"}, ["gemma-3-4b.gguf"], "/v1/chat/completions"),
    ({"chat_template": CHATML, "eos_token": "<|im_end|>"}, ["qwen.gguf"], "/v1/chat/completions"),
    # llama.cpp's server stands in ChatML for a GGUF with no template: a base model
    ({"chat_template": CHATML, "eos_token": "<eos>"}, ["gemma-3-270m.gguf"], "/v1/completions"),
    (None, ["Qwen2.5-7B-Instruct"], "/v1/chat/completions"),
    (None, ["/models/gemma-3-4b-it-Q4_K_M.gguf"], "/v1/chat/completions"),
    (None, ["/models/gemma-3-270m-q4_k_m.gguf"], "/v1/completions"),
])
def test_auto_asks_the_server_which_endpoint(server, props, models, endpoint):
    server.props, server.models = props, models
    remote = backend(server.url)
    remote.complete(PROMPT, **PARAMS)
    assert server.paths("POST") == [endpoint]
    assert server.posted()["model"] == models[0]  # the server's own model id is sent
    assert remote.name.endswith(f"@{server.url}/v1") and models[0].rsplit("/", 1)[-1] in remote.name


def test_the_server_is_asked_lazily_and_once(server):
    server.props = {"chat_template": GEMMA, "eos_token": "<end_of_turn>"}
    remote = backend(server.url)
    assert server.requests == []  # nothing at start: the first screen never waits on the server
    remote.complete(PROMPT, **PARAMS)
    remote.complete(PROMPT, **PARAMS)
    assert server.paths("GET") == ["/v1/models", "/props"]
    assert server.paths("POST") == ["/v1/chat/completions"] * 2


def test_model_names_read_as_instruction_models():
    assert all(map(chat_by_name, ["Llama-3.1-8B-Instruct", "gemma-2-9b-it", "gemma-3-4b-it-q4_0.gguf",
                                  "mistral-7b-chat", "phi:it"]))
    assert not any(map(chat_by_name, ["gemma-3-270m-q4_k_m.gguf", "llama-3-8b", "split-model", "qwen2.5:7b"]))


# --- failures: one line naming the URL, nothing else -----------------------------------------


@pytest.mark.parametrize(("mode", "words"), [
    ("die", "broke off mid-answer"),
    ("end_early", "broke off mid-answer"),
    ("silent", "went silent"),
    ("garbage", "malformed stream"),
    ("bad_chunk", "malformed chunk"),
    ("html", "sent no stream"),
    ("http500", "HTTP 500"),
    ("missing", "try --llm-api chat"),
])
def test_every_failure_is_one_line_naming_the_server(server, mode, words):
    server.mode = mode
    pieces: list[str] = []
    begun = time.monotonic()
    with pytest.raises(NarratorError) as caught:
        backend(server.url, read_timeout=0.5).complete(PROMPT, on_text=pieces.append, **PARAMS)
    message = str(caught.value)
    assert words in message and f"{server.url}/v1" in message and "\n" not in message, message
    assert time.monotonic() - begun < 10
    if mode == "die":
        assert pieces == WORDS[:3]  # what came before the drop was streamed


def test_a_refused_connection_is_one_line_saying_what_to_do():
    url = refused_url()
    with pytest.raises(NarratorError) as caught:
        backend(url).complete(PROMPT, **PARAMS)
    assert str(caught.value) == f"no narration server answers at {url}/v1: start it, or correct --llm-url"


@pytest.mark.parametrize("url", ["localhost:8080", "not a url", "http://[::1", "ftp://127.0.0.1:9",
                                 "http://127.0.0.1:99999"])
def test_an_address_that_is_not_http_is_one_line_at_once(url):
    with pytest.raises(NarratorError, match=r"^--llm-url needs an http:// or https:// address"):
        OpenAIBackend(url)


def test_a_server_down_at_first_is_asked_again_once_it_is_up():
    url = refused_url()
    remote = backend(url)
    with pytest.raises(NarratorError, match="no narration server answers"):
        remote.complete(PROMPT, **PARAMS)
    late = StreamingServer(port=int(url.rsplit(":", 1)[1]))
    try:
        late.models = ["Llama-3.1-8B-Instruct"]
        assert remote.complete(PROMPT, **PARAMS).text == "".join(WORDS)
        assert late.paths() == ["/v1/models", "/props", "/v1/chat/completions"]
    finally:
        late.close()


def test_without_the_openai_package_llm_url_names_the_extra(monkeypatch, capsys, tmp_path):
    import importlib.util

    from solo.faces import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "openai" else real(name, *a))
    with pytest.raises(NarratorError, match=r"pip install 'solo\[remote\]'"):
        OpenAIBackend("http://127.0.0.1:9")
    opts = cli.Options(db=str(tmp_path / "j.sqlite"), llm_url="http://127.0.0.1:9")
    assert cli._model(opts, background=False) is None
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "solo[remote]" in err and "playing with the oracle tables" in err


# --- the command line and the import place ------------------------------------------------


def test_llm_api_is_a_global_option_checked_on_one_line(tmp_path, monkeypatch):
    from solo.faces import cli

    monkeypatch.delenv("SOLO_LLM_API", raising=False)
    opts, rest = cli._global_options(["--llm-url", "http://127.0.0.1:9", "--llm-api=chat", "status"])
    assert (opts.llm_api, rest) == ("chat", ["status"])
    monkeypatch.setenv("SOLO_LLM_API", "completions")
    assert cli._global_options(["status"])[0].llm_api == "completions"
    done = subprocess.run([sys.executable, "-m", "solo.faces.cli", "--db", str(tmp_path / "j.sqlite"), "--llm-api", "chatty",
                           "status"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr == "error: --llm-api takes chat, completions or auto, not 'chatty'\n"
    assert "--llm-api" in cli.USAGE


def test_backends_stays_the_import_place_and_open_backend_passes_the_api(server):
    assert backends.OpenAIBackend is OpenAIBackend
    remote = backends.open_backend(None, server.url, False, llm_api="chat")
    assert isinstance(remote, OpenAIBackend) and remote.api == "chat"


def test_the_openai_client_is_not_imported_until_the_first_narration():
    code = ("import sys; from solo.llm.backends import open_backend; b = open_backend(None, 'http://127.0.0.1:9', False); "
            "print('openai' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr


# --- through a real session --------------------------------------------------------------


@pytest.fixture
def journal(tmp_path):
    j = Journal(tmp_path / "j.sqlite")
    yield j
    j.close()


def scene(session: Session) -> dict[str, Any]:
    for line in ("campaign new Cairo --seed 2", "pc add Nara --dice 3"):
        assert session.execute(line).ok
    outcome = session.execute("scene start The bazaar")
    assert outcome.ok, outcome.error
    told = outcome.result["narration"]
    return told[0] if isinstance(told, list) else told


def test_a_streamed_narration_is_journaled_with_its_usage(server, journal):
    server.usage = {"prompt_tokens": 900, "completion_tokens": 7, "total_tokens": 907}
    streamed: list[str] = []
    model = ModelNarrator(backend(server.url))
    model.on_text = streamed.append
    told = scene(Session(journal, model=model))
    assert told["source"] == "model" and "gramophone crackles into life" in told["text"]
    assert streamed == WORDS
    call = journal.model_calls(1)[-1]
    assert (call["prompt_tokens"], call["completion_tokens"], call["fallback"]) == (900, 7, None)
    assert call["model"] == f"base-model.gguf@{server.url}/v1"


@pytest.mark.parametrize("mode", ["die", "silent", "garbage", "refused"])
def test_a_failing_server_leaves_the_command_standing_with_the_oracles_words(server, journal, mode):
    url = refused_url() if mode == "refused" else server.url
    server.mode = mode
    told = scene(Session(journal, model=ModelNarrator(backend(url, read_timeout=0.5))))
    assert told["source"] == "oracle" and "model fallback" in told["origin"]
    call = journal.model_calls(1)[-1]
    assert call["fallback"] and f"{url}/v1" in call["fallback"] and "\n" not in call["fallback"]
    assert journal.narrations(1)[-1]["source"] == "oracle"
