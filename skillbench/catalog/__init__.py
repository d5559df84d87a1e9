"""Skills on disk → a deduplicated, profile-aware catalog."""

from skillbench.catalog import _first_line, _yaml_str  # noqa: F401  (register their readers)
from skillbench.catalog._catalog import (
    Catalog,
    SkillStatus,
    kept_by_keys,
    load_catalog,
    skill_keys,
)
from skillbench.catalog._fields import (
    MAX_DESCRIPTION_CHARS,
    MAX_NAME_CHARS,
    loaded_fallback_description,
)
from skillbench.catalog._frontmatter import (
    FRONT_MATTER_READERS,
    JS_SPACE,
    FrontMatterReader,
    Markdown,
    body_lines,
    spaced_text,
)
from skillbench.catalog._js_frontmatter import js_string
from skillbench.catalog._paths import any_match, clear_paths_cache, compile_glob, matches
from skillbench.catalog._precedence import (
    CODEBOT,
    PRECEDENCE,
    Dedupe,
    PathsRule,
    Precedence,
)
from skillbench.catalog._requoted import requote
from skillbench.catalog._skill import (
    INLINE_BODY_CHARS,
    MAX_SKILL_BYTES,
    SOURCE_KINDS,
    BodyFile,
    ExecutionContext,
    Skill,
    SourceKind,
    normalize_context,
    normalize_name,
)
from skillbench.catalog._types import Diagnostic, Override, Severity, SourceSpec, parse_source_arg
from skillbench.catalog._walk import FOLDER_RULES, MAX_DEPTH, MAX_DIRS, FolderRule, walk

__all__ = [
    "CODEBOT",
    "FOLDER_RULES",
    "FRONT_MATTER_READERS",
    "INLINE_BODY_CHARS",
    "JS_SPACE",
    "MAX_DEPTH",
    "MAX_DESCRIPTION_CHARS",
    "MAX_DIRS",
    "MAX_NAME_CHARS",
    "MAX_SKILL_BYTES",
    "PRECEDENCE",
    "SOURCE_KINDS",
    "BodyFile",
    "Catalog",
    "Dedupe",
    "Diagnostic",
    "ExecutionContext",
    "FolderRule",
    "FrontMatterReader",
    "Markdown",
    "Override",
    "PathsRule",
    "Precedence",
    "Severity",
    "Skill",
    "SkillStatus",
    "SourceKind",
    "SourceSpec",
    "any_match",
    "body_lines",
    "clear_paths_cache",
    "compile_glob",
    "js_string",
    "kept_by_keys",
    "load_catalog",
    "loaded_fallback_description",
    "matches",
    "normalize_context",
    "normalize_name",
    "parse_source_arg",
    "requote",
    "skill_keys",
    "spaced_text",
    "walk",
]
