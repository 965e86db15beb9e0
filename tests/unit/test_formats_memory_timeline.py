"""The memory dir as of each turn, rebuilt from the dir now and the session's own tool calls."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.formats import memory_timeline
from memdir_nb.formats.memory_timeline import (
    AsOfFile,
    MemoryPaths,
    Timeline,
    build_timeline,
    memory_ops,
)
from memdir_nb.formats.session_builder import build_session
from memdir_nb.formats.session_model import Session
from memdir_nb.ui.demo.session_records import RecordWriter
from tests.support.cpu_growth import growth_ratio

MEM = "/home/ana/.claude/projects/-home-ana-app/memory"
SHAPES = Path(__file__).resolve().parents[1] / "data" / "sessions"


def session_of(writer: RecordWriter) -> Session:
    return build_session((i, json.loads(line)) for i, line in enumerate(writer.lines, start=1))


def paths() -> MemoryPaths:
    return MemoryPaths("/elsewhere/projects/-home-ana-app/memory", "/home/ana/app")


def test_memory_paths_match_the_dir_itself_the_same_project_elsewhere_and_the_memory_tool() -> None:
    p = MemoryPaths("/tmp/h/projects/-home-ana-app/memory", "/home/ana/app")
    assert p.relative("/tmp/h/projects/-home-ana-app/memory/a.md") == "a.md"
    assert p.relative(f"{MEM}/team/b.md") == "team/b.md"
    assert p.relative("~/.claude/projects/-home-ana-app/memory/c.md") == "c.md"
    assert p.relative("/memories/d.md") == "d.md"
    assert p.relative("/home/ana/app/README.md") is None
    assert p.relative(f"{MEM}/../escape.md") is None
    assert p.relative("/tmp/h/projects/-other-project/memory/a.md") is None


def test_a_memory_tool_path_with_an_empty_step_is_the_file_the_tool_wrote_never_absolute() -> None:
    # the memory tool drops empty steps (toolloop.memory_paths.split_key): it wrote tmp/x.md
    # inside the dir, while the timeline read the memory `/tmp/x.md`, an absolute path
    p = MemoryPaths("/tmp/h/projects/-home-ana-app/memory", "/home/ana/app")
    assert p.relative("/memories//tmp/x.md") == "tmp/x.md"
    assert p.relative("/memories///team//./b.md") == "team/b.md"
    assert p.relative("/memories//") is None and p.relative("/memories//../x.md") is None


def _writer() -> RecordWriter:
    return RecordWriter("s1", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="t")


def _one_bash_call(script: str, result: str = "") -> Session:
    """A session whose first turn runs one Bash call, then a second turn starts."""
    w = _writer()
    w.prompt("what does memory hold?")
    call = w.tool_use("Bash", {"command": script})
    w.response([call])
    w.result(call, result)
    w.prompt("next")
    return session_of(w)


def test_a_file_written_in_turn_two_does_not_exist_in_turn_one() -> None:
    w = _writer()
    w.prompt("hello")
    w.response([{"type": "text", "text": "hi"}])
    w.prompt("remember the deploy day")
    call = w.tool_use("Write", {"file_path": f"{MEM}/project_deploy.md", "content": "new text"})
    w.response([call])
    w.result(call, "File created successfully at: x", detail={"type": "create"})
    now = {"project_deploy.md": AsOfFile("project_deploy.md", "new text", 9e12)}
    t = build_timeline(session_of(w), paths(), now)
    assert "project_deploy.md" not in t.states[0]
    assert "project_deploy.md" not in t.states[1]  # at the start of the turn that writes it
    assert t.writes(1) == ["project_deploy.md"] and t.final == now


def test_an_edit_is_undone_from_its_recorded_original_or_by_reversing_it() -> None:
    w = _writer()
    w.prompt("fix the note")
    a = w.tool_use(
        "Edit", {"file_path": f"{MEM}/a.md", "old_string": "north", "new_string": "south"}
    )
    b = w.tool_use("Edit", {"file_path": f"{MEM}/b.md", "old_string": "GMT", "new_string": "UTC"})
    w.response([a, b])
    w.result(a, "updated", detail={"originalFile": "harbour: north (recorded)"})
    w.result(b, "updated")
    w.prompt("next")
    now = {
        "a.md": AsOfFile("a.md", "harbour: south", 9e12),
        "b.md": AsOfFile("b.md", "runs in UTC", 9e12),
    }
    t = build_timeline(session_of(w), paths(), now)
    assert t.states[0]["a.md"].content == "harbour: north (recorded)"
    assert t.states[0]["b.md"].content == "runs in GMT" and t.states[0]["b.md"].certain
    assert t.states[1]["b.md"].content == "runs in UTC"


def test_an_edit_whose_new_text_is_gone_is_marked_uncertain() -> None:
    w = _writer()
    w.prompt("edit")
    call = w.tool_use("Edit", {"file_path": f"{MEM}/a.md", "old_string": "x", "new_string": "y"})
    w.response([call])
    w.result(call, "updated")
    now = {"a.md": AsOfFile("a.md", "changed again since", 9e12)}
    state = build_timeline(session_of(w), paths(), now).states[0]["a.md"]
    assert not state.certain and "could not be undone" in state.note


def _growing_edit(w: RecordWriter, short: str, long: str) -> None:
    """One MultiEdit call whose two replace-all edits swap `short` for `long`."""
    edit = {"old_string": short, "new_string": long, "replace_all": True}
    call = w.tool_use("MultiEdit", {"file_path": f"{MEM}/a.md", "edits": [edit, edit]})
    w.response([call])
    w.result(call, "updated")


def test_edits_that_would_grow_a_text_past_the_cap_are_not_rebuilt_either_way() -> None:
    # undone, a long run replaced by one letter becomes the run again: 100 letters x 60,000
    # x 60,000 (360 G characters) ended in MemoryError, three such edits filled the machine
    run = "a" * 60_000
    w = _writer()
    w.prompt("shrink")
    _growing_edit(w, run, "a")
    w.prompt("next")
    now = {"a.md": AsOfFile("a.md", "a" * 100, 9e12)}
    before = build_timeline(session_of(w), paths(), now).states[0]["a.md"]
    assert not before.certain and "characters; not rebuilt" in before.note
    assert before.content == "a" * 100
    # redone (a file written, grown, then removed: only the forward pass knows its text)
    w = _writer()
    w.prompt("write")
    call = w.tool_use("Write", {"file_path": f"{MEM}/a.md", "content": "a" * 100})
    w.response([call])
    w.result(call, "File created successfully at: x", detail={"type": "create"})
    w.prompt("grow")
    _growing_edit(w, "a", run)
    w.prompt("remove")
    rm = w.tool_use("Bash", {"command": f"rm {MEM}/a.md"})
    w.response([rm])
    w.result(rm, "")
    w.prompt("next")
    grown = build_timeline(session_of(w), paths(), {}).states[2]["a.md"]
    assert grown.content is None and not grown.certain  # unknown, not 360 G characters


def _peak_bytes_of_timeline(session: Session, now: dict[str, AsOfFile]) -> tuple[int, Timeline]:
    tracemalloc.start()
    try:
        timeline = build_timeline(session, paths(), now)
        return tracemalloc.get_traced_memory()[1], timeline
    finally:
        tracemalloc.stop()


def test_the_timeline_keeps_what_each_turn_changed_not_a_copy_of_the_dir_per_turn() -> None:
    # 1,000 quiet turns over 100 files kept 100,000 entries (20,000 x 200: 678 MB)
    w = _writer()
    for i in range(1_000):
        w.prompt(f"question {i}")
    now = {f"f{i}.md": AsOfFile(f"f{i}.md", "text", 9e12) for i in range(100)}
    peak, t = _peak_bytes_of_timeline(session_of(w), now)
    assert len(t.states) == 1_000 and t.states[999] == now and t.states[-1] == now
    assert peak < 1_000_000, f"{peak:,} bytes for a session that changes nothing"
    # 300 turns that each write one more memory kept 90,000 (4,000 turns: 1.4 GB, 61 s)
    w = _writer()
    for i in range(300):
        w.prompt(f"note {i}")
        call = w.tool_use("Write", {"file_path": f"{MEM}/n{i}.md", "content": f"note {i}"})
        w.response([call])
        w.result(call, "written")  # not said whether it was created: kept as unknown before
    now = {f"n{i}.md": AsOfFile(f"n{i}.md", f"note {i}", 9e12) for i in range(300)}
    peak, t = _peak_bytes_of_timeline(session_of(w), now)
    assert len(t.states[0]) == 300 and len(t.states[299]) == 300
    assert t.states[200]["n199.md"].content == "note 199" and not t.states[3]["n199.md"].certain
    assert peak < 2_000_000, f"{peak:,} bytes for 300 turns of one write each"


def test_the_texts_a_session_rebuilds_stay_within_one_budget_for_the_whole_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # each file: 'a' written, then doubled 20 times (a 1 KB record, a 1 MiB text under the
    # cap of one text), then removed; 500 of them held 280 MB, 5,000 (an 8 MB transcript)
    # would hold 3 GB. Here 12 files against a budget of 4 MiB (the real one is 64 Mi).
    monkeypatch.setattr(memory_timeline, "TIMELINE_REBUILT_MAX_CHARS", 4 * 2**20)
    w = _writer()
    w.prompt("grow")
    double = {"old_string": "a", "new_string": "aa", "replace_all": True}
    names = [f"{MEM}/f{i}.md" for i in range(12)]
    for name in names:
        write = w.tool_use("Write", {"file_path": name, "content": "a"})
        grow = w.tool_use("MultiEdit", {"file_path": name, "edits": [double] * 20})
        w.response([write, grow])
        w.result(write, "File created successfully at: x", detail={"type": "create"})
        w.result(grow, "updated")
    w.prompt("remove them")
    rm = w.tool_use("Bash", {"command": "rm " + " ".join(names)})
    w.response([rm])
    w.result(rm, "")
    w.prompt("next")
    peak, t = _peak_bytes_of_timeline(session_of(w), {})
    grown = t.states[1]  # deleted later, so only the forward pass knows their text
    assert grown["f0.md"].content == "a" * 2**20  # the first are rebuilt
    assert grown["f11.md"].content is None and not grown["f11.md"].certain
    assert peak < 6 * 2**20, f"{peak:,} bytes"


def _edits_that_match_nothing(n: int) -> Session:
    """A session that writes a file of n KiB, then edits it n times with 64 edits that match
    nothing (each searches the whole file), then deletes it: the work its rebuild would do
    unbounded grows with n * n."""
    w = _writer()
    w.prompt("write, then edit")
    write = w.tool_use("Write", {"file_path": f"{MEM}/big.md", "content": "x" * (n * 1024)})
    w.response([write])
    w.result(write, "File created successfully at: x", detail={"type": "create"})
    misses = [{"old_string": f"zq{k}", "new_string": "y"} for k in range(64)]
    for _ in range(n):
        call = w.tool_use("MultiEdit", {"file_path": f"{MEM}/big.md", "edits": misses})
        w.response([call])
        w.result(call, "updated")
    w.prompt("remove it")
    rm = w.tool_use("Bash", {"command": f"rm {MEM}/big.md"})
    w.response([rm])
    w.result(rm, "")
    w.prompt("next")
    return session_of(w)


def test_the_text_a_session_s_edits_search_stays_within_one_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 1,000 records of 64 edits matching nothing (3.6 MB of transcript) searched a 256 KB file
    # for 21 s. Here 8 records over an 8 KB file against 64 over a 64 KB one (eight times the
    # transcript), with a budget of 1 MiB (the real one, 1 Gi): within it, the larger took
    # 2.3 times the CPU here; with no budget (every file searched whole), 55 times
    monkeypatch.setattr(memory_timeline, "TIMELINE_SEARCHED_MAX_CHARS", 2**20)

    def timeline_of(n: int) -> Callable[[], object]:
        session = _edits_that_match_nothing(n)
        return lambda: build_timeline(session, paths(), {})

    assert growth_ratio(timeline_of, 8, 64) < 20
    before_rm = build_timeline(_edits_that_match_nothing(64), paths(), {}).states[1]["big.md"]
    assert before_rm.content is None and not before_rm.certain  # not rebuilt: past the budget


def test_a_removed_file_exists_before_the_rm_with_the_text_a_whole_read_showed() -> None:
    w = _writer()
    w.prompt("delete the stale note")
    read = w.tool_use("Read", {"file_path": f"{MEM}/old.md"})
    w.response([read])
    w.result(
        read,
        "old text",
        detail={"type": "text", "file": {"content": "old text", "numLines": 1, "totalLines": 1}},
    )
    rm = w.tool_use("Bash", {"command": f"cd /tmp && rm -f {MEM}/old.md"})
    w.response([rm])
    w.result(rm, "")
    w.prompt("thanks")
    t = build_timeline(session_of(w), paths(), {})
    assert t.states[0]["old.md"].content == "old text" and t.states[0]["old.md"].certain
    assert "old.md" not in t.states[1]
    assert t.reads(0) == ["old.md"] and t.writes(0) == ["old.md"]


def test_a_shell_script_is_split_at_line_ends_and_a_glob_names_no_file() -> None:
    # a real multi-line Bash call: a `head` on one line, an `ls` of the memory dir on the next
    script = (
        'grep -n "^#" notes.md | head -30\n'
        f'echo "=== memory files ==="; ls {MEM}/*.md | xargs -n1 basename\n'
        f"cat {MEM}/kept.md # show it\n"
        f"rm \\\n  {MEM}/gone.md\n"
        f"tail -5 {MEM}/feedback_*.md"
    )
    ops = memory_ops(_one_bash_call(script, "kept.md"), paths())
    assert [(op.kind, op.rel) for op in ops] == [("read", "kept.md"), ("delete", "gone.md")]


def test_mv_and_the_memory_tools_rename_move_a_file_back() -> None:
    w = _writer()
    w.prompt("rename")
    mv = w.tool_use("Bash", {"command": f"mv {MEM}/a.md {MEM}/b.md"})
    tool = w.tool_use(
        "memory", {"command": "rename", "old_path": "/memories/c.md", "new_path": "/memories/d.md"}
    )
    w.response([mv, tool])
    w.result(mv, "")
    w.result(tool, "renamed")
    w.prompt("next")
    now = {"b.md": AsOfFile("b.md", "B", 9e12), "d.md": AsOfFile("d.md", "D", 9e12)}
    t = build_timeline(session_of(w), paths(), now)
    assert set(t.states[0]) == {"a.md", "c.md"} and t.states[0]["a.md"].content == "B"
    assert set(t.states[1]) == {"b.md", "d.md"}


def test_failed_and_rejected_calls_change_nothing() -> None:
    w = _writer()
    w.prompt("write")
    call = w.tool_use("Write", {"file_path": f"{MEM}/a.md", "content": "x"})
    w.response([call])
    w.result(call, "The user doesn't want to proceed with this tool use.", is_error=True)
    assert memory_ops(session_of(w), paths()) == []


def test_subagent_writes_change_the_dir_but_are_not_the_main_agents() -> None:
    w = RecordWriter("s1", "/home/ana/app", "2026-05-01T10:00:00.000Z", seed="t")
    w.prompt("hand it to an agent")
    agent = RecordWriter(
        "s1", "/home/ana/app", "2026-05-01T10:00:05.000Z", sidechain=True, seed="u"
    )
    call = agent.tool_use("Write", {"file_path": f"{MEM}/a.md", "content": "by the agent"})
    agent.response([call])
    agent.result(call, "File created successfully at: x")
    w.lines.extend(agent.lines)
    w.prompt("next")
    t = build_timeline(session_of(w), paths(), {"a.md": AsOfFile("a.md", "by the agent", 9e12)})
    assert t.writes(0) == [] and t.writes(0, main_only=False) == ["a.md"]
    assert "a.md" not in t.states[0] and "a.md" in t.states[1]


def test_memory_paths_read_windows_paths_and_a_drive_path_is_never_joined_onto_the_cwd() -> None:
    p = MemoryPaths("C:\\Users\\me\\.claude\\projects\\C--w\\memory", "C:\\w")
    assert p.relative("c:\\Users\\me\\.claude\\projects\\C--w\\memory\\a.md") == "a.md"
    assert p.relative("D:/backup/.claude/projects/C--w/memory/b.md") == "b.md"  # same project
    assert p.relative("c:/w/README.md") is None
    assert p.relative("notes.md") is None  # relative to the cwd C:\w, not to the memory dir
    posix = MemoryPaths("/home/me/.claude/projects/C--w/memory")
    assert posix.relative("C:\\Users\\me\\.claude\\projects\\C--w\\memory\\a.md") == "a.md"
    assert posix.relative("c:/w/README.md") is None and posix.relative("README.md") is None


def test_a_windows_project_key_matches_whatever_the_case_of_its_drive_letter() -> None:
    # a VS Code session opened at d:\ws names d--ws; Windows keeps the folder git saw, D--ws
    p = MemoryPaths("/home/me/claude/projects/D--ClaudeWorkspace/memory")
    raw = "C:\\Users\\me\\.claude\\projects\\d--ClaudeWorkspace\\memory\\moq_rules.md"
    assert p.relative(raw) == "moq_rules.md"
    assert p.relative(raw.replace("d--ClaudeWorkspace", "D--CLAUDEWORKSPACE")) == "moq_rules.md"
    posix = MemoryPaths("/home/me/.claude/projects/-home-me-App/memory")
    assert posix.relative("/home/me/.claude/projects/-home-me-app/memory/a.md") is None


def test_a_cd_in_a_bash_call_moves_where_its_later_relative_paths_start() -> None:
    # a real call: `cd .../memory && printf ... >> MEMORY.md` appended an index line unseen
    script = (
        f"cd {MEM} && printf -- '- [A](a.md)\\n' >> MEMORY.md\n"
        "cat notes/b.md; cd topics && rm c.md\n"
        "cd ~/.claude/projects/-home-ana-app/memory; tee d.md < /dev/null\n"
        "cd /tmp && echo x > e.md\n"
        "cd; echo y > f.md"
    )
    ops = memory_ops(_one_bash_call(script), paths())
    assert [(op.kind, op.rel) for op in ops] == [
        ("write", "MEMORY.md"),
        ("read", "notes/b.md"),
        ("delete", "topics/c.md"),
        ("write", "d.md"),
    ]
    # without a cd, a relative name is the session's cwd's, not the memory dir's
    assert memory_ops(_one_bash_call("echo x >> MEMORY.md"), paths()) == []


def test_a_bash_call_starts_from_the_cwd_its_record_was_written_in() -> None:
    # the shell keeps an earlier call's `cd`; each record's cwd says where it was
    w = _writer()
    w.prompt("add the index line")
    first = w.tool_use("Bash", {"command": f"cd {MEM}"})
    w.response([first])
    w.result(first, "")
    w.cwd = MEM
    second = w.tool_use("Bash", {"command": "printf -- '- [A](a.md)\\n' >> MEMORY.md"})
    w.response([second])
    w.result(second, "")
    w.prompt("next")
    ops = memory_ops(session_of(w), paths())
    assert [(op.kind, op.rel) for op in ops] == [("write", "MEMORY.md")]


def test_a_here_document_is_text_not_commands_and_its_redirection_still_writes() -> None:
    # commit messages and memories written with `cat > f <<'EOF'` are common in real sessions;
    # a body line holding an apostrophe made the whole script unparsable, so the rm was lost
    script = (
        f"rm {MEM}/old.md\n"
        f"cat > {MEM}/new.md <<'EOF'\n"
        "don't rm this line: it is text\n"
        f"cat {MEM}/ghost.md\n"
        "EOF\n"
        'git commit -m "$(cat <<-END\n'
        "\tFix the user's notes\n"
        "\tEND\n"
        ')"\n'
        f"sort < {MEM}/a.md 2>&1 | tee {MEM}/b.md >&2; cat <<< 'x' > {MEM}/c.md"
    )
    ops = memory_ops(_one_bash_call(script), paths())
    assert [(op.kind, op.rel) for op in ops] == [
        ("delete", "old.md"),
        ("write", "new.md"),
        ("read", "a.md"),
        ("write", "b.md"),
        ("write", "c.md"),
    ]


def test_sed_in_place_rewrites_its_files_and_a_shell_variable_names_no_file() -> None:
    # real calls: `sed -i 's|^- \\[x\\].*|...|' MEMORY.md` rewrote an index line; `cat "$f"`
    script = (
        f"cd {MEM} && sed -i 's|^- old|- new|' MEMORY.md && sed -n 1p a.md\n"
        f"sed -e s/a/b/ -i.bak -- notes.md {MEM}/topics/x.md\n"
        'for f in a.md b.md; do cat "$f"; done; cat $(ls)'
    )
    ops = memory_ops(_one_bash_call(script), paths())
    assert [(op.kind, op.rel) for op in ops] == [
        ("write", "MEMORY.md"),
        ("write", "notes.md"),
        ("write", "topics/x.md"),
    ]


def test_a_shell_redirection_or_tee_into_memory_is_a_write_of_unknown_text() -> None:
    # real Bash calls: `printf ... >> MEMORY.md` appended an index line and was not seen
    script = (
        f"printf -- '- [Notes](notes.md)\\n' >> {MEM}/MEMORY.md\n"
        f"cat {MEM}/a.md > {MEM}/b.md 2>/dev/null\n"
        f"echo x >{MEM}/c.md; echo y | tee -a {MEM}/d.md /tmp/log.txt\n"
        f"> {MEM}/e.md\n"
        f"echo z > {MEM}/*.md"
    )
    session = _one_bash_call(script)
    ops = memory_ops(session, paths())
    assert [(op.kind, op.rel) for op in ops] == [
        ("write", "MEMORY.md"),
        ("read", "a.md"),
        ("write", "b.md"),
        ("write", "c.md"),
        ("write", "d.md"),
        ("write", "e.md"),
    ]
    assert all(op.content is None for op in ops if op.kind == "write")
    before = build_timeline(session, paths(), {}).states[0]
    assert not before["MEMORY.md"].certain and "write" in before["MEMORY.md"].note


def test_a_memory_file_the_cli_saw_change_outside_the_session_is_not_its_earlier_text() -> None:
    # 2.1.2xx: another session edited MEMORY.md after this one had read it; the CLI told the
    # agent with an `edited_text_file` attachment (filename and a snippet), and no call of
    # this session made the change
    w = _writer()
    w.prompt("what is in memory?")
    read = w.tool_use("Read", {"file_path": f"{MEM}/MEMORY.md"})
    w.response([read])
    w.result(read, "1\t- a", detail={"type": "text", "file": {"content": "- a\n"}})
    w.prompt("carry on")
    note = w.envelope("attachment")
    note["attachment"] = {
        "type": "edited_text_file",
        "filename": f"{MEM}/MEMORY.md",
        "snippet": "1\t- a\n2\t- b",
    }
    note["uuid"], note["timestamp"] = w.uid("att"), w.stamp()
    w.emit(note)
    w.response([{"type": "text", "text": "ok"}])
    w.prompt("change b to c")
    edit = w.tool_use(
        "Edit", {"file_path": f"{MEM}/MEMORY.md", "old_string": "- b", "new_string": "- c"}
    )
    w.response([edit])
    w.result(edit, "The file has been updated successfully.")
    now = {"MEMORY.md": AsOfFile("MEMORY.md", "- a\n- c\n", 9e12)}
    t = build_timeline(session_of(w), paths(), now)
    assert [(op.kind, op.turn) for op in t.ops] == [("read", 0), ("outside", 1), ("edit", 2)]
    assert t.states[0]["MEMORY.md"].content == "- a\n"  # what the agent read, not today's
    assert t.states[0]["MEMORY.md"].certain
    assert t.states[2]["MEMORY.md"].content == "- a\n- b\n" and t.states[2]["MEMORY.md"].certain
    assert t.changed_outside(1) == ["MEMORY.md"] and t.writes(1) == []
    assert t.writes(2) == ["MEMORY.md"]


def test_files_the_clis_background_memory_agent_saved_are_not_their_later_text_before() -> None:
    # the extractor (and auto-dream) write in an agent whose calls go to no transcript; the
    # main session gets one `memory_saved` system record naming the files written
    w = _writer()
    w.prompt("how do we ship?")
    read = w.tool_use("Read", {"file_path": f"{MEM}/project_ship.md"})
    w.response([read])
    w.result(read, "1\tship on fridays", detail={"type": "text", "file": {"content": "fridays\n"}})
    w.response([{"type": "text", "text": "on fridays"}])
    w.system("turn_duration", durationMs=900)
    written = [f"{MEM}/project_ship.md", f"{MEM}/feedback_tabs.md", "/home/ana/app/notes.md"]
    w.system("memory_saved", writtenPaths=written, teamCount=0, verb="Saved")
    w.prompt("and the tabs?")
    w.response([{"type": "text", "text": "two spaces"}])
    now = {
        "project_ship.md": AsOfFile("project_ship.md", "mondays\n", 9e12),
        "feedback_tabs.md": AsOfFile("feedback_tabs.md", "two spaces\n", 9e12),
    }
    t = build_timeline(session_of(w), paths(), now)
    assert [(op.kind, op.rel, op.turn) for op in t.ops] == [
        ("read", "project_ship.md", 0),
        ("outside", "project_ship.md", 0),
        ("outside", "feedback_tabs.md", 0),
    ]
    assert t.states[0]["project_ship.md"].content == "fridays\n"  # what the agent read
    assert t.states[0]["project_ship.md"].certain
    tabs = t.states[0]["feedback_tabs.md"]  # today's text is not what turn 1 could see
    assert not tabs.certain and tabs.content is None and "memory_saved" in tabs.note
    assert t.states[1]["feedback_tabs.md"].content == "two spaces\n"
    assert t.states[1]["feedback_tabs.md"].certain
    assert t.writes(0) == [] and t.outside_flags(0) == ["memory saved in background"]
    assert t.outside_flags(1) == []


def test_a_folder_removed_or_renamed_by_bash_moves_its_files_and_is_no_file_itself() -> None:
    # real36: an agent filed role playbooks in folders of its memory dir, then regrouped them
    # (`mv kiln/x.md "Kiln Crew/" && rm -rf kiln`, `mv drafts archive`); each folder was read
    # as a file of that name, in every earlier turn, which the replay refused at every turn
    w = _writer()
    w.prompt("keep the firing playbook beside the glaze drafts")
    read = w.tool_use("Read", {"file_path": f"{MEM}/drafts/glazes.md"})
    call = w.tool_use(
        "Write", {"file_path": f"{MEM}/roles/kiln/SKILL_firing.md", "content": "cone 6"}
    )
    w.response([read, call])
    w.result(read, "     1\tceladon")
    w.result(call, "File created successfully at: x", detail={"type": "create"})
    w.prompt("group the roles by team")
    script = f'cd {MEM}/roles && mkdir -p "Kiln Crew" && mv kiln/SKILL_firing.md "Kiln Crew/" '
    mv = w.tool_use("Bash", {"command": script + "&& rm -rf kiln"})
    w.response([mv])
    w.result(mv, "")
    w.prompt("the drafts are done")
    done = w.tool_use("Bash", {"command": f"mv {MEM}/drafts {MEM}/archive"})
    w.response([done])
    w.result(done, "")
    w.prompt("next")
    now = {
        "roles/Kiln Crew/SKILL_firing.md": AsOfFile(
            "roles/Kiln Crew/SKILL_firing.md", "cone 6", 9e12
        ),
        "archive/glazes.md": AsOfFile("archive/glazes.md", "celadon", 9e12),
    }
    states = build_timeline(session_of(w), paths(), now).states
    assert [sorted(s) for s in states] == [
        ["drafts/glazes.md"],
        ["drafts/glazes.md", "roles/kiln/SKILL_firing.md"],
        ["drafts/glazes.md", "roles/Kiln Crew/SKILL_firing.md"],
        ["archive/glazes.md", "roles/Kiln Crew/SKILL_firing.md"],
    ]
    assert states[0]["drafts/glazes.md"].content == "celadon"
    assert states[1]["roles/kiln/SKILL_firing.md"].content == "cone 6"
