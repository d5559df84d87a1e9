"""The run config: a YAML file validated into frozen pydantic models.

Relative paths (catalog sources, ``requests``, ``cwd``, ``usage.warm_start``) are looked up
from the config file's directory and then from each parent directory in turn; the first
that exists wins. A config in ``configs/`` can therefore say ``datasets/devtools/skills``
and mean the project's folder, whatever the current directory. ``output_dir`` (default
``reports/<name>``) is relative to the current directory, like every CLI output.

An unknown key is an error naming the key, the nearest valid one and the YAML line.
"""

from __future__ import annotations

import hashlib
import json
import re
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)

from skillbench._errors import InputError, Location, SkillbenchError, suggest
from skillbench._yaml import LineDict, load_yaml
from skillbench.catalog import SourceKind
from skillbench.dataset import InputErrors
from skillbench.metrics import DEFAULT_CONTROL_THRESHOLD, DEFAULT_CONTROLS
from skillbench.tokens import DEFAULT_TOKEN_MODEL
from skillbench.types import DistractorMode, JsonObject


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SourceConfig(_Strict):
    """One catalog source: a path and the kind that decides precedence and privileges."""

    path: str
    source: SourceKind = "project"


class UsageConfig(_Strict):
    """How usage history is kept.

    ``record``: ``chosen`` records what the selector invoked (the agent's real history);
    ``label`` records the expected skill (a history independent of the model under test).
    """

    model: Literal["last_use", "per_event"] = "last_use"
    floor: float = Field(default=0.10, ge=0.0, le=1.0)
    warm_start: str | None = None
    record: Literal["chosen", "label"] = "chosen"


class CalibrationConfig(_Strict):
    """Seeded train split for selectors whose ``threshold`` is ``auto``."""

    train_fraction: float = Field(default=0.4, gt=0.0, lt=1.0)
    seed: int | None = None


class TimelineConfig(_Strict):
    """The synthetic timeline for requests without ``at`` (docs/timeline.md)."""

    days: int = Field(default=60, ge=1)
    seed: int | None = None


class CostConfig(_Strict):
    """Assumptions of the cost columns (``skillbench.cost.CostModel``); unset keys take the
    model's defaults, and ``model`` the run's ``token_model``."""

    model: str | None = None
    fork_system_prompt_tokens: int | None = Field(default=None, ge=0)
    fork_work_tokens: int | None = Field(default=None, ge=0)
    summary_tokens: int | None = Field(default=None, ge=0)
    horizon: int | None = Field(default=None, ge=1)


class ControlsConfig(_Strict):
    """Positive controls of model and live cells: ``per_cell`` listed skills (a seeded
    sample) each asked for by name in the agent's explicit form; a cell whose controls
    trigger below ``threshold`` is ``controls_failed``. ``per_cell: 0`` turns them off."""

    per_cell: int = Field(default=DEFAULT_CONTROLS, ge=0)
    threshold: float = Field(default=DEFAULT_CONTROL_THRESHOLD, ge=0.0, le=1.0)


class RetrieveConfig(BaseModel):
    """A retrieve stage in front of a selector: ``method`` (``RETRIEVERS`` name) ranks the
    whole catalog per request and the selector sees a listing of the ``k`` best only; other
    keys are the method's params (``model`` for embedding)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    method: str
    k: int = Field(default=10, ge=1)

    @property
    def params(self) -> JsonObject:
        return dict(self.model_extra or {})


class SelectorConfig(BaseModel):
    """A selector: ``type`` (registry name), ``name`` (default: the type), an optional
    ``retrieve`` stage; other keys are params."""

    model_config = ConfigDict(extra="allow", frozen=True)
    type: str
    name: str | None = None
    retrieve: RetrieveConfig | None = None

    @property
    def label(self) -> str:
        return self.name or self.type

    @property
    def params(self) -> JsonObject:
        return dict(self.model_extra or {})


SWEEP_KEYS = ("catalog_sizes", "distractors", "anchors")
"""Catalog-size sweep keys: hashed only when set, so older configs keep their hash."""
ADAPTIVE_KEYS = ("repeats_mode", "repeats_ci_width")
"""Adaptive-repeats keys: hashed only when set, so older configs keep their hash."""
OPTIONAL_KEYS = (*SWEEP_KEYS, *ADAPTIVE_KEYS, "labels", "controls")
"""Every key hashed only when set."""

STAGE_KEYS = ("retrieve",)
"""Selector keys of optional stages: hashed only when set, for the same reason."""

PACING_PARAMS = frozenset(
    {"max_cost_usd", "timeout", "max_attempts", "backoff_s", "cache", "processes", "router"}
)
"""Selector params that change how a run is paced or paid for, never what it decides."""


def _default_budgets() -> list[int | None]:
    """One budget: the profile's default."""
    return [None]


class RunConfig(_Strict):
    """A replay experiment: the grid, the data and how usage evolves."""

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    catalogs: dict[str, list[SourceConfig]] = Field(min_length=1)
    requests: str
    profiles: list[str] = Field(default_factory=lambda: ["codebot"], min_length=1)
    profile_options: dict[str, dict[str, Any]] = Field(default_factory=dict)
    budgets: list[StrictInt | None] = Field(default_factory=_default_budgets, min_length=1)
    orderings: list[str] = Field(default_factory=lambda: ["usage"], min_length=1)
    half_lives: list[str] = Field(default_factory=lambda: ["7d"], min_length=1)
    selectors: list[SelectorConfig] = Field(min_length=1)
    repeats: StrictInt = Field(default=1, ge=1)
    repeats_mode: Literal["full", "adaptive"] | None = None
    """``adaptive``: a request's repeats stop once its verdict is settled (default ``full``)."""
    repeats_ci_width: float | None = Field(default=None, gt=0.0, lt=1.0)
    """With ``adaptive``: also stop once the trigger rate's 95% Wilson interval is this narrow."""
    seed: StrictInt = 0
    cwd: str | None = None
    usage: UsageConfig = UsageConfig()
    calibration: CalibrationConfig = CalibrationConfig()
    timeline: TimelineConfig = TimelineConfig()
    cost: CostConfig = CostConfig()
    controls: ControlsConfig | None = None
    token_model: str = DEFAULT_TOKEN_MODEL
    output_dir: str | None = None
    limit: StrictInt | None = Field(default=None, ge=1)
    catalog_sizes: list[int | Literal["all"]] | None = None
    distractors: Literal["random", "nearest", "both"] | None = None
    anchors: StrictInt | None = Field(default=None, ge=1)
    executor: str | None = None
    """Where the replay runs (``local``, ``ray``); how, never what, so not in the hash."""
    keep_raw_answers: bool = False
    """Keep every model answer whole in the results (default: a long one as an excerpt: head,
    tail, size and digest); what is kept, not what is decided, so not in the hash."""
    labels: str | None = None
    """A label-overrides file (JSONL of ``{id, expected}``) correcting some requests' labels."""

    _path: Path | None = PrivateAttr(default=None)
    _lines: dict[tuple[Any, ...], int | None] = PrivateAttr(default_factory=dict)

    @field_validator("catalogs", mode="before")
    @classmethod
    def _plain_paths(cls, value: Any) -> Any:
        """A source may be a bare path string, meaning a ``project`` source."""
        if not isinstance(value, dict):
            return value
        return {
            k: [{"path": s} if isinstance(s, str) else s for s in v] if isinstance(v, list) else v
            for k, v in value.items()
        }

    @model_validator(mode="before")
    @classmethod
    def _profile_entries(cls, data: Any) -> Any:
        """``profiles`` entries may be ``{name: …, <option>: …}``: the name joins ``profiles``
        and the options go to ``profile_options`` (both checked with the file's line later)."""
        entries = data.get("profiles") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            return data
        names: list[Any] = []
        options: dict[str, dict[str, Any]] = dict(data.get("profile_options") or {})
        for entry in entries:
            name = entry.get("name") if isinstance(entry, dict) else entry
            if not isinstance(name, str):
                raise ValueError(
                    f"profiles: each entry is a name or a mapping with 'name': {entry!r}"
                )
            if isinstance(entry, dict):
                options[name] = {k: v for k, v in entry.items() if k != "name"}
            names.append(name)
        return {**data, "profiles": names, "profile_options": options}

    @field_validator("half_lives", mode="before")
    @classmethod
    def _labels(cls, value: Any) -> Any:
        return [str(v) for v in value] if isinstance(value, list) else value

    @property
    def distractor_modes(self) -> tuple[DistractorMode, ...]:
        """The distractor modes of a catalog-size sweep (``both`` unless configured)."""
        if self.catalog_sizes is None:
            return ()
        mode = self.distractors or "both"
        return ("random", "nearest") if mode == "both" else (mode,)

    @property
    def path(self) -> Path | None:
        """The config file, when loaded from one."""
        return self._path

    def resolve(self, value: str) -> Path:
        """A configured path: absolute as is, else from the config's directory upward."""
        path = Path(value).expanduser()
        if path.is_absolute() or self._path is None:
            return path.resolve()
        for base in (self._path.parent, *self._path.parent.parents):
            if (base / path).exists():
                return (base / path).resolve()
        return (self._path.parent / path).resolve()

    def location(self, *loc: Any) -> Location:
        """Where ``loc`` (e.g. ``"selectors", 0``) sits in the config file, for errors found
        after loading (a selector's params, an empty catalog)."""
        return Location(
            str(self._path or "<config>"), self._lines.get(loc), _dotted(loc) if loc else None
        )

    def output_path(self) -> Path:
        return Path(self.output_dir or f"reports/{self.name}")

    def config_hash(self) -> str:
        """Hash of what decides the results: the config and the requests file.

        The output folder, the executor, ``keep_raw_answers`` and the selectors' pacing settings
        (``PACING_PARAMS``: spend cap, timeouts, retries, caching) are left out, so a run
        stopped by its spend cap resumes after the cap is raised, on any executor.
        """
        data = self.model_dump(mode="json", exclude={"output_dir", "executor", "keep_raw_answers"})
        for key in OPTIONAL_KEYS:
            if data[key] is None:
                del data[key]
        data["selectors"] = [
            {
                k: v
                for k, v in sel.items()
                if k not in PACING_PARAMS and not (k in STAGE_KEYS and v is None)
            }
            for sel in data["selectors"]
        ]
        digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode())
        for path in (self.requests, self.labels):
            if path is not None and self.resolve(path).is_file():
                digest.update(hashlib.sha256(self.resolve(path).read_bytes()).digest())
        return digest.hexdigest()[:16]

    def resolved(self) -> JsonObject:
        """The config with every input path absolute, as written to the run's ``config.yaml``."""
        data = self.model_dump(mode="json", exclude_none=True)
        data["catalogs"] = {
            v: [{"path": str(self.resolve(s.path)), "source": s.source} for s in sources]
            for v, sources in self.catalogs.items()
        }
        data["requests"] = str(self.resolve(self.requests))
        if self.cwd:
            data["cwd"] = str(self.resolve(self.cwd))
        if self.usage.warm_start:
            data["usage"]["warm_start"] = str(self.resolve(self.usage.warm_start))
        if self.labels:
            data["labels"] = str(self.resolve(self.labels))
        return data


def load_config(path: str | Path) -> RunConfig:
    """Read and validate a run config.

    Raises:
        InputErrors: every problem, each with file, line and field (unknown keys with the
            nearest valid key).
    """
    path = Path(path)
    raw = load_yaml(path)
    if not isinstance(raw, LineDict):
        raise InputError(Location(str(path), 1), "a run config must be a YAML mapping")
    try:
        config = RunConfig.model_validate(raw)
    except ValidationError as exc:
        raise InputErrors([_to_input_error(path, raw, err) for err in exc.errors()]) from None
    config._path = path.resolve()
    config._lines = {
        **{("selectors", i): _line(raw, ("selectors", i)) for i in range(len(config.selectors))},
        **{
            ("selectors", i, "retrieve"): _line(raw, ("selectors", i, "retrieve"))
            for i in range(len(config.selectors))
        },
        **{("catalogs", v): _line(raw, ("catalogs", v)) for v in config.catalogs},
        ("catalog_sizes",): _line(raw, ("catalog_sizes",)),
        ("executor",): _line(raw, ("executor",)),
    }
    _check_semantics(path, raw, config)
    return config


def _check_semantics(path: Path, raw: LineDict, config: RunConfig) -> None:
    """Checks pydantic cannot do: registry names (profiles, orderings, selector types,
    retrieve methods), unique selector names, parseable half-lives, positive budgets and
    input paths that exist. The executor is checked where the run picks it (it may come
    from the command line, and executors register with the engine)."""
    from skillbench.listing import PROFILES, get_ordering
    from skillbench.selectors import RETRIEVERS, SELECTORS
    from skillbench.usage import parse_duration

    problems: list[InputError] = []

    def where(*loc: Any) -> Location:
        return Location(str(path), _line(raw, loc), _dotted(loc))

    for i, profile in enumerate(config.profiles):
        try:
            PROFILES.get(profile).make_renderer(config.profile_options.get(profile, {}))
        except SkillbenchError as exc:
            problems.append(InputError(where("profiles", i), str(exc)))
    for i, spec in enumerate(config.orderings):
        try:
            get_ordering(spec)
        except SkillbenchError as exc:
            problems.append(InputError(where("orderings", i), str(exc)))
    for i, budget in enumerate(config.budgets):
        if budget is not None and budget < 1:
            problems.append(
                InputError(
                    where("budgets", i), f"budget must be at least 1 character, not {budget}"
                )
            )
    inputs: list[tuple[tuple[Any, ...], str, str]] = [(("requests",), config.requests, "requests")]
    inputs += [(("cwd",), config.cwd, "working directory")] if config.cwd else []
    inputs += [(("labels",), config.labels, "labels file")] if config.labels else []
    for variant, sources in config.catalogs.items():
        inputs += [
            (("catalogs", variant, j), s.path, "catalog source") for j, s in enumerate(sources)
        ]
    for loc, value, what in inputs:
        if not config.resolve(value).exists():
            problems.append(InputError(where(*loc), f"{what} {value!r} not found"))
    seen: set[str] = set()
    for i, sel in enumerate(config.selectors):
        if sel.label in seen:
            problems.append(
                InputError(where("selectors", i), f"duplicate selector name {sel.label!r}")
            )
        seen.add(sel.label)
        try:
            SELECTORS.get(sel.type)
        except SkillbenchError as exc:
            problems.append(InputError(where("selectors", i, "type"), str(exc)))
        method = sel.retrieve.method if sel.retrieve else None
        if method is not None and method not in RETRIEVERS:
            methods = RETRIEVERS.names()
            problems.append(
                InputError(
                    where("selectors", i, "retrieve", "method"),
                    f"unknown retrieve method {method!r}{suggest(method, methods)}; "
                    f"choose one of: {', '.join(methods)}",
                )
            )
    for i, label in enumerate(config.half_lives):
        try:
            parse_duration(label)
        except SkillbenchError as exc:
            problems.append(InputError(where("half_lives", i), f"bad duration {label!r}: {exc}"))
    if len(set(config.half_lives)) != len(config.half_lives):
        problems.append(InputError(where("half_lives"), "duplicate half-life"))
    problems += _sweep_problems(config, where)
    problems += _adaptive_problems(config, where)
    if problems:
        raise InputErrors(problems)


def _sweep_problems(config: RunConfig, where: Callable[..., Location]) -> list[InputError]:
    """Catalog sizes are positive and distinct; ``distractors`` and ``anchors`` need sizes."""
    if config.catalog_sizes is None:
        return [
            InputError(where(key), f"{key} needs catalog_sizes (the sizes to sweep)")
            for key in ("distractors", "anchors")
            if getattr(config, key) is not None
        ]
    problems = [
        InputError(where("catalog_sizes", i), f"catalog size must be at least 1, not {size}")
        for i, size in enumerate(config.catalog_sizes)
        if size != "all" and size < 1
    ]
    if not config.catalog_sizes:
        problems.append(InputError(where("catalog_sizes"), "catalog_sizes needs a size"))
    if len(set(config.catalog_sizes)) != len(config.catalog_sizes):
        problems.append(InputError(where("catalog_sizes"), "duplicate catalog size"))
    return problems


def _adaptive_problems(config: RunConfig, where: Callable[..., Location]) -> list[InputError]:
    """Adaptive repeats need repeats to skip; an interval width needs adaptive repeats."""
    problems = []
    if config.repeats_mode == "adaptive" and config.repeats < 2:
        problems.append(
            InputError(where("repeats_mode"), "adaptive repeats need repeats of at least 2")
        )
    if config.repeats_ci_width is not None and config.repeats_mode != "adaptive":
        problems.append(
            InputError(where("repeats_ci_width"), "repeats_ci_width needs repeats_mode: adaptive")
        )
    return problems


def _to_input_error(path: Path, raw: Any, err: Any) -> InputError:
    loc = tuple(err["loc"])
    field = _dotted(loc)
    line = _line(raw, loc)
    if err["type"] == "extra_forbidden":
        valid = _fields_at(RunConfig, loc[:-1])
        reason = f"unknown key {loc[-1]!r}{suggest(str(loc[-1]), valid)}"
        if valid:
            reason += f"; valid keys: {', '.join(valid)}"
    else:
        reason = err["msg"]
    return InputError(Location(str(path), line, field), reason)


def _dotted(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif not re.fullmatch(r"[a-z-]+\[.*\]|function-.*", str(part)):
            out += f".{part}" if out else str(part)
    return out


def _line(raw: Any, loc: tuple[Any, ...]) -> int | None:
    """The YAML line of ``loc`` (or of its deepest known ancestor)."""
    line = raw.line if isinstance(raw, LineDict) else None
    node = raw
    for part in loc:
        if isinstance(node, LineDict) and part in node:
            line = node.lines.get(part, line)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
            line = node.line if isinstance(node, LineDict) else line
        else:
            continue
    return line


def _fields_at(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """Valid keys of the model reached by following ``loc`` through field annotations."""
    current: Any = model
    for part in loc:
        if isinstance(current, type) and issubclass(current, BaseModel):
            info = current.model_fields.get(str(part))
            if info is None:
                continue
            current = info.annotation
            continue
        current = _unwrap(current)
    current = _unwrap(current)
    if isinstance(current, type) and issubclass(current, BaseModel):
        return list(current.model_fields)
    return []


def _unwrap(tp: Any) -> Any:
    """The model type inside ``list[X]``, ``dict[str, X]`` or ``X | str | None``."""
    while True:
        args = typing.get_args(tp)
        origin = typing.get_origin(tp)
        if origin in (list, dict):
            tp = args[-1]
        elif origin in (typing.Union, types.UnionType):
            models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
            tp = models[0] if models else args[0]
        else:
            return tp
