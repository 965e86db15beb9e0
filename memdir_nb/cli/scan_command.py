"""`memdir-nb scan`: the manifest the selector would see, in a process that imports little else.

Kept apart from dir_commands (lint, the store, the demo builder) so a scan, often run from a
shell prompt or a hook, pays only for the scan itself: see docs/performance.md.
"""

from __future__ import annotations

from memdir_nb.formats.manifest import format_memory_manifest
from memdir_nb.spec.constants import MAX_MEMORY_FILES
from memdir_nb.spec.shown_names import terminal_name
from memdir_nb.spec.text import plural, terminal_line
from memdir_nb.storage.agent_root_index import unloaded_agent_index
from memdir_nb.storage.home_folders import empty_dir_note
from memdir_nb.storage.listing import folder_of_memory_dirs
from memdir_nb.storage.scan import ScanReport, scan_memory_dir

TYPE_CHECKING = False  # typing and argparse stay unimported at run time; mypy reads the block
if TYPE_CHECKING:
    import argparse


def cmd_scan(args: argparse.Namespace) -> int:
    """`memdir-nb scan` as its parser read it (cli.parsers): scan_dir with its values."""
    return scan_dir(args.dir, args.limit, args.json)


def scan_dir(directory: str, limit: int, as_json: bool) -> int:
    """Print the manifest the selector would see, then what was skipped. cli.main calls this
    with a plain scan's values (cli.plain_scan), without argparse."""
    nested = folder_of_memory_dirs(directory)
    if nested is not None:  # its memory dirs' files listed as one dir would mislead
        return _print_folder_of_dirs(directory, as_json, nested.problem, nested.fix, nested.names)
    report = scan_memory_dir(directory, limit=limit)
    empty = None if report.total_found or report.skipped else empty_dir_note(directory)
    if as_json:
        payload = {
            "dir": str(directory),
            "total_found": report.total_found,
            "past_cap": report.past_cap,
            "memories": [
                {
                    "filename": h.filename,
                    "mtime_ms": h.mtime_ms,
                    "name": h.name,
                    "description": h.description,
                    "type": h.type.value if h.type else None,
                    "malformed": h.malformed,
                }
                for h in report.headers
            ],
            "skipped": [{"path": s.path, "reason": s.reason} for s in report.skipped],
        }
        if empty is not None:
            payload["note"] = empty
        _print_json(payload)
        return 0
    manifest = format_memory_manifest(report.headers)
    if manifest:  # a blank line sets the count apart from it (none before a first line)
        print(manifest, end="\n\n")
    print(f"{_count_line(report, limit)}.")
    if empty is not None:
        print(f"note: {empty}")
    malformed = [h.filename for h in report.headers if h.malformed]
    if malformed:
        print(_header_problem_line(malformed))
    for skipped in report.skipped:
        # a skipped name can hold a newline: shown raw, it would start a line of its own; and
        # `bad<0xff>.md` beside `bad\\udcff.md` must show as two names (terminal_name)
        print(f"skipped {terminal_name(skipped.path)}: {terminal_line(skipped.reason)}")
    unloaded = unloaded_agent_index(directory, [h.filename for h in report.headers])
    if unloaded is not None:  # listed as one dir's, though no agent sees them
        print(f"note: {unloaded.problem}; {unloaded.fix}")
    return 0


# At most this many files are named on the header-problem line; lint names every one.
HEADER_PROBLEM_NAMES_SHOWN = 10


def _header_problem_line(names: list[str]) -> str:
    """One line naming the files whose header has a problem: a YAML slip whose fields were
    recovered line by line, bytes that are not UTF-8, a read cut at its cap. It said "a
    malformed header (fields recovered line by line)" of each, though a file that is not
    UTF-8 or not text had a header that parsed or none at all, and named every file: 200 YAML
    slips were 200 names on one line (fresh37). Lint gives each file's problem and its fix."""
    shown = ", ".join(map(terminal_line, names[:HEADER_PROBLEM_NAMES_SHOWN]))
    more = len(names) - HEADER_PROBLEM_NAMES_SHOWN
    return (
        f"{len(names)} with a header problem (`memdir-nb lint` on this dir says what each one "
        f"is): {shown}" + (f", … and {more} more" if more > 0 else "")
    )


def _count_line(report: ScanReport, limit: int = MAX_MEMORY_FILES) -> str:
    """'N memories listed', with how many were found when that is more: past the cap, or
    skipped at their read (named below). A read skip was once called "past the cap" (fresh32).
    A --limit other than Claude Code's cap is named as such: `--limit 3` said "the rest are
    past the cap", as if Claude Code would not list them (fresh38).
    """
    shown = len(report.headers)
    line = f"{plural(shown, 'memory')} listed"
    cap = "the cap" if limit == MAX_MEMORY_FILES else f"--limit {limit}"
    if report.past_cap:
        line += f" (newest {shown} of {report.total_found}; "
        if not report.read_skips:
            return line + f"the rest are past {cap})"
        return line + f"{report.past_cap} past {cap}, {report.read_skips} not read: see below)"
    if report.read_skips:
        return line + f" ({shown} of {report.total_found}; {report.read_skips} not read: see below)"
    return line


def _print_folder_of_dirs(
    directory: str, as_json: bool, problem: str, fix: str, names: tuple[str, ...]
) -> int:
    """A folder of memory dirs (agent-memory/): say so, and list nothing as one dir's memories."""
    if as_json:
        payload = {
            "dir": str(directory),
            "total_found": 0,
            "memories": [],
            "skipped": [],
            "memory_dirs": list(names),
            "note": f"{problem}; {fix}",
        }
        _print_json(payload)
        return 0
    print(f"note: {problem}; {fix}")
    return 0


def _print_json(payload: dict[str, object]) -> None:
    """payload as the one JSON writer prints it (formats.jsonio.dumps_output)."""
    from memdir_nb.formats.jsonio import dumps_output  # only --json loads json and its home

    print(dumps_output(payload, indent=2))
