"""The bundled sample session: a Claude home with one recorded session, its subagent and its memory.

Sam, a backend developer on a fictional shop, works through eight turns: a CI timezone bug
(the agent reads a memory itself), a deadline worth remembering (the agent writes a memory
mid-session), a subagent search, a manual /compact, a pasted screenshot, a correction (an
Edit of a memory and an ``rm`` of a stale one, with a prompt queued while the agent worked),
an interrupted test run, a goodbye, and the recap the CLI shows Sam on coming back to the idle
session before closing it (an ``away_summary`` record). Bash mode (``!git status``) and built-in commands
(``/compact``, ``/exit``) sit between turns. The memory dir is left as it stands after the
session, with fixed mtimes, so a replay gives the same output on every run.

notebooks/data/sample_claude_home is this function's output (a test keeps the two equal).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.formats.session_model import timestamp_ms
from memdir_nb.spec.constants import ENTRYPOINT_NAME, PROJECT_MEMORY_DIRNAME
from memdir_nb.ui.demo.session_records import RecordWriter

SESSION_ID = "5b0f3c2e-7d41-4e8a-9c6b-2f1a0e9d8c7b"
AGENT_ID = "a71c0d9e4b2f38a65"
CWD = "/home/sam/src/shop"
PROJECT_KEY = "-home-sam-src-shop"
MEMORY = f"/home/sam/.claude/projects/{PROJECT_KEY}/memory"
START = "2026-05-12T09:00:00.000Z"
# What the CLI showed Sam on coming back to the idle session (our words, in the record's shape).
SAMPLE_RECAP = (
    "Fixed the checkout clock test (CI runs in UTC+0) and saved the 20 May release freeze; "
    "the full test run was stopped before it finished, so rerun it next."
)
# The replay's clock for turns without a time, and the notebook's "now".
SAMPLE_NOW_MS = 1_778_600_000_000.0  # 2026-05-12T16:53:20Z


def _memory(name: str, description: str, kind: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: {kind}\n---\n\n{body}\n"


CI_BEFORE = _memory(
    "CI runners and time zones",
    "CI runners run in GMT, laptops in local time; tests must not read the local clock",
    "project",
    "The CI runners are set to GMT. Tests that call datetime.now() without a zone pass on a "
    "laptop and fail on CI.\n\n**How to apply:** use the `frozen_clock` fixture in tests.",
)
CI_AFTER = CI_BEFORE.replace("run in GMT", "run in UTC+0").replace("set to GMT", "set to UTC+0")
STAGING = _memory(
    "Staging host",
    "the staging shop runs on staging-2.shop.internal",
    "reference",
    "Deploy previews go to staging-2.shop.internal.",
)
FREEZE = _memory(
    "Release freeze for the mobile launch",
    "no releases from 2026-05-20 until the mobile app launch is done",
    "project",
    "Release freeze from 2026-05-20 for the mobile launch (asked by Sam on 2026-05-12).\n\n"
    "**Why:** the launch team needs a stable API.\n**How to apply:** hold merges to main "
    "that change the public API; flag them instead.",
)
_ERRORS = "\n".join(
    f"- `E{1000 + i}`: payments sandbox error {i}; retry after {i % 7 + 1} s" for i in range(260)
)
MEMORIES_BEFORE: dict[str, tuple[str, str]] = {  # rel -> (text, mtime)
    "user_role.md": (
        _memory(
            "Sam's role",
            "Sam leads the backend team and prefers short answers",
            "user",
            "Sam leads backend; keep answers short.",
        ),
        "2026-02-10T10:00:00.000Z",
    ),
    "feedback_no_mocks.md": (
        _memory(
            "No mocks in integration tests",
            "integration tests must hit a real database, never mocks",
            "feedback",
            "A mocked test passed while the real migration failed.\n\n"
            "**How to apply:** use the docker Postgres fixture.",
        ),
        "2026-03-02T10:00:00.000Z",
    ),
    "project_ci_runners.md": (CI_BEFORE, "2026-04-14T10:00:00.000Z"),
    "reference_payments_sandbox.md": (
        _memory(
            "Payments sandbox",
            "the payments sandbox gateway, its test cards and where its key lives",
            "reference",
            "Gateway: https://sandbox.pay.example/v2. Test card 4000 0000 0000 0077. "
            "The key is in the team vault under payments/sandbox.",
        ),
        "2026-04-01T10:00:00.000Z",
    ),
    "reference_api_errors.md": (
        _memory(
            "Payments sandbox error codes",
            "every payments sandbox error code and its retry delay",
            "reference",
            _ERRORS,
        ),
        "2026-04-20T10:00:00.000Z",
    ),
    "project_staging_host.md": (STAGING, "2026-01-05T10:00:00.000Z"),
}


@dataclass(frozen=True)
class DemoSession:
    """Where the sample's parts are."""

    claude_home: Path
    transcript: Path
    subagent: Path
    memory_dir: Path


def _mem(rel: str) -> str:
    return f"{MEMORY}/{rel}"


def _turns_1_to_3(w: RecordWriter) -> None:
    w.prompt("The checkout tests fail on CI with a timezone error but pass on my laptop. Why?")
    read_test = w.tool_use("Read", {"file_path": f"{CWD}/tests/test_checkout.py"})
    read_mem = w.tool_use("Read", {"file_path": _mem("project_ci_runners.md")})
    w.response(
        [
            {"type": "thinking", "thinking": "Check the test and what we noted about CI."},
            {"type": "text", "text": "Reading the test and the CI note."},
            read_test,
            read_mem,
        ]
    )
    w.result(read_test, "     1\u2192def test_receipt_date():\n     2\u2192    assert ...")
    w.result(
        read_mem,
        CI_BEFORE,
        detail={
            "type": "text",
            "file": {"filePath": _mem("project_ci_runners.md"), "content": CI_BEFORE},
        },
    )
    edit = w.tool_use(
        "Edit",
        {
            "file_path": f"{CWD}/tests/test_checkout.py",
            "old_string": "datetime.now()",
            "new_string": "frozen_clock.now()",
        },
    )
    w.response([{"type": "text", "text": "The test reads the local clock."}, edit])
    w.result(edit, f"The file {CWD}/tests/test_checkout.py has been updated successfully.")
    w.response([{"type": "text", "text": "Fixed: the test now uses the frozen clock."}])
    w.system("turn_duration", durationMs=21000, isMeta=False)
    # bash mode between turns
    w.meta(
        "<local-command-caveat>Caveat: the lines below came from local commands.</local-command-caveat>"
    )
    w.user_text("<bash-input>git status --short</bash-input>")
    w.user_text("<bash-stdout> M tests/test_checkout.py</bash-stdout><bash-stderr></bash-stderr>")
    w.prompt("Remember this: we freeze releases from 20 May for the mobile launch.")
    write = w.tool_use("Write", {"file_path": _mem("project_release_freeze.md"), "content": FREEZE})
    w.response([write])
    w.result(
        write,
        f"File created successfully at: {_mem('project_release_freeze.md')}",
        detail={
            "type": "create",
            "filePath": _mem("project_release_freeze.md"),
            "content": FREEZE,
            "structuredPatch": [],
            "originalFile": None,
        },
    )
    w.response([{"type": "text", "text": "Saved as a project memory."}])
    w.system("turn_duration", durationMs=6000, isMeta=False)
    w.prompt("Which modules call the payments sandbox? Use an agent, I only want the list.")
    task = w.tool_use(
        "Task",
        {
            "description": "Find payments sandbox callers",
            "prompt": "List the modules that call the payments sandbox gateway.",
            "subagent_type": "Explore",
        },
    )
    w.response([task])
    report = "shop/payments/client.py and shop/checkout/pay.py call the sandbox gateway."
    w.result(
        task,
        report,
        detail={
            "status": "completed",
            "agentId": AGENT_ID,
            "content": [{"type": "text", "text": report}],
        },
    )
    w.response([{"type": "text", "text": "Two modules: payments/client.py and checkout/pay.py."}])
    w.system("turn_duration", durationMs=14000, isMeta=False)


def _compaction(w: RecordWriter) -> None:
    boundary = w.system(
        "compact_boundary",
        parent=None,
        content="Conversation compacted",
        isMeta=False,
        level="info",
        logicalParentUuid=w.last,
        compactMetadata={"trigger": "manual", "preTokens": 98000},
    )
    w.last = boundary
    w.user_text(
        "This session is being continued from a previous conversation that ran out of context. "
        "Summary: fixed the CI clock test, saved the release freeze, listed sandbox callers.",
        isCompactSummary=True,
        isVisibleInTranscriptOnly=True,
    )
    w.meta(
        "<local-command-caveat>Caveat: the lines below came from local commands.</local-command-caveat>"
    )
    w.user_text(
        "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>"
    )
    w.user_text("<local-command-stdout>Compacted</local-command-stdout>")


def _turns_4_to_7(w: RecordWriter) -> None:
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
    w.prompt(
        [
            {"type": "text", "text": "[Image #1] Is this the error the payments sandbox returns?"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}},
        ],
        imagePasteIds=[1],
    )
    w.meta("[Image: source: /home/sam/Pictures/checkout-error.png]")
    read_ref = w.tool_use("Read", {"file_path": _mem("reference_payments_sandbox.md")})
    read_err = w.tool_use("Read", {"file_path": _mem("reference_api_errors.md"), "limit": 40})
    w.response([read_ref, read_err])
    w.result(read_ref, "Gateway: https://sandbox.pay.example/v2 ...")
    w.result(read_err, "- `E1000`: payments sandbox error 0 ...")
    w.response([{"type": "text", "text": "Yes: E1042 is the sandbox's rate-limit error."}])
    w.system("turn_duration", durationMs=9000, isMeta=False)
    w.prompt("The staging note is stale, delete it. And the CI note should say UTC+0, not GMT.")
    read_st = w.tool_use("Read", {"file_path": _mem("project_staging_host.md")})
    w.response([read_st])
    w.result(
        read_st,
        STAGING,
        detail={
            "type": "text",
            "file": {"filePath": _mem("project_staging_host.md"), "content": STAGING},
        },
    )
    w.bookkeeping(
        "queue-operation", operation="enqueue", content="and check the feedback notes too"
    )
    edit = w.tool_use(
        "Edit",
        {
            "file_path": _mem("project_ci_runners.md"),
            "old_string": "run in GMT",
            "new_string": "run in UTC+0",
        },
    )
    w.response([edit])
    w.result(
        edit,
        f"The file {_mem('project_ci_runners.md')} has been updated successfully.",
        detail={
            "filePath": _mem("project_ci_runners.md"),
            "oldString": "run in GMT",
            "newString": "run in UTC+0",
            "originalFile": CI_BEFORE,
        },
    )
    w.bookkeeping("queue-operation", operation="remove", content="and check the feedback notes too")
    edit2 = w.tool_use(
        "Edit",
        {
            "file_path": _mem("project_ci_runners.md"),
            "old_string": "set to GMT",
            "new_string": "set to UTC+0",
        },
    )
    rm = w.tool_use(
        "Bash",
        {
            "command": f"rm {_mem('project_staging_host.md')}",
            "description": "Delete the stale note",
        },
    )
    w.response([edit2, rm])
    w.result(edit2, f"The file {_mem('project_ci_runners.md')} has been updated successfully.")
    w.result(rm, "", detail={"stdout": "", "stderr": "", "interrupted": False, "isImage": False})
    w.response([{"type": "text", "text": "Done; the feedback notes look current."}])
    w.system("turn_duration", durationMs=12000, isMeta=False)
    w.prompt("Run the whole test suite.")
    run = w.tool_use("Bash", {"command": "pytest -q", "description": "Run all tests"})
    w.response([run])
    w.result(run, "Exit code 137\n[Request interrupted by user for tool use]", is_error=True)
    w.interrupt(for_tool=True)


def sample_transcripts() -> tuple[str, str]:
    """The main transcript's text and the subagent transcript's text."""
    w = RecordWriter(SESSION_ID, CWD, START, seed="sample")
    w.bookkeeping("summary", summary="Checkout clock fix and release freeze", leafUuid=None)
    _turns_1_to_3(w)
    _compaction(w)
    _turns_4_to_7(w)
    w.prompt("Thanks, that's all for today.")
    w.response([{"type": "text", "text": "You're welcome."}])
    w.system("turn_duration", durationMs=2000, isMeta=False)
    # Sam comes back to the idle terminal before closing it: the CLI's recap (away_summary,
    # newer versions; a note of the replay, no turn)
    w.system("away_summary", content=SAMPLE_RECAP, isMeta=False)
    w.meta(
        "<local-command-caveat>Caveat: the lines below came from local commands.</local-command-caveat>"
    )
    w.user_text(
        "<command-name>/exit</command-name>\n<command-message>exit</command-message>\n<command-args></command-args>"
    )
    agent = RecordWriter(
        SESSION_ID,
        CWD,
        "2026-05-12T09:01:10.000Z",
        sidechain=True,
        agent_id=AGENT_ID,
        prompt_ids=False,
        seed="sample-agent",
    )
    agent.prompt("List the modules that call the payments sandbox gateway.")
    grep = agent.tool_use("Grep", {"pattern": "sandbox.pay.example", "path": CWD})
    read = agent.tool_use("Read", {"file_path": _mem("reference_payments_sandbox.md")})
    agent.response([grep, read], model="claude-haiku-4-5")
    agent.result(grep, "shop/payments/client.py\nshop/checkout/pay.py")
    agent.result(read, "Gateway: https://sandbox.pay.example/v2 ...")
    agent.response(
        [{"type": "text", "text": "shop/payments/client.py and shop/checkout/pay.py."}],
        model="claude-haiku-4-5",
    )
    return w.text(), agent.text()


def sample_memory_after() -> dict[str, tuple[str, str]]:
    """The memory dir as the session left it: rel path -> (text, ISO mtime)."""
    after = dict(MEMORIES_BEFORE)
    del after["project_staging_host.md"]
    after["project_ci_runners.md"] = (CI_AFTER, "2026-05-12T09:05:00.000Z")
    after["project_release_freeze.md"] = (FREEZE, "2026-05-12T09:00:45.000Z")
    index = "".join(f"- [{rel[:-3]}]({rel})\n" for rel in sorted(after))
    after[ENTRYPOINT_NAME] = (index, "2026-05-12T09:00:47.000Z")
    return after


def set_sample_mtimes(memory_dir: str | os.PathLike[str]) -> None:
    """Give the sample's memory files their fixed mtimes (git does not keep file times)."""
    for rel, (_, stamp) in sample_memory_after().items():
        ns = int((timestamp_ms(stamp) or 0) * 1_000_000)
        os.utime(Path(memory_dir) / rel, ns=(ns, ns))


def build_demo_session(target: str | os.PathLike[str]) -> DemoSession:
    """Write the sample Claude home under target (projects/<key>/...) and return its paths."""
    root = Path(os.path.abspath(os.fspath(target)))
    project = root / "projects" / PROJECT_KEY
    memory = project / PROJECT_MEMORY_DIRNAME
    agents = project / SESSION_ID / "subagents"
    memory.mkdir(parents=True, exist_ok=True)
    agents.mkdir(parents=True, exist_ok=True)
    main, sub = sample_transcripts()
    transcript = project / f"{SESSION_ID}.jsonl"
    transcript.write_text(main, encoding="utf-8")
    subagent = agents / f"agent-{AGENT_ID}.jsonl"
    subagent.write_text(sub, encoding="utf-8")
    # as 2.1.x writes it: the agent's type and the description the Task call gave (real38)
    (agents / f"agent-{AGENT_ID}.meta.json").write_text(
        '{"agentType": "Explore", "description": "Find payments sandbox callers", '
        '"spawnDepth": 1}\n',
        encoding="utf-8",
    )
    for rel, (text, _) in sample_memory_after().items():
        (memory / rel).write_text(text, encoding="utf-8")
    set_sample_mtimes(memory)
    return DemoSession(root, transcript, subagent, memory)
