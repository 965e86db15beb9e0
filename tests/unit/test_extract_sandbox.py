"""extract/sandbox: which tool calls the extractor may run."""

from __future__ import annotations

from pathlib import Path

import pytest
from anthropic.lib.tools import ToolError

from memdir_nb import MemdirMemoryTool
from memdir_nb.extract import (
    can_use_tool,
)

# --------------------------------------------------------------------------- sandbox


@pytest.mark.parametrize("tool", ["Read", "Grep", "Glob"])
def test_read_tools_are_allowed_anywhere(memdir: Path, tool: str) -> None:
    verdict = can_use_tool(tool, {"file_path": "/etc/hostname", "pattern": "x"}, memdir)
    assert verdict.allowed and verdict.reason


@pytest.mark.parametrize(
    "command",
    [
        "ls -la",
        "cat MEMORY.md",
        "grep -rn deploy .",
        "find . -name '*.md' -type f",
        "stat MEMORY.md",
        "wc -l MEMORY.md",
        "head -n 20 a.md",
        "tail -5 a.md",
        "tail -n 5 a.md",
        "tail -qn5 a.md",
        "tail -c f a.md",
        "tail --lines f a.md",
        "tail --lines=5 --quiet a.md",
        "tail -- -f",
        "head -f a.md",
        "grep -c x a.md | head -1",
        "ls a && cat b",
        "grep 'a|b' f.md",
        "cat missing || ls",
    ],
)
def test_read_only_bash_commands_are_allowed(memdir: Path, command: str) -> None:
    assert can_use_tool("Bash", {"command": command}, memdir).allowed


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("rm -rf /", "not a read-only command"),
        ("cat a | tee b", "'tee' is not a read-only"),
        ("cat a | sh", "'sh' is not a read-only"),
        ("ls > out.txt", "redirection"),
        ("cat a >> b", "redirection"),
        ("grep x < in", "redirection"),
        ("ls 2>&1", "redirection"),
        ("ls; rm a", "';'"),
        ("ls && rm a", "'rm' is not a read-only"),
        ("cat $(echo /etc/passwd)", "command substitution"),
        ("cat `whoami`", "command substitution"),
        ("find . -delete", "-delete"),
        ("find . -exec rm {} +", "-exec"),
        ("find . -exec rm {} ;", "not allowed"),
        ("find . -execdir rm {} +", "-execdir"),
        ("find . -ok rm {} +", "-ok"),
        ("find . -fprint /tmp/x", "-fprint"),
        ("find . -fprintf /tmp/x %p", "-fprint"),
        ("find . -fls /tmp/x", "-fls"),
        ("tail -f a.md", "tail -f follows the file and never ends"),
        ("tail -F a.md", "tail -F follows"),
        ("tail -qf a.md", "tail -qf follows"),
        ("tail -5f a.md", "tail -5f follows"),
        ("tail +5f a.md", "tail +5f follows"),
        ("tail -n 5 -f a.md", "tail -f follows"),
        ("tail --follow a.md", "tail --follow follows"),
        ("tail --follow=name a.md", "tail --follow=name follows"),
        ("tail --fol a.md", "tail --fol follows"),
        ("ls && tail -f a.md", "(tail -n 20 FILE)"),
        ("ls &", "'&'"),
        ("ls 'unclosed", "cannot parse"),
        ("ls\nrm a", "multi-line"),
        ("cat $HOME/.ssh/id_rsa", "variable expansion"),
        ("/bin/rm a", "not a read-only"),
        ("X=1 ls", "not a read-only"),
        ("(ls)", "operator"),
        ("", "non-empty"),
        ("ls |", "ends with an operator"),
    ],
)
def test_unsafe_bash_is_refused_with_the_reason(memdir: Path, command: str, why: str) -> None:
    verdict = can_use_tool("Bash", {"command": command}, memdir)
    assert not verdict.allowed
    assert why in verdict.reason


def test_write_and_edit_inside_memory_dir_are_allowed(memdir: Path) -> None:
    assert can_use_tool(
        "Write", {"file_path": str(memdir / "user_role.md"), "content": "x"}, memdir
    ).allowed
    assert can_use_tool(
        "Edit",
        {"file_path": str(memdir / "MEMORY.md"), "old_string": "a", "new_string": "b"},
        memdir,
    ).allowed
    assert can_use_tool(
        "Write", {"file_path": str(memdir / "team" / "project_x.md"), "content": "x"}, memdir
    ).allowed


@pytest.mark.parametrize(
    "target",
    [
        "../escape.md",
        "/etc/passwd",
        "{m}/../outside.md",
        "{m}-evil/x.md",
        "{m}",
        "relative.md",
        "{m}/.trash/x.md",
        "{m}/.consolidate-lock",
    ],
)
def test_write_outside_or_to_bookkeeping_files_is_refused(memdir: Path, target: str) -> None:
    path = target.format(m=memdir)
    verdict = can_use_tool("Write", {"file_path": path, "content": "x"}, memdir)
    assert not verdict.allowed, path
    assert "Write" in verdict.reason


def test_write_through_a_symlink_leading_out_is_refused(memdir: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (memdir / "link").symlink_to(outside, target_is_directory=True)
    verdict = can_use_tool(
        "Write", {"file_path": str(memdir / "link" / "x.md"), "content": "x"}, memdir
    )
    assert not verdict.allowed and "symlink" in verdict.reason


def test_team_write_holding_a_secret_is_refused(memdir: Path) -> None:
    content = "Deploy key: AKIAIOSFODNN7EXAMPLE and aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    verdict = can_use_tool(
        "Write",
        {"file_path": str(memdir / "team" / "reference_aws.md"), "content": content},
        memdir,
    )
    assert not verdict.allowed and "secret" in verdict.reason


@pytest.mark.parametrize(
    "tool", ["WebFetch", "Agent", "NotebookEdit", "MultiEdit", "mcp__github__create_issue", "bash"]
)
def test_every_other_tool_is_denied(memdir: Path, tool: str) -> None:
    verdict = can_use_tool(tool, {"file_path": str(memdir / "a.md")}, memdir)
    assert not verdict.allowed and "not available" in verdict.reason


def test_a_refusal_quotes_the_path_or_tool_the_model_sent_so_its_ends_show(memdir: Path) -> None:
    relative = can_use_tool("Write", {"file_path": "feedback x.md", "content": "."}, memdir)
    assert "file_path 'feedback x.md' must be absolute" in relative.reason
    unknown = can_use_tool("Web Fetch", {"url": "https://example.com"}, memdir)
    assert unknown.reason.startswith("tool 'Web Fetch' is not available")


def test_non_mapping_input_is_denied(memdir: Path) -> None:
    assert not can_use_tool("Read", ["file_path"], memdir).allowed


MEMORY_TEXT = "---\nname: X\ndescription: d\ntype: user\n---\n\nx\n"


@pytest.mark.parametrize(
    ("rel", "fixed"),
    [
        ("~/user_x.md", "user_x.md"),
        ("~user_x.md", "user_x.md"),
        ("a/~b/user_x.md", "a/b/user_x.md"),
    ],
)
def test_a_write_making_a_name_with_a_part_starting_with_a_tilde_is_refused_in_the_tools_words(
    memdir: Path, tmp_path: Path, rel: str, fixed: str
) -> None:
    # Failed before the fix: the extractor's Write made a `~` folder a shell reads as a home,
    # which the memory tool refuses; the refusal now says it in the memory tool's words.
    verdict = can_use_tool("Write", {"file_path": str(memdir / rel), "content": "x"}, memdir)
    assert not verdict.allowed
    said = verdict.reason.split(" is refused: ", 1)[1]
    assert said.endswith(f"e.g. {memdir}/{fixed}.") and "the memory extractor" in said
    tool = MemdirMemoryTool(tmp_path / "mem")
    with pytest.raises(ToolError) as refused:
        tool.call({"command": "create", "path": f"/memories/{rel}", "file_text": MEMORY_TEXT})
    tool_said = str(refused.value).split(" is refused: ", 1)[1]
    in_tool_words = said.replace("the memory extractor", "the memory tool")
    assert in_tool_words.replace(str(memdir), "/memories") == tool_said
    assert sorted(memdir.rglob("*")) == []


def test_a_write_or_edit_of_a_tilde_file_already_there_is_allowed(memdir: Path) -> None:
    (memdir / "~").mkdir()
    (memdir / "~" / "user_x.md").write_text(MEMORY_TEXT)
    target = str(memdir / "~" / "user_x.md")
    assert can_use_tool("Write", {"file_path": target, "content": "x"}, memdir).allowed
    edit = {"file_path": target, "old_string": "x", "new_string": "y"}
    assert can_use_tool("Edit", edit, memdir).allowed


def test_a_bash_command_past_its_length_or_its_command_count_is_refused_before_it_runs() -> None:
    """attack38: a 600 KB path held shlex for 20 s before anything was checked, and 20,000
    `| cat` started processes until the file descriptors ran out (55 s)."""
    long = can_use_tool("Bash", {"command": "cat " + "a/" * 300_000}, "/tmp")
    assert not long.allowed and "32,000-character limit" in long.reason
    many = can_use_tool("Bash", {"command": "cat a.md" + " | cat" * 64}, "/tmp")
    assert not many.allowed and "65 commands" in many.reason
    assert can_use_tool("Bash", {"command": "cat a.md" + " | cat" * 63}, "/tmp").allowed
