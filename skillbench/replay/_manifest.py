"""``manifest.json``: how a run was made and how it ended, rewritten at each status change.

Everything but ``started_at``/``ended_at`` is a function of the config, the inputs and the
installed packages, so two runs of one config write the same manifest up to the times.
"""

from __future__ import annotations

import dataclasses
import hashlib
import platform
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from skillbench._errors import SkillbenchError
from skillbench.catalog import BodyFile, Catalog
from skillbench.replay._experiment import Experiment, UsageSpec
from skillbench.replay._grid import Grid
from skillbench.replay._results import now_iso
from skillbench.replay._types import Cell
from skillbench.results import (
    MANIFEST,
    CatalogFacts,
    Manifest,
    RunCalibration,
    RunShape,
    RunStatus,
    SizeSweep,
    Timeline,
    read_manifest,
    write_json,
)
from skillbench.selectors import Calibration

PACKAGES = ("skillbench", "numpy", "sentence-transformers", "torch", "litellm")


def package_versions() -> dict[str, str | None]:
    """Installed versions, read from metadata without importing the packages."""
    out: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    out["python"] = platform.python_version()
    return out


def catalog_facts(catalog: Catalog) -> CatalogFacts:
    """What reports quote of a catalog: every skill's description, the status counts and the
    names the loader set aside for another skill (with its reason)."""
    statuses = {s.name: catalog.status(s) for s in catalog.skills}
    counts = list(statuses.values())
    return CatalogFacts(
        skills={s.name: s.description for s in catalog.skills},
        count=len(catalog.skills),
        active=counts.count("active"),
        disabled=counts.count("disabled"),
        inactive=counts.count("inactive"),
        status={name: status for name, status in statuses.items() if status != "active"},
        overridden={
            o.loser.name: o.reason for o in catalog.overrides if o.loser.name not in statuses
        },
    )


RESUME_CHECKS = (
    "the config and the requests file (config_hash), every catalog as loaded (its skills' "
    "names, descriptions, bodies and other fields, under every profile, and which are "
    "inactive) and the usage.warm_start file"
)
"""What ``--resume`` compares, as its error says it."""


MACHINE_FIELDS = frozenset({"path", "root"})
"""Skill fields that say where this checkout sits (its absolute path), not what the skill is:
left out so the digest is the same in any folder (``rel_path`` and ``source`` place it)."""


def input_digests(usage: UsageSpec, grid: Grid) -> dict[str, str]:
    """Digests of the inputs the config hash leaves out, by name: each catalog variant as
    loaded and the usage warm-start file. A resume compares them, so a skill added or
    rewritten since the run started never mixes old rows with new ones."""
    digests: dict[str, hashlib._Hash] = {}
    for (variant, _), catalog in grid.catalogs.items():
        digest = digests.setdefault(variant, hashlib.sha256())
        for skill in catalog.skills:
            fields = {
                f.name: getattr(skill, f.name)
                for f in dataclasses.fields(skill)
                if f.name not in MACHINE_FIELDS
            }
            digest.update(_canonical(fields).encode() + b"\n")
        digest.update(_canonical(catalog.inactive).encode() + b"\n")
    out = {f"catalogs.{variant}": d.hexdigest()[:16] for variant, d in digests.items()}
    if usage.warm_start is not None:
        path = usage.warm_start
        data = path.read_bytes() if path.is_file() else b""
        out["usage.warm_start"] = hashlib.sha256(data).hexdigest()[:16]
    return out


def _canonical(value: Any) -> str:
    """A text that is the same for equal values in every process (sets sorted, since their
    order follows the process's string hashing)."""
    if isinstance(value, Mapping):
        return "{" + ",".join(f"{_canonical(k)}:{_canonical(v)}" for k, v in value.items()) + "}"
    if isinstance(value, set | frozenset):
        return "set(" + ",".join(sorted(_canonical(v) for v in value)) + ")"
    if isinstance(value, list | tuple):
        return "[" + ",".join(_canonical(v) for v in value) + "]"
    if isinstance(value, BodyFile):
        return f"body(sha256={value.sha256}, chars={value.chars})"  # not where the file is
    return repr(value)


def check_inputs(run_dir: Path, config_hash: str, inputs: Mapping[str, str]) -> None:
    """Refuse to resume the run in ``run_dir`` when an input changed since it started.

    Only a manifest of the same config is compared (the config hash check says the rest);
    a manifest written before input digests existed has none to compare.
    """
    try:
        found = read_manifest(run_dir / MANIFEST)
    except SkillbenchError:
        return
    before = found.inputs
    if found.config_hash != config_hash or before is None:
        return
    changed = [k for k in sorted({*before, *inputs}) if before.get(k) != inputs.get(k)]
    if changed:
        raise SkillbenchError(
            f"{run_dir}: cannot resume: {', '.join(changed)} changed since the run started, "
            f"so its rows would mix two inputs. --resume compares {RESUME_CHECKS}. Run "
            "without --resume to replace the run, or restore the inputs"
        )


def run_info(
    experiment: Experiment,
    grid: Grid,
    fitted: Mapping[Cell, Calibration],
    resumed: int,
    inputs: Mapping[str, str],
) -> RunShape:
    """The run's shape: sizes, usage and timeline settings, catalogs (under the first
    profile), the input digests, skipped duplicate listings and the calibration split."""
    spec = experiment.grid
    profile = spec.profiles[0]
    sweep = None
    if spec.sweep is not None:
        sizes = {c.key.catalog_size for c in grid.cells if c.key.catalog_size is not None}
        sweep = SizeSweep(
            sizes=sorted(sizes),
            distractors=list(spec.sweep.modes),
            anchors=sorted({name for r in grid.requests for name in r.expected}),
            notes=grid.notes,
        )
    calibration = None
    if fitted:
        calibration = RunCalibration(
            train_fraction=experiment.calibration.train_fraction,
            seed=experiment.calibration.seed,
            train=len(grid.train),
            test=len(grid.requests) - len(grid.train),
            fitted={cell.label: v for cell, v in fitted.items()},
        )
    return RunShape(
        requests=len(grid.requests),
        cells=len(grid.cells),
        decisions=grid.decisions,
        resumed_rows=resumed,
        limit=spec.requests.limit,
        token_model=experiment.token_model,
        usage=experiment.usage.settings(),
        timeline=Timeline(days=spec.requests.timeline_days, seed=spec.requests.timeline_seed),
        catalogs={v.name: catalog_facts(grid.catalogs[v.name, profile]) for v in spec.catalogs},
        inputs=dict(inputs),
        agents=grid.agents or None,
        duplicate_listings_skipped=grid.duplicates or None,
        calibration=calibration,
        catalog_sizes=sweep,
    )


class ManifestWriter:
    """Writes the manifest of one run; ``write(status)`` at start, stop and end."""

    def __init__(self, run_dir: Path, experiment: Experiment, started: str, info: RunShape) -> None:
        self.path = run_dir / MANIFEST
        self.fixed = {
            "name": experiment.name,
            "config_hash": experiment.config_hash,
            "seed": experiment.seed,
            "started_at": started,
            "versions": package_versions(),
            **dict(info),
        }

    def write(self, status: RunStatus, reason: str | None = None, errors: int = 0) -> None:
        ended = None if status == "running" else now_iso()
        manifest = Manifest.model_validate(
            {
                **self.fixed,
                "ended_at": ended,
                "status": status,
                "stop_reason": reason,
                "errors": errors,
            }
        )
        write_json(self.path, manifest.to_json())
