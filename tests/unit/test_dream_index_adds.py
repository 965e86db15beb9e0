"""dream.index_adds: the missing index lines a fit drops first, held back from the plan's fit
(plan42). The plan is the same as the one that writes, simulates and fits every add."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdir_nb.dream import index_repairs as index_repairs_module
from memdir_nb.dream.actions import IndexRemove, PlanAction, TrashFile
from memdir_nb.dream.compare import _Mem
from memdir_nb.dream.index_adds import fit_shows_held_dropped, held_back
from memdir_nb.dream.index_repairs import index_actions
from memdir_nb.formats import index
from tests.support.calls import count_calls

_TYPES = ("project", "reference", "feedback", "user")


def _mem(rel: str, name: str, description: str, kind: str, mtime_ms: float) -> _Mem:
    return _Mem(rel, rel, "", f"body of {rel}", name, description, kind, f"body of {rel}", mtime_ms)


def _plan_index(
    root: Path, text: str, mems: list[_Mem], merged: set[str], actions: list[PlanAction]
) -> tuple[list[PlanAction], list[str]]:
    notes: list[str] = []
    texts: dict[str, str | None] = {"MEMORY.md": text}
    found = index_actions(root, texts, {}, "", mems, merged, actions, notes)
    return found, notes


def _every_add_fitted(
    root: Path, text: str, mems: list[_Mem], merged: set[str], actions: list[PlanAction]
) -> tuple[list[PlanAction], list[str]]:
    """The plan's index actions with no add held back: every add written, simulated, fitted."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(index_repairs_module, "held_back", lambda *_: (frozenset[str](), 0))
        return _plan_index(root, text, mems, merged, actions)


def _notes_dir(n_listed: int, n_missing: int) -> tuple[str, list[_Mem]]:
    """An index of n_listed lines under a heading, and n_missing older memories it does not list."""
    mems = [
        _mem(f"project_{i:04d}.md", f"Note {i}", f"what note {i} says", "project", 1e9 + i)
        for i in range(n_listed + n_missing)
    ]
    listed = mems[n_missing:]
    lines = [
        "# Memory",
        "",
        "## Notes",
        *(f"- [{m.name}]({m.rel}) \u2014 {m.description}" for m in listed),
    ]
    return "\n".join(lines) + "\n", mems


def test_the_adds_a_fit_drops_before_its_cut_are_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """plan42: a first plan of the bench dir wrote, simulated and fitted a line for each of its
    ~1,350 unlisted memories to propose the ~50 the fit keeps. The older ones, which more than
    200 listed or added files follow in the fit's order, are held back: the same actions and
    notes, with a line written for the adds near the cut only."""
    text, mems = _notes_dir(150, 600)
    expected = _every_add_fitted(tmp_path, text, mems, set(), [])
    made = count_calls(monkeypatch, index_repairs_module, "IndexAdd")
    found, notes = _plan_index(tmp_path, text, mems, set(), [])
    assert (found, notes) == expected
    assert [a.kind for a in found] == ["add_missing_index_line"] * 44  # the fit keeps them all
    assert any(n.startswith("556 memories without a line in MEMORY.md") for n in notes)
    assert len(made) < 120  # every one of the 600 before


def test_held_back_takes_the_adds_before_the_last_one_that_more_than_200_lines_follow() -> None:
    _, mems = _notes_dir(150, 60)
    missing = [(m.rel, m) for m in mems[:60]]
    order = tuple(m.rel for m in mems)  # oldest first
    listed = {m.rel for m in mems[60:]}
    held, place = held_back(missing, listed, order)
    # 150 listed and the 51 newest missing files after place 8: a fit keeps no more lines
    assert place == 8 and held == frozenset(m.rel for m in mems[:8])
    assert held_back(missing[::2], listed, order) == (frozenset(), 0)  # 30 adds: none is cut
    odd = [(rel, _mem(rel, "C:\\", m.description, m.type, m.mtime_ms)) for rel, m in missing]
    assert held_back(odd, listed, order) == (frozenset(), 8)  # no line keyed by its file


def test_a_fit_shows_the_held_adds_dropped_only_past_a_line_it_dropped_after_them() -> None:
    before, mems = _notes_dir(3, 3)  # 3, 4 and 5 listed; 0 held, 1 and 2 added
    order = tuple(m.rel for m in mems)
    added = [(m.rel, m) for m in mems[1:3]]
    lines = [f"- [{m.name}]({m.rel}) \u2014 {m.description}\n" for m in mems[1:3]]
    assert fit_shows_held_dropped(before, before + lines[1], {mems[0].rel}, added, order, 1)
    # no add dropped, only a line placed before place, a held file listed already, a CR,
    # frontmatter
    assert not fit_shows_held_dropped(
        before, before + "".join(lines), {mems[0].rel}, added, order, 1
    )
    assert not fit_shows_held_dropped(before, before + lines[1], {mems[0].rel}, added, order, 2)
    assert not fit_shows_held_dropped(before, before + lines[1], {mems[3].rel}, added, order, 1)
    assert not fit_shows_held_dropped(
        before.replace("\n", "\r\n"), before + lines[1], {mems[0].rel}, added, order, 1
    )
    front = "---\nx: y\n---\n" + before
    assert not fit_shows_held_dropped(front, front + lines[1], {mems[0].rel}, added, order, 1)


_NAMES = ["Note", "C:\\", "a [b] c", "", " pad ", "caf\u00e9", "x\ny", "](", "t\\]"]
_RELS = ["project_{i:03d}.md", "notes/n_{i:03d}.md", "my note {i}.md", "n({i}).md", "N_{i}.MD"]
_HOOKS = ["", "short hook {i}", "a hook " + "w" * 150 + " {i}", "see project_007.md {i}"]
_EXTRA = [
    "",
    "",
    "## Notes",
    "## Other",
    "### Deep",
    "prose that names project_011.md and project_012.md",
    "- [Gone](gone_{i}.md) \u2014 no such file",
    "<!-- a comment -->",
    "<!--",
    "-->",
    "```",
    "| a | table |",
    "- " + "long prose line " * 12,
]


def _random_case(seed: int) -> tuple[str, list[_Mem], set[str], list[PlanAction]]:
    rng = random.Random(seed)
    n = rng.randint(150, 330)
    times = [1e9 + rng.randint(0, 40) * 1e3 for _ in range(n)]
    shape = [rng.choice(_RELS) if rng.random() < 0.2 else _RELS[0] for _ in range(n)]
    mems = [
        _mem(
            shape[i].format(i=i),
            rng.choice(_NAMES) if rng.random() < 0.25 else f"Note {i}",
            rng.choice(_HOOKS).format(i=i) if rng.random() < 0.5 else f"what {i} says",
            rng.choice(_TYPES),
            times[i],
        )
        for i in range(n)
    ]
    listed = rng.sample(mems, rng.randint(0, min(n, 230)))
    lines = [f"- [{m.name or 'x'}]({m.rel}) \u2014 {m.description}" for m in listed]
    for _ in range(rng.choice([0, 2, 6, 40])):
        lines.insert(rng.randint(0, len(lines)), rng.choice(_EXTRA).format(i=rng.randint(0, 9)))
    if rng.random() < 0.15:
        lines.insert(0, "---")
    if rng.random() < 0.2:
        lines.insert(rng.randint(0, len(lines)), index.REBUILD_HEADING)
    text = "\n".join(lines) + rng.choice(["\n", "", "\n\n"])
    if rng.random() < 0.05:
        text = text.replace("\n", "\r\n")
    merged: set[str] = set()
    actions: list[PlanAction] = []
    for m in rng.sample(listed, min(len(listed), rng.randint(0, 6))):
        merged.add(m.rel)
        actions.append(
            PlanAction(
                f"merge:{m.rel}",
                "merge_duplicates",
                "merged",
                ("keeper.md", m.rel),
                (TrashFile(m.rel), IndexRemove("MEMORY.md", m.rel, drop_emptied=True)),
            )
        )
    return text, mems, merged, actions


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.integers(0, 2**32 - 1))
def test_an_index_planned_with_adds_held_back_is_planned_as_with_every_add(
    tmp_path: Path, seed: int
) -> None:
    # plan42: whatever the index (headings, comments, fences left open, frontmatter, CRLF,
    # prose naming files, dangling lines, merged files' lines) and whatever the memories
    # (tied times, names with backslashes or brackets, paths with blanks, parentheses or
    # folders, long hooks), the actions and notes are those of the fit over every add
    text, mems, merged, actions = _random_case(seed)
    assert _plan_index(tmp_path, text, mems, merged, actions) == _every_add_fitted(
        tmp_path, text, mems, merged, actions
    )
