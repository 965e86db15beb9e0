"""`memdir-nb restore`: list the batches in .trash/, or put one (or one file of one) back.

A memory `forget` moved to .trash/ (no batch) is listed too and put back by its name.

Every command that rewrites or removes memory files (a dream, the memory tool's delete, a
rebuilt index) first moves the old files into a batch under .trash/. This command is the way
back from the terminal; it calls the same `memdir_nb.dream.restore` as the Python API and the
dream planner widget, so its checks (a file edited since is never overwritten) are the same.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from memdir_nb.dream.apply import RestoreError, none_selected, preview_trash, restore
from memdir_nb.dream.forgotten import forgotten_files
from memdir_nb.spec.constants import TRASH_DIRNAME
from memdir_nb.spec.shell_words import shell_word
from memdir_nb.spec.shown_names import terminal_name
from memdir_nb.spec.text import first_few, plural, terminal_line

# The files the listing names for each batch; the rest are counted. A batch of a dream over a
# whole dir, or of a folder the memory tool deleted, holds thousands: named in full, one
# batch's line of 5,000 files was 205 KB (attack round 24). `restore DIR BATCH --dry-run`
# names every one.
LISTED_FILES_NAMED = 10


def _list_batches(memory_dir: Path) -> int:
    """One line per batch: what restoring it would put back, or why it cannot be restored; then
    the memories forget left in .trash (no batch: each is put back by its name)."""
    previews = preview_trash(memory_dir)
    forgotten = forgotten_files(memory_dir.absolute())
    if not previews and not forgotten:
        print(
            f"nothing to restore: {terminal_line(str(memory_dir / TRASH_DIRNAME))} holds no batch"
        )
        return 0
    for batch, files in previews:
        if isinstance(files, RestoreError):
            print(f"{terminal_name(batch)}: cannot be restored: {terminal_line(str(files))}")
            continue
        shown = first_few([terminal_name(f) for f in files], LISTED_FILES_NAMED) or "no file"
        if len(files) > LISTED_FILES_NAMED:
            shown += " (restore --dry-run with the batch names them all)"
        print(f"{terminal_name(batch)}: would put back {shown}")  # a batch is a folder's name
    if previews:
        print(f"restore one with: memdir-nb restore {shell_word(memory_dir)} BATCH")
    if forgotten:
        names = [terminal_name(n) for n in reversed(forgotten)]
        print(f"forgotten, newest first: {first_few(names, LISTED_FILES_NAMED, 'older')}")
        print(
            f"put one back by its name: memdir-nb restore {shell_word(memory_dir)} NAME.md "
            "(team/NAME.md for a team__NAME.md)"
        )
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """List the batches, preview one (--dry-run), or put one back; a refusal writes nothing."""
    memory_dir = Path(args.dir)
    if args.name is None:
        if args.dry_run:
            why = terminal_line(none_selected(memory_dir))
            print(f"error: --dry-run previews one batch, and {why}", file=sys.stderr)
            return 2
        return _list_batches(memory_dir)
    files = restore(memory_dir, args.name, dry_run=args.dry_run)  # RestoreError: main says it
    shown = ", ".join(terminal_name(f) for f in files) or "no file"
    if args.dry_run:
        print(f"would put back {plural(len(files), 'file')}: {shown}")
        print("(dry run: nothing was written)")
    else:
        print(f"put back {plural(len(files), 'file')}: {shown}")
    return 0
