"""How fast an unusable model stops ``skillbench run`` and ``skillbench doctor``.

Each case runs the real CLI in a subprocess (interpreter start and imports included) against
a two-request project: the key variable unset, a key the server refuses (401), and an Ollama
model whose server is down (nothing listens on the address). It prints the exit code, the
wall time and the HTTP requests the loopback server received.

    .venv/bin/python benchmarks/failure_bench.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from support.fake_openai import FakeOpenAI, refused_url  # noqa: E402

from skillbench.catalog import Skill  # noqa: E402
from skillbench.dataset import LabelledRequest  # noqa: E402
from skillbench.listing import render_listing  # noqa: E402
from skillbench.selectors import SELECTORS, Query, SelectorEnv  # noqa: E402
from skillbench.selectors._litellm import ModelUnavailable  # noqa: E402

KEY_ENV = "BENCH_KEY"
REQUESTS = [
    {"id": "q0", "text": "merge the pdf files", "expected": "pdf-merge"},
    {"id": "q1", "text": "combine these two PDFs", "expected": "pdf-merge"},
]


def project(root: Path, selector: dict[str, object]) -> Path:
    folder = root / "skills" / "pdf-merge"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: pdf-merge\ndescription: Merge PDF files.\n---\nDo it.\n", encoding="utf-8"
    )
    with (root / "requests.jsonl").open("w", encoding="utf-8") as f:
        for r in REQUESTS:
            f.write(json.dumps(r) + "\n")
    config = {
        "name": "failure-bench",
        "catalogs": {"base": ["skills"]},
        "requests": "requests.jsonl",
        "selectors": [{"type": "litellm", "name": "model", **selector}],
    }
    path = root / "config.yaml"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def cli(args: list[str], env: dict[str, str]) -> tuple[int, float, str]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "skillbench", *args], env=env, capture_output=True, text=True
    )
    text = done.stderr.strip() or done.stdout.strip()
    last = next((ln.strip() for ln in text.splitlines() if "BAD" in ln or "error" in ln), "")
    return done.returncode, time.perf_counter() - start, last


def in_process(params: dict[str, object], cache: Path) -> tuple[float, str]:
    """Seconds from the first ``select`` to the error, litellm already imported."""
    listing = render_listing([Skill("pdf-merge", "Merge PDF files.")], profile="codebot")
    queries = [Query(LabelledRequest(r["id"], r["text"]), listing) for r in REQUESTS]
    selector = SELECTORS.get("litellm")(params, SelectorEnv(cache, quiet=True))
    start = time.perf_counter()
    try:
        selector.select(queries)
    except ModelUnavailable as exc:
        return time.perf_counter() - start, exc.kind
    return time.perf_counter() - start, "no error"


def main() -> None:
    base_env = {**os.environ, "PYTHONPATH": str(REPO)}
    print(f"{'case':<34} {'exit':>4} {'seconds':>8} {'requests':>8}  message")
    with tempfile.TemporaryDirectory() as tmp, FakeOpenAI(api_keys={"sk-good-key"}) as server:
        cases = [
            ("run, key variable unset", {}, "run"),
            ("doctor, key variable unset", {}, "doctor"),
            ("run, key refused (401)", {KEY_ENV: "sk-wrong-key"}, "run"),
            ("doctor, key refused (401)", {KEY_ENV: "sk-wrong-key"}, "doctor"),
        ]
        for i, (label, extra, command) in enumerate(cases):
            root = Path(tmp) / f"c{i}"
            root.mkdir()
            config = project(
                root,
                {
                    "model": "openai/gpt-4o-mini",
                    "api_base": server.base_url,
                    "api_key_env": KEY_ENV,
                },
            )
            env = {k: v for k, v in base_env.items() if k != KEY_ENV}
            env.update(extra, SKILLBENCH_CACHE_DIR=str(root / "cache"))
            before = server.requests
            args = [
                command,
                str(config),
                *(["-q", "-o", str(root / "run")] if command == "run" else []),
            ]
            code, wall, message = cli(args, env)
            print(
                f"{label:<34} {code:>4} {wall:>8.2f} {server.requests - before:>8}  {message[:90]}"
            )
        for command in ("run", "doctor"):
            root = Path(tmp) / f"ollama-{command}"
            root.mkdir()
            base = refused_url().removesuffix("/v1")
            config = project(root, {"model": "ollama_chat/qwen2.5", "api_base": base})
            env = {**base_env, "SKILLBENCH_CACHE_DIR": str(root / "cache")}
            args = [
                command,
                str(config),
                *(["-q", "-o", str(root / "run")] if command == "run" else []),
            ]
            code, wall, message = cli(args, env)
            label = f"{command}, Ollama server down"
            print(f"{label:<34} {code:>4} {wall:>8.2f} {'-':>8}  {message[:90]}")
        code, wall, _ = cli(["--version"], base_env)
        print(f"{'(interpreter + import: --version)':<34} {code:>4} {wall:>8.2f}")
        print("\nin process, from the first select() to ModelUnavailable:")
        os.environ.pop(KEY_ENV, None)
        fast = {"model": "openai/gpt-4o-mini", "api_base": server.base_url, "api_key_env": KEY_ENV}
        slow = {"max_attempts": 5, "backoff_s": 1.0}
        down = {"model": "ollama_chat/qwen2.5", "api_base": refused_url().removesuffix("/v1")}
        for label, params, key in [
            ("key variable unset", fast, None),
            ("key refused (401)", fast, "sk-wrong-key"),
            ("Ollama server down", {**down, **slow}, None),
        ]:
            if key:
                os.environ[KEY_ENV] = key
            before = server.requests
            seconds, kind = in_process({**params, **slow}, Path(tmp) / label.replace(" ", "-"))
            made = server.requests - before
            print(f"  {label:<24} {seconds:>7.3f} s  {made} request(s)  {kind}")


if __name__ == "__main__":
    main()
