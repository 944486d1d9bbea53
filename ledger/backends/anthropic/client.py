"""The one module of the Claude backend that talks to the network: forced tool calls, validated, retried, metered."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

import anthropic
import httpx2
from anthropic.types import Message
from pydantic import BaseModel, ValidationError

from ledger.core.errors import ConfigError, MalformedOutputError, ModelError
from ledger.core.metering import add_usage, record_call
from ledger.core.settings import AnthropicSettings
from ledger.core.types import TokenUsage

T = TypeVar("T", bound=BaseModel)
Check = Callable[[Any], str | None]  # a problem with a parsed output, or None; a problem counts as malformed

KEY_SETTING = "EVIDENCE_ANTHROPIC__API_KEY (or ANTHROPIC_API_KEY)"
EPHEMERAL = {"type": "ephemeral"}


def tool_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The pydantic model's JSON schema with `$ref`s inlined and titles dropped, as a tool's input_schema."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                target = inline(defs[node["$ref"].rsplit("/", 1)[-1]])
                return {**target, **{k: inline(v) for k, v in node.items() if k != "$ref"}}
            # A schema's "title" is a string; a property that happens to be called "title" is a dict: keep it.
            return {k: inline(v) for k, v in node.items() if not (k == "title" and isinstance(v, str))}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    result: dict[str, Any] = inline(schema)
    return result


def _usage(response: Message) -> TokenUsage:
    u = response.usage
    return TokenUsage(
        input_tokens=u.input_tokens or 0,
        output_tokens=u.output_tokens or 0,
        cache_read_input_tokens=u.cache_read_input_tokens or 0,
        cache_creation_input_tokens=u.cache_creation_input_tokens or 0,
    )


def _retry_after(headers: httpx2.Headers) -> float | None:
    """Seconds the server asks us to wait (`retry-after-ms` or `retry-after` in seconds), if it says."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(float(value) * scale, 0.0)
        except ValueError:
            continue  # an HTTP date: rare from this API, and exponential backoff is a fine answer to it
    return None


def _with_cache_marker(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mark the first content block of the first message (the documents, by convention) as a cache breakpoint."""
    out = copy.deepcopy(messages)
    first = out[0]
    if isinstance(first["content"], str):
        first["content"] = [{"type": "text", "text": first["content"]}]
    first["content"][0]["cache_control"] = dict(EPHEMERAL)
    return out


def _raw(response: Message) -> str:
    """What the model said, for MalformedOutputError.raw_output."""
    parts = []
    for block in response.content:
        if block.type == "tool_use":
            parts.append(json.dumps(block.input, ensure_ascii=False))
        elif block.type == "text":
            parts.append(block.text)
    return "\n".join(parts)


def _validation_problem(exc: ValidationError) -> str:
    errors = exc.errors()
    shown = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}" for e in errors[:5])
    return shown + (f" (and {len(errors) - 5} more)" if len(errors) > 5 else "")


_ROLE: ContextVar[str] = ContextVar("evidence_claude_role", default="unknown")


class ClaudeClient:
    """Calls Claude with one forced tool and returns the validated tool input.

    Retries (429, 408/409, 5xx, 529, timeouts, lost connections) are the SDK's own: exponential backoff with
    jitter, honouring `retry-after`. An HTTP hook counts every attempt, refused ones included, in the run's call
    meter (`ledger.core.metering`), and stops the retries when Claude asks to wait longer than `max_wait`.
    """

    max_wait = 120.0  # a retry-after longer than this fails fast: a CLI user would rather try again later

    def __init__(self, settings: AnthropicSettings, http_client: httpx2.Client | None = None) -> None:
        self.settings = settings
        key = (settings.api_key.get_secret_value() if settings.api_key else None) or os.environ.get(
            "ANTHROPIC_API_KEY"
        )
        if not key:
            raise ConfigError(f"the anthropic backend needs an API key: set {KEY_SETTING}, or use --backend local")
        http = http_client or anthropic.DefaultHttpxClient()
        http.event_hooks["request"].append(self._on_request)
        http.event_hooks["response"].append(self._on_response)
        self._client = anthropic.Anthropic(
            api_key=key, http_client=http, max_retries=max(settings.max_retries, 0), timeout=settings.timeout_s
        )

    @staticmethod
    def _on_request(request: httpx2.Request) -> None:
        """Every attempt is a call: the audit row counts refused and retried ones too."""
        record_call(_ROLE.get())

    def _on_response(self, response: httpx2.Response) -> None:
        """A wait longer than `max_wait` is not slept through: tell the SDK not to retry."""
        wait = _retry_after(response.headers)
        if response.status_code >= 400 and wait is not None and wait > self.max_wait:
            response.headers["x-should-retry"] = "false"

    @staticmethod
    @contextmanager
    def _as(role: str) -> Iterator[None]:
        token = _ROLE.set(role)
        try:
            yield
        finally:
            _ROLE.reset(token)

    def call_tool(
        self,
        role: str,
        model: str,
        system: str,
        messages: list[dict[str, Any]],
        tool_name: str,
        output_model: type[T],
        cache_evidence: bool = False,
        check: Check | None = None,
    ) -> T:
        """Force `tool_name`, validate its input as `output_model`; one corrective retry on malformed output."""
        tool = {
            "name": tool_name,
            "description": (output_model.__doc__ or tool_name).strip(),
            "input_schema": tool_schema(output_model),
        }
        if cache_evidence:
            messages = _with_cache_marker(messages)
        forced = {"type": "tool", "name": tool_name}
        request = {"model": model, "system": system, "tools": [tool], "tool_choice": forced}
        response = self._create(role, messages=messages, **request)
        result, problem = self._parse(response, tool_name, output_model, check)
        if result is not None:
            return result
        response = self._create(role, messages=messages + self._correction(response, tool_name, problem), **request)
        result, problem = self._parse(response, tool_name, output_model, check)
        if result is not None:
            return result
        raise MalformedOutputError(
            f"Claude ({model}, {role}) twice answered outside the {tool_name} structure: {problem}",
            raw_output=_raw(response),
        )

    @staticmethod
    def _parse(response: Message, tool_name: str, output_model: type[T], check: Check | None) -> tuple[T | None, str]:
        """(validated output, "") or (None, what is wrong with it)."""
        block = next((b for b in response.content if b.type == "tool_use" and b.name == tool_name), None)
        if block is None:
            return None, f"the reply did not call the {tool_name} tool"
        try:
            result = output_model.model_validate(block.input)
        except ValidationError as exc:
            cut = " (the reply hit max_tokens)" if response.stop_reason == "max_tokens" else ""
            return None, _validation_problem(exc) + cut
        problem = check(result) if check else None
        return (None, problem) if problem else (result, "")

    @staticmethod
    def _correction(response: Message, tool_name: str, problem: str) -> list[dict[str, Any]]:
        """The assistant's bad turn echoed back, then a short user message saying what to fix."""
        text = f"Your reply was not usable: {problem}. Call {tool_name} again with a complete, corrected input."
        assistant: list[dict[str, Any]] = []
        results: list[dict[str, Any]] = []
        for block in response.content:
            if block.type == "tool_use":
                assistant.append({"type": "tool_use", "id": block.id, "name": block.name, "input": block.input})
                # The API requires a tool_result for every tool_use of the previous turn.
                results.append({"type": "tool_result", "tool_use_id": block.id, "is_error": True, "content": problem})
            elif block.type == "text" and block.text.strip():
                assistant.append({"type": "text", "text": block.text})
        user = {"role": "user", "content": [*results, {"type": "text", "text": text}]}
        return ([{"role": "assistant", "content": assistant}] if assistant else []) + [user]

    def _create(self, role: str, **request: Any) -> Message:
        """One logical call, its retries left to the SDK; its tokens go to the run's meter."""
        try:
            with self._as(role):
                response = self._client.messages.create(max_tokens=self.settings.max_tokens, **request)
        except anthropic.APIStatusError as exc:
            wait = _retry_after(exc.response.headers)
            if wait is not None and wait > self.max_wait:
                raise ModelError(
                    f"Claude asks to wait {wait:.0f} s before retrying; try again later", retryable=True
                ) from exc
            if exc.status_code in (408, 409, 429) or exc.status_code >= 500:
                raise self._exhausted(exc, self.attempts) from exc
            raise self._fatal(exc, request["model"]) from exc
        except anthropic.APIConnectionError as exc:  # timeouts included
            raise self._exhausted(exc, self.attempts) from exc
        add_usage(_usage(response))
        return response

    @property
    def attempts(self) -> int:
        """Attempts of one logical call: the first and every retry."""
        return max(self.settings.max_retries, 0) + 1

    def _exhausted(self, exc: anthropic.APIError, attempts: int) -> ModelError:
        """The one-line error after the last retry."""
        if isinstance(exc, anthropic.RateLimitError):
            message = f"Claude rate-limited the request {attempts} times; try again later"
        elif isinstance(exc, anthropic.APIStatusError) and exc.status_code == 529:
            message = f"Claude was overloaded (529) {attempts} times; try again later"
        elif isinstance(exc, anthropic.APIStatusError):
            message = f"Claude failed with HTTP {exc.status_code} {attempts} times; try again later"
        elif isinstance(exc, anthropic.APITimeoutError):
            message = (
                f"Claude did not answer within {self.settings.timeout_s:g} s {attempts} times; try again later "
                "or raise EVIDENCE_ANTHROPIC__TIMEOUT_S"
            )
        else:
            message = f"could not reach Claude {attempts} times ({exc.message}); check the network connection"
        return ModelError(message, retryable=True)

    @staticmethod
    def _fatal(exc: anthropic.APIStatusError, model: str) -> ModelError:
        """A clear error for a status that retrying cannot fix."""
        detail = exc.api_message or exc.message
        if exc.status_code == 401:
            return ModelError(f"Claude rejected the API key (401); check {KEY_SETTING}")
        if exc.status_code == 403:
            return ModelError(f"the API key may not use {model!r} (403): {detail}; check {KEY_SETTING}")
        if exc.status_code == 404:
            return ModelError(
                f"Claude does not know the model {model!r} (404); check EVIDENCE_ANTHROPIC__WRITER_MODEL "
                "and EVIDENCE_ANTHROPIC__JUDGE_MODEL"
            )
        if exc.status_code == 413:
            return ModelError("the request is too large for Claude (413); retrieve fewer or smaller chunks")
        return ModelError(f"Claude refused the request (HTTP {exc.status_code}): {detail}")
