"""The pre-flight: can this model be asked at all, before the first paid call of a run?

Three checks, in order, each skipped once one fails: the key variables are set (no network),
litellm does not list the model as lacking tool calls (no network), and the endpoint answers
one small request carrying the real ``Skill`` tool schema. The last one is what finds a wrong
key, an unknown model, a model that rejects tools or a server that is down, in seconds.

``skillbench doctor`` adds a fourth (``listing_probe``): the run's largest prompt with its
trigger tool required, which finds a context too small for the listing and a server that
silently drops tools.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, NamedTuple

from skillbench.selectors._litellm._client import (
    Fetched,
    RetryPolicy,
    Sender,
    attempt,
    call_model,
)
from skillbench.selectors._litellm._errors import (
    NOT_LISTENING,
    FailureKind,
    ModelUnavailable,
    describe,
)
from skillbench.selectors._litellm._params import LitellmParams
from skillbench.selectors._litellm._prompt import SKILL_TOOL, Prompt
from skillbench.selectors._litellm._spend import model_info
from skillbench.selectors._types import Check
from skillbench.tokens import litellm_offline

PROBE_TEXT = 'Pre-flight check: call the Skill tool with skill "ping".'
PROBE_MAX_TOKENS = 32
"""Enough for one short tool call; the probe should cost a fraction of a cent."""
DEFAULT_BASES = {
    "ollama": "http://localhost:11434",
    "ollama_chat": "http://localhost:11434",
    "openai": "https://api.openai.com/v1",
}
"""Where litellm sends requests without ``api_base``, for the providers a user most often
runs without one (the message then names the address that could not be reached)."""


class PreflightVerdict(NamedTuple):
    """The checks that ran and, when one failed, the error a run stops with."""

    checks: list[Check]
    failure: ModelUnavailable | None


def provider(model: str) -> str | None:
    try:
        return str(litellm_offline().get_llm_provider(model)[1])
    except Exception:
        return None


def endpoint(params: LitellmParams) -> str:
    """The address calls go to, as precisely as it can be known without sending one."""
    if params.api_base:
        return params.api_base
    if params.router is not None:
        return f"{len(params.router.deployments)} deployment(s) through litellm's Router"
    name = provider(params.model)
    if name is None:
        return "the provider's default endpoint"
    return os.environ.get(f"{name.upper()}_API_BASE") or DEFAULT_BASES.get(
        name, f"{name}'s default endpoint"
    )


def key_check(params: LitellmParams) -> tuple[Check, ModelUnavailable | None]:
    """Every variable the model needs is set: ``api_key_env`` (each deployment's, with a
    router), else litellm's own list."""
    if params.router is not None and params.router.key_envs:
        unset = [n for n in params.router.key_envs if not os.environ.get(n)]
        if not unset:
            return Check("key", True, f"{', '.join(params.router.key_envs)} set"), None
        reason = f"{', '.join(unset)} (api_key_env of a deployment) not set; export and retry"
        return _fail("key", params.model, "credentials", reason)
    if params.api_key_env:
        if os.environ.get(params.api_key_env):
            return Check("key", True, f"{params.api_key_env} is set"), None
        reason = f"{params.api_key_env} (api_key_env) is not set; export it and retry"
        return _fail("key", params.model, "credentials", reason)
    try:
        found = litellm_offline().validate_environment(model=params.model, api_base=params.api_base)
    except Exception:
        found = {"missing_keys": []}
    # A missing *_API_BASE only means the provider's default address is used.
    missing = [k for k in found.get("missing_keys", []) if not str(k).endswith("_API_BASE")]
    if not missing:
        return Check("key", True, "no key variable missing"), None
    reason = f"{', '.join(missing)} is not set; litellm needs it for this model"
    if params.api_base:
        reason += " (any value works for a server that takes no key)"
    return _fail("key", params.model, "credentials", reason + ", or set api_key_env")


def tools_check(model: str) -> tuple[Check, ModelUnavailable | None]:
    """litellm's model list, where it knows the model; the probe decides for the rest."""
    listed = model_info(model).get("supports_function_calling")
    if listed is False:
        reason = "litellm lists it without tool calling, and skills are chosen by a tool call"
        return _fail("tools", model, "no_tools", reason)
    if listed:
        return Check("tools", True, "litellm lists tool calling"), None
    return Check("tools", True, "not in litellm's model list; the probe decides"), None


def probe_request(params: LitellmParams) -> dict[str, Any]:
    """One short chat turn with the real Skill tool and the run's sampling params."""
    messages = [{"role": "user", "content": PROBE_TEXT}]
    return _request(params, messages, [SKILL_TOOL], "auto", PROBE_MAX_TOKENS)


def _request(
    params: LitellmParams,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    tool_choice: Any,
    ceiling: int,
) -> dict[str, Any]:
    """A check's request: the run's sampling params, completion tokens capped at ``ceiling``."""
    sampling = dict(params.params)
    cap = "max_completion_tokens" if "max_completion_tokens" in sampling else "max_tokens"
    sampling[cap] = min(int(sampling.get(cap) or ceiling), ceiling)
    request: dict[str, Any] = {
        "model": params.model,
        "messages": messages,
        "tools": tools,
        "tool_choice": tool_choice,
        **sampling,
    }
    if params.api_base:
        request["api_base"] = params.api_base
    if params.api_key_env:
        request["api_key"] = os.environ.get(params.api_key_env)
    return request


async def probe(
    params: LitellmParams,
    semaphore: asyncio.Semaphore,
    policy: RetryPolicy,
    hidden: list[str],
    send: Sender = attempt,
) -> tuple[Check, ModelUnavailable | None, Fetched]:
    """Send the probe: transient failures get the run's retries, a dead server none. The
    probe waits as long as a real call may (the selector's ``timeout``): a slow local model
    that needs a minute per answer is not broken, and a dead server fails at once anyway."""
    where = endpoint(params)
    quick = replace(policy, reconnect=False)
    start = time.perf_counter()
    fetched = await call_model(probe_request(params), semaphore, quick, hidden, send=send)
    ms = (time.perf_counter() - start) * 1000
    if fetched.ok:
        return (
            Check("endpoint", True, f"{where} answered in {ms:.0f} ms, {_tool_use(fetched)}"),
            None,
            fetched,
        )
    error = fetched.error or "no answer"
    if fetched.unreachable:
        reason = error if error.startswith(NOT_LISTENING) else f"{where} ({error})"
        check, failure = _fail("endpoint", params.model, "unreachable", reason)
    elif fetched.fatal is not None:
        check, failure = _fail("endpoint", params.model, fetched.fatal, error, fetched.status)
    else:
        reason = f"{where} failed {fetched.attempts} time(s): {error}"
        check, failure = _fail("endpoint", params.model, "no_answer", reason, fetched.status)
    return check, failure, fetched


def _tool_use(fetched: Fetched) -> str:
    if _message_of(fetched).get("tool_calls"):
        return "tools accepted, the model called a tool"
    return "tools accepted, the model answered in text"


def _fail(
    step: str, model: str, kind: FailureKind, reason: str, status: int | None = None
) -> tuple[Check, ModelUnavailable]:
    check = Check(step, False, describe(kind, reason, status))
    return check, ModelUnavailable(model, kind, reason, status)


LISTING_PROBE_MAX_TOKENS = 256
"""Room for one forced tool call, also for a model that thinks a little first."""


def listing_request(params: LitellmParams, prompt: Prompt) -> tuple[dict[str, Any], str]:
    """The run's request for ``prompt`` with its trigger tool required, and that tool's name."""
    tool = str(prompt.tools[0]["function"]["name"])
    sampling = dict(params.params)
    cap = "max_completion_tokens" if "max_completion_tokens" in sampling else "max_tokens"
    sampling[cap] = min(
        int(sampling.get(cap) or LISTING_PROBE_MAX_TOKENS), LISTING_PROBE_MAX_TOKENS
    )
    sampling.pop("stream", None)
    request: dict[str, Any] = {
        "model": params.model,
        "messages": prompt.messages,
        "tools": prompt.tools,
        "tool_choice": {"type": "function", "function": {"name": tool}},
        **sampling,
    }
    if params.api_base:
        request["api_base"] = params.api_base
    if params.api_key_env:
        request["api_key"] = os.environ.get(params.api_key_env)
    return request, tool


async def listing_probe(
    params: LitellmParams,
    prompt: Prompt,
    where: str,
    semaphore: asyncio.Semaphore,
    policy: RetryPolicy,
    hidden: list[str],
    send: Sender = attempt,
) -> tuple[Check, Fetched]:
    """Send the run's largest prompt (``where`` names its cell) with the trigger tool
    required: it must fit the context and a tool call must come back, or no decision of
    the run can be read."""
    request, tool = listing_request(params, prompt)
    fetched = await call_model(request, semaphore, policy, hidden, send=send)
    if fetched.error is not None and "tool_choice" in fetched.error:
        request["tool_choice"] = "auto"  # a server that takes tools but not a required one
        fetched = await call_model(request, semaphore, policy, hidden, send=send)
    tokens = fetched.usage.get("prompt_tokens")
    size = f"{where}, {tokens:,} prompt tokens" if tokens else where
    if fetched.error is not None or fetched.response is None:
        error = fetched.error or "no answer"
        return Check("listing", False, f"the largest prompt ({size}) failed: {error}"), fetched
    if not _message_of(fetched).get("tool_calls"):
        reason = (
            f"no tool call came back for the largest prompt ({size}) although the {tool} tool "
            "was required: the server drops tools or answers in text, so every decision would "
            "score as an abstention (llama.cpp's server needs --chat_format "
            "chatml-function-calling)"
        )
        return Check("listing", False, reason), fetched
    ms = fetched.latency_ms or 0.0
    message = f"the largest prompt ({size}) fits; the model called {tool} in {ms:.0f} ms"
    return Check("listing", True, message), fetched


def _message_of(fetched: Fetched) -> Mapping[str, Any]:
    assert fetched.response is not None
    return (fetched.response["choices"][0] or {}).get("message") or {}
