"""What a store write step refuses, and the one wording of each refusal.

The errors a transaction raises for bad input (text that is not UTF-8, a lone surrogate, a file
over the write cap) and the write cap's check, which writers that build text from a model's
input (a replace-all edit, a draft) run before they build it. Re-exported by
memdir_nb.storage.transaction, where callers have always found them.
"""

from __future__ import annotations

import errno

from memdir_nb.spec import constants


class TransactionError(RuntimeError):
    """A transaction was used wrongly (outside its `with` block, or nested)."""


class NotUTF8Error(ValueError):
    """A file a step reads as text is not valid UTF-8: rewriting it would replace those bytes."""

    def __init__(self, rel: str, offset: int) -> None:
        self.rel, self.offset = rel, offset
        super().__init__(
            f"{rel} is not valid UTF-8 text (byte {offset}); rewriting it would replace the bytes "
            "that are not, so nothing was written. Fix: re-save it as UTF-8 (in an editor, or "
            "with `iconv -f LATIN1 -t UTF-8` if it is Latin-1), then retry"
        )


# The fix for a MEMORY.md that is not UTF-8, as lint, doctor and `memdir-nb index` word it:
# NotUTF8Error is why rebuild-index is no fix for it (fresh32: `index` still offered it).
NOT_UTF8_INDEX_FIX = (
    "re-save it as UTF-8 (`iconv -f LATIN1 -t UTF-8` if it is Latin-1); rebuild-index "
    "refuses it, as rewriting it would replace those bytes"
)


def require_utf8(rel: str, data: bytes) -> str:
    """data as UTF-8 text, or NotUTF8Error naming rel and the first bad byte: the one check of
    every step that rewrites a file from its text (a store edit, a rebuild, a dream's apply),
    since text read with its bad bytes replaced and written back loses what a person wrote."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotUTF8Error(rel, exc.start) from exc


class ChangedMeanwhileError(ValueError):
    """A file changed between the read an edit was made from and its write; nothing written."""

    def __init__(self, rel: str) -> None:
        self.rel = rel
        super().__init__(
            f"{rel} was changed by another program (Claude Code, an editor) while this step "
            "was changing it, so the step wrote nothing and that change was kept; retry, from "
            "what the file holds now"
        )


class StillBeingWrittenError(ChangedMeanwhileError):
    """A file a step would rewrite changed across every read while the step waited for it to stand
    still (an editor saving in place, storage.step_reads); nothing written."""

    def __init__(self, rel: str) -> None:
        ValueError.__init__(
            self,
            f"{rel} was being written by another program (an editor saving in place) for as long "
            "as this step waited for it to stand still, so the step wrote nothing rather than "
            "rewrite half of it; retry once it is saved",
        )
        self.rel = rel


def appeared_meanwhile(src: str, dst: str, done: str) -> FileExistsError:
    """A move's or copy's new name `dst` that another program made after the step checked it was
    free: that file is kept as it is, and the step (done: "moved", "copied") did nothing."""
    return FileExistsError(
        errno.EEXIST,
        f"{dst} appeared while {src} was being {done} there (another program made it); both "
        f"were kept as they are and nothing was {done}",
    )


class NotTextError(ValueError):
    """Text handed to a write holds what UTF-8 cannot encode (a lone surrogate); nothing written."""


class TooLargeToWriteError(ValueError):
    """A write over the store's size cap for one file; nothing written."""


def write_size_problem(
    rel: str, size: int, max_bytes: int = constants.STORE_WRITE_MAX_BYTES
) -> str | None:
    """Why a file of `size` bytes is not written at rel (over max_bytes), else None.

    The one wording of the cap, for writers that check a size before they build the text
    (a replace-all edit, a draft) as well as for the write itself.
    """
    if size <= max_bytes:
        return None
    return (
        f"{rel} would be {size:,} bytes, over the {max_bytes:,}-byte limit of one memory file "
        "(too large to check for secrets or to read back to edit), so nothing was written; keep "
        "memories short: split it into topic files"
    )


def _utf8_size(text: str) -> int:
    """Bytes text takes as UTF-8 (a lone surrogate counted, not raised: the write names it)."""
    return len(text.encode("utf-8", "surrogatepass"))


def edit_size_problem(rel: str, text: str, old: str, new: str, times: int) -> str | None:
    """write_size_problem for `text` with `old` replaced `times` times by `new`, before it is built.

    A replace-all grows with count x len(new): a model's Edit of a 200 KB file with a 500-character
    new_string is 100 MB. Every route that applies a model's Edit (the extraction runner, the
    Claude dream's plan recorder) asks this first.
    """
    size = _utf8_size(text) + times * (_utf8_size(new) - _utf8_size(old))
    return write_size_problem(rel, size)
