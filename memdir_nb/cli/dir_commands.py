"""The commands that read or rewrite one memory dir: index, lint, demo, rebuild-index (scan: scan_command)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Literal

from memdir_nb.formats.index import (
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
    REBUILD_HEADING,
    counted_text,
    entrypoint_size,
    truncate_entrypoint_content,
)
from memdir_nb.formats.jsonio import dumps_output
from memdir_nb.lint import count_by_severity, lint_memory_dir
from memdir_nb.reports.fleet import export_archive
from memdir_nb.spec.constants import ENTRYPOINT_NAME, TEAM_DIRNAME
from memdir_nb.spec.shell_words import shell_word
from memdir_nb.spec.text import plural, terminal_line, terminal_safe
from memdir_nb.storage.agent_root_index import unloaded_agent_index
from memdir_nb.storage.archive import import_archive
from memdir_nb.storage.home_folders import empty_dir_note
from memdir_nb.storage.import_report import format_import_report
from memdir_nb.storage.index_files import load_entrypoint, read_entrypoint_checked
from memdir_nb.storage.index_rebuild import (
    IndexOverCapsError,
    IndexRebuild,
    agent_index_dirs,
    plan_agent_index_rebuild,
    plan_index_rebuild,
    refuse_folder_of_memory_dirs,
)
from memdir_nb.storage.listing import folder_of_memory_dirs
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.write_errors import NOT_UTF8_INDEX_FIX
from memdir_nb.ui.demo import DemoDirExistsError, build_demo


def _index_report(scope_dir: Path, label: str) -> dict[str, Any]:
    loaded = load_entrypoint(scope_dir)
    result = truncate_entrypoint_content(loaded.text)
    return {
        "scope": label,
        "path": loaded.path,
        "exists": loaded.exists,
        "valid_utf8": loaded.valid_utf8,
        "problem": loaded.note(),
        "lines": result.line_count,
        "line_limit": MAX_ENTRYPOINT_LINES,
        "bytes": result.byte_count,
        # Claude Code's bytes are UTF-16 code units; what the same text takes in UTF-8
        "utf8_bytes": len(counted_text(loaded.text).encode()),
        "byte_limit": MAX_ENTRYPOINT_BYTES,
        "line_capped": result.was_line_truncated,
        "byte_capped": result.was_byte_truncated,
        "kept_lines": result.kept_line_count,
        "warning": result.warning,
        "content": result.content,
    }


def _index_scopes(memory_dir: Path, scope: str) -> list[tuple[str, Path]]:
    """The indexes to report on: private, and team when its folder exists; narrowed to scope."""
    scopes = [("private", memory_dir)]
    if (memory_dir / TEAM_DIRNAME).is_dir():
        scopes.append(("team", memory_dir / TEAM_DIRNAME))
    return scopes if scope == "all" else [s for s in scopes if s[0] == scope]


def cmd_index(args: argparse.Namespace) -> int:
    """Report how each MEMORY.md fits its two caps, and what truncation would drop."""
    scopes = _index_scopes(args.dir, args.scope)
    if not scopes:
        print(f"error: no {args.scope} index under {terminal_line(args.dir)}", file=sys.stderr)
        return 2
    reports = [_index_report(scope_dir, label) for label, scope_dir in scopes]
    nested = folder_of_memory_dirs(args.dir) or unloaded_agent_index(args.dir)
    for rep in reports:  # the folder's own index is not missing, or it is never loaded
        rep["note"] = (
            f"{nested.problem}; {nested.fix}" if nested and rep["scope"] == "private" else None
        )
    if args.json:
        print(dumps_output(reports, indent=2))
        return 0
    for rep in reports:
        print(f"{rep['scope']}: {terminal_line(rep['path'])}")
        if rep["note"]:
            print(f"  note: {terminal_line(rep['note'])}")
            continue
        if _print_unloaded(rep, args.dir):
            continue
        _print_fit(rep)
        if args.show:
            print("  --- as loaded into the prompt ---")
            print(rep["content"])
    return 0


def _print_unloaded(rep: dict[str, Any], memory_dir: Path) -> bool:
    """Say why nothing of an index is loaded (missing or unreadable); False when it loads.

    An index over the read cap loads: its start was read, and the caps cut well inside it."""
    if not rep["exists"]:
        if rep["problem"]:
            print(f"  {terminal_line(rep['problem'])} (nothing is loaded into the prompt from it)")
        else:
            print("  no MEMORY.md yet (nothing is loaded into the prompt)")
        return True
    if rep["problem"]:  # the note already names the file: "MEMORY.md is N bytes; only ..."
        print(f"  {terminal_line(rep['problem'])}: the counts below are of that part")
        print(
            f"  fix: shorten it by hand, or remove it and run `memdir-nb rebuild-index {memory_dir}`"
        )
    return False


def _print_fit(rep: dict[str, Any]) -> None:
    """How a loaded index fits its line and byte caps, and what truncation drops."""
    if not rep["valid_utf8"]:
        print(
            "  not valid UTF-8: the bad bytes reach the prompt as replacement characters "
            f"(fix: {NOT_UTF8_INDEX_FIX})"
        )
    print(
        f"  lines {rep['lines']} / {rep['line_limit']}"
        f"{'  (over: cut to the first ' + str(rep['line_limit']) + ')' if rep['line_capped'] else ''}"
    )
    print(
        f"  bytes {rep['bytes']:,} / {rep['byte_limit']:,}"
        f"{'  (over: cut at the last newline before the cap)' if rep['byte_capped'] else ''}"
    )
    if rep["utf8_bytes"] != rep["bytes"]:
        print(
            f"  (counted as Claude Code counts them: UTF-16 code units; "
            f"{rep['utf8_bytes']:,} bytes in UTF-8)"
        )
    if rep["warning"]:
        dropped = rep["lines"] - rep["kept_lines"]
        print(f"  truncated: {plural(rep['kept_lines'], 'line')} kept, {dropped} dropped")
        print(f"  warning appended: {rep['warning'].strip()}")
    else:
        print("  fits both caps: loaded whole")


def cmd_demo(args: argparse.Namespace) -> int:
    """Build the bundled demo memory dir."""

    try:
        built = build_demo(args.dir, now_ms=args.now_ms, overwrite=args.overwrite)
    except DemoDirExistsError as exc:
        print(
            f"error: {terminal_line(exc.target)} already holds a demo memory dir; add --overwrite to rebuild "
            "it, or choose a new directory",
            file=sys.stderr,
        )
        return 2
    except ValueError as exc:
        print(f"error: {terminal_line(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        blame = f" ({exc.filename})" if exc.filename else ""
        print(
            terminal_line(f"error: cannot create the demo dir at {args.dir}: {exc.strerror or exc}")
            + f"{terminal_line(blame)}; "
            "choose a folder you can write to",
            file=sys.stderr,
        )
        return 2
    if built.kept is not None:
        named = ", ".join(built.edited[:5]) + (", ..." if len(built.edited) > 5 else "")
        print(
            terminal_line(
                f"kept the earlier demo at {built.kept}: you added or changed "
                f"{plural(len(built.edited), 'file')} in it ({named}); copy what you need from "
                "there, then delete it"
            )
        )
    report = scan_memory_dir(built.path)
    print(
        f"demo memory dir ready at {terminal_line(built.path)} "
        f"({plural(len(report.headers), 'memory')})"
    )
    return 0


def cmd_lint(args: argparse.Namespace) -> int:
    """Print one line per finding (file, rule, fix hint); exit 1 when any is an error."""

    findings = lint_memory_dir(args.dir)
    empty = None if findings else empty_dir_note(str(args.dir))
    if args.errors_only:
        findings = [f for f in findings if f.severity == "error"]
    counts = count_by_severity(findings)
    if args.json:
        print(
            dumps_output(
                [
                    {
                        "path": f.path,
                        "line": f.line,
                        "rule": f.rule,
                        "severity": f.severity,
                        "message": f.message,
                        "hint": f.hint,
                    }
                    for f in findings
                ],
                indent=2,
            )
        )
    else:
        for f in findings:
            print(f.format())
        print(
            f"{plural(counts['error'], 'error')}, {plural(counts['warning'], 'warning')} "
            f"in {terminal_line(args.dir)}"
        )
        if empty is not None:  # "0 errors, 0 warnings" alone reads as a healthy memory dir
            print(f"note: {empty}")
    return 1 if counts["error"] else 0


def _rebuild_summary(r: IndexRebuild, label: str, *, written: bool = False) -> str:
    """One line on what a rebuild does (or did, when written) to one index, and a warning line
    when the result is over the index caps."""
    if not r.changed and not r.old.strip():
        return f"{label}: holds no line and no memory needs one; nothing to change"
    if not r.changed:
        kept = "".join(f"; {p}" for p in _dangling_parts(r))
        return f"{label}: up to date (every memory has a line){kept}; nothing to change"
    parts = []
    if r.carried:
        verb = "took" if written else "takes"
        lines = plural(len(r.carried), "line")
        parts.append(f"{verb} {lines} from the root's index, re-pointed (title and hook kept)")
    if r.merged.added:
        where = f" under '{REBUILD_HEADING}'" if r.old.strip() or r.carried else ""
        verb = "added" if written else "adds"
        parts.append(f"{verb} {plural(len(r.merged.added), 'entry', 'entries')}{where}")
    if r.merged.repointed:
        verb = "re-pointed" if written else "re-points"
        moved = plural(len(r.merged.repointed), "line")
        parts.append(f"{verb} {moved} whose file moved (title and hook kept)")
    if r.merged.dropped:
        verb = "removed" if written else "removes"
        parts.append(f"{verb} {plural(len(r.merged.dropped), 'dangling line')}")
    parts += _dangling_parts(r)
    summary = (
        f"{label}: " + ("; ".join(parts) or "rewritten") + "; every other line is kept as written"
    )
    return summary + _over_caps_warning(r, label, written)


def _dangling_parts(r: IndexRebuild) -> list[str]:
    """What the rebuild leaves of the dangling lines: those --drop-dangling would remove, and
    those only a person can judge (a name without a link, an entry heading)."""
    m = r.merged
    removable = len(m.dangling) - len(m.dropped) - len(m.kept)
    out = []
    if removable:
        out.append(f"keeps {plural(removable, 'dangling line')} (--drop-dangling removes them)")
    if m.kept:
        out.append(
            f"keeps {plural(len(m.kept), 'dangling line')} it cannot tell from prose or from a "
            "block under a heading (a name without a link, an entry heading): remove "
            f"{'it' if len(m.kept) == 1 else 'them'} by hand if stale"
        )
    return out


def _over_caps_refusal(r: IndexRebuild, label: str) -> str:
    """Why rebuild-index wrote nothing: the rebuilt index would load less of itself than now."""
    after = truncate_entrypoint_content(r.text)
    return (
        f"error: rebuilding {label} would take it from "
        f"{plural(entrypoint_size(r.old)[0], 'line')} to {plural(after.line_count, 'line')} / "
        f"{after.byte_count:,} bytes, past the {MAX_ENTRYPOINT_LINES}-line / "
        f"{MAX_ENTRYPOINT_BYTES:,}-byte caps: {after.unloaded_line_count} of its lines would "
        "never reach a conversation. Nothing was written. See the change with --dry-run; "
        "shorten hooks or merge memories first (memdir_nb.dream.plan_consolidation proposes "
        "both), or pass --over-caps to write it anyway"
    )


def _over_caps_warning(r: IndexRebuild, label: str, written: bool) -> str:
    """A second line when the rebuilt index leaves more of itself unloaded than the old one did
    (past the line or byte cap): how much of it would load, and what to do."""
    after = truncate_entrypoint_content(r.text)
    unloaded = after.unloaded_line_count
    if not r.lines_it_would_unload:
        return ""
    return (
        f"\nwarning: {label} {'is now' if written else 'would be'} {plural(after.line_count, 'line')} / "
        f"{after.byte_count:,} bytes, over the {MAX_ENTRYPOINT_LINES}-line / "
        f"{MAX_ENTRYPOINT_BYTES:,}-byte caps: only its first {plural(after.kept_line_count, 'line')} load, "
        f"so the last {unloaded} never reach a conversation; shorten hooks or merge memories "
        "(memdir_nb.dream.plan_consolidation proposes both)"
        + (", or put the old index back (below)" if written else " before you rebuild")
    )


def _scope_dirs(memory_dir: Path) -> dict[str, Path]:
    dirs = {ENTRYPOINT_NAME: memory_dir}
    if (memory_dir / TEAM_DIRNAME).is_dir():
        dirs[f"{TEAM_DIRNAME}/{ENTRYPOINT_NAME}"] = memory_dir / TEAM_DIRNAME
    return dirs


def _print_unloaded_agent_index(memory_dir: Path) -> None:
    """A note when the index rebuilt is an agent memory root's own, which no agent loads."""
    unloaded = unloaded_agent_index(memory_dir)
    if unloaded is not None:
        print(f"note: {unloaded.problem}; {unloaded.fix}")


def _print_written(r: IndexRebuild) -> None:
    """What a rebuild wrote to one index: the unified diff --dry-run previews (lefts37: the
    summary alone hid the lines written), then the summary line."""
    label = terminal_line(r.label)
    if r.changed:
        print(terminal_safe(r.diff(label)), end="")
    if r.changed or not r.agent:  # an agent's index is named when the rebuild wrote it
        print(_rebuild_summary(r, label, written=True))


def cmd_rebuild_index(args: argparse.Namespace) -> int:
    """Add the missing entries to MEMORY.md (and team/MEMORY.md), keeping every line people wrote."""

    refuse_folder_of_memory_dirs(args.dir)  # ValueError: main prints it, nothing is written
    has_index = read_entrypoint_checked(args.dir).exists
    if not has_index and not scan_memory_dir(args.dir, limit=1).headers:
        print(
            f"error: {terminal_line(args.dir)} holds no MEMORY.md and no memory files, so it is "
            "not a memory dir; pass the folder that holds the memories (nothing was written)",
            file=sys.stderr,
        )
        return 2
    memory_dir = Path(args.dir)
    if args.dry_run:
        for label, folder in _scope_dirs(memory_dir).items():
            scope: Literal["private", "team"] = "private" if folder == memory_dir else "team"
            r = plan_index_rebuild(folder, scope=scope, drop_dangling=args.drop_dangling)
            print(terminal_safe(r.diff(label)), end="")
            print(_rebuild_summary(r, label))
        for agent, folder in agent_index_dirs(memory_dir).items():  # each agent's own index
            r = plan_agent_index_rebuild(folder, agent, drop_dangling=args.drop_dangling)
            if r.changed:
                label = terminal_line(r.label)
                print(terminal_safe(r.diff(label)), end="")
                print(_rebuild_summary(r, label))
        _print_unloaded_agent_index(memory_dir)
        print("(dry run: nothing was written)")
        return 0
    try:
        result = MemoryStore(args.dir).rebuild_index_files(
            drop_dangling=args.drop_dangling, keep_within_caps=not args.over_caps
        )
    except IndexOverCapsError as refused:  # nothing was written
        for r in refused.rebuilds:
            if r.lines_it_would_unload:
                print(_over_caps_refusal(r, terminal_line(r.label)), file=sys.stderr)
        return 1
    for r in result.rebuilds:
        _print_written(r)
    if result.batch:
        restore = f"memdir-nb restore {shell_word(memory_dir)} {Path(result.batch).name}"
        print(  # one line, whatever the dir's name holds (a quoted newline too)
            terminal_line(
                f"the old index is kept in {memory_dir / result.batch}; put it back with {restore}"
            )
        )
    _print_unloaded_agent_index(memory_dir)
    return 0


def cmd_export_archive(args: argparse.Namespace) -> int:
    """Pack one memory dir (team/ included, hidden store files out) into a zip."""
    if args.dir is None:
        print(
            "error: export --archive needs --dir DIR, the memory dir to pack",
            file=sys.stderr,
        )
        return 2
    report = export_archive(args.dir, args.archive)
    print(
        f"wrote {terminal_line(report.archive)}: {plural(len(report.files), 'file')}, "
        f"{report.bytes:,} bytes from {terminal_line(args.dir)}"
    )
    if report.kept is not None:
        print(f"kept the earlier archive as {terminal_line(report.kept)}")
    for rel, why in report.skipped:
        print(f"left out: {terminal_line(rel)}: {terminal_line(why)}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    """Unpack a memory archive; exit 1 when an entry was refused or a conflict left alone."""
    report = import_archive(args.archive, args.dir, overwrite=args.overwrite, dry_run=args.dry_run)
    print(format_import_report(report))
    return 0 if report.ok else 1
