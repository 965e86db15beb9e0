"""Recall: choosing the memories that help with a query and injecting them into a turn."""

from memdir_nb.recall.anthropic_selector import AnthropicSelector
from memdir_nb.recall.base import RecallCancelled, RelevantMemory, Selector
from memdir_nb.recall.find import find_relevant_memories, recall_memories
from memdir_nb.recall.lexical import LexicalOptions, LexicalSelector
from memdir_nb.recall.prefetch import MemoryPrefetch, start_relevant_memory_prefetch
from memdir_nb.recall.request import RecallRequest
from memdir_nb.recall.selectors import SelectorConfigError, default_selector, make_selector
from memdir_nb.recall.semantic import SemanticFallbackWarning, SemanticSelector, VectorCacheWarning
from memdir_nb.recall.session import (
    InjectedMemory,
    RecallSession,
    render_recall,
)
from memdir_nb.spec.constants import (
    MAX_RELEVANT_MEMORIES,
    MAX_SESSION_BYTES,
    RECALL_MAX_BYTES,
    RECALL_MAX_LINES,
)

__all__ = [
    "MAX_RELEVANT_MEMORIES",
    "MAX_SESSION_BYTES",
    "RECALL_MAX_BYTES",
    "RECALL_MAX_LINES",
    "AnthropicSelector",
    "InjectedMemory",
    "LexicalOptions",
    "LexicalSelector",
    "MemoryPrefetch",
    "RecallCancelled",
    "RecallRequest",
    "RecallSession",
    "RelevantMemory",
    "Selector",
    "SelectorConfigError",
    "SemanticFallbackWarning",
    "SemanticSelector",
    "VectorCacheWarning",
    "default_selector",
    "find_relevant_memories",
    "make_selector",
    "recall_memories",
    "render_recall",
    "start_relevant_memory_prefetch",
]
