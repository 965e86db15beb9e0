"""A memory's `[[name]]` links to other memories: which names a body links, and pointing them
at another memory.

Claude Code's memory prompt of late 2026 tells the model to link related memories in a body
with `[[name]]`, where name is the other memory's `name:` slug, and says that a link matching no
memory is fine: it marks a memory worth writing later. Real memories link by the other file's
stem as well (`[[project_release_freeze]]`, from before the slug names) and by that stem with
hyphens (`[[project-release-freeze]]`): of the 15 links of one published dir of 19 memories, 3
name a memory's `name:`, 8 its stem, 3 its stem with hyphens and 1 nothing; another, of 111
memories, links by the stem without its leading type (`[[no-fabrication]]` for
`feedback_no-fabrication.md`) as often as by anything else. Some add a label or a
heading after the name (`[[name|label]]`, `[[name#part]]`), as other notes tools write them.
So a link that stops resolving (its memory merged into another) reads as a memory still to be
written, and a later session may write it again. This module is the one home of the link's
shape and of where a link finds its memory; `dream.plan` uses it to point a merged-away memory's
links at the memory that absorbed it, lint (`lint.links`) to report a link no memory answers to,
and `storage.link_report` to name the links a forget, delete or rename leaves naming nothing.

Where a link looks (the scope rule, thirty-third session): a link in a private memory finds a
memory of either scope, as the agent that reads it loads both; a link in a team memory finds
team memories only, as a teammate reading team/ has none of this user's private ones. Names are
compared case-folded (the model reading `[[Kiln-Firing]]` finds `kiln-firing`).
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping

from memdir_nb.spec.taxonomy import TYPE_NAMES
from memdir_nb.spec.text import clip, fence_change, terminal_line

# `[[` + the name (no brackets, line end, `|`, `#` or backslash) + an optional `|label` or
# `#part` (its `|` escaped as `\|` inside a Markdown table) + `]]`. The name is compared with the
# whitespace around it stripped. `[[#part]]` (a heading of the same file) names no memory.
_LINK = re.compile(r"\[\[([^\[\]|#\n\\]+)(\\?[|#][^\[\]\n]*)?\]\]")
# An inline code span (`...`): a `[[ -f x ]]` or `df[["a"]]` inside one is code, not a link.
# The spans are those of the regex (`+)[^`\n]*?\1 (finditer), found without it: on a run of n
# backticks its backreference compared up to n characters for each shorter opening it tried,
# quadratic (one line of 256 Ki backticks and a link: 3.3 s a read; redos44). `_code_spans`.
_BACKTICKS = re.compile(r"`+")
_SPAN_BODY_END = re.compile(r"[`\n]")
# What a shell test (`[[ -f x ]]`, `[[ $a == b ]]`) or a code subscript (`df[["col"]]`) holds and
# no memory's name does: a leading option dash or `!`, a `$`, a quote (an apostrophe inside a
# word, `Ann's setup`, is no quote), a comparison.
_SHELL_TEST = re.compile(r"^[-!]|[$\"=<>&]|(?<!\w)'|'(?!\w)")
# What a link names when it names a document or a ticket, not a memory (thirty-fourth session,
# links34: `[[ADR-0022]]` for the repository's docs/adrs/adr-0022-....md): an upper-case key and
# a number. A memory's name is a slug or a file stem, which no published memory writes so.
_DOCUMENT_KEY = re.compile(r"^[A-Z][A-Z0-9]*-[0-9]+$")
# A link that says "no memory" (`Working example: [[none]]`, links34): a placeholder, not a
# memory still to write.
_PLACEHOLDERS = frozenset({"none", "null", "nil", "n/a", "tbd"})
# A stem's leading memory type and its separator (`project_`, `feedback-`), when a name follows:
# one published dir of 111 memories links half its memories by the stem without it (thirty-third
# session), as the model reading `[[no-fabrication]]` finds `feedback_no-fabrication.md`.
_TYPE_PREFIX = re.compile(rf"^(?:{'|'.join(TYPE_NAMES)})[_-](?=.)", re.IGNORECASE)
_NUMBER_PREFIX = re.compile(r"^\d{1,6}[_-](?=.)")  # a file's number in a numbered dir: `75-`
# `[label](target.md)`, with an optional `#part`, `<...>` around the target or a "title": a
# Markdown link from one memory's body to another memory's file (file_link_uses). Inside
# `<...>` the target may hold spaces and parentheses, as CommonMark allows (`<kiln days.md>`);
# bare, it may not, so a new target holding one is written in `<...>` (file_relinked).
_FILE_LINK = re.compile(
    r"\[[^\[\]\n]*\]\(\s*(?:<([^<>\n#]+?\.md)(?:#[^<>\n]*)?>|([^()\s<>#]+?\.md)(?:#[^()\s]*)?)"
    r"(?:\s+\"[^\"\n]*\")?\s*\)",
    re.IGNORECASE,
)
_NEEDS_ANGLES = re.compile(r"[\s()]")  # what a bare link target cannot hold
_PART_AFTER = re.compile(r"(?:#[^()\s]*)?")  # a bare target's `#part`, inside the new `<...>`
TEAM_SCOPE = "team"
LINK_QUOTE_MAX = 60  # characters of a link's name a message quotes
_MD = ".md"


def names_linking(name: str, stem: str) -> tuple[str, str, str, str, str, str, str]:
    """The names a link finds a memory by: its `name:` (its stem when it has none), its file's
    stem, the stem with hyphens for underscores, those two without the stem's leading type
    (`feedback_no-retries` is linked as `[[no-retries]]`; the same two when it has none), and
    the stem without a leading number, with hyphens too (real35: a dir that numbers its files,
    `75-feedback_native_first` linked as `[[feedback_native_first]]`; the stem when it has
    none). The type is taken off after the number."""
    unnumbered = _NUMBER_PREFIX.sub("", stem, count=1)
    bare = _TYPE_PREFIX.sub("", unnumbered, count=1)
    return (
        name,
        stem,
        stem.replace("_", "-"),
        bare,
        bare.replace("_", "-"),
        unnumbered,
        unnumbered.replace("_", "-"),
    )


def names_to_link(name: str, stem: str) -> tuple[str | None, ...]:
    """names_linking's forms as a link may be written to them: each form that `[[form]]` would
    not read back as a link to it (a `name:` holding `|`, `#`, `]]` or a newline: `[[kiln|firing]]`
    is a link to `kiln`) replaced by the first form after it that does, None when none does.

    A merge writes the absorbing memory's name into the links it points (relinked): with
    `name: kiln|firing` it wrote `[[kiln|firing]]`, a link to another memory or to none, where
    the stem `project_kiln_firing` finds it (attack36)."""
    forms = names_linking(name, stem)
    readable = [f for f in forms if _reads_as_link(f)]
    return tuple(
        f if f in readable else next((r for r in readable if forms.index(r) > i), None)
        for i, f in enumerate(forms)
    )


def _reads_as_link(name: str) -> bool:
    """Whether `[[name]]` in prose is read (link_uses) as one link to exactly name."""
    return bool(name) and [n for _, n in link_uses(f"[[{name}]]")] == [name]


def link_name(written: str) -> str:
    """The name a link names: as written, stripped, without a trailing `.md` (realdata34:
    `[[project_v0_1_status.md]]` names the memory whose file that is, as the model reading it
    finds it; "" for a link to nothing but `.md`)."""
    name = written.strip()
    return name[: -len(_MD)].rstrip() if name.lower().endswith(_MD) else name


def _names_a_memory(name: str) -> bool:
    """Whether a link's name (stripped, `.md` off) can name a memory: not empty, not a shell
    test or a code subscript (_SHELL_TEST), not a document or ticket key (_DOCUMENT_KEY), not a
    placeholder for no memory (_PLACEHOLDERS). The one rule every reader of links uses."""
    return bool(name) and (
        _SHELL_TEST.search(name) is None
        and _DOCUMENT_KEY.match(name) is None
        and name.casefold() not in _PLACEHOLDERS
    )


def _code_spans(line: str) -> list[tuple[int, int]]:
    """Where a line's inline code spans are (a `[[` inside one is code, not a link): from each
    backtick run not already inside a span (n backticks), the span closes at the first
    backtick after it if n backticks start there, with no line end between; else, for n >= 2,
    the run's first 2 * (n // 2) backticks are a span of their own (empty code); a lone
    backtick opens nothing. Linear: each run is read at most twice."""
    spans: list[tuple[int, int]] = []
    at = line.find("`")
    while at >= 0:
        run = _BACKTICKS.match(line, at)
        assert run is not None  # line[at] is a backtick
        opening = run.end() - at
        stop = _SPAN_BODY_END.search(line, run.end())
        if stop is not None and line.startswith("`" * opening, stop.start()):
            end = stop.start() + opening
        elif opening >= 2:
            end = at + 2 * (opening // 2)
        else:
            at = line.find("`", at + 1)
            continue
        spans.append((at, end))
        at = line.find("`", end)
    return spans


def _line_links(line: str) -> Iterator[re.Match[str]]:
    """The `[[name]]` matches of one line (outside a fenced block) that read as links to a
    memory: not inside an inline code span, and naming what can be a memory."""
    outside = _outside_code(line)
    for m in _LINK.finditer(line):
        if outside(m.start()) and _names_a_memory(link_name(m.group(1))):
            yield m


def _outside_code(line: str) -> Callable[[int], bool]:
    """A test of whether a position of line, asked in increasing order, is outside its inline
    code spans: one walk over the spans for the whole line (a 256 KiB line of thousands of
    spans and links stays linear)."""
    spans, at = _code_spans(line), 0

    def outside(pos: int) -> bool:
        nonlocal at
        while at < len(spans) and spans[at][1] <= pos:
            at += 1
        return at == len(spans) or pos < spans[at][0]

    return outside


def _prose_lines(text: str, needle: str = "[[") -> Iterator[tuple[int, str]]:
    """(0-based line, line) of text's lines outside fenced code blocks that hold needle."""
    fence = ""
    for no, line in enumerate(text.split("\n")):
        change = fence_change(line, fence) if ("`" in line or "~" in line) else None
        if change is not None:
            fence = change
        elif not fence and needle in line:
            yield no, line


def linked_names(text: str) -> set[str]:
    """The names text links with `[[name]]` (link_uses' links; any label or heading after the
    name left out, and a trailing `.md`)."""
    return {name for _, name in link_uses(text)}


def relinked(text: str, renames: Mapping[str, str]) -> tuple[str, int]:
    """text with each `[[old]]` link (link_uses' links: none in code) whose name is a key of
    renames, compared as links find memories (link_key: `[[Kiln-Schedule]]` is a link to
    `kiln-schedule`), naming renames[old] instead (a label or heading after the name kept), and
    how many links changed."""
    if "[[" not in text or not renames:
        return text, 0
    keyed = {link_key(old): new for old, new in renames.items()}
    lines = text.split("\n")
    count = 0
    for no, line in _prose_lines(text):
        parts, at = [], 0
        for m in _line_links(line):
            name = link_name(m.group(1))
            new = keyed.get(link_key(name))
            if new is None:
                continue
            count += 1
            suffix = m.group(1).strip()[len(name) :]  # a `.md` written after the name stays
            parts += [line[at : m.start()], f"[[{new}{suffix}{m.group(2) or ''}]]"]
            at = m.end()
        if parts:
            lines[no] = "".join([*parts, line[at:]])
    return "\n".join(lines), count


def _capped(text: str) -> str:
    """text through the one terminal sanitiser (one line), cut to LINK_QUOTE_MAX characters."""
    return terminal_line(clip(text, LINK_QUOTE_MAX))


def shown_link(name: str) -> str:
    """A link as a message quotes it: `[[name]]` through the one terminal sanitiser (one line),
    its name cut to LINK_QUOTE_MAX characters with an ellipsis."""
    return f"[[{_capped(name)}]]"


def shown_file_link(target: str) -> str:
    """A Markdown link to a memory file as a message quotes it: `[…](target)`, escaped and
    capped as shown_link's name."""
    return f"[\u2026]({_capped(target)})"


def file_link_uses(text: str) -> list[tuple[int, str]]:
    """(0-based line, target as written) of each Markdown link to a `.md` file in text
    (`[AMD notes](kiln-days.md)`, `[x](team/kiln.md#cooling)`): outside fenced blocks and code
    spans, relative targets only (no URL, no absolute or home path). A memory's body points at
    another memory file so as well as by `[[name]]` (links34; 1nj0k/KSword's memories)."""
    if "](" not in text:
        return []
    out: list[tuple[int, str]] = []
    for no, line in _prose_lines(text, "]("):
        outside = _outside_code(line)
        for m in _FILE_LINK.finditer(line):
            target = m.group(m.lastindex or 1)
            if outside(m.start()) and not (":" in target or target.startswith(("/", "~", "\\"))):
                out.append((no, target))
    return out


def file_relinked(text: str, targets: Mapping[str, str]) -> tuple[str, int]:
    """text with each Markdown link to a memory file (file_link_uses' links: none in code)
    whose target, as written, is a key of targets pointing at targets[written] instead (its
    label, `#part` and title kept), and how many links changed. A dream's merge points the links
    to a merged-away file at the one that absorbed it so (keep35; docs/decisions.md). A new
    target holding a space or a parenthesis is written in `<...>` (with its `#part`): bare,
    `[x](kiln days (v2).md)` is no Markdown link, and the merge broke the link it pointed
    (attack36)."""
    if "](" not in text or not targets:
        return text, 0
    lines = text.split("\n")
    count = 0
    for no, line in _prose_lines(text, "]("):
        outside, parts, at = _outside_code(line), [], 0
        for m in _FILE_LINK.finditer(line):
            group = m.lastindex or 1
            new = targets.get(m.group(group))
            if new is None or not outside(m.start()):
                continue
            if group == 2 and _NEEDS_ANGLES.search(new):  # bare: `(kiln days.md)` is no link
                part = _PART_AFTER.match(line, m.end(2))
                end = part.end() if part is not None else m.end(2)
                parts += [line[at : m.start(2)], f"<{new}", line[m.end(2) : end], ">"]
                at = end
            else:
                parts += [line[at : m.start(group)], new]
                at = m.end(group)
            count += 1
        if parts:
            lines[no] = "".join([*parts, line[at:]])
    return "\n".join(lines), count


def file_link_target(linker: str, target: str) -> str | None:
    """The memory-dir-relative file a Markdown link target written in the memory at linker
    ('/'-separated) points at, or None when it leaves the dir (`../../CLAUDE.md`)."""
    rel = posixpath.normpath(posixpath.join(posixpath.dirname(linker), target))
    return None if rel == ".." or rel.startswith("../") else rel


def first_link(line: str) -> tuple[int, int, str, str] | None:
    """The first `[[name]]` of one line that reads as a link to a memory (link_uses' rule: not
    inside an inline code span, not a shell test or a code subscript), as (start, end, name,
    label): where the link starts and ends, its name as written, and its `|label` ("" when
    none). None when the line has none. MEMORY.md lines written as `- [[name]] — hook` use it
    (formats.index_lines)."""
    if "[[" not in line:
        return None
    for m in _line_links(line):
        extra = m.group(2) or ""
        label = extra.lstrip("\\")[1:].strip() if extra.lstrip("\\").startswith("|") else ""
        return m.start(), m.end(), m.group(1), label
    return None


def link_uses(text: str) -> list[tuple[int, str]]:
    """(0-based line, name) of each `[[name]]` link in text that reads as a link to a memory:
    not inside a fenced code block or an inline code span, not a shell test or a code
    subscript written outside one (`if [[ -d build ]]`, `df[["col"]]`: _SHELL_TEST), not a
    document key (`[[ADR-0022]]`) nor a placeholder (`[[none]]`). Lint, the link reports of
    forget, rename and delete, and the dream's relinks all read links through it."""
    if "[[" not in text:
        return []
    return [
        (no, link_name(m.group(1))) for no, line in _prose_lines(text) for m in _line_links(line)
    ]


def scopes_a_link_sees(scope: str) -> tuple[str, ...]:
    """The scopes a link written in a memory of scope finds memories in (the module's scope
    rule): a team memory's links see team/ only, a private memory's see both."""
    return (TEAM_SCOPE,) if scope == TEAM_SCOPE else ("private", TEAM_SCOPE)


def file_stem(rel: str) -> str:
    """A memory file's stem from its '/'-separated path (`team/project_x.md` -> `project_x`)."""
    base = rel.rpartition("/")[2]
    return base[: -len(".md")] if base.lower().endswith(".md") else base


def link_key(name: str) -> str:
    """A link's name as links are compared: letter case folded and Unicode-normalised (NFC), so
    `[[café]]` typed composed finds the memory macOS named `café` decomposed; they are one name
    on screen and to the model reading the link (security.md §42)."""
    if name.isascii():
        return name.casefold()
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", name).casefold())


class LinkTargets:
    """The names the memories of a dir answer to, by scope, to tell where a link finds one."""

    def __init__(self, memories: Iterable[tuple[str, str, str | None]]) -> None:
        """memories: (rel, scope, name) each, rel '/'-separated; no name reads as the stem."""
        self._names: dict[str, dict[str, str]] = {"private": {}, TEAM_SCOPE: {}}
        for rel, scope, name in memories:
            stem = file_stem(rel)
            names = self._names.setdefault(scope, {})
            for form in names_linking(name or stem, stem):
                names.setdefault(link_key(form), rel)

    def finds(self, name: str, scope: str) -> bool:
        """Whether a link to name written in a memory of scope finds a memory."""
        return self.find(name, scope) is not None

    def find(self, name: str, scope: str) -> str | None:
        """The memory (its rel) a link to name written in a memory of scope finds, or None."""
        key = link_key(name)
        for s in scopes_a_link_sees(scope):
            found = self._names.get(s, {}).get(key)
            if found is not None:
                return found
        return None

    def private_only(self, name: str) -> str | None:
        """The private memory name leads to when no team memory answers to it (a team memory's
        link does not see it), else None."""
        key = link_key(name)
        return None if key in self._names[TEAM_SCOPE] else self._names["private"].get(key)
