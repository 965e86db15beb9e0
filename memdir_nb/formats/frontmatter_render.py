"""Write memory files: render a new one, or update name/description/type keeping other header lines.

The format's names (the FENCE line, the METADATA_KEY that current Claude Code nests `type:`
under, the MODIFIED_KEY time) live in spec.constants; memdir_nb.formats.frontmatter reads
with them.
"""

from __future__ import annotations

from memdir_nb.formats.frontmatter import Frontmatter, yaml_loader
from memdir_nb.spec.constants import FENCE, METADATA_KEY, MODIFIED_KEY
from memdir_nb.spec.taxonomy import MemoryType, require_memory_type
from memdir_nb.spec.text import as_lf, in_style, line_end_style, one_line
from memdir_nb.spec.timestamps import iso_utc

# ---------------------------------------------------------------------------- rendering


def _dump_field(key: str, value: str) -> str:
    """One `key: value` line, quoted by yaml.safe_dump whenever YAML needs it.

    PyYAML comes from frontmatter.yaml_loader, on first use: reading headers (a scan) imports
    this module too, and most never need YAML.
    """
    yaml, _ = yaml_loader()
    out: str = yaml.safe_dump({key: value}, allow_unicode=True, width=2**31 - 1, sort_keys=False)
    return out if out.endswith("\n") else out + "\n"


def _modified_line(modified_ms: float) -> str:
    """`modified: <ISO time>` unquoted, as Claude Code 2.1.214+ writes it."""
    return f"{MODIFIED_KEY}: {iso_utc(modified_ms)}"


def without_modified(text: str) -> str:
    """text with the header's top-level `modified:` line taken out (to compare two saves)."""
    if not text.startswith(FENCE + "\n"):
        return text
    close = text.find("\n" + FENCE + "\n", len(FENCE))
    if close < 0:
        return text
    head = text[len(FENCE) + 1 : close + 1].split("\n")
    kept = [line for line in head if not _is_top_key_line(line, MODIFIED_KEY)]
    return FENCE + "\n" + "\n".join(kept) + text[close + 1 :]


def render_memory_file(
    name: str,
    description: str,
    type: MemoryType | str,
    body: str,
    *,
    modified_ms: float | None = None,
) -> str:
    """A complete memory file: frontmatter (name, description, type[, modified]) then the body."""
    if not isinstance(name, str) or not one_line(name):
        raise ValueError(
            "a memory needs a non-empty name: pass a short title such as 'Testing policy'"
        )
    if not isinstance(description, str):
        raise ValueError(
            "description must be text: pass one line saying when this memory is useful"
        )
    if not isinstance(body, str):
        raise ValueError("body must be text: pass the memory's content as a string")
    mtype = require_memory_type(type)
    head = (
        FENCE
        + "\n"
        + _dump_field("name", one_line(name))
        + _dump_field("description", one_line(description))
        + _dump_field("type", mtype.value)
        + ("" if modified_ms is None else _modified_line(modified_ms) + "\n")
        + FENCE
        + "\n"
    )
    return head + _body_part(body)


def _body_part(body: str) -> str:
    """The body as written after the header: one blank line, the text, a final newline."""
    body = as_lf(body).strip("\n")
    return "\n" + body + "\n" if body else ""


# ---------------------------------------------------------------------------- in-place update


def _same_text(old: object, new: str) -> bool:
    """Whether a field read from the header already says new (as one line, as it is written)."""
    return isinstance(old, str) and one_line(old) == one_line(new)


def _is_top_key_line(line: str, key: str) -> bool:
    """Whether line is `key:` (with or without a value) at column 0."""
    return line.startswith(key + ":") and (len(line) == len(key) + 1 or line[len(key) + 1] in " \t")


def _block_end(lines: list[str], start: int) -> int:
    """The index after a top-level key's value: its line plus indented or blank continuations."""
    end = start + 1
    while end < len(lines) and (lines[end][:1] in (" ", "\t") or not lines[end].strip()):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():  # trailing blanks stay outside
        end -= 1
    return end


def _set_top_key(lines: list[str], key: str, value: str) -> list[str]:
    """lines with the top-level `key:` (and its continuation lines) replaced, or appended."""
    new = _dump_field(key, value).rstrip("\n").split("\n")
    for i, line in enumerate(lines):
        if _is_top_key_line(line, key):
            return [*lines[:i], *new, *lines[_block_end(lines, i) :]]
    return [*lines, *new]


def _set_nested_type(lines: list[str], value: str) -> list[str] | None:
    """lines with the `type:` inside the `metadata:` block replaced, or None if there is none."""
    for i, line in enumerate(lines):
        if not _is_top_key_line(line, METADATA_KEY):
            continue
        for j in range(i + 1, _block_end(lines, i)):
            inner = lines[j]
            indent = inner[: len(inner) - len(inner.lstrip(" \t"))]
            if _is_top_key_line(inner.lstrip(" \t"), "type"):
                return [
                    *lines[:j],
                    indent + _dump_field("type", value).rstrip("\n"),
                    *lines[j + 1 :],
                ]
    return None


def _set_modified(lines: list[str], modified_ms: float) -> list[str]:
    """lines with the memory's `modified:` time set where it is written (nested or top level)."""
    line = _modified_line(modified_ms)
    if not any(_is_top_key_line(x, MODIFIED_KEY) for x in lines):
        for i, top in enumerate(lines):
            if not _is_top_key_line(top, METADATA_KEY):
                continue
            for j in range(i + 1, _block_end(lines, i)):
                inner = lines[j]
                indent = inner[: len(inner) - len(inner.lstrip(" \t"))]
                if _is_top_key_line(inner.lstrip(" \t"), MODIFIED_KEY):
                    return [*lines[:j], indent + line, *lines[j + 1 :]]
    for i, top in enumerate(lines):
        if _is_top_key_line(top, MODIFIED_KEY):
            return [*lines[:i], line, *lines[_block_end(lines, i) :]]
    return [*lines, line]


def body_as_written(text: str, fm: Frontmatter) -> str | None:
    """The exact text after a closed header's fence line (its line ends, blank lines and a
    missing final newline as written), for an update that leaves the body alone; None when the
    header is not one whose lines fm holds (then the body is rendered from fm's reading)."""
    if not fm.has_frontmatter or not fm.closed:
        return None
    start = 1 if text.startswith("\ufeff") else 0
    expected = [FENCE, *fm.header_lines, FENCE]
    at = start
    for want in expected:
        end = text.find("\n", at)
        if end < 0 or text[at:end].removesuffix("\r").rstrip() != want.rstrip():
            return None
        at = end + 1
    return text[at:]


def render_updated_memory_file(
    fm: Frontmatter,
    name: str,
    description: str,
    type: MemoryType | str,
    body: str,
    *,
    modified_ms: float | None = None,
    like: str | None = None,
) -> str:
    """A memory file whose name, description and type are set, keeping every other header line.

    Keys this toolkit does not own (a nested `metadata:` mapping with node_type and
    originSessionId, comments) are kept as written; with modified_ms the `modified:` time is set
    where the file keeps it (under `metadata:` or at top level; appended at top level if none). A type that lived under
    `metadata:` is updated there; otherwise the spec's top-level `type:` is written. A field
    whose value does not change keeps its lines as written (a folded description, a comment
    or a line indented under it, a repeated key): only what changes is rewritten. A header
    that cannot be edited in place (none, or no closing fence) is rendered fresh.

    like: the file's text as read. The result keeps its byte-order mark and, when every line
    of it ends in CRLF, its CRLF line ends; a body equal to the one read is kept as written.
    """
    if not fm.has_frontmatter or not fm.closed:
        return render_memory_file(name, description, type, body, modified_ms=modified_ms)
    render_memory_file(name, description, type, body)  # validates every argument
    mtype = require_memory_type(type)
    lines = list(fm.header_lines)
    if not _same_text(fm.name, name):
        lines = _set_top_key(lines, "name", one_line(name))
    if not _same_text(fm.description, description):
        lines = _set_top_key(lines, "description", one_line(description))
    if fm.type is not mtype:
        nested = _set_nested_type(lines, mtype.value) if fm.type_nested else None
        lines = nested if nested is not None else _set_top_key(lines, "type", mtype.value)
    if modified_ms is not None:
        lines = _set_modified(lines, modified_ms)
    head = FENCE + "\n" + "".join(line + "\n" for line in lines) + FENCE + "\n"
    if like is None:
        return head + _body_part(body)
    end = line_end_style(like)
    kept = body_as_written(like, fm)
    if kept is None or as_lf(kept).strip("\n") != body.strip("\n"):
        kept = in_style(_body_part(body), end)
    bom = "\ufeff" if like.startswith("\ufeff") else ""
    return bom + in_style(head, end) + kept
