"""Index rules: one MEMORY.md against the memory files of its scope, and files no index lists."""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterable, Mapping
from typing import NamedTuple

from memdir_nb.formats.index import entrypoint_size, strip_entrypoint_extras
from memdir_nb.formats.index_lines import IndexEntry, link_path
from memdir_nb.formats.moved_files import MovedFiles
from memdir_nb.formats.names import misread_name_problem, normal_form, spelled
from memdir_nb.lint.findings import SEVERITIES, Collector, Finding, ScopeIndex
from memdir_nb.lint.fix_commands import rebuild_command
from memdir_nb.lint.secret_context import check_index_secrets
from memdir_nb.spec.constants import (
    ENTRYPOINT_NAME,
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
    MAX_INDEX_LINE_CHARS,
    PROJECT_MEMORY_DIRNAME,
    TEAM_DIRNAME,
)
from memdir_nb.spec.text import as_lf, plural
from memdir_nb.storage.write_errors import NOT_UTF8_INDEX_FIX

MAX_LISTED_LINES = 8
_HTML_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
_HORIZONTAL_RULE = re.compile(r"\s*(?:-{3,}|\*{3,}|_{3,})\s*")
_TABLE_RULE_CHARS = re.compile(r"[\s:|-]*")


def _is_rule_line(line: str) -> bool:
    """A horizontal rule (---, ***, ___) or a table separator row (| --- | :-: |), in linear time."""
    if _HORIZONTAL_RULE.fullmatch(line):
        return True
    return "|" in line and len(line.strip()) >= 2 and _TABLE_RULE_CHARS.fullmatch(line) is not None


def pointless_lines(index: ScopeIndex) -> list[int]:
    """Line numbers of MEMORY.md lines that point at no file and are not headings or layout.

    Headings, blank lines, one-line HTML comments, horizontal rules, table header and
    separator rows are layout, not content.
    """
    entry_lines = {e.line_no for e in index.entries}
    # The lines as loaded: frontmatter, block comments and a leading byte order mark out (a
    # BOM before `# Title` on line 1 would otherwise hide the heading).
    loaded = strip_entrypoint_extras(index.text)
    lines = loaded.lines
    out: list[int] = []
    for i, (no, ln) in enumerate(zip(loaded.line_map, lines, strict=True)):
        if not ln.strip() or no in entry_lines or ln.lstrip().startswith("#"):
            continue
        if out and out[-1] == no:  # a file line the loader cut at a lone CR: named once
            continue
        if _HTML_COMMENT.match(ln) or _is_rule_line(ln):
            continue
        if ln.lstrip().startswith("|") and i + 1 < len(lines) and _is_rule_line(lines[i + 1]):
            continue  # a table's header row
        out.append(no)
    return out


# A link target quoted in a message is cut past this many characters (a 4 KB target is no name).
TARGET_QUOTE_CHARS = 200


def _check_missing(index: ScopeIndex, files: list[str], c: Collector, rebuild: str) -> None:
    """An index that is not there: refused (a link, a FIFO...) or missing beside memory files;
    rebuild is the command that writes one, naming the dir."""
    if index.problem:
        c.add(
            "index-refused",
            f"{index.problem}: not loaded into any prompt",
            "replace it with a regular file inside the memory dir: remove the link or FIFO, "
            f"then run `{rebuild}`",
        )
    elif files:
        c.add(
            "index-missing",
            f"no {index.path} although {plural(len(files), 'memory file')} "
            f"{'exists' if len(files) == 1 else 'exist'} in this scope",
            f"run `{rebuild}` to write one from the files' frontmatter",
        )


def _moved_files(files: Iterable[str], scope: str) -> MovedFiles:
    """The scope's files (given memory-dir relative) by name, relative to the index's folder."""
    prefix = f"{TEAM_DIRNAME}/" if scope == "team" else ""
    return MovedFiles(f.removeprefix(prefix) for f in files if f.startswith(prefix))


class _Elsewhere(NamedTuple):
    """Where a dangling line's file may be: among the files this index may list (`own`), or
    among those a MEMORY.md below it indexes (`below`: an agent's or a sub-folder's), which a
    line here would list a second time, where no session loads it (real37). The rebuild and
    the dream re-point a line only to the first kind, and drop it for the second."""

    own: MovedFiles
    below: MovedFiles


def _elsewhere(files: list[str], scope: str, indexed_below: Collection[str]) -> _Elsewhere:
    own = [f for f in files if f not in indexed_below]
    below = [f for f in files if f in indexed_below]
    return _Elsewhere(_moved_files(own, scope), _moved_files(below, scope))


def _dangling_entry(
    e: IndexEntry, c: Collector, reason: str | None, moved_files: _Elsewhere | None, rebuild: str
) -> None:
    """index-dangling-entry for a linked line no memory file answers to: what the scan passed
    over at that name (reason: a symlink loop, a FIFO) is named as what it is; else a file of
    that name elsewhere in the scope (moved_files), or none. rebuild is the command that writes
    the index anew, naming the dir (fix_commands.rebuild_command)."""
    target = c.quote(e.target, TARGET_QUOTE_CHARS)
    if reason is not None:
        message = f"entry points at {target}, which is there but not read: {reason}"
        fix = "fix what is at that name (its skipped-by-scan finding says how), or remove the line"
    elif (twin := moved_files.own.twin(e.target) if moved_files is not None else None) is not None:
        linked = link_path(e.target)
        message = (
            f"entry points at {spelled(linked)} ({normal_form(linked)}), which does not exist; "
            f"{spelled(twin)} ({normal_form(twin)}) is there, a name that differs only in "
            "Unicode normalisation: the two show alike, and the line opens that file on macOS "
            "but nothing here"
        )
        fix = (
            f"point the line at the file's own spelling (`{rebuild} --drop-dangling` writes the "
            "line anew), or rename the file to the line's"
        )
    else:
        moved = moved_files.own.find(e.target) if moved_files is not None else None
        below = moved_files.below.find(e.target) if moved_files is not None else None
        message = f"entry points at {target}, which does not exist"
        if moved:
            fix = f"a memory of that name is at {moved}: point the line there, or remove it"
        elif below:
            fix = (
                f"remove the line: a memory of that name is at {below}, which belongs in a "
                "MEMORY.md below this one (the rebuild and the dream drop such a line)"
            )
        else:
            fix = "remove the line, or restore the file if it was deleted by mistake"
    # A Python that misreads names (not UTF-8) finds no file at a good line: say so, not "remove"
    c.add("index-dangling-entry", message, misread_name_problem(e.target) or fix, e.line_no)


def _skip_key(index: ScopeIndex, target: str) -> str:
    """A target as the scan's skip reasons name it: relative to the memory dir."""
    return f"{TEAM_DIRNAME}/{target}" if index.scope == "team" else target


def _check_entries(
    index: ScopeIndex,
    c: Collector,
    files: list[str],
    skipped: Mapping[str, str],
    rebuild: str,
    indexed_below: Collection[str],
) -> None:
    """Entry rules: a target listed twice, a target that does not exist, a link outside."""
    seen: dict[str, int] = {}
    moved_files: _Elsewhere | None = None  # made at the first dangling line
    # A backticked name no file answers to is prose naming a file elsewhere (a repository doc
    # mentioned in two session notes), not an entry: naming it twice lists nothing twice.
    guesses = {e.line_no for e in index.dangling if not e.linked}
    for e in index.entries:
        if e.line_no in guesses:
            continue
        if e.target in seen:
            c.add(
                "index-duplicate-entry",
                f"{c.quote(e.target, TARGET_QUOTE_CHARS)} is listed again (first on line {seen[e.target]})",
                "keep one entry per memory file",
                e.line_no,
            )
        else:
            seen[e.target] = e.line_no
    for e in index.dangling:
        if not e.linked:  # a name without a link: maybe a pointer, maybe prose naming another file
            c.add(
                "index-dangling-name",
                f"line names `{c.quote(e.target, TARGET_QUOTE_CHARS)}` {e.naming}, and no such file is in the memory dir",
                "if the line points at a memory, fix the name or remove the line; if it names a "
                "file elsewhere (a repository doc), nothing needs to change",
                e.line_no,
            )
            continue
        reason = skipped.get(_skip_key(index, e.target))
        if reason is None:
            moved_files = moved_files or _elsewhere(files, index.scope, indexed_below)
        _dangling_entry(e, c, reason, moved_files, rebuild)
    # A line the index's target check counts as a file, at a name the scan passed over: a
    # chain only a little past 40 links, which the check resolves loosely (the kernel follows
    # the rest) while the scan's stat meets ELOOP; or a file replaced since the listing.
    resolved = {e.line_no for e in index.dangling} | {e.line_no for e in index.outside}
    for e in index.entries:
        reason = skipped.get(_skip_key(index, e.target)) if e.linked else None
        if reason is not None and e.line_no not in resolved:
            _dangling_entry(e, c, reason, None, rebuild)
    for e in index.outside:
        key = index.other_projects.get(e.line_no)
        if key is not None:
            c.add(
                "index-outside-link",
                f"line links {c.quote(e.target, TARGET_QUOTE_CHARS)}, a file in another "
                f"project's memory dir (projects/{c.quote(key, TARGET_QUOTE_CHARS)}/"
                f"{PROJECT_MEMORY_DIRNAME}): recall of this project never loads it",
                "copy or move the file into this memory dir and point the line at it there, "
                "or drop the line",
                e.line_no,
            )
            continue
        if not e.linked:  # a name without a link, as the dangling-name rule words it
            c.add(
                "index-outside-link",
                f"line names `{c.quote(e.target, TARGET_QUOTE_CHARS)}` {e.naming}, a file "
                "outside the memory dir: recall never loads it",
                "keep pointers to memory files only; mention outside docs in CLAUDE.md instead",
                e.line_no,
            )
            continue
        c.add(
            "index-outside-link",
            f"line links {c.quote(e.target, TARGET_QUOTE_CHARS)}, outside the memory dir: recall never loads it",
            "keep pointers to memory files only; mention outside docs in CLAUDE.md instead",
            e.line_no,
        )


def lint_index(
    index: ScopeIndex,
    memory_files: Iterable[str],
    skipped: Mapping[str, str] | None = None,
    *,
    memory_dir: str | os.PathLike[str] | None = None,
    indexed_below: Collection[str] = frozenset(),
) -> list[Finding]:
    """Findings for one MEMORY.md given the memory files of its scope (memory-dir relative),
    and what the scan passed over (memory-dir relative path -> its reason). memory_dir is the
    dir a fix's command names (shell-quoted); without it the command says DIR. indexed_below:
    the files an agent's or a sub-folder's MEMORY.md indexes (memory-dir relative), never
    where a dangling line of this one should point."""
    c = Collector(index.path)
    files = sorted(memory_files)
    rebuild = rebuild_command(memory_dir)
    if not index.exists:
        _check_missing(index, files, c, rebuild)
        return c.items
    secrets = Collector(index.path)
    c.secret_values = check_index_secrets(index, secrets)  # first: every quote masks them
    if not index.valid_utf8:
        c.add(
            "index-invalid-utf8",
            f"{index.path} is not valid UTF-8; the invalid bytes reach the prompt as replacement characters",
            NOT_UTF8_INDEX_FIX,
        )
    # counted as Claude Code 2.1.211+ counts: frontmatter and block-level comments stripped
    n_lines, n_bytes = entrypoint_size(index.text)
    if n_lines > MAX_ENTRYPOINT_LINES or n_bytes > MAX_ENTRYPOINT_BYTES:
        c.add(
            "index-over-cap",
            f"{plural(n_lines, 'line')} / {n_bytes:,} bytes (caps {MAX_ENTRYPOINT_LINES} lines, "
            f"{MAX_ENTRYPOINT_BYTES:,} bytes): everything past the cap is never loaded",
            "keep one short pointer line per memory; move notes into topic files",
        )
    non_pointer = pointless_lines(index)
    if non_pointer:
        shown = ", ".join(str(n) for n in non_pointer[:MAX_LISTED_LINES])
        more = ", \u2026" if len(non_pointer) > MAX_LISTED_LINES else ""
        verb, where = ("points", "line") if len(non_pointer) == 1 else ("point", "lines")
        c.add(
            "index-not-pointer",
            f"{plural(len(non_pointer), 'line')} {verb} at no memory file ({where} {shown}{more}); "
            "content in the index costs its line and byte budget",
            "keep only '- [Title](file.md) — hook' lines; move the rest into a memory file",
            non_pointer[0],
        )
    for no, ln in enumerate(as_lf(index.text).split("\n"), 1):
        if len(ln) > MAX_INDEX_LINE_CHARS:
            c.add(
                "index-line-too-long",
                f"line is {len(ln)} characters (keep entries under ~{MAX_INDEX_LINE_CHARS})",
                "shorten the hook to one line; detail belongs in the topic file",
                no,
            )
    _check_entries(index, c, files, skipped or {}, rebuild, indexed_below)
    return c.items + secrets.items


def indexed_files(indexes: Iterable[ScopeIndex]) -> frozenset[str]:
    """Memory files some index points at (a private index may list team/ files too)."""
    return frozenset().union(*(ix.referenced for ix in indexes))


def not_text_files(findings: Iterable[Finding]) -> frozenset[str]:
    """The files lint found binary (their `not-text` findings): index_should_list's not_text."""
    return frozenset(f.path for f in findings if f.rule == "not-text")


def index_should_list(
    indexes: Iterable[ScopeIndex],
    files_by_scope: Mapping[str, Iterable[str]],
    agents: Mapping[str, str],
    not_text: Collection[str] = frozenset(),
) -> frozenset[str]:
    """The memory files an index a session loads should list: every file of a scope whose
    MEMORY.md is there, and every file agents (storage.agent_root_index.agent_index_owners)
    sends to an agent's own index (there by that rule). A file of a scope with no index at
    all is not one: the scope's one problem is its missing index (`index-missing`), not one
    per file. Nor is a file in not_text, binary (spec.text.is_not_text, lint's `not-text`):
    no reader can read it as a memory, so no index should point at it (index37; the
    rebuild and the dream add no line for one either).

    The one rule of not-in-index: lint's findings, and the tables' counts of the files an
    index leaves out (reports.fleet's not_in_index, reports.analysis's orphans; lefts36)."""
    indexed = {ix.scope for ix in indexes if ix.exists}
    return frozenset(
        rel
        for scope, rels in files_by_scope.items()
        for rel in rels
        if (scope in indexed or rel in agents) and rel not in not_text
    )


def not_in_index(
    indexes: list[ScopeIndex],
    files_by_scope: dict[str, list[str]],
    nested: frozenset[str] = frozenset(),
    agents: Mapping[str, str] | None = None,
    not_text: Collection[str] = frozenset(),
    unindexed: Mapping[str, str] | None = None,
) -> list[Finding]:
    """Files no index lists that one should (index_should_list); nested: files a sub-folder's
    own MEMORY.md lists (agent dirs); agents: file -> the agent folder whose own MEMORY.md it
    belongs in (an agent memory root's, storage.agent_root_index.agent_index_owners): only
    that index lists it for the agent; not_text: the binary files (their own `not-text`);
    unindexed: agent folder -> the step giving it the index it has none of yet
    (storage.agent_root_index.give_index_step), the fix for its files."""
    out = []
    referenced = indexed_files(indexes) | nested
    agents = agents or {}
    expected = index_should_list(indexes, files_by_scope, agents, not_text)
    for index in indexes:
        for rel in sorted(files_by_scope.get(index.scope, [])):
            agent = agents.get(rel)
            if rel not in expected:
                continue
            if agent is not None:
                if rel not in nested:
                    out.append(_not_in_agent_index(rel, agent, (unindexed or {}).get(agent)))
            elif rel not in referenced:
                out.append(
                    Finding(
                        rel,
                        "not-in-index",
                        SEVERITIES["not-in-index"],
                        f"not listed in {index.path}, so it is never loaded with the index",
                        f"add a '- [Title]({rel.split('/', 1)[1] if index.scope == 'team' else rel})"
                        " — hook' line, or rebuild the index",
                    )
                )
    return out


def _not_in_agent_index(rel: str, agent: str, give_index: str | None = None) -> Finding:
    """not-in-index for a file of an agent's folder its own MEMORY.md does not list;
    give_index: the step creating that index, when the folder has none yet."""
    if give_index is not None:
        return Finding(
            rel,
            "not-in-index",
            SEVERITIES["not-in-index"],
            f"{agent}/ has no {ENTRYPOINT_NAME}, the index Claude Code loads for that agent, so "
            f"the agent never loads it with an index (a line in the {ENTRYPOINT_NAME} above, "
            "which no agent loads, does not count)",
            give_index,
        )
    return Finding(
        rel,
        "not-in-index",
        SEVERITIES["not-in-index"],
        f"not listed in {agent}/{ENTRYPOINT_NAME}, the index Claude Code loads for that agent, "
        "so the agent never loads it with the index",
        f"add a '- [Title]({rel.split('/', 1)[1]}) — hook' line to {agent}/{ENTRYPOINT_NAME}, "
        "or rebuild the index",
    )
