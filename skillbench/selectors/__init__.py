"""Selectors: the models under test (offline baselines, embedding, lexical, hybrid, litellm)
and the retrievers a retrieve stage puts in front of them."""

from skillbench.selectors import _agent, _litellm  # noqa: F401  (register "agent", "litellm")
from skillbench.selectors._agent import AgentParams, AgentSelector
from skillbench.selectors._baselines import NeverSelector, OracleSelector, RandomSelector
from skillbench.selectors._controls import Controllable, ExplicitForm, explicit_request
from skillbench.selectors._embedder import (
    DEFAULT_MODEL,
    Embedder,
    EmbedProgress,
    Vectors,
    VectorStore,
    embedding_progress,
    preload_vectors,
    shared_vectors,
)
from skillbench.selectors._embedding import (
    DEFAULT_EMBEDDING_THRESHOLD,
    EmbeddingSelector,
    similarities,
)
from skillbench.selectors._hybrid import HybridSelector, keyword_hit
from skillbench.selectors._lexical import (
    BM25,
    DEFAULT_LEXICAL_THRESHOLD,
    LexicalSelector,
    bm25_weights,
)
from skillbench.selectors._registry import SELECTORS
from skillbench.selectors._retrievers import (
    RETRIEVERS,
    BM25Retriever,
    EmbeddingRetriever,
    Retriever,
    RetrieverFactory,
    top_k,
)
from skillbench.selectors._text import STOPWORDS, entry_text, skill_text, words
from skillbench.selectors._threshold import (
    AutoThreshold,
    Choice,
    EntryScores,
    ThresholdSelector,
    TopOneSelector,
    best_threshold,
)
from skillbench.selectors._types import (
    Calibratable,
    Calibration,
    Check,
    Checkable,
    Decision,
    DecisionKind,
    Delivery,
    Preparable,
    Probeable,
    Query,
    Selector,
    SelectorEnv,
    SelectorFactory,
    Streaming,
)

__all__ = [
    "BM25",
    "DEFAULT_EMBEDDING_THRESHOLD",
    "DEFAULT_LEXICAL_THRESHOLD",
    "DEFAULT_MODEL",
    "RETRIEVERS",
    "SELECTORS",
    "STOPWORDS",
    "AgentParams",
    "AgentSelector",
    "AutoThreshold",
    "BM25Retriever",
    "Calibratable",
    "Calibration",
    "Check",
    "Checkable",
    "Choice",
    "Controllable",
    "Decision",
    "DecisionKind",
    "Delivery",
    "EmbedProgress",
    "Embedder",
    "EmbeddingRetriever",
    "EmbeddingSelector",
    "EntryScores",
    "ExplicitForm",
    "HybridSelector",
    "LexicalSelector",
    "NeverSelector",
    "OracleSelector",
    "Preparable",
    "Probeable",
    "Query",
    "RandomSelector",
    "Retriever",
    "RetrieverFactory",
    "Selector",
    "SelectorEnv",
    "SelectorFactory",
    "Streaming",
    "ThresholdSelector",
    "TopOneSelector",
    "VectorStore",
    "Vectors",
    "best_threshold",
    "bm25_weights",
    "embedding_progress",
    "entry_text",
    "explicit_request",
    "keyword_hit",
    "preload_vectors",
    "shared_vectors",
    "similarities",
    "skill_text",
    "top_k",
    "words",
]
