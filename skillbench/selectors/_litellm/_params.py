"""The ``litellm`` selector's config params, checked once when the run starts."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from skillbench._errors import SkillbenchError
from skillbench.selectors._litellm._fork import DEFAULT_FORK_SYSTEM_PROMPT
from skillbench.selectors._litellm._prompt import DEFAULT_SYSTEM_PROMPT, PromptStyle
from skillbench.selectors._litellm._router import RouterSpec, parse_router
from skillbench.selectors._params import (
    check_params,
    positive_int_param,
    probability_param,
    str_param,
)
from skillbench.selectors._types import SelectorEnv

RESERVED = frozenset(
    {"model", "messages", "tools", "tool_choice", "api_key", "api_base", "base_url", "timeout"}
)
"""Request fields the selector sets itself; ``params`` may not override them."""
DEFAULT_MAX_TOKENS = 4096
"""Completion ceiling sent when ``params`` sets none: a skill choice takes tens of tokens, a
reasoning model some thousands; a server that ignores it is cut off by ``timeout``."""
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class LitellmParams:
    """Typed params; see docs/models.md for each one."""

    model: str
    api_base: str | None = None
    api_key_env: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    system_prompt: str = DEFAULT_SYSTEM_PROMPT
    prompt: PromptStyle = "skillbench"
    """``agent``: send the verified agent's own captured request shape (``_prompt``)."""
    timeout: float = 60.0
    max_attempts: int = 5
    max_cost_usd: float | None = None
    trigger_threshold: float = 0.5
    backoff_s: float = 1.0
    cache: bool = True
    execute_fork: bool = False
    fork_system_prompt: str = DEFAULT_FORK_SYSTEM_PROMPT
    fork_params: Mapping[str, Any] = field(default_factory=dict)
    """Sampling params of sub-agent calls; ``parse_params`` defaults them to ``params``."""
    processes: int = 1
    """Processes making the calls: 1 is this one; more start workers (see ``_workers``)."""
    router: RouterSpec | None = None
    """Deployments for litellm's Router (see ``_router``); ``None``: ``model`` is called as is."""


def _prompt_style(value: Any) -> PromptStyle:
    if value not in ("skillbench", "agent"):
        raise ValueError("expected 'skillbench' (default) or 'agent'")
    return cast(PromptStyle, value)


def _optional_str(value: Any) -> str | None:
    return None if value is None else str_param(value)


def _env_name(value: Any) -> str | None:
    if value is None:
        return None
    name = str_param(value)
    if not _ENV_NAME.match(name):
        raise ValueError("expected the NAME of an environment variable holding the key, not a key")
    return name


def _sampling(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError("expected a mapping such as {temperature: 0, max_tokens: 256}")
    clash = sorted(RESERVED & set(value))
    if clash:
        raise ValueError(f"{', '.join(clash)} cannot be set here; use the selector's own keys")
    return dict(value)


def _number(value: Any) -> float:
    """A number; also a numeric string, as YAML 1.1 reads ``1e-3`` (no dot) as text."""
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            pass
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("expected a number")
    return float(value)


def _positive(value: Any) -> float:
    if _number(value) <= 0:
        raise ValueError("expected a positive number")
    return _number(value)


def _optional_positive(value: Any) -> float | None:
    return None if value is None else _positive(value)


def _non_negative(value: Any) -> float:
    if _number(value) < 0:
        raise ValueError("expected a number >= 0")
    return _number(value)


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("expected true or false")
    return value


def _system_prompt(value: Any, base_dir: Path) -> str:
    """Inline text, or a file (relative to the config) when the value names one."""
    text = str_param(value)
    if "\n" not in text and len(text) < 512:
        path = (base_dir / text).expanduser()
        if path.is_file():
            return path.read_text(encoding="utf-8").strip()
        if path.suffix.lower() in (".md", ".txt"):
            raise ValueError(f"file {str(path)!r} not found")
    return text


def _model_name(params: Mapping[str, Any]) -> str | None:
    """The selector's model, the default of each deployment's (``None``: not a string)."""
    model = params.get("model")
    return model.strip() if isinstance(model, str) else None


def parse_params(params: Mapping[str, Any], env: SelectorEnv) -> LitellmParams:
    """Checked params; unknown keys and bad values raise ``SkillbenchError``."""
    p = check_params(
        "litellm",
        params,
        {
            "model": (_optional_str, None),
            "api_base": (_optional_str, None),
            "api_key_env": (_env_name, None),
            "params": (_sampling, {}),
            "system_prompt": (lambda v: _system_prompt(v, env.base_dir), DEFAULT_SYSTEM_PROMPT),
            "prompt": (_prompt_style, "skillbench"),
            "timeout": (_positive, 60.0),
            "max_attempts": (positive_int_param, 5),
            "max_cost_usd": (_optional_positive, None),
            "trigger_threshold": (probability_param, 0.5),
            "backoff_s": (_non_negative, 1.0),
            "cache": (_bool, True),
            "execute_fork": (_bool, False),
            "fork_system_prompt": (
                lambda v: _system_prompt(v, env.base_dir),
                DEFAULT_FORK_SYSTEM_PROMPT,
            ),
            "fork_params": (lambda v: None if v is None else _sampling(v), None),
            "processes": (positive_int_param, 1),
            "router": (lambda v: parse_router(v, _model_name(params), _env_name), None),
        },
    )
    if p["router"] is not None and (p["api_base"] or p["api_key_env"]):
        raise SkillbenchError(
            "selector 'litellm': with 'router', set api_base and api_key_env on each deployment"
        )
    if not {"max_tokens", "max_completion_tokens"} & set(p["params"]):
        p["params"] = {**p["params"], "max_tokens": DEFAULT_MAX_TOKENS}
    if p["fork_params"] is None:
        p["fork_params"] = p["params"]
    if p["model"] is None:
        raise SkillbenchError(
            "selector 'litellm': parameter 'model' is required (a litellm model string such as "
            "'openai/gpt-4o-mini' or 'ollama_chat/qwen2.5')"
        )
    return LitellmParams(**p)
