"""team_paths: the key sanitizer, realpath_deepest_existing, and the two-pass validators."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from memdir_nb.storage.containment import (
    MAX_SYMLINKS_FOLLOWED,
    PathTraversalError,
    is_real_path_within,
    real_path,
    realpath_deepest_existing,
    sanitize_path_key,
    validate_memory_write_path,
    validate_team_mem_key,
    validate_team_mem_write_path,
)
from tests.support import AttackTree, link_chain

LEGIT_KEYS = [
    "notes.md",
    "notas/übersicht.md",
    "日本語.md",
    "my notes.md",
    "100% done.md",
    "%zz.md",
    "50%off.md",
    "%41.md",
    "notes/%20leading-space.md",
    "a/b/c.md",
    "x/y/z/w/v/deep.md",
    "v1.2.3.md",
    "notes..md",
    "a..b/c...d.md",
    ".hidden.md",
    "emoji 🚀.md",
    "cafe\u0301.md",  # NFD: normalises, but introduces nothing dangerous
    "\ufb01le.md",  # 'fi' ligature
    "\uff11\uff12\uff13.md",  # fullwidth digits
    "UPPER.MD",
    "a b/c d.md",
    "file-name_with-dashes.md",
    "new_folder/deeper/x.md",
    "existing.md",
    "link_inside/x.md",  # symlink that stays inside team/
    "link_inside_abs/y.md",  # absolute symlink that stays inside team/
    "sub/z.md",
    "~/not-home.md",  # no tilde expansion: this is a folder literally named '~'
]


# --------------------------------------------------------------------------------------------
# PathTraversalError
# --------------------------------------------------------------------------------------------


def test_path_traversal_error_is_a_value_error_with_a_rule() -> None:
    err = PathTraversalError("null-byte", "Null byte in key")
    assert isinstance(err, ValueError)
    assert err.rule == "null-byte"
    assert str(err) == "Null byte in key"


def test_every_refusal_message_names_the_key_and_a_fix() -> None:
    with pytest.raises(PathTraversalError) as info:
        sanitize_path_key("a\\b.md")
    assert "'a\\\\b.md'" in str(info.value) and "use '/'" in str(info.value)


def test_non_string_key_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="must be a str"):
        sanitize_path_key(b"x.md")  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Legitimate keys pass, and their paths stay inside team/
# --------------------------------------------------------------------------------------------


def test_at_least_twenty_legitimate_keys_are_listed() -> None:
    assert len(LEGIT_KEYS) >= 20


@pytest.mark.parametrize("key", LEGIT_KEYS)
def test_legitimate_key_passes_and_lands_inside_team(key: str, attack_tree: AttackTree) -> None:
    assert sanitize_path_key(key) == key
    path = validate_team_mem_key(key, attack_tree.team)
    assert path == os.path.join(str(attack_tree.team), key.rstrip("/"))
    assert is_real_path_within(os.path.realpath(path), os.path.realpath(attack_tree.team))


def test_legitimate_key_can_then_be_written(tmp_path: Path) -> None:
    team = tmp_path / "memory" / "team"
    path = Path(validate_team_mem_key("notas/übersicht.md", team))
    path.parent.mkdir(parents=True)
    path.write_text("ok\n")
    assert (team / "notas" / "übersicht.md").read_text() == "ok\n"


def test_team_dir_that_does_not_exist_yet_is_fine(tmp_path: Path) -> None:
    team = tmp_path / "memory" / "team"
    assert validate_team_mem_key("first.md", team) == str(team / "first.md")


def test_team_dir_given_with_trailing_separator(tmp_path: Path) -> None:
    team = tmp_path / "team"
    team.mkdir()
    assert validate_team_mem_key("a.md", str(team) + os.sep) == str(team / "a.md")


# --------------------------------------------------------------------------------------------
# Pass 1: separator-aware containment
# --------------------------------------------------------------------------------------------


def test_is_real_path_within_requires_the_separator() -> None:
    assert is_real_path_within("/m/team/x.md", "/m/team")
    assert is_real_path_within("/m/team/x.md", "/m/team/")
    assert not is_real_path_within("/m/team-evil/x.md", "/m/team")
    assert not is_real_path_within("/m/teamx", "/m/team")
    assert not is_real_path_within("/m/team", "/m/team")
    assert not is_real_path_within("/m/team/", "/m/team")
    assert is_real_path_within("/etc", "/")


def test_prefix_sibling_is_outside_on_pass_one(attack_tree: AttackTree) -> None:
    with pytest.raises(PathTraversalError) as info:
        validate_team_mem_write_path(str(attack_tree.team_evil / "x.md"), attack_tree.team)
    assert info.value.rule == "escapes-dir"
    assert "team-evil" in str(info.value)


def test_relative_write_path_is_taken_relative_to_the_dir(attack_tree: AttackTree) -> None:
    assert validate_team_mem_write_path("x/y.md", attack_tree.team) == str(
        attack_tree.team / "x" / "y.md"
    )


def test_dotdot_that_stays_inside_is_allowed_for_write_paths(attack_tree: AttackTree) -> None:
    path = validate_team_mem_write_path(f"{attack_tree.team}/sub/../ok.md", attack_tree.team)
    assert path == str(attack_tree.team / "ok.md")


def test_empty_dir_argument_is_refused(attack_tree: AttackTree) -> None:
    with pytest.raises(ValueError, match="empty"):
        validate_team_mem_write_path("x.md", "")


# --------------------------------------------------------------------------------------------
# realpath_deepest_existing: each errno branch
# --------------------------------------------------------------------------------------------


def test_realpath_of_existing_path_is_plain_realpath(attack_tree: AttackTree) -> None:
    assert realpath_deepest_existing(attack_tree.team / "link_inside") == str(
        attack_tree.team / "inner_dir"
    )


def test_realpath_rejoins_missing_tail_on_real_ancestor(attack_tree: AttackTree) -> None:
    got = realpath_deepest_existing(attack_tree.team / "link_outside_abs" / "a" / "b.md")
    assert got == str(attack_tree.outside / "a" / "b.md")


def test_realpath_tells_dangling_symlink_from_missing_file(attack_tree: AttackTree) -> None:
    assert realpath_deepest_existing(attack_tree.team / "missing.md") == str(
        attack_tree.team / "missing.md"
    )
    with pytest.raises(PathTraversalError) as info:
        realpath_deepest_existing(attack_tree.team / "dangling")
    assert info.value.rule == "dangling-symlink"


def test_realpath_rejects_symlink_loop(attack_tree: AttackTree) -> None:
    with pytest.raises(PathTraversalError) as info:
        realpath_deepest_existing(attack_tree.team / "loop_a" / "x")
    assert info.value.rule == "symlink-loop"


def test_realpath_walks_past_enotdir(attack_tree: AttackTree) -> None:
    # existing.md is a regular file, so existing.md/child fails with ENOTDIR: walk up.
    got = realpath_deepest_existing(attack_tree.team / "existing.md" / "child.md")
    assert got == str(attack_tree.team / "existing.md" / "child.md")


def test_file_used_as_folder_is_not_a_traversal(attack_tree: AttackTree) -> None:
    path = validate_team_mem_key("existing.md/child.md", attack_tree.team)
    assert path == str(attack_tree.team / "existing.md" / "child.md")


def test_realpath_walks_past_enametoolong(attack_tree: AttackTree) -> None:
    long_name = "n" * 300
    got = realpath_deepest_existing(attack_tree.team / "link_inside" / long_name / "x.md")
    assert got == str(attack_tree.team / "inner_dir" / long_name / "x.md")


def test_too_long_name_gets_a_clear_error_not_an_oserror(attack_tree: AttackTree) -> None:
    with pytest.raises(PathTraversalError) as info:
        validate_team_mem_key("a" * 256 + ".md", attack_tree.team)
    assert info.value.rule == "too-long"
    assert "255" in str(info.value)


def test_name_of_exactly_255_bytes_is_allowed(attack_tree: AttackTree) -> None:
    key = "b" * 252 + ".md"
    assert validate_team_mem_key(key, attack_tree.team).endswith(key)


# --------------------------------------------------------------------------------------------
# Fail closed on EACCES: checked as an unprivileged user, since root ignores permissions
# --------------------------------------------------------------------------------------------

_DROP_AND_VALIDATE = r"""
import json, os, sys
from memdir_nb.storage.containment import PathTraversalError, validate_team_mem_key
team, uid = sys.argv[1], int(sys.argv[2])
if uid >= 0:
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
out = {}
for key in ("locked/x.md", "open/x.md"):
    try:
        out[key] = ["ok", validate_team_mem_key(key, team)]
    except PathTraversalError as exc:
        out[key] = [exc.rule, str(exc)]
print(json.dumps(out))
"""


def test_unsearchable_folder_fails_closed_with_cannot_verify() -> None:
    # Drop to nobody when root; an unprivileged run is already bitten by permissions.
    drop_to = 65534 if os.geteuid() == 0 else -1
    # A world-searchable base outside pytest's 0700 tmp tree, so only 'locked' is unreachable.
    base = Path(tempfile.mkdtemp(prefix="memdir-eacces-", dir="/tmp"))
    try:
        base.chmod(0o755)
        team = base / "team"
        (team / "locked").mkdir(parents=True)
        (team / "open").mkdir()
        team.chmod(0o755)
        (team / "open").chmod(0o777)
        (team / "locked").chmod(0o000)
        proc = subprocess.run(
            [sys.executable, "-c", _DROP_AND_VALIDATE, str(team), str(drop_to)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        result = json.loads(proc.stdout)
    finally:
        (base / "team" / "locked").chmod(0o755)
        shutil.rmtree(base)
    assert result["open/x.md"][0] == "ok"
    assert result["locked/x.md"][0] == "cannot-verify", result
    assert "EACCES" in result["locked/x.md"][1]


# --------------------------------------------------------------------------------------------
# Private scope
# --------------------------------------------------------------------------------------------


def test_private_write_inside_memory_dir_passes(attack_tree: AttackTree) -> None:
    assert validate_memory_write_path("user_role.md", attack_tree.memory) == str(
        attack_tree.memory / "user_role.md"
    )
    assert validate_memory_write_path(str(attack_tree.team / "a.md"), attack_tree.memory) == str(
        attack_tree.team / "a.md"
    )


def test_private_write_through_team_symlink_out_is_refused(attack_tree: AttackTree) -> None:
    with pytest.raises(PathTraversalError) as info:
        validate_memory_write_path("team/link_etc/passwd", attack_tree.memory)
    assert info.value.rule == "symlink-escape"


def test_private_write_with_dotdot_out_is_refused(attack_tree: AttackTree) -> None:
    with pytest.raises(PathTraversalError) as info:
        validate_memory_write_path("../outside/x.md", attack_tree.memory)
    assert info.value.rule == "escapes-dir"
    assert "memory folder" in str(info.value)


# --------------------------------------------------------------------------------------------
# Property: any key either raises PathTraversalError or lands inside the real team dir
# --------------------------------------------------------------------------------------------

_TOKENS = [
    ".",
    "..",
    "/",
    "%",
    "\\",
    "\x00",
    "2",
    "e",
    "E",
    "f",
    "F",
    "5",
    "c",
    "0",
    "a",
    "x",
    " ",
    "ü",
    "%2e",
    "%2E",
    "%2f",
    "%5c",
    "%25",
    "%00",
    "%c0%ae",
    "\uff0e",
    "\uff0f",
    "\uff3c",
    "\uff05",
    "\u2024",
    "\u2025",
    "\ufe52",
    ".md",
    "link_root",
    "link_sibling",
    "link_inside",
    "sub",
    "up",
    "dangling",
    "loop_a",
    "existing.md",
    "C:",
]


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(st.sampled_from(_TOKENS), min_size=0, max_size=12).map("".join))
def test_any_key_is_refused_or_lands_inside_real_team_dir(
    attack_tree: AttackTree, key: str
) -> None:
    try:
        path = validate_team_mem_key(key, attack_tree.team)
    except PathTraversalError as exc:
        assert exc.rule
        return
    assert is_real_path_within(os.path.realpath(path), os.path.realpath(attack_tree.team)), (
        key,
        path,
    )
    assert is_real_path_within(path, str(attack_tree.team))


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(min_size=0, max_size=40))
def test_arbitrary_text_key_never_raises_anything_else(attack_tree: AttackTree, key: str) -> None:
    try:
        path = validate_team_mem_key(key, attack_tree.team)
    except PathTraversalError:
        return
    assert is_real_path_within(os.path.realpath(path), os.path.realpath(attack_tree.team)), (
        key,
        path,
    )


def test_real_path_follows_no_more_links_than_the_kernel(tmp_path: Path) -> None:
    # Python 3.11's os.path.realpath recursed once per link of a chain: 1,100 links (a cloned
    # repository, a synced team dir) raised RecursionError out of lint, the memory tool, doctor
    (tmp_path / "real.md").write_text("x", encoding="utf-8")
    first = link_chain(tmp_path / "long", 1100, "../real.md")
    with pytest.raises(OSError) as caught:
        real_path(first, strict=True)
    assert caught.value.errno == errno.ELOOP
    with pytest.raises(OSError) as kernel:  # the kernel's own answer to the same path
        os.stat(first)
    assert kernel.value.errno == errno.ELOOP
    assert real_path(first / "x.md") != str(tmp_path / "real.md" / "x.md")  # not followed
    # as many links as the kernel follows: the same answer as os.path.realpath
    short = link_chain(tmp_path / "short", MAX_SYMLINKS_FOLLOWED, "../real.md")
    assert real_path(short, strict=True) == os.path.realpath(short) == str(tmp_path / "real.md")
    assert os.stat(short).st_ino == (tmp_path / "real.md").stat().st_ino


def test_a_long_link_chain_is_refused_as_a_chain_naming_the_limit_and_a_loop_as_a_loop(
    tmp_path: Path,
) -> None:
    # both are ELOOP to the kernel; the refusal said "Symlink loop (or a chain of more than 40
    # links)" of either, so a user with a long chain looked for a loop that is not there
    mem = tmp_path / "mem"
    mem.mkdir()
    (mem / "real.md").write_text("x", encoding="utf-8")
    link_chain(mem / ".links", 1100, "../real.md")
    os.symlink(".links/c0", mem / "x.md")
    os.symlink("pong.md", mem / "ping.md")
    os.symlink("ping.md", mem / "pong.md")
    with pytest.raises(PathTraversalError) as chain:
        validate_memory_write_path("x.md", mem)
    with pytest.raises(PathTraversalError) as loop:
        validate_memory_write_path("ping.md", mem)
    assert chain.value.rule == loop.value.rule == "symlink-loop"  # the rule programs match on
    assert str(chain.value).startswith(
        f"Chain of more than {MAX_SYMLINKS_FOLLOWED} symlinks (the most the kernel follows; "
        "not a loop) at "
    )
    assert str(chain.value).endswith("; point the first link at the file itself.")
    assert str(loop.value).startswith("Symlink loop at ")
    assert str(loop.value).endswith("; remove the looping link.")
    assert "more than" not in str(loop.value)


_NAMES = ("a", "b", "c", "d")
_PARTS = (*_NAMES, *(f"l{n}" for n in _NAMES), "..", ".", "x.md")  # lX: a link, if one is there
_LINK_TARGETS = st.lists(st.sampled_from(_PARTS), min_size=1, max_size=4).map("/".join)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    links=st.lists(
        st.tuples(st.sampled_from(_NAMES), st.sampled_from(_NAMES), _LINK_TARGETS, st.booleans()),
        max_size=8,
    ),
    query=st.lists(st.sampled_from(_PARTS), min_size=1, max_size=6),
)
@example(links=[("a", "a", "../b", False)], query=["a", "la", "..", "a", "la"])  # a link twice
@example(links=[("a", "a", "lb", False), ("a", "b", "la", False)], query=["a", "la", "x.md"])
def test_real_path_answers_as_os_realpath_within_the_kernels_link_bound(
    tmp_path_factory: pytest.TempPathFactory,
    links: list[tuple[str, str, str, bool]],
    query: list[str],
) -> None:
    # real_path is the package's one resolver (every containment check goes through it); below
    # the 40-link bound it must give os.path.realpath's answer: relative and absolute targets,
    # '..' after a link, loops, dangling links and a missing tail, strict or not
    root = tmp_path_factory.mktemp("tree")
    for folder in _NAMES:
        (root / folder).mkdir()
    (root / "a" / "x.md").write_text("x", encoding="utf-8")
    for folder, name, target, absolute in links:
        link = root / folder / f"l{name}"
        if not os.path.lexists(link):
            os.symlink(f"{root}/{target}" if absolute else target, link)
    path = os.path.join(root, *query)
    assert real_path(path) == os.path.realpath(path)
    try:
        expected: str | int = os.path.realpath(path, strict=True)
    except OSError as exc:
        expected = exc.errno or 0
    try:
        got: str | int = real_path(path, strict=True)
    except OSError as exc:
        got = exc.errno or 0
    assert got == expected
