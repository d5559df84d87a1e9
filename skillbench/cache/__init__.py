"""skillbench's own on-disk cache of model responses (litellm's cache is not used)."""

from skillbench.cache._key import CACHE_VERSION, cache_key, canonical_json
from skillbench.cache._store import (
    EMBEDDINGS_DIR,
    RESPONSES_DIR,
    CacheStats,
    ResponseCache,
    default_cache_root,
    dir_size,
)

__all__ = [
    "CACHE_VERSION",
    "EMBEDDINGS_DIR",
    "RESPONSES_DIR",
    "CacheStats",
    "ResponseCache",
    "cache_key",
    "canonical_json",
    "default_cache_root",
    "dir_size",
]
