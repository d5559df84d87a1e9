"""The on-disk embedding store shared by concurrent runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from skillbench.selectors import VectorStore

WRITER = """
import sys
from pathlib import Path
import numpy as np
from skillbench.selectors import VectorStore
store = VectorStore(Path(sys.argv[1]), "test-model")
start = int(sys.argv[2])
for i in range(start, start + 300, 10):
    store.put({f"k{j}": np.full(4, j, dtype=np.float32) for j in range(i, i + 10)})
"""


def test_two_processes_write_the_same_store(tmp_path: Path) -> None:
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), str(start)])
        for start in (0, 150)
    ]
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    found = VectorStore(tmp_path, "test-model").get([f"k{j}" for j in range(450)])
    assert len(found) == 450
    assert all(np.array_equal(v, np.full(4, int(k[1:]))) for k, v in found.items())
    assert "test-model" in (tmp_path / "model.json").read_text()
