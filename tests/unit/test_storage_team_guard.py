"""storage/team_guard: a write into team memory is scanned for secrets; an index, for the lines
it adds (the lines it had were scanned when they were written)."""

from __future__ import annotations

import random
import string
from pathlib import Path

import pytest

from memdir_nb.security.secret_scan import SecretInTeamMemoryError
from memdir_nb.storage.targets import resolve_target
from memdir_nb.storage.team_guard import guard_team_write
from memdir_nb.storage.write_errors import TooLargeToWriteError


def _token() -> str:
    """A GitHub-token-shaped string built at runtime (no literal credential in the repo)."""
    rng = random.Random(3)
    return "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))


def test_a_team_index_line_that_adds_a_token_is_refused(tmp_path: Path) -> None:
    (tmp_path / "team").mkdir()
    t = resolve_target(tmp_path, "team/MEMORY.md")
    with pytest.raises(SecretInTeamMemoryError):
        guard_team_write(t, f"# Team\n- token {_token()}\n".encode(), b"# Team\n")


def test_a_team_memory_is_scanned_whole_and_a_plain_one_passes(tmp_path: Path) -> None:
    (tmp_path / "team").mkdir()
    t = resolve_target(tmp_path, "team/deploys.md")
    head = "---\nname: deploys\ndescription: d\ntype: reference\n---\n"
    guard_team_write(t, (head + "Weekdays only.\n").encode(), None)
    with pytest.raises(SecretInTeamMemoryError):
        guard_team_write(t, (head + f"key {_token()}\n").encode(), None)


def test_a_payload_over_the_read_cap_is_refused_unscanned(tmp_path: Path) -> None:
    (tmp_path / "team").mkdir()
    t = resolve_target(tmp_path, "team/big.md")
    with pytest.raises(TooLargeToWriteError):
        guard_team_write(t, b"x" * (10 * 2**20), None)
