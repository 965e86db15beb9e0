"""cli.plain_scan: a plain `memdir-nb scan` command line read without argparse, as its parser
reads it, and every other one left to the parsers."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdir_nb.cli.parsers import parse
from memdir_nb.cli.plain_scan import plain_scan

# A memory dir and a file in the working folder of every test here (the dir arguments below
# are relative to it, as a user types them).
HERE_DIR, HERE_FILE = "mem", "afile"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / HERE_DIR).mkdir()
    (tmp_path / HERE_FILE).write_text("x", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _parsed(words: list[str]) -> tuple[str, int, bool] | str:
    """What the parsers give for words: the scan's values, or their refusal (exit and words)."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            args = parse(words)
    except SystemExit as exc:
        return f"exit {exc.code}: {err.getvalue()}"
    assert args.func == "scan_command:cmd_scan"
    return (args.dir, args.limit, args.json)


PLAIN = [
    ["scan", HERE_DIR],
    ["scan", HERE_DIR, "--json"],
    ["scan", "--json", HERE_DIR],
    ["scan", HERE_DIR, "--limit", "3"],
    ["scan", "--limit", "7", "--json", HERE_DIR],
    ["scan", HERE_DIR, "--json", "--json"],
    ["scan", f"./{HERE_DIR}/"],
    ["scan", f"{HERE_DIR}/../{HERE_DIR}"],
    ["scan", HERE_DIR, "--limit", " 5"],  # int() takes the spaces, as in the parser
]


@pytest.mark.parametrize("words", PLAIN, ids=" ".join)
def test_a_plain_scan_gives_the_values_the_scan_parser_gives(here: Path, words: list[str]) -> None:
    plain = plain_scan(words)
    assert plain is not None
    assert (plain.dir, plain.limit, plain.json) == _parsed(words)
    assert plain.dir == os.path.join(str(here), HERE_DIR)


LEFT_TO_THE_PARSERS = [
    [],
    ["scan"],
    ["index", HERE_DIR],
    ["scan", HERE_DIR, "--js"],  # an abbreviation: argparse's rule
    ["scan", HERE_DIR, "--limit=3"],
    ["scan", HERE_DIR, "--limit"],
    ["scan", HERE_DIR, "--limit", "3", "--limit", "4"],
    ["scan", HERE_DIR, "--limit", "-1"],  # a negative number: argparse's rule
    ["scan", "--", HERE_DIR],
    ["scan", "-h"],
    ["scan", HERE_DIR, "--help"],
    ["scan", HERE_DIR, HERE_DIR],
    ["scan", ""],  # the empty word names the working folder: left to the parser
    ["scan", "-"],
    ["scan", HERE_DIR, "--bogus"],
    # refused by the parser's checks, which word the refusal there
    ["scan", "nope"],
    ["scan", HERE_FILE],
    ["scan", HERE_DIR, "--limit", "0"],
    ["scan", HERE_DIR, "--limit", "x"],
]


@pytest.mark.parametrize("words", LEFT_TO_THE_PARSERS, ids=" ".join)
def test_any_other_command_line_is_left_to_the_parsers(here: Path, words: list[str]) -> None:
    assert plain_scan(words) is None


WORDS = (HERE_DIR, HERE_FILE, "nope", "scan", "--json", "--js", "--limit", "--limit=2", "4", "0")
WORDS_TOO = ("-4", "x", "", "-", "--", "-h")


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(WORDS + WORDS_TOO), max_size=6))
def test_whatever_the_words_a_plain_scan_is_what_the_parser_reads_them_as(
    here: Path, words: list[str]
) -> None:
    # Read without argparse, a command line either gives the values the parser gives it or is
    # left to the parser: never other values, never a line the parser would refuse.
    plain = plain_scan(["scan", *words])
    if plain is not None:
        assert (plain.dir, plain.limit, plain.json) == _parsed(["scan", *words])
