"""Load balancing across keys and regions: a ``router`` section handed to litellm's Router.

A config names deployments of one model (a key, an endpoint, their rate limits); the
selector's ``model`` is their group name, so prompts, cache keys and prices stay those of the
model whichever deployment answers. Keys are read from ``api_key_env`` in the process that
builds the Router and are never part of the params, results or cache.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from skillbench._errors import suggest
from skillbench.tokens import litellm_offline

RoutingStrategy = Literal[
    "simple-shuffle",
    "least-busy",
    "usage-based-routing",
    "usage-based-routing-v2",
    "latency-based-routing",
    "cost-based-routing",
]
"""litellm's routing strategies; ``usage-based-routing-v2`` holds each deployment to its
``rpm``/``tpm``, ``simple-shuffle`` picks at random weighted by ``rpm``."""
STRATEGIES: tuple[str, ...] = get_args(RoutingStrategy)
EnvName = Callable[[Any], str | None]
"""Checks an ``api_key_env`` value: the name of a variable, or ``None``."""
_DEPLOYMENT_KEYS = ("model", "api_base", "api_key_env", "rpm", "tpm")


@dataclass(frozen=True, slots=True)
class Deployment:
    """One place the model is served: which model string, where, with which key variable."""

    model: str
    api_base: str | None = None
    api_key_env: str | None = None
    rpm: int | None = None
    tpm: int | None = None


@dataclass(frozen=True, slots=True)
class RouterSpec:
    """The ``router`` params: deployments and how litellm picks one per call."""

    deployments: tuple[Deployment, ...]
    routing_strategy: RoutingStrategy = "simple-shuffle"

    @property
    def key_envs(self) -> list[str]:
        """Every variable holding a deployment's key, in config order, without repeats."""
        return list(dict.fromkeys(d.api_key_env for d in self.deployments if d.api_key_env))

    def share(self, processes: int) -> RouterSpec:
        """This spec for one of ``processes`` workers: each gets an equal part of every
        limit (at least 1), so together they stay within it (each Router counts alone)."""
        if processes == 1:
            return self
        parts = tuple(
            Deployment(
                d.model,
                d.api_base,
                d.api_key_env,
                None if d.rpm is None else max(1, d.rpm // processes),
                None if d.tpm is None else max(1, d.tpm // processes),
            )
            for d in self.deployments
        )
        return RouterSpec(parts, self.routing_strategy)


def parse_router(value: Any, model: str | None, env_name: EnvName) -> RouterSpec | None:
    """Checked ``router`` params; ``model`` is the default of a deployment's ``model``,
    ``env_name`` checks an ``api_key_env`` as the selector's own is checked.

    Raises:
        ValueError: an unknown key (naming the nearest valid one) or a bad value.
    """
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ValueError("expected a mapping with 'deployments' and 'routing_strategy'")
    _known(value, ("deployments", "routing_strategy"), "router")
    strategy = value.get("routing_strategy", "simple-shuffle")
    if strategy not in STRATEGIES:
        raise ValueError(
            f"routing_strategy {strategy!r}{suggest(str(strategy), STRATEGIES)}; "
            f"expected one of {', '.join(STRATEGIES)}"
        )
    raw = value.get("deployments")
    if not isinstance(raw, list) or not raw:
        raise ValueError("'deployments' must be a non-empty list")
    deployments = tuple(_deployment(d, i, model, env_name) for i, d in enumerate(raw))
    return RouterSpec(deployments, strategy)


def _deployment(value: Any, index: int, model: str | None, env_name: EnvName) -> Deployment:
    where = f"deployments[{index}]"
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: expected a mapping such as {{api_base: …, rpm: 500}}")
    _known(value, _DEPLOYMENT_KEYS, where)
    limits: dict[str, int | None] = {}
    for key in ("rpm", "tpm"):
        limit = value.get(key)
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
            raise ValueError(f"{where}.{key}: expected a positive integer")
        if limit is not None and limit < 1:
            raise ValueError(f"{where}.{key}: expected a positive integer")
        limits[key] = limit
    name = value.get("model", model)
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"{where}.model: expected a litellm model string")
    base = value.get("api_base")
    if base is not None and (not isinstance(base, str) or not base.strip()):
        raise ValueError(f"{where}.api_base: expected a URL")
    try:
        key_env = env_name(value.get("api_key_env"))
    except ValueError as e:
        raise ValueError(f"{where}.api_key_env: {e}") from None
    return Deployment(name.strip(), base, key_env, limits["rpm"], limits["tpm"])


def _known(value: Mapping[str, Any], valid: tuple[str, ...], where: str) -> None:
    for key in value:
        if key not in valid:
            raise ValueError(
                f"{where}: unknown key {key!r}{suggest(str(key), valid)}; "
                f"valid keys: {', '.join(valid)}"
            )


def build_router(spec: RouterSpec, group: str) -> Any:
    """litellm's Router serving ``spec`` under the model name ``group``, without retries of
    its own (the selector retries, with its backoff and spend cap)."""
    model_list = []
    for d in spec.deployments:
        params: dict[str, Any] = {"model": d.model}
        if d.api_base:
            params["api_base"] = d.api_base
        if d.api_key_env:
            params["api_key"] = os.environ.get(d.api_key_env)
        params.update({k: v for k, v in (("rpm", d.rpm), ("tpm", d.tpm)) if v is not None})
        model_list.append({"model_name": group, "litellm_params": params})
    litellm = litellm_offline()
    return litellm.Router(
        model_list=model_list, routing_strategy=spec.routing_strategy, num_retries=0
    )
