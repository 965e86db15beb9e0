"""Attack40b: a credential the user pasted into a prompt, on every route that shows a session.

`memdir-nb replay` printed prompts as typed, so a key pasted into a prompt was in the output of
the CLI (text and `--json`), the replay view (notebook 11, the dashboard's Sessions tab) and
the notes that quote what the CLI told the user (a warning, the away_summary recap), and the
`sessions` listing quoted the recap. Each route now shows it redacted by the secret guard's
one detector (`security.secret_scan.redact_secrets`: its first few characters and its
length), unless asked for by name (`--show-secrets`, `show_secrets=True`). The transcript is
never changed, and recall runs on the prompt as typed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from memdir_nb.recall.selectors import make_selector
from memdir_nb.reports.replay import SessionReplay, iter_replay, replay_session
from memdir_nb.ui.demo.session import SAMPLE_NOW_MS
from memdir_nb.ui.views import replay as view
from memdir_nb.ui.widgets import ReplayView
from tests.conftest import PASTED_API_KEY, PASTED_GH_TOKEN, build_pasted_key_session
from tests.support.child_env import child_env

SECRETS = (PASTED_API_KEY, PASTED_GH_TOKEN)
# what a reader could use of each: a stretch of 12 characters from its middle
STRETCHES = (PASTED_API_KEY[20:32], PASTED_GH_TOKEN[8:20])


def _leaks(text: str) -> list[str]:
    return [s for s in STRETCHES if s in text]


def _replay(transcript: Path, **kw: bool) -> SessionReplay:
    return replay_session(
        transcript,
        transcript.parent / "memory",
        selector=make_selector("lexical"),
        now_ms=SAMPLE_NOW_MS,
        **kw,
    )


def _cli(home: Path, *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *args],
        capture_output=True,
        env=child_env(HOME=str(home)),
        timeout=180,
    )
    assert out.returncode == 0 and not out.stderr, out.stderr
    return out.stdout.decode("utf-8")


@pytest.fixture
def pasted(tmp_path: Path) -> Path:
    return build_pasted_key_session(tmp_path)


def test_the_replay_shows_pasted_credentials_redacted_in_prompts_rows_and_notes(
    pasted: Path,
) -> None:
    replay = _replay(pasted)
    shown = [t.prompt for t in replay.turns] + replay.note_lines() + [replay.summary()]
    assert _leaks("\n".join(shown)) == []
    assert _leaks(json.dumps(replay.rows())) == []
    assert replay.turns[0].prompt.startswith("use sk-a…[")  # kind-revealing head and the length
    assert "rejected" in "\n".join(replay.note_lines())  # the note itself is still there


def test_the_replay_shows_them_as_typed_only_when_asked_and_recall_is_the_same(
    pasted: Path,
) -> None:
    before = pasted.read_bytes()
    masked, raw = _replay(pasted), _replay(pasted, show_secrets=True)
    assert raw.turns[0].prompt == f"use {PASTED_API_KEY} for the staging deploy"
    assert PASTED_API_KEY in "\n".join(raw.note_lines())
    assert [t.selected for t in masked.turns] == [t.selected for t in raw.turns]
    assert pasted.read_bytes() == before  # the transcript is never changed


@pytest.mark.parametrize("as_json", [False, True])
def test_memdir_nb_replay_prints_pasted_credentials_redacted_unless_show_secrets(
    pasted: Path, as_json: bool
) -> None:
    home = pasted.parents[3]
    args = ["replay", str(pasted), "--selector", "lexical", "--now-ms", str(int(SAMPLE_NOW_MS))]
    args += ["--json"] if as_json else []
    assert _leaks(_cli(home, *args)) == []
    assert PASTED_GH_TOKEN in _cli(home, *args, "--show-secrets")


def test_the_replay_view_shows_pasted_credentials_redacted_in_table_turns_and_notes(
    pasted: Path,
) -> None:
    v = ReplayView(pasted.parent / "memory", pasted, selector="lexical", now_ms=SAMPLE_NOW_MS)
    assert v.replay is not None
    shown = [v.table.value, v.notes_box.value, v.summary_box.value]
    shown += [label for label, _ in v.turn_picker.options]
    for turn in v.replay.turns:  # each turn's detail, with the notices of its turn
        shown.append(view.turn_detail_html(v.replay, turn.index))
    assert _leaks("\n".join(shown)) == []
    raw = ReplayView(
        pasted.parent / "memory",
        pasted,
        selector="lexical",
        now_ms=SAMPLE_NOW_MS,
        show_secrets=True,
    )
    assert raw.replay is not None and PASTED_API_KEY in raw.replay.turns[0].prompt


@pytest.mark.parametrize("as_json", [False, True])
def test_memdir_nb_sessions_shows_a_recap_quoting_a_credential_redacted(
    pasted: Path, as_json: bool
) -> None:
    home = pasted.parents[3]
    args = ["sessions", "--home", str(home / "claude")] + (["--json"] if as_json else [])
    out = _cli(home, *args)
    assert "Deploying staging with key" in out and _leaks(out) == []
    assert PASTED_API_KEY[:40] in _cli(home, *args, "--show-secrets")


def test_a_replay_shows_its_rows_redacted_and_leaves_the_row_it_was_given_as_built(
    pasted: Path,
) -> None:
    streamed = iter_replay(
        pasted, pasted.parent / "memory", selector=make_selector("lexical"), now_ms=SAMPLE_NOW_MS
    )
    rows = list(streamed.turns)
    assert rows and not any(_leaks(row.prompt) for row in rows)
    built = replace(rows[0], prompt=f"key {PASTED_API_KEY}")

    shown = streamed.replay.add(built, keep=False)

    assert not _leaks(shown.prompt)
    assert built.prompt == f"key {PASTED_API_KEY}"  # the caller's row is not rewritten
