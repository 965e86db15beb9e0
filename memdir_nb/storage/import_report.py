"""What an archive import did (or, dry run, would do), entry by entry, and how it is shown.

Each file it replaces carries the diff of its old text against the archive's
(`formats.file_diff.bounded_file_diff`, the diff `rebuild-index` prints of the index it
rewrites): the guide's rule for a command that rewrites a person's file is to keep the old one
(`.trash/import-*`) and show the change, in the dry run and in the real run's report
(lefts37b). A conflict left alone (no `--overwrite`) shows the same diff as a preview, so a
person sees what `--overwrite` would replace before passing it (lefts38). Names are shown by
`spec.shown_names.terminal_name`, the text by `terminal_safe`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memdir_nb.formats.file_diff import bounded_file_diff
from memdir_nb.spec.shown_names import terminal_name
from memdir_nb.spec.text import terminal_line, terminal_safe

# what a dry run compares against where the name is not a readable regular file (a folder, a
# link out of the dir): differs from every entry's bytes, and its diff is the whole new file
NOT_A_REGULAR_FILE = b"\0not a readable regular file"


@dataclass(frozen=True)
class RefusedEntry:
    """One archive entry import would not write, and why.

    position is the entry's number in the archive's listing (1 for the first, counting folder
    records too, as `unzip -l` lists them): the one way to point at an entry with no name.
    """

    name: str
    reason: str
    position: int

    @property
    def label(self) -> str:
        """The entry as a report names it: its name, or its position when it has none."""
        return self.name if self.name else f"entry #{self.position} (no name)"


@dataclass
class ImportReport:
    """What import_archive did (or, with dry_run, would do), file by file."""

    written: list[str] = field(default_factory=list)  # new files
    replaced: list[str] = field(default_factory=list)  # overwritten; the old ones in .trash/
    unchanged: list[str] = field(default_factory=list)  # already held the same bytes
    conflicts: list[str] = field(default_factory=list)  # exist with other bytes, left alone
    refused: list[RefusedEntry] = field(default_factory=list)
    trash_dir: str | None = None  # where replaced files went (relative to the memory dir)
    dry_run: bool = False
    # each replaced (or conflicting: a preview) file's diff, old against the archive's (bounded;
    # its name shown by terminal_name): a command that rewrites a person's file shows the change
    diffs: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when nothing was refused and no conflict was left."""
        return not self.refused and not self.conflicts


def classify_entry(
    report: ImportReport, name: str, data: bytes, current: bytes | None, overwrite: bool
) -> str:
    """Record what happens to one entry: written, unchanged, conflict or replaced."""
    if current is None:
        report.written.append(name)
        return "written"
    if current == data:
        report.unchanged.append(name)
        return "unchanged"
    old = b"" if current is NOT_A_REGULAR_FILE else current
    report.diffs[name] = bounded_file_diff(old, data, terminal_name(name))
    if overwrite:
        report.replaced.append(name)
        return "replaced"
    report.conflicts.append(name)
    return "conflict"


def format_import_report(report: ImportReport) -> str:
    """The report as lines for a terminal: each refused entry and conflict named, one a line
    (an archive's entry name can hold a newline: terminal_line shows it as an escape)."""
    verb = "would be " if report.dry_run else ""
    lines = [
        f"{len(report.written)} {verb}written, {len(report.replaced)} {verb}replaced, "
        f"{len(report.unchanged)} unchanged, {len(report.conflicts)} conflicts, "
        f"{len(report.refused)} refused"
        + (" (dry run: nothing was written)" if report.dry_run else "")
    ]
    for name in report.conflicts:
        lines.append(
            f"conflict: {terminal_name(name)} exists with other content; left alone (pass --overwrite to "
            "replace it, the old file going to .trash/)"
        )
        if report.diffs.get(name):  # a preview: what --overwrite would change
            lines.append(f"what --overwrite would change in {terminal_name(name)}:")
            lines.append(terminal_safe(report.diffs[name]).removesuffix("\n"))
    for name in report.replaced:
        kept = f" (old file in {terminal_name(f'{report.trash_dir}/{name}')})"
        done = "would replace" if report.dry_run else "replaced"
        lines.append(f"{done}: {terminal_name(name)}{kept if report.trash_dir else ''}")
        if report.diffs.get(name):  # the text, as rebuild-index shows the index it rewrites
            lines.append(terminal_safe(report.diffs[name]).removesuffix("\n"))
    for r in report.refused:
        lines.append(terminal_line(f"refused: {r.label}: {r.reason}"))
    return "\n".join(lines)
