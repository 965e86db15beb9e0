"""extract/runner: the local tool runner behind the sandbox."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.extract import (
    ToolRunner,
)
from memdir_nb.spec.constants import REFUSED_CALLS_KEPT
from memdir_nb.spec.quoted import PROBLEM_TEXT_MAX, SHOWN_FIELDS_MAX, SHOWN_TEXT_MAX


def test_runner_edit_refuses_ambiguous_or_missing_text_and_leaves_file(memdir: Path) -> None:
    target = memdir / "a.md"
    target.write_text("x\nx\n")
    runner = ToolRunner(memdir)
    assert not runner.run("Read", {"file_path": str(target)}).is_error  # Edit needs a Read
    out = runner.run("Edit", {"file_path": str(target), "old_string": "x", "new_string": "y"})
    assert out.is_error and "occurs 2 times" in out.content
    out = runner.run("Edit", {"file_path": str(target), "old_string": "zzz", "new_string": "y"})
    assert out.is_error and "not found" in out.content
    assert target.read_text() == "x\nx\n"


def test_runner_bash_chains_follow_shell_rules_without_a_shell(memdir: Path) -> None:
    (memdir / "a.md").write_text("alpha\nbeta\n")
    runner = ToolRunner(memdir)
    assert runner.run("Bash", {"command": "cat a.md | grep beta | wc -l"}).content.strip() == "1"
    out = runner.run("Bash", {"command": "ls missing && cat a.md && cat a.md"}).content
    assert "alpha" not in out and "[exit code" in out
    assert "alpha" in runner.run("Bash", {"command": "ls missing || cat a.md"}).content


def _index(n: int) -> str:
    return "".join(f"- [Note {i}](note_{i}.md) — hook {i}\n" for i in range(n))


def test_a_write_leaving_memory_md_over_its_cap_stands_but_is_an_error(memdir: Path) -> None:
    runner = ToolRunner(memdir)
    out = runner.run("Write", {"file_path": str(memdir / "MEMORY.md"), "content": _index(230)})
    assert out.is_error and out.content.startswith(f"Created {memdir / 'MEMORY.md'}")
    assert "over its cap" in out.content and "about 70% of the cap" in out.content
    assert (memdir / "MEMORY.md").read_text() == _index(230)  # the write itself succeeded


def test_an_edit_near_the_cap_gets_a_reminder_and_is_no_error(memdir: Path) -> None:
    (memdir / "MEMORY.md").write_text(_index(184))
    runner = ToolRunner(memdir)
    assert not runner.run("Read", {"file_path": str(memdir / "MEMORY.md")}).is_error
    out = runner.run(
        "Edit",
        {
            "file_path": str(memdir / "MEMORY.md"),
            "old_string": "- [Note 0](note_0.md) — hook 0\n",
            "new_string": "- [Note 0](note_0.md) — hook 0\n- [New](new.md) — a new one\n",
        },
    )
    assert not out.is_error and "Reminder: MEMORY.md is 185 lines" in out.content


def test_a_topic_file_write_says_nothing_about_caps(memdir: Path) -> None:
    out = ToolRunner(memdir).run(
        "Write", {"file_path": str(memdir / "a.md"), "content": "x\n" * 300}
    )
    assert not out.is_error and out.content == f"Created {memdir / 'a.md'}"


def test_runner_edit_refuses_a_file_that_is_not_utf8_and_keeps_its_bytes(memdir: Path) -> None:
    target = memdir / "feedback_latin1.md"
    target.write_bytes(b"---\nname: Caf\xe9\ndescription: d\ntype: feedback\n---\n\nBody.\n")
    outcome = ToolRunner(memdir).run(
        "Edit", {"file_path": str(target), "old_string": "Body.", "new_string": "New body."}
    )
    assert outcome.is_error and "is not valid UTF-8 text (byte 13)" in outcome.content
    assert target.read_bytes().startswith(b"---\nname: Caf\xe9\n")


def test_a_replace_all_edit_past_the_write_cap_is_refused_before_its_text_is_built(
    memdir: Path,
) -> None:
    # attack round 11: replace_all built count x len(new_string) in memory and wrote it: a
    # 200 KB file of one letter edited with a 500-character new_string became 100 MB (with
    # 20 KB, 4 GB: the process ran out of memory)
    target = memdir / "user_a.md"
    original = "---\nname: a\ndescription: a\ntype: user\n---\n" + "a" * 200_000 + "\n"
    target.write_text(original)
    runner = ToolRunner(memdir)
    assert not runner.run("Read", {"file_path": str(target)}).is_error  # Edit needs a Read
    tracemalloc.start()
    outcome = runner.run(
        "Edit",
        {
            "file_path": str(target),
            "old_string": "a",
            "new_string": "b" * 500,
            "replace_all": True,
        },
    )
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert outcome.is_error and "over the 1,048,576-byte limit" in outcome.content
    assert "split it into topic files" in outcome.content
    assert peak < 20_000_000
    assert target.read_text() == original


def test_an_edit_never_overwrites_a_change_another_program_made_while_it_ran(
    memdir: Path,
) -> None:
    target = memdir / "notes.md"
    target.write_text("alpha beta\n")

    def claude_code_writes_it(point: str) -> None:
        if point == "write:notes.md:journaled":  # the runner read the file, then this came
            target.write_text("alpha beta gamma\n")

    runner = ToolRunner(memdir, crash_hook=claude_code_writes_it)
    assert not runner.run("Read", {"file_path": str(target)}).is_error  # Edit needs a Read
    out = runner.run("Edit", {"file_path": str(target), "old_string": "beta", "new_string": "BETA"})
    assert out.is_error and "changed by another program" in out.content
    assert target.read_text() == "alpha beta gamma\n"


def test_a_write_over_a_file_this_run_never_read_is_refused_and_writes_nothing(
    memdir: Path,
) -> None:
    # Write replaces a whole file: over one the model has not Read, what a person wrote in it
    # was lost unseen. As in Claude Code, the model must Read an existing file first.
    target = memdir / "user_role.md"
    target.write_text("---\nname: Role\n---\nwritten by hand\n")
    runner = ToolRunner(memdir)
    out = runner.run("Write", {"file_path": str(target), "content": "replaced\n"})
    assert out.is_error and "has not been Read yet; Read it first" in out.content
    assert target.read_text() == "---\nname: Role\n---\nwritten by hand\n"
    assert not runner.run("Read", {"file_path": str(target)}).is_error
    out = runner.run("Write", {"file_path": str(target), "content": "replaced\n"})
    assert not out.is_error and target.read_text() == "replaced\n"
    out = runner.run("Write", {"file_path": str(target), "content": "again\n"})  # its own text
    assert not out.is_error and target.read_text() == "again\n"


def test_a_write_keeps_a_save_a_person_made_after_the_model_read_the_file(memdir: Path) -> None:
    target = memdir / "user_role.md"
    target.write_text("as read\n")
    runner = ToolRunner(memdir)
    assert not runner.run("Read", {"file_path": str(target)}).is_error
    target.write_text("as read\nand a line a person added since\n")
    out = runner.run("Write", {"file_path": str(target), "content": "the model's text\n"})
    assert out.is_error and "changed since it was Read" in out.content
    assert target.read_text() == "as read\nand a line a person added since\n"


def test_a_write_over_a_file_too_long_to_read_whole_is_refused(memdir: Path) -> None:
    target = memdir / "reference_long.md"
    target.write_text("line\n" * 60_000)  # 300,000 bytes, past the Read's 256 KiB
    runner = ToolRunner(memdir)
    assert "only its first" in runner.run("Read", {"file_path": str(target)}).content
    out = runner.run("Write", {"file_path": str(target), "content": "short\n"})
    assert out.is_error and "too long to Read whole" in out.content
    assert target.stat().st_size == 300_000


def test_an_edit_of_a_file_this_run_never_read_is_refused_and_writes_nothing(
    memdir: Path,
) -> None:
    # As Claude Code's Edit: the model edits only what it has seen. A part is enough (the
    # edit replaces text it quotes), so a Read of one line allows an Edit.
    target = memdir / "notes.md"
    target.write_text("alpha beta\n")
    runner = ToolRunner(memdir)
    edit = {"file_path": str(target), "old_string": "beta", "new_string": "BETA"}
    out = runner.run("Edit", edit)
    assert out.is_error and "has not been Read yet; Read it first" in out.content
    assert target.read_text() == "alpha beta\n"
    assert not runner.run("Read", {"file_path": str(target), "limit": 1}).is_error
    assert not runner.run("Edit", edit).is_error
    assert target.read_text() == "alpha BETA\n"


def test_an_edit_of_a_file_changed_since_its_read_is_refused_until_it_is_read_again(
    memdir: Path,
) -> None:
    target = memdir / "notes.md"
    target.write_text("alpha beta\n")
    runner = ToolRunner(memdir)
    assert not runner.run("Read", {"file_path": str(target)}).is_error
    target.write_text("alpha beta, and a person's line\n")  # saved in an editor meanwhile
    edit = {"file_path": str(target), "old_string": "beta", "new_string": "BETA"}
    out = runner.run("Edit", edit)
    assert out.is_error and "changed since it was Read" in out.content
    assert target.read_text() == "alpha beta, and a person's line\n"
    assert not runner.run("Read", {"file_path": str(target)}).is_error
    assert not runner.run("Edit", edit).is_error
    assert target.read_text() == "alpha BETA, and a person's line\n"


def test_a_write_making_a_tilde_name_is_refused_again_under_the_lock(memdir: Path) -> None:
    # The sandbox refuses it when the call is planned; the write itself checks again on the
    # resolved path (a folder may be renamed between the two), as it does the name gate.
    runner = ToolRunner(memdir)
    out = runner.run("Write", {"file_path": str(memdir / "~" / "user_x.md"), "content": "x"})
    assert out.is_error and "starts with '~'" in out.content and "home folder" in out.content
    with pytest.raises(ValueError, match="starts with '~'"):
        runner._tool_write({"file_path": str(memdir / "~user_x.md"), "content": "x"})
    assert [p.name for p in memdir.iterdir() if not p.name.startswith(".")] == []
    (memdir / "~").mkdir()
    (memdir / "~" / "user_x.md").write_text("old\n")  # a `~` file already there is written
    assert not runner.run("Read", {"file_path": str(memdir / "~" / "user_x.md")}).is_error
    out = runner.run("Write", {"file_path": str(memdir / "~" / "user_x.md"), "content": "new\n"})
    assert not out.is_error, out.content
    assert (memdir / "~" / "user_x.md").read_text() == "new\n"


def test_a_write_that_renames_a_memory_names_the_links_left_and_one_that_does_not_is_quiet(
    real_dir: Callable[[str], Path],
) -> None:
    memdir = real_dir("linked-by-name")
    kiln = memdir / "project_kiln_schedule.md"
    runner = ToolRunner(memdir)
    assert not runner.run("Read", {"file_path": str(kiln)}).is_error
    same_name = kiln.read_text("utf-8").replace("Bisque on Tuesdays.", "Bisque on Mondays.")
    out = runner.run("Write", {"file_path": str(kiln), "content": same_name})
    assert out.content == f"Updated {kiln}" and runner.notes == []

    renamed = same_name.replace("name: firing-calendar", "name: kiln-days")
    out = runner.run("Write", {"file_path": str(kiln), "content": renamed})

    assert not out.is_error and out.content.startswith(f"Updated {kiln}\n\nNote: 2 memories ")
    assert f"{kiln}, now named 'kiln-days', by a name no memory answers to now" in out.content
    for linking in ("feedback_glaze.md ([[firing-calendar]]", "reference_shelf.md ([["):
        assert f"{memdir}/{linking}" in out.content
    assert "user_potter" not in out.content and len(runner.notes) == 1
    assert "[[firing-calendar]]" in (memdir / "feedback_glaze.md").read_text("utf-8")


@pytest.mark.parametrize(
    "call",
    [
        ("Write", {"file_path": "x" * 1_000_000, "content": "a"}),
        ("Read", {"file_path": "/" + "x" * 1_000_000}),
        ("Nope" + "x" * 1_000_000, {"file_path": "a"}),
        ("Nope" + "x" * 1_000_000, "not an object"),
    ],
    ids=["relative-write-path", "read-path-too-long", "unknown-tool", "unknown-tool-bad-input"],
)
def test_a_refusal_quotes_the_models_input_cut_never_whole(
    memdir: Path, call: tuple[str, object]
) -> None:
    """attack38: each came back as a 1 MB error result, the model's input echoed whole."""
    name, tool_input = call
    out = ToolRunner(memdir).run(name, tool_input)  # type: ignore[arg-type]  # a hostile call
    assert out.is_error and len(out.content) < 1_500


def test_a_refused_call_is_kept_quoted_never_whole(memdir: Path) -> None:
    """polish38: `refused` kept each refused call's whole input, so a 1 MB content or path
    stayed in memory for the run. It keeps the call quoted by spec.quoted's rule."""
    runner = ToolRunner(memdir)
    huge = "x" * 1_000_000
    runner.run("Write", {"file_path": "/etc/" + huge, "content": huge, "extra": list(range(9))})
    runner.run("Nope" + huge, {str(i): huge for i in range(50)})
    assert len(runner.refused) == 2
    for name, kept, reason in runner.refused:
        assert len(name) <= SHOWN_TEXT_MAX + 40 and len(reason) <= PROBLEM_TEXT_MAX + 40
        assert len(kept) <= SHOWN_FIELDS_MAX + 1
        assert sum(len(k) + len(str(v)) for k, v in kept.items()) < 10 * SHOWN_TEXT_MAX
    assert (
        runner.refused[0][0] == "Write" and "characters left out" in runner.refused[0][1]["content"]
    )
    assert "44 more fields left out" in str(runner.refused[1][1])


def test_refused_calls_kept_are_bounded_in_number_and_the_rest_counted(memdir: Path) -> None:
    """polish38: a model sending 10,000 refused calls grew `refused` by 10,000 entries; the
    first REFUSED_CALLS_KEPT are kept and the rest only counted, and the loop's result says so."""
    runner = ToolRunner(memdir)
    for i in range(REFUSED_CALLS_KEPT + 1_000):
        runner.run("Write", {"file_path": f"/etc/x{i}", "content": "y" * 1_000})
    assert len(runner.refused) == REFUSED_CALLS_KEPT and runner.refused_dropped == 1_000
    assert runner.refused[-1][1]["file_path"] == f"/etc/x{REFUSED_CALLS_KEPT - 1}"
