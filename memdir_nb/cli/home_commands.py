"""The commands about a Claude home: where, doctor, list and the Parquet export."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from memdir_nb.cli.dir_commands import cmd_export_archive
from memdir_nb.formats.jsonio import dumps_output
from memdir_nb.home import settings_files
from memdir_nb.home.claude_homes import claude_homes_of, discovered_homes
from memdir_nb.home.config import MemdirConfig
from memdir_nb.reports.diagnosis import format_doctor
from memdir_nb.reports.doctor import diagnose
from memdir_nb.reports.fleet import export_parquet
from memdir_nb.reports.where import format_list, format_where, list_memory_dirs, where
from memdir_nb.spec.text import plural, terminal_line


def _config_for(args: argparse.Namespace) -> MemdirConfig:
    """The config `where` and `doctor` see: the real environment, settings env blocks applied.

    --home is the home folder; its .claude folder is taken for it too (as list, export and
    sessions take either), since a home with ~/.claude/.claude in it is not what anyone means.
    """
    home = args.home
    if home is not None and home.name == ".claude" and not (home / ".claude").is_dir():
        home = home.parent
    # The settings layers warn through their own module's logger (home.settings_files), the
    # environment through home.config's: both are held.
    loggers = (
        logging.getLogger(MemdirConfig.__module__),
        logging.getLogger(settings_files.__name__),
    )
    with _held_warnings(*loggers) as held:
        config = MemdirConfig.from_environment(
            cwd=args.cwd, home=home, flag_settings_path=args.settings
        )
    # Both reports list every settings problem and every refused env entry; the library's
    # warning on stderr would print each one a second time. Anything else still goes out.
    # (a held record is already one line, security.log_lines: compared as the report's own)
    shown = {
        terminal_line(text)
        for text in (*config.settings_problems, *(i.describe() for i in config.ignored_env))
    }
    for record in held:
        if record.getMessage() not in shown:
            # Straight to the handlers: the filters (one warning per problem) saw it already.
            logging.getLogger(record.name).callHandlers(record)
    return config


@contextmanager
def _held_warnings(*logs: logging.Logger) -> Iterator[list[logging.LogRecord]]:
    """Keep what `logs` would emit inside the block in a list instead of emitting it."""

    held: list[logging.LogRecord] = []

    def hold(record: logging.LogRecord) -> bool:
        held.append(record)
        return False

    for log in logs:
        log.addFilter(hold)
    try:
        yield held
    finally:
        for log in logs:
            log.removeFilter(hold)


def _claude_homes(raw: list[Path] | None) -> list[Path]:
    """Each --home as the Claude homes it names: itself when `is_claude_home` recognises it,
    else its .claude and its XDG .config/claude, each folder once (home.claude_homes); with no
    --home, the environment's Claude home and, when it holds projects, the XDG one."""

    if not raw:
        return discovered_homes(MemdirConfig.from_environment())
    return claude_homes_of(raw)


def cmd_where(args: argparse.Namespace) -> int:
    """Print the memory dir for a project and every step that chose it."""

    report = where(_config_for(args))
    if args.json:
        print(dumps_output(report.to_dict(), indent=2))
    else:
        print(format_where(report))
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    """Print why memory would not load fully; exit 1 when a finding needs action."""

    report = diagnose(_config_for(args))
    if args.json:
        print(dumps_output(report.to_dict(), indent=2))
    else:
        print(format_doctor(report))
    return report.exit_code


def cmd_list(args: argparse.Namespace) -> int:
    """Print every memory dir under the Claude home(s) with counts, ages and index use."""

    homes = _claude_homes(args.home)
    infos = [info for home in homes for info in list_memory_dirs(home)]
    if args.json:
        print(dumps_output([i.to_dict() for i in infos], indent=2))
    else:
        print(format_list(infos, homes))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Write memories.parquet and dirs.parquet for every memory dir under the Claude home(s).

    With --archive FILE.zip --dir DIR, pack that one memory dir for another machine instead.
    """
    if args.archive is not None:
        return cmd_export_archive(args)
    try:
        import pyarrow  # noqa: F401

    except ImportError:
        print(
            "error: export needs pyarrow; install the notebook extra: "
            "pip install 'memdir-nb[notebook]'",
            file=sys.stderr,
        )
        return 2
    result = export_parquet(_claude_homes(args.home), args.parquet)
    print(
        f"wrote {terminal_line(result.memories_path)} ({plural(result.memories, 'memory')}) "
        f"and {terminal_line(result.dirs_path)} ({plural(result.dirs, 'memory dir')})"
    )
    for line in result.skipped:
        print(f"skipped {line}")
    return 0
