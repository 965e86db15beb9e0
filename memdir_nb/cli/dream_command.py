"""`memdir-nb dream`: the consolidation plan for one memory dir, printed; nothing is written.

A newcomer following the README's commands reached where, doctor, scan, lint and
rebuild-index, but the dream's plan only from notebook 07 or the Python API (fresh36). This
command prints what `memdir_nb.plan_consolidation` proposes (each action with its id, kind,
files and summary, then its notes) and, with `--diff`, the unified diff of every file it
would change. Approving and applying stay where a person reviews each action: the dream
planner widget, or `apply_plan(plan, approve=[ids])`, which moves what it replaces into
.trash/ for `memdir-nb restore`.
"""

from __future__ import annotations

import argparse

from memdir_nb.dream.plan import plan_consolidation
from memdir_nb.spec.shell_words import shell_word
from memdir_nb.spec.shown_names import terminal_name
from memdir_nb.spec.text import plural, terminal_line, terminal_safe
from memdir_nb.storage.home_folders import empty_dir_note

# How a plan is applied, once reviewed (the command itself never writes): the dir as Python
# ({py}) and as the shell ({sh}) would take it.
APPLY_HOW = (
    "plan only: nothing was written. To apply some or all of it, review it in notebook "
    "07_daily_logs_and_dream (the dream planner), or call memdir_nb.apply_plan(plan, "
    "approve=[action ids]) on memdir_nb.plan_consolidation({py}); what it replaces goes to "
    ".trash/, and `memdir-nb restore {sh}` puts it back"
)


def cmd_dream(args: argparse.Namespace) -> int:
    """Print the offline consolidation plan (and its diff with --diff); write nothing."""
    plan = plan_consolidation(args.dir)  # PlanError (a ValueError) for a folder of memory dirs
    for action in plan.actions:
        files = ", ".join(terminal_name(f) for f in action.files)  # names that read back
        print(f"{terminal_line(action.id)}  [{action.kind}] {files}")
        print(f"  {terminal_line(action.summary)}")
    for note in plan.notes:
        print(f"note: {terminal_line(note)}")
    if args.diff and plan.actions:
        print()
        print(terminal_safe(plan.diff()), end="")
    count = plural(len(plan.actions), "action")
    print(f"{count} proposed for {terminal_line(args.dir)}.")
    if plan.actions:
        print(terminal_line(APPLY_HOW.format(py=repr(str(args.dir)), sh=shell_word(args.dir))))
    elif (empty := empty_dir_note(str(args.dir))) is not None:
        print(f"note: {empty}")
    return 0
