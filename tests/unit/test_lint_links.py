"""lint.links: a `[[name]]` link no memory of the dir answers to is a warning naming the file,
the link (escaped, capped) and the fix; a link finds a memory by its name:, stem or stem with
hyphens, a team memory's link only in team/, and `[[` in code or a shell test is no link."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from pathlib import Path

from memdir_nb.lint import lint_memory_dir
from memdir_nb.lint.driver import lint_dir
from memdir_nb.lint.findings import Finding
from memdir_nb.storage.store import MemoryStore
from tests.conftest import slug_memory

NOW_MS = 1_790_000_000_000.0


def _dangling(root: Path, *, workers: int | None = None) -> list[Finding]:
    if workers is None:
        found = lint_memory_dir(root, now_ms=NOW_MS)
    else:
        found = lint_dir(root, now_ms=NOW_MS, workers=workers).findings
    return [f for f in found if f.rule == "dangling-link"]


def test_a_link_no_memory_answers_to_is_a_warning_naming_the_file_the_link_and_the_fix(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("wikilinked-scopes")
    found = {(f.path, f.line): f for f in _dangling(root)}
    assert set(found) == {
        ("project_ci_notes.md", 9),
        ("reference_glaze_sheet.md", 11),
        ("team/project_release_freeze.md", 11),
    }
    backlog = found[("reference_glaze_sheet.md", 11)]
    assert backlog.severity == "warning"
    assert "[[clay-supplier]]" in backlog.message and "no memory answers to" in backlog.message
    # the fix says both readings: a renamed or forgotten memory, or one still to write
    assert "point the link at the memory that holds it now" in backlog.hint
    assert "still to write can stay" in backlog.hint
    assert backlog.format().startswith("reference_glaze_sheet.md:11: warning [dangling-link]")


def test_a_link_finds_its_memory_by_name_stem_or_stem_with_hyphens_in_any_case(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("wikilinked-scopes")
    # [[kiln-schedule]] (name), [[project_kiln_schedule]] (stem), [[project-kiln-schedule]]
    # (stem with hyphens), [[glaze-sheet#cone 6]] (a heading), [[Kiln-Firing]] (capitals),
    # [[release-freeze]] (a team memory, from a private one) all find their memory
    named = {f.message for f in _dangling(root)}
    assert len(named) == 3  # clay-supplier, ci-runbook, and kiln-firing from team/
    for link in ("kiln-schedule", "project_kiln_schedule", "project-kiln-schedule", "glaze-sheet"):
        assert not any(f"[[{link}]]" in m for m in named)
    assert not any("Kiln-Firing" in m or "release-freeze" in m for m in named)


def test_a_team_memorys_link_to_a_private_memory_names_nothing_teammates_have(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("wikilinked-scopes")
    (team,) = [f for f in _dangling(root) if f.path.startswith("team/")]
    assert "[[kiln-firing]]" in team.message
    assert "only the private memory project_kiln_firing.md answers to" in team.message
    assert "promote project_kiln_firing.md to team/" in team.hint


def test_a_link_written_with_the_file_name_finds_the_memory(
    real_dir: Callable[[str], Path],
) -> None:
    # realdata34: `[[kiln-days.md]]` names the memory whose file that is
    root = real_dir("wikilink-index")
    assert not [f for f in lint_memory_dir(root) if f.rule == "dangling-link"]


def test_brackets_in_code_and_shell_tests_are_no_links(real_dir: Callable[[str], Path]) -> None:
    root = real_dir("wikilinked-scopes")
    found = _dangling(root)
    assert len(found) == 3
    shown = " ".join(f.message for f in found)
    for not_a_link in ("-n", "-d build", "-f orders.lock", '"order"', "FREEZE"):
        assert not_a_link not in shown


def test_each_missing_name_is_reported_once_per_file_at_its_first_line(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    root.mkdir()
    body = "See [[kiln-log]].\n\nAgain [[kiln-log|the log]] and [[KILN-LOG]]; also [[glaze-log]]."
    (root / "project_notes.md").write_text(slug_memory("notes", "Studio notes", "project", body))
    found = _dangling(root)
    assert [(f.line, f.message.split(",")[0]) for f in found] == [
        (9, "links [[kiln-log]]"),
        (11, "links [[glaze-log]]"),
    ]


def test_a_link_by_the_stem_without_its_type_finds_the_memory(tmp_path: Path) -> None:
    """A published dir of 111 memories links `[[no-fabrication]]` for feedback_no-fabrication.md
    (its name: another slug): half of what lint first called dangling there."""
    root = tmp_path / "mem"
    root.mkdir()
    rule = slug_memory("quote-sources", "Quote sources", "feedback", "Never invent events.")
    (root / "feedback_no_fabrication.md").write_text(rule)
    body = "Follow [[no-fabrication]] and [[no_fabrication]]; see [[fabrication]] too."
    (root / "project_exam.md").write_text(slug_memory("exam", "Exam drafts", "project", body))
    assert [f.message.split(",")[0] for f in _dangling(root)] == ["links [[fabrication]]"]


def test_a_link_by_the_stem_a_numbered_file_had_before_its_number_finds_the_memory(
    real_dir: Callable[[str], Path],
) -> None:
    # real35: a dir that numbered its 250 files kept 99 links by the old stems, each a finding
    found = _dangling(real_dir("numbered-files"))
    assert [(f.path, f.message.split(",")[0]) for f in found] == [
        ("3-reference_clay_supplier.md", "links [[project_glaze_recipes]]")
    ]


def test_a_link_in_the_other_unicode_normal_form_finds_the_memory(tmp_path: Path) -> None:
    """attack34: a file macOS named `café` decomposed, linked `[[café]]` composed as typed (one
    name on screen and to the model) was a dangling link, read by Claude Code's prompt as a
    memory still to write; a forget of it named no link it left. Links now compare in NFC."""
    root = tmp_path / "mem"
    root.mkdir()
    decomposed = unicodedata.normalize("NFD", "project_café")
    cafe = slug_memory(unicodedata.normalize("NFD", "café-rota"), "Cafe rota", "project", "Mon.")
    (root / f"{decomposed}.md").write_text(cafe)
    body = "See " + unicodedata.normalize("NFC", "[[project_café]] and [[CAFÉ-ROTA]]") + "."
    (root / "project_exam.md").write_text(slug_memory("exam", "Exam drafts", "project", body))
    assert _dangling(root) == []
    store = MemoryStore(root, now_ms=NOW_MS)
    store.forget(f"{decomposed}.md")
    assert "project_exam.md" in store.last_links_left.described()
    assert len(_dangling(root)) == 2


def test_a_forgotten_memory_leaves_findings_in_the_memories_that_linked_it(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("wikilinked")
    assert {f.path for f in _dangling(root)} == {"reference_glaze_sheet.md"}  # clay-supplier
    MemoryStore(root, now_ms=NOW_MS).forget("project_kiln_schedule.md")
    messages = {(f.path, f.message.split(",")[0]) for f in _dangling(root)}
    assert messages == {
        ("reference_glaze_sheet.md", "links [[clay-supplier]]"),
        ("reference_glaze_sheet.md", "links [[kiln-schedule]]"),
        ("feedback_short_answers.md", "links [[project_kiln_schedule]]"),
        ("feedback_short_answers.md", "links [[project-kiln-schedule]]"),
    }


def test_a_hostile_link_is_shown_escaped_on_one_line_and_capped(tmp_path: Path) -> None:
    root = tmp_path / "mem"
    root.mkdir()
    hostile = "evil\x1bPq\x07\u202e\x9b" + "x" * 500
    body = f"See [[{hostile}]] for more."
    (root / "project_notes.md").write_text(slug_memory("notes", "Studio notes", "project", body))
    (found,) = _dangling(root)
    assert "\x1b" not in found.message and "\u202e" not in found.message
    assert "\\x1b" in found.message
    link = found.message.split("[[", 1)[1].split("]]", 1)[0]
    assert len(link) < 100 and link.endswith("\u2026")


def test_links_linted_on_a_second_core_give_the_same_findings(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("wikilinked-scopes")
    assert _dangling(root, workers=2) == _dangling(root, workers=1) == _dangling(root)
    assert len(_dangling(root, workers=2)) == 3


def test_a_document_key_or_a_placeholder_in_brackets_is_no_dangling_link(tmp_path: Path) -> None:
    """links34, on published dirs: `[[ADR-0022]]` cites the repository's design record and
    `[[none]]` says there is no example; lint called both links to a missing memory."""
    root = tmp_path / "mem"
    root.mkdir()
    body = (
        "Charts aggregate in the browser, as [[DEC-0031]] decided.\n\n"
        "Worked example: [[none]] yet. Open question: [[TBD]].\n\n"
        "Related: [[chart-colours]]."
    )
    (root / "project_charts.md").write_text(slug_memory("charts", "Chart rules", "project", body))
    assert [f.message.split(",")[0] for f in _dangling(root)] == ["links [[chart-colours]]"]
