"""The `memdir-nb` command: look at a memory dir from the shell."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from memdir_nb.config import SELECTOR_NAMES


def _existing_dir(raw: str) -> Path:
    from memdir_nb.config import MemdirConfig

    path = MemdirConfig.from_environment().expand_user(raw)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(
            f"{raw!r} is not a directory; pass the memory dir (the folder holding MEMORY.md)"
        )
    return path


def cmd_scan(args: argparse.Namespace) -> int:
    """Print the manifest the selector would see, then what was skipped."""
    from memdir_nb.scan import format_memory_manifest, scan_memory_dir

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
    print(f"\n{shown} memories listed", end="")
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
        MAX_ENTRYPOINT_BYTES,
        MAX_ENTRYPOINT_LINES,
        entrypoint_path,
        read_entrypoint,
        truncate_entrypoint_content,
    )

    path = entrypoint_path(scope_dir)
    raw = read_entrypoint(scope_dir)
    result = truncate_entrypoint_content(raw)
    return {
        "scope": label,
        "path": str(path),
        "exists": path.is_file(),
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
    if (args.dir / "team").is_dir():
        scopes.append(("team", args.dir / "team"))
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
        if not rep["exists"]:
            print("  no MEMORY.md yet (nothing is loaded into the prompt)")
            continue
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
    from memdir_nb.demo import build_demo_memory_dir
    from memdir_nb.scan import scan_memory_dir

    try:
        path = build_demo_memory_dir(args.dir, now_ms=args.now_ms, overwrite=args.overwrite)
    except (FileExistsError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    report = scan_memory_dir(path)
    print(f"demo memory dir ready at {path} ({len(report.headers)} memories)")
    return 0


def cmd_recall(args: argparse.Namespace) -> int:
    """Print the memories selected for a query, exactly as they would be injected."""
    from memdir_nb.recall import render_recall
    from memdir_nb.recall.explain_selection import format_explanation, selection_explanation
    from memdir_nb.recall.selectors import default_selector, make_selector

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
    from memdir_nb.lint import count_by_severity, lint_memory_dir

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
        print(f"{counts['error']} errors, {counts['warning']} warnings in {args.dir}")
    return 1 if counts["error"] else 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, exposed for tests."""
    parser = argparse.ArgumentParser(
        prog="memdir-nb",
        description="Inspect a Claude Code memory directory (memdir).",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("scan", help="list the memories a selector would see")
    p.add_argument("dir", type=_existing_dir, help="the memory dir")
    p.add_argument("--limit", type=int, default=200, help="how many memories to list (default 200)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_scan)

    p = sub.add_parser("index", help="report MEMORY.md against its 200-line / 25,000-byte caps")
    p.add_argument("dir", type=_existing_dir, help="the memory dir")
    p.add_argument("--scope", choices=("all", "private", "team"), default="all")
    p.add_argument("--show", action="store_true", help="print each index as it would be loaded")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_index)

    p = sub.add_parser("lint", help="check memories and indexes; exit 1 on errors")
    p.add_argument("dir", type=_existing_dir, help="the memory dir")
    p.add_argument(
        "--errors-only", action="store_true", help="list only findings of severity error"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_lint)

    p = sub.add_parser("demo", help="build the bundled demo memory dir")
    p.add_argument("dir", type=Path, help="where to create it")
    p.add_argument("--overwrite", action="store_true", help="replace an earlier demo dir there")
    p.add_argument(
        "--now-ms", type=float, default=None, help="pretend 'now' is this epoch time in ms"
    )
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("recall", help="select memories for a query and print them as injected")
    p.add_argument("query")
    p.add_argument("--dir", type=_existing_dir, required=True, help="the memory dir")
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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
