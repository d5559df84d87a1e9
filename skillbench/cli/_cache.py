"""``skillbench cache``: inspect and clean skillbench's on-disk caches."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from skillbench.cli._common import EXIT_OK, add_format

HELP = "list, clear or prune the response and embedding caches"
DESCRIPTION = """\
skillbench keeps model responses (one file per request hash) and sentence embeddings under
one cache root: --cache-dir, else $SKILLBENCH_CACHE_DIR, else .skillbench-cache/ in the
current directory. Errors are never cached; the API key is never part of a key or an entry.

examples:
  skillbench cache list                     entries and sizes
  skillbench cache prune --older-than 30d   drop responses unused for 30 days
  skillbench cache clear [--all]            drop every response (--all: embeddings too)
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["list", "clear", "prune"])
    parser.add_argument("--cache-dir", help="cache root [env: SKILLBENCH_CACHE_DIR]")
    parser.add_argument(
        "--older-than", help="prune: entries unused for longer than this (e.g. 7d, 12h)"
    )
    parser.add_argument("--all", action="store_true", help="clear: the embedding cache too")
    add_format(parser, ["text", "json"], "text")


def _size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KB", "MB"):
        if size < 1024:
            return f"{size:.0f} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GB"


def _when(ts: float | None) -> str:
    return "-" if ts is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(ts))


def run(args: argparse.Namespace) -> int:
    import shutil

    from skillbench._errors import SkillbenchError
    from skillbench.cache import EMBEDDINGS_DIR, ResponseCache, default_cache_root, dir_size
    from skillbench.usage import parse_duration

    root = Path(args.cache_dir).expanduser() if args.cache_dir else default_cache_root()
    cache = ResponseCache(root)
    embeddings = root / EMBEDDINGS_DIR
    if args.action == "list":
        stats = cache.stats()
        emb = dir_size(embeddings)
        if args.format == "json":
            print(
                json.dumps(
                    {
                        "root": str(root),
                        "responses": {
                            "path": str(stats.path),
                            "entries": stats.entries,
                            "bytes": stats.bytes,
                            "oldest": stats.oldest,
                            "newest": stats.newest,
                        },
                        "embeddings": {"path": str(embeddings), "bytes": emb},
                    },
                    indent=2,
                )
            )
            return EXIT_OK
        print(f"cache root  {root}")
        used = (
            f" (last used {_when(stats.oldest)} … {_when(stats.newest)})" if stats.entries else ""
        )
        print(f"responses   {stats.entries} entries, {_size(stats.bytes)}{used}")
        print(f"embeddings  {_size(emb)}")
        return EXIT_OK
    if args.action == "prune":
        if not args.older_than:
            raise SkillbenchError("cache prune needs --older-than (e.g. --older-than 30d)")
        age = parse_duration(args.older_than)
        if age is None:
            raise SkillbenchError("--older-than must be finite")
        removed = cache.prune(age)
        print(f"removed {removed} responses unused for more than {args.older_than}")
        return EXIT_OK
    removed = cache.clear()
    message = f"removed {removed} responses from {root}"
    if args.all and embeddings.is_dir():
        size = dir_size(embeddings)
        shutil.rmtree(embeddings)
        message += f" and {_size(size)} of embeddings"
    print(message)
    return EXIT_OK
