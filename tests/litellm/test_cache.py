"""The response cache: stable keys, atomic entries, prune/clear and the ``cache`` command."""

from __future__ import annotations

import hashlib
import os
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest

from skillbench.cache import ResponseCache, cache_key, default_cache_root
from skillbench.cli import main

BASE = {
    "model": "openai/m",
    "api_base": "http://h/v1",
    "messages": [{"role": "user", "content": "hi"}],
    "tools": [{"type": "function", "function": {"name": "Skill"}}],
    "tool_choice": "auto",
    "params": {"temperature": 0.5, "max_tokens": 10},
    "repeat": 0,
}


def test_key_is_stable_and_covers_every_field() -> None:
    key = cache_key(**BASE)
    assert key == cache_key(**{**BASE, "params": {"max_tokens": 10, "temperature": 0.5}})
    for field, other in [
        ("model", "openai/n"),
        ("api_base", None),
        ("messages", [{"role": "user", "content": "ho"}]),
        ("tools", []),
        ("tool_choice", "required"),
        ("params", {"temperature": 0.7, "max_tokens": 10}),
        ("repeat", 1),
    ]:
        assert cache_key(**{**BASE, field: other}) != key, field


def test_key_is_the_sha256_of_the_canonical_request() -> None:
    """Keys never change: existing caches stay valid (the material, by hand: sorted keys,
    no whitespace, the cache version as ``v``)."""
    material = (
        '{"api_base":"http://h/v1","messages":[{"content":"hi","role":"user"}],'
        '"model":"openai/m","params":{"max_tokens":10,"temperature":0.5},"repeat":0,'
        '"tool_choice":"auto","tools":[{"function":{"name":"Skill"},"type":"function"}],"v":1}'
    )
    key = cache_key(**BASE)
    assert key == hashlib.sha256(material.encode("utf-8")).hexdigest()
    assert key == "2a8c7c682b0ce21399cd8701bbd74b8c0dd473e705b8456ecb8665c437fac944"


def test_put_get_and_concurrent_writers(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    key = cache_key(**BASE)
    assert cache.get(key) is None and key not in cache
    entry = {"response": {"choices": []}, "usage": {"prompt_tokens": 3}}
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda _: cache.put(key, entry), range(32)))
    assert cache.get(key)["usage"] == {"prompt_tokens": 3}
    assert [p.name for p in (tmp_path / "responses").rglob("*") if p.is_file()] == [f"{key}.json"]


def test_prune_removes_unused_entries_and_clear_removes_all(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path)
    old, new = cache_key(**BASE), cache_key(**{**BASE, "repeat": 1})
    cache.put(old, {"response": {}})
    cache.put(new, {"response": {}})
    past = time.time() - 3 * 86400
    os.utime(cache._path(old), (past, past))
    assert cache.prune(timedelta(days=1)) == 1
    assert cache.get(old) is None and cache.get(new) is not None
    assert cache.stats().entries == 1
    assert cache.clear() == 1 and cache.stats().entries == 0


def test_default_root_is_local_unless_the_env_says_otherwise(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("SKILLBENCH_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    assert default_cache_root() == tmp_path / ".skillbench-cache"
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert default_cache_root() == tmp_path / "elsewhere"


def test_cache_command_lists_prunes_and_clears(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = ResponseCache(tmp_path)
    cache.put(cache_key(**BASE), {"response": {}})
    (tmp_path / "embeddings" / "m").mkdir(parents=True)
    (tmp_path / "embeddings" / "m" / "vectors.sqlite").write_bytes(b"x" * 2048)
    root = ["--cache-dir", str(tmp_path)]
    assert main(["cache", "list", *root]) == 0
    out = capsys.readouterr().out
    assert "1 entries" in out and "2.0 KB" in out
    assert main(["cache", "prune", "--older-than", "1d", *root]) == 0
    assert "removed 0" in capsys.readouterr().out
    assert main(["cache", "prune", *root]) == 1
    assert "--older-than" in capsys.readouterr().err
    assert main(["cache", "clear", "--all", *root]) == 0
    assert "removed 1 responses" in capsys.readouterr().out
    assert cache.stats().entries == 0 and not (tmp_path / "embeddings").exists()
