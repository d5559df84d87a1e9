"""Shared fixtures: paths to the third-party data beside the repo and offline settings."""

from __future__ import annotations

import os
import signal
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Runs in tests write their caches here, never into the working tree.
os.environ.setdefault("SKILLBENCH_CACHE_DIR", tempfile.mkdtemp(prefix="skillbench-test-cache-"))

# Tests send Ctrl-C to child processes. A shell that starts this suite in the background
# (`pytest &`) sets SIGINT to ignored, an ignored signal stays ignored across exec, and Python
# then never raises KeyboardInterrupt in a child: give the children a SIGINT they can see.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Gate every ``agents``-marked test on its CLI before its fixtures run (see
    ``tests/support/agents.py``)."""
    from tests.support.agents import marked_agents, require_agent

    for name in marked_agents(item) or ():
        agent, _, version = name.partition("@")
        require_agent(agent, version or None)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``: real catalogs and the MetaTool dev split, laid beside the clone."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data not found at {SHARED_DATA}")
    return SHARED_DATA
