"""Rules of memdir_nb.formats.index_lines: a line the planner formatted gives the entry target
a search of the line gives, without the search."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memdir_nb.formats import index_lines
from memdir_nb.formats.index import format_index_entry
from memdir_nb.formats.index_lines import (
    _searched_entry,
    entry_target,
    parse_entry_line,
    parse_index,
    plain_entry_target,
    retarget_entry_line,
)


@pytest.mark.parametrize(
    ("title", "target"),
    [
        ("Deploy notes", "project_deploy.md"),
        ("nested", "team/feedback_x.md"),
        ("a-b_c.d", "a-b_c.d.md"),
        ("numbers 12", "12.md"),
        ("(parenthesised)", "x.md"),
    ],
)
def test_a_formatted_line_for_a_plain_target_is_answered_as_the_search_answers(
    title: str, target: str
) -> None:
    line = format_index_entry(title, target, "a hook with [a link](other.md) in it")
    assert plain_entry_target(line) == target == entry_target(line)


@pytest.mark.parametrize(
    "line",
    [
        "- [a\\](x.md) \u2014 h [b](y.md)",  # a backslash escapes the title's ']'
        "- [a](a:b.md)",  # a colon: a URL scheme to the search
        "- [a](./x.md)",  # norm_target drops './'
        "- [a](<x y.md>)",  # bracketed
        '- [a](x.md "a title")',  # a link title after the target
        "- [a](-x.md)",  # led by '-'
        "- [a](x#1.md)",  # a '#'
        "- [a](x.md(y))",  # a parenthesis
        "* [a](x.md)",  # another list marker
        "- [a [b]](x.md)",  # brackets in the title
        "- [a](MEMORY.md)",  # not a memory file name
        "- [a](x.txt)",
        "- [a](x.md",  # unclosed
        "- [a](x.mdz)",
    ],
)
def test_any_other_line_is_left_to_the_search(line: str) -> None:
    assert plain_entry_target(line) is None


_TARGET = st.one_of(
    st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_.\-/]{0,12}\.(md|MD|txt)", fullmatch=True),
    st.text(st.sampled_from("ab.:/#() <>-_\\`[]\u00e9\u200b"), min_size=1, max_size=10).map(
        lambda s: s + ".md"
    ),
)
_WORDS = st.text(st.sampled_from("ab [](){}\\`#:.-_\u2014|*x.md\t"), max_size=20)


@settings(max_examples=400, deadline=None)
@given(_WORDS, _TARGET, _WORDS)
def test_its_answer_is_always_the_searchs(title: str, target: str, hook: str) -> None:
    try:
        line = format_index_entry(title, target, hook)
    except ValueError:  # a target format_index_entry refuses
        return
    found = plain_entry_target(line)
    assert found is None or found == entry_target(line)


@settings(max_examples=200, deadline=None)
@given(_WORDS, _WORDS, _WORDS)
def test_a_raw_line_is_answered_only_as_the_search_answers(a: str, b: str, c: str) -> None:
    line = f"- [{a}](x.md{b}){c}"
    found = plain_entry_target(line)
    assert found is None or found == entry_target(line)


@settings(max_examples=400, deadline=None)
@given(_WORDS, _TARGET, _WORDS, _WORDS)
def test_a_lines_entry_is_the_one_the_search_finds(
    title: str, target: str, hook: str, raw: str
) -> None:
    # parse_entry_line reads a formatted line for a plain target without the search (plan40):
    # its entry (title, target, hook, form) is the search's, and so is any other line's.
    lines = [f"- [{title}]({target}){raw}", f"- [{title}](x.md){raw}"]
    with contextlib.suppress(ValueError):  # a target format_index_entry refuses
        lines.append(format_index_entry(title, target, hook))
    for line in lines:
        assert parse_entry_line(line, 7) == _searched_entry(line, 7)


def test_a_formatted_line_for_a_plain_target_is_parsed_without_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A first plan's index fit parses each of an over-cap index's lines; nearly all are lines
    # format_index_entry wrote, and the search was a third of the fit (plan40).
    def no_search(line: str) -> None:
        raise AssertionError(f"searched {line!r}")

    monkeypatch.setattr(index_lines, "_find_entry", no_search)
    line = format_index_entry("Deploy notes", "team/project_deploy.md", "the hook — | x")
    entry = parse_entry_line(line, 3)
    assert entry is not None
    assert (entry.title, entry.target, entry.hook) == (
        "Deploy notes",
        "team/project_deploy.md",
        "the hook — | x",
    )
    assert entry_target(line) == "team/project_deploy.md"


SPACED_LINKS = {  # line -> the file it names
    "- **Kiln Crew** \u2192 [Firing](roles/Kiln Crew/SKILL_firing.md) \u2014 h": (
        "roles/Kiln Crew/SKILL_firing.md"
    ),
    '- [Glazes](roles/Glaze Lab/SKILL_glazes.md "the lab") \u2014 h': "roles/Glaze Lab/SKILL_glazes.md",
    "- [Rota](notes/week rota.md#monday) \u2014 h": "notes/week rota.md#monday",
    "| [Kiln log](kiln log.md) | firing |": "kiln log.md",
}
NOT_SPACED_LINKS = (
    "- [Price list](price list.txt) \u2014 not a memory file",
    "- [Site](https://example.com/a b.md) \u2014 a URL",
    "- [Kiln]( kiln.md) \u2014 a blank before the target",
    "- see (kiln log.md) for the firing notes",
)


def test_a_link_whose_md_target_holds_blanks_without_brackets_names_that_file() -> None:
    # real36: an agent indexed role files under folders named with blanks, `[T](a b/x.md)`: no
    # CommonMark link, but the model reads the path. Lint called the files unlisted and the
    # rebuild added each a second time. Only a Markdown file's path inside a link is read so.
    for line, target in SPACED_LINKS.items():
        assert entry_target(line) == target
        retargeted = retarget_entry_line(line, "moved/x.md")
        assert retargeted is not None and "](moved/x.md" in retargeted
    assert [entry_target(line) for line in NOT_SPACED_LINKS] == [None] * len(NOT_SPACED_LINKS)


_LINE_PIECES = st.sampled_from(
    [
        "- ",
        "* ",
        "1. ",
        "[",
        "]",
        "(",
        ")",
        "a.md",
        "b c.md",
        "<x.md>",
        "`y.md`",
        "[[z]]",
        " — ",
        ": ",
        "hook",
        "<!--",
        "-->",
        "```",
        "~~~",
        "---",
        "\ufeff",
        "  ",
        "#",
        "|",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_LINE_PIECES, max_size=10).map("".join))
def test_one_line_gives_the_entries_the_whole_text_reading_gives(line: str) -> None:
    # parse_index reads one plain line without the whole-text pass (no comment, fence, CR or
    # byte-order mark can unload it); with a newline after it the whole pass runs (a lone CR
    # is left out: in a text with no LF it ends a line, as_lf's rule, so a newline changes it)
    assert parse_index(line) == parse_index(line + "\n")


def test_an_entry_of_plain_parts_is_written_without_cleaning_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # plan41: a first plan formats a line for each unindexed memory (~1,350 on the bench dir),
    # nearly all a plain title, target and hook that format_index_entry writes as they are
    def refused(title: str) -> str:
        raise AssertionError(f"cleaned {title!r}")

    monkeypatch.setattr(index_lines, "_clean_title", refused)
    line = format_index_entry("Deploy notes", "team/project_deploy.md", "how we ship, step 1")
    assert line == "- [Deploy notes](team/project_deploy.md) \u2014 how we ship, step 1"
    assert format_index_entry("T", "t.md", "") == "- [T](t.md)"


_ENTRY_PARTS = st.lists(
    st.sampled_from(
        [
            "a",
            "Z",
            "0",
            "_",
            ".",
            "-",
            "/",
            ".md",
            " ",
            "  ",
            "\t",
            "\n",
            "\r",
            "[",
            "]",
            "(",
            ")",
            "<",
            ">",
            "\\",
            "\u00e9",
            "\u3000",
            "\u00a0",
            "\x1f",
            "\u2028",
            "w" * 70,
            "#",
        ]
    ),
    max_size=6,
).map("".join)


# near the shortcut's edge: blanks at either end, double spaces, a hook past MAX_HOOK_CHARS,
# an empty title or target, a name the gate refuses
_PLAIN_PARTS = st.lists(
    st.sampled_from(["a", "Z", "0", "_", ".", "-", "/", ".md", " ", "w" * 70]), max_size=6
).map("".join)
_PARTS = st.one_of(_ENTRY_PARTS, _PLAIN_PARTS)


@settings(max_examples=800, deadline=None)
@given(_PARTS, _PARTS, _PARTS)
def test_an_entry_written_as_given_is_the_one_cleaned_and_formatted(
    title: str, target: str, hook: str
) -> None:
    # plan41's shortcut gives what cleaning the title, bracketing the target and shortening
    # the hook give (or raises where they raise)
    def outcome() -> str:
        try:
            return format_index_entry(title, target, hook)
        except ValueError as why:
            return f"ValueError: {why}"

    fast = outcome()
    original = index_lines._written_as_given
    index_lines._written_as_given = lambda *parts: False  # the slow path
    try:
        assert outcome() == fast
    finally:
        index_lines._written_as_given = original


_TITLE_BITS = st.lists(
    st.sampled_from(
        ["T", "t x", " ", "\t", "\n", "\r", "\u00e9", "\u3000", "[", "]", "](", "(", ")", "\\", "`"]
    ),
    max_size=8,
).map("".join)
_PLAIN_TARGETS = st.sampled_from(
    ["a.md", "b/c.md", "n_1.md", "9.md", "x.y.md", "a-b.md", "N.MD", "a.txt", "_.md", ".a.md"]
)
_HOOKS = st.sampled_from(["", "h", "hook words", " spaced  out ", "w " * 90, "a\nb", "x\\"])


@settings(max_examples=500, deadline=None)
@given(_TITLE_BITS, _PLAIN_TARGETS, _HOOKS)
def test_a_line_keyed_by_its_target_reads_back_that_target(
    title: str, target: str, hook: str
) -> None:
    # plan42: the planner holds back the adds a fit drops first, knowing each one's pointer
    # without writing its line; whatever the hook, the line format_index_entry writes is read
    # as that target, with and without the search
    if not index_lines.keyed_by_target(title, target):
        return
    line = format_index_entry(title, target, hook)
    assert plain_entry_target(line) == target == entry_target(line)


def test_a_line_is_keyed_by_its_target_for_a_plain_memory_name_and_a_title_without_backslash() -> (
    None
):
    assert index_lines.keyed_by_target("Note [1]", "notes/n_1.md")
    assert not index_lines.keyed_by_target("C:\\", "n.md")  # the title's backslash is escaped
    assert not index_lines.keyed_by_target("N", "my note.md")  # written in angle brackets
    assert not index_lines.keyed_by_target("N", "./n.md")  # norm_target takes the ./ off
    assert not index_lines.keyed_by_target("N", "notes.txt")  # no memory file: no entry


def test_an_entry_citing_its_source_after_the_hook_is_cited_and_no_tool_drops_it() -> None:
    # real44: a person's citation after the hook ("(source: ...)", "[^1]") is the record of
    # where the fact comes from; a dangling cited line is left to a person, as prose is
    cited = parse_entry_line("- [Clay](clay.md) \u2014 the co-op [source: supplier email]", 3)
    plain = parse_entry_line("- [Clay](clay.md) \u2014 the co-op sells 25 lb bags", 4)
    footnote = parse_entry_line("* [Glaze](glaze.md): cone 6 [^1]", 5)
    assert cited is not None and cited.cited and not cited.removable
    assert footnote is not None and footnote.cited and not footnote.removable
    assert plain is not None and not plain.cited and plain.removable
    assert cited.hook == "the co-op [source: supplier email]"  # the hook still holds it
