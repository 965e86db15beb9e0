"""The secret guard of a store step's write into team memory (storage.transaction's `_guard`).

A team memory is scanned whole (every frontmatter key, decoded too, YAML comments, the body),
with its file name; a team MEMORY.md, for the lines the write adds to it. A payload over the
read cap is refused before it is scanned: too large to check, whatever the caller's cap.
"""

from __future__ import annotations

from memdir_nb.security import secret_scan
from memdir_nb.spec import constants
from memdir_nb.storage.targets import Target
from memdir_nb.storage.write_errors import TooLargeToWriteError, write_size_problem

__all__ = ["guard_team_write"]


def guard_team_write(t: Target, payload: bytes, old_index: bytes | None) -> None:
    """Raise SecretInTeamMemoryError (or TooLargeToWriteError) for a write to team target t.

    old_index: what the team MEMORY.md holds now (None: none), for an index write.
    """
    too_large = write_size_problem(t.rel, len(payload), constants.STORE_READ_MAX_BYTES)
    if too_large is not None:
        raise TooLargeToWriteError(too_large)
    text = payload.decode("utf-8", "replace")
    if t.parts[-1] == constants.ENTRYPOINT_NAME:
        # Lines end only at '\n', as the guard reads them (secret_scan._line_hits):
        # str.splitlines would also cut at U+2028, VT, FF..., splitting
        # `password:<U+2028>value` into two lines the guard then reads apart.
        old = set((old_index or b"").decode("utf-8", "replace").split("\n"))
        added = "\n".join(line for line in text.split("\n") if line not in old)
        findings = secret_scan.scan_for_secrets(
            {"file name": t.rel, f"{t.rel} (added index lines)": added}
        )
    else:
        findings = secret_scan.scan_memory_file(t.rel, text)
    if findings:
        raise secret_scan.SecretInTeamMemoryError(findings)
