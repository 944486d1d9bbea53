"""A queue-driven fake of the Claude Messages API at the HTTP layer (httpx2.MockTransport); records every request."""

from __future__ import annotations

import itertools
import json
from collections import deque
from collections.abc import Callable
from typing import Any

import anthropic
import httpx2

DEFAULT_USAGE = {"input_tokens": 100, "output_tokens": 20}
Reply = Callable[[httpx2.Request], httpx2.Response]


class FakeClaude:
    """Answers each request with the next queued reply; an empty queue answers 400 so a test fails loudly."""

    def __init__(self) -> None:
        self.queue: deque[Reply] = deque()
        self.requests: list[dict[str, Any]] = []  # decoded JSON bodies, in order
        self.headers: list[httpx2.Headers] = []
        self._ids = itertools.count(1)

    # -- queueing -----------------------------------------------------------------------------------------------
    def enqueue_tool(self, name: str, input: dict[str, Any], usage: dict[str, int] | None = None) -> FakeClaude:
        """A reply that calls tool `name` with `input`."""
        block = {"type": "tool_use", "id": f"toolu_fake_{next(self._ids)}", "name": name, "input": input}
        return self._enqueue_message([block], "tool_use", usage)

    def enqueue_text(self, text: str, usage: dict[str, int] | None = None) -> FakeClaude:
        """A reply with text only: no tool call, i.e. malformed for a forced tool."""
        return self._enqueue_message([{"type": "text", "text": text}], "end_turn", usage)

    def enqueue_status(self, status: int, headers: dict[str, str] | None = None, message: str = "") -> FakeClaude:
        """An API error reply, e.g. 429 with a retry-after header, 500, 529 overloaded, 401."""
        kinds = {401: "authentication_error", 429: "rate_limit_error", 529: "overloaded_error"}
        error = {"type": kinds.get(status, "api_error"), "message": message or f"HTTP {status}"}
        body = {"type": "error", "error": error}
        self.queue.append(lambda request: httpx2.Response(status, headers=headers or {}, json=body))
        return self

    def enqueue_timeout(self) -> FakeClaude:
        """The request times out before an answer."""

        def reply(request: httpx2.Request) -> httpx2.Response:
            raise httpx2.ReadTimeout("fake timeout", request=request)

        self.queue.append(reply)
        return self

    def _enqueue_message(self, content: list[dict[str, Any]], stop: str, usage: dict[str, int] | None) -> FakeClaude:
        message = {
            "id": f"msg_fake_{next(self._ids)}",
            "type": "message",
            "role": "assistant",
            "model": "fake",
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {**DEFAULT_USAGE, **(usage or {})},
        }
        self.queue.append(lambda request: httpx2.Response(200, json=message))
        return self

    # -- transport ----------------------------------------------------------------------------------------------
    def handler(self, request: httpx2.Request) -> httpx2.Response:
        """The MockTransport handler: record, then answer with the next reply."""
        self.requests.append(json.loads(request.content))
        self.headers.append(request.headers)
        if not self.queue:
            error = {"type": "invalid_request_error", "message": "FakeClaude: queue is empty"}
            return httpx2.Response(400, json={"type": "error", "error": error})
        return self.queue.popleft()(request)

    def http_client(self) -> httpx2.Client:
        """An httpx2 client whose transport is this fake."""
        return httpx2.Client(transport=httpx2.MockTransport(self.handler))

    def client(self, api_key: str = "test") -> anthropic.Anthropic:
        """An Anthropic SDK client wired to this fake, without SDK retries."""
        return anthropic.Anthropic(api_key=api_key, http_client=self.http_client(), max_retries=0)

    # -- inspection ---------------------------------------------------------------------------------------------
    @property
    def tool_names(self) -> list[str]:
        """The forced tool of each request, in order."""
        return [r.get("tool_choice", {}).get("name", "") for r in self.requests]

    @staticmethod
    def texts(request: dict[str, Any]) -> list[str]:
        """Every text the model reads in one request: the system prompt and each text block of each message."""
        out = [request["system"]] if isinstance(request.get("system"), str) else []
        for message in request["messages"]:
            content = message["content"]
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
            for block in blocks:
                if block.get("type") == "text":
                    out.append(block["text"])
                elif block.get("type") == "tool_result" and isinstance(block.get("content"), str):
                    out.append(block["content"])
        return out
