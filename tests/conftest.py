"""Fixtures shared by every test suite."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import settings

from memdir_nb.home.config import MemdirConfig
from memdir_nb.storage.store import MemoryStore
from memdir_nb.ui.demo import build_demo_memory_dir
from memdir_nb.ui.demo.session_records import RecordWriter
from tests.support import NOW, AttackTree, build_attack_tree
from tests.support.messages_api import MessagesAPIServer
from tests.support.unix_socket import unix_socket_at

# Hypothesis's per-example deadline (200 ms by default) is a timing assertion: with the suite on
# every core, a busy machine (load 6 on 2 cores) failed the secret-shape search on it. Speed is in
# benchmarks/, so no property test has a deadline; a real hang is still stopped by the timeout.
settings.register_profile("memdir_nb", deadline=None)
settings.load_profile("memdir_nb")

# ---------------------------------------------------------------------------------------------
# branch realdirs: builders of memory dirs shaped like the ones published in public repositories
# (see docs/lint_precision.md for the shapes). All text here is written for these tests.

DAY_S = 86_400


def _put(path: Path, text: str, age_days: float = 0.0) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    when = time.time() - age_days * DAY_S
    os.utime(path, (when, when))
    return path


def build_folder_blocker(tmp_path: Path, kind: str) -> Path:
    """tmp_path/home made as something a memory dir below it can never be made in: "a FIFO",
    "a symlink loop", "a regular file" or "a symlink to a path that does not exist" (attack40's blockers)."""
    blocker = tmp_path / "home"
    if kind == "a FIFO":
        os.mkfifo(blocker)
    elif kind == "a symlink loop":
        blocker.symlink_to(blocker)
    elif kind == "a regular file":
        blocker.write_text("not a folder\n", encoding="utf-8")
    elif kind == "a symlink to a path that does not exist":
        blocker.symlink_to(tmp_path / "gone")
    else:
        raise ValueError(f"no blocker of kind {kind!r}")
    return blocker


def nested_memory(name: str, description: str, type_: str, body: str, *, session: str) -> str:
    """A memory whose type sits under `metadata:` with node_type and an originSessionId."""
    return (
        f"---\nname: {name}\ndescription: {description}\nmetadata: \n  node_type: memory\n"
        f"  type: {type_}\n  originSessionId: {session}\n  modified: 2026-09-08T10:00:00.000Z\n"
        f"---\n\n{body}\n"
    )


def flat_memory(name: str, description: str, type_: str, body: str) -> str:
    """A memory in the spec's shape: name, description and type at the top level."""
    return f"---\nname: {name}\ndescription: {description}\ntype: {type_}\n---\n\n{body}\n"


def build_nested_dir(root: Path) -> Path:
    """Every file nests its type under metadata:, as current Claude Code writes them."""
    _put(
        root / "feedback_no_force_push.md",
        nested_memory(
            "No force pushes",
            "Never force-push shared branches; open a revert PR instead",
            "feedback",
            "Force pushes on main are refused.\n\n**Why:** a rewrite lost a teammate's work.\n\n"
            "**How to apply:** revert with a new commit.",
            session="0b6c1d0e-1111-4a2b-9c3d-000000000001",
        ),
        3,
    )
    _put(
        root / "project_flaky_outbox_test.md",
        nested_memory(
            "Flaky outbox ordering test",
            "The outbox ordering integration test depends on a sleep and fails at random",
            "project",
            "It races two threads.\n\n**Why:** measured on 2026-09-08.\n\n"
            "**How to apply:** rerun once before treating it as a regression.",
            session="0b6c1d0e-1111-4a2b-9c3d-000000000002",
        ),
        10,
    )
    _put(
        root / "reference_price_tables.md",
        nested_memory(
            "Where van price tables live",
            "Which manufacturers publish dimension tables and on which page of their price lists",
            "reference",
            "Most put them on pages two to five.",
            session="0b6c1d0e-1111-4a2b-9c3d-000000000003",
        ),
        40,
    )
    _put(
        root / "MEMORY.md",
        "- [No force pushes](feedback_no_force_push.md) — revert instead of rewriting main\n"
        "- [Flaky outbox test](project_flaky_outbox_test.md) — rerun once before blaming a change\n"
        "- [Van price tables](reference_price_tables.md) — which page holds the dimensions\n",
    )
    return root


def pinned_memory(name: str, description: str, body: str, *, pinned: bool, session: str) -> str:
    """A memory as Claude Code stamps it when it writes `pinned:` (from September 2026): a quoted description,
    `metadata:` (with its trailing space) holding node_type, a `pinned:` flag, originSessionId
    and modified, and no type anywhere."""
    return (
        f'---\nname: {name}\ndescription: "{description}"\nmetadata: \n  node_type: memory\n'
        f"  pinned: {str(pinned).lower()}\n  originSessionId: {session}\n"
        f"  modified: 2026-09-20T05:21:43.657Z\n---\n\n{body}\n"
    )


def build_pinned_typeless_dir(root: Path) -> Path:
    """Three memories in the pinned, typeless shape (one pinned: true), and one older-shape
    memory whose nested metadata lost its type (the model left it out of a typed template)."""
    for i, (name, description, pinned) in enumerate(
        [
            ("a-plan-changes-nothing", "asked for a plan, ask before any install or build", False),
            ("no-retry-knobs", "a reported fault gets fixed outright, never behind a flag", False),
            ("never-a-clock-floor", "the owner forbids a clock floor anywhere in the app", True),
        ]
    ):
        body = f"# {name.replace('-', ' ').capitalize()}\n\nSaid by the owner on 2026-09-1{i}."
        session = f"5c1f0a2e-2222-4b3c-8d4e-00000000000{i}"
        _put(
            root / f"{name}.md",
            pinned_memory(name, description, body, pinned=pinned, session=session),
        )
    _put(
        root / "kiln-firing-days.md",
        "---\nname: kiln-firing-days\ndescription: the kiln is fired on Tuesdays and Fridays\n"
        "metadata:\n  node_type: memory\n  originSessionId: 5c1f0a2e-2222-4b3c-8d4e-000000000009\n"
        "---\n\nTuesdays and Fridays.\n",
    )
    _put(
        root / "MEMORY.md",
        "- [A plan changes nothing](a-plan-changes-nothing.md) — ask before builds\n"
        "- [No retry knobs](no-retry-knobs.md) — fix faults outright\n"
        "- [Never a clock floor](never-a-clock-floor.md) — none anywhere\n"
        "- [Kiln days](kiln-firing-days.md) — Tuesdays and Fridays\n",
    )
    return root


def build_index_variants_dir(root: Path) -> Path:
    """An index written by people and models: links after words, backticks, ./, headings, team/."""
    for stem, type_ in (
        ("see_link", "feedback"),
        ("see_backtick", "project"),
        ("dot_slash", "reference"),
        ("numbered", "user"),
        ("under_heading", "project"),
        ("table_row", "reference"),
    ):
        _put(
            root / f"{stem}.md",
            flat_memory(
                stem.replace("_", " "),
                f"How the {stem.replace('_', ' ')} index line is written",
                type_,
                "**Why:** seen in the wild.\n\n**How to apply:** keep it recognised.",
            ),
        )
    _put(
        root / "team" / "shared_runbook.md",
        flat_memory(
            "Shared runbook",
            "Where the team's release runbook lives",
            "reference",
            "In the wiki.",
        ),
    )
    _put(
        root / "MEMORY.md",
        "# Memory Index\n\n"
        "<!-- one line per file, e.g. - [Title](example.md) — hook -->\n"
        "- See [see_link.md](see_link.md) — written after a leading word\n"
        "- See `see_backtick.md` — a backticked file name\n"
        "* [Dot slash](./dot_slash.md) – star marker and ./ prefix\n"
        "1. [Numbered](numbered.md): numbered list\n\n"
        "## Project\n"
        "- [Under a heading](under_heading.md) — below a heading\n\n"
        "| File | Hook |\n|---|---|\n| [Table row](table_row.md) | in a table |\n\n"
        "- [Team runbook](team/shared_runbook.md) — a team file from the private index\n"
        "Remember to keep this file short.\n",
    )
    return root


LANG_MEMORIES = {
    "zh": ("部署流程", "生产环境部署之前必须先在预发布环境验证数据库迁移", "数据库迁移 预发布环境"),
    "ja": (
        "テスト方針",
        "結合テストでは本物のデータベースを使いモックは使わない",
        "データベース テスト",
    ),
    "ko": ("배포 규칙", "금요일 오후에는 운영 서버 배포를 하지 않는다", "운영 서버 배포"),
    "ru": (
        "Правила ревью",
        "Каждый пулреквест проверяют два человека перед слиянием",
        "ревью слиянием",
    ),
    "de": (
        "Überprüfung",
        "Jede Änderung an der Datenbankstruktur braucht eine Rücksprache mit Jürgen",
        "Datenbankstruktur Rücksprache",
    ),
}


def build_multilingual_dir(root: Path) -> Path:
    """One memory per language (Chinese, Japanese, Korean, Russian, German), all indexed."""
    lines = []
    for lang, (name, description, _query) in LANG_MEMORIES.items():
        _put(
            root / f"rule_{lang}.md",
            flat_memory(name, description, "reference", f"{description}。"),
        )
        lines.append(f"- [{name}](rule_{lang}.md) — {description}\n")
    _put(root / "MEMORY.md", "".join(lines))
    return root


def build_private_only_dir(root: Path) -> Path:
    """An ordinary private memory dir: a few spec-shaped memories and their index."""
    _put(
        root / "user_role.md",
        flat_memory("Role", "The user is a data engineer who reads Go", "user", "Data engineer."),
        2,
    )
    _put(
        root / "feedback_small_prs.md",
        flat_memory(
            "Small PRs",
            "Keep pull requests under four hundred lines",
            "feedback",
            "Split big changes.\n\n**Why:** reviews stall.\n\n**How to apply:** split by layer.",
        ),
        12,
    )
    _put(
        root / "MEMORY.md",
        "- [Role](user_role.md) — data engineer who reads Go\n"
        "- [Small PRs](feedback_small_prs.md) — under four hundred lines\n",
    )
    return root


def build_team_only_dir(root: Path) -> Path:
    """Nothing private: only a team/ folder with its own index."""
    _put(
        root / "team" / "project_freeze.md",
        flat_memory(
            "Release freeze",
            "No merges to main during the release freeze week",
            "project",
            "Freeze starts 2026-12-14.\n\n**Why:** the store review.\n\n**How to apply:** queue PRs.",
        ),
        5,
    )
    _put(root / "team" / "MEMORY.md", "- [Release freeze](project_freeze.md) — no merges\n")
    return root


def build_no_index_dir(root: Path) -> Path:
    """Memories but no MEMORY.md (a skip-index dir, or an index lost in a copy)."""
    build_private_only_dir(root)
    (root / "MEMORY.md").unlink()
    return root


def build_exported_dir(root: Path) -> Path:
    """A memory dir pushed to a repository: README.md and LICENSE sit next to the memories."""
    build_private_only_dir(root)
    _put(root / "README.md", "# My memory export\n\nSnapshot of my assistant's memory.\n")
    _put(root / "LICENSE", "MIT License\n")
    _put(root / "LICENSE-NOTES.md", "Licence still to be decided.\n")
    return root


def build_project_local(root: Path) -> Path:
    """A repository with a project-local .claude/memory/ folder; returns that folder."""
    _put(root / "README.md", "# Some project\n")
    memory = root / ".claude" / "memory"
    build_private_only_dir(memory)
    return memory


def build_logs_dir(root: Path) -> Path:
    """A memory dir with daily logs under logs/YYYY/MM/ next to its memories."""
    build_private_only_dir(root)
    _put(
        root / "logs" / "2026" / "09" / "2026-09-07.md",
        "# 2026-09-07\n\n- 10:02 looked at the flaky test\n",
    )
    return root


def build_many_files_dir(root: Path, n: int = 500) -> Path:
    """n spec-shaped memories with an index listing all of them."""
    types = ("user", "feedback", "project", "reference")
    lines = []
    for i in range(n):
        t = types[i % 4]
        _put(
            root / f"{t}_note_{i:04d}.md",
            flat_memory(f"Note {i}", f"Generated note number {i} about topic {i % 37}", t, "Body."),
            i % 400,
        )
        lines.append(f"- [Note {i}]({t}_note_{i:04d}.md) — topic {i % 37}\n")
    _put(root / "MEMORY.md", "".join(lines))
    return root


_SERVICES = (
    "billing", "search", "checkout", "mailer", "gateway", "reviews", "payments", "catalog",
    "auth", "reports", "uploads", "notifications",
)  # fmt: skip
_TOPICS = (
    ("rate limits", "The {s} API allows 300 requests a minute per key; bursts queue for 2 s."),
    ("backups", "Snapshots of the {s} database run at 02:00 and are kept for 14 days."),
    ("on-call", "Pages for {s} go to the platform rota first, then to the team lead."),
    ("deploys", "The {s} service ships from the release branch through the blue-green pool."),
)


def build_large_ops_dir(root: Path, n: int = 48) -> Path:
    """n memories (more than recall's body shortlist leaves whole) about a dozen services.

    Every body holds a few sentences, so each has several windows. One memory, the on-call
    rotation's running log, holds a fact far into its body that its name and description never
    mention: the poller's sleep interval changed to 10 minutes.
    """
    for i in range(n - 1):
        service = _SERVICES[i % len(_SERVICES)]
        topic, fact = _TOPICS[(i // len(_SERVICES)) % len(_TOPICS)]
        body = " ".join(
            [fact.format(s=service)]
            + [
                f"Note {k} on {service} {topic}: checked during review week {k + i}."
                for k in range(8)
            ]
        )
        _put(
            root / f"project_{service}_{topic.replace(' ', '_').replace('-', '_')}_{i}.md",
            flat_memory(
                f"{service} {topic} {i}", f"How {service} handles {topic}", "project", body
            ),
            i % 30,
        )
    filler = " ".join(
        f"Week {k}: the nightly jobs finished and the dashboards stayed green." for k in range(30)
    )
    _put(
        root / "project_rotation_log.md",
        flat_memory(
            "Rotation log",
            "Running notes from the infrastructure rotation",
            "project",
            filler + " We changed the poller's sleep interval to 10 minutes after the incident.",
        ),
        1,
    )
    return root


def build_special_files_dir(root: Path) -> Path:
    """A private dir that also holds a named pipe and a socket with memory-like names."""
    build_private_only_dir(root)
    os.mkfifo(root / "project_pipe.md")
    with unix_socket_at(root / "reference_socket.md"):  # the socket file stays after the close
        pass
    return root


def build_untyped_past_cap_dir(root: Path, n: int = 230) -> Path:
    """A folder of plain Markdown reports (no headers) past the scan's 200-file cap, a few in
    a subfolder, and a MEMORY.md that is a long prose log rather than an index."""
    for i in range(n):
        folder = root / "old" if i % 10 == 0 else root
        _put(
            folder / f"REPORT_{i:03d}.md",
            f"# Weekly report {i}\n\nWhat the crawler fetched in week {i}.\n",
            200 + i % 7,
        )
    _put(
        root / "MEMORY.md", "".join(f"Day {d}: crawled the venue list again.\n" for d in range(240))
    )
    return root


def build_hand_written_headers_dir(root: Path) -> Path:
    """Headers in the shapes found in published dirs (2026-11-28): a description that starts with a
    date or holds an unquoted ': ', escaped quotes, dates and tag lists beside a nested type, a
    block list of wiki links, CRLF line ends, a byte-order mark, a type outside the four, and a
    note with no header at all."""
    files = {
        "project_release_fix.md": flat_memory(
            "Release fix",
            "2026-05-04 fix for the flaky login test in the release pipeline",
            "project",
            "The retry wrapper was removed; the test now waits for the session cookie.",
        ),
        "feedback_merge_steps.md": flat_memory(
            "Merge steps",
            "Before merging: run the linters, then the whole test suite",
            "feedback",
            "**Why:** a merge broke main twice in one week.",
        ),
        "reference_dump_bucket.md": (
            '---\nname: Dump bucket\ndescription: "The \\"staging\\" bucket keeps nightly dumps"\n'
            "type: reference\n---\n\nDumps older than a week are deleted.\n"
        ),
        "project_roadmap.md": (
            "---\nname: Roadmap\ndescription: What ships this quarter and in which order\n"
            "tags: [roadmap, planning]\nmetadata:\n  type: project\n  created: 2026-03-02\n"
            "  updated: 2026-06-22\n---\n\nSearch first, then the billing page.\n"
        ),
        "user_reading_list.md": (
            "---\nname: Reading list\ndescription: Papers the user wants summarised\ntype: user\n"
            "related:\n  - [[retrieval-notes]]\n  - [[eval-notes]]\n---\n\nStart with the survey.\n"
        ),
        "feedback_windows_notes.md": flat_memory(
            "Windows notes", "Paths on the build box use backslashes", "feedback", "Quote them."
        ).replace("\n", "\r\n"),
        "reference_bom.md": "\ufeff"
        + flat_memory("Team wiki", "Where the team wiki lives", "reference", "On the intranet."),
        "project_workflow.md": flat_memory(
            "Deploy workflow", "How a deploy is rolled out", "workflow", "Canary first."
        ),
        "scratch_notes.md": "# Scratch\n\nNo header here, just notes.\n",
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    index = "".join(f"- [{n}]({n}) — a hand-written header\n" for n in sorted(files))
    _put(root / "MEMORY.md", index)
    return root


def build_agent_memory_parent_dir(root: Path) -> Path:
    """.claude/agent-memory/: one memory dir per agent, each with its own MEMORY.md, none above.

    Returns the agent-memory/ folder. The tester agent has an index and no memory yet.
    """
    parent = root / "agent-memory"
    _put(
        parent / "reviewer" / "feedback_review_tone.md",
        flat_memory(
            "Review tone",
            "Point at the line and suggest the change; no rhetorical questions",
            "feedback",
            "Reviews name the line.\n\n**Why:** asked for it.\n\n**How to apply:** every review.",
        ),
    )
    _put(
        parent / "reviewer" / "MEMORY.md",
        "- [Review tone](feedback_review_tone.md) — name the line, suggest the change\n",
    )
    _put(parent / "tester" / "MEMORY.md", "# Tester memory\n")
    return parent


def build_agent_beside_index_dir(root: Path) -> Path:
    """agent-memory/ holding a MEMORY.md of its own beside agents' folders (as an agent writes
    its index one level too high): the planner agent keeps its own index; the builder has none.

    Returns the agent-memory/ folder.
    """
    parent = root / "agent-memory"
    _put(
        parent / "planner" / "project_release_train.md",
        flat_memory(
            "Release train",
            "Releases leave every second Tuesday; a missed cut waits for the next train",
            "project",
            "Cut at noon.\n\n**Why:** QA needs a day.\n\n**How to apply:** plan merges by Monday.",
        ),
    )
    _put(
        parent / "planner" / "MEMORY.md",
        "# Planner\n\n- [Release train](project_release_train.md) — fortnightly Tuesday cut\n",
    )
    _put(
        parent / "builder" / "reference_cache_host.md",
        flat_memory(
            "Cache host",
            "The build cache lives on the shared runner pool, not on laptops",
            "reference",
            "Point the cache at the runner pool.",
        ),
    )
    _put(
        parent / "MEMORY.md",
        "# Builder notes\n\n- [Cache host](reference_cache_host.md) — runner pool\n",
    )
    return parent


def build_agent_root_files_dir(root: Path) -> Path:
    """agent-memory/ holding memory files of its own and an index listing them, beside agents'
    folders that keep their own indexes (realdata33: a published root of three memories beside
    seven agent folders). Claude Code loads each agent's index, never the root's.

    Returns the agent-memory/ folder.
    """
    parent = root / "agent-memory"
    for rel, name, hook in (
        ("project_wheel_slots.md", "Wheel slots", "Wheels are booked in 90 minute slots"),
        ("project_house_glazes.md", "House glazes", "Six house glazes, one shelf each"),
        ("tester/feedback_frozen_clock.md", "Frozen clock", "Booking tests freeze the clock"),
    ):
        body = f"{hook}.\n\n**Why:** asked for it.\n\n**How to apply:** every change."
        _put(parent / rel, flat_memory(name, hook, "project", body))
    _put(
        parent / "tester" / "MEMORY.md",
        "- [Frozen clock](feedback_frozen_clock.md) — freeze time in booking tests\n",
    )
    _put(
        parent / "MEMORY.md",
        "# Agent memory\n\n- [Wheel slots](project_wheel_slots.md) — 90 minutes\n"
        "- [House glazes](project_house_glazes.md) — six, one shelf each\n",
    )
    return parent


def build_agent_root_unlisted_dir(root: Path) -> Path:
    """agent-memory/ read as one memory dir (a memory of its own, listed by the root's index)
    beside an agent's folder whose own index lists one of its two memories (real35: roots with
    an index of their own over agents' folders). Claude Code loads planner/MEMORY.md for the
    planner, never the root's: the unlisted freeze window belongs in planner/'s index.

    Returns the agent-memory/ folder.
    """
    parent = root / "agent-memory"
    for rel, name, hook in (
        ("project_kiln_rota.md", "Kiln rota", "The kiln is loaded by the Tuesday volunteer"),
        (
            "planner/project_release_train.md",
            "Release train",
            "Releases leave every second Tuesday",
        ),
        ("planner/project_freeze_window.md", "Freeze window", "No merges in the release week"),
    ):
        body = f"{hook}.\n\n**Why:** asked for it.\n\n**How to apply:** every release."
        _put(parent / rel, flat_memory(name, hook, "project", body))
    _put(
        parent / "planner" / "MEMORY.md",
        "# Planner\n\n- [Release train](project_release_train.md) \u2014 fortnightly Tuesdays\n",
    )
    _put(
        parent / "MEMORY.md",
        "# Agent memory\n\n- [Kiln rota](project_kiln_rota.md) \u2014 Tuesdays\n",
    )
    return parent


def build_repo_root_targets_dir(root: Path) -> Path:
    """A memory/ folder whose index names its files from the repository root (`memory/SOUL.md`),
    and whose files have no frontmatter, only an opening heading (or not even that).

    Returns the memory/ folder.
    """
    mem = root / "memory"
    _put(mem / "SOUL.md", "# Jin \u2014 Identity & *Soul*\n\nWho the assistant is.\n")
    _put(mem / "JOE.md", "## Joe \u2014 **Profile** ##\n\nHow Joe likes to work.\n")
    _put(mem / "NOTES.md", "Loose notes first.\n\n# A heading further down\n")
    _put(
        mem / "MEMORY.md",
        "# Memory\n\n"
        "- `memory/SOUL.md` \u2014 identity\n"
        "- [Joe](memory/JOE.md) \u2014 profile\n"
        "- [Gone](memory/GONE.md) \u2014 deleted long ago\n",
    )
    return mem


def build_names_besides_entries_dir(root: Path) -> Path:
    """An index that names some of its files past any line's entry, as published indexes do:
    a second link on an entry line, a table whose last column holds backticked file names, and
    a "See `x.md` for ..." sentence; plus prose naming a file that is not there. Every memory
    file is named somewhere, so none is missing from the index.
    """
    for name, title in (
        ("desktop.md", "Desktop lifecycle"),
        ("keyboard.md", "Keyboard wrapped"),
        ("deploy.md", "Deploy steps"),
        ("bugs.md", "Bug history"),
        ("sse.md", "SSE investigation"),
    ):
        _put(
            root / name,
            f"---\nname: {title}\ndescription: {title.lower()} notes\ntype: project\n---\n"
            f"{title} body.\n",
        )
    _put(
        root / "MEMORY.md",
        "# Memory\n\n"
        "- [Desktop lifecycle](desktop.md) \u2014 open, focus, close ([kbd](keyboard.md))\n\n"
        "| Area | File |\n|---|---|\n| Deploy steps | `deploy.md` |\n| Debugging | `bugs.md` |\n\n"
        "- See `sse.md` for the detailed investigation (Feb 2026)\n"
        "- The old `notes/ARCHIVE.md` was folded into the repository docs.\n",
    )
    return root


def build_latin1_index_dir(root: Path) -> Path:
    """A dir an older editor saved in Latin-1: its MEMORY.md and one memory are not UTF-8 (an
    accented word as one byte), beside a memory in UTF-8. A save must refuse to rewrite the
    index, and every view must still show the rest.
    """
    _put(
        root / "feedback_review_tone.md",
        flat_memory(
            "Review tone",
            "Code review comments stay short and name the fix",
            "feedback",
            "One line per comment.\n\n**Why:** long reviews went unread.\n\n"
            "**How to apply:** every review.",
        ),
    )
    latin1 = root / "project_caf\u00e9_menu.md"
    latin1.write_bytes(
        "---\nname: Menu du caf\u00e9\ndescription: Le menu change chaque lundi\n"
        "type: project\n---\n\nLe caf\u00e9 ouvre \u00e0 huit heures.\n".encode("latin-1")
    )
    (root / "MEMORY.md").write_bytes(
        "# M\u00e9moire\n\n- [Review tone](feedback_review_tone.md) - short comments\n"
        "- [Menu du caf\u00e9](project_caf\u00e9_menu.md) - lundi\n".encode("latin-1")
    )
    return root


def build_bad_files_dir(root: Path) -> Path:
    """A private-only dir beside every kind of bad file a copied or synced dir collects: a binary
    memory, a Latin-1 one, one with no header, one whose header never closes, NUL bytes, an
    empty file, a dangling symlink, a symlink loop, a folder and a named pipe with memory
    names; a MEMORY.md past the store's read cap, a team/MEMORY.md that is not text, and a
    `logs` link to nowhere. Every view must still show the good memories, and a notebook that
    writes must still write (twenty-ninth session: 01, 05 and 07 did not).
    """
    build_private_only_dir(root)
    (root / "project_binary.md").write_bytes(bytes(range(256)) * 64)
    (root / "user_latin1.md").write_bytes(
        flat_memory("Caf\u00e9", "Le caf\u00e9 du coin", "user", "Cr\u00e8me").encode("latin-1")
    )
    _put(root / "reference_no_header.md", "Just a note with no header at all.\n")
    _put(root / "project_open_header.md", "---\nname: open\ntype: project\n\nnever closed\n")
    (root / "feedback_nul.md").write_bytes(b"---\nname: nul\x00\ntype: feedback\n---\n\x00\n")
    _put(root / "user_empty.md", "")
    os.symlink(root / "nowhere.md", root / "project_dangling.md")
    os.symlink("loop_b.md", root / "loop_a.md")
    os.symlink("loop_a.md", root / "loop_b.md")
    (root / "project_folder.md").mkdir()
    os.mkfifo(root / "project_fifo.md")
    index = (root / "MEMORY.md").read_text(encoding="utf-8")
    filler = "".join(f"- [Old note {i}](old_{i:05d}.md) \u2014 {'x' * 90}\n" for i in range(12_000))
    _put(root / "MEMORY.md", index + filler)  # about 1.3 MB: past STORE_READ_MAX_BYTES
    (root / "team").mkdir()
    (root / "team" / "MEMORY.md").write_bytes(b"\xff\xfe\x00binary team index\x00\x01")
    os.symlink(root / "gone_logs", root / "logs")
    return root


def slug_memory(name: str, description: str, type_: str, body: str, *, extra: str = "") -> str:
    """A memory in the shape Claude Code's memory prompt of late 2026 asks for: a kebab-case
    `name:` slug, the type under `metadata:`, and `[[name]]` links to related memories in the body
    (extra: more header lines, such as a `related:` list of links)."""
    return (
        f"---\nname: {name}\ndescription: {description}\nmetadata:\n  node_type: memory\n"
        f"  type: {type_}\n{extra}---\n\n{body}\n"
    )


def build_wikilinked_dir(root: Path) -> Path:
    """Memories that link each other with `[[name]]` (realdata32): by the slug, by a file's stem
    and by the stem with hyphens (the three forms a published dir's links take), with a label,
    from a `related:` header list, and to a memory not written yet (which the
    prompt allows: it marks one worth writing later). Two are near-duplicates that a dream
    merges, and the older one, `kiln-schedule`, is the one the others link."""
    schedule = (
        "The studio kiln fires to cone 6, holds fifteen minutes at peak, then cools at 150F an "
        "hour down to 1500F.\n\n**Why:** a fast cool crazed the celadon batch.\n\n"
        "**How to apply:** start any new kiln program from this one."
    )
    _put(
        root / "project_kiln_schedule.md",
        slug_memory(
            "kiln-schedule",
            "Cone 6 firing schedule with a fifteen minute hold at peak and a slow cool",
            "project",
            schedule,
        ),
        9,
    )
    _put(
        root / "project_kiln_firing.md",
        slug_memory(
            "kiln-firing",
            "Cone 6 firing schedule with a fifteen minute hold at peak and a slow cool",
            "project",
            schedule + "\n\nCheck the elements every forty firings.",
        ),
        2,
    )
    _put(
        root / "reference_glaze_sheet.md",
        slug_memory(
            "glaze-sheet",
            "The tested cone 6 glaze recipes are on the studio's shared sheet",
            "reference",
            "Tab 'cone 6'. Celadon needs the slow cool of [[kiln-schedule]]; tenmoku too "
            "([[kiln-schedule|the firing notes]]). Supplier details: [[clay-supplier]].",
            extra='  related:\n    - "[[kiln-schedule]]"\n',
        ),
        5,
    )
    _put(
        root / "feedback_short_answers.md",
        slug_memory(
            "short-answers",
            "Keep answers to a few lines; the user reads them on a phone at the wheel",
            "feedback",
            "Lead with the answer.\n\n**Why:** read on a phone between throws.\n\n"
            "**How to apply:** details only when asked; for firing questions quote "
            "[[project_kiln_schedule]] and [[glaze-sheet#cone 6]] (cooling: "
            "[[project-kiln-schedule]]).",
        ),
        4,
    )
    _put(
        root / "MEMORY.md",
        "- [Kiln schedule](project_kiln_schedule.md) — cone 6 with a fifteen minute hold\n"
        "- [Kiln firing](project_kiln_firing.md) — cone 6, elements every forty firings\n"
        "- [Glaze sheet](reference_glaze_sheet.md) — where the tested recipes are\n"
        "- [Short answers](feedback_short_answers.md) — a few lines, read on a phone\n",
    )
    return root


def build_linked_by_name_dir(root: Path) -> Path:
    """A memory whose `name:` (`firing-calendar`) is none of its file's stem forms, linked by that
    name from two memories (once in other capitals) and by its bare stem from a third (keep35):
    a new `name:` strands the first two links, never the third."""
    _put(
        root / "project_kiln_schedule.md",
        slug_memory(
            "firing-calendar", "When the studio kiln fires", "project", "Bisque on Tuesdays."
        ),
        3,
    )
    for stem, link in (
        ("feedback_glaze", "[[firing-calendar]]"),
        ("reference_shelf", "[[Firing-Calendar]]"),
        ("user_potter", "[[kiln-schedule]]"),
    ):
        _put(root / f"{stem}.md", slug_memory(stem, stem, stem.split("_")[0], f"See {link}."), 2)
    return root


def build_wikilinked_scopes_dir(root: Path) -> Path:
    """The wikilinked dir with team memories, for where a link finds its memory (links33): a team
    memory linking a private one (its teammates do not have it) and a team one, a private memory
    linking a team one, a link in other capitals, one to a memory not written yet, and `[[`
    that is no link (shell tests in a fence, in a code span and in prose, a pandas subscript)."""
    build_wikilinked_dir(root)
    _put(
        root / "team" / "project_release_freeze.md",
        slug_memory(
            "release-freeze",
            "No kiln orders go out in the week before the spring sale",
            "project",
            "Orders pause from 1 to 8 May 2027.\n\n**Why:** the kiln runs the sale stock; see "
            "[[kiln-firing]] and [[team-style]].\n\n**How to apply:** check the date first; "
            'the deploy guard is `[[ -n "$FREEZE" ]]`, and the script says '
            "if [[ -d build ]]; then skip.\n\n```sh\n[[ -f orders.lock ]] && exit 1\n```",
        ),
        3,
    )
    _put(
        root / "team" / "feedback_team_style.md",
        slug_memory(
            "team-style",
            "Answers for the studio team stay short and name the kiln program",
            "feedback",
            "Name the program.\n\n**Why:** three people run the kiln.\n\n**How to apply:** "
            "link the schedule, as [[release-freeze]] does.",
        ),
        3,
    )
    _put(
        root / "project_ci_notes.md",
        slug_memory(
            "ci-notes",
            "The order site's CI checks the freeze before it deploys",
            "project",
            "CI reads [[release-freeze]] and the firing notes in [[Kiln-Firing]]; the steps "
            'go in [[ci-runbook]] once written. Columns: df[["order", "date"]].\n\n'
            "**Why:** a deploy in the freeze broke the sale.\n\n**How to apply:** run it first.",
        ),
        1,
    )
    _put(
        root / "team" / "MEMORY.md",
        "- [Release freeze](project_release_freeze.md) — no orders the week before the sale\n"
        "- [Team style](feedback_team_style.md) — short, name the program\n",
    )
    index = (root / "MEMORY.md").read_text(encoding="utf-8")
    _put(root / "MEMORY.md", index + "- [CI notes](project_ci_notes.md) — CI checks the freeze\n")
    return root


def build_wikilink_index_dir(root: Path) -> Path:
    """A dir whose MEMORY.md points at its memories with `[[name]]` links only (realdata34:
    indexes of `- [[slug]] — hook` lines under type headings, the late-2026 prompt's link form):
    files named by their kebab-case slug, one line with a `|label`, one prose line ending in a
    link, one index link to a memory not written yet, one memory the index leaves out, and a
    body linking another memory with its `.md` (`[[kiln-days.md]]`)."""
    memories = {
        "short-glaze-notes": ("user", "Keeps glaze notes short and in metric units", ""),
        "kiln-days": ("project", "Bisque fires on Mondays and glaze on Thursdays", ""),
        "shelf-rent": ("project", "Studio rent is split by shelf count, not by hours", ""),
        "no-friday-firing": (
            "feedback",
            "Never start a firing on a Friday; nobody unloads on Saturday",
            " The days are in [[kiln-days.md]].",
        ),
        "clay-supplier": ("reference", "Where the stoneware clay is ordered from", ""),
    }
    for age, (slug, (type_, description, more)) in enumerate(memories.items(), start=1):
        body = (
            f"{description}.{more}\n\n**Why:** asked for in the studio.\n\n"
            "**How to apply:** follow it every week."
        )
        _put(root / f"{slug}.md", slug_memory(slug, description, type_, body), age)
    _put(
        root / "MEMORY.md",
        "# pottery studio \u2014 memory index\n\n## user\n"
        "- [[short-glaze-notes]] \u2014 short notes, metric units\n\n## project\n"
        "- [[kiln-days|Kiln days]] \u2014 bisque Monday, glaze Thursday\n"
        "- Rent questions go by shelves \u2192 see [[shelf-rent]]\n\n## feedback\n"
        "- [[no-friday-firing]] \u2014 never fire on a Friday\n"
        "- [[glaze-recipes]] \u2014 the tested recipes (not written yet)\n",
    )
    return root


def build_wikilink_index_by_name_dir(root: Path) -> Path:
    """A dir whose indexes point by `[[name]]` at memories filed under another stem (fresh34):
    `name: deploy-window` in `project_deploy_window.md`, the type under `metadata:`, as the
    late-2026 prompt writes them; one line with a `|label`, one link no memory answers to, and a
    team index linking its own memory by name."""
    memories = {
        "project_deploy_window": ("deploy-window", "project", "Deploys run Tuesday to Thursday"),
        "feedback_no_force_push": ("no-force-push", "feedback", "Never force-push to main"),
        "user_mika_role": ("mika-role", "user", "Mika leads the ingest service"),
        "team/feedback_review_rules": ("review-rules", "feedback", "Billing needs two approvals"),
    }
    for age, (stem, (slug, type_, description)) in enumerate(memories.items(), start=1):
        body = f"{description}.\n\n**Why:** agreed in the team.\n\n**How to apply:** always."
        _put(root / f"{stem}.md", slug_memory(slug, description, type_, body), age)
    _put(
        root / "MEMORY.md",
        "# orbit \u2014 memory index\n\n"
        "- [[deploy-window]] \u2014 Tue to Thu only\n"
        "- [[no-force-push|No force push]] \u2014 rebase, push a new branch\n"
        "- [[mika-role]] \u2014 ingest lead\n"
        "- [[ingest-retries]] \u2014 backoff rules (not written yet)\n",
    )
    _put(root / "team" / "MEMORY.md", "- [[review-rules]] \u2014 two approvals for billing\n")
    return root


def build_windows_line_ends_dir(root: Path) -> Path:
    """A dir kept on Windows (real35: a published dir of 78 memories, 72 with CRLF line ends in
    header and body, as an editor or git's autocrlf leaves them): every file ends its lines with
    CRLF; two near-duplicate project memories the dream merges, one whose description and body
    say "the last week" (a span, not a calendar week) and one dated "today", and a CRLF index."""

    def crlf(path: Path, text: str, age: float) -> None:
        _put(path, "")
        path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
        when = time.time() - age * DAY_S
        os.utime(path, (when, when))

    why = (
        "**Why:** two pots cracked in the last firing.\n**How to apply:** check it before loading."
    )
    crlf(
        root / "project_kiln_cone.md",
        flat_memory(
            "Kiln cone",
            "The stoneware kiln fires to cone six after a slow bisque",
            "project",
            f"The stoneware kiln fires to cone six; the bisque runs slow first.\n\n{why}",
        ),
        1,
    )
    crlf(
        root / "project_kiln_cone_copy.md",
        flat_memory(
            "Kiln cone copy",
            "The stoneware kiln fires to cone six after a slow bisque",
            "project",
            "The stoneware kiln fires to cone six; the bisque runs slow first.\n"
            f"Shelf three holds the witness cones.\n\n{why}",
        ),
        2,
    )
    crlf(
        root / "project_glaze_review.md",
        flat_memory(
            "Glaze review",
            "Glaze tests fired yesterday, covering the last week of firings",
            "project",
            "The glaze tests of the last week of firings came out matte.\n"
            "The celadon was remixed today.\n\n**Why:** the studio asked for a summary."
            "\n**How to apply:** start from the matte recipes.",
        ),
        3,
    )
    crlf(
        root / "MEMORY.md",
        "- [Kiln cone](project_kiln_cone.md) \u2014 cone six, slow bisque\n"
        "- [Kiln cone copy](project_kiln_cone_copy.md) \u2014 the same, with witness cones\n"
        "- [Glaze review](project_glaze_review.md) \u2014 matte results\n",
        0,
    )
    return root


def build_cloned_dir(root: Path) -> Path:
    """A memory dir as a git clone leaves it (real35: 2,000+ repositories commit their memory
    dir): every file has the checkout's mtime, now; the memories keep the `modified:` time the
    CLI wrote under `metadata:` (2026-09-08), and two project memories say "today" and
    "yesterday", one of them with Windows line ends; a third, older, has no `modified:` and
    names the day of an event a year back beside its "today"; a fourth holds a table of post
    titles, one of them "Turn Yesterday's Firings Into a Glaze Log"."""
    glaze = "The celadon glaze was remixed today; the old batch went to the bin yesterday."
    _put(
        root / "project_celadon_batch.md",
        nested_memory(
            "celadon-batch", "The celadon glaze batch was remixed", "project", glaze, session="c1"
        ),
    )
    kiln = nested_memory(
        "kiln-element",
        "The kiln's top element was replaced",
        "project",
        "The top element was replaced today.",
        session="c2",
    )
    path = _put(root / "project_kiln_element.md", "")
    path.write_bytes(kiln.replace("\n", "\r\n").encode("utf-8"))
    catalogue = (
        "| Slug | Title |\n|------|-------|\n"
        "| glaze-log | Turn Yesterday's Firings Into a Glaze Log |\n\n"
        "The catalogue was rebuilt yesterday; matte glazes stay the safe-today choice."
    )
    _put(
        root / "project_post_catalogue.md",
        nested_memory(
            "post-catalogue",
            "Every studio blog post by slug and title",
            "project",
            catalogue,
            session="c3",
        ),
    )
    move = "On 2025-07-16 the wheels moved to the north room; the kiln moves today."
    _put(
        root / "project_studio_move.md",
        flat_memory("Studio move", "The studio's move to the north room", "project", move),
    )
    _put(
        root / "MEMORY.md",
        "- [Celadon batch](project_celadon_batch.md) \u2014 remixed\n"
        "- [Kiln element](project_kiln_element.md) \u2014 replaced\n",
    )
    return root


def build_cloned_duplicates_dir(root: Path) -> Path:
    """Two near-duplicate memories in a cloned dir (fix35a): the checkout wrote the one the CLI
    last changed (`modified:` 2026-10-14) first, so its file's mtime is the older of the two,
    while its copy, `modified:` 2026-06-02, was checked out a minute later."""
    why = "**Why:** two pots cracked in the last firing.\n**How to apply:** check before loading."
    for rel, modified, extra, age in (
        ("project_kiln_cone.md", "2026-10-14", "Shelf three holds the witness cones.\n", 0.001),
        ("project_kiln_cone_old.md", "2026-06-02", "", 0.0),
    ):
        text = nested_memory(
            "kiln-cone",
            "The stoneware kiln fires to cone six after a slow bisque",
            "project",
            f"The stoneware kiln fires to cone six; the bisque runs slow first.\n{extra}\n{why}",
            session="d1",
        )
        _put(root / rel, text.replace("2026-09-08", modified), age)
    _put(
        root / "MEMORY.md",
        "- [Kiln cone](project_kiln_cone.md) \u2014 cone six\n"
        "- [Kiln cone](project_kiln_cone_old.md) \u2014 cone six\n",
    )
    return root


def build_cloned_over_cap_dir(root: Path) -> Path:
    """A cloned dir (fix35c) whose index is one line over Claude Code's 200-line cap: four
    pointers above a firing log of plain lines. The checkout wrote the files in the reverse of
    their `modified:` order: the kiln element, changed last (2026-11-20), has the oldest mtime,
    the wheel rota, changed first (2026-03-09), the newest."""
    memories = (
        (
            "project_kiln_element.md",
            "Kiln element",
            "The kiln's top element was replaced",
            "2026-11-20",
        ),
        (
            "project_clay_order.md",
            "Clay order",
            "Stoneware clay is ordered by the tonne",
            "2026-10-02",
        ),
        ("project_glaze_shelf.md", "Glaze shelf", "Matte glazes live on shelf three", "2026-08-15"),
        (
            "project_wheel_rota.md",
            "Wheel rota",
            "Wheels are booked in two-hour slots",
            "2026-03-09",
        ),
    )
    pointers = []
    for age, (rel, name, hook, modified) in enumerate(memories):
        body = f"{hook}.\n\n**Why:** the studio asked.\n\n**How to apply:** every week."
        text = nested_memory(name, hook, "project", body, session=f"o{age}")
        _put(root / rel, text.replace("2026-09-08", modified), 0.004 - age * 0.001)
        pointers.append(f"- [{name}]({rel}) \u2014 {hook.lower()}")
    log = [f"Firing {i:03d}: bisque to cone 04 in kiln A, unloaded cool." for i in range(193)]
    _put(
        root / "MEMORY.md", "\n".join(["# Studio", "", *pointers, "", "## Firing log", *log]) + "\n"
    )
    return root


def build_notes_index_near_cap_dir(root: Path) -> Path:
    """An index kept as a notebook (real39: a Portuguese workspace's index of 269 lines, 122 of
    them notes under headings): 30 kiln batches, each a heading and four lines of notes with no
    link, then 30 pointers; 20 more memories have no line. Each memory is a day older than the
    one before it, and the unlisted ones are the oldest ten and ten in between, so adding their
    lines takes the index past Claude Code's 200-line cap and the oldest pointers must go."""
    notes = ["# Studio notebook", ""]
    for k in range(30):
        notes += [
            f"### Kiln batch {k}",
            *(f"- batch {k} note {n}: cone 6, slow cool" for n in range(4)),
        ]
    pointers = []
    for age in range(50):
        rel = f"project_glaze_{age:02d}.md"
        hook = f"Glaze test {age} is kept on shelf {age % 7}"
        _put(root / rel, flat_memory(f"Glaze {age}", hook, "project", f"{hook}."), age + 1)
        if age < 20 or (age % 2 == 0 and age < 40):
            pointers.append(f"- [Glaze {age}]({rel}) \u2014 {hook.lower()}")
    _put(root / "MEMORY.md", "\n".join([*notes, "", "## Glazes", *pointers]) + "\n")
    return root


def build_long_titles_index_dir(root: Path) -> Path:
    """An index whose titles are long (real40: a Chinese index with titles of 50 characters and
    hooks under 150, so its lines run past 200 though no hook is over its own cap): one line
    of a long title and a 140-character hook, one whose title alone fills the line, one short."""
    long_title = "Glaze firing log: cone six oxidation schedule with the slow cool and hold"
    hook = (
        "hold at 1,860 F for twenty minutes, then cool at 150 F an hour to 1,400 F; "
        "matte glazes need the hold or they come out glossy and runny"
    )
    huge_title = " ".join(["Kiln shelf wash and wadding recipe for every stoneware body"] * 4)
    lines = [
        "# Studio memory",
        "",
        f"- [{long_title}](project_firing_log.md) \u2014 {hook}",
        f"- [{huge_title}](reference_shelf_wash.md) \u2014 alumina and kaolin, two to one",
        "- [Clay supplier](reference_clay.md) \u2014 stoneware comes from the co-op on Tuesdays",
    ]
    _put(root / "project_firing_log.md", flat_memory("Firing log", hook, "project", hook + "."))
    _put(
        root / "reference_shelf_wash.md",
        flat_memory("Shelf wash", "alumina and kaolin", "reference", "Two parts alumina."),
    )
    _put(
        root / "reference_clay.md",
        flat_memory("Clay supplier", "the co-op", "reference", "Tuesdays, in 25 lb bags."),
    )
    _put(root / "MEMORY.md", "\n".join(lines) + "\n")
    return root


def build_numbered_files_dir(root: Path) -> Path:
    """A dir whose files carry a number before their stem (real35: a published dir of 250
    memories, `75-feedback_native_first_default.md`, whose index lists them by number) while
    the links written before the numbering name the old stems: `[[project_kiln_days]]`,
    `[[feedback-no-friday-firing]]`, `[[clay_supplier]]`; one link names a memory not written."""
    memories = {
        "1-project_kiln_days": ("project", "Bisque fires on Mondays, glaze on Thursdays", ""),
        "2-feedback_no_friday_firing": (
            "feedback",
            "Never start a firing on a Friday",
            " The days are in [[project_kiln_days]]; clay comes via [[clay_supplier]].",
        ),
        "3-reference_clay_supplier": (
            "reference",
            "Where the stoneware clay is ordered",
            " Check [[feedback-no-friday-firing]] before a delivery; see [[project_glaze_recipes]].",
        ),
    }
    for age, (stem, (type_, description, more)) in enumerate(memories.items(), start=1):
        body = f"{description}.{more}\n\n**Why:** the studio asked.\n\n**How to apply:** always."
        _put(root / f"{stem}.md", flat_memory(stem.split("-", 1)[1], description, type_, body), age)
    _put(
        root / "MEMORY.md",
        "- [1. Kiln days](1-project_kiln_days.md) \u2014 Monday and Thursday\n"
        "- [2. No Friday firing](2-feedback_no_friday_firing.md) \u2014 nobody unloads\n"
        "- [3. Clay supplier](3-reference_clay_supplier.md) \u2014 the co-op\n",
    )
    return root


def build_subagent_notes_dir(root: Path) -> Path:
    """Memories an agent wrote about its subagents' work (real35: "worktree agent-a… review-fixed",
    branches `worktree-agent-a…`, `subagents/agent-a….jsonl`): Claude Code's subagent ids, `a` and
    16 hex digits, in prose, paths and branch names, private and team. The ids here are ones the
    entropy detector read as keys."""
    ids = ("a36b3216fdaeeb975", "ab0eb53f16947ccf2", "a70f58904dba41ecc", "aff9243a8f506b409")
    body = (
        f"The glaze calculator fix waits in worktree agent-{ids[0]} for review.\n"
        f"It was pushed from branch worktree-agent-{ids[1]} and merged after the check.\n"
        f"A stale copy sits under .claude/worktrees/agent-{ids[2]}/src/recipes.ts.\n\n"
        f"**Why:** subagents/agent-{ids[3]}.jsonl shows what the review agent tried.\n"
        "**How to apply:** clean the stale worktree before the next run."
    )
    _put(
        root / "project_calculator_review.md",
        flat_memory(
            "Calculator review",
            "Where the glaze calculator fix and its review stand",
            "project",
            body,
        ),
    )
    _put(
        root / "team" / "project_worktree_cleanup.md",
        flat_memory("Worktree cleanup", "Stale subagent worktrees to clean", "project", body),
    )
    _put(
        root / "MEMORY.md", "- [Calculator review](project_calculator_review.md) \u2014 fix waits\n"
    )
    _put(
        root / "team" / "MEMORY.md",
        "- [Worktree cleanup](project_worktree_cleanup.md) \u2014 stale worktrees\n",
    )
    return root


def build_spaced_folders_dir(root: Path) -> Path:
    """Role playbooks an agent filed under folders named with blanks and linked from the index
    without angle brackets (real36: `- **Tech Team** -> [Tech Lead](roles/Tech Team/x.md)`): no
    CommonMark link, but the model reads the path. One link names a file no longer there."""
    for team, stem in (("Kiln Crew", "SKILL_firing"), ("Glaze Lab", "SKILL_glazes")):
        _put(
            root / "roles" / team / f"{stem}.md",
            f"# {team} playbook\n\nHow the {team.lower()} works through a batch.\n",
        )
    _put(
        root / "user_potter.md",
        flat_memory("Potter", "Who runs the studio", "user", "Runs a two-kiln studio."),
    )
    _put(
        root / "MEMORY.md",
        "- [Potter](user_potter.md) \u2014 who runs the studio\n"
        "\n## Roles (roles/)\n"
        "- **Kiln Crew** \u2192 [Firing](roles/Kiln Crew/SKILL_firing.md) \u2014 loading, cones\n"
        '- **Glaze Lab** \u2192 [Glazes](roles/Glaze Lab/SKILL_glazes.md "the lab") \u2014 tests\n'
        "- **Sales Desk** \u2192 [Pricing](roles/Sales Desk/SKILL_pricing.md) \u2014 price list\n",
    )
    return root


def build_numbered_bold_index_dir(root: Path) -> Path:
    """An explorer agent's index that numbers its reference files as bold names under headings,
    with notes between them and reading steps naming the files in prose (real37: `### 1.
    **SCSS-PATTERNS.md** \u2014 hook`, then `1. **Read**: SCSS-PATTERNS.md \u2014 pattern 2`). Three
    files are headed so, one only named in a step, one named nowhere."""
    for stem in ("KILN-LOG", "GLAZE-TABLE", "CLAY-BODIES", "FIRING-STEPS", "SHELF-MAP"):
        _put(
            root / f"{stem}.md",
            f"# {stem.replace('-', ' ').title()}\n\nNotes kept by the explorer.\n",
        )
    _put(
        root / "MEMORY.md",
        "# MEMORY \u2014 Studio exploration\n\n## Files\n\n"
        "### 1. **KILN-LOG.md** \u2014 every firing since March\n- cone, hours, faults\n\n"
        "### 2. **GLAZE-TABLE.md** \u2014 tested glazes by cone\n\n"
        "3. **CLAY-BODIES.md** \u2014 the three bodies in use\n\n"
        "## How to read\n\n1. **Read**: FIRING-STEPS.md \u2014 before a glaze firing\n",
    )
    return root


def build_agent_root_stray_index_dir(root: Path) -> Path:
    """agent-memory/ whose own MEMORY.md is a copy of one agent's index (real37: a researcher
    agent's lines written at the root, its files in researcher/ with an index of their own).
    One line's file is at the root; two point at files only the glazer's folder holds.

    Returns the agent-memory/ folder."""
    parent = root / "agent-memory"
    for rel, kind in (
        ("glazer/project_cone_six_tests.md", "project"),
        ("glazer/reference_frit_suppliers.md", "reference"),
        ("project_studio_move.md", "project"),
    ):
        stem = rel.rsplit("/", 1)[-1][:-3]
        _put(parent / rel, flat_memory(stem, f"about {stem}", kind, "Body."))
    lines = (
        "- [Cone six tests](project_cone_six_tests.md) \u2014 which glazes held\n"
        "- [Frit suppliers](reference_frit_suppliers.md) \u2014 who sells what\n"
    )
    _put(parent / "glazer" / "MEMORY.md", "# Glazer memory\n\n" + lines)
    _put(
        parent / "MEMORY.md",
        "# Glazer memory\n\n" + lines + "- [Studio move](project_studio_move.md) \u2014 May\n",
    )
    return parent


def build_binary_beside_dir(root: Path) -> Path:
    """A person's index listing one memory, beside a memory no index lists and a binary `.md`
    (its NUL bytes come after a text-looking start longer than a header's read): fresh37's
    photo the rebuild and the dream gave an index line (index37)."""
    _put(root / "user_potter.md", flat_memory("potter", "throws on a wheel", "user", "b"))
    _put(root / "project_kiln.md", flat_memory("kiln", "kiln rewired", "project", "b"))
    (root / "photo.md").write_bytes(b"not a note " * 600 + bytes(range(256)))
    _put(root / "MEMORY.md", "- [Potter](user_potter.md) \u2014 throws on a wheel\n")
    return root


def build_person_sections_dir(root: Path) -> Path:
    """An index a person wrote in sections, ending in a TODO list and a table, and two memories
    it does not list yet: where a rebuild and the dream put their lines (index37)."""
    _put(root / "user_potter.md", flat_memory("potter", "throws on a wheel", "user", "b"))
    _put(root / "project_kiln.md", flat_memory("kiln", "kiln rewired in May", "project", "b"))
    _put(
        root / "reference_clay.md",
        flat_memory("clay", "clay supplier's order line", "reference", "b"),
    )
    _put(
        root / "MEMORY.md",
        "# Studio\n\n- [Potter](user_potter.md) \u2014 throws on a wheel\n\n## TODO\n\n"
        "- [ ] order glaze\n\n| kiln | cone |\n|---|---|\n| big | 6 |\n",
    )
    return root


def build_backtest_notes_dir(root: Path) -> Path:
    """A trading bot's memories (real41): backtest tallies over "in N days", a file whose name
    joins words and tickers with underscores, a form named for a password and the controls
    swapped in it, and a web address written without its scheme whose last part is a
    document number. None of it is a date or a credential."""
    _put(
        root / "project_fade_backtest.md",
        flat_memory(
            "Fade backtest",
            "the fade setup fires too rarely on 5-point bars",
            "project",
            "Only 14 fills in 40 days on the paper account; +12.5% in 9 days at best.\n"
            "- **31 bounces in 12 months (2.6/month)**\n\n"
            "**Why:** the volume gate is twice too strict.\n\n"
            "**How to apply:** relax the gate before the next run.",
        ),
    )
    _put(
        root / "project_v4_nqx3m_review.md",
        flat_memory(
            "NQX3M review",
            "check the 3-month ticker feed before the open",
            "project",
            "The feed gave no quote once.\n\n**Why:** the gate blocks longs without it.\n\n"
            "**How to apply:** look at the health page first.",
        ),
    )
    _put(
        root / "reference_form_port.md",
        flat_memory(
            "Form port",
            "which legacy controls each form swapped",
            "reference",
            "- FrmOperatorPassWord: AxOldKnob\u2192Button\n"
            "- FrmPasswordReset: AxOldKnob \u2192 Button, OldGrid\u2192DataGridView\n"
            "- Decree for the signs: `lex.example.kz/eng/docs/K24R0004321`",
        ),
    )
    _put(
        root / "MEMORY.md",
        "- [Fade backtest](project_fade_backtest.md) \u2014 fires too rarely\n"
        "- [NQX3M review](project_v4_nqx3m_review.md) \u2014 the 3-month ticker feed\n"
        "- [Form port](reference_form_port.md) \u2014 legacy controls per form\n",
    )
    return root


def build_folder_listed_index_dir(root: Path) -> Path:
    """An index that lists a subfolder's files under the folder's line (real41: a `memory/`
    whose index names "`memory/refs/` -- four files:" and, indented below it, each file by its
    bare name): two of the names are files in guides/, one is in no folder. The dir is named
    `memory`, as a project's is, so the folder line can say `memory/guides/`.

    Returns the memory/ folder."""
    mem = root / "memory"
    _put(mem / "user_potter.md", flat_memory("potter", "throws on a wheel", "user", "b"))
    _put(mem / "guides" / "glazes.md", "# Glazes\n\nCeladon needs reduction.\n")
    _put(mem / "guides" / "kilns.md", "# Kilns\n\nThe big kiln fires to cone 10.\n")
    _put(
        mem / "MEMORY.md",
        "- [Potter](user_potter.md) \u2014 throws on a wheel\n"
        "- `memory/guides/` -- studio guides (three files):\n"
        "  - `glazes.md` -- which glazes need reduction\n"
        "  - `kilns.md` -- what each kiln fires to\n"
        "  - `clays.md` -- the clay bodies we stock\n",
    )
    return mem


def build_unlinked_over_cap_dir(root: Path) -> Path:
    """An index over the 200-line cap by its notes, whose files are named without a link
    (real41: a 263-line index of session notes): a table row naming a repository doc, a
    "Details:" line naming a memory by its path from the project folder, and a folder's line
    with its files' bare names indented below. It holds no link a fit could shorten or drop.

    Returns the memory/ folder."""
    mem = root / "memory"
    _put(mem / "kiln_log.md", "# Kiln log\n\nCone 6 firings since May.\n")
    _put(mem / "refs" / "glazes.md", "# Glazes\n\nCeladon needs reduction.\n")
    notes = [f"- firing {i}: cone 6, {i % 7 + 1} shelves, slow cool" for i in range(1, 211)]
    _put(
        mem / "MEMORY.md",
        "# Studio notes\n\n| File | Role |\n|---|---|\n"
        "| `STUDIO.md` | the studio's rules, kept in the repository |\n\n"
        "Details: `memory/kiln_log.md`\n\n"
        "- `memory/refs/` -- reference sheets (two files):\n"
        "  - `glazes.md` -- which glazes need reduction\n"
        "  - `clays.md` -- the clay bodies we stock\n\n" + "\n".join(notes) + "\n",
    )
    return mem


def build_erp_notes_dir(root: Path) -> Path:
    """An ERP deployment's memories (real42): a guard that leaves some warehouses alone, listed
    by name (one is "WIP", the work-in-progress store), and the outgoing mail settings, whose
    password line says what the password is like. Neither is task state or a credential; a
    task marked WIP is still task state."""
    _put(
        root / "project_transfer_guard.md",
        flat_memory(
            "Transfer guard",
            "stock transfers out of the main store need a QC sign-off",
            "project",
            "The guard runs on every stock transfer from the main store.\n"
            "- The other stores (Spares, Finished Goods, WIP, Goods In Transit) are not guarded.\n"
            "- Material issued to a job moves to the WIP warehouse.\n"
            "- The stores: Spares, Finished Goods, Goods In Transit, Work In Progress.\n\n"
            "**Why:** two bad batches shipped unchecked.\n\n"
            "**How to apply:** route new stores through the guard.",
        ),
    )
    _put(
        root / "reference_mail_settings.md",
        flat_memory(
            "Mail settings",
            "the account the ERP sends its mail from",
            "reference",
            "- Sender: `orders@pottery.example`\n"
            "- Password: 16-char App Password made under the sender's mail account\n"
            "- SMTP: smtp.mail.example:587 TLS",
        ),
    )
    _put(
        root / "project_label_printer.md",
        flat_memory(
            "Label printer",
            "the barcode labels for the kiln room",
            "project",
            "The label layout is WIP: the barcode overlaps the lot number.",
        ),
    )
    _put(
        root / "MEMORY.md",
        "- [Transfer guard](project_transfer_guard.md) \u2014 QC sign-off for transfers\n"
        "- [Mail settings](reference_mail_settings.md) \u2014 the ERP's sending account\n"
        "- [Label printer](project_label_printer.md) \u2014 kiln room barcode labels\n",
    )
    return root


def build_long_title_unlisted_dir(root: Path) -> Path:
    """A memory the index does not list, titled in 60 characters with a 142-character
    description (real42: a 56-character title and a 140-character hook; the rebuild and the
    dream added its line at 225 characters, and the next plan offered to shorten it), beside
    one listed memory."""
    title = "Open studio weekend: eight glaze demos still waiting for a slot"
    hook = (
        "eight short glaze demos are drafted for the open studio weekend and none is on the "
        "schedule yet; ask about them at the start of each session"
    )
    _put(root / "project_open_studio_demos.md", flat_memory(title, hook, "project", hook + "."))
    _put(
        root / "reference_clay.md",
        flat_memory("Clay supplier", "the co-op", "reference", "Tuesdays, in 25 lb bags."),
    )
    _put(
        root / "MEMORY.md",
        "# Studio memory\n\n- [Clay supplier](reference_clay.md) \u2014 the co-op, Tuesdays\n",
    )
    return root


def build_sectioned_over_cap_dir(root: Path) -> Path:
    """A studio's index over the 200-line cap (settle42, after real42's ERP dir): a dated
    section per firing, each holding one pointer with a hook far past 200 characters and a
    blank line after it; a firing whose memory file was never committed (its pointer dangles
    between blank lines, beside a note); then a long section of the person's own notes. Every
    file has one mtime, as a git checkout leaves them, and none has `modified:`, so every
    pointer's time ties and the lowest line goes first."""
    pointers = []
    for week in range(1, 15):
        rel = f"project_firing_week_{week:02d}.md"
        hook = (
            f"week {week}: the glaze kiln was packed to the top shelf, fired to cone 6 over "
            "eleven hours with a slow cool from 1,100 degrees, and the celadon test tiles on "
            "the second shelf came out crazed again, so the next firing holds at peak longer"
        )
        body = f"{hook}.\n\n**Why:** the crazing cost a batch.\n\n**How to apply:** every firing."
        _put(root / rel, flat_memory(f"Firing week {week}", hook, "project", body))
        pointers += [f"## Firing, week {week}", f"- [Firing week {week}]({rel}) \u2014 {hook}", ""]
    lost = [
        "## Firing, week 15",
        "The kiln log for this week is on paper in the studio binder.",
        "",
        "- [Firing week 15](project_firing_week_15.md) \u2014 the file was never committed",
        "",
        "- [Cone chart](reference_cone_chart.md) \u2014 the chart is pinned by the kiln instead",
        "",
    ]
    notes = [
        f"- bench note {i}: wedge the reclaim twice, it is wetter than new clay" for i in range(170)
    ]
    when = time.time() - 3 * DAY_S
    text = "\n".join(["# Studio memory", "", *pointers, *lost, "## Bench notes", *notes]) + "\n"
    _put(root / "MEMORY.md", text)
    for path in root.iterdir():
        os.utime(path, (when, when))  # one mtime for every file, as a checkout gives
    return root


def build_holiday_notes_dir(root: Path) -> Path:
    """A workshop's closure notes (real44): weekdays that name the day of a full date written
    beside them ("2026-12-25 (Friday): ...", "Friday, 1 January 2027: ..."), or that label a
    line under a heading holding the date ("### 24 December 2026" then "Thursday: ..."), none
    of them a relative date; and two that are: a weekday the date beside it does not fall on,
    and a "next Friday" beside a date."""
    _put(
        root / "project_winter_closures.md",
        flat_memory(
            "Winter closures",
            "when the workshop shuts over the winter holidays",
            "project",
            "- 2026-12-25 (Friday): workshop closed, no deliveries\n"
            "- Friday, 1 January 2027: closed, the alarm stays armed\n\n"
            "### 24 December 2026\n"
            "Thursday: half day, kilns off by noon\n\n"
            "**Why:** the landlord heats the building only on open days.\n\n"
            "**How to apply:** book no firing across these days.",
        ),
    )
    _put(
        root / "project_spring_schedule.md",
        flat_memory(
            "Spring schedule",
            "the spring shutdown and the year-end early close",
            "project",
            "## 2027-04-02\n\n"
            "Friday: studio shut for the spring holiday\n\n"
            "- Thursday, Dec 31, 2026: we close early, at 15:00\n\n"
            "**Why:** the glaze order arrives after the break.\n\n"
            "**How to apply:** plan the spring firing for the week after.",
        ),
    )
    _put(
        root / "project_stock_count.md",
        flat_memory(
            "Stock count",
            "the year-end count of clay and glaze",
            "project",
            "2026-12-28 (Tuesday): count every bag in the store room.\n\n"
            "**Why:** the accountant needs it before the books close.\n\n"
            "**How to apply:** two people count, one writes.",
        ),
    )
    _put(
        root / "project_budget_review.md",
        flat_memory(
            "Budget review",
            "the budget review after the closures",
            "project",
            "Budget review next Friday; the closures are listed under 2026-12-25.\n\n"
            "**Why:** the kiln repair was over budget.\n\n"
            "**How to apply:** bring the repair invoice.",
        ),
    )
    _put(
        root / "MEMORY.md",
        "- [Winter closures](project_winter_closures.md) \u2014 winter holiday closures\n"
        "- [Spring schedule](project_spring_schedule.md) \u2014 spring shutdown, early close\n"
        "- [Stock count](project_stock_count.md) \u2014 year-end count\n"
        "- [Budget review](project_budget_review.md) \u2014 after the closures\n",
    )
    return root


CITED_INDEX_LINES = (
    "- [Deploy window](project_deploy.md) \u2014 deploys run Tuesday to Thursday only, never "
    "on a Monday after a long weekend nor on a Friday afternoon, since weekend on-call is thin "
    "(source: https://wiki.example.org/ops/deploy-window)",
    "- [Clay supplier](reference_clay.md) \u2014 the co-op on the east side sells clay in "
    "25 lb bags and delivers on Tuesdays when the order is in by the Friday before, else a "
    "week later [source: supplier email of 2026-03-02]",
    "- [Glaze firing](feedback_glaze.md) \u2014 cone 6 for every glaze [^1]",
    "- [Reply tone](feedback_tone.md) \u2014 keep replies short ([style guide]"
    "(https://example.org/style))",
    "- [Kiln wiring](project_kiln.md) \u2014 needs a 40 A breaker (see the electrician's "
    "notes in kiln-incident.md)",
    "- [Old kiln](project_old_kiln.md) \u2014 sold in 2025 (source: the sale receipt)",
)
# A cited line whose memory was moved into a folder: tools point it there, the rest as written.
MOVED_CITED_LINE = "- [Cone chart](reference_cone_chart.md) \u2014 which cone for which clay (ref: the kiln manual)"


def build_cited_notes_dir(root: Path) -> Path:
    """A studio's hand-kept index whose lines cite their sources after the hook (real44): a
    bracketed source with an address, a `[source: ...]`, a footnote marker with its note at the
    foot, a link to a style guide, a "(see ...)"; two cited lines run past 200 characters, one
    points at a memory since deleted, and one (MOVED_CITED_LINE) at a memory moved into
    `charts/`. Beside them an uncited line past 200 characters, and a memory the index does not
    list. The cited lines kept as written are CITED_INDEX_LINES."""
    for rel, title, hook, type_ in (
        ("project_deploy.md", "Deploy window", "deploys run Tuesday to Thursday", "project"),
        ("reference_clay.md", "Clay supplier", "the co-op sells clay in 25 lb bags", "reference"),
        ("feedback_glaze.md", "Glaze firing", "fire every glaze to cone 6", "feedback"),
        ("feedback_tone.md", "Reply tone", "keep replies short", "feedback"),
        ("project_kiln.md", "Kiln wiring", "the kiln needs a 40 A breaker", "project"),
        ("project_studio_hours.md", "Studio hours", "the studio opens at nine", "project"),
        ("user_potter.md", "Potter", "throws on a wheel", "user"),
        ("charts/reference_cone_chart.md", "Cone chart", "which cone for which clay", "reference"),
    ):
        body = f"{hook}.\n\n**Why:** it cost us once.\n\n**How to apply:** every time."
        _put(root / rel, flat_memory(title, hook, type_, body))
    uncited = (
        "- [Studio hours](project_studio_hours.md) \u2014 the studio opens at nine on weekdays "
        "and at ten on Saturdays, closes at six except on firing days when someone stays until "
        "the kiln is below 500 degrees and the log is signed"
    )
    lines = [
        "# Studio memory",
        "",
        *CITED_INDEX_LINES,
        MOVED_CITED_LINE,
        uncited,
        "",
        "[^1]: the March glaze test",
    ]
    _put(root / "MEMORY.md", "\n".join(lines) + "\n")
    return root


def build_webapp_notes_dir(root: Path) -> Path:
    """A web shop's memories (real44): a staged plan counted in numbered weeks ("ten paying
    shops by end of week 20"), a deploy checklist naming each key by its prefix and x's
    (`whsec_xxxxx`) and the hosting project by its id (`prj_...`), a note on how the
    framework behaves ("`router.back()` in Next.js"), and
    an index line that says where the full write-up is ("Full doc: `~/plans/...`") past 200
    characters. None of it is a date, a secret or a code location, and the line's path stays."""
    _put(
        root / "project_launch_plan.md",
        flat_memory(
            "Launch plan",
            "the staged plan to the first paying shops",
            "project",
            "1. **Stage 1 (weeks 1-4): checkout.** Cards and invoices.\n"
            "2. **Stage 2 (weeks 5-20): first shops.** Goal: ten paying shops by end of week 20.\n\n"
            "**Why:** the grant review reads the stage goals.\n\n"
            "**How to apply:** measure each stage against its week.",
        ),
    )
    _put(
        root / "project_deploy_checklist.md",
        flat_memory(
            "Deploy checklist",
            "the variables a new server needs",
            "project",
            "- PAYMENTS_WEBHOOK_SECRET=whsec_xxxxx (the real one is in the payment dashboard)\n"
            "- MAIL_API_KEY=re_xxxxxxxxxxxx\n"
            "- `HOSTING_PROJECT_ID` on the worker set to `prj_Q7wEr9TyU1iOp3AsD5fGh7Jk2Lz`\n\n"
            "**Why:** a missing variable failed the first deploy.\n\n"
            "**How to apply:** copy the list before each new server.",
        ),
    )
    _put(
        root / "reference_router_quirks.md",
        flat_memory(
            "Router quirks",
            "how the framework's router behaves",
            "reference",
            "- `router.push(-1)` does not go back; use `router.back()` (in Next.js App Router,"
            ' push(-1) opens the literal URL "-1")\n'
            "- `useSearchParams()` in Next.js returns the params object, not an array.",
        ),
    )
    plan_line = (
        "- [Launch plan](project_launch_plan.md) \u2014 the staged plan to the first paying "
        "shops, checkout first and the grant review's stage goals after it, every stage "
        "measured against its week; Full doc: `~/plans/launch-stages-and-grant-goals.md`"
    )
    _put(
        root / "MEMORY.md",
        "\n".join(
            [
                plan_line,
                "- [Deploy checklist](project_deploy_checklist.md) \u2014 variables per server",
                "- [Router quirks](reference_router_quirks.md) \u2014 how the router behaves",
            ]
        )
        + "\n",
    )
    return root


def build_retro_notes_dir(root: Path) -> Path:
    """A hobby shop's retrospectives (real45): how long a change took ("the shop from zero in 5
    days", "went from one supplier to three in two weeks", "6 PRs in one day", an index hook
    "empty repo -> first release in 6 days"), a standing rule that names files by a date template and "today", and a
    tracked item cited by its number ("TODO (#3, rate limits)"), and model variants named in
    snake_case parts of words, acronyms and numbers (`Base12RNN_NoNorm_H32`). None is a
    relative date, task state or a secret, and the dream has nothing to rewrite."""
    _put(
        root / "project_post_naming.md",
        flat_memory(
            "Post naming",
            "how a new shop post is named",
            "project",
            "Save each post as `posts/YYYY-MM-DD-NN-<slug>.md` \u2014 today's date, then a"
            " two-digit count (01 unless a post already went out today).\n\n"
            "**Why:** the feed sorts by file name.\n\n"
            "**How to apply:** list `posts/` before saving a new one.",
        ),
    )
    _put(
        root / "project_launch_retro.md",
        flat_memory(
            "Launch retro",
            "what the shop launch taught",
            "project",
            "**Shipped:** the whole shop from zero in 5 days, payments included.\n\n"
            'The team went from "one supplier" to "three suppliers" in two weeks.\n\n'
            "The payment work was 6 PRs in one day.\n\n"
            "Filed one new TODO (#3, rate limits) for the follow-up.\n\n"
            "**Why:** the next launch plans from this.\n\n"
            "**How to apply:** read it before planning a launch.",
        ),
    )
    _put(
        root / "feedback_quick_sweeps.md",
        flat_memory(
            "Quick sweeps",
            "which model variants a quick sweep runs",
            "feedback",
            "Run `Base12Attn`, `Base12Attn_NoNorm` and `Base12RNN_NoNorm_H32` in a quick sweep;"
            " leave `Base12RNN_NoNorm_H64` for the full runs.\n\n"
            "**Why:** the wide one costs four times the compute for the same score.\n\n"
            "**How to apply:** list the variants before each sweep script.",
        ),
    )
    _put(
        root / "MEMORY.md",
        "- [Quick sweeps](feedback_quick_sweeps.md) \u2014 which variants a quick sweep runs\n"
        "- [Post naming](project_post_naming.md) \u2014 how a new shop post is named\n"
        "- [Launch retro](project_launch_retro.md) \u2014 empty repo \u2192 first release in"
        " 6 days\n",
    )
    return root


REAL_DIR_BUILDERS: dict[str, Callable[[Path], Path]] = {
    "agent-memory-parent": build_agent_memory_parent_dir,
    "repo-root-targets": build_repo_root_targets_dir,
    "hand-written-headers": build_hand_written_headers_dir,
    "nested": build_nested_dir,
    "index-variants": build_index_variants_dir,
    "multilingual": build_multilingual_dir,
    "private-only": build_private_only_dir,
    "team-only": build_team_only_dir,
    "no-index": build_no_index_dir,
    "exported": build_exported_dir,
    "project-local": build_project_local,
    "logs": build_logs_dir,
    "empty": lambda root: root,
    "many-files": build_many_files_dir,
    "special-files": build_special_files_dir,
    "untyped-past-cap": build_untyped_past_cap_dir,
    "agent-beside-index": build_agent_beside_index_dir,
    "agent-root-files": build_agent_root_files_dir,
    "agent-root-unlisted": build_agent_root_unlisted_dir,
    "names-besides-entries": build_names_besides_entries_dir,
    "latin1-index": build_latin1_index_dir,
    "pinned-typeless": build_pinned_typeless_dir,
    "wikilinked": build_wikilinked_dir,
    "wikilinked-scopes": build_wikilinked_scopes_dir,
    "linked-by-name": build_linked_by_name_dir,
    "wikilink-index": build_wikilink_index_dir,
    "wikilink-index-by-name": build_wikilink_index_by_name_dir,
    "bad-files": build_bad_files_dir,
    "windows-line-ends": build_windows_line_ends_dir,
    "subagent-notes": build_subagent_notes_dir,
    "cloned": build_cloned_dir,
    "cloned-duplicates": build_cloned_duplicates_dir,
    "cloned-over-cap": build_cloned_over_cap_dir,
    "numbered-files": build_numbered_files_dir,
    "spaced-folders": build_spaced_folders_dir,
    "numbered-bold-index": build_numbered_bold_index_dir,
    "agent-root-stray-index": build_agent_root_stray_index_dir,
    "binary-beside": build_binary_beside_dir,
    "person-sections": build_person_sections_dir,
    "notes-index-near-cap": build_notes_index_near_cap_dir,
    "long-titles-index": build_long_titles_index_dir,
    "backtest-notes": build_backtest_notes_dir,
    "folder-listed-index": build_folder_listed_index_dir,
    "unlinked-over-cap": build_unlinked_over_cap_dir,
    "long-title-unlisted": build_long_title_unlisted_dir,
    "erp-notes": build_erp_notes_dir,
    "sectioned-over-cap": build_sectioned_over_cap_dir,
    "holiday-notes": build_holiday_notes_dir,
    "cited-notes": build_cited_notes_dir,
    "webapp-notes": build_webapp_notes_dir,
    "retro-notes": build_retro_notes_dir,
}


@pytest.fixture
def real_dir(tmp_path: Path) -> Callable[[str], Path]:
    """Build a real-shaped memory dir by kind (see REAL_DIR_BUILDERS); returns its path."""

    def make(kind: str) -> Path:
        root = tmp_path / kind
        root.mkdir(parents=True, exist_ok=True)
        return REAL_DIR_BUILDERS[kind](root)

    return make


# --- branch widgets: the demo dir at a fixed clock, for the view-model tests (tests/unit/test_views_*)

DEMO_NOW_MS = 1_770_000_000_000.0  # 2026-02-02T02:40Z, so ages read the same on every run


@pytest.fixture
def demo_now_ms() -> float:
    """The fixed clock the demo dir fixture was built at."""
    return DEMO_NOW_MS


@pytest.fixture
def demo_mem(tmp_path: Path, demo_now_ms: float) -> Path:
    """A freshly built demo memory dir (40 memories, private and team) at demo_now_ms."""
    from memdir_nb.ui.demo import build_demo_memory_dir

    return build_demo_memory_dir(tmp_path / "mem", now_ms=demo_now_ms)


# --- shared fixtures (rules)


@pytest.fixture
def mem(tmp_path: Path) -> Path:
    """A freshly built demo memory dir at the fixed clock NOW (a suite may define its own `mem`)."""
    return build_demo_memory_dir(tmp_path / "mem", now_ms=NOW)


@pytest.fixture
def config(tmp_path: Path) -> MemdirConfig:
    """A config that read nothing from the environment: no API key, the fixed clock NOW."""
    return MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path, now_ms=NOW)


@pytest.fixture(scope="module")
def attack_tree(tmp_path_factory: pytest.TempPathFactory) -> AttackTree:
    """One symlink attack tree per test module (the tests only read it)."""
    return build_attack_tree(tmp_path_factory.mktemp("attack"))


# --- branch semantic: the semantic selector's vector cache -----------------------------------


_CACHE_ENV = "MEMDIR_NB_CACHE_DIR"
_cache_before: list[tuple[str | None, str]] = []  # (the value before, the folder made)


def pytest_configure(config: pytest.Config) -> None:
    """Point memdir_nb's caches at a per-process folder before any test module is imported.

    A session fixture did this once the first test ran, but `encoder_installed()` in three
    modules' skipif loads the encoder while they are collected, and that wrote the model's
    verification record and layer matrices into the developer's ~/.cache/memdir_nb (or
    $XDG_CACHE_HOME): a run left files outside its tmp folders, and a stale record there was
    read back by the next one.
    """
    made = tempfile.mkdtemp(prefix="memdir-nb-cache-")
    _cache_before.append((os.environ.get(_CACHE_ENV), made))
    os.environ[_CACHE_ENV] = made


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the per-process cache folder and put the variable back as it was."""
    if not _cache_before:
        return
    before, made = _cache_before.pop()
    shutil.rmtree(made, ignore_errors=True)
    if before is None:
        os.environ.pop(_CACHE_ENV, None)
    else:
        os.environ[_CACHE_ENV] = before


@pytest.fixture(autouse=True, scope="session")
def git_without_the_users_config(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every git the suite runs (its own and the product's) reads no global or system config.

    A developer's ~/.gitconfig with `core.hooksPath` (talisman, a company's pre-commit hooks)
    made the suite's `git commit` fail; `init.defaultBranch`, `commit.gpgsign` or
    `user.useConfigOnly` there change what a test's repository looks like. The repositories
    the tests make set their own identity, so an empty global config is all they need.
    """
    empty = tmp_path_factory.mktemp("git-config") / "gitconfig"
    empty.write_text("", encoding="utf-8")
    names = ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM")
    old = {name: os.environ.get(name) for name in names}
    os.environ.update(GIT_CONFIG_GLOBAL=str(empty), GIT_CONFIG_NOSYSTEM="1")
    yield
    for name, value in old.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


# --- split-ed: memory dirs for the extract/ and dream/ suites


@pytest.fixture
def memdir(tmp_path: Path) -> Path:
    """An empty memory dir, tmp_path/memory (a suite may define its own `memdir`)."""
    d = tmp_path / "memory"
    d.mkdir()
    return d


@pytest.fixture
def project_memdir(tmp_path: Path) -> Path:
    """An empty memory dir inside a project folder (tmp_path/project/memory), where dream counts sessions."""
    d = tmp_path / "project" / "memory"
    d.mkdir(parents=True)
    return d


# --- attack round 6: markup in the views ------------------------------------------------------
# A memory dir whose every field a view shows carries HTML/JS: each payload names its source
# (`window.__memdir_pwned='desc'`), so a test can say which source reached the page as markup.
# The same builder with `benign_text` gives the dir's harmless twin, whose rendering is the
# code's own markup (the allowed tags and attributes).

MARKUP_PROJECT_KEY = "-work-hostile"
MARKUP_SESSION_ID = "7d1e0c2a-4b5f-4c3d-8e9f-0a1b2c3d4e5f"


def markup_payload(tag: str) -> str:
    """Every markup class at once, each setting window.__memdir_pwned to tag if it ever runs."""
    js = f"window.__memdir_pwned='{tag}'"
    return (
        f'{tag} <img src=x onerror="{js}"> <svg onload="{js}"></svg> <script>{js}</script> '
        f"<iframe srcdoc=\"<script>parent.__memdir_pwned='{tag}'</script>\"></iframe> "
        "<style>body{display:none}</style> "
        f'" onmouseover="{js}" x=" '
        f"' onfocus='{js}' autofocus x=' "
        f'<a href="javascript:{js}">link</a> <object data="javascript:{js}"></object> '
        f"&lt;img src=x onerror={js}&gt; &#60;b&#62;{tag}&#60;/b&#62; "
        f"$\\href{{javascript:{js}}}{{math}}$ `tick` **star**"
    )


def markup_name_payload(tag: str) -> str:
    """What a memory file name can hold (the gate refuses `/`, `<>` and, as Windows does, `"`):
    a single-quote attribute break-out into an unquoted handler, an entity, a backtick, LaTeX."""
    return f"' onmouseover=window.__memdir_pwned='{tag}' x='&amp;` $x^{{2}}$"


def markup_refused_name(tag: str) -> str:
    """A name the gate refuses (an element), so views list it as skipped."""
    return f"<img src=x onerror=\"window.__memdir_pwned='{tag}'\">"


def benign_text(tag: str) -> str:
    """The harmless twin of a payload: words only."""
    return f"{tag} plain words for the {tag} field"


def benign_name(tag: str) -> str:
    return f"plain {tag}"


def benign_refused_name(tag: str) -> str:
    """The harmless twin of a refused name (a control character, also refused)."""
    return f"plain {tag}\x07"


def _markup_memory(fields: dict[str, object], body: str) -> str:
    import yaml

    header = yaml.safe_dump(fields, sort_keys=False, allow_unicode=True, width=10_000)
    return f"---\n{header}---\n\n{body}\n"


def build_markup_home(
    root: Path,
    text: Callable[[str], str] = markup_payload,
    name: Callable[[str], str] = markup_name_payload,
    refused: Callable[[str], str] = markup_refused_name,
    folder: Callable[[str], str] = markup_refused_name,
) -> Path:
    """A Claude home (root/projects/<key>/) whose memory dir and transcript carry markup.

    Sources: file names (private and team), frontmatter name/description/type (a string, a
    list, a nested map), bodies, MEMORY.md titles, link targets and hooks (with dropped lines
    past the 200-line cap and a stripped comment block), a dangling index line, team memories,
    a daily log, a session transcript (prompt, assistant text, tool names, tool inputs, cwd,
    file paths, a notice and a recap the CLI showed), and the path itself (the Claude home
    sits in a folder named like an element, which no gate checks: it is outside the memory
    dir). Returns the memory dir.
    """
    from memdir_nb.ui.demo.session_records import RecordWriter

    project = root / folder("home") / "projects" / MARKUP_PROJECT_KEY
    mem = project / "memory"
    (mem / "team").mkdir(parents=True, exist_ok=True)
    files: dict[str, tuple[dict[str, object], str]] = {
        f"user_{name('file')}.md": (
            {"name": text("name"), "description": text("desc"), "type": "user"},
            text("body"),
        ),
        "feedback_typed.md": (
            {"name": text("name2"), "description": text("desc2"), "type": text("type")},
            text("body2"),
        ),
        "project_listy.md": (
            {"name": [text("namelist")], "description": [text("desclist")], "type": ["project"]},
            text("body3"),
        ),
        "reference_nested.md": (
            {
                "name": {"x": text("namemap")},
                "description": {"y": text("descmap")},
                "type": {"z": "reference"},
            },
            text("body4"),
        ),
        "project_unindexed.md": (
            {"name": text("name5"), "description": text("desc5"), "type": "project"},
            text("body5") + "\nSee https://example.com/a?b=1&c=2 on 2026-01-05, yesterday.",
        ),
    }
    team: dict[str, tuple[dict[str, object], str]] = {
        f"team/project_{name('teamfile')}.md": (
            {"name": text("teamname"), "description": text("teamdesc"), "type": "project"},
            text("teambody"),
        ),
        "team/reference_shared.md": (
            {"name": text("teamname2"), "description": text("teamdesc2"), "type": "reference"},
            text("teambody2"),
        ),
    }
    files[f"user_{refused('skipped')}.md"] = ({"name": "n", "description": "d"}, "b")
    # A hostile name no index line links (the first line's target, blanks and all, is a link
    # since real36), so the index views show a name of their own making: rebuild's new line.
    files[f"feedback_{name('file')}.md"] = (
        {"name": "unlisted", "description": text("desc"), "type": "feedback"},
        "b",
    )
    for i, (rel, (fields, body)) in enumerate({**files, **team}.items()):
        path = _put(mem / rel, _markup_memory(fields, body))
        when = NOW / 1000 - (3 + 40 * i) * DAY_S
        os.utime(path, (when, when))
    lines = [
        f"- [{text('title')}](user_{name('file')}.md) — {text('hook')}",
        f"- [typed](feedback_typed.md) — {text('hook2')}",
        "- [listy](project_listy.md) — lists",
        "- [nested](reference_nested.md) — maps",
        f"- [{text('dangling')}](project_gone_{name('target')}.md) — {text('hook3')}",
        f"- [{text('jslink')}](javascript:window.__memdir_pwned='jslink') — a link target",
        "<!--",
        text("stripped"),
        "-->",
        *(f"- filler line {i}" for i in range(200)),
        f"- {text('dropped')}",
    ]
    _put(mem / "MEMORY.md", "\n".join(lines) + "\n")
    _put(
        mem / "team" / "MEMORY.md",
        f"- [{text('teamtitle')}](project_{name('teamfile')}.md) — {text('teamhook')}\n"
        f"- [shared](reference_shared.md) — {text('teamhook2')}\n",
    )
    _put(mem / "logs" / "2026" / "01" / "2026-01-30.md", f"# 2026-01-30\n\n- {text('log')}\n")
    cwd = f"/work/{name('cwd')}"
    w = RecordWriter(MARKUP_SESSION_ID, cwd, "2026-01-30T09:00:00.000Z", seed="markup")
    w.prompt(text("prompt"))
    read = w.tool_use(
        text("toolname")[:60],
        {"file_path": f"{mem}/user_{name('file')}.md", "x": text("toolinput")},
    )
    write = w.tool_use(
        "Write", {"file_path": f"{mem}/project_{name('written')}.md", "content": text("written")}
    )
    w.response([{"type": "text", "text": text("assistant")}, read, write])
    w.result(read, text("result"))
    w.result(write, f"File created successfully at: {mem}/project_{name('written')}.md")
    w.response([{"type": "text", "text": text("assistant2")}])
    w.system("turn_duration", durationMs=2000, isMeta=False)
    # what the CLI showed the user beside the conversation: the replay's notes (ui40)
    w.system("informational", content=text("notice"), level="warning", isMeta=False)
    w.system("away_summary", content=text("recap"), isMeta=False)
    w.prompt(f"remember the {text('prompt2')} and reference_shared")
    w.response([{"type": "text", "text": "ok"}])
    (project / f"{MARKUP_SESSION_ID}.jsonl").write_text(w.text(), encoding="utf-8")
    return mem


@pytest.fixture
def markup_home(tmp_path: Path) -> Path:
    """The hostile memory dir (see build_markup_home); its project folder holds one transcript."""
    return build_markup_home(tmp_path / "hostile")


@pytest.fixture
def benign_home(tmp_path: Path) -> Path:
    """The same dir with words where the payloads were."""
    return build_markup_home(
        tmp_path / "benign", benign_text, benign_name, benign_refused_name, benign_name
    )


# -------------------------------------------------------------- folders nested past any limit

DeepFolders = Callable[..., None]


@pytest.fixture
def deep_folders() -> Iterator[DeepFolders]:
    """build(parent, depth, name="d", file=None): `depth` nested folders `name` under parent,
    each made from the descriptor of the one above (so the path may pass PATH_MAX), with an
    empty `file` in the deepest. Removed at teardown with `rm -rf` (iterative), since pytest's
    own recursive cleanup of its temp dir raises RecursionError on such a tree."""
    made: list[Path] = []

    def build(parent: Path, depth: int, name: str = "d", file: str | None = None) -> None:
        made.append(parent / name)
        fd = os.open(parent, os.O_RDONLY)
        try:
            for _ in range(depth):
                os.mkdir(name, dir_fd=fd)
                inner = os.open(name, os.O_RDONLY, dir_fd=fd)
                os.close(fd)
                fd = inner
            if file is not None:
                os.close(os.open(file, os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd))
        finally:
            os.close(fd)

    yield build
    for top in made:
        subprocess.run(["rm", "-rf", "--", str(top)], check=False)


@pytest.fixture(autouse=True)
def lint_keeps_nothing_from_another_test() -> Iterator[None]:
    """Each test lints with an empty lint.kept store, so no finding comes from an earlier
    test's pass (the module is not imported for a test that does not lint)."""
    kept = sys.modules.get("memdir_nb.lint.kept")
    if kept is not None:
        kept.forget_kept()
    yield


@pytest.fixture(autouse=True)
def the_zone_a_demo_set_is_given_back() -> Iterator[None]:
    """A test that opens the demo in this process (open_notebook_dir) counts local days in UTC
    from then on, as a notebook's kernel on the demo does (ui.nbdir.hold_demo_zone, fresh38,
    lefts39); the next test counts them in the machine's own zone again."""
    yield
    nbdir = sys.modules.get("memdir_nb.ui.nbdir")
    if nbdir is not None:
        nbdir._ZONE_BEFORE_DEMO.clear()
    calendar_days = sys.modules.get("memdir_nb.spec.calendar_days")
    if calendar_days is not None:
        calendar_days.set_day_zone(None)


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder a child dropped to uid 65534 can reach, with what the test writes readable.

    tmp_path's parents are private to the user running pytest, so tests that read as another
    user work in a folder of their own under the temp dir. Each of its ancestors must let
    others through (a TMPDIR under a private home does not: skipped, saying so), and the test
    runs under umask 022: under the 077 of a careful user every file it wrote was private, and
    the child read nothing.
    """
    base = Path(tempfile.gettempdir()).resolve()
    private = [p for p in (base, *base.parents) if not p.stat().st_mode & stat.S_IXOTH]
    if private:
        pytest.skip(f"{private[0]} (TMPDIR={base} or above) does not let other users through")
    path = Path(tempfile.mkdtemp(prefix="memdir_shared_"))
    path.chmod(0o755)
    old_umask = os.umask(0o022)
    try:
        yield path
    finally:
        os.umask(old_umask)
        shutil.rmtree(path, ignore_errors=True)


def write_long_transcript(path: Path, size: int) -> list[str]:
    """A transcript of alternating user and assistant messages of about 16 KB each, past size
    bytes; returns the uuids in order (the transcript caps' tests: lefts37, lefts37b)."""
    filler = "x" * 16_000
    uuids: list[str] = []
    written = 0
    parent = None
    with path.open("w", encoding="utf-8") as fh:
        while written <= size:
            uuid = f"u{len(uuids):07d}"
            role = "user" if len(uuids) % 2 == 0 else "assistant"
            record = {
                "parentUuid": parent,
                "isSidechain": False,
                "type": role,
                "message": {"role": role, "content": filler},
                "uuid": uuid,
                "timestamp": "2026-03-28T10:01:07.037Z",
            }
            line = json.dumps(record) + "\n"
            fh.write(line)
            written += len(line)
            uuids.append(uuid)
            parent = uuid
    return uuids


def build_subagent_meta_home(root: Path) -> Path:
    """A Claude home of one 2.1 session that ran two subagents, each transcript with the
    `agent-<id>.meta.json` Claude Code writes beside it (real38: `agentType` and the Task's
    `description`); the second one's meta file is not JSON. Returns the home."""
    session = "4c2d9e10-7a3b-4f55-9e21-0b8c6d3a1f47"
    project = root / "claude" / "projects" / "-home-ana-kiln-log"
    subagents = project / session / "subagents"
    subagents.mkdir(parents=True)
    stamp = "2026-11-30T09:15:00.000Z"

    def record(kind: str, text: str, **extra: object) -> str:
        role = "user" if kind == "user" else "assistant"
        body = {
            "role": role,
            "content": text if role == "user" else [{"type": "text", "text": text}],
        }
        return json.dumps(
            {
                "type": kind,
                "sessionId": session,
                "timestamp": stamp,
                "cwd": "/home/ana/kiln-log",
                "version": "2.1.99",
                "uuid": f"u-{kind}-{len(text)}",
                "message": body,
                **extra,
            }
        )

    (project / f"{session}.jsonl").write_text(
        record("user", "Why did the last glaze firing run cold?")
        + "\n"
        + record("assistant", "Two agents are looking at the logs.")
        + "\n"
    )
    for agent, meta in (
        (
            "agent-a51e0c7d2b9f4e183",
            '{"agentType":"Explore","description":"Read the kiln controller logs"}',
        ),
        ("agent-a9b3f0e1c2d4a5b67", '{"agentType": "Explore", "description": '),
    ):
        (subagents / f"{agent}.jsonl").write_text(
            record("user", "Look through the firing logs.", isSidechain=True, agentId=agent[6:])
            + "\n"
        )
        (subagents / f"{agent}.meta.json").write_text(meta)
    return root / "claude"


@pytest.fixture
def subagent_meta_home(tmp_path: Path) -> Path:
    """build_subagent_meta_home in tmp_path."""
    return build_subagent_meta_home(tmp_path)


@pytest.fixture
def agents_without_their_session_home(tmp_path: Path) -> Path:
    """build_subagent_meta_home, and a second session of the project (its id sorts after the
    first) of which only its `<id>/subagents/` folder is there (real40: a home published
    without its main transcripts over 4 MiB kept their agents): two reviewer agents."""
    home = build_subagent_meta_home(tmp_path)
    project = home / "projects" / "-home-ana-kiln-log"
    missing = "9e7f1b22-3c4d-4e5f-8a6b-7c8d9e0f1a2b"
    subagents = project / missing / "subagents"
    subagents.mkdir(parents=True)
    for agent, task in (
        ("agent-a1c2e3f4a5b6c7d80", "Check the glaze recipe against the cone chart"),
        ("agent-a2d3f4a5b6c7d8e91", "Review the cooling schedule"),
    ):
        record = {
            "type": "user",
            "sessionId": missing,
            "timestamp": "2026-11-30T10:00:00.000Z",
            "cwd": "/home/ana/kiln-log",
            "version": "2.1.99",
            "uuid": f"u-{agent}",
            "isSidechain": True,
            "agentId": agent[6:],
            "message": {"role": "user", "content": task},
        }
        (subagents / f"{agent}.jsonl").write_text(json.dumps(record) + "\n")
        (subagents / f"{agent}.meta.json").write_text(
            json.dumps({"agentType": "reviewer", "description": task})
        )
    return home


def build_moved_home_session(tmp_path: Path) -> Path:
    """A home copied to another machine and its project folder renamed with it: the transcript
    now sits under `-srv-work-kiln`, while the session ran in /media/old/kiln with its config
    dir inside the project, so its tool calls write `…/-media-old-kiln/memory/…` (its second
    turn; the first writes nothing). Returns the transcript."""
    calls_memory = "/media/old/kiln/.claude_alt/projects/-media-old-kiln/memory"
    w = RecordWriter("moved", "/media/old/kiln", "2026-04-02T08:00:00.000Z", seed="moved")
    w.prompt("what does the kiln controller need")
    w.response([{"type": "text", "text": "a thermocouple reader"}])
    w.prompt("remember that the kiln tops out at 1280 degrees")
    call = w.tool_use(
        "Write", {"file_path": f"{calls_memory}/project_kiln_limit.md", "content": "x"}
    )
    w.response([call])
    w.result(call, "File created successfully", detail={"type": "create"})
    w.response([{"type": "text", "text": "saved"}])
    folder = tmp_path / "projects" / "-srv-work-kiln"
    (folder / "memory").mkdir(parents=True)
    (folder / "memory" / "project_kiln_limit.md").write_text(
        "---\nname: Kiln limit\ndescription: the kiln tops out at 1280 degrees\n"
        "type: project\n---\n\nThe kiln's ceiling is 1280 degrees.\n"
    )
    path = folder / "moved.jsonl"
    path.write_text(w.text())
    return path


def build_moved_subfolder_session(tmp_path: Path) -> Path:
    """A project moved from /media/old/kiln to /srv/work/kiln with its project folders renamed
    to match: a session run in its `web` subfolder is filed under `-srv-work-kiln-web`, and
    wrote (its second turn) into the memory of the project's git root as it was keyed then,
    `…/-media-old-kiln/memory/…`, which is `-srv-work-kiln/memory` now. The subfolder's own
    folder has a memory dir too, which the write did not go to. Returns the transcript."""
    calls_memory = "/home/ana/.claude/projects/-media-old-kiln/memory"
    w = RecordWriter("sub", "/media/old/kiln/web", "2026-04-03T08:00:00.000Z", seed="sub")
    w.prompt("which port does the kiln dashboard use")
    w.response([{"type": "text", "text": "8080, from web/config.toml"}])
    w.prompt("remember that the dashboard listens on 8080")
    call = w.tool_use(
        "Write", {"file_path": f"{calls_memory}/project_dashboard_port.md", "content": "x"}
    )
    w.response([call])
    w.result(call, "File created successfully", detail={"type": "create"})
    w.response([{"type": "text", "text": "saved"}])
    projects = tmp_path / "projects"
    parent = projects / "-srv-work-kiln" / "memory"
    parent.mkdir(parents=True)
    (parent / "project_dashboard_port.md").write_text(
        "---\nname: Dashboard port\ndescription: the kiln dashboard listens on 8080\n"
        "type: project\n---\n\nThe dashboard's port is 8080.\n"
    )
    folder = projects / "-srv-work-kiln-web"
    (folder / "memory").mkdir(parents=True)
    path = folder / "sub.jsonl"
    path.write_text(w.text())
    return path


RECAP_TEXT = (
    "Glaze log parser: fixed the cone-6 column; next, check the cooling curve. "
    "(disable recaps in /config)"
)


def build_notices_session(root: Path) -> Path:
    """A Claude home of one 2.1 session with the records newer versions write beside the
    conversation (real39: shapes seen in public transcripts and readers, written anew): a `mode`
    line first, an `informational` line at level info after each turn's answer (a Stop hook
    that completed, its name in terminal bold), one at level warning (a usage limit) in the
    second turn, and an `away_summary` recap after it; then records of those types in shapes
    no CLI writes (a list for content, an object for subtype, a number for mode, a blank recap).
    Two turns. Returns the transcript."""
    project = root / "claude" / "projects" / "-home-ana-kiln-log"
    project.mkdir(parents=True)
    w = RecordWriter("notices", "/home/ana/kiln-log", "2026-11-30T09:00:00.000Z", seed="notices")
    w.bookkeeping("mode", mode="normal", sessionId="notices")
    hook = "\x1b[1mStop\x1b[22m [~/.claude/hooks/lint.sh] completed successfully"
    for n, prompt in enumerate(("Why does the cone-6 column read zero?", "And the cooling?")):
        w.prompt(prompt)
        w.response([{"type": "text", "text": f"Answer {n + 1}."}])
        w.system("informational", content=hook, level="info", isMeta=False)
    w.system("informational", content="Usage limit reached · resets 9:50", level="warning")
    w.system("away_summary", content=RECAP_TEXT, isMeta=False)
    w.system("away_summary", content=["not", "text"])
    w.system("away_summary", content="   ")
    w.emit({"type": "system", "subtype": {"kind": "informational"}, "content": "x"})
    w.bookkeeping("mode", mode=4, sessionId="notices")
    w.bookkeeping("mode", mode="plan", sessionId="notices")
    path = project / "notices.jsonl"
    path.write_text(w.text())
    return path


def build_metadata_session(root: Path) -> Path:
    """A Claude home of one 2.1.14x session with the metadata records the CLI writes beside the
    conversation, none a turn (real42b: shapes seen in a public 2.1.146 home and in readers of
    the format, written anew): a `permission-mode` line before each prompt (default, then
    acceptEdits), an `ai-title`, an `agent-name` (a background job's name, unlike the title,
    with a terminal escape and a bidi override in it), a `tag`, an `agent-setting`, a
    `worktree-state` entering a worktree (no name, so its path's last part names it) and one
    leaving it (null), two `task-summary` lines, the
    same `pr-link` written twice (the CLI writes it again after each compaction), and records
    of those types in shapes no CLI writes (a number for a name, a blank name, a list for a
    mode, a pr-link without repository or URL). Two turns. Returns the transcript."""
    project = root / "claude" / "projects" / "-home-ana-kiln-log"
    project.mkdir(parents=True)
    w = RecordWriter("metadata", "/home/ana/kiln-log", "2026-11-30T09:00:00.000Z", seed="meta")
    pr = {"prNumber": 31, "prUrl": "https://github.com/ana/kiln-log/pull/31"}
    for mode, prompt in (("default", "Add a cone-6 column."), ("acceptEdits", "Open a PR.")):
        w.bookkeeping("permission-mode", permissionMode=mode, sessionId="metadata")
        w.prompt(prompt)
        w.response([{"type": "text", "text": "Done."}])
    w.bookkeeping("ai-title", aiTitle="Kiln log cone-6 column", sessionId="metadata")
    w.bookkeeping("agent-name", agentName="kiln-\x1b[31mnight\u202e-batch", sessionId="metadata")
    w.bookkeeping("tag", tag="glaze", sessionId="metadata")
    w.bookkeeping("agent-setting", agentSetting="kiln:reviewer", sessionId="metadata")
    tree = {"worktreePath": "/home/ana/kiln-log/.claude/worktrees/cone-six"}
    w.bookkeeping("worktree-state", worktreeSession={**tree, "worktreeBranch": "cone-6"})
    w.bookkeeping("worktree-state", worktreeSession=None, sessionId="metadata")
    w.bookkeeping("task-summary", summary="adding the column", sessionId="metadata")
    w.bookkeeping("task-summary", summary="opening the pull request", sessionId="metadata")
    for _ in range(2):
        w.bookkeeping("pr-link", sessionId="metadata", prRepository="ana/kiln-log", **pr)
    w.bookkeeping("agent-name", agentName=7, sessionId="metadata")
    w.bookkeeping("agent-name", agentName="  ", sessionId="metadata")
    w.bookkeeping("permission-mode", permissionMode=["plan"], sessionId="metadata")
    w.bookkeeping("pr-link", sessionId="metadata", prNumber=32)
    path = project / "metadata.jsonl"
    path.write_text(w.text())
    return path


def write_cut_head_transcript(path: Path, cap: int) -> Path:
    """A transcript whose second line the head's cap cuts where its first record ends: the
    head's last piece, `{"type":"user","cwd":"/cut/at/cap"} ` and one byte more, parses as a
    record although the file's line goes on (a second record glued after it, naming
    /past/cap). The first line is a summary record padded to put that record's end at byte
    cap exactly. Returns the path (heads40)."""
    cut = b'{"type":"user","cwd":"/cut/at/cap"}'
    shell = b'{"type":"summary","summary":""}\n'
    pad = cap - len(shell) - len(cut)
    first = b'{"type":"summary","summary":"' + b"s" * pad + b'"}\n'
    path.write_bytes(first + cut + b' {"type":"user","cwd":"/past/cap"}\n')
    assert len(first + cut) == cap
    return path


# ---------------------------------------------------------------------------------------------
# branch forget40: memories MemoryStore.forget moved to .trash/<stamp>-<flat name>, no manifest


def forgotten_memory(name: str, description: str, body: str) -> str:
    """A project memory's text, as a forgotten copy holds it."""
    return flat_memory(name, description, "project", body)


def build_forgotten_dir(root: Path) -> Path:
    """A memory dir where `kiln.md` was saved and forgotten twice (the second copy is newest)
    and `team/glaze.md` saved and forgotten once, by the store at fixed times; `keep.md` stays."""
    mem = root / "forgotten"
    mem.mkdir(parents=True)
    for n, text in enumerate(("Cone 6 in the old kiln.", "Cone 6, the new kiln controller.")):
        store = MemoryStore(mem, now_ms=NOW + n * 60_000)
        store.save(
            "Kiln firing", f"Firing notes, version {n + 1}", "project", text, filename="kiln.md"
        )
        store.forget("kiln.md")
    store = MemoryStore(mem, now_ms=NOW + 120_000)
    store.save(
        "Glaze recipe",
        "The team's celadon",
        "project",
        "Celadon: 2% iron.",
        scope="team",
        filename="glaze.md",
    )
    store.forget("team/glaze.md")
    store.save("Keep", "Stays put", "project", "Nothing to forget.", filename="keep.md")
    return mem


# A line a person cited by hand in MEMORY.md (real44's shapes, in new words): a source in
# brackets and a footnote marker whose text sits at the index's foot.
CITED_KILN_LINE = (
    "* [Kiln firing](kiln.md) — hold cone 6 for 15 minutes (source: the studio's firing log) [^2]"
)


def build_cited_forgotten_dir(root: Path, end: str = "\n") -> Path:
    """A memory dir whose MEMORY.md (line ends `end`) lists kiln.md by CITED_KILN_LINE, a
    person's cited line, between keep.md's line and a footnote; then kiln.md was forgotten by
    the store, which dropped that line."""
    mem = root / "cited"
    store = MemoryStore(mem, now_ms=NOW)
    store.save("Keep", "Stays put", "project", "Nothing to forget.", filename="keep.md")
    store.save("Kiln firing", "Cone 6 hold", "project", "Hold 15 minutes.", filename="kiln.md")
    lines = [
        "# Memory index",
        "- [Keep](keep.md) — Stays put",
        CITED_KILN_LINE,
        "",
        "[^2]: Firing log, the binder on shelf 3.",
    ]
    (mem / "MEMORY.md").write_bytes((end.join(lines) + end).encode("utf-8"))
    MemoryStore(mem, now_ms=NOW + 60_000).forget("kiln.md")
    return mem


# A made-up Anthropic key and GitHub token (attack40b): written in pieces so no scanner of this
# repository reads them as real; the secret guard knows both shapes.
PASTED_API_KEY = "sk-ant-api03-" + "Qm7vT2xLp9Rw4Ks8" * 5 + "Zc3N-Jf6HyAA"
PASTED_GH_TOKEN = "ghp_" + "R4nd0mT0k3nV4lu3" * 2 + "x9Yq"


def _project_of_one_memory(project: Path, memory: tuple[str, str, str], body: str) -> Path:
    """A Claude home's project folder whose memory dir holds one project memory, memory being
    (file name, name, description), and an index line for it. Returns the project folder."""
    file_name, name, description = memory
    (project / "memory").mkdir(parents=True)
    (project / "memory" / file_name).write_text(
        f"---\nname: {name}\ndescription: {description}\ntype: project\n---\n{body}\n",
        encoding="utf-8",
    )
    (project / "memory" / "MEMORY.md").write_text(
        f"- [{name}]({file_name}) — {description}\n", encoding="utf-8"
    )
    return project


def build_pasted_key_session(root: Path) -> Path:
    """A Claude home of one session in which the user pasted credentials (attack40b): the first
    prompt holds PASTED_API_KEY (past the table's 60-character cut), the second starts with an
    `export` of PASTED_GH_TOKEN, a warning the CLI showed and the away_summary recap quote
    the key. A memory dir beside it holds one memory about the deploy. Returns the transcript."""
    project = _project_of_one_memory(
        root / "claude" / "projects" / "-home-ana-deploy",
        ("deploy_notes.md", "deploy notes", "how the staging deploy is run"),
        "The staging deploy runs from the release branch.",
    )
    w = RecordWriter("pasted", "/home/ana/deploy", "2026-11-30T09:00:00.000Z", seed="pasted")
    w.prompt(f"use {PASTED_API_KEY} for the staging deploy")
    w.response([{"type": "text", "text": "Done."}])
    w.system("informational", content=f"Key {PASTED_API_KEY} was rejected", level="warning")
    w.prompt(f"export GITHUB_TOKEN={PASTED_GH_TOKEN} then run the deploy")
    w.response([{"type": "text", "text": "Deployed."}])
    w.system("away_summary", content=f"Deploying staging with key {PASTED_API_KEY}.")
    path = project / "pasted.jsonl"
    path.write_text(w.text(), encoding="utf-8")
    return path


@dataclass(frozen=True)
class PlantedPrograms:
    """A folder holding executable files named as the programs the package runs; each, when
    run, leaves a file in `marks` named after itself, then does nothing else."""

    folder: Path
    marks: Path

    def ran(self) -> list[str]:
        return sorted(p.name for p in self.marks.iterdir())


def plant_programs(folder: Path, marks: Path, names: Sequence[str]) -> PlantedPrograms:
    """Executable shell scripts `folder/<name>` that record they ran (a downloaded repository's
    `bin/git`, or a file beside the memories), for the relative-PATH-entry attack (§61)."""
    folder.mkdir(parents=True, exist_ok=True)
    marks.mkdir(parents=True, exist_ok=True)
    for name in names:
        script = folder / name
        script.write_text(f"#!/bin/sh\n: > '{marks / name}'\nexit 0\n")
        script.chmod(0o755)
    return PlantedPrograms(folder, marks)


@pytest.fixture()
def api() -> Iterator[MessagesAPIServer]:
    """A Messages API stand-in on 127.0.0.1 that the real anthropic SDK talks to over HTTP."""
    with MessagesAPIServer() as server:
        yield server


# ---------------------------------------------------------------------------------------------
# branch sessions44: the last prompt, file-history snapshots and token totals

# The session's last prompt, as its `last-prompt` record gives it: a pasted key past the
# listing's 60-character cut, a screen-clearing escape, a bidi override and a line break.
LEDGER_PROMPT = (
    "Now shrink the kiln photos \x1b[2J\u202eagain\nand upload them with "
    + PASTED_API_KEY
    + " please"
)
LEDGER_TRACKED = ("/home/ana/pottery/gallery.html", "/home/ana/pottery/styles.css")


def _ledger_answer(
    w: RecordWriter, blocks: list[dict[str, object]], usage: object, **extra: object
) -> None:
    """One API message of len(blocks) records (as the CLI splits it), each with `usage`."""
    mid = w.uid("msg")
    for block in blocks:
        record = w.envelope("assistant")
        record["message"] = {"id": mid, "role": "assistant", "content": [block], "usage": usage}
        record.update(uuid=w.uid("assistant"), timestamp=w.stamp(1.1), **extra)
        w.emit(record)
        w.last = record["uuid"]


def _ledger_snapshot(w: RecordWriter, paths: Sequence[str], *, update: bool) -> None:
    """A file-history-snapshot record tracking `paths` (version 1, no backup yet)."""
    backups = {p: {"backupFileName": None, "version": 1, "backupTime": w.stamp(0.1)} for p in paths}
    snapshot = {"messageId": w.last, "trackedFileBackups": backups, "timestamp": w.stamp(0.1)}
    w.bookkeeping(
        "file-history-snapshot", messageId=w.last, snapshot=snapshot, isSnapshotUpdate=update
    )


def build_ledger_session(root: Path) -> Path:
    """A Claude home of one 2.1.x session of two turns with the ledger's records (sessions44;
    shapes after public 2.1.123 transcripts, written anew): four snapshots (an opening one
    with no file, an update tracking gallery.html, one tracking both LEDGER_TRACKED, and one
    whose snapshot is a string), three API messages whose usage adds up to input 15, output
    190, cache writes 2,000, cache reads 12,000 (the first written as two records with one
    id, counted once), one with a `costUSD` of 0.0125 and one with a bad `costUSD` and a
    string for a token count (2 bad fields), an answer with no usage, and a `last-prompt`
    record holding LEDGER_PROMPT; the last typed prompt says something else. A memory dir
    beside it holds one memory. Returns the transcript."""
    project = _project_of_one_memory(
        root / "claude" / "projects" / "-home-ana-pottery",
        ("photos.md", "photos", "where the gallery photos live"),
        "The gallery photos live in site/img.",
    )
    w = RecordWriter("ledger", "/home/ana/pottery", "2026-12-01T08:00:00.000Z", seed="ledger")
    big = {"input_tokens": 10, "output_tokens": 100, "cache_creation_input_tokens": 2000}
    w.prompt("Resize the gallery photos.")
    _ledger_snapshot(w, [], update=False)
    edit = w.tool_use(
        "Edit", {"file_path": LEDGER_TRACKED[0], "old_string": "a", "new_string": "b"}
    )
    _ledger_answer(
        w, [{"type": "text", "text": "Editing."}, edit], {**big, "cache_read_input_tokens": 5000}
    )
    _ledger_snapshot(w, LEDGER_TRACKED[:1], update=True)
    w.result(edit, "The file was updated.")
    _ledger_answer(
        w,
        [{"type": "text", "text": "Resized."}],
        {"input_tokens": 3, "output_tokens": 40, "cache_read_input_tokens": 7000},
        costUSD=0.0125,
    )
    w.prompt("And the stylesheet?")
    _ledger_snapshot(w, LEDGER_TRACKED, update=False)
    w.bookkeeping("file-history-snapshot", messageId=w.last, snapshot="not a map")
    usage = {"input_tokens": 2, "output_tokens": 50, "cache_read_input_tokens": "many"}
    _ledger_answer(w, [{"type": "text", "text": "Also done."}], usage, costUSD="cheap")
    _ledger_answer(w, [{"type": "text", "text": "(no usage)"}], None)
    w.bookkeeping("last-prompt", lastPrompt=LEDGER_PROMPT, leafUuid=w.last, sessionId="ledger")
    path = project / "ledger.jsonl"
    path.write_text(w.text(), encoding="utf-8")
    return path


QUEUED_PROMPT = (
    f"also rotate \x1b]8;;http://x.example\x07this\x1b]8;;\x07 \u202ekey {PASTED_API_KEY} now"
)


def build_queued_sessions(root: Path) -> tuple[Path, Path]:
    """A Claude home of two sessions whose typed prompts went through the input queue
    (sessions45; `queue-operation` shapes after public 2.1.x transcripts, written anew):
    `stopped`, a `-p` run of an enqueue and a dequeue of QUEUED_PROMPT and nothing after, and
    `absorbed`, one turn into which QUEUED_PROMPT, typed while it ran, was taken (an enqueue, a
    remove and its `queued_command` attachment). QUEUED_PROMPT holds an OSC 8 link, a bidi
    override and PASTED_API_KEY. Returns the two transcripts."""
    project = _project_of_one_memory(
        root / "claude" / "projects" / "-home-ana-pottery",
        ("photos.md", "photos", "where the gallery photos live"),
        "The gallery photos live in site/img.",
    )
    stopped = RecordWriter("stopped", "/home/ana/pottery", "2026-12-02T08:00:00.000Z", seed="q1")
    stopped.bookkeeping("queue-operation", operation="enqueue", content=QUEUED_PROMPT)
    stopped.bookkeeping("queue-operation", operation="dequeue")
    w = RecordWriter("absorbed", "/home/ana/pottery", "2026-12-02T09:00:00.000Z", seed="q2")
    w.prompt("Resize the gallery photos.")
    call = w.tool_use("Bash", {"command": "make thumbnails"})
    w.response([call])
    w.bookkeeping("queue-operation", operation="enqueue", content=QUEUED_PROMPT)
    w.result(call, "made 12 thumbnails")
    w.bookkeeping("queue-operation", operation="remove")
    w.bookkeeping("attachment", attachment={"type": "queued_command", "prompt": QUEUED_PROMPT})
    w.response([{"type": "text", "text": "Resized, and the key is rotated."}])
    paths = (project / "stopped.jsonl", project / "absorbed.jsonl")
    for path, writer in zip(paths, (stopped, w), strict=True):
        path.write_text(writer.text(), encoding="utf-8")
    return paths
