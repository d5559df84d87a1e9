"""Reports people read, paired comparisons and the CI regression gate."""

from skillbench.report._advice import LeftOut, left_out, left_out_text
from skillbench.report._baseline import Baseline, BaselineCell, baseline_from_run, load_baseline
from skillbench.report._compare import Comparison, Flip, PairedResult, SkillDiff, compare_runs
from skillbench.report._compare_doc import build_comparison
from skillbench.report._doc import (
    Bullets,
    Document,
    Heading,
    Para,
    Table,
    to_html,
    to_markdown,
    to_text,
)
from skillbench.report._figure import png, pyplot, thousands
from skillbench.report._gate import (
    GateReport,
    GateResult,
    Thresholds,
    bless_run,
    check_run,
    write_junit,
)
from skillbench.report._headline import headline_text
from skillbench.report._pairing import DEFAULT_MAX_DROP
from skillbench.report._proxy import check_proxy
from skillbench.report._proxy_doc import build_proxy_check
from skillbench.report._proxy_types import DEFAULT_MIN_RHO, ProxyCheck
from skillbench.report._report import build_report, write_report
from skillbench.report._run import (
    banner,
    cell_label,
    distinct,
    inert_keys,
    not_shown_reason,
    rows_by_cell,
    run_name,
    selector_type,
    skill_descriptions,
    varying_keys,
)
from skillbench.report._select import Selection, parse_selection
from skillbench.report._sizes import Knee, LossSplit, SizeLine, SizeLoss, size_json, size_lines

__all__ = [
    "DEFAULT_MAX_DROP",
    "DEFAULT_MIN_RHO",
    "Baseline",
    "BaselineCell",
    "Bullets",
    "Comparison",
    "Document",
    "Flip",
    "GateReport",
    "GateResult",
    "Heading",
    "Knee",
    "LeftOut",
    "LossSplit",
    "PairedResult",
    "Para",
    "ProxyCheck",
    "Selection",
    "SizeLine",
    "SizeLoss",
    "SkillDiff",
    "Table",
    "Thresholds",
    "banner",
    "baseline_from_run",
    "bless_run",
    "build_comparison",
    "build_proxy_check",
    "build_report",
    "cell_label",
    "check_proxy",
    "check_run",
    "compare_runs",
    "distinct",
    "headline_text",
    "inert_keys",
    "left_out",
    "left_out_text",
    "load_baseline",
    "not_shown_reason",
    "parse_selection",
    "png",
    "pyplot",
    "rows_by_cell",
    "run_name",
    "selector_type",
    "size_json",
    "size_lines",
    "skill_descriptions",
    "thousands",
    "to_html",
    "to_markdown",
    "to_text",
    "varying_keys",
    "write_junit",
    "write_report",
]
