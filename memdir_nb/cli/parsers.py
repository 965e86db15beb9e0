"""The `memdir-nb` command line's parsers: each command's arguments, and how words are parsed.

Each command's arguments are added by one function, listed in COMMANDS. `parse` parses a
command line with that command's parser alone when it can (the first word names a command and
every argument after it is one the command takes): `memdir-nb index DIR` never builds the
other fourteen parsers. Anything else (help for the whole command, no command, arguments the
command does not take) goes to the whole parser, so its usage and errors are unchanged.

cli.main loads this module (and argparse with it) only for a command line that cli.plain_scan
does not read: `memdir-nb scan DIR` in its plain forms runs without argparse (docs/performance.md,
forty-second session).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from memdir_nb.cli.args import (
    archive_file,
    cwd_dir,
    dash_value_hint,
    epoch_ms,
    existing_dir,
    existing_dir_text,
    home_dir,
    new_path,
    output_path,
    positive_int,
    selector_timeout,
    settings_file,
    transcript_file,
)
from memdir_nb.cli.help_format import HelpFormatter
from memdir_nb.spec.constants import (
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
    MAX_MEMORY_FILES,
    SELECTOR_NAMES,
    SELECTOR_TIMEOUT_MAX_S,
    SELECTOR_TIMEOUT_S,
)
from memdir_nb.spec.taxonomy import SCOPES

TYPE_CHECKING = False  # typing stays unimported at run time; mypy reads the block below
if TYPE_CHECKING:
    from typing import NoReturn


_UNRECOGNIZED = "unrecognized arguments: "


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose "unrecognized arguments" error names the fix for a value that
    starts with '-'. Subparsers are made of the same class (argparse's default). `command`,
    when the command is known, names the command in the fix."""

    command = "COMMAND"

    def error(self, message: str) -> NoReturn:
        if message.startswith(_UNRECOGNIZED):
            words = message.removeprefix(_UNRECOGNIZED).split(" ")
            if dashed := [w for w in words if w.startswith("-")]:
                message = f"{message}; {dash_value_hint(dashed[0], f'{self.command} ...')}"
        super().error(message)


PROG = "memdir-nb"
HOME_HELP = (
    "a Claude home (the folder holding projects/), or a home folder whose .claude is used; "
    "repeatable (default: ~/.claude)"
)


def build_parser() -> Parser:
    """The argument parser of the whole command line, exposed for tests."""
    parser = Parser(
        prog=PROG,
        description="Inspect a Claude Code memory directory (memdir).",
        formatter_class=HelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (help_text, add_arguments) in COMMANDS.items():
        # description: `memdir-nb scan --help` said what scan takes, never what it does (fresh36)
        parser_of = sub.add_parser(
            name, help=help_text, description=help_text, formatter_class=HelpFormatter
        )
        add_arguments(parser_of)
    return parser


def command_parser(name: str) -> argparse.ArgumentParser:
    """One command's parser alone, the same as build_parser's (its prog, arguments and help)."""
    parser = Parser(
        prog=f"{PROG} {name}", description=COMMANDS[name][0], formatter_class=HelpFormatter
    )
    COMMANDS[name][1](parser)
    return parser


# ---------------------------------------------------------------- the commands that read one memory dir


def _scan_arguments(p: argparse.ArgumentParser) -> None:
    # the dir as text: a scan needs no Path, and its process no pathlib (cli/args.py)
    p.add_argument("dir", type=existing_dir_text, help="the memory dir")
    p.add_argument(
        "--limit",
        type=positive_int,
        default=MAX_MEMORY_FILES,
        help=f"how many memories to list (default {MAX_MEMORY_FILES})",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func="scan_command:cmd_scan")


def _index_arguments(p: argparse.ArgumentParser) -> None:
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


def _lint_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", type=existing_dir, help="the memory dir")
    p.add_argument(
        "--errors-only", action="store_true", help="list only findings of severity error"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func="dir_commands:cmd_lint")


def _demo_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", type=new_path, help="where to create it")
    p.add_argument("--overwrite", action="store_true", help="replace an earlier demo dir there")
    p.add_argument(
        "--now-ms", type=epoch_ms, default=None, help="pretend 'now' is this epoch time in ms"
    )
    p.set_defaults(func="dir_commands:cmd_demo")


def _recall_arguments(p: argparse.ArgumentParser) -> None:
    # DIR QUERY, as every other command takes its dir first, or QUERY --dir DIR
    p.add_argument(
        "query",
        metavar="[DIR] QUERY",
        help="the memory dir (or give it with --dir), then the user's message to find memories for",
    )
    p.add_argument("second", nargs="?", help=argparse.SUPPRESS)
    p.add_argument(
        "--dir", type=existing_dir, default=None, help="the memory dir (or give it before QUERY)"
    )
    p.add_argument(
        "--tool",
        action="append",
        metavar="NAME",
        help="a tool the agent used recently (repeatable): memories that only explain how to "
        "use it are left out, as Claude Code's recall does; its gotchas and known issues are "
        "kept",
    )
    p.add_argument(
        "--selector",
        choices=SELECTOR_NAMES,
        default=None,
        help="default: anthropic when ANTHROPIC_API_KEY is set, else semantic (offline)",
    )
    p.add_argument(
        "--timeout",
        type=selector_timeout,
        default=None,
        metavar="SECONDS",
        help="how long the anthropic selector waits for Claude, retries included (default "
        f"{SELECTOR_TIMEOUT_S:g}, at most {SELECTOR_TIMEOUT_MAX_S:,g}); a call that takes longer "
        "recalls nothing and says why. Only for the anthropic selector",
    )
    p.add_argument(
        "--explain",
        action="store_true",
        help="also print each memory's lexical and semantic scores and why it was (not) picked",
    )
    p.set_defaults(func="recall_command:cmd_recall")


# ---------------------------------------------------------------- the commands about a Claude home


def _project_arguments(p: argparse.ArgumentParser) -> None:
    """--cwd, --home, --settings and --json: where and doctor take the same four."""
    p.add_argument("--cwd", type=cwd_dir, default=None, help="the project folder (default: here)")
    p.add_argument(
        "--home",
        type=home_dir,
        default=None,
        help="the home folder to read ~/.claude from, or that .claude folder (default: $HOME)",
    )
    p.add_argument(
        "--settings",
        type=settings_file,
        default=None,
        help="a settings file passed to Claude Code with --settings (the flag layer)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")


def _where_arguments(p: argparse.ArgumentParser) -> None:
    _project_arguments(p)
    p.set_defaults(func="home_commands:cmd_where")


def _doctor_arguments(p: argparse.ArgumentParser) -> None:
    _project_arguments(p)
    p.set_defaults(func="home_commands:cmd_doctor")


def _list_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--home", type=home_dir, action="append", help=HOME_HELP)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func="home_commands:cmd_list")


def _export_arguments(p: argparse.ArgumentParser) -> None:
    out = p.add_mutually_exclusive_group(required=True)
    out.add_argument(
        "--parquet",
        type=output_path,
        metavar="OUT",
        help="the folder to write memories.parquet and dirs.parquet into",
    )
    out.add_argument(
        "--archive",
        type=output_path,
        metavar="FILE.zip",
        help="write the memory dir given with --dir to this zip (to import on another machine); "
        "an earlier archive there is kept beside it as <name>.kept-<UTC stamp>.zip",
    )
    p.add_argument("--dir", type=existing_dir, help="the memory dir to archive (with --archive)")
    p.add_argument("--home", type=home_dir, action="append", help=HOME_HELP)
    p.set_defaults(func="home_commands:cmd_export")


# ---------------------------------------------------------------- the commands about session transcripts


def _sessions_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--home", type=home_dir, action="append", help=HOME_HELP)
    p.add_argument(
        "--dir",
        type=existing_dir,
        default=None,
        help="only the sessions that used this memory dir (<home>/projects/<key>/memory): "
        "those beside it and those its subfolders and in-repo worktrees ran with it",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    _show_secrets_argument(p)
    p.set_defaults(func="session_commands:cmd_sessions")


def _replay_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("transcript", type=transcript_file, help="a session transcript (.jsonl)")
    p.add_argument(
        "--dir",
        type=existing_dir,
        default=None,
        help=(
            "the memory dir (default: the session's own: the project folder its memory tool "
            "calls name, or its working folder's git root's, else the one beside the transcript)"
        ),
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
        "--now-ms", type=epoch_ms, default=None, help="pretend 'now' is this epoch time in ms"
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    _show_secrets_argument(p)
    p.set_defaults(func="session_commands:cmd_replay")


def _show_secrets_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--show-secrets",
        action="store_true",
        help=(
            "show credentials in the transcript's text as typed (default: redacted, e.g. "
            "'sk-a…[108 chars]'; the transcript is never changed)"
        ),
    )


# ---------------------------------------------------------------- the commands that write into a memory dir


def _import_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("archive", type=archive_file, help="a zip written by memdir-nb export --archive")
    p.add_argument("--dir", type=output_path, required=True, help="the memory dir to import into")
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace files that differ, moving the old ones into .trash/",
    )
    p.add_argument("--dry-run", action="store_true", help="say what would happen; write nothing")
    p.set_defaults(func="dir_commands:cmd_import")


def _rebuild_index_arguments(p: argparse.ArgumentParser) -> None:
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
    p.add_argument(
        "--over-caps",
        action="store_true",
        help="write the rebuilt index even when more of it would lie past the "
        f"{MAX_ENTRYPOINT_LINES}-line / {MAX_ENTRYPOINT_BYTES:,}-byte caps than today "
        "(refused otherwise)",
    )
    p.set_defaults(func="dir_commands:cmd_rebuild_index")


def _restore_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", type=existing_dir, help="the memory dir")
    p.add_argument(
        "name",
        nargs="?",
        help="a batch in .trash/ (as listed without it), or one file's name to take from the "
        "newest batch holding it or the newest copy `forget` left; without it, all are listed",
    )
    p.add_argument(
        "--dry-run", action="store_true", help="say what would be put back; write nothing"
    )
    p.set_defaults(func="restore_command:cmd_restore")


def _dream_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", type=existing_dir, help="the memory dir")
    p.add_argument("--diff", action="store_true", help="also print every change as a unified diff")
    p.set_defaults(func="dream_command:cmd_dream")


# Every command: name -> (its line in `memdir-nb -h`, the function adding its arguments), in
# the order the help lists them.
COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "scan": ("list the memories a selector would see", _scan_arguments),
    "index": ("report MEMORY.md against its 200-line / 25,000-byte caps", _index_arguments),
    "lint": ("check memories and indexes; exit 1 on errors", _lint_arguments),
    "demo": ("build the bundled demo memory dir", _demo_arguments),
    "recall": ("select memories for a query and print them as injected", _recall_arguments),
    "where": ("which memory dir a project uses, and every step that chose it", _where_arguments),
    "doctor": (
        "why memory would not load fully for a project; exit 1 when action is needed",
        _doctor_arguments,
    ),
    "list": ("every memory dir under a Claude home, with counts and index use", _list_arguments),
    "export": (
        "write every memory and memory dir to Parquet files, or one memory dir to a zip",
        _export_arguments,
    ),
    "sessions": (
        "each project's session transcripts: id, date, turns, subagent, size",
        _sessions_arguments,
    ),
    "replay": (
        "replay a session turn by turn: what recall surfaced, cut and missed",
        _replay_arguments,
    ),
    "import": (
        "unpack a memory archive into a memory dir (conflicts named, never lost)",
        _import_arguments,
    ),
    "rebuild-index": (
        "add the missing entries to MEMORY.md and team/MEMORY.md, keeping every line "
        "people wrote (the old index goes to .trash/)",
        _rebuild_index_arguments,
    ),
    "dream": (
        "the consolidation (dream) plan for a memory dir: merges, absolute dates, index "
        "repairs; prints it and writes nothing",
        _dream_arguments,
    ),
    "restore": (
        "put back what a dream, a memory-tool delete or rebuild-index moved into .trash/ "
        "(lists the batches without a name)",
        _restore_arguments,
    ),
}


def parse(words: Sequence[str]) -> argparse.Namespace:
    """The command line parsed: by its command's parser alone when it can, else by the whole
    parser (which exits with its usage and error for words it cannot parse)."""
    return parse_one_command(words) or _whole_parser(words).parse_args(words)


def parse_one_command(words: Sequence[str]) -> argparse.Namespace | None:
    """The command line parsed by its command's parser alone; None to leave it to the whole one.

    The result is what build_parser gives: the whole parser hands the words after the
    command's name to the same subparser. None when the first word names no command, or when
    the command leaves words it does not take (the whole parser reports those, with its own
    usage). A bad value or `-h` ends here exactly as it would there: the same subparser errors
    or prints its help.
    """
    if not words or words[0] not in COMMANDS:
        return None
    args, extra = command_parser(words[0]).parse_known_args(
        words[1:], argparse.Namespace(command=words[0])
    )
    return None if extra else args


def _whole_parser(words: Sequence[str]) -> Parser:
    parser = build_parser()
    if words and words[0] in COMMANDS:  # its "unrecognized arguments" fix names the command
        parser.command = words[0]
    return parser
