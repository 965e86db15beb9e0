"""Deep JSON, deep YAML, corrupt journals and catastrophic regexes, each tried through every door.

The second half of issue 18's class x route table (docs/security.md); names, escapes,
relative dirs and FIFOs are in test_boundary_routes.py. Inputs that once crashed the process
(libyaml's segfault, a frozen regex) are run in a child process with a timeout, so a
regression fails a test instead of taking the test run down.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from memdir_nb.cli.main import main as cli_main
from memdir_nb.dream.apply import RestoreError, apply_plan, list_dreams, restore
from memdir_nb.dream.plan import plan_consolidation
from memdir_nb.extract.runner import ToolRunner
from memdir_nb.extract.transcript import parse_transcript_lines
from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.formats.index import parse_index
from memdir_nb.formats.jsonio import JSONLimitError
from memdir_nb.formats.transcript_lines import parse_record_line
from memdir_nb.lint import lint_memory_dir
from memdir_nb.recall import find_relevant_memories
from memdir_nb.recall.anthropic_selector import AnthropicSelector
from memdir_nb.recall.decision import DecisionModel
from memdir_nb.recall.lexical import LexicalSelector
from memdir_nb.recall.semantic import SemanticSelector
from memdir_nb.recall.vector_cache import CACHE_FILENAME, SNIPPET_MAX_CHARS
from memdir_nb.reports.replay import replay_session
from memdir_nb.spec.constants import STORE_JOURNAL_NAME
from memdir_nb.spec.text import one_line
from memdir_nb.storage.index_rebuild import plan_index_rebuild
from memdir_nb.storage.scan import scan_memory_files
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.transaction import journal_problem
from tests.support import write_memory
from tests.support.child_env import child_env
from tests.support.fake_home import add_memory, make_world
from tests.support.messages_api import MessagesAPIServer, text_reply

NOW_MS = 1_790_000_000_000.0
DEEP_JSON = "[" * 5000 + "]" * 5000
DEEP_OBJECT = '{"a":' * 5000 + "1" + "}" * 5000


def run_cli(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = child_env(HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=180,
    )


def run_python(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )


# ----------------------------------------------------------------------------- class: deep JSON


@pytest.mark.parametrize("command", ["where", "doctor", "list"])
@pytest.mark.parametrize("layer", ["user", "project"])
def test_deep_settings_never_crash_the_home_commands(
    tmp_path: Path, command: str, layer: str
) -> None:
    w = make_world(tmp_path, repo=False)
    path = w.settings(layer, {})
    path.write_text(DEEP_JSON if layer == "user" else DEEP_OBJECT, encoding="utf-8")
    args = ["--home", str(w.home)] + (["--cwd", str(w.project)] if command != "list" else [])
    out = run_cli(command, *args, home=w.home)
    assert "Traceback" not in out.stderr
    assert out.returncode in (0, 1)  # as for any settings problem: a finding, not an error exit
    if command != "list":  # list with --home reads no settings file (its --home is a path)
        assert "levels deep, over the limit of 64" in out.stdout + out.stderr


def test_deep_settings_through_the_api_are_one_problem(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    w.settings("user", {}).write_text(DEEP_JSON, encoding="utf-8")
    config = w.config()
    assert any("levels deep" in p for p in config.settings_problems)


def test_deep_transcript_line_is_one_problem_not_a_crash(tmp_path: Path) -> None:
    good = json.dumps({"type": "user", "uuid": "u1", "message": {"role": "user", "content": "hi"}})
    parsed = parse_transcript_lines([DEEP_JSON, good])
    assert parsed.problems[0].line_no == 1 and "levels deep" in parsed.problems[0].reason
    # the list command peeks into transcripts to name a project: a deep line is passed over
    projects = tmp_path / ".claude" / "projects"
    add_memory(projects / "-tmp-somewhere" / "memory", "feedback_x.md")
    (projects / "-tmp-somewhere" / "s1.jsonl").write_text(DEEP_JSON + "\n", encoding="utf-8")
    out = run_cli("list", "--home", str(tmp_path), home=tmp_path)
    assert out.returncode == 0 and "Traceback" not in out.stderr
    assert "feedback 1" in out.stdout


# Python refuses to turn more than 4,300 digits into an int (a ValueError that is not a
# JSONDecodeError); JavaScript's JSON.parse reads any number as a double. One such number in a
# repository's settings file ended `where`, `doctor`, `list` and `sessions` with "error:
# Exceeds the limit (4300 digits)" (attack round 27).
HUGE_INT = "1" * 5000


@pytest.mark.parametrize("command", ["where", "doctor", "list", "sessions"])
@pytest.mark.parametrize("layer", ["user", "project"])
def test_a_number_of_5000_digits_in_settings_is_read_as_javascript_reads_it(
    tmp_path: Path, command: str, layer: str
) -> None:
    w = make_world(tmp_path, repo=False)
    w.settings(layer, {}).write_text(
        '{"autoMemoryEnabled": true, "cleanupPeriodDays": ' + HUGE_INT + "}", encoding="utf-8"
    )
    args = ["--home", str(w.home)] + (
        ["--cwd", str(w.project)] if command in ("where", "doctor") else []
    )
    out = run_cli(command, *args, home=w.home)
    assert "Exceeds the limit" not in out.stdout + out.stderr and "Traceback" not in out.stderr
    assert out.returncode in (0, 1)


def test_a_number_of_5000_digits_in_a_transcript_line_is_read_not_a_crash(tmp_path: Path) -> None:
    good = {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "hi"}}
    alone = json.dumps({**good, "uuid": "u2"})[:-1] + ', "n": ' + HUGE_INT + "}"
    glued = json.dumps({**good, "uuid": "u3"}) + alone.replace("u2", "u4")
    parsed = parse_transcript_lines([json.dumps(good), alone, glued])
    assert [m.uuid for m in parsed.messages] == ["u1", "u2", "u3", "u4"]
    assert parse_record_line(alone)[0][0]["n"] == float("inf")  # JSON.parse's Infinity
    projects = tmp_path / ".claude" / "projects"
    add_memory(projects / "-tmp-somewhere" / "memory", "feedback_x.md")
    transcript = projects / "-tmp-somewhere" / "s1.jsonl"
    transcript.write_text("\n".join([json.dumps(good), alone, glued]) + "\n", encoding="utf-8")
    for args in (["sessions", "--home", str(tmp_path)], ["replay", str(transcript)]):
        out = run_cli(*args, home=tmp_path)
        assert out.returncode == 0 and "Exceeds the limit" not in out.stderr, out.stderr


def test_deep_model_reply_is_a_recorded_error(tmp_path: Path) -> None:
    write_memory(tmp_path, "feedback_x.md", name="X", description="about x", now_ms=NOW_MS)
    with MessagesAPIServer() as api:
        api.enqueue(text_reply('{"selected_memories": ' + DEEP_JSON[:-1] + "]}"))
        selector = AnthropicSelector(
            api_key="sk-test-not-real", base_url=api.base_url, model="m", max_retries=0, timeout=5.0
        )
        assert find_relevant_memories("x", tmp_path, selector=selector) == []
    assert "levels deep" in (selector.last_error or "")


def test_deep_package_data_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text(DEEP_OBJECT, encoding="utf-8")
    with pytest.raises(JSONLimitError, match="model.json nests"):
        DecisionModel.load(path)


def test_deep_trash_manifest_makes_restore_refuse_clearly(demo_mem: Path) -> None:
    plan = plan_consolidation(demo_mem, now_ms=NOW_MS)
    apply_plan(plan)
    (batch,) = list_dreams(demo_mem)
    (demo_mem / ".trash" / batch / "manifest.json").write_text(DEEP_JSON, encoding="utf-8")
    with pytest.raises(RestoreError, match="levels deep"):
        restore(demo_mem, batch)


# ----------------------------------------------------------------------------- class: deep YAML

DEEP_FLOW = (
    "---\nname: deep\ndescription: flow\ntype: project\nx: "
    + "[" * 3000
    + "]" * 3000
    + "\n---\nbody\n"
)
DEEP_BLOCK = (
    "---\nname: deep\ndescription: block\ntype: project\nx:\n" + "- " * 3000 + "y\n---\nbody\n"
)
DEEP_MAP = "---\nname: deep\ndescription: map\ntype: project\nx: " + "{a: " * 1500 + "\n---\nbody\n"


@pytest.mark.parametrize("text", [DEEP_FLOW, DEEP_BLOCK, DEEP_MAP], ids=["flow", "block", "map"])
def test_deep_yaml_is_recovered_line_by_line_not_parsed(text: str) -> None:
    fm, _ = parse_frontmatter(text)
    assert fm.malformed and "levels deep" in fm.problems[0]
    assert fm.name == "deep"


def test_deep_yaml_cannot_crash_lint_dream_or_update(tmp_path: Path) -> None:
    """Each route in a child process: libyaml's crash was a segfault, which no except catches."""
    d = tmp_path / "memory"
    for name, text in (("flow", DEEP_FLOW), ("block", DEEP_BLOCK), ("map", DEEP_MAP)):
        write_memory(d, f"project_{name}.md", name=name, description=name, now_ms=NOW_MS)
        (d / f"project_{name}.md").write_text(text, encoding="utf-8")
    (d / "huge.md").write_text("---\nx: " + "[" * 1_000_000 + "\n---\n", encoding="utf-8")
    script = (
        "from memdir_nb.lint import lint_memory_dir\n"
        "from memdir_nb.dream.plan import plan_consolidation\n"
        "from memdir_nb.storage.store import MemoryStore\n"
        f"d = {str(d)!r}\n"
        "print(len(lint_memory_dir(d)))\n"
        "print(len(plan_consolidation(d).actions))\n"
        "MemoryStore(d).update('project_flow.md', body='new body')\n"
        "print('updated')\n"
    )
    out = run_python(script)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().endswith("updated")
    cli = run_cli("lint", str(d), home=tmp_path)
    assert cli.returncode in (0, 1) and "Traceback" not in cli.stderr
    assert "levels deep" in cli.stdout


# ------------------------------------------------------------------------ class: corrupt journal

CORRUPT_JOURNALS = {
    "an int": b"1\n",
    "a list": b"[]\n",
    "a string": b'"write"\n',
    "null": b"null\n",
    "deep": (DEEP_JSON + "\n").encode(),
    "no path": b'{"op": "write"}\n',
    "unknown op": b'{"op": "zap"}\n',
    "not utf-8": b'{"op": "commit"}\n\xff\xfe\n',
    "torn in the middle": b'{"op": "wri\n{"op": "commit"}\n',
}


@pytest.mark.parametrize("raw", CORRUPT_JOURNALS.values(), ids=CORRUPT_JOURNALS.keys())
def test_corrupt_journal_is_reported_then_set_aside_by_the_next_write(
    tmp_path: Path, raw: bytes
) -> None:
    store = MemoryStore(tmp_path)
    store.save("First", "the first memory", "project", "Body.", filename="project_a.md")
    (tmp_path / STORE_JOURNAL_NAME).write_bytes(raw)
    problem = journal_problem(tmp_path)
    assert problem is not None and "is corrupt" in problem and ".corrupt-<time>" in problem
    (finding,) = [f for f in lint_memory_dir(tmp_path) if f.path == STORE_JOURNAL_NAME]
    assert finding.rule == "store-journal-corrupt" and finding.severity == "error"
    store.save("Second", "the second memory", "project", "Body.", filename="project_b.md")
    assert not (tmp_path / STORE_JOURNAL_NAME).exists()
    (aside,) = tmp_path.glob(f"{STORE_JOURNAL_NAME}.corrupt-*")
    assert aside.read_bytes() == raw  # kept byte for byte, never deleted
    assert any("set aside a corrupt store journal" in w for w in store.warnings)
    assert {p.name for p in tmp_path.glob("project_*.md")} == {"project_a.md", "project_b.md"}


def test_recover_sets_a_corrupt_journal_aside_and_says_so(tmp_path: Path) -> None:
    (tmp_path / STORE_JOURNAL_NAME).write_bytes(b"1\n")
    done = MemoryStore(tmp_path).recover()
    assert len(done) == 1 and "set aside a corrupt store journal" in done[0]
    assert MemoryStore(tmp_path).recover() == []  # the journal is gone; nothing left to do


def test_fifo_at_the_journal_path_is_set_aside_not_read(tmp_path: Path) -> None:
    script = (
        "import os\n"
        "from memdir_nb.storage.store import MemoryStore\n"
        f"d = {str(tmp_path)!r}\n"
        f"os.mkfifo(os.path.join(d, {STORE_JOURNAL_NAME!r}))\n"
        "print(MemoryStore(d).recover())\n"
    )
    out = run_python(script)
    assert out.returncode == 0, out.stderr
    assert "set aside" in out.stdout


def test_torn_last_line_is_still_an_ordinary_interrupted_step(tmp_path: Path) -> None:
    (tmp_path / STORE_JOURNAL_NAME).write_bytes(b'{"op": "wri')
    assert "is corrupt" not in (journal_problem(tmp_path) or "")
    assert MemoryStore(tmp_path).recover()[0].startswith("rolled back")
    assert not list(tmp_path.glob("*.corrupt-*"))


def test_doctor_names_the_corrupt_journal_with_the_fix(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    mdir = w.memory_dir_for(w.project)
    add_memory(mdir, "feedback_x.md")
    (mdir / STORE_JOURNAL_NAME).write_bytes(b"1\n")
    out = run_cli("doctor", "--cwd", str(w.project), "--home", str(w.home), home=w.home)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert "corrupt-journal" in out.stdout and "is corrupt" in out.stdout
    assert ".recover()" in out.stdout


# ------------------------------------------------------------------- class: catastrophic regex


def test_model_regex_runs_in_linear_time_on_the_extraction_grep(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("a" * 200_000 + "!\n", encoding="utf-8")
    runner = ToolRunner(tmp_path)
    for pattern in ("(a+)+$", "(a|a)*!x", "(a*)*b", "^(a|aa)+$"):
        outcome = runner.run("Grep", {"pattern": pattern, "path": str(tmp_path)})
        assert not outcome.is_error and outcome.content == "No matches found"


def test_model_regex_the_engine_cannot_run_is_an_error_result(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("abab\n", encoding="utf-8")
    runner = ToolRunner(tmp_path)
    for pattern in (r"(ab)\1", "a(?=b)", "(?<!x)a", "x" * 5000):
        outcome = runner.run("Grep", {"pattern": pattern, "path": str(tmp_path)})
        assert outcome.is_error and "GrepPatternError" in outcome.content
    ok = runner.run("Grep", {"pattern": "AB", "path": str(tmp_path), "-i": True})
    assert not ok.is_error and "abab" in ok.content


@pytest.mark.parametrize(
    "unit", ["[", "[a](", " ", "-", "|", "a/", "sha256-", "0", "a://"], ids=repr
)
def test_text_passes_stay_linear_on_long_runs(tmp_path: Path, unit: str) -> None:
    """A million characters of each run: quadratic passes would take hours (pytest-timeout fails them)."""
    run = unit * (1_000_000 // len(unit))
    parse_index(run)
    one_line(run)
    d = tmp_path / "memory"
    body = run[:250_000]
    write_memory(d, "project_long.md", name="long", description="long", body=body, now_ms=NOW_MS)
    (d / "MEMORY.md").write_text("- [Long](project_long.md) \u2014 long\n" + run[:900_000] + "\n")
    lint_memory_dir(d, now_ms=NOW_MS)
    # A file with no header is hooked by the heading it opens with, by the plan and the rebuild.
    (d / "opening_heading.md").write_text("# a" + run[:250_000] + "b\n", encoding="utf-8")
    plan_consolidation(d, now_ms=NOW_MS)
    plan_index_rebuild(d)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("unit", [" ", "\t", " a", "a:", " #"], ids=repr)
def test_a_header_line_holding_a_long_run_is_read_in_linear_time(tmp_path: Path, unit: str) -> None:
    """Attack round 27: a header past the 8 KB window is recovered line by line, and each line
    was matched by a `key: value` regex whose lazy value and trailing-blank run backtracked
    over every blank: one 250 KB line of spaces made `lint` of a single file take 355 s. Each
    route that reads a whole header (lint, the plan, the rebuild, the parser) must stay linear."""
    run = unit * (250_000 // len(unit))
    d = tmp_path / "memory"
    d.mkdir()
    (d / "user_long.md").write_text(
        f"---\ndescription: a{run}b\nname: long\ntype: user\n---\nbody\n", encoding="utf-8"
    )
    (d / "feedback_quoted.md").write_text(
        f'---\ndescription: "a"{run}b\nname: q\ntype: feedback\n---\nbody\n', encoding="utf-8"
    )
    parse_frontmatter(f"---\ndescription: a{run}b\n---\nbody\n")
    lint_memory_dir(d, now_ms=NOW_MS)
    plan_consolidation(d, now_ms=NOW_MS)
    plan_index_rebuild(d)


def test_team_save_of_long_runs_finishes_under_the_store_lock(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path)
    for i, unit in enumerate(["sha256-", "0", "a://", "-", "a@"]):
        body = unit * (200_000 // len(unit))
        store.save(
            f"Long {i}", "a long body", "project", body, scope="team", filename=f"project_{i}.md"
        )
    assert len(list((tmp_path / "team").glob("project_*.md"))) == 5


# ------------------------------------------------------------- class: a corrupt vector cache

# What a corrupt file, or one another program wrote, can hold where the cache keeps a vector
# (a blob of 384 float32) and a snippet (text): each is read back as missing, never used.
_HOSTILE_CACHE_ROWS = {
    "null": (None, None),
    "number": (5, 7.5),
    "wrong-type": ("text where bytes belong", b"\x00\xffbytes where text belongs"),
    "cut-or-huge": (b"\x00" * 7, "x " * (SNIPPET_MAX_CHARS // 2 + 1)),
    "not-finite": (np.full(384, np.nan, dtype=np.float32).tobytes(), ""),
}


@pytest.mark.parametrize("shape", sorted(_HOSTILE_CACHE_ROWS))
def test_a_corrupt_vector_cache_row_is_read_as_missing_by_every_recall_route(
    tmp_path: Path, shape: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    mem = tmp_path / "memory"
    write_memory(
        mem, "project_deploy.md", name="Deploys", description="deploys on Fridays", now_ms=NOW_MS
    )
    write_memory(mem, "user_tea.md", name="Tea", description="tea", type="user", now_ms=NOW_MS)
    cache = tmp_path / "cache"
    query = "when do we deploy"
    first = SemanticSelector(cache_dir=cache, progress=False)
    picked = first.select(query, scan_memory_files(mem))
    vec, snippet = _HOSTILE_CACHE_ROWS[shape]
    with sqlite3.connect(cache / CACHE_FILENAME) as db:
        db.execute("UPDATE vectors SET vec = ?", (vec,))
        db.execute("UPDATE snippets SET snippet = ?", (snippet,))
    again = SemanticSelector(cache_dir=cache, progress=False)
    assert again.select(query, scan_memory_files(mem)) == picked
    assert again.last_error is None
    monkeypatch.setenv("MEMDIR_NB_CACHE_DIR", str(cache))
    assert cli_main(["recall", str(mem), query]) == 0
    assert "project_deploy.md" in capsys.readouterr().out


# --------------------------------------------------------- class: a transcript of many records


def _many_turns(path: Path, turns: int) -> None:
    """A transcript of `turns` one-word prompts, each answered in one word."""
    lines, parent = [], None
    for i in range(turns):
        for role, uuid in (("user", f"u{i}"), ("assistant", f"a{i}")):
            content: object = "deploy?" if role == "user" else [{"type": "text", "text": "ok"}]
            record = {"type": role, "uuid": uuid, "parentUuid": parent, "sessionId": "s"}
            record |= {"timestamp": "2026-01-01T00:00:00Z", "cwd": "/w"}
            lines.append(json.dumps(record | {"message": {"role": role, "content": content}}))
            parent = uuid
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.timeout(120)
def test_replaying_many_turns_keeps_memory_bounded(tmp_path: Path) -> None:
    # The dry-run extractor kept every request, each holding the transcript up to its turn:
    # memory grew with the square of the turns (100,000 turns: 20 GB before it was stopped).
    mem = tmp_path / "memory"
    write_memory(mem, "project_deploy.md", name="Deploys", description="on Fridays", now_ms=NOW_MS)
    transcript = tmp_path / "s.jsonl"
    _many_turns(transcript, 3000)
    tracemalloc.start()
    try:
        replay = replay_session(transcript, mem, selector=LexicalSelector(), now_ms=NOW_MS)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(replay.turns) == 3000
    assert peak < 40_000_000, f"{peak / 1e6:.0f} MB"  # 13 MB; 83 MB before
