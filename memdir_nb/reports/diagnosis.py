"""What doctor reports: a finding (cause, who is responsible, the fix), the report, and its text."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from memdir_nb.reports.where import WhereReport
from memdir_nb.spec.text import plural, terminal_line

Severity = Literal["action", "note"]

# How many names a finding lists before it says "and N more".
MAX_ITEMS_SHOWN = 20


@dataclass(frozen=True)
class DoctorFinding:
    """One reason memory would not load fully: what, which file or setting, and the fix."""

    code: str
    severity: Severity
    cause: str
    responsible: str
    fix: str
    items: tuple[str, ...] = ()

    def format(self) -> str:
        """A few lines for the terminal."""
        # each part is one line: a path in it may hold a newline, shown as an escape
        lines = [
            f"[{self.severity}] {self.code}: {terminal_line(self.cause)}",
            f"    responsible: {terminal_line(self.responsible)}",
            f"    fix: {terminal_line(self.fix)}",
        ]
        shown = self.items[:MAX_ITEMS_SHOWN]
        lines += [f"    - {terminal_line(item)}" for item in shown]
        if len(self.items) > len(shown):
            lines.append(f"    ... and {len(self.items) - len(shown)} more")
        return "\n".join(lines)


@dataclass(frozen=True)
class DoctorReport:
    """The where report, the dir that was checked, and the findings."""

    where: WhereReport
    checked_dir: str
    findings: tuple[DoctorFinding, ...] = field(default_factory=tuple)

    @property
    def exit_code(self) -> int:
        """0 when memory would load fully, 1 when a finding needs action."""
        return 1 if any(f.severity == "action" for f in self.findings) else 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the --json output)."""
        return {
            "where": self.where.to_dict(),
            "checked_dir": self.checked_dir,
            "exit_code": self.exit_code,
            "findings": [asdict(f) for f in self.findings],
        }


def format_doctor(report: DoctorReport) -> str:
    """The findings as text, then one summary line."""
    lines = [f"memory dir: {terminal_line(report.checked_dir)}"]
    for f in report.findings:
        lines.append(f.format())
    actions = sum(f.severity == "action" for f in report.findings)
    notes = len(report.findings) - actions
    if actions:
        lines.append(
            f"{plural(actions, 'finding')} {'needs' if actions == 1 else 'need'} action, "
            f"{plural(notes, 'note')}: "
            "memory would not load fully."
        )
    else:
        lines.append(f"no action needed ({plural(notes, 'note')}): memory would load fully.")
    return "\n".join(lines)
