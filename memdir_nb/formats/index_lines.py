"""MEMORY.md's entry lines: the one recogniser of a pointer line, and the line edits.

An entry is ``- [Title](file.md) — hook``; a line also points at a topic file when it holds
any markdown link to a memory file, or a memory file name that leads the line, backticked
or plain (``- feedback_tone.md: hook``).
`parse_entry_line` is the recogniser every reader shares (lint, analysis, the index report,
the store, the rebuild); `format_index_entry` writes a line; `upsert_index_entry` and
`remove_index_entry` edit one target's lines and keep every other line as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from memdir_nb.formats.index_caps import entry_line_flags
from memdir_nb.formats.index_citations import cites
from memdir_nb.formats.names import control_problem, is_memory_filename
from memdir_nb.formats.wikilinks import LinkTargets, first_link, link_name
from memdir_nb.spec.constants import MAX_HOOK_CHARS, MAX_INDEX_LINE_CHARS
from memdir_nb.spec.text import as_lf, one_line
from memdir_nb.spec.text import in_style as in_style  # re-exported
from memdir_nb.spec.text import line_end_style as line_end_style  # re-exported

NO_DESCRIPTION_HOOK = "(no description)"
ENTRY_DASH = "\u2014"  # the em dash between link and hook

__all__ = [
    "ENTRY_DASH",
    "MAX_HOOK_CHARS",
    "MD_LINK",
    "NO_DESCRIPTION_HOOK",
    "TICKED_MD",
    "URL_SCHEME",
    "IndexEntry",
    "entry_target",
    "format_index_entry",
    "in_style",
    "is_md_target",
    "keyed_by_target",
    "line_end_style",
    "link_path",
    "norm_target",
    "parse_entry_line",
    "parse_index",
    "plain_entry_target",
    "retarget_entry_line",
    "shorten_hook",
]


@dataclass(frozen=True)
class IndexEntry:
    """One pointer line of MEMORY.md."""

    line_no: int
    title: str
    target: str
    hook: str
    raw: str
    linked: bool = True  # a markdown link; False: a file name leading the line, ticked or plain
    wiki: bool = False  # a `[[name]]` link (linked False): the memory file of that stem

    @property
    def cited(self) -> bool:
        """Whether the hook cites where its fact comes from ("(source: ...)", "[^1]", a link):
        the dream and the rebuild keep such a line byte for byte (formats.index_citations)."""
        return cites(self.hook)

    @property
    def repointable(self) -> bool:
        """Whether a tool may point this line at where its missing file moved, or carry it to
        an agent's index, changing its target only: a markdown-link entry that is not a
        heading. A name in backticks may be prose naming a file elsewhere ("1. Read
        `docs/SPEC.md`", a list of a repo's reference files), and a heading entry has lines
        under it that would be left behind; both are reported and left to a person."""
        return self.linked and not self.raw.lstrip().startswith("#")

    @property
    def removable(self) -> bool:
        """Whether a tool may drop this line when its target is missing (--drop-dangling, the
        dream plan): a repointable line that cites nothing. A citation is the person's record
        of a source (real44): reported, and left to a person."""
        return self.repointable and not self.cited

    @property
    def naming(self) -> str:
        """How a line without a link names its file, as messages say it: "in backticks", or
        "as a plain name" (`- feedback_tone.md: hook`); "" for a link."""
        if self.linked:
            return ""
        if self.wiki:
            return "as a [[name]] link"
        return "in backticks" if TICKED_MD.search(self.raw) else "as a plain name"


# An index line points at a topic file when it holds a markdown link to a .md file, or a
# backticked .md file name: whatever the list marker, a leading word ("See"), a './' prefix,
# a table cell or a heading above it. These two patterns are the one recogniser used by
# lint (not-in-index, dangling), analysis (in_index), the index report and the store.
# The title allows one level of nested [brackets] but no bare '[': from any '[' the title stops
# at the next unmatched bracket, so a line of 100,000 '[' is read in linear time.
# A target is written in <angle brackets>, or plain up to the first blank; or, when it ends in
# `.md` (and perhaps an #anchor), plain with blanks in it: `[Role](claude-role/Tech Team/x.md)`
# is no CommonMark link, but a model reading the index (Claude Code loads its text, links
# unparsed) sees the file's path, and agents write such lines (real36). That target stops at a
# parenthesis, an angle bracket, a quote or the line's end, so each '[' still reads its line once.
MD_LINK = re.compile(
    r"\[(?P<title>(?:\\.|[^\[\]\\]|\[(?:\\.|[^\[\]\\])*\])*)\]"
    r"\((?P<target><[^>\n]*>|[^()\s]*|[^()<>\"\s][^()<>\"\n]*?\.md(?:#[^()<>\"\s]*)?)"
    r"(?:\s+\"[^\"\n]*\")?\)"
)
TICKED_MD = re.compile(r"`(?P<target>[^`\s]+\.md)`", re.IGNORECASE)
# A plain .md name that opens a line's content (after a list marker, a table pipe or a heading
# mark, no word before it) and is followed by a hook separator or the line's end: agents told to
# keep `- file.md: hook` lines write indexes of nothing else (realdata33). Read as a backticked
# name is: a pointer for every reader, never removed by a tool when its file is missing.
_BARE_MD = re.compile(r"(?P<target>[^\s`\[\]()<>|*:,;]+\.md)(?![\w.])", re.IGNORECASE)
# The same name in underscore emphasis, `__NAME.md__` or `_NAME.md_`, as `**NAME.md**` is read
# (_LINE_LEAD drops a leading `*`, and `_` is a file name's character, so it cannot be dropped
# there): the run that opens it closes it right after `.md`. A name that only starts with an
# underscore (`_drafts.md`, `__init__.md`) has no closing run and is read as it is (lefts38).
_UNDERSCORED_MD = re.compile(
    r"(?P<em>__?)(?P<target>[^\s`\[\]()<>|*:,;]+?\.md)(?P=em)(?![\w.])", re.IGNORECASE
)
URL_SCHEME = re.compile(r"^[a-z][a-z0-9+.\-]*:", re.IGNORECASE)
_HOOK_LEAD = re.compile(r"^[\s\u2014\u2013:|*_)\]-]*")
# What puts a link target in <angle brackets>: a parenthesis or whitespace. On str patterns
# \s is the characters str.isspace() accepts (tested over every code point), and one search
# in C costs less than a generator over the target's characters.
_BRACKETED = re.compile(r"[()\s]")


def link_path(target: str) -> str:
    """The file part of a link target: norm_target without an #anchor.

    A target that ends in `.md` is all path: a `#` inside it is part of a file or folder name
    (`notes#1.md`, `a#b/x.md`, which the name gate lets through and the rebuild links as
    written); only after the name does it start an anchor (`x.md#setup`).
    """
    path = norm_target(target)
    if path.lower().endswith(".md"):
        return path
    named, anchor, _ = path.rpartition("#")
    if anchor and named.lower().endswith(".md"):
        return named.strip()  # notes#1.md#setup
    return path.split("#", 1)[0].strip()


def is_md_target(target: str) -> bool:
    """Whether a link target names a Markdown file (not a URL; an #anchor is ignored)."""
    path = link_path(target)
    if not path or URL_SCHEME.match(path) or control_problem(path) is not None:
        return False
    # The last part must be a memory file name by the name gate (so `Notes.MD` and
    # `memory.md` are not pointers); folders may lead outside the dir, which lint reports.
    return is_memory_filename(path.rsplit("/", 1)[-1])


def _clean_title(title: str) -> str:
    """One line, with brackets turned into parentheses so the link syntax stays intact.

    A title ending in an odd run of backslashes (`C:\\`, `e\\`) gets one more: its last
    backslash would escape the link's closing `]` (Markdown's rule, and `MD_LINK`'s), so the
    line was written as no link at all, and every rebuild added the memory once more
    (security.md §39). Doubled, it shows as the one backslash it is.
    """
    clean = one_line(title).replace("[", "(").replace("]", ")")
    trailing = len(clean) - len(clean.rstrip("\\"))
    return clean + "\\" if trailing % 2 else clean


def shorten_hook(hook: str, max_chars: int = MAX_HOOK_CHARS) -> str:
    """One line of at most max_chars, cut on a word boundary with an ellipsis when longer."""
    text = " ".join(hook.split())
    if len(text) <= max_chars:
        return text
    room = text[: max_chars - 1]
    space = room.rfind(" ")
    if space > max_chars // 2:
        room = room[:space]
    return room.rstrip(" ,;:.-") + "\u2026"


def _format_target(target: str) -> str:
    """The link target, in <angle brackets> when it holds whitespace or parentheses.

    Whitespace is where a Markdown link's bare target stops (`\\s`: a no-break space, an
    ideographic space or a line separator as well as a space or a tab), so a name holding any
    of them is bracketed: lines written here are links to every Markdown reader, and `MD_LINK`
    reads a blank inside a bare target only for the people and agents who write it so.
    """
    # `in` four times, not any() over a generator: a fit formats every line of the index
    if not target or "\n" in target or "\r" in target or "<" in target or ">" in target:
        raise ValueError(
            f"index link target {target!r} is empty or holds a newline or angle bracket; "
            "pass the memory file's path relative to the index, e.g. 'feedback_testing.md'"
        )
    if _BRACKETED.search(target):
        return f"<{target}>"
    return target


# A hook cut shorter than this says nothing: a line with no room for it goes without one.
_MIN_HOOK_ROOM = 16


def _written_as_given(title: str, target: str, hook: str) -> bool:
    """Whether format_index_entry writes the three as they are (when that line fits max_line),
    known without cleaning each (a first plan formats a line for each of ~1,350 unindexed memories of the
    bench dir; plan41): a printable-ASCII title with no blank at either end, no bracket and no
    last backslash (_clean_title leaves it); a plain target (_PLAIN: _format_target writes it
    bare); a hook of at most MAX_HOOK_CHARS in shorten_hook's form (single spaces)."""
    return (
        title != ""
        and title.isascii()
        and title.isprintable()
        and title.strip() == title
        and "[" not in title
        and "]" not in title
        and not title.endswith("\\")
        and target != ""
        and not target.strip(_PLAIN)
        and len(hook) <= MAX_HOOK_CHARS
        and " ".join(hook.split()) == hook
    )


def format_index_entry(
    title: str, target: str, hook: str, max_line: int = MAX_INDEX_LINE_CHARS
) -> str:
    """'- [Title](file.md) — hook', with the hook cut to about MAX_HOOK_CHARS characters.

    max_line: also cut the hook so the whole line keeps within this many characters, when the
    title and target leave it room (a long title with a hook under MAX_HOOK_CHARS still makes
    a line past ~200: real40, a Chinese index whose titles run to 50 characters; real42, an
    entry the rebuild and the dream added for a memory titled in 56 characters, which the next
    plan then offered to shorten); a line whose title and target leave no room goes without
    its hook, and may still be longer."""
    if _written_as_given(title, target, hook):
        line = f"- [{title}]({target}) {ENTRY_DASH} {hook}" if hook else f"- [{title}]({target})"
        if len(line) <= max_line:
            return line
    clean_title = _clean_title(title) or Path(target).stem
    line = f"- [{clean_title}]({_format_target(target)})"
    room = min(MAX_HOOK_CHARS, max_line - len(line) - len(f" {ENTRY_DASH} "))
    short = shorten_hook(hook, room) if room >= _MIN_HOOK_ROOM else ""
    return f"{line} {ENTRY_DASH} {short}" if short else line


def norm_target(target: str) -> str:
    """A link target compared loosely: no <>, no leading './'."""
    target = target.strip()
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    while target.startswith("./"):
        target = target[2:]
    return target


class _Found(NamedTuple):
    """What makes a line an entry: the target as written, where it is written, where the
    entry ends, its title as written (None: none), and its form."""

    target: str
    start: int  # of the target as written (a `[[name]]` link: of its name)
    stop: int
    end: int  # of the whole entry: the hook follows
    title: str | None
    form: str  # "link", "ticked", "plain" or "wiki"


def _wiki_target(name: str) -> str:
    """The memory file a `[[name]]` index link points at: the file of that stem (`name.md`;
    a name written with its `.md` names the file itself)."""
    name = name.strip()
    return name if name.lower().endswith(".md") else name + ".md"


def _find_entry(line: str) -> _Found | None:
    """What makes line an entry: its first .md link, else a backticked .md name leading the
    line, else a plain one opening it, else its first `[[name]]` link; None when it is none."""
    for m in MD_LINK.finditer(line):
        if is_md_target(m.group("target")):
            t = m.group("title").replace("\\]", "]").replace("\\[", "[")
            return _Found(m.group("target"), m.start("target"), m.end("target"), m.end(), t, "link")
    ticked = next((t for t in TICKED_MD.finditer(line) if is_md_target(t.group("target"))), None)
    if ticked is not None and _leads_the_line(line[: ticked.start()], line[ticked.end() :]):
        a, b = ticked.span("target")
        return _Found(ticked.group("target"), a, b, ticked.end(), None, "ticked")
    if ticked is None:  # a plain name opening the line: `- feedback_tone.md: hook`
        lead = _LINE_LEAD.match(line)
        at = lead.end() if lead else 0
        bare = _UNDERSCORED_MD.match(line, at) or _BARE_MD.match(line, at)
        if (
            bare is not None
            and is_md_target(bare.group("target"))
            and _HOOK_START.match(line[bare.end() :]) is not None
        ):
            a, b = bare.span("target")
            return _Found(bare.group("target"), a, b, bare.end(), None, "plain")
    return _wiki_entry(line)  # else a file named in prose ("see `design.md` at the root")


def _wiki_entry(line: str) -> _Found | None:
    """A `[[name]]` link as a line's entry (realdata34: indexes written in the late-2026
    prompt's link form, `- [[kiln-schedule]] — hook`): the memory file of that stem, read as
    a name without a link is (never dropped by a tool; a missing one is `index-dangling-name`)."""
    found = first_link(line)
    if found is None:
        return None
    start, end, name, label = found
    target = _wiki_target(name)
    if not is_md_target(target):
        return None
    at = start + 2 + (len(name) - len(name.lstrip()))
    return _Found(target, at, at + len(name.strip()), end, label or None, "wiki")


def wiki_entry_memory(entry: IndexEntry, names: LinkTargets, scope: str) -> str | None:
    """The memory a `[[name]]` index line points at when no file of that stem is there: the one
    its name finds as a link written in a memory of scope finds it (its `name:`, its stem with
    hyphens, either without the type: formats.wikilinks.names_linking), as the late-2026 prompt
    asks links to name memories by `name:` (fresh34: `- [[deploy-window]] — hook` over
    `project_deploy_window.md`); None for any other line, or a name no memory answers to."""
    return names.find(link_name(entry.target), scope) if entry.wiki else None


def retarget_entry_line(line: str, target: str) -> str | None:
    """line with its entry pointing at target instead, everything else as written (the title,
    the hook, the list marker, the link, backtick or `[[name]]` form); None when the line is
    no entry."""
    found = _find_entry(line)
    if found is None:
        return None
    if found.form == "link":
        written = _format_target(target)
    elif found.form == "wiki" and not line[found.start : found.stop].lower().endswith(".md"):
        written = target[: -len(".md")] if target.lower().endswith(".md") else target
    else:
        written = target
    return line[: found.start] + written + line[found.stop :]


def parse_entry_line(line: str, line_no: int) -> IndexEntry | None:
    """The entry on one line (its first .md link, else its first backticked .md name), or None."""
    plain = plain_link(line)
    if plain is not None:  # format_index_entry's own line: the search's answer, found directly
        title, target, end = plain
        return IndexEntry(line_no, title, target, hook_after(line, end), line)
    return _searched_entry(line, line_no)


def _searched_entry(line: str, line_no: int) -> IndexEntry | None:
    """parse_entry_line's answer found by the search (_find_entry), for any line."""
    found = _find_entry(line)
    if found is None:
        return None
    target = norm_target(found.target)
    return IndexEntry(
        line_no=line_no,
        title=found.title if found.title is not None else Path(target).stem,
        target=target,
        hook=hook_after(line, found.end),
        raw=line,
        linked=found.form == "link",
        wiki=found.form == "wiki",
    )


def entry_target(line: str) -> str | None:
    """parse_entry_line(line, n).target, or None when line is not an entry (no title, hook
    or IndexEntry built: for code that only looks lines up by target)."""
    plain = plain_link(line)
    if plain is not None:
        return plain[1]
    found = _find_entry(line)
    return None if found is None else norm_target(found.target)


# A plain link target, as format_index_entry writes it as it is: letters, digits and `_.-/`
# (no bracket, parenthesis, blank, backslash, colon, '#', backtick or control), led by neither
# '.', '-' nor '/' (norm_target keeps it as it is).
_PLAIN_LEAD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
_PLAIN = _PLAIN_LEAD + ".-/"


def plain_entry_target(line: str) -> str | None:
    """entry_target(line) for a line that starts `- [title](target)` with a plain target and a
    title holding no bracket or backslash (format_index_entry's line for a listed memory),
    found without the search: MD_LINK's first match starts at that `[` and ends at that
    `)`. For a plain target, link_path is the target itself, no URL scheme matches (no colon)
    and control_problem finds nothing (printable ASCII), so is_md_target is the name gate's
    answer for its last part. None for any other line: no answer; ask entry_target."""
    plain = plain_link(line)
    return None if plain is None else plain[1]


def plain_link(line: str) -> tuple[str, str, int] | None:
    """(title, target, where the link ends) of a line plain_entry_target answers: _find_entry's
    first link, title as written (no bracket or backslash to unescape) and target as norm_target
    leaves it, so parse_entry_line builds the search's entry without the search (a third of a
    first plan's index fit, where nearly every line is such a line; plan40). None: search."""
    close = line.find("](", 3) if line.startswith("- [") else -1
    end = line.find(")", close + 2) if close >= 0 else -1
    if end < 0:
        return None
    target, title = line[close + 2 : end], line[3:close]
    if not _plain_memory_target(target) or "[" in title or "]" in title or "\\" in title:
        return None
    return title, target, end + 1


def _plain_memory_target(target: str) -> bool:
    """Whether target is a plain one (_PLAIN) that names a memory file: plain_link's target."""
    if not target or target[0] not in _PLAIN_LEAD or target.strip(_PLAIN):
        return False
    return is_memory_filename(target.rsplit("/", 1)[-1])


def keyed_by_target(title: str, target: str) -> bool:
    """Whether the line format_index_entry(title, target, hook) writes, whatever the hook, is
    one plain_entry_target reads target itself from: a plain target naming a memory file (written
    bare, and norm_target leaves it as it is) and a title with no backslash (_clean_title puts
    brackets and line breaks out of it and adds no backslash to it). The planner knows so which
    pointer a fit drops a line under without writing the line (plan42)."""
    return "\\" not in title and _plain_memory_target(target)


# What leads a line's content: blanks, a quote mark, a table pipe, heading marks, a list marker,
# emphasis, then perhaps a list number and the emphasis after it. `### 1. **NAME.md** \u2014 hook`
# names its file as `- **NAME.md** \u2014 hook` does (real37: an explorer agent's index numbered
# its reference files so, and each was not-in-index).
_LINE_LEAD = re.compile(r"^[\s>|#*+\-\u2022]*(?:\d+[.)]\s*\**)?")


_HOOK_START = re.compile(r"^\s*(?:$|[\u2014\u2013|:)(\]-]|\*\*)")


def _leads_the_line(before: str, after: str) -> bool:
    """Whether a backticked name is the line's pointer: it starts the content (after a list
    marker, a table pipe or a heading mark, and at most one leading word such as "See"), and a
    hook separator or the line's end follows ("Read `design.md` and follow it" is prose)."""
    rest = _LINE_LEAD.sub("", before).strip()
    lead_ok = len(rest.split()) <= 1 and not rest.endswith((",", ";"))
    return lead_ok and _HOOK_START.match(after) is not None


def hook_after(line: str, end: int) -> str:
    """The text after an entry's link: separators before it and a table's closing pipe dropped."""
    return _HOOK_LEAD.sub("", line[end:]).strip().rstrip("|").strip()


def _may_be_unloaded(text: str) -> bool:
    """Whether entry_line_flags could set any line of text False, or as_lf change it: True for
    more than one line, and for a line holding a CR, a byte-order mark, a comment's `<!--` or a
    fence's backtick or tilde. A single line holding none is loaded and prose whatever it says
    (frontmatter needs two lines), which spares a fit or a planner parsing one line at a time
    the whole-text pass (a third of a first plan's index fit; thirty-ninth session, lead)."""
    return (  # `in` six times, not any() over a generator: a fit asks it of every line
        "\n" in text
        or "\r" in text
        or "\ufeff" in text
        or "<!--" in text
        or "`" in text
        or "~" in text
    )


def parse_index(text: str) -> list[IndexEntry]:
    """The pointer entries in MEMORY.md text; headings, prose and blank lines are ignored."""
    if not _may_be_unloaded(text):  # one plain line: the loader keeps it, and it is prose
        entry = parse_entry_line(text, 1)
        return [] if entry is None else [entry]
    entries = []
    text = as_lf(text)
    # A line the loader never loads (frontmatter, a block-level HTML comment: often an example
    # entry left for the model) points at nothing, nor does code in a fenced block.
    prose = entry_line_flags(text)
    for no, line in enumerate(text.split("\n"), start=1):
        if not prose[no - 1]:
            continue
        entry = parse_entry_line(line, no)
        if entry is not None:
            entries.append(entry)
    return entries
