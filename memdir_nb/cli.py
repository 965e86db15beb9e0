"""The `memdir-nb` command: look at a memory dir from the shell."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from memdir_nb.cli_args import (
    any_dir,
    existing_dir,
    existing_file,
    finite_float,
    new_path,
    plural_of,
    positive_int,
)
from memdir_nb.config import SELECTOR_NAMES, MemdirConfig
from memdir_nb.constants import TEAM_DIRNAME
from memdir_nb.demo import build_demo_memory_dir
from memdir_nb.index import (
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
    truncate_entrypoint_content,
)
from memdir_nb.lint import count_by_severity, lint_memory_dir
from memdir_nb.recall import render_recall
from memdir_nb.scan import format_memory_manifest, scan_memory_dir
from memdir_nb.types import SCOPES


def cmd_scan(args: argparse.Namespace) -> int:
    """Print the manifest the selector would see, then what was skipped."""

    report = scan_memory_dir(args.dir, limit=args.limit)
    if args.json:
        payload = {
            "dir": str(args.dir),
            "total_found": report.total_found,
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
        print(json.dumps(payload, indent=2))
        return 0
    manifest = format_memory_manifest(report.headers)
    if manifest:
        print(manifest)
    shown = len(report.headers)
    print(f"\n{plural_of(shown, 'memory')} listed", end="")
    if report.total_found > shown:
        print(f" (newest {shown} of {report.total_found}; the rest are past the cap)", end="")
    print(".")
    malformed = [h.filename for h in report.headers if h.malformed]
    if malformed:
        print(
            f"{len(malformed)} with a malformed header (fields recovered line by line): "
            + ", ".join(malformed)
        )
    for skipped in report.skipped:
        print(f"skipped {skipped.path}: {skipped.reason}")
    return 0


def _index_report(scope_dir: Path, label: str) -> dict:
    from memdir_nb.index import (
        load_entrypoint,
    )

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
        "byte_limit": MAX_ENTRYPOINT_BYTES,
        "line_capped": result.was_line_truncated,
        "byte_capped": result.was_byte_truncated,
        "kept_lines": result.kept_line_count,
        "warning": result.warning,
        "content": result.content,
    }


def cmd_index(args: argparse.Namespace) -> int:
    """Report how each MEMORY.md fits its two caps, and what truncation would drop."""
    scopes = [("private", args.dir)]
    if (args.dir / TEAM_DIRNAME).is_dir():
        scopes.append(("team", args.dir / TEAM_DIRNAME))
    if args.scope != "all":
        scopes = [s for s in scopes if s[0] == args.scope]
        if not scopes:
            print(f"error: no {args.scope} index under {args.dir}", file=sys.stderr)
            return 2
    reports = [_index_report(scope_dir, label) for label, scope_dir in scopes]
    if args.json:
        print(json.dumps(reports, indent=2))
        return 0
    for rep in reports:
        print(f"{rep['scope']}: {rep['path']}")
        if rep["problem"]:
            print(f"  {rep['problem']} (nothing is loaded into the prompt from it)")
        if not rep["exists"]:
            if not rep["problem"]:
                print("  no MEMORY.md yet (nothing is loaded into the prompt)")
            continue
        if rep["problem"]:
            print(f"  MEMORY.md {rep['problem']}: nothing is loaded into the prompt")
            print(f"  fix: remove it and run `memdir-nb rebuild-index {args.dir}`")
            continue
        if not rep["valid_utf8"]:
            print(
                "  not valid UTF-8: the bad bytes reach the prompt as replacement characters "
                f"(fix: re-save it as UTF-8, or run `memdir-nb rebuild-index {args.dir}`)"
            )
        print(
            f"  lines {rep['lines']} / {rep['line_limit']}"
            f"{'  (over: cut to the first ' + str(rep['line_limit']) + ')' if rep['line_capped'] else ''}"
        )
        print(
            f"  bytes {rep['bytes']:,} / {rep['byte_limit']:,}"
            f"{'  (over: cut at the last newline before the cap)' if rep['byte_capped'] else ''}"
        )
        if rep["warning"]:
            dropped = rep["lines"] - rep["kept_lines"]
            print(f"  truncated: {rep['kept_lines']} lines kept, {dropped} dropped")
            print(f"  warning appended: {rep['warning'].strip()}")
        else:
            print("  fits both caps: loaded whole")
        if args.show:
            print("  --- as loaded into the prompt ---")
            print(rep["content"])
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Build the bundled demo memory dir."""
    from memdir_nb.demo import DemoDirExistsError
    from memdir_nb.scan import scan_memory_dir

    try:
        path = build_demo_memory_dir(args.dir, now_ms=args.now_ms, overwrite=args.overwrite)
    except DemoDirExistsError as exc:
        print(
            f"error: {exc.target} already holds a demo memory dir; add --overwrite to rebuild "
            "it, or choose a new directory",
            file=sys.stderr,
        )
        return 2
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        blame = f" ({exc.filename})" if exc.filename else ""
        print(
            f"error: cannot create the demo dir at {args.dir}: {exc.strerror or exc}{blame}; "
            "choose a folder you can write to",
            file=sys.stderr,
        )
        return 2
    report = scan_memory_dir(path)
    print(f"demo memory dir ready at {path} ({plural_of(len(report.headers), 'memory')})")
    return 0


def cmd_recall(args: argparse.Namespace) -> int:
    """Print the memories selected for a query, exactly as they would be injected."""
    from memdir_nb.recall.explain_selection import format_explanation, selection_explanation
    from memdir_nb.recall.selectors import default_selector, make_selector

    if not args.query.strip():
        print(
            "error: the query is empty; give the text to find memories for, "
            'e.g. memdir-nb recall "how do we deploy?" --dir DIR',
            file=sys.stderr,
        )
        return 2
    try:
        selector = make_selector(args.selector) if args.selector else default_selector()
        out = render_recall(args.query, args.dir, tools=tuple(args.tool or ()), selector=selector)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(out)
    if args.explain:
        name = str(getattr(selector, "name", type(selector).__name__))
        print(format_explanation(selection_explanation(selector), selector_name=name))
    return 0


def cmd_lint(args: argparse.Namespace) -> int:
    """Print one line per finding (file, rule, fix hint); exit 1 when any is an error."""

    findings = lint_memory_dir(args.dir)
    if args.errors_only:
        findings = [f for f in findings if f.severity == "error"]
    counts = count_by_severity(findings)
    if args.json:
        print(
            json.dumps(
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
            f"{plural_of(counts['error'], 'error')}, {plural_of(counts['warning'], 'warning')} "
            f"in {args.dir}"
        )
    return 1 if counts["error"] else 0


def _config_for(args: argparse.Namespace) -> MemdirConfig:
    """The config `where` and `doctor` see: the real environment, settings env blocks applied."""
    from memdir_nb.config import MemdirConfig

    return MemdirConfig.from_environment(
        cwd=args.cwd, home=args.home, flag_settings_path=args.settings
    )


def _claude_homes(raw: list[Path] | None) -> list[Path]:
    """Each --home as a Claude home: a folder holding projects/ or agent-memory/ is one,
    otherwise its .claude folder is; with no --home, the environment's Claude home."""
    from memdir_nb.config import MemdirConfig

    if not raw:
        return [MemdirConfig.from_environment().claude_home]
    homes = []
    for path in raw:
        is_claude_home = (path / "projects").is_dir() or (path / "agent-memory").is_dir()
        homes.append(
            path if is_claude_home or not (path / ".claude").is_dir() else path / ".claude"
        )
    return homes


def cmd_where(args: argparse.Namespace) -> int:
    """Print the memory dir for a project and every step that chose it."""
    from memdir_nb.where import format_where, where

    report = where(_config_for(args))
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(format_where(report))
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    """Print why memory would not load fully; exit 1 when a finding needs action."""
    from memdir_nb.doctor import diagnose, format_doctor

    report = diagnose(_config_for(args))
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(format_doctor(report))
    return report.exit_code


def cmd_list(args: argparse.Namespace) -> int:
    """Print every memory dir under the Claude home(s) with counts, ages and index use."""
    from memdir_nb.where import format_list, list_memory_dirs

    infos = [info for home in _claude_homes(args.home) for info in list_memory_dirs(home)]
    if args.json:
        print(json.dumps([i.to_dict() for i in infos], indent=2))
    else:
        print(format_list(infos))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Write memories.parquet and dirs.parquet for every memory dir under the Claude home(s)."""
    try:
        import pyarrow  # noqa: F401

        from memdir_nb.fleet import export_parquet
    except ImportError:
        print(
            "error: export needs pyarrow; install the notebook extra: "
            "pip install 'memdir-nb[notebook]'",
            file=sys.stderr,
        )
        return 2
    result = export_parquet(_claude_homes(args.home), args.parquet)
    print(
        f"wrote {result.memories_path} ({plural_of(result.memories, 'memory')}) and "
        f"{result.dirs_path} ({plural_of(result.dirs, 'memory dir')})"
    )
    return 0


def cmd_rebuild_index(args: argparse.Namespace) -> int:
    """Rewrite MEMORY.md (and team/MEMORY.md) from the topic files' frontmatter."""
    from memdir_nb.index import read_entrypoint_checked, rebuild_index
    from memdir_nb.scan import scan_memory_dir
    from memdir_nb.store import MemoryStore

    has_index = read_entrypoint_checked(args.dir).exists
    if not has_index and not scan_memory_dir(args.dir, limit=1).headers:
        print(
            f"error: {args.dir} holds no MEMORY.md and no memory files, so it is not a memory "
            "dir; pass the folder that holds the memories (nothing was written)",
            file=sys.stderr,
        )
        return 2
    if args.dry_run:
        print(rebuild_index(args.dir, write=False, scope="private"), end="")
        return 0
    written = MemoryStore(args.dir).rebuild_indexes()
    for scope, path in written.items():
        print(f"rebuilt the {scope} index: {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, exposed for tests."""
    parser = argparse.ArgumentParser(
        prog="memdir-nb",
        description="Inspect a Claude Code memory directory (memdir).",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("scan", help="list the memories a selector would see")
    p.add_argument("dir", type=existing_dir, help="the memory dir")
    p.add_argument(
        "--limit", type=positive_int, default=200, help="how many memories to list (default 200)"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_scan)

    p = sub.add_parser("index", help="report MEMORY.md against its 200-line / 25,000-byte caps")
    p.add_argument("dir", type=existing_dir, help="the memory dir")
    p.add_argument(
        "--scope",
        choices=("all", *SCOPES),
        default="all",
        help="which index to report (default: all)",
    )
    p.add_argument("--show", action="store_true", help="print each index as it would be loaded")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("lint", help="check memories and indexes; exit 1 on errors")
    p.add_argument("dir", type=existing_dir, help="the memory dir")
    p.add_argument(
        "--errors-only", action="store_true", help="list only findings of severity error"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_lint)

    p = sub.add_parser("demo", help="build the bundled demo memory dir")
    p.add_argument("dir", type=new_path, help="where to create it")
    p.add_argument("--overwrite", action="store_true", help="replace an earlier demo dir there")
    p.add_argument(
        "--now-ms", type=finite_float, default=None, help="pretend 'now' is this epoch time in ms"
    )
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("recall", help="select memories for a query and print them as injected")
    p.add_argument("query", help="the user's message to find memories for")
    p.add_argument("--dir", type=existing_dir, required=True, help="the memory dir")
    p.add_argument(
        "--tool", action="append", metavar="NAME", help="a recently used tool (repeatable)"
    )
    p.add_argument(
        "--selector",
        choices=SELECTOR_NAMES,
        default=None,
        help="default: anthropic when ANTHROPIC_API_KEY is set, else semantic (offline)",
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="also print each memory's lexical and semantic scores and why it was (not) picked",
    )
    p.set_defaults(func=cmd_recall)

    project_args = (
        (
            "--cwd",
            {"type": any_dir, "default": None, "help": "the project folder (default: here)"},
        ),
        (
            "--home",
            {
                "type": any_dir,
                "default": None,
                "help": "the home folder to read ~/.claude from (default: $HOME)",
            },
        ),
        (
            "--settings",
            {
                "type": existing_file,
                "default": None,
                "help": "a settings file passed to Claude Code with --settings (the flag layer)",
            },
        ),
        ("--json", {"action": "store_true", "help": "machine-readable output"}),
    )
    p = sub.add_parser(
        "where", help="which memory dir a project uses, and every step that chose it"
    )
    for name, kw in project_args:
        p.add_argument(name, **kw)
    p.set_defaults(func=cmd_where)

    p = sub.add_parser(
        "doctor", help="why memory would not load fully for a project; exit 1 when action is needed"
    )
    for name, kw in project_args:
        p.add_argument(name, **kw)
    p.set_defaults(func=cmd_doctor)

    home_help = (
        "a Claude home (the folder holding projects/), or a home folder whose .claude is used; "
        "repeatable (default: ~/.claude)"
    )
    p = sub.add_parser(
        "list", help="every memory dir under a Claude home, with counts and index use"
    )
    p.add_argument("--home", type=any_dir, action="append", help=home_help)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("export", help="write every memory and memory dir to Parquet files")
    p.add_argument(
        "--parquet",
        type=Path,
        required=True,
        metavar="OUT",
        help="the folder to write memories.parquet and dirs.parquet into",
    )
    p.add_argument("--home", type=any_dir, action="append", help=home_help)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser(
        "rebuild-index", help="rewrite MEMORY.md (and team/MEMORY.md) from the topic files"
    )
    p.add_argument("dir", type=existing_dir, help="the memory dir")
    p.add_argument(
        "--dry-run", action="store_true", help="print the new private index instead of writing it"
    )
    p.set_defaults(func=cmd_rebuild_index)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); exit quietly like other shell tools.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (ValueError, OSError) as exc:
        # Input we could not act on (a folder that vanished, a permission, a bad value):
        # one line naming it, never a traceback.
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        where = f" ({exc.filename})" if isinstance(exc, OSError) and exc.filename else ""
        print(f"error: {detail}{where}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
