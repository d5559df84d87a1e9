"""``skillbench overlap``: the pairs of skills a selector is most likely to confuse."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from skillbench.cli._common import EXIT_OK, add_cwd, add_format, add_output, positive_int
from skillbench.listing import PROFILES

if TYPE_CHECKING:
    from skillbench.authoring import PairOverlap
    from skillbench.results import Run

HELP = "rank the skill pairs most likely to be confused, and why"
DESCRIPTION = """\
Rank pairs of skills by how alike their listing entries are: embedding cosine (the packaged
MiniLM, cached like the embedding selector) and a symmetric BM25 score (each entry scored
against the other, normalised by its score against itself). With --run, pairs are ranked by
the confusions measured in that run directory first (requests expecting one skill of the
pair that chose the other, over all its cells, among the decisions whose listing showed the
expected skill: a skill the listing never offered is no description problem), with the
requests that flipped.

For each pair: shared content words (rarest in the catalog first) and the words only one
side has: the raw material for a "Use for X, not for Y" rewrite.

examples:
  skillbench overlap datasets/devtools/skills/project datasets/devtools/skills/user
  skillbench overlap project=.claude/skills --run reports/quickstart --top 5
  skillbench overlap ./skills --format json -o overlap.json
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("sources", nargs="+", metavar="SOURCE", help="[KIND=]PATH of skills")
    parser.add_argument("--run", metavar="DIR", help="a run directory to read confusions from")
    parser.add_argument("--top", type=positive_int, default=10, help="pairs to show (default: 10)")
    parser.add_argument(
        "--profile",
        choices=PROFILES.names(),
        default="codebot",
        help="precedence rules deciding which duplicate is kept (default: codebot)",
    )
    parser.add_argument(
        "--no-embeddings",
        action="store_true",
        help="skip the embedding model (BM25 only; no model load)",
    )
    add_cwd(parser)
    add_format(parser, ["text", "json"], "text")
    add_output(parser, "write the result to this file instead of stdout")


def _text(pairs: Sequence[PairOverlap]) -> str:
    lines = []
    for rank, p in enumerate(pairs, start=1):
        cosine = "-" if p.cosine is None else f"{p.cosine:.3f}"
        lines.append(
            f"{rank:>2}. {p.a} <-> {p.b}  cosine {cosine}  bm25 {p.bm25:.3f}"
            + (f"  confused {p.confusions}x" if p.confusions else "")
        )
        lines.append(f"    shared: {', '.join(p.shared) or '-'}")
        lines.append(f"    only {p.a}: {', '.join(p.only_a) or '-'}")
        lines.append(f"    only {p.b}: {', '.join(p.only_b) or '-'}")
        for f in p.flips[:5]:
            text = f" {f.text!r}" if f.text else ""
            lines.append(
                f"    flipped {f.request_id} ({f.cells}x): {f.expected} -> {f.chosen}{text}"
            )
    return "\n".join(lines) if lines else "fewer than two skills: no pairs"


def _left_out(run: Run) -> str:
    """The run's decisions the confusions leave out, with why (empty when none)."""
    from skillbench.report import left_out, left_out_text

    found = left_out(run)
    return f"\nnot counted as confusions: {left_out_text(found)}" if found else ""


def run(args: argparse.Namespace) -> int:
    from skillbench._output import output_file, write_output
    from skillbench.authoring import load_overlap
    from skillbench.results import read_run

    if args.output:
        output_file(args.output)
    measured = read_run(args.run) if args.run else None
    pairs = load_overlap(
        args.sources,
        profile=args.profile,
        cwd=args.cwd,
        run=measured,
        embeddings=not args.no_embeddings,
        top=args.top,
    )
    if args.format == "json":
        text = json.dumps([p.to_json() for p in pairs], indent=2, ensure_ascii=False)
    else:
        text = _text(pairs) + (_left_out(measured) if measured is not None else "")
    if args.output:
        write_output(args.output, text + "\n")
    else:
        print(text)
    return EXIT_OK
