"""Catalog size: accuracy against size, the knee and the loss split into dilution and shadowing.

A catalog-size run (``catalog_sizes`` in the config) replays the same requests on nested
catalogs: the anchors (every skill a request expects) plus distractors drawn at random or as
the anchors' nearest look-alikes. Per line of the grid (every other key field fixed):

- the **reference** is the smallest size with random distractors (the nearest mode's smallest
  size when the run has no random mode);
- the **loss** at a size is the reference's accuracy minus the size's, paired on the same
  requests: the exact sign test and the paired bootstrap interval of ``compare``/``check``;
- the **knee** of a mode is its first size past the reference size whose loss the shared
  regression rule (``is_regression``, tolerance 0) calls more than noise, Bonferroni over
  those sizes;
- **dilution** at a size is the loss with random distractors (the crowd alone) and
  **shadowing** is random minus nearest accuracy at that size (what look-alikes add); the
  two sum to the loss with nearest distractors.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from skillbench.metrics import Interval, find_metric
from skillbench.report._doc import Block, Bullets, Heading, Para, Table
from skillbench.report._effects import Effects
from skillbench.report._pairing import PairedStats, family_alpha, paired_stats
from skillbench.report._run import cell_label, fmt_value, varying_keys
from skillbench.results import CellFields, Run
from skillbench.types import CELL_FIELDS, SIZE_FIELDS, JsonObject, JsonValue

ALPHA = 0.05
"""Family-wise level of a mode's knee tests (Bonferroni over its sizes)."""
RESAMPLES = 4000
"""Paired bootstrap resamples per difference."""

Cell = CellFields


class SizeLoss(NamedTuple):
    """Accuracy lost from one cell to another on the requests both decided.

    Attributes:
        value: accuracy of the first minus accuracy of the second (positive: a loss).
        ci: 95% paired bootstrap interval of ``value`` (requests resampled, seeded).
        p_worse: one-sided exact sign test that the second is worse.
        requests: the paired requests.
        significant: whether the shared regression rule calls it more than noise.
    """

    value: float
    ci: Interval
    p_worse: float
    requests: int
    significant: bool

    @classmethod
    def of(cls, stats: PairedStats, alpha: float) -> SizeLoss:
        diff = stats.bootstrap.ci  # of accuracy(second) - accuracy(first)
        return cls(
            stats.drop,
            Interval(0.0 - diff.high, 0.0 - diff.low),
            stats.test.p_worse,
            len(stats.ids),
            stats.regressed(0.0, alpha),
        )

    def text(self) -> str:
        return f"{self.value:+.3f} [{self.ci.low:+.3f}, {self.ci.high:+.3f}]"


class Knee(NamedTuple):
    """A mode's knee: its first size whose loss exceeds the noise (``size`` None: none did)."""

    mode: str
    size: int | None
    loss: SizeLoss | None
    alpha: float


class LossSplit(NamedTuple):
    """The loss at one size, split: dilution (random) and shadowing (random − nearest)."""

    size: int
    dilution: SizeLoss
    shadowing: SizeLoss


class SizeLine(NamedTuple):
    """One line of the grid swept over catalog size.

    Attributes:
        label: the other key fields that vary in the run (``all`` when none does).
        reference: the cell every loss is measured from.
        cells: per mode, its cells by ascending size.
        losses: per mode and size, the loss from the reference (the reference itself absent).
        knees: per mode, its knee.
        splits: per size both modes ran, the dilution/shadowing split.
    """

    label: str
    reference: Cell
    cells: Mapping[str, Sequence[Cell]]
    losses: Mapping[str, Mapping[int, SizeLoss]]
    knees: Sequence[Knee]
    splits: Sequence[LossSplit]


def size_lines(run: Run) -> list[SizeLine]:
    """Every line of a catalog-size run (empty for a run without the size axis)."""
    swept = [c for c in run.summary.cells if c.catalog_size is not None]
    if not swept:
        return []
    others = [k for k in varying_keys(run.summary.cells) if k not in SIZE_FIELDS]
    rest = [k for k in CELL_FIELDS if k not in SIZE_FIELDS]
    lines: dict[tuple[str, ...], list[Cell]] = defaultdict(list)
    for cell in swept:
        lines[tuple(fmt_value(getattr(cell, k)) for k in rest)].append(cell)
    effects = Effects(run)
    seed = run.manifest.seed if run.manifest is not None else 0
    return [_line(cell_label(cs[0], others), cs, effects, seed) for cs in lines.values()]


def _line(label: str, cells: Sequence[Cell], effects: Effects, seed: int) -> SizeLine:
    by_mode: dict[str, list[Cell]] = defaultdict(list)
    for cell in sorted(cells, key=catalog_size):
        by_mode[str(cell.distractors)].append(cell)
    reference = (by_mode.get("random") or by_mode["nearest"])[0]

    def loss(a: Cell, b: Cell, alpha: float) -> SizeLoss:
        sa, sb = effects.scores(a, "accuracy"), effects.scores(b, "accuracy")
        ids = sa.keys() & sb.keys()
        stats = paired_stats(
            {i: sa[i] for i in ids},
            {i: sb[i] for i in ids},
            find_metric("accuracy"),
            alpha=alpha,
            resamples=RESAMPLES,
            seed=seed,
        )
        return SizeLoss.of(stats, alpha)

    smallest = catalog_size(reference)
    losses: dict[str, dict[int, SizeLoss]] = {}
    knees: list[Knee] = []
    for mode, mode_cells in by_mode.items():
        larger = [catalog_size(c) for c in mode_cells if catalog_size(c) > smallest]
        alpha = family_alpha(ALPHA, len(larger))
        losses[mode] = {
            catalog_size(c): loss(reference, c, alpha) for c in mode_cells if c is not reference
        }
        knee = next((n for n in larger if losses[mode][n].significant), None)
        knees.append(Knee(mode, knee, None if knee is None else losses[mode][knee], alpha))
    splits: list[LossSplit] = []
    nearest = {catalog_size(c): c for c in by_mode.get("nearest", [])}
    for cell in by_mode.get("random", []):
        size = catalog_size(cell)
        if size in nearest and size in losses["random"]:
            shadow = loss(cell, nearest[size], ALPHA)
            splits.append(LossSplit(size, losses["random"][size], shadow))
    return SizeLine(label, reference, by_mode, losses, knees, splits)


def catalog_size(cell: Cell) -> int:
    """The catalog size of a cell of the size sweep."""
    if cell.catalog_size is None:
        raise ValueError(f"cell {cell.key} has no catalog size")
    return cell.catalog_size


def _loss_json(loss: SizeLoss | None) -> JsonObject | None:
    if loss is None:
        return None
    return {
        "value": round(loss.value, 6),
        "ci": [round(loss.ci.low, 6), round(loss.ci.high, 6)],
        "p_worse": loss.p_worse,
        "requests": loss.requests,
        "significant": loss.significant,
    }


def _interval_json(ci: Sequence[float] | None) -> JsonValue:
    if ci is None:
        return None
    return list[JsonValue](ci)


def _knee_json(knee: Knee) -> JsonObject:
    return {
        "distractors": knee.mode,
        "catalog_size": knee.size,
        "alpha": knee.alpha,
        "loss": _loss_json(knee.loss),
    }


def size_json(lines: Sequence[SizeLine]) -> JsonObject:
    """The catalog-size analysis as written to ``catalog-size.json``."""
    out: list[JsonValue] = []
    for line in lines:
        points: list[JsonValue] = [
            {
                "catalog_size": c.catalog_size,
                "distractors": mode,
                "n": c.n,
                **{m: c.metric(m) for m in ("accuracy", "false_invocation_rate", "coverage")},
                **{
                    f"{m}_ci": _interval_json(c.interval(m))
                    for m in ("accuracy", "false_invocation_rate")
                },
                "loss": _loss_json(line.losses[mode].get(catalog_size(c))),
            }
            for mode, cells in line.cells.items()
            for c in cells
        ]
        out.append(
            {
                "line": line.label,
                "reference": {k: getattr(line.reference, k) for k in SIZE_FIELDS},
                "points": points,
                "knees": [_knee_json(k) for k in line.knees],
                "split": [
                    {
                        "catalog_size": s.size,
                        "dilution": _loss_json(s.dilution),
                        "shadowing": _loss_json(s.shadowing),
                    }
                    for s in line.splits
                ],
            }
        )
    return {"alpha": ALPHA, "resamples": RESAMPLES, "lines": out}


def _rate(cell: Cell, name: str) -> str:
    value, ci = cell.metric(name), cell.interval(name)
    if value is None:
        return "–"
    return f"{value:.3f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "")


def _knee_text(line: SizeLine, knee: Knee) -> str:
    head = "" if line.label == "all" else f"**{line.label}**, "
    if knee.size is None or knee.loss is None:
        worst = max(line.losses[knee.mode].items(), key=lambda kv: kv[1].value, default=None)
        tail = "" if worst is None else f" (largest: {worst[1].text()} at {worst[0]} skills)"
        return f"{head}{knee.mode} distractors: no size loses more than the noise{tail}."
    return (
        f"{head}{knee.mode} distractors: knee at **{knee.size} skills**, accuracy loss "
        f"{knee.loss.text()} vs the reference (p = {knee.loss.p_worse:.2g}, "
        f"{knee.loss.requests:,} paired requests, level {knee.alpha:.3g})."
    )


def size_blocks(run: Run, lines: Sequence[SizeLine]) -> list[Block]:
    """The report section: knees, the per-size table and the dilution/shadowing split."""
    ref = lines[0].reference
    out: list[Block] = [
        Heading("Catalog size"),
        Para(
            "Each catalog keeps every skill the requests expect (the anchors) plus distractors: "
            "random skills, or the anchors' nearest look-alikes by embedding cosine; catalogs "
            "are nested. Losses are accuracy points against the reference, the smallest "
            f"catalog ({ref.catalog_size} skills, {ref.distractors} distractors), on the "
            "same requests: 95% paired bootstrap interval and exact one-sided sign test. The "
            "knee is the first larger size whose loss is more than noise (Bonferroni over them). "
            "Dilution: the loss with random distractors; shadowing: random minus nearest "
            "accuracy at the same size.",
            muted=True,
        ),
        Bullets([_knee_text(line, knee) for line in lines for knee in line.knees]),
    ]
    sweep = run.manifest.catalog_sizes if run.manifest is not None else None
    notes = sweep.notes if sweep is not None else []
    if notes:
        out.append(Para("Sweep notes: " + "; ".join(notes) + ".", muted=True))
    for line in lines:
        if len(lines) > 1:
            out.append(Heading(line.label, 3))
        rows = [
            [
                str(c.catalog_size),
                mode,
                str(c.n),
                _rate(c, "accuracy"),
                _rate(c, "false_invocation_rate"),
                _rate(c, "coverage"),
                loss.text() if (loss := line.losses[mode].get(catalog_size(c))) else "ref.",
            ]
            for mode, cells in line.cells.items()
            for c in cells
        ]
        header = ["skills", "distractors", "n", "accuracy", "false inv. rate", "coverage", "loss"]
        out.append(Table(header, rows, numeric=frozenset({0, 2})))
        if line.splits:
            split = [
                [
                    str(s.size),
                    s.dilution.text(),
                    s.shadowing.text(),
                    f"{s.dilution.value + s.shadowing.value:+.3f}",
                ]
                for s in line.splits
            ]
            header = ["skills", "dilution (random)", "shadowing (random − nearest)", "total"]
            out.append(Table(header, split, numeric=frozenset({0, 3})))
    return out
