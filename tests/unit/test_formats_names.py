"""The name gate: one rule for which file names are memory files."""

from __future__ import annotations

import tracemalloc

import pytest

from memdir_nb.formats.names import (
    folder_problem,
    is_memory_filename,
    name_encoding_problem,
    name_problem,
    relative_path_problem,
    written_path_problem,
)
from memdir_nb.spec.constants import MEMORY_DIR_MAX_DEPTH


@pytest.mark.parametrize("name", ["feedback_testing.md", "project-v2.md", "메모.md", "notes.v1.md"])
def test_plain_markdown_names_are_memory_files(name: str) -> None:
    assert name_problem(name) is None and is_memory_filename(name)


@pytest.mark.parametrize("name", ["MEMORY.md", "memory.md", "Memory.md"])
def test_the_index_in_any_case_is_not_a_memory(name: str) -> None:
    assert "index" in (name_problem(name) or "")


@pytest.mark.parametrize("name", ["Notes.MD", "notes.txt", ".md", "notes"])
def test_only_a_lower_case_md_suffix_makes_a_memory_file(name: str) -> None:
    assert name_problem(name) is not None


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("a\x1b[31m.md", "control"),
        ("a\x85.md", "control"),
        ("a\x7f.md", "control"),
        ("a\u202e.md", "bidirectional"),
        ("a\u2066.md", "bidirectional"),
        ("a\udcff.md", "UTF-8"),
        ("a\ud800.md", "UTF-8"),  # attack round 23: JSON's "\ud800" raised UnicodeEncodeError
        ("\udfff" * 300 + ".md", "UTF-8"),
        ("a\nb.md", "control"),
        ("a\u2028b.md", "line separator U+2028"),  # attack round 22: a line break in a browser
        ("a\u2029b.md", "line separator U+2029"),
        (".hidden.md", "dot"),
        ("a/b.md", "slash"),
        ("a\\b.md", "slash"),
        ("..", "relative step"),
        ("user_<img src=x onerror=alert(1)>.md", "angle bracket"),
        ("a>b.md", "angle bracket"),
    ],
)
def test_refused_names_say_which_rule_refused_them(name: str, words: str) -> None:
    assert words in (name_problem(name) or "")


def test_an_angle_bracket_is_refused_since_no_index_link_can_point_at_it() -> None:
    assert "angle bracket" in (name_problem("user_<b>.md") or "")
    assert "angle bracket" in (relative_path_problem("team/<x>/a.md") or "")
    assert name_problem("user_'a' & `b`.md") is None  # quotes, & and backticks stay
    assert "Windows refuses" in (name_problem('user_"q".md') or "")  # not '"' (Windows)


def test_a_relative_path_is_gated_folder_by_folder() -> None:
    assert relative_path_problem("team/feedback_x.md") is None
    assert "hidden" in (relative_path_problem(".trash/x.md") or "")
    assert "control" in (relative_path_problem("a\x9b/x.md") or "")
    assert "index" in (relative_path_problem("team/MEMORY.md") or "")


def test_a_name_longer_than_the_filesystem_allows_is_refused_by_the_gate() -> None:
    """255 bytes is Linux's NAME_MAX: a longer name fails at open() with ENAMETOOLONG."""
    assert name_problem("a" * 252 + ".md") is None  # 255 bytes: allowed
    problem = name_problem("a" * 253 + ".md") or ""
    assert "256 bytes long" in problem and "at most 255" in problem and "shorter name" in problem
    assert "bytes long" in (name_problem("\u00e9" * 127 + ".md") or "")  # 257 bytes in UTF-8
    assert "bytes long" in (relative_path_problem("f" * 300 + "/x.md") or "")


@pytest.mark.parametrize("invisible", ["\u200b", "\u2060", "\ufeff", "\u180e"])
def test_an_invisible_character_that_makes_a_name_look_like_another_is_refused(
    invisible: str,
) -> None:
    name = f"user_a{invisible}.md"  # shows exactly as user_a.md
    problem = name_problem(name) or ""
    assert f"U+{ord(invisible):04X}" in problem and "display as another" in problem
    # a joiner inside an emoji stays (woman technologist); beside `_` it joined nothing
    assert name_problem("user_\U0001f469\u200d\U0001f4bb.md") is None
    assert "U+200D" in (name_problem("user_\u200d\U0001f600.md") or "")


def test_a_folder_is_refused_for_what_refuses_a_component_and_for_an_angle_bracket() -> None:
    assert folder_problem("notes") is None
    assert "angle bracket" in (folder_problem("a<b") or "")
    assert "control" in (folder_problem("a\x1bb") or "")
    assert relative_path_problem("a<b/user_x.md") == (f"folder 'a<b' {folder_problem('a<b')}")


@pytest.mark.parametrize(
    "name", ["con.md", "NUL.md", "com1.md", "lpt9.md", "Aux.notes.md", "prn .md", "CONOUT$.md"]
)
def test_a_windows_device_name_is_refused_in_any_case_whatever_follows_its_first_dot(
    name: str,
) -> None:
    problem = name_problem(name) or ""
    assert "Windows device name" in problem and "pick another name" in problem


@pytest.mark.parametrize(
    ("name", "device"),
    [("lpt\u00b9.md", True), ("Com\u00b2 .md", True), ("con\u0131n$.md", False)],
)
def test_only_ascii_letters_are_upper_cased_when_a_name_is_matched_to_a_device(
    name: str, device: bool
) -> None:
    # Windows upper-cases the ASCII letters only: the dotless i is not an I there, so
    # "con\u0131n$" is not CONIN$ (str.upper would make it one), while LPT\u00b9 is a device.
    assert ("Windows device name" in (name_problem(name) or "")) is device


@pytest.mark.parametrize("name", ["console.md", "com10.md", "project_con.md", "nullable.md"])
def test_a_name_that_only_starts_like_a_device_is_a_memory_file(name: str) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize("name", ["a:b.md", "what?.md", "x|y.md", "star*.md"])
def test_a_character_windows_refuses_in_a_name_is_refused(name: str) -> None:
    assert "which Windows refuses in a name" in (name_problem(name) or "")


@pytest.mark.parametrize("folder", ["notes.", "notes ", "notes:old"])
def test_a_folder_windows_would_rename_or_refuse_is_refused(folder: str) -> None:
    assert folder_problem(folder) is not None
    assert relative_path_problem(f"{folder}/user_a.md") is not None


def test_a_folder_named_for_a_windows_device_is_refused_on_every_written_path() -> None:
    assert "Windows device name AUX" in (folder_problem("aux") or "")
    assert "folder 'nul'" in (relative_path_problem("nul/user_x.md") or "")
    assert written_path_problem("MEMORY.md") is None
    assert written_path_problem("team/MEMORY.md") is None
    assert "COM1" in (written_path_problem("team/com1.md") or "")


@pytest.mark.parametrize(
    "slash",
    [
        *["\u2215", "\u2044", "\uff0f", "\uff3c", "\u29f8"],
        # attack34: Unicode's other confusables of '/' and '\\' that no script's words need
        *["\u1735", "\u2041", "\u2f02", "\u2f03", "\u3033", "\u31d3", "\u31d4"],
        *["\U0001d20f", "\U0001d23a", "\U0001d23b"],
    ],
)
def test_a_character_drawn_as_a_slash_is_refused_since_the_name_would_display_as_a_path(
    slash: str,
) -> None:
    assert "looks like a slash" in (name_problem(f"team{slash}user_a.md") or "")
    assert "looks like a slash" in (folder_problem(f"team{slash}x") or "")
    assert name_problem("user_\u00bd_done.md") is None  # a vulgar fraction is no slash
    assert name_problem("user_\u30ce\u30fc\u30c8.md") is None  # katakana NO, a letter, stays


def test_a_path_deeper_than_any_route_goes_is_refused_so_no_writer_makes_an_unseen_file() -> None:
    # The listing, the reader and the tools stop at MEMORY_DIR_MAX_DEPTH folders; a writer
    # gated by this rule could make a file deeper than that, which no route then saw again.
    assert relative_path_problem("a/" * MEMORY_DIR_MAX_DEPTH + "user_x.md") is None
    deeper = relative_path_problem("a/" * (MEMORY_DIR_MAX_DEPTH + 1) + "user_x.md") or ""
    assert f"nested {MEMORY_DIR_MAX_DEPTH + 1} folders deep" in deeper
    assert written_path_problem("a/" * 1_500 + "user_x.md") is not None


def test_a_name_past_the_length_rule_is_refused_and_not_remembered() -> None:
    """A name from a tool call may be as long as a pasted text: 8,192 remembered 100 KB names
    would hold 800 MB in a long-lived kernel. Past NAME_MAX_BYTES it is refused each time."""
    tracemalloc.start()
    try:
        for i in range(30):
            assert "bytes long" in (name_problem(f"{i:04d}" + "n" * 100_000 + ".md") or "")
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < 500_000  # 30 such names remembered held 3 MB
    assert name_problem("feedback_testing.md") is None


def test_a_python_reading_names_in_another_encoding_is_named_with_the_fix() -> None:
    for utf8 in ("utf-8", "UTF-8", "utf8", "utf_8"):
        assert name_encoding_problem(utf8) is None
    for other in ("ascii", "iso8859-1"):
        problem = name_encoding_problem(other)
        assert problem is not None and f"as {other}, not UTF-8" in problem
        assert "PYTHONUTF8=1" in problem


@pytest.mark.parametrize(
    ("relative", "part", "free"),
    [
        ("~/user_a.md", "~", "user_a.md"),
        ("notes/~old/user_a.md", "~old", "notes/old/user_a.md"),
        ("~user_a.md", "~user_a.md", "user_a.md"),
        ("~.md", "~.md", "home.md"),
        ("~", "~", "home_notes"),
        ("user_a.md", None, "user_a.md"),
        ("notes/a~b.md", None, "notes/a~b.md"),  # only a LEADING '~' reads as a home
    ],
)
def test_the_part_starting_with_a_tilde_is_found_and_a_name_without_it_offered(
    relative: str, part: str | None, free: str
) -> None:
    # One home for the rule a new name meets (the memory tool, the extractor, import, save).
    from memdir_nb.formats.names import tilde_free, tilde_part, tilde_problem

    assert tilde_part(relative) == part
    assert tilde_free(relative) == free
    problem = tilde_problem(relative)
    assert (problem is None) == (part is None)
    if problem is not None:
        assert f"{part!r} starts with '~'" in problem and "home folder" in problem


def test_a_tilde_name_already_there_still_passes_the_gate_every_route_reads_with() -> None:
    # Not a gate rule: a `~` folder a person made is still listed, read, moved and deleted.
    assert relative_path_problem("~/user_a.md") is None
    assert name_problem("~user_a.md") is None and folder_problem("~", top=True) is None


@pytest.mark.parametrize("folder", ["LOGS", "Logs", "lOgS", "TEAM", "Team"])
def test_a_top_folder_that_is_logs_or_team_where_case_is_ignored_is_refused(folder: str) -> None:
    """attack45 (§68): `Logs/` is logs/ on macOS and Windows, a folder no listing shows."""
    why = folder_problem(folder, top=True)
    assert why is not None and "in other letter case" in why
    assert folder.casefold() + "/" in why
    assert folder_problem(folder) is None  # deeper down it is no special folder anywhere
    assert folder_problem(folder.casefold(), top=True) is None
