"""The ``litellm`` selector: real models through litellm (cloud, Ollama, vLLM, llama.cpp).

Importing this package registers the selector type; litellm itself is imported on the first
call, so configs load and ``--help`` runs without paying for it.
"""

from collections.abc import Mapping
from typing import Any

from skillbench.selectors._litellm._client import redact
from skillbench.selectors._litellm._detect import detect
from skillbench.selectors._litellm._errors import FailureKind, ModelUnavailable
from skillbench.selectors._litellm._fork import DEFAULT_FORK_SYSTEM_PROMPT, ForkTask
from skillbench.selectors._litellm._params import LitellmParams, parse_params
from skillbench.selectors._litellm._preflight import PROBE_TEXT
from skillbench.selectors._litellm._prompt import (
    DEFAULT_SYSTEM_PROMPT,
    READ_FILE_TOOL,
    SKILL_TOOL,
    SKILL_TOOL_DESCRIPTION,
    Prompt,
    build_prompt,
)
from skillbench.selectors._litellm._selector import NOT_SENT, LitellmSelector
from skillbench.selectors._registry import SELECTORS
from skillbench.selectors._types import Selector, SelectorEnv


@SELECTORS.register("litellm")
def litellm_selector(params: Mapping[str, Any], env: SelectorEnv) -> Selector:
    """Params: model, api_base, api_key_env, params, system_prompt, timeout, max_attempts,
    max_cost_usd, trigger_threshold, backoff_s, cache, execute_fork, fork_system_prompt,
    fork_params, processes, router (docs/models.md)."""
    return LitellmSelector(parse_params(params, env), env)


__all__ = [
    "DEFAULT_FORK_SYSTEM_PROMPT",
    "DEFAULT_SYSTEM_PROMPT",
    "NOT_SENT",
    "PROBE_TEXT",
    "READ_FILE_TOOL",
    "SKILL_TOOL",
    "SKILL_TOOL_DESCRIPTION",
    "FailureKind",
    "ForkTask",
    "LitellmParams",
    "LitellmSelector",
    "ModelUnavailable",
    "Prompt",
    "build_prompt",
    "detect",
    "parse_params",
    "redact",
]
