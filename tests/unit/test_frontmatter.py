"""Rules of memdir_nb.formats.frontmatter: bounded reads, graceful degradation, recovery, round trip."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdir_nb.formats import frontmatter
from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.formats.frontmatter_cli import cli_header_end
from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.formats.frontmatter_window import header_block_end, yaml_nesting_depth
from memdir_nb.spec.constants import FRONTMATTER_MAX_BYTES, FRONTMATTER_MAX_LINES
from memdir_nb.spec.taxonomy import InvalidMemoryTypeError, MemoryType
from memdir_nb.storage.headers import parse_memory_file, read_frontmatter, read_head, read_head_info


def write(path: Path, data: str | bytes) -> Path:
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


GOOD = "---\nname: Testing policy\ndescription: Integration tests hit a real database\ntype: feedback\n---\n\nBody.\n"


# ---------------------------------------------------------------- the basic case


def test_well_formed_header_gives_all_three_fields(tmp_path: Path) -> None:
    fm = read_frontmatter(write(tmp_path / "m.md", GOOD))
    assert fm.name == "Testing policy"
    assert fm.description == "Integration tests hit a real database"
    assert fm.type is MemoryType.FEEDBACK
    assert fm.has_frontmatter and not fm.malformed and fm.problems == ()


def test_parse_returns_body_after_closing_fence() -> None:
    fm, body = parse_frontmatter(GOOD)
    assert fm.name == "Testing policy"
    assert body == "Body.\n"


def test_read_head_returns_fstat_of_the_same_file(tmp_path: Path) -> None:
    path = write(tmp_path / "m.md", GOOD)
    os.utime(path, ns=(1_700_000_000_123_000_000, 1_700_000_000_123_000_000))
    text, st = read_head(path)
    assert text == GOOD
    assert st.st_mtime_ns == 1_700_000_000_123_000_000


# ---------------------------------------------------------------- bounds


def test_only_first_30_lines_are_read(tmp_path: Path) -> None:
    lines = [f"line {i}" for i in range(100)]
    text, _ = read_head(write(tmp_path / "m.md", "\n".join(lines) + "\n"))
    assert text.split("\n")[:-1] == lines[:FRONTMATTER_MAX_LINES]


def test_closing_fence_on_line_30_is_found() -> None:
    header = ["---", "name: Late", "type: user"] + ["# padding"] * 26 + ["---"]
    assert len(header) == FRONTMATTER_MAX_LINES
    fm, body = parse_frontmatter("\n".join(header) + "\nbody\n")
    assert fm.name == "Late" and not fm.malformed
    assert body == "body\n"


def test_closing_fence_past_line_30_is_malformed_but_recovered() -> None:
    header = ["---", "name: Late", "type: user"] + ["# padding"] * 27 + ["---"]
    fm, _ = parse_frontmatter("\n".join(header) + "\nbody\n")
    assert fm.malformed
    assert fm.name == "Late" and fm.type is MemoryType.USER
    assert any("no closing '---' within the first 30 lines" in p for p in fm.problems)


def test_fields_after_line_30_are_not_read(tmp_path: Path) -> None:
    header = ["---", "name: Early"] + ["# padding"] * 30 + ["description: too late", "---"]
    fm = read_frontmatter(write(tmp_path / "m.md", "\n".join(header) + "\n"))
    assert fm.name == "Early" and fm.description is None and fm.malformed


def test_ten_megabyte_single_line_file_read_is_bounded(tmp_path: Path) -> None:
    path = write(
        tmp_path / "big.md", b"---\nname: Big\ntype: user\n---\n" + b"x" * (10 * 1024 * 1024)
    )
    head = read_head_info(path)
    assert head.bytes_read == FRONTMATTER_MAX_BYTES
    assert head.hit_byte_limit
    assert len(head.text.encode()) <= FRONTMATTER_MAX_BYTES
    assert head.stat.st_size > 10 * 1024 * 1024
    fm = read_frontmatter(path)
    assert fm.name == "Big" and fm.type is MemoryType.USER and not fm.malformed


def test_content_past_the_byte_bound_is_ignored(tmp_path: Path) -> None:
    filler = "# " + "y" * (FRONTMATTER_MAX_BYTES + 100) + "\n"
    path = write(tmp_path / "m.md", "---\nname: A\n" + filler + "description: hidden\n---\n")
    fm = read_frontmatter(path)
    assert fm.name == "A" and fm.description is None
    assert fm.malformed
    assert any(f"first {FRONTMATTER_MAX_BYTES} bytes" in p for p in fm.problems)


def test_multibyte_character_cut_by_byte_bound_is_dropped_not_replaced(tmp_path: Path) -> None:
    prefix = b"---\nname: A\n# "
    pad = b"a" * (FRONTMATTER_MAX_BYTES - len(prefix) - 1)
    path = write(tmp_path / "m.md", prefix + pad + "é".encode() + b"tail")
    head = read_head_info(path)
    assert not head.invalid_utf8
    assert "\ufffd" not in head.text and head.text.endswith("a")


# ---------------------------------------------------------------- graceful degradation


def test_no_frontmatter_gives_empty_header_and_whole_body(tmp_path: Path) -> None:
    path = write(tmp_path / "m.md", "# Just notes\n\nname: not a header\n")
    fm = read_frontmatter(path)
    assert (fm.name, fm.description, fm.type) == (None, None, None)
    assert not fm.has_frontmatter and not fm.malformed
    _, body = parse_frontmatter(path.read_text())
    assert body == path.read_text()


def test_empty_file_gives_empty_header(tmp_path: Path) -> None:
    fm = read_frontmatter(write(tmp_path / "m.md", b""))
    assert fm.name is None and not fm.has_frontmatter


def test_unknown_type_keeps_raw_value_and_is_not_malformed() -> None:
    fm, _ = parse_frontmatter("---\nname: X\ntype: diary\n---\n")
    assert fm.type is None and fm.raw_type == "diary"
    assert not fm.malformed
    assert any("unknown type 'diary'" in p for p in fm.problems)


def test_type_is_case_insensitive() -> None:
    fm, _ = parse_frontmatter("---\ntype: Reference\n---\n")
    assert fm.type is MemoryType.REFERENCE


def test_broken_yaml_is_flagged_and_recovered() -> None:
    fm, _ = parse_frontmatter("---\nname: [unclosed\ndescription: still here\ntype: user\n---\n")
    assert fm.malformed
    assert fm.description == "still here" and fm.type is MemoryType.USER
    assert fm.name is None  # a flow sequence opener is not text
    assert any(p.startswith("YAML error") for p in fm.problems)
    assert fm.problem_line == 2  # where the unclosed bracket opened (the fence is line 1)


def test_a_yaml_error_points_at_the_file_line_it_is_on() -> None:
    fm, _ = parse_frontmatter("---\nname: a\ndescription: ok\n  type: [x]\n---\nbody\n")
    assert fm.malformed and fm.problem_line == 4
    unclosed, _ = parse_frontmatter("---\nname: a\n")
    assert unclosed.malformed and unclosed.problem_line is None  # the header as a whole


def test_an_unquoted_colon_space_is_recovered_as_after_a_yaml_error_and_names_the_fix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = '---\nname: Deploy\ndescription: Steps: run "make check"\ntype: project\n---\nbody\n'
    fm, body = parse_frontmatter(text)
    assert fm.malformed and body == "body\n"
    assert (fm.name, fm.description, fm.type) == (
        "Deploy",
        'Steps: run "make check"',
        MemoryType.PROJECT,
    )
    (problem,) = fm.problems
    assert problem.startswith("YAML error") and "'description' (line 3)" in problem
    assert "put the value in quotes" in problem
    assert fm.problem_line == 3
    monkeypatch.setattr(frontmatter, "fast_parse", lambda lines: None)  # the PyYAML route
    slow, slow_body = parse_frontmatter(text)
    assert slow.malformed and slow.problems[0].startswith("YAML error")
    assert (slow.fields, slow.name, slow.description, slow.type) == (
        fm.fields,
        fm.name,
        fm.description,
        fm.type,
    )
    assert slow_body == body
    assert slow.problem_line == 3  # PyYAML's mark says the same line


def test_non_utf8_bytes_are_replaced_and_flagged(tmp_path: Path) -> None:
    path = write(tmp_path / "m.md", b"---\nname: caf\xe9\ntype: user\n---\nbody\n")
    fm = read_frontmatter(path)
    assert fm.name == "caf\ufffd" and fm.type is MemoryType.USER
    assert fm.malformed
    assert any("not valid UTF-8" in p for p in fm.problems)


def test_bom_is_stripped(tmp_path: Path) -> None:
    fm = read_frontmatter(write(tmp_path / "m.md", "\ufeff" + GOOD))
    assert fm.name == "Testing policy" and not fm.malformed


def test_crlf_line_ends_are_normalised(tmp_path: Path) -> None:
    fm = read_frontmatter(write(tmp_path / "m.md", GOOD.replace("\n", "\r\n")))
    assert fm.name == "Testing policy" and fm.type is MemoryType.FEEDBACK and not fm.malformed
    _, body = parse_frontmatter(GOOD.replace("\n", "\r\n"))
    assert body == "Body.\n"


def test_non_mapping_yaml_is_malformed() -> None:
    fm, _ = parse_frontmatter("---\n- just\n- a list\n---\n")
    assert fm.malformed and fm.name is None
    assert any("not a mapping" in p for p in fm.problems)


def test_empty_frontmatter_block_is_fine() -> None:
    fm, body = parse_frontmatter("---\n---\nbody\n")
    assert fm.has_frontmatter and not fm.malformed and fm.name is None
    assert body == "body\n"


# ---------------------------------------------------------------- unquoted colons


def test_unquoted_colon_in_description_is_recovered_and_flagged() -> None:
    text = (
        "---\nname: Release\ndescription: Release steps: tag, build, canary\ntype: project\n---\n"
    )
    fm, _ = parse_frontmatter(text)
    assert fm.description == "Release steps: tag, build, canary"
    assert fm.name == "Release" and fm.type is MemoryType.PROJECT
    assert fm.malformed
    assert any("recovered line by line" in p for p in fm.problems)


def test_recovery_unquotes_quoted_values_and_keeps_an_inline_hash() -> None:
    text = (
        "---\nname: 'It''s here'\ndescription: \"tab\\there\" \ntype: user # note\nbad: a: b\n---\n"
    )
    fm, _ = parse_frontmatter(text)
    assert fm.malformed
    assert fm.name == "It's here"
    assert fm.description == "tab\there"
    # Claude Code 2.1.214+ keeps ' # note' in the value, so the type is no longer 'user'
    assert fm.raw_type == "user # note" and fm.type is None


# ---------------------------------------------------------------- YAML bombs and odd values


def test_billion_laughs_does_not_expand() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    lines.append("name: *i")
    fm, _ = parse_frontmatter("---\n" + "\n".join(lines) + "\ntype: user\n---\n")
    assert fm.malformed and fm.name is None
    assert fm.type is MemoryType.USER
    assert any("aliases" in p for p in fm.problems)
    assert all(not isinstance(v, list) for v in fm.fields.values())


def test_non_scalar_name_is_ignored_and_flagged() -> None:
    fm, _ = parse_frontmatter("---\nname:\n  nested: map\ndescription: ok\n---\n")
    assert fm.name is None and fm.description == "ok"
    assert fm.malformed
    assert any("name is a YAML dict" in p for p in fm.problems)


def test_scalar_that_yaml_types_keeps_its_literal_text() -> None:
    fm, _ = parse_frontmatter("---\nname: 2024-01-05\ndescription: yes\n---\n")
    assert fm.name == "2024-01-05" and fm.description == "yes"
    assert not fm.malformed


def test_deeply_nested_yaml_does_not_raise() -> None:
    fm, _ = parse_frontmatter("---\nname: x\nz: " + "[" * 5000 + "]" * 5000 + "\n---\n")
    assert fm.name == "x"


def test_extra_keys_are_kept_in_fields() -> None:
    fm, _ = parse_frontmatter("---\nname: x\ntags: [a, b]\n---\n")
    assert fm.fields["tags"] == ["a", "b"]


# ---------------------------------------------------------------- rendering


def test_render_layout() -> None:
    text = render_memory_file("Testing policy", "Real database in tests", "feedback", "Rule.\n")
    assert text == (
        "---\nname: Testing policy\ndescription: Real database in tests\ntype: feedback\n---\n\nRule.\n"
    )


@pytest.mark.parametrize(
    "name, description",
    [
        ("Release: steps", "Release steps: tag, build, canary"),
        ("'quoted'", "\"double\" and 'single'"),
        ("- leading dash", "--- three dashes"),
        ("ünïcode ✓ 日本語", "emoji 🧠 and accents é"),
        ("# hash", "value # not a comment"),
        ("yes", "null"),
        ("123", "1.5e3"),
        ("[brackets]", "{braces}"),
        ("&anchor", "*alias"),
        ("key: value: more", "trailing colon:"),
    ],
)
def test_render_round_trips_awkward_values(tmp_path: Path, name: str, description: str) -> None:
    path = write(
        tmp_path / "m.md", render_memory_file(name, description, MemoryType.PROJECT, "Body")
    )
    fm = read_frontmatter(path)
    assert (fm.name, fm.description, fm.type) == (name, description, MemoryType.PROJECT)
    assert not fm.malformed
    fm2, body = parse_memory_file(path)
    assert fm2 == fm and body == "Body\n"


def test_render_collapses_newlines_in_description() -> None:
    fm, _ = parse_frontmatter(render_memory_file("N", "line one\nline two\r\n  three", "user", ""))
    assert fm.description == "line one line two three"


def test_render_rejects_unknown_type_and_empty_name() -> None:
    with pytest.raises(InvalidMemoryTypeError, match="user, feedback, project, reference"):
        render_memory_file("N", "d", "diary", "")
    with pytest.raises(ValueError, match="non-empty name"):
        render_memory_file("  \n ", "d", "user", "")


_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=60)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=_text.filter(lambda s: s.strip() and " ".join(s.split())),
    description=_text,
    mtype=st.sampled_from(list(MemoryType)),
    body=_text,
)
def test_render_parse_round_trip_property(
    name: str, description: str, mtype: MemoryType, body: str
) -> None:
    from memdir_nb.spec.text import as_lf, one_line

    expected_name = one_line(name) or None
    expected_description = one_line(description) or None
    fm, parsed_body = parse_frontmatter(render_memory_file(name, description, mtype, body))
    assert not fm.malformed, fm.problems
    assert fm.name == expected_name
    assert fm.description == expected_description
    assert fm.type is mtype
    # spec.text.as_lf's rule (polish31): CRLF reads as LF, a lone CR stays in its line (in a
    # text with no LF, CRs are its line ends); the body is written without blank lines around
    # it, so one ending in a lone CR meets the final newline as a CRLF, read back as LF
    stripped = as_lf(body).strip("\n")
    assert parsed_body == (as_lf(stripped + "\n").lstrip("\n") if stripped else "")


def test_nofollow_read_refuses_a_symlink(tmp_path: Path) -> None:
    import errno

    from memdir_nb.storage.headers import read_header

    target = write(tmp_path / "real.md", GOOD)
    os.symlink(target, tmp_path / "link.md")
    assert read_header(tmp_path / "link.md")[0].name == "Testing policy"
    with pytest.raises(OSError) as info:
        read_header(tmp_path / "link.md", nofollow=True)
    assert info.value.errno == errno.ELOOP


# ---- realdirs: the nested `metadata:` header shape


def test_type_is_read_from_a_nested_metadata_mapping() -> None:
    fm, body = parse_frontmatter(
        "---\nname: n\ndescription: d\nmetadata: \n  node_type: memory\n  type: feedback\n"
        "  originSessionId: abc-123\n---\n\nbody\n"
    )
    assert (fm.type, fm.type_nested, fm.malformed, body) == (
        MemoryType.FEEDBACK,
        True,
        False,
        "body\n",
    )
    assert fm.metadata == {"node_type": "memory", "type": "feedback", "originSessionId": "abc-123"}
    assert fm.extra_fields() == {"node_type": "memory", "originSessionId": "abc-123"}


def test_top_level_type_wins_over_a_nested_one() -> None:
    fm, _ = parse_frontmatter(
        "---\nname: n\ndescription: d\ntype: user\nmetadata:\n  type: project\n---\n"
    )
    assert (fm.type, fm.type_nested) == (MemoryType.USER, False)


def test_nested_type_is_recovered_when_yaml_fails() -> None:
    fm, _ = parse_frontmatter(
        "---\nname: n\ndescription: Steps: tag: build\nmetadata:\n  node_type: memory\n"
        "  type: reference\n---\n"
    )
    assert fm.malformed and fm.type is MemoryType.REFERENCE and fm.type_nested


def test_unknown_nested_type_is_reported_like_a_top_level_one() -> None:
    fm, _ = parse_frontmatter("---\nname: n\ndescription: d\nmetadata:\n  type: gotcha\n---\n")
    assert fm.type is None and fm.raw_type == "gotcha"
    assert any("unknown type 'gotcha'" in p for p in fm.problems)


def test_whole_file_parse_refuses_a_file_over_the_cap(tmp_path: Path) -> None:
    from memdir_nb.storage.headers import MemoryFileTooLargeError, parse_memory_file

    path = write(tmp_path / "m.md", GOOD + "x" * 100)
    fm, _ = parse_memory_file(path, cap=len(GOOD) + 10)
    assert any("only the first" in p for p in fm.problems)
    with pytest.raises(MemoryFileTooLargeError, match="cannot be rewritten"):
        parse_memory_file(path, cap=len(GOOD) + 10, whole=True)


# ---- `modified:` (Claude Code 2.1.214+): the memory's own time


@pytest.mark.parametrize(
    "header",
    [
        "name: n\ndescription: d\ntype: user\nmodified: 2026-05-01T10:00:00.000Z\n",
        "name: n\ndescription: d\nmetadata:\n  type: user\n  modified: 2026-05-01T10:00:00.000Z\n",
        "name: n\ndescription: d\ntype: user\nmodified: '2026-05-01T12:00:00+02:00'\n",
        "name: n\ndescription: 'd: x'\ntype: user\nmodified: 2026-05-01T10:00:00Z\n",  # YAML path
    ],
)
def test_modified_is_read_at_top_level_or_under_metadata(header: str) -> None:
    fm, _ = parse_frontmatter(f"---\n{header}---\nbody\n")
    assert fm.modified_ms == 1_777_629_600_000.0


@pytest.mark.parametrize("value", ["yesterday", "2026-13-40T00:00:00Z", "12", "1969-07-20"])
def test_an_invalid_modified_is_no_time(value: str) -> None:
    fm, _ = parse_frontmatter(f"---\nname: n\ndescription: d\nmodified: {value}\n---\n")
    assert fm.modified_ms is None


def test_a_valid_nested_modified_is_used_when_the_top_level_one_is_not() -> None:
    text = "---\nname: n\nmodified: soon\nmetadata:\n  modified: 2026-05-01T10:00:00Z\n---\n"
    assert parse_frontmatter(text)[0].modified_ms == 1_777_629_600_000.0


# ---- values holding ' #' (Claude Code 2.1.214+ no longer cuts them)


def test_a_plain_value_keeps_its_inline_hash_as_claude_code_now_reads_it() -> None:
    text = "---\nname: 브랜드 가이드\ndescription: 로고 색상 규칙 (brand #2E86AB 기준)\ntype: reference\n---\n"
    fm, _ = parse_frontmatter(text)
    assert fm.description == "로고 색상 규칙 (brand #2E86AB 기준)"
    assert fm.inline_hash == {
        "description": ("로고 색상 규칙 (brand", "로고 색상 규칙 (brand #2E86AB 기준)")
    }


def test_quoted_values_and_whole_line_comments_are_the_same_either_way() -> None:
    text = "---\n# a note\nname: 'A #1'\ndescription: \"B #2\"\ntype: user\n---\n"
    fm, _ = parse_frontmatter(text)
    assert (fm.name, fm.description, fm.inline_hash) == ("A #1", "B #2", {})


def test_a_trailing_comment_on_the_type_now_makes_it_unknown() -> None:
    fm, _ = parse_frontmatter("---\nname: n\ndescription: d\ntype: project # by hand\n---\n")
    assert fm.raw_type == "project # by hand" and fm.type is None
    assert "type" in fm.inline_hash


def test_line_by_line_recovery_keeps_the_inline_hash_too() -> None:
    fm, _ = parse_frontmatter("---\nname: a: b\ndescription: x #y\n---\n")
    assert fm.malformed and fm.description == "x #y" and fm.inline_hash["description"][0] == "x"


def _nesting_depth_char_by_char(block: str) -> int:
    """The nesting bound as first written: every line walked character by character."""
    indents: list[int] = []
    flow = deepest = 0
    for line in block.split("\n"):
        stripped = line.lstrip(" ")
        if not stripped.strip() or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        if flow == 0:
            while indents and indents[-1] >= indent:
                indents.pop()
            indents.append(indent)
        lead = re.match(r"(?:[-?:][ \t]+)+", stripped)
        compact = len(re.findall(r"[-?:](?=[ \t])", lead.group(0))) if lead else 0
        for ch in stripped:
            if ch in "[{":
                flow += 1
                deepest = max(deepest, len(indents) + compact + flow)
            elif ch in "]}" and flow:
                flow -= 1
        deepest = max(deepest, len(indents) + compact + flow)
    return deepest


@pytest.mark.parametrize("seed", range(10))
def test_nesting_depth_skips_plain_lines_without_changing_the_bound(seed: int) -> None:

    rng = random.Random(seed)
    pieces = ["- ", "? ", ": ", "-", "[", "]", "{", "}", "a", "key: v", "# c", " ", "\t", "'", "x:"]
    pieces += ["name: a plain value", "#", "type: user", "b"] * 4  # flat headers, often
    for _ in range(300):
        lines = [
            " " * rng.choice([0, 0, 0, 0, 0, 2, 6])
            + "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
            for _ in range(rng.randint(1, 12))
        ]
        block = "\n".join(lines)
        assert yaml_nesting_depth(block) == _nesting_depth_char_by_char(block), block


# ---- a header YAML refuses, said in words (twelfth session: shapes from published dirs)


@pytest.mark.parametrize(
    ("value_line", "says"),
    [
        (
            'description: "the regime "CSPN" is log-aware, see the plan"',
            "starts in double quotes and goes on after the closing quote",
        ),
        (
            'name: "watch justify" wired as an explicit trigger',
            "starts in double quotes and goes on after the closing quote",
        ),
        ("description: `drag-region` only applies to the title bar", "starts with '`'"),
        ("description: 2026-05-12 Part 2: all twelve flaws fixed", "holds ': ' outside quotes"),
    ],
)
def test_a_header_yaml_refuses_is_explained_at_the_files_line(value_line: str, says: str) -> None:
    text = f"---\ntype: project\n{value_line}\n---\nBody.\n"
    fm, _ = parse_frontmatter(text)
    assert fm.malformed and fm.problem_line == 3
    (problem,) = fm.problems
    assert says in problem and "(line 3)" in problem and "<unicode string>" not in problem


def test_any_other_yaml_error_names_the_files_line_not_the_parsers_string() -> None:
    fm, _ = parse_frontmatter("---\nname: x\ntags: [a, b\ntype: user\n---\nBody.\n")
    (problem,) = fm.problems
    assert fm.malformed and "<unicode string>" not in problem and "at line 3" in problem


def test_a_pinned_flag_under_metadata_marks_the_writers_typeless_shape_and_nothing_else() -> None:
    """Where Claude Code stamps a nested `pinned:` (from September 2026) it writes no type; a top-level
    `pinned:` (a person's own key) or none at all is not that shape."""
    nested = (
        "---\nname: a\ndescription: b\nmetadata: \n  node_type: memory\n  pinned: false\n---\nx\n"
    )
    top = "---\nname: a\ndescription: b\npinned: true\n---\nx\n"
    plain = "---\nname: a\ndescription: b\nmetadata:\n  node_type: memory\n---\nx\n"
    assert parse_frontmatter(nested)[0].typeless_by_design
    assert not parse_frontmatter(top)[0].typeless_by_design
    assert not parse_frontmatter(plain)[0].typeless_by_design
    typed = nested.replace("  pinned: false\n", "  pinned: false\n  type: feedback\n")
    assert not parse_frontmatter(typed)[0].typeless_by_design


def test_claude_codes_header_ends_at_the_first_dash_run_after_the_opening_line() -> None:
    """Claude Code's header pattern (/^---\\s*\\n([\\s\\S]*?)---\\s*\\n?/) closes at the first '---'
    after the opening line, wherever it is; the keys after that point are body to it."""
    text = (
        "---\nname: Kiln\ndescription: a # note\nmetadata:\n  note: fire --- cool\n"
        "  type: project\n  modified: 2026-10-01T00:00:00Z\nextra: 1\n---\nBody --- here.\n"
    )
    early = cli_header_end(parse_frontmatter(text)[0])
    assert early is not None
    assert (early.index, early.kept) == (3, "  note: fire")
    assert early.lost == ("metadata.type", "metadata.modified", "extra")
    # the closing line alone, a dash run in the body, or no closing line: both readers agree
    for agreed in (
        "---\nname: a\ndescription: b\ntype: user\n---\nBody --- here.\n",
        "---\nname: a --\ndescription: b\n",
        "no header --- at all\n",
    ):
        assert cli_header_end(parse_frontmatter(agreed)[0]) is None


@pytest.mark.parametrize("loader", ["SafeLoader", "CSafeLoader"])
def test_an_escape_past_unicode_in_a_recovered_header_is_kept_as_written_with_either_loader(
    monkeypatch: pytest.MonkeyPatch, loader: str
) -> None:
    """A header already being recovered line by line (here: an unclosed `[`) with a quoted
    value holding "\\U00110000", past the last Unicode character. libyaml refuses the escape
    with a ScannerError; the pure-Python loader (PyYAML without libyaml) let chr() raise
    ValueError, which the recovery did not catch, so parse_frontmatter raised and every scan
    of the dir with it (attack round 29; fails on the old module with SafeLoader)."""
    import yaml

    monkeypatch.setattr(frontmatter, "yaml_loader", lambda: (yaml, getattr(yaml, loader)))
    text = '---\nname: a\ndescription: "\\U00110000 x"\ntype: user\nbad: [\n---\nbody\n'
    fm, body = parse_frontmatter(text)
    assert fm.malformed and fm.name == "a" and fm.type == "user" and body == "body\n"
    assert fm.description == "\\U00110000 x"


def test_a_lone_cr_stays_in_a_body_line_and_ends_a_header_line_as_yaml_reads_it() -> None:
    # spec.text.as_lf: in a file that has LFs a lone CR stays inside its line (Claude Code's
    # reader splits at '\n'); its YAML parser ends a header line there, and so does this one
    fm, body = parse_frontmatter("---\nname: Coffee\rtype: user\n---\nfirst\rhalf\nsecond\n")
    assert fm.name == "Coffee" and fm.type is MemoryType.USER
    assert body == "first\rhalf\nsecond\n"
    _, classic = parse_frontmatter("---\rname: Tea\r---\rbody\r")
    assert classic == "body\n"  # a CR-only file (no LF at all) is read line by line


_TOO_LONG_FOR_DECIMAL = {  # each builds an int of more than 4,300 decimal digits
    "hex": "0x" + "f" * 3700,
    "octal": "0" + "7" * 4900,
    "sexagesimal": "1" + ":59" * 2450,
}


@pytest.mark.parametrize("where", ["value", "key", "list item", "metadata"])
@pytest.mark.parametrize("literal", sorted(_TOO_LONG_FOR_DECIMAL))
def test_an_integer_too_long_to_show_in_decimal_is_kept_as_written(
    literal: str, where: str
) -> None:
    # thirty-second session: YAML builds these without Python's limit on decimal digits, and
    # every later str() of the header's fields raised ValueError ("Exceeds the limit (4300
    # digits) for integer string conversion"), out of the analysis frame for one
    written = _TOO_LONG_FOR_DECIMAL[literal]
    extra = {
        "value": f"other: {written}",
        "key": f"? {written}\n: v",  # a plain key is 1,024 characters at most
        "list item": f"tags: [{written}]",
        "metadata": f"metadata:\n  pinned: {written}",
    }[where]
    text = f"---\nname: a\ndescription: d\ntype: user\n{extra}\n---\nbody\n"
    assert len(text) < 8192  # inside the header window, so YAML is asked
    fm, body = parse_frontmatter(text)
    assert (fm.name, fm.type, body) == ("a", MemoryType.USER, "body\n")
    assert fm.malformed and "more decimal digits than can be shown" in " ".join(fm.problems)
    assert str(fm.fields) and str(fm.extra_fields())  # nothing left that cannot be shown
    if where == "value":
        assert fm.fields["other"] == written


def test_an_integer_past_64_bits_that_decimal_can_show_is_still_an_integer() -> None:
    fm, _ = parse_frontmatter("---\nname: a\nid: 0x" + "f" * 40 + "\n---\n")
    assert fm.fields["id"] == 16**40 - 1 and not fm.malformed


@pytest.mark.parametrize(
    "text",
    [
        "---\nname: Kiln\ntype: project\n---\n\nFires to cone six.\n",
        "---\r\nname: Kiln\r\ntype: project\r\n---\r\n\r\nFires to cone six.\r\n",  # kept on Windows
        "\ufeff---\r\nname: Kiln\r\ntype: project\r\n---\r\nFires to cone six.\r\n",
        "---\rname: Kiln\rtype: project\r---\rFires to cone six.\r",  # a CR-only file
        "--- \nname: Kiln\ntype: project\n---  \nFires to cone six.\n",
        "---\nname: Kiln\ntype: project\n---",
        "No header at all.\n",
        "---\nname: Kiln\nnever closed\n",
    ],
)
def test_the_body_starts_in_the_text_as_written_where_the_reader_starts_it(text: str) -> None:
    # real35: the dream cut headers at "---\n" only, so a CRLF file was all body to it
    cut = header_block_end(text)
    fm, body = parse_frontmatter(text)
    parsed_again, _ = parse_frontmatter(text[:cut])
    assert text[cut:].replace("\r\n", "\n").replace("\r", "\n").lstrip("\n") == body.lstrip("\n")
    assert parsed_again.name == (fm.name if cut else None)
    assert cut == 0 or text[:cut].rstrip().endswith("---")


_HEADER_LINES = ["---", "--- ", "----", "---x", " ---", "name: Kiln", "", "x: ---"]


@settings(max_examples=400, deadline=None)
@given(
    lines=st.lists(st.sampled_from(_HEADER_LINES) | st.sampled_from(["---"] * 3), max_size=45),
    closed_by_end=st.booleans(),
)
def test_a_file_with_lf_line_ends_is_cut_where_the_same_file_with_crlf_is(
    lines: list[str], closed_by_end: bool
) -> None:
    # header_block_end cuts an LF file without splitting it into lines; the CRLF file goes
    # through the reader's own cut (header_span), so both must cut at the same line: fences
    # with trailing spaces, a fence past the 30-line window, one ending the text
    text = "\n".join(["---", *lines]) + ("" if closed_by_end else "\n")
    cut = header_block_end(text)
    crlf = text.replace("\n", "\r\n")
    assert header_block_end(crlf) == cut + text.count("\n", 0, cut)
    assert header_block_end("\ufeff" + text) == cut + (1 if cut else 0)


@pytest.mark.parametrize("fence_line", [FRONTMATTER_MAX_LINES - 1, FRONTMATTER_MAX_LINES])
def test_a_closing_fence_past_the_window_is_no_cut(fence_line: int) -> None:
    body = [f"k{i}: v" for i in range(1, fence_line)]
    text = "\n".join(["---", *body, "---", "Body."]) + "\n"
    inside = fence_line < FRONTMATTER_MAX_LINES
    assert header_block_end(text) == (text.index("---\nBody") + 4 if inside else 0)
