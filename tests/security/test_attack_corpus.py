"""Attack corpus for team memory writes: every vector must be refused for the right reason.

Each case names the key (relative to team/) or the path, and the `.rule` that must fire.
The tree they run against (real symlinks, a prefix-sharing sibling, loops, dangling links)
is built in conftest.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memdir_nb.storage.containment import (
    PathTraversalError,
    sanitize_path_key,
    validate_memory_write_path,
    validate_team_mem_key,
    validate_team_mem_write_path,
)
from tests.support import AttackTree

# (id, key, rule) — keys refused by text alone, before the filesystem is consulted.
TEXT_VECTORS = [
    # the spec's vectors
    ("spec-dotdot-passwd", "../../../etc/passwd", "parent-segment"),
    ("spec-null-byte", "foo\x00/etc/passwd", "null-byte"),
    ("spec-url-encoded", "foo%2e%2e%2fetc%2fpasswd", "url-encoded-traversal"),
    ("spec-fullwidth", "foo\uff0e\uff0e\uff0fbar", "unicode-traversal"),
    ("spec-backslash", "dir\\..\\..\\etc\\passwd", "backslash"),
    ("spec-absolute", "/etc/passwd", "absolute"),
    # plain traversal and odd shapes
    ("bare-dotdot", "..", "parent-segment"),
    ("inner-dotdot", "notes/../../x.md", "parent-segment"),
    ("trailing-dotdot", "notes/..", "parent-segment"),
    ("empty", "", "empty"),
    ("dot", ".", "not-a-file"),
    ("trailing-slash", "notes/", "not-a-file"),
    ("dot-tail", "a/./.", "not-a-file"),
    ("null-in-extension", "foo.md\x00.txt", "null-byte"),
    ("lone-surrogates", "\udcc0\udcae.md", "invalid-unicode"),
    # percent-encoding: single, mixed case, doubled, tripled, partial, encoded separators
    ("encoded-null", "%00.md", "null-byte"),
    ("encoded-dotdot-slash", "%2e%2e%2f", "url-encoded-traversal"),
    ("encoded-mixed-case", "%2E%2e/x.md", "url-encoded-traversal"),
    ("encoded-upper", "%2E%2E%2F%2E%2E%2Fetc", "url-encoded-traversal"),
    ("encoded-half", "..%2fetc", "url-encoded-traversal"),
    ("encoded-slash-only", "%2fetc%2fpasswd", "url-encoded-traversal"),
    ("encoded-backslash", "a%5cb.md", "url-encoded-traversal"),
    ("encoded-backslash-dotdot", "..%5c..%5cwindows", "url-encoded-traversal"),
    ("double-encoded", "%252e%252e%252f", "url-encoded-traversal"),
    ("double-encoded-upper", "%252E%252E%252Fetc", "url-encoded-traversal"),
    ("triple-encoded", "%25252e%25252e%25252fx", "url-encoded-traversal"),
    ("double-encoded-null", "x%2500.md", "null-byte"),
    ("overlong-2byte-dot", "%c0%ae%c0%ae/x.md", "url-encoded-traversal"),
    ("overlong-2byte-slash", "a%c0%afb.md", "url-encoded-traversal"),
    ("overlong-3byte", "%e0%80%ae%e0%80%ae%e0%80%afx", "url-encoded-traversal"),
    # Unicode forms NFKC folds into '.', '/', '\'
    ("fullwidth-chain", "\uff0e\uff0e\uff0f\uff0e\uff0e\uff0fetc", "unicode-traversal"),
    ("fullwidth-dots-only", "\uff0e\uff0e", "unicode-traversal"),
    ("fullwidth-solidus", "a\uff0fb.md", "unicode-traversal"),
    ("fullwidth-reverse-solidus", "a\uff3cb.md", "unicode-traversal"),
    ("one-dot-leader", "\u2024\u2024/x.md", "unicode-traversal"),
    ("two-dot-leader", "\u2025/etc", "unicode-traversal"),
    ("small-full-stop", "\ufe52\ufe52/x.md", "unicode-traversal"),
    ("mixed-fullwidth-ascii-dot", "\uff0e./x.md", "unicode-traversal"),
    # both layers at once
    (
        "fullwidth-percent",
        "\uff05\uff12\uff45\uff05\uff12\uff45\uff05\uff12\uff46x",
        "mixed-encoding-traversal",
    ),
    ("encoded-fullwidth", "%EF%BC%8E%EF%BC%8E%EF%BC%8Fx", "mixed-encoding-traversal"),
    ("encoded-two-dot-leader", "%E2%80%A5/x", "mixed-encoding-traversal"),
    # other separators and absolute forms
    ("backslash-plain", "a\\b.md", "backslash"),
    ("unc-like", "//server/share/x.md", "absolute"),
    ("drive-letter", "C:/Windows/x.md", "absolute"),
    ("drive-backslash", "C:\\x.md", "backslash"),
]

# (id, key, rule) — keys that are fine as text but lead outside team/ on this filesystem.
FS_VECTORS = [
    ("symlink-to-root", "link_root/etc/passwd", "symlink-escape"),
    ("symlink-to-root-new-file", "link_root/tmp/evil.md", "symlink-escape"),
    ("symlink-to-etc", "link_etc/cron.d/evil", "symlink-escape"),
    ("symlink-to-sibling-prefix", "link_sibling/x.md", "symlink-escape"),
    ("symlink-to-private-file", "link_private", "symlink-escape"),
    ("symlink-outside-abs", "link_outside_abs/new.md", "symlink-escape"),
    ("symlink-outside-file", "link_outside_file", "symlink-escape"),
    ("symlinked-parent-up", "sub/up/x.md", "symlink-escape"),
    ("symlinked-parent-missing-tail", "link_sibling/deeper/still/new.md", "symlink-escape"),
    ("too-long-behind-escape", "link_root/" + "a" * 300, "symlink-escape"),
    ("dangling-outside", "dangling", "dangling-symlink"),
    ("dangling-as-parent", "dangling/x.md", "dangling-symlink"),
    ("dangling-even-if-inside", "dangling_inside", "dangling-symlink"),
    ("loop", "loop_a", "symlink-loop"),
    ("loop-as-parent", "loop_a/x.md", "symlink-loop"),
    ("self-loop", "self/x.md", "symlink-loop"),
    ("name-too-long", "x" * 300 + ".md", "too-long"),
    ("path-too-long", "/".join(["d" * 200] * 25) + "/x.md", "too-long"),
]


@pytest.mark.parametrize(
    ("key", "rule"), [v[1:] for v in TEXT_VECTORS], ids=[v[0] for v in TEXT_VECTORS]
)
def test_text_vector_is_refused_by_sanitize_with_its_rule(key: str, rule: str) -> None:
    with pytest.raises(PathTraversalError) as info:
        sanitize_path_key(key)
    assert info.value.rule == rule, str(info.value)


@pytest.mark.parametrize(
    ("key", "rule"), [v[1:] for v in TEXT_VECTORS], ids=[v[0] for v in TEXT_VECTORS]
)
def test_text_vector_is_refused_by_validate_team_mem_key(
    key: str, rule: str, attack_tree: AttackTree
) -> None:
    with pytest.raises(PathTraversalError) as info:
        validate_team_mem_key(key, attack_tree.team)
    assert info.value.rule == rule, str(info.value)


@pytest.mark.parametrize(
    ("key", "rule"), [v[1:] for v in FS_VECTORS], ids=[v[0] for v in FS_VECTORS]
)
def test_filesystem_vector_is_refused_with_its_rule(
    key: str, rule: str, attack_tree: AttackTree
) -> None:
    assert (
        sanitize_path_key(key) == key
    )  # the text is innocent: only the filesystem check can stop it
    with pytest.raises(PathTraversalError) as info:
        validate_team_mem_key(key, attack_tree.team)
    assert info.value.rule == rule, str(info.value)


def test_corpus_has_at_least_forty_vectors() -> None:
    assert len(TEXT_VECTORS) + len(FS_VECTORS) >= 40
    assert len({v[0] for v in TEXT_VECTORS + FS_VECTORS}) == len(TEXT_VECTORS) + len(FS_VECTORS)


# Absolute write paths (the store's other entry point), checked by pass 1 or pass 2.
def _write_path_vectors(tree: AttackTree) -> list[tuple[str, str, str]]:
    team = str(tree.team)
    return [
        ("prefix-sibling", f"{team}-evil/x.md", "escapes-dir"),
        ("dotdot-out", f"{team}/../private_secret.md", "escapes-dir"),
        ("dotdot-deep", f"{team}/sub/../../../../etc/passwd", "escapes-dir"),
        ("unrelated-absolute", "/etc/passwd", "escapes-dir"),
        ("team-dir-itself", team, "escapes-dir"),
        ("team-dir-trailing-sep", team + os.sep, "escapes-dir"),
        ("relative-dotdot", "../private_secret.md", "escapes-dir"),
        ("null-byte-path", f"{team}/x\x00.md", "null-byte"),
        ("symlink-in-path", f"{team}/link_root/etc/shadow", "symlink-escape"),
        ("dangling-in-path", f"{team}/dangling", "dangling-symlink"),
        ("loop-in-path", f"{team}/loop_b/x.md", "symlink-loop"),
    ]


def test_write_path_vectors_are_refused_with_their_rule(attack_tree: AttackTree) -> None:
    for name, path, rule in _write_path_vectors(attack_tree):
        with pytest.raises(PathTraversalError) as info:
            validate_team_mem_write_path(path, attack_tree.team)
        assert info.value.rule == rule, f"{name}: {info.value}"


def test_private_scope_refuses_symlink_out_of_memory_dir(attack_tree: AttackTree) -> None:
    with pytest.raises(PathTraversalError) as info:
        validate_memory_write_path("private_link_out/new.md", attack_tree.memory)
    assert info.value.rule == "symlink-escape"
    with pytest.raises(PathTraversalError) as info:
        validate_memory_write_path(str(attack_tree.memory) + "-other/x.md", attack_tree.memory)
    assert info.value.rule == "escapes-dir"


def test_refused_vectors_leave_nothing_on_disk(attack_tree: AttackTree) -> None:
    before = sorted(str(p) for p in attack_tree.root.rglob("*"))
    for _, key, _ in TEXT_VECTORS + FS_VECTORS:
        with pytest.raises(PathTraversalError):
            validate_team_mem_key(key, attack_tree.team)
    assert sorted(str(p) for p in attack_tree.root.rglob("*")) == before


def test_team_dir_reached_through_a_symlink_is_its_target(tmp_path: Path) -> None:
    real_team = tmp_path / "shared" / "team-store"
    real_team.mkdir(parents=True)
    memory = tmp_path / "memory"
    memory.mkdir()
    (memory / "team").symlink_to(real_team)
    (real_team / "escape").symlink_to(tmp_path / "shared")

    path = validate_team_mem_key("notes/x.md", memory / "team")
    assert path == str(memory / "team" / "notes" / "x.md")
    assert os.path.realpath(path) == str(real_team / "notes" / "x.md")

    with pytest.raises(PathTraversalError) as info:
        validate_team_mem_key("escape/x.md", memory / "team")
    assert info.value.rule == "symlink-escape"
