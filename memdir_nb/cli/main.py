"""The `memdir-nb` command: look at a memory dir from the shell."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from memdir_nb.cli.args import (
    any_dir,
    existing_dir,
    existing_file,
    finite_float,
    new_path,
    positive_int,
)
from memdir_nb.cli.output import terminal_safe_streams
from memdir_nb.home.config import SELECTOR_NAMES
from memdir_nb.spec.taxonomy import SCOPES

HOME_HELP = (
    "a Claude home (the folder holding projects/), or a home folder whose .claude is used; "
    "repeatable (default: ~/.claude)"
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, exposed for tests."""
    parser = argparse.ArgumentParser(
        prog="memdir-nb",
        description="Inspect a Claude Code memory directory (memdir).",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    _add_memory_dir_commands(sub)
    _add_recall_command(sub)
    _add_home_commands(sub)
    _add_session_commands(sub)
    _add_rewriting_commands(sub)
    return parser


def _add_memory_dir_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """scan, index, lint and demo: the commands that read one memory dir."""
    p = sub.add_parser("scan", help="list the memories a selector would see")
    p.add_argument("dir", type=existing_dir, help="the memory dir")
    p.add_argument(
        "--limit", type=positive_int, default=200, help="how many memories to list (default 200)"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func="scan_command:cmd_scan")

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
    p.set_defaults(func="dir_commands:cmd_index")

    p = sub.add_parser("lint", help="check memories and indexes; exit 1 on errors")
    p.add_argument("dir", type=existing_dir, help="the memory dir")
    p.add_argument(
        "--errors-only", action="store_true", help="list only findings of severity error"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func="dir_commands:cmd_lint")

    p = sub.add_parser("demo", help="build the bundled demo memory dir")
    p.add_argument("dir", type=new_path, help="where to create it")
    p.add_argument("--overwrite", action="store_true", help="replace an earlier demo dir there")
    p.add_argument(
        "--now-ms", type=finite_float, default=None, help="pretend 'now' is this epoch time in ms"
    )
    p.set_defaults(func="dir_commands:cmd_demo")


def _add_recall_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """recall: pick memories for a query."""
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
    p.set_defaults(func="recall_command:cmd_recall")


def _add_home_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """where, doctor, list and export: the commands about a Claude home."""
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
    p.set_defaults(func="home_commands:cmd_where")

    p = sub.add_parser(
        "doctor", help="why memory would not load fully for a project; exit 1 when action is needed"
    )
    for name, kw in project_args:
        p.add_argument(name, **kw)
    p.set_defaults(func="home_commands:cmd_doctor")

    p = sub.add_parser(
        "list", help="every memory dir under a Claude home, with counts and index use"
    )
    p.add_argument("--home", type=any_dir, action="append", help=HOME_HELP)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func="home_commands:cmd_list")

    p = sub.add_parser(
        "export",
        help="write every memory and memory dir to Parquet files, or one memory dir to a zip",
    )
    out = p.add_mutually_exclusive_group(required=True)
    out.add_argument(
        "--parquet",
        type=Path,
        metavar="OUT",
        help="the folder to write memories.parquet and dirs.parquet into",
    )
    out.add_argument(
        "--archive",
        type=Path,
        metavar="FILE.zip",
        help="write the memory dir given with --dir to this zip (to import on another machine)",
    )
    p.add_argument("--dir", type=existing_dir, help="the memory dir to archive (with --archive)")
    p.add_argument("--home", type=any_dir, action="append", help=HOME_HELP)
    p.set_defaults(func="home_commands:cmd_export")


def _add_session_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """sessions and replay: the commands about session transcripts."""
    p = sub.add_parser(
        "sessions", help="each project's session transcripts: id, date, turns, subagent, size"
    )
    p.add_argument("--home", type=any_dir, action="append", help=HOME_HELP)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func="session_commands:cmd_sessions")

    p = sub.add_parser(
        "replay",
        help="replay a session turn by turn: what recall surfaced, cut and missed",
    )
    p.add_argument("transcript", type=existing_file, help="a session transcript (.jsonl)")
    p.add_argument(
        "--dir",
        type=existing_dir,
        default=None,
        help="the memory dir (default: the memory folder beside the transcript's project folder)",
    )
    p.add_argument(
        "--selector",
        choices=("semantic", "lexical"),
        default="semantic",
        help="the offline selector to replay with (default: semantic)",
    )
    p.add_argument(
        "--turns-between",
        type=positive_int,
        default=1,
        help="the extractor's throttling: extract every Nth turn (default 1)",
    )
    p.add_argument(
        "--now-ms", type=finite_float, default=None, help="pretend 'now' is this epoch time in ms"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func="session_commands:cmd_replay")


def _add_rewriting_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """import and rebuild-index: the commands that write into a memory dir."""
    p = sub.add_parser(
        "import", help="unpack a memory archive into a memory dir (conflicts named, never lost)"
    )
    p.add_argument(
        "archive", type=existing_file, help="a zip written by memdir-nb export --archive"
    )
    p.add_argument("--dir", type=Path, required=True, help="the memory dir to import into")
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace files that differ, moving the old ones into .trash/",
    )
    p.add_argument("--dry-run", action="store_true", help="say what would happen; write nothing")
    p.set_defaults(func="dir_commands:cmd_import")

    p = sub.add_parser(
        "rebuild-index",
        help="add the missing entries to MEMORY.md and team/MEMORY.md, keeping every line "
        "people wrote (the old index goes to .trash/)",
    )
    p.add_argument("dir", type=existing_dir, help="the memory dir")
    p.add_argument(
        "--dry-run",
        action="store_true",
        help="print what would change in both indexes, as unified diffs; write nothing",
    )
    p.add_argument(
        "--drop-dangling",
        action="store_true",
        help="also remove the lines that point at files which no longer exist",
    )
    p.set_defaults(func="dir_commands:cmd_rebuild_index")


def _handler(spec: str) -> Callable[[argparse.Namespace], int]:
    """The command function named "module:function", importing only that command's module.

    Each command's module is loaded when the command runs, so `memdir-nb scan` never pays for
    the demo builder, pandas or the embedding model.
    """
    module_name, func_name = spec.split(":")
    module = importlib.import_module(f"memdir_nb.cli.{module_name}")
    handler: Callable[[argparse.Namespace], int] = getattr(module, func_name)
    return handler


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; everything a command prints passes the sanitiser."""
    args = build_parser().parse_args(argv)
    with terminal_safe_streams():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Run the chosen command; input it cannot act on ends in one line on stderr, never a traceback."""
    try:
        return int(_handler(args.func)(args) or 0)
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
