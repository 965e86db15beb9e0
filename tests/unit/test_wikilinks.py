"""formats/wikilinks: the `[[name]]` links of a memory, found and pointed elsewhere."""

from __future__ import annotations

from memdir_nb.formats.wikilinks import linked_names, names_linking, relinked


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
    assert names_linking("kiln-schedule", "project_kiln_schedule") == (
        "kiln-schedule", "project_kiln_schedule", "project-kiln-schedule",
    )  # fmt: skip
