"""storage.link_report: the `[[name]]` links a step that removes, renames or moves memories
leaves naming nothing, read once before the step; links that named nothing before are not
blamed on it, and nothing is rewritten."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from memdir_nb.storage.link_report import LinkLeft, LinkSnapshot, links_left_by_rewrites
from tests.support import snapshot


def test_removing_a_memory_names_each_memory_that_linked_it_and_the_links(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("wikilinked")
    before = snapshot(root)
    left = LinkSnapshot.read(root).left_dangling({"project_kiln_schedule.md": None})
    assert left.items == (
        LinkLeft(
            "feedback_short_answers.md",
            ("project-kiln-schedule", "project_kiln_schedule"),
            ("", ""),
        ),
        LinkLeft("reference_glaze_sheet.md", ("kiln-schedule",), ("",)),
    )
    assert snapshot(root) == before  # reading is all it does


def test_a_link_that_named_nothing_before_the_step_is_not_blamed_on_it(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("wikilinked")  # [[clay-supplier]] names a memory not written yet
    left = LinkSnapshot.read(root).left_dangling({"reference_glaze_sheet.md": None})
    assert [(i.rel, i.names) for i in left.items] == [
        ("feedback_short_answers.md", ("glaze-sheet",))
    ]
    assert not LinkSnapshot.read(root).left_dangling({"feedback_short_answers.md": None})


def test_a_rename_keeps_links_by_name_and_offers_the_new_stem_for_links_by_stem(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("wikilinked")
    left = LinkSnapshot.read(root).left_dangling(
        {"project_kiln_schedule.md": "project_kiln_notes.md"}
    )
    # [[kiln-schedule]] still finds it by its name:; the stems moved
    assert left.items == (
        LinkLeft(
            "feedback_short_answers.md",
            ("project-kiln-schedule", "project_kiln_schedule"),
            ("project-kiln-notes", "project_kiln_notes"),
        ),
    )
    message = left.message("project_kiln_schedule.md, now project_kiln_notes.md,")
    assert message.startswith("1 memory still links project_kiln_schedule.md, now ")
    assert "[[project_kiln_schedule]] -> [[project_kiln_notes]]" in message
    assert "left as written" in message


def test_a_new_name_strands_links_by_the_old_name_only_and_offers_the_new_one(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("wikilinked")
    # its stem without the type still answers to [[kiln-schedule]]: a new name strands nothing
    kept = LinkSnapshot.read(root).left_dangling({}, {"project_kiln_schedule.md": "kiln-cooling"})
    assert kept.items == ()
    os.rename(root / "project_kiln_schedule.md", root / "project_firing_plan.md")
    left = LinkSnapshot.read(root).left_dangling({}, {"project_firing_plan.md": "kiln-cooling"})
    assert left.items == (
        LinkLeft("reference_glaze_sheet.md", ("kiln-schedule",), ("kiln-cooling",)),
    )


def test_moving_a_team_memory_to_private_strands_the_team_links_only(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("wikilinked-scopes")
    left = LinkSnapshot.read(root).left_dangling(
        {"team/project_release_freeze.md": "project_release_freeze.md"}
    )
    # the private ci notes still see it; the team style memory does not
    assert [(i.rel, i.names) for i in left.items] == [
        ("team/feedback_team_style.md", ("release-freeze",))
    ]


def test_a_report_names_at_most_five_memories_and_counts_the_rest(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    root.mkdir()
    (root / "project_kiln.md").write_text("---\nname: kiln\n---\nThe kiln.\n")
    for i in range(8):
        (root / f"project_note_{i}.md").write_text(f"---\nname: note-{i}\n---\nSee [[kiln]].\n")
    left = LinkSnapshot.read(root).left_dangling({"project_kiln.md": None})
    assert len(left.items) == 8
    assert left.described().endswith("and 3 more")
    assert left.message("project_kiln.md, which was forgotten,").startswith("8 memories still link")


def _studio(root: Path) -> None:
    """Memories that point at each other with Markdown links, as the KSword dir's do."""
    root.mkdir()
    (root / "team").mkdir()
    (root / "project_wheel.md").write_text(
        "---\nname: wheel\n---\nThe wheel is serviced monthly.\n"
    )
    (root / "team" / "project_glazes.md").write_text(
        "---\nname: glazes\n---\nCone six, see [the wheel](../project_wheel.md).\n"
    )
    (root / "feedback_orders.md").write_text(
        "---\nname: orders\n---\n"
        "Clay orders follow [wheel upkeep](project_wheel.md#monthly) and\n"
        '[glaze notes](team/project_glazes.md "glazes"); the old [kiln log](kiln_log.md) is gone.\n'
        "In code: `[w](project_wheel.md)`, and a site: [w](https://example.org/project_wheel.md).\n"
    )


def test_a_markdown_link_to_a_removed_memory_is_named_as_a_wikilink_is(tmp_path: Path) -> None:
    # links34: memories link each other as [text](other.md) too (1nj0k/KSword); a forget left
    # them pointing at nothing without a word
    root = tmp_path / "mem"
    _studio(root)
    left = LinkSnapshot.read(root).left_dangling({"project_wheel.md": None})
    assert left.items == (
        LinkLeft("feedback_orders.md", (), (), ("project_wheel.md",), ("",)),
        LinkLeft("team/project_glazes.md", (), (), ("../project_wheel.md",), ("",)),
    )
    message = left.message("project_wheel.md, which was forgotten,")
    assert message.startswith("2 memories still link project_wheel.md, which was forgotten,")
    assert "feedback_orders.md ([…](project_wheel.md))" in message
    # the link to kiln_log.md named nothing before the step: not blamed on it
    assert not LinkSnapshot.read(root).left_dangling({"feedback_orders.md": None})


def test_a_moved_memory_file_offers_the_path_from_each_linking_memory(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    _studio(root)
    left = LinkSnapshot.read(root).left_dangling({"team/project_glazes.md": "project_glazes.md"})
    # the orders link moved with nothing; the glazes memory's own link to the wheel, written
    # from team/, now points above the dir
    assert left.items == (
        LinkLeft("feedback_orders.md", (), (), ("team/project_glazes.md",), ("project_glazes.md",)),
        LinkLeft("project_glazes.md", (), (), ("../project_wheel.md",), ("project_wheel.md",)),
    )
    assert "[…](team/project_glazes.md) -> […](project_glazes.md)" in left.described()


def test_a_file_a_rewrite_creates_answers_to_its_names_so_its_links_are_not_named(
    real_dir: Callable[[str], Path],
) -> None:
    # keep35's limit (lefts36): a plan that retires a memory and writes a new one under its old
    # `name:` named the links as stranded, though they find the new file; a new file that takes
    # the retired one's `name:` is that memory moved, and a link by the old stem gets the new one
    root = real_dir("linked-by-name")
    old = "project_kiln_schedule.md"
    text = (root / old).read_text()
    before: dict[str, str | None] = {old: text, "project_kiln_days.md": None}
    left = links_left_by_rewrites(root, before, {old: None, "project_kiln_days.md": text})
    assert [(i.rel, i.names, i.new_names) for i in left.items] == [
        ("user_potter.md", ("kiln-schedule",), ("kiln-days",))
    ]
    elsewhere = text.replace("firing-calendar", "kiln-notes")  # another memory: old links lost
    left = links_left_by_rewrites(root, before, {old: None, "project_kiln_days.md": elsewhere})
    assert [i.rel for i in left.items] == [
        "feedback_glaze.md",
        "reference_shelf.md",
        "user_potter.md",
    ]
