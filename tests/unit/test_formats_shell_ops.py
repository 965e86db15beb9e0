"""Which memory files a Bash call reads or writes: the script's commands, each from where the
`cd`s of its own shell left it."""

from __future__ import annotations

from memdir_nb.formats.session_model import ToolCall
from memdir_nb.formats.shell_ops import bash_ops
from memdir_nb.formats.transcript_paths import MemoryPaths

MEM = "/home/ana/.claude/projects/-home-ana-app/memory"


def _ops(script: str, cwd: str | None = None) -> list[tuple[str, str]]:
    call = ToolCall("t1", "Bash", {"command": script}, line_no=1, cwd=cwd)
    paths = MemoryPaths("/elsewhere/projects/-home-ana-app/memory", "/home/ana/app")
    return [(kind, rel) for kind, rel, _ in bash_ops(call, paths)]


def test_a_cd_in_a_subshell_or_a_pipeline_moves_only_its_own_shell() -> None:
    # `(cd memory && rm a.md)` then `rm b.md`: the second rm is the session cwd's b.md
    script = (
        f"(cd {MEM} && rm a.md) && rm b.md\n"
        f"cd {MEM} | true; echo x > c.md\n"
        f"cd {MEM}; (cd topics; perl -pi -e 's/a/b/' d.md); rm e.md"
    )
    assert _ops(script) == [("delete", "a.md"), ("write", "topics/d.md"), ("delete", "e.md")]


def test_relative_paths_start_at_the_cwd_the_call_s_record_names() -> None:
    assert _ops("rm a.md; cat notes/b.md") == []
    assert _ops("rm a.md; cat notes/b.md", cwd=MEM) == [("delete", "a.md"), ("read", "notes/b.md")]


def test_a_script_that_cannot_be_parsed_names_no_operation() -> None:
    assert _ops(f"rm {MEM}/a.md; echo 'never closed") == []


def test_copies_touches_dd_and_ansi_c_quoting_into_the_memory_dir_are_writes() -> None:
    # cp, install, touch and dd into a memory dir were not read as writes, and a script holding
    # `$'...'` with an escaped quote was not read at all: the session view missed each write
    script = (
        f"cp /tmp/draft.md {MEM}/a.md && install -m 644 x.md {MEM}/b.md\n"
        f"touch {MEM}/c.md; dd if={MEM}/a.md of={MEM}/d.md; cp -t {MEM} notes/e.md\n"
        f"printf $'it\\'s\\n' > {MEM}/f.md"
    )
    assert _ops(script) == [
        ("write", "a.md"),
        ("write", "b.md"),
        ("write", "c.md"),
        ("read", "a.md"),
        ("write", "d.md"),
        ("write", "e.md"),
        ("write", "f.md"),
    ]
