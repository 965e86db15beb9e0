"""formats/wikilinks: the `[[name]]` links of a memory, found and pointed elsewhere."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memdir_nb.formats.wikilinks import (
    LinkTargets,
    file_link_target,
    file_link_uses,
    file_relinked,
    first_link,
    link_uses,
    linked_names,
    names_linking,
    names_to_link,
    relinked,
    scopes_a_link_sees,
    shown_link,
)
from memdir_nb.formats.wikilinks import _code_spans as code_spans


def test_the_names_a_memory_links_are_read_without_their_label_or_heading() -> None:
    text = (
        "See [[kiln-schedule]], [[ glaze-sheet ]], [[kiln-schedule|the notes]], "
        "[[project_clay#orders]] and [[]]; a shell test `[[ -f x` is no link, nor a heading "
        "of the same file [[#Cooling]]; in a table | [[clay-supplier\\|the co-op]] |"
    )
    assert linked_names(text) == {"kiln-schedule", "glaze-sheet", "project_clay", "clay-supplier"}
    assert linked_names("no links here") == set()


def test_relinking_keeps_labels_and_headings_and_leaves_other_links_alone() -> None:
    text = (
        "A [[kiln-schedule]], B [[kiln-schedule|the notes]], C [[kiln-schedule#cooling]], "
        "D [[kiln-schedule-old]], E [[glaze-sheet]] | F [[kiln-schedule\\|notes]] |\n"
    )
    new, count = relinked(text, {"kiln-schedule": "kiln-firing"})
    assert count == 4
    assert new == (
        "A [[kiln-firing]], B [[kiln-firing|the notes]], C [[kiln-firing#cooling]], "
        "D [[kiln-schedule-old]], E [[glaze-sheet]] | F [[kiln-firing\\|notes]] |\n"
    )
    assert relinked(text, {}) == (text, 0)
    assert relinked("no links", {"kiln-schedule": "kiln-firing"}) == ("no links", 0)


def test_a_memory_is_linked_by_its_name_its_stem_and_its_stem_with_hyphens() -> None:
    assert names_linking("kiln-schedule", "project_kiln_schedule")[:3] == (
        "kiln-schedule", "project_kiln_schedule", "project-kiln-schedule",
    )  # fmt: skip


def test_a_memory_is_linked_by_its_stem_without_its_leading_type_too() -> None:
    """A published dir of 111 memories links `[[no-fabrication]]` for feedback_no-fabrication.md."""
    assert names_linking("no-fabrication-rule", "feedback_no-fabrication")[3:5] == (
        "no-fabrication", "no-fabrication",
    )  # fmt: skip
    assert names_linking("x", "Project-kiln_log")[3:5] == ("kiln_log", "kiln-log")
    # no type leading the stem, or the type alone: the stem's own two forms again
    assert names_linking("x", "kiln_log")[3:5] == ("kiln_log", "kiln-log")
    assert names_linking("x", "project_")[3:5] == ("project_", "project-")
    assert names_linking("x", "projects_plan")[3:5] == ("projects_plan", "projects-plan")
    targets = LinkTargets([("feedback_no-fabrication.md", "private", "fabrication-rule")])
    assert targets.finds("no-fabrication", "private")
    assert not targets.finds("fabrication", "private")


def test_a_memory_is_linked_by_its_stem_without_a_leading_number_too() -> None:
    """real35: a dir that numbers its files (`75-feedback_native_first.md`) keeps the links
    written before, `[[feedback_native_first]]`; 99 of its 148 `dangling-link` findings."""
    assert names_linking("x", "75-feedback_kiln_rules")[3:] == (
        "kiln_rules", "kiln-rules", "feedback_kiln_rules", "feedback-kiln-rules",
    )  # fmt: skip
    assert names_linking("x", "kiln_log")[5:] == ("kiln_log", "kiln-log")  # no number
    assert names_linking("x", "75-")[5:] == ("75-", "75-")  # the number alone stays the stem
    targets = LinkTargets([("12-project_glaze_batches.md", "private", "Glaze batches")])
    for link in ("project_glaze_batches", "project-glaze-batches", "glaze_batches"):
        assert targets.find(link, "private") == "12-project_glaze_batches.md", link
    assert not targets.finds("12", "private")


def test_links_in_code_shell_tests_and_subscripts_are_not_links_to_memories() -> None:
    text = (
        "See [[kiln-firing]] and [[Ann's setup]].\n"
        'Guard: `[[ -n "$CI" ]]` and `[[glaze-sheet]]` in a code span.\n'
        "if [[ -d build ]]; then [[ $a == b ]]; df[[\"col\"]] and df[['col']]\n"
        "```sh\n[[ -f orders.lock ]] && [[kiln-log]]\n```\n"
        "related: [[clay-supplier|the co-op]] [[#Heading]]"
    )
    assert link_uses(text) == [(0, "kiln-firing"), (0, "Ann's setup"), (6, "clay-supplier")]
    assert link_uses("no links") == []


def test_a_team_memorys_link_sees_team_memories_only_and_a_private_ones_sees_both() -> None:
    assert scopes_a_link_sees("team") == ("team",)
    assert scopes_a_link_sees("private") == ("private", "team")
    targets = LinkTargets(
        [
            ("project_kiln_firing.md", "private", "kiln-firing"),
            ("team/project_release_freeze.md", "team", "release-freeze"),
            ("user_notes.md", "private", None),  # no name: its stem stands in
        ]
    )
    assert targets.finds("kiln-firing", "private") and targets.finds("KILN-FIRING", "private")
    assert not targets.finds("kiln-firing", "team")
    assert targets.private_only("kiln-firing") == "project_kiln_firing.md"
    for name in ("release-freeze", "project_release_freeze", "project-release-freeze"):
        assert targets.finds(name, "team") and targets.finds(name, "private")
        assert targets.private_only(name) is None
    assert targets.finds("user_notes", "private") and targets.finds("user-notes", "private")
    assert not targets.finds("clay-supplier", "private")


def test_a_link_is_shown_on_one_escaped_line_and_capped() -> None:
    assert shown_link("kiln-firing") == "[[kiln-firing]]"
    shown = shown_link("a\x1b[2Jb\n\u202e" + "x" * 200)
    assert "\x1b" not in shown and "\n" not in shown and "\u202e" not in shown
    assert shown.startswith("[[a\\x1b[2Jb\\x0a") and shown.endswith("\u2026]]")
    assert len(shown) < 80


def test_a_link_written_with_its_file_name_names_the_memory_of_that_stem() -> None:
    # realdata34: real memories link `[[project_v0_1_status.md]]`; the model reading it finds
    # the file, so the link is no link to a memory still to write, and a merge points it too
    text = "Days in [[kiln-days.md]] and [[Kiln-Days.MD|the days]]; nothing in [[.md]]."
    assert linked_names(text) == {"kiln-days", "Kiln-Days"}
    assert [name for _, name in link_uses(text)] == ["kiln-days", "Kiln-Days"]
    assert LinkTargets([("kiln-days.md", "private", "kiln-days")]).finds("Kiln-Days", "private")
    # both links find kiln-days.md (names compare case-folded), so a merge points both (links34)
    assert relinked(text, {"kiln-days": "kiln-firing"}) == (
        "Days in [[kiln-firing.md]] and [[kiln-firing.MD|the days]]; nothing in [[.md]].",
        2,
    )


def test_the_first_link_of_a_line_skips_code_spans_and_shell_tests() -> None:
    line = "- `[[ -f x ]]` then [[ -d y ]], see [[kiln-days|Kiln days]] and [[shelf-rent]]"
    start, end, name, label = first_link(line) or (0, 0, "", "")
    assert (line[start:end], name, label) == ("[[kiln-days|Kiln days]]", "kiln-days", "Kiln days")
    in_table = first_link("| [[shelf-rent\\|the rent]] |")
    assert in_table is not None and in_table[2:] == ("shelf-rent", "the rent")
    assert first_link("no link, `[[kiln-days]]` in code") is None


def test_a_document_key_or_a_placeholder_in_brackets_names_no_memory() -> None:
    # links34: a published memory cites the repository's design record as `[[ADR-0022]]`, and
    # another writes "Working example: [[none]]"; neither is a memory, written or to write
    text = (
        "Settled by [[RFC-0042]] and [[OPS-7]]; example: [[none]], [[N/A]], [[ TBD ]].\n"
        "See [[glaze-sheet]], [[rfc-notes]], [[Kiln-2]] and [[project_ops_7]].\n"
    )
    names = ["glaze-sheet", "rfc-notes", "Kiln-2", "project_ops_7"]
    assert [name for _, name in link_uses(text)] == names
    assert linked_names(text) == set(names)
    found = first_link("- [[RFC-0042]] first, then [[shelf-rent]] — hook")
    assert found is not None and found[2] == "shelf-rent"
    assert relinked(text, {"none": "kiln-firing", "RFC-0042": "kiln-firing"}) == (text, 0)


def test_the_links_a_merge_points_are_the_links_lint_reads() -> None:
    # links34: lint and the link reports skip `[[` in code and find a memory in any capitals;
    # the dream's relink read every `[[` and matched capitals exactly, so it rewrote code and
    # left `[[Kiln-Schedule]]` naming the merged-away memory
    text = (
        "Read [[Kiln-Schedule]] first.\n"
        "```sql\n"
        "select '[[kiln-schedule]]' from notes;\n"
        "```\n"
        "The search `[[kiln-schedule]]` finds it; so does [[kiln-schedule|the plan]].\n"
    )
    assert [(no, name) for no, name in link_uses(text)] == [
        (0, "Kiln-Schedule"),
        (4, "kiln-schedule"),
    ]
    assert linked_names(text) == {"Kiln-Schedule", "kiln-schedule"}
    spans = "`[[kiln-a]]` [[kiln-b]] `x` `[[kiln-c]]` [[kiln-d]] `[[kiln-e]]`"
    assert [name for _, name in link_uses(spans)] == ["kiln-b", "kiln-d"]
    new, count = relinked(text, {"kiln-schedule": "kiln-firing"})
    assert count == 2
    assert new == (
        "Read [[kiln-firing]] first.\n"
        "```sql\n"
        "select '[[kiln-schedule]]' from notes;\n"
        "```\n"
        "The search `[[kiln-schedule]]` finds it; so does [[kiln-firing|the plan]].\n"
    )


def test_a_markdown_link_to_a_memory_file_is_read_outside_code_and_resolved_from_its_folder() -> (
    None
):
    text = (
        'Upkeep: [the wheel](project_wheel.md#monthly), [glazes](<team/glazes.md> "t").\n'
        "Not these: `[w](code.md)`, [site](https://example.org/a.md), [home](~/notes.md),\n"
        "[abs](/etc/x.md), [pic](wheel.png), [[wheel]].\n"
        "```\n[fenced](fenced.md)\n```\n"
        "Above the dir: [claude](../../CLAUDE.md)"
    )
    assert file_link_uses(text) == [
        (0, "project_wheel.md"),
        (0, "team/glazes.md"),
        (6, "../../CLAUDE.md"),
    ]
    assert file_link_target("team/glazes.md", "../project_wheel.md") == "project_wheel.md"
    assert file_link_target("team/glazes.md", "./kiln.md") == "team/kiln.md"
    assert file_link_target("notes.md", "../../CLAUDE.md") is None


def test_a_markdown_link_is_pointed_at_a_new_file_with_its_text_part_and_title_kept() -> None:
    text = (
        'See [the days](kiln-days.md#cool "slow") and [<x>](<kiln-days.md>).\n'
        "`[code](kiln-days.md)` and [other](glaze.md)\n"
        "```\n[fenced](kiln-days.md)\n```\n"
    )
    out, count = file_relinked(text, {"kiln-days.md": "team/kiln.md"})
    assert count == 2
    assert out == (
        'See [the days](team/kiln.md#cool "slow") and [<x>](<team/kiln.md>).\n'
        "`[code](kiln-days.md)` and [other](glaze.md)\n"
        "```\n[fenced](kiln-days.md)\n```\n"
    )
    assert file_relinked(text, {}) == (text, 0)


def test_a_link_pointed_at_a_file_named_with_a_space_or_parenthesis_stays_a_link() -> None:
    # attack36: a merge into `project kiln (firing).md` wrote `[the schedule](project kiln
    # (firing).md)`, which is no Markdown link (a bare target holds no space), and which no
    # reader here found again; `<...>` holds one, as CommonMark says
    text = 'See [the days](kiln-days.md#cool "slow"), [again](<kiln-days.md>), [x](glaze.md).\n'
    out, count = file_relinked(text, {"kiln-days.md": "kiln days (v2).md"})
    assert count == 2
    assert out == (
        'See [the days](<kiln days (v2).md#cool> "slow"), [again](<kiln days (v2).md>), '
        "[x](glaze.md).\n"
    )
    assert file_link_uses(out) == [
        (0, "kiln days (v2).md"),
        (0, "kiln days (v2).md"),
        (0, "glaze.md"),
    ]


def test_a_link_in_angle_brackets_may_name_a_file_with_spaces() -> None:
    text = "[kiln](<team/kiln days.md>) and [part](<my notes (old).md#setup>), not [bare](a b.md)\n"
    assert file_link_uses(text) == [(0, "team/kiln days.md"), (0, "my notes (old).md")]
    out, count = file_relinked(text, {"team/kiln days.md": "kiln.md"})
    assert (out, count) == (text.replace("<team/kiln days.md>", "<kiln.md>"), 1)


@pytest.mark.parametrize("name", ["kiln|firing", "kiln#firing", "kiln]] firing", "kiln [[x"])
def test_a_name_that_no_link_can_hold_is_linked_by_the_files_stem(name: str) -> None:
    # attack36: a merge wrote the absorbing memory's name into the links it pointed, and
    # `[[kiln|firing]]` is a link to `kiln` (label `firing`), `[[kiln#firing]]` to `kiln`
    forms = names_to_link(name, "project_kiln_firing")
    assert forms[0] == "project_kiln_firing"
    assert forms[1:] == (
        "project_kiln_firing",
        "project-kiln-firing",
        "kiln_firing",
        "kiln-firing",
        "project_kiln_firing",
        "project-kiln-firing",
    )
    assert names_to_link("kiln-firing", "project_kiln_firing")[0] == "kiln-firing"
    assert names_to_link(name, "a#b") == (None,) * 7  # no form reads back: the link is left


# the inline code spans as a backreference regex finds them (the rule before redos44), kept as
# the oracle: quadratic on a long backtick run, so only short lines are drawn
_SPAN_ORACLE = re.compile(r"(`+)[^`\n]*?\1")


@given(st.lists(st.sampled_from(["`", "``", "```", "a", " ", "\n", "[[a]]"]), max_size=20))
def test_code_spans_are_those_of_the_backreference_rule(pieces: list[str]) -> None:
    line = "".join(pieces)
    assert code_spans(line) == [m.span() for m in _SPAN_ORACLE.finditer(line)]


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ("[[kiln-days]] " + "`" * 262_143, {"kiln-days"}),  # a whole memory file of backticks
        # (not at the line's start, where a run of backticks is a fence)
        ("a " + "`" * 100_000 + " [[kiln-days]] " + "`" * 100_000, set()),  # closed: code
        ("a " + "`" * 100_000 + " [[kiln-days]] " + "`" * 99_999, {"kiln-days"}),  # by fewer
        ("a " + "`" * 100_001 + "[[kiln-days]]", {"kiln-days"}),  # unclosed: opens nothing
    ],
    ids=["run-after-link", "closed-run", "shorter-closer", "unclosed-run"],
)
def test_a_link_beside_a_long_backtick_run_is_read_by_the_code_span_rule(
    line: str, names: set[str]
) -> None:
    """A run of n backticks opens code that only a run of at least n closes (redos44: such a
    line once cost time quadratic in n, 3.3 s a read at a memory file's 256 KiB)."""
    assert linked_names(line) == names
    found = first_link(line)
    assert (found[2] if found else None) == next(iter(names), None)
