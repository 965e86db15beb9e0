"""RestoreError, the one refusal of every restore (a batch, one file of one, a forgotten memory)."""

from __future__ import annotations


class RestoreError(ValueError):
    """A dream cannot be restored as asked; nothing was changed."""
