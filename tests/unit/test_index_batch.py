"""index_batch: many index edits in one pass give exactly the text the one-edit functions give."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memdir_nb.formats import index, index_batch, index_caps
from memdir_nb.formats.index_batch import IndexText, fit_index
from memdir_nb.formats.index_caps import block_left_open, entry_flags_and_closer, entry_line_flags
from memdir_nb.formats.index_edits import split_keep_end
from memdir_nb.formats.index_lines import plain_entry_target
from tests.support.calls import count_calls

TARGETS = ["a.md", "b.md", "./c.md", "<d e.md>", "d e.md", "team/x.md", "c.md"]


def _random_index(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(0, 12)):
        roll = rng.random()
        if roll < 0.6:
            t = rng.choice(TARGETS)
            lines.append(f"- [T{rng.randint(0, 9)}]({t}) — hook {rng.randint(0, 99)}")
        elif roll < 0.8:
            lines.append("")
        else:
            lines.append(rng.choice(["# Index", "## Section", "prose line", "  "]))
    text = "\n".join(lines)
    return text + rng.choice(["", "\n", "\n\n", "\r\n"])


def _reference(text: str, ops: list[tuple[str, str, str]]) -> str:
    for kind, target, line in ops:
        if kind == "upsert":
            text = index.upsert_index_entry(text, line, target)
        else:
            text = index.remove_index_entry(text, target)
    return text


@pytest.mark.parametrize("seed", range(150))
def test_a_run_of_upserts_and_removes_matches_the_one_edit_functions(seed: int) -> None:
    rng = random.Random(seed)
    text = _random_index(rng)
    ops = []
    for _ in range(rng.randint(1, 15)):
        target = rng.choice(TARGETS)
        clean = target.strip("<>")
        line = index.format_index_entry(f"N{rng.randint(0, 9)}", clean, "new hook")
        ops.append((rng.choice(["upsert", "remove"]), target, line))
    doc = IndexText(text)
    for kind, target, line in ops:
        doc.upsert(line, target) if kind == "upsert" else doc.remove(target)
    assert doc.text() == _reference(text, ops)


def _sections_with_lines(text: str) -> set[str]:
    """The `##` headings (unique texts in these tests) with a non-blank line under them."""
    found, current = set(), None
    for line in text.split("\n"):
        if line.startswith("##"):
            current = line
        elif line.strip() and current is not None:
            found.add(current)
    return found


def _reference_went(rows: list[str | None], pos: int) -> None:
    """The line at rows[pos] went: the blank line it leaves doubled, or at an end, goes too."""
    above = [i for i in range(pos) if rows[i] is not None]
    below = [i for i in range(pos + 1, len(rows)) if rows[i] is not None]
    if below and rows[below[0]] == "" and (not above or rows[above[-1]] == ""):
        rows[below[0]] = None
    elif not below and above and rows[above[-1]] == "":
        rows[above[-1]] = None


def _is_entry_for(row: str, target: str) -> bool:
    """Whether the line alone is an entry remove_index_entry takes for target."""
    return index.remove_index_entry(row + "\n", target) != row + "\n"


def _reference_rows(collapsed: list[str]) -> tuple[list[str | None], set[int]]:
    """Each line as the reference fit writes it (an entry's hook cut to 80 characters), and the
    positions of the cited lines, kept as written and never dropped (real44)."""
    rows: list[str | None] = []
    cited: set[int] = set()
    for line in collapsed:
        entry = index.parse_index(line)
        if entry and entry[0].cited:
            cited.add(len(rows))
            rows.append(line)
            continue
        hook = index.shorten_hook(entry[0].hook, 80) if entry else ""
        rows.append(
            index.format_index_entry(entry[0].title, entry[0].target, hook) if entry else line
        )
    return rows, cited


def _reference_passes(
    rows: list[str | None], cited: set[int], fits: Callable[[str], bool]
) -> tuple[set[int], ...]:
    """The cited lines kept, then none if the index is still over; none from the start when
    the cited lines alone are over a cap (attack44)."""
    if cited and not fits("".join(f"{rows[i]}\n" for i in cited)):
        return (set(),)
    return (cited, set())


def _reference_drop_emptied(rows: list[str | None], had: set[str], text: str) -> None:
    """The headings a removal emptied (in had, not in text's sections) dropped, last first."""
    emptied = had - _sections_with_lines(text)
    for heading in sorted(emptied, key=rows.index, reverse=True):  # last first, as the fit
        pos = rows.index(heading)
        rows[pos] = None
        _reference_went(rows, pos)
        had.discard(heading)


def _reference_fit(text: str, order: tuple[str, ...]) -> str:
    """dream's fitting as it was written before index_batch (one removal per pass, each line
    checked alone), with the headings emptied by a removal dropped right after it, and after
    each line that goes the blank line it would leave doubled (or at an end) too (settle42)."""

    def fits(t: str) -> bool:
        lines = t.rstrip("\n").split("\n")
        return (
            len(lines) <= index.MAX_ENTRYPOINT_LINES
            and len(t.encode()) <= index.MAX_ENTRYPOINT_BYTES
        )

    def now() -> str:
        kept = [row for row in rows if row is not None]
        return "\n".join(kept) + "\n" if kept else ""

    collapsed: list[str] = []
    for line in text.rstrip("\n").split("\n"):
        if not line.strip() and collapsed and not collapsed[-1].strip():
            continue
        collapsed.append(line)
    rows, cited = _reference_rows(collapsed)
    if fits("\n".join(collapsed) + "\n"):
        return "\n".join(collapsed) + "\n"
    had = _sections_with_lines(now())
    for protected in _reference_passes(rows, cited, fits):
        for target in order:
            if fits(now()):
                return now()
            mine = [i for i, row in enumerate(rows) if row and _is_entry_for(row, target)]
            if protected.intersection(mine):
                continue
            for i in mine:
                rows[i] = None
            for i in mine:
                _reference_went(rows, i)
            _reference_drop_emptied(rows, had, now())
    return now()


@pytest.mark.parametrize("seed", range(20))
def test_fitting_under_the_caps_matches_removing_one_entry_at_a_time(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(150, 420)
    lines = []
    for i in range(n):
        roll = rng.random()
        if roll < 0.85:
            cite = rng.choice(["", "", "", "", " (source: the kiln log)", " [^2]"])
            lines.append(
                f"- [Note {i}](note_{i % (n - 3)}.md) — " + "w" * rng.randint(10, 160) + cite
            )
        elif roll < 0.95:
            lines.append("")
        else:
            lines.append(f"## Section {i}")
    text = "\n".join(lines) + rng.choice(["\n", "\n\n\n", ""])
    order = tuple(f"note_{i}.md" for i in rng.sample(range(n), n))
    fitted = fit_index(text, order)
    assert fitted == _reference_fit(text, order)
    assert "\n\n\n" not in fitted  # no blank run, collapsed or left by a line that went


def test_a_section_whose_entries_are_all_dropped_loses_its_heading_and_frees_its_line() -> None:
    old = [f"- [Old {i}](old_{i}.md) — " + "o" * 20 for i in range(3)]
    new = [f"- [New {i}](new_{i}.md) — " + "n" * 20 for i in range(index.MAX_ENTRYPOINT_LINES - 3)]
    text = "\n".join(["# Memory", "## Old", *old, "## Empty from the start", "## New", *new]) + "\n"
    fitted = fit_index(text, ("old_0.md", "old_1.md", "old_2.md", "new_0.md"))
    lines = fitted.rstrip("\n").split("\n")
    assert "## Old" not in lines  # emptied by the fit: gone with its last entry
    assert lines[:3] == ["# Memory", "## Empty from the start", "## New"]  # the rest stay
    assert len(lines) <= index.MAX_ENTRYPOINT_LINES
    assert "new_0.md" in fitted  # the freed heading line meant one pointer fewer dropped


def test_the_fit_drops_no_pointer_while_blank_runs_remain() -> None:
    # settle42 (real42's ERP index): a section's last pointer took its heading with it and
    # left the blank lines on either side as a run. The fit counted the run as two lines and
    # dropped another pointer for each, which the next plan's collapse freed and added back.
    sections = []
    for week in range(20):
        sections += [f"## Week {week}", f"- [Week {week}](week_{week:02d}.md) \u2014 a firing", ""]
    notes = [f"- note {i}: the kiln shelf wash needs a second coat" for i in range(149)]
    text = "\n".join(["# Studio", "", *sections, "## Notes", *notes]) + "\n"
    assert len(text.rstrip("\n").split("\n")) == 212  # 12 over the cap
    order = tuple(f"week_{week:02d}.md" for week in reversed(range(20)))  # lowest first
    fitted = fit_index(text, order)
    lines = fitted.rstrip("\n").split("\n")
    assert "\n\n\n" not in fitted  # no blank run left for a later collapse to free
    assert len(lines) == index.MAX_ENTRYPOINT_LINES
    # each section that goes frees its heading, its pointer and a blank line: four go, not six
    assert [w for w in range(20) if f"(week_{w:02d}.md)" in fitted] == list(range(16))
    assert lines[-149:] == notes  # the person's notes stay, every one
    assert fit_index(fitted, order) == fitted  # a second fit finds nothing to do


def test_fitting_can_remove_every_entry() -> None:
    text = "\n".join(f"- [N{i}](n{i}.md) — " + "x" * 200 for i in range(300)) + "\n"
    order = tuple(f"n{i}.md" for i in range(300))
    assert fit_index(text, order) == _reference_fit(text, order)


def test_a_second_fit_of_the_same_lines_parses_none_of_them_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the planner fits the same over-cap index on every plan (real39's check of which added
    # lines the fit keeps): each line's shortened form is kept, and the text is the same
    text = "\n".join(f"- [N{i}](kept_{i}.md) — " + "x" * 200 for i in range(300)) + "\n"
    order = tuple(f"kept_{i}.md" for i in range(300))
    first = fit_index(text, order)
    assert first == _reference_fit(text, order)
    parsed: list[str] = []
    real_parse = index.parse_index

    def counting(line: str) -> list[index.IndexEntry]:
        parsed.append(line)
        return real_parse(line)

    again = order[::-1]  # another order: the whole answer is not kept, each line's form is
    expected = _reference_fit(text, again)
    monkeypatch.setattr(index, "parse_index", counting)
    assert fit_index(text, again) == expected
    assert parsed == []


def test_a_repeat_fit_of_the_same_index_and_order_is_answered_without_fitting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a repeat plan of an unchanged dir fits the same index in the same order: the answer is
    # kept whole (fortieth session), and only an equal text and order find it
    text = "\n".join(f"- [R{i}](repeat_{i}.md) — " + "r" * 200 for i in range(300)) + "\n"
    order = tuple(f"repeat_{i}.md" for i in range(300))
    first = fit_index(text, order)
    calls = count_calls(monkeypatch, index_batch, "_drop_until_fit")
    assert fit_index(str(text), tuple(order)) == first  # equal, not the same objects
    assert calls == []
    other = order[1:] + order[:1]
    assert fit_index(text, other) == _reference_fit(text, other)
    assert calls == [1]


@pytest.mark.parametrize("seed", range(40))
def test_an_index_kept_in_crlf_stays_crlf_through_a_run_of_edits(seed: int) -> None:
    rng = random.Random(seed)
    text = _random_index(rng).replace("\r\n", "\n").replace("\n", "\r\n")
    ops = []
    for _ in range(rng.randint(1, 10)):
        target = rng.choice(TARGETS)
        line = index.format_index_entry("N", target.strip("<>"), "new hook")
        ops.append((rng.choice(["upsert", "remove"]), target, line))
    doc = IndexText(text)
    for kind, target, line in ops:
        doc.upsert(line, target) if kind == "upsert" else doc.remove(target)
    out = _reference(text, ops)
    assert doc.text() == out
    steps = [_reference(text, ops[: k + 1]) for k in range(len(ops))]
    if "\n" in text and all(steps):  # an index emptied on the way starts again in LF
        assert out.count("\n") == out.count("\r\n")  # no line end turned into a bare LF


def test_an_index_kept_in_cr_only_line_ends_is_edited_line_by_line_and_stays_cr() -> None:
    text = "# Index\r\r- [A](a.md) \u2014 old\r- [B](b.md) \u2014 kept\r"
    line = index.format_index_entry("A", "a.md", "new hook")
    doc = IndexText(text)
    doc.upsert(line, "a.md")
    doc.remove("b.md")
    assert doc.text() == f"# Index\r\r{line}\r"
    assert index.upsert_index_entry(text, line, "a.md") == text.replace(
        "- [A](a.md) \u2014 old", line
    )
    assert index.remove_index_entry(text, "b.md") == "# Index\r\r- [A](a.md) \u2014 old\r"
    assert [e.target for e in index.parse_index(text)] == ["a.md", "b.md"]


def test_an_upserted_lines_target_is_parsed_once_per_line_and_kept_within_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A planner upserts the same formatted lines plan after plan: each line's entry target is
    # found once, and the kept lines stay within their character bound.
    from memdir_nb.formats import index_batch, index_lines

    kept = index_batch._upserted_target.cache
    kept.clear()
    lines = [index.format_index_entry(f"T{n}", f"t{n}.md", "hook") for n in range(3)]
    monkeypatch.setattr(kept, "max_bytes", 2 * kept.weight((lines[0],), "t0.md"))  # two lines
    parsed: list[str] = []
    real = index_lines.plain_entry_target

    def counting(line: str) -> str | None:
        parsed.append(line)
        return real(line)

    monkeypatch.setattr(index_batch, "plain_entry_target", counting)
    for _ in range(2):
        doc = IndexText("# Index\n")
        for n, line in enumerate(lines[:2]):
            doc.upsert(line, f"t{n}.md")
        assert doc.text() == index.upsert_index_entry(
            index.upsert_index_entry("# Index\n", lines[0], "t0.md"), lines[1], "t1.md"
        )
    assert [p for p in parsed if p in lines] == lines[:2]
    IndexText("").upsert(lines[2], "t2.md")  # past two lines' bytes: the least recent goes
    assert kept.bytes_held <= kept.max_bytes and len(kept) == 2
    assert (lines[2],) in kept and (lines[0],) not in kept


def test_a_line_upserted_for_another_target_is_indexed_under_its_own_entry() -> None:
    # The target an upsert names finds the line to replace; the line is then indexed under
    # the entry it holds, as upsert_index_entry reads it back.
    doc = IndexText("# Index\n- [A](a.md) \u2014 old\n")
    doc.upsert("- [B](b.md) \u2014 new", "a.md")
    doc.upsert("- [B2](b.md) \u2014 newer", "b.md")
    expected = index.upsert_index_entry(
        index.upsert_index_entry(
            "# Index\n- [A](a.md) \u2014 old\n", "- [B](b.md) \u2014 new", "a.md"
        ),
        "- [B2](b.md) \u2014 newer",
        "b.md",
    )
    assert doc.text() == expected


SECTIONED = (
    "# Memory\n\n## Tools\n- [a](a.md) \u2014 x\n\n## Left empty\n\n"
    "## People\n- [b](b.md) \u2014 y\n- [c](c.md) \u2014 z\n"
)


def test_a_removal_that_empties_a_heading_drops_it_only_when_asked() -> None:
    plain = IndexText(SECTIONED)
    plain.remove("a.md")  # as remove_index_entry, for every other caller
    assert plain.text() == index.remove_index_entry(SECTIONED, "a.md")
    assert "## Tools" in plain.text()
    doc = IndexText(SECTIONED)
    doc.remove("a.md", drop_emptied=True)
    assert doc.text() == (
        "# Memory\n\n## Left empty\n\n## People\n- [b](b.md) \u2014 y\n- [c](c.md) \u2014 z\n"
    )
    doc.remove("b.md", drop_emptied=True)  # People still holds c
    assert "## People\n- [c](c.md)" in doc.text()
    doc.remove("c.md", drop_emptied=True)  # emptied now; the heading a person left empty stays
    assert doc.text() == "# Memory\n\n## Left empty\n"
    doc.remove("gone.md", drop_emptied=True)  # no line: nothing emptied
    assert doc.text() == "# Memory\n\n## Left empty\n"


def test_a_heading_emptied_after_lines_were_upserted_under_it_is_found() -> None:
    doc = IndexText("## Notes\n- [a](a.md) \u2014 x\n")
    doc.upsert("- [b](b.md) \u2014 y", "b.md")  # appended: under ## Notes
    doc.remove("a.md", drop_emptied=True)
    assert doc.text() == "## Notes\n- [b](b.md) \u2014 y\n"
    doc.remove("b.md", drop_emptied=True)
    assert doc.text() == ""


_MARKDOWN_BITS = st.lists(
    st.sampled_from(
        [
            "---",
            "name: x",
            "<!--",
            "-->",
            "<!-- a -->",
            "  <!-- b",
            "```",
            "~~~",
            "````md",
            "- [A](a.md) \u2014 h",
            "",
            "## S",
            "prose `x`",
            "\ufeff---",
        ]
    ),
    max_size=10,
)


@settings(max_examples=400, deadline=None)
@given(_MARKDOWN_BITS, st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_an_index_reads_its_entry_lines_and_open_block_from_one_strip(
    lines: list[str], end: str, final: bool
) -> None:
    # IndexText took the entry flags of its lines and the block an appended line must close
    # with three strips of the text (plan40: one): the same flags and closer as before.
    text = end.join(lines) + (end if final and lines else "")
    kept, _ = split_keep_end(text)
    joined = "\n".join(kept)
    expected = (entry_line_flags(joined), block_left_open(text))
    assert index_batch._flags_and_closer(text, joined) == expected
    if "\r" not in text:
        assert entry_flags_and_closer(joined) == expected


def test_an_index_is_stripped_once_when_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = index_caps.strip_entrypoint_extras

    def counting(text: str) -> index_caps.StrippedEntrypoint:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(index_caps, "strip_entrypoint_extras", counting)
    doc = IndexText("# Index\n<!-- open\n- [A](a.md) \u2014 h\n")
    assert len(calls) == 1
    doc.upsert("- [B](b.md) \u2014 h", "b.md")
    assert doc.text() == "# Index\n<!-- open\n- [A](a.md) \u2014 h\n-->\n- [B](b.md) \u2014 h\n"


def _fit_form(line: str) -> str:
    """A line as the fit writes it, by parsing and formatting it (the reference fit's way);
    a line naming its file without a link stays as written (real41), and so does one whose
    hook cites a source (real44)."""
    entry = index.parse_index(line)
    if not entry or not entry[0].linked or entry[0].cited:
        return line
    return index.format_index_entry(
        entry[0].title, entry[0].target, index.shorten_hook(entry[0].hook, 80)
    )


def test_a_first_fit_parses_no_line_already_written_as_the_fit_writes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # plan40b: a new process's first fit parsed and formatted each line again (~6 us a line,
    # 1,503 lines on the bench dir) though nearly every line is format_index_entry's own with
    # a hook of 80 characters or fewer, which the fit leaves as it is
    lines = [f"- [Note {i}](note_{i}.md) \u2014 a hook of a few words {i}" for i in range(260)]
    text = "\n".join(["# Memory", "", *lines, "- [Long](long.md) \u2014 " + "w " * 60]) + "\n"
    order = tuple(f"note_{i}.md" for i in range(260))
    expected = _reference_fit(text, order)
    index_batch.fit_index.cache_clear()
    index_batch._hook_shortened.cache_clear()
    parsed: list[str] = []
    real_parse = index.parse_index

    def counting(line: str) -> list[index.IndexEntry]:
        parsed.append(line)
        return real_parse(line)

    monkeypatch.setattr(index, "parse_index", counting)
    assert fit_index(text, order) == expected
    assert len(parsed) == 3  # the title, the blank line and the long hook's line


_LINE_BITS = st.lists(
    st.sampled_from(
        [
            "- [",
            "T",
            "t x",
            " ",
            "  ",
            "\t",
            "\u00e9",
            "\u3000",
            "\ufeff",
            "\\",
            "[",
            "]",
            "](",
            "a.md",
            "b/c.md",
            "d e.md",
            ")",
            " \u2014 ",
            "\u2014",
            " - ",
            "h",
            "hook words",
            "w" * 79,
            "|",
            "`",
            "<!--",
            "~~~",
            "\x1f",
            "\u2028",
        ]
    ),
    max_size=9,
)


@settings(max_examples=600, deadline=None)
@given(_LINE_BITS)
def test_a_lines_fitted_form_is_the_parsed_and_formatted_one(bits: list[str]) -> None:
    # plan40b's shortcut (a line already in the fit's form is kept as it is) gives what
    # parsing and formatting it gives, on lines near that form
    for line in ("".join(bits), "- [T](a.md) \u2014 " + "".join(bits)):
        assert index_batch._hook_shortened(line) == _fit_form(line)


def test_a_fit_leaves_lines_that_name_their_file_without_a_link_as_written() -> None:
    """real41: fitting a 263-line index rewrote "Details: `memory/x.md`", a table row naming
    `CLAUDE.md` and a bare name listed under its folder's line as `- [x](x.md)` links: the
    nested name's link pointed at the wrong folder, and the next plan dropped every such line,
    which no tool drops as written. A fit shortens and drops link entries only."""
    unlinked = [
        "| `STUDIO.md` | the studio's rules, kept in the repository |",
        "Details: `memory/kiln_log.md`",
        "  - `glazes.md` -- which glazes need reduction",
    ]
    notes = [f"- firing {i}: cone 6, slow cool" for i in range(210)]
    text = "\n".join([*unlinked, *notes]) + "\n"
    assert fit_index(text, ()) == text


def test_a_first_fit_keeps_no_line_already_in_its_form_in_the_line_cache() -> None:
    # plan41: every line of a first fit went through _hook_shortened's bounded cache (a store,
    # weighed, per line: 1,503 of the bench index's lines, nearly all already in the fit's
    # form); now only a line the fit writes again is asked of it
    lines = [f"- [Note {i}](note_{i}.md) \u2014 a hook of a few words {i}" for i in range(260)]
    text = "\n".join(["# Memory", "", *lines, "- [Long](long.md) \u2014 " + "w " * 60]) + "\n"
    order = tuple(f"note_{i}.md" for i in range(260))
    index_batch.fit_index.cache_clear()
    index_batch._hook_shortened.cache_clear()
    assert fit_index(text, order) == _reference_fit(text, order)
    assert len(index_batch._hook_shortened.cache) == 3  # the title, the blank, the long hook


def _fit_texts() -> st.SearchStrategy[str]:
    line = st.one_of(
        _LINE_BITS.map("".join),
        st.builds(
            lambda i, bits: f"- [N{i}](n_{i}.md) \u2014 " + "".join(bits),
            st.integers(0, 5),
            _LINE_BITS,
        ),
        st.sampled_from(["", "## S", "<!--", "-->", "```", "\r", "x\ry"]),
    )
    return st.lists(line, max_size=12).map("\n".join)


@settings(max_examples=400, deadline=None)
@given(_fit_texts(), st.permutations([f"n_{i}.md" for i in range(6)]))
def test_an_index_given_its_lines_targets_is_the_index_that_reads_them(
    text: str, order: list[str]
) -> None:
    # plan41: fit_index hands IndexText the targets it read while checking each line's form
    # (_fitted_target); the document, and every removal after, is the one that reads them
    rows = text.split("\n")
    given_targets = [index_batch._fitted_target(row) for row in rows]
    for t, row in zip(given_targets, rows, strict=True):
        assert t is None or t == plain_entry_target(row)
    read, told = IndexText(text), IndexText(text, given_targets)
    assert told.by_target == read.by_target
    for target in order:
        read.remove(target, drop_emptied=True)
        told.remove(target, drop_emptied=True)
        assert told.text() == read.text()


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["## H", "### G", "- [a](a.md) \u2014 x", "", "prose"]), max_size=14),
    st.lists(st.integers(0, 13), max_size=14),
)
def test_the_heading_one_removed_line_empties_is_the_one_the_sets_find(
    lines: list[str], removed: list[int]
) -> None:
    # plan41: emptied_by answers one position (a fit's drop, nearly always) without sets
    sections = index_batch._Sections(lines)
    gone: set[int] = set()
    for pos in removed:
        if pos >= len(lines) or pos in gone or not lines[pos].strip():
            continue
        gone.add(pos)
        sections.gone(pos)
        headings = {sections.heading_of[pos]} - {pos} - {-1}
        expected = sorted((h for h in headings if sections.kept[h] == 0), reverse=True)
        assert sections.emptied_by([pos]) == expected


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_fit_past_pointers_with_no_line_is_the_fit_that_removes_each(seed: int) -> None:
    # plan42: the drop loop skips a pointer with no line once the text is settled (normalised,
    # nothing removed since); the same text as removing each one, as the reference fit does,
    # whatever lines (blank runs, headings, empty sections, no final newline) stand around them
    rng = random.Random(seed)
    n = rng.randint(150, 330)
    lines = []
    for i in range(n):
        roll = rng.random()
        if roll < 0.8:
            lines.append(f"- [Note {i}](note_{i}.md) \u2014 " + "w" * rng.randint(10, 160))
        elif roll < 0.92:
            lines.append("")
        else:
            lines.append(f"## Section {i}")
    text = "\n".join(lines) + rng.choice(["\n", "\n\n\n", ""])
    order = [f"note_{i}.md" for i in rng.sample(range(n), n)]
    for _ in range(rng.randint(0, 400)):
        order.insert(rng.randint(0, len(order)), f"gone_{rng.randint(0, 50)}.md")
    assert fit_index(text, tuple(order)) == _reference_fit(text, tuple(order))


def test_a_fit_walks_past_pointers_with_no_line_without_a_removal_for_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # plan42: the planner fits its index over the adds it keeps, in the order of every memory
    # (~1,300 of the bench dir's pointers have no line there): each was a removal of nothing
    lines = [f"- [Note {i}](walk_{i}.md) \u2014 a hook of a few words {i}" for i in range(260)]
    text = "\n".join(["# Memory", "", *lines]) + "\n"
    order = tuple(f"absent_{i}.md" for i in range(1_000)) + tuple(
        f"walk_{i}.md" for i in range(260)
    )
    expected = _reference_fit(text, order)
    calls = count_calls(monkeypatch, IndexText, "_remove_key")
    assert fit_index(text, order) == expected
    assert len(calls) == 1 + 62  # the first pointer with no line, then the 62 lines dropped


def test_a_fit_keeps_a_cited_line_as_written_and_never_drops_its_pointer() -> None:
    """real44: a fit rewrote "- [Deploys](deploys.md) — ... (source: https://...)" with its hook
    cut to 80 characters, the source first, and dropped the oldest pointers whatever they
    cited. A line whose hook cites a source (IndexEntry.cited) is the person's record of it:
    the fit keeps it byte for byte, and drops uncited pointers instead."""
    cited = [
        "- [Deploys](deploys.md) \u2014 deploys run Tuesday to Thursday, never on the Friday "
        "before a holiday (source: https://wiki.example.org/ops/deploy-window)",
        "* [Clay](clay.md) \u2014 the co-op delivers on Tuesdays when ordered by the Friday "
        "before, else a week later [source: supplier email of 2026-03-02]",
        "- [Glaze](glaze.md) \u2014 cone 6 for every glaze, held ten minutes at the peak so the "
        "celadon clears [^1]",
    ]
    rest = [f"- [Note {i}](note_{i}.md) \u2014 " + "w" * 90 for i in range(220)]
    text = "\n".join(["# Memory", *cited, *rest, "", "[^1]: the March glaze test"]) + "\n"
    order = ("deploys.md", "clay.md", "glaze.md", *(f"note_{i}.md" for i in range(220)))
    fitted = fit_index(text, order)
    for line in cited:
        assert line in fitted.split("\n")
    assert "- [Note 0](note_0.md)" not in fitted  # uncited pointers went instead
    assert len(fitted.rstrip("\n").split("\n")) <= index.MAX_ENTRYPOINT_LINES


def test_lines_that_merely_look_cited_never_keep_an_index_over_its_caps() -> None:
    # attack44: every hook linking the next memory read as cited, and the fit kept all 400
    # lines (Claude Code loads 200); one cited line of 40 KB made the fit drop the 399 other
    # pointers and still left the index over the byte cap
    order = tuple(f"m{i}.md" for i in range(400))
    linked = [
        f"- [m{i}](m{i}.md) \u2014 thing {i}, see [m{i + 1}](m{i + 1}.md)" for i in range(400)
    ]
    fitted = fit_index("\n".join(linked) + "\n", order).splitlines()
    assert len(fitted) == index.MAX_ENTRYPOINT_LINES and fitted[0].startswith("- [m200](")
    plain = [f"- [m{i}](m{i}.md) \u2014 thing {i}" for i in range(1, 400)]
    big = "- [m0](m0.md) \u2014 " + "word " * 8_000 + "(source: me)"
    fitted = fit_index("\n".join([big, *plain]) + "\n", order).splitlines()
    assert len(fitted) == index.MAX_ENTRYPOINT_LINES and fitted[-1] == plain[-1]
    assert all(len(line) < 100 for line in fitted)
