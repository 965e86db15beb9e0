"""Run every home route over whole Claude homes that someone else wrote, and report what broke.

The whole-home side of benchmarks/sweep_dirs.py: point this at copies of real homes (a folder
holding `.claude/`, or a `.claude` folder itself; for example unpacked from a dotfiles
repository with `git archive`; never commit them). Each home is copied into a temporary
folder first (symlinks, dangling ones included, kept as they are), so nothing here can change
the home it was given. For each copy, with $HOME pointing at it and the home folder as the
project, it runs as a user would:

* the CLI, one process per command, with a time limit: where, doctor, list and sessions
  (each as text and with --json) and export --parquet;
* the API in this process: where, diagnose, list_memory_dirs, list_sessions, export_parquet;
* with --notebooks, the notebooks that take a home, each in a real kernel with no API key:
  09 on the home's first project memory dir (it exports the whole home), 10 with PROJECT_DIR
  set to the home folder, 11 with CLAUDE_HOME set to the Claude home;
* with --every-session as well, notebook 11 once more for each transcript of the home
  (TRANSCRIPT set to it), so sessions without a prompt, subagent files and sessions whose
  memory came later are all shown as a user picking them would.

A row fails when a command exits above 2 (doctor's 1 means findings), prints a Python
traceback, runs out of time, prints --json output that does not parse, when an API call
raises, when two routes disagree (the dir `where` resolves and the dir `doctor` checks; the
dirs `list` finds and the dirs `export` writes), or by sweep_notebooks' rule for a notebook,
or when anything changed the copy. It prints one line per failure and a summary (sweep_dirs'
`report`), and exits 1 if there was any failure.

  python benchmarks/sweep_homes.py /tmp/homes/*                 # the CLI and the API
  python benchmarks/sweep_homes.py HOME --notebooks -v          # also the notebooks
  python benchmarks/sweep_homes.py HOME --notebooks --every-session   # 11 on every transcript
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from sweep_dirs import Outcome, report
from sweep_notebooks import NOTEBOOK_DIR, _tree, execute_notebook, notebook_problems

HOME_ROUTES: tuple[tuple[str, ...], ...] = (
    ("where", "--cwd", "{home}"),
    ("where", "--cwd", "{home}", "--json"),
    ("doctor", "--cwd", "{home}"),
    ("doctor", "--cwd", "{home}", "--json"),
    ("list", "--home", "{home}"),
    ("list", "--home", "{home}", "--json"),
    ("sessions", "--home", "{home}"),
    ("sessions", "--home", "{home}", "--json"),
    ("export", "--parquet", "{out}", "--home", "{home}"),
)
HOME_NOTEBOOKS = ("09_explore_your_memory_dir", "10_where_and_doctor", "11_session_replay")


def claude_homes(paths: list[Path]) -> Iterator[Path]:
    """Each path as the home folder holding `.claude/` (a `.claude` folder counts for its parent)."""
    for path in paths:
        if path.name == ".claude" and path.is_dir():
            yield path.parent
        elif (path / ".claude").is_dir():
            yield path
        else:
            yield from sorted(p.parent for p in path.glob("*/.claude") if p.is_dir())


def copy_home(source: Path, copy: Path) -> str:
    """Copy the home folder, symlinks kept as links; "" or why it could not be copied."""
    try:
        shutil.copytree(source, copy, symlinks=True)
    except (OSError, shutil.Error) as exc:
        first = exc.args[0][0] if isinstance(exc, shutil.Error) else exc
        return f"not swept: the copy failed ({first})"[:300]
    return ""


def user_env(home: Path) -> dict[str, str]:
    """The environment of a user of this home: $HOME set, no Claude, memdir or API variables."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CLAUDE", "ANTHROPIC", "MEMDIR_NB_")) or k == "MEMDIR_NB_CACHE_DIR"
    }
    env["HOME"] = str(home)
    return env


# What the kernel and its libraries (IPython, matplotlib, fontconfig) write into any $HOME.
KERNEL_FOLDERS = frozenset({".cache", ".config", ".ipython", ".jupyter", ".local"})


def home_tree(home: Path) -> dict[str, tuple[int, int]]:
    """sweep_notebooks' tree of the home, without the folders a kernel writes into any home."""
    return {k: v for k, v in _tree(home).items() if Path(k).parts[0] not in KERNEL_FOLDERS}


def run_route(
    cli: list[str], args: tuple[str, ...], env: dict[str, str], timeout: float
) -> tuple[str, str]:
    """One CLI command; (stdout, "" when it answered as designed, else the problem)."""
    try:
        done = subprocess.run(
            [*cli, *args],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            env=env,
            cwd=env["HOME"],
        )
    except subprocess.TimeoutExpired:
        return "", f"no answer within {timeout:g} s"
    if "Traceback (most recent call last)" in done.stdout + done.stderr:
        return done.stdout, "printed a traceback: " + done.stderr.strip().splitlines()[-1][:200]
    if done.returncode not in (0, 1, 2):
        return done.stdout, f"exit code {done.returncode}"
    if "--json" in args:
        try:
            json.loads(done.stdout)
        except ValueError as exc:
            return done.stdout, f"--json printed no JSON ({exc})"
    return done.stdout, ""


def _agreement(outputs: dict[str, str]) -> list[str]:
    """Where two routes must give the same answer and did not."""
    problems = []
    try:
        resolved = json.loads(outputs["where --json"])["memory_dir"]
        checked = json.loads(outputs["doctor --json"])["memory_dir"]
        if os.path.realpath(resolved) != os.path.realpath(checked):
            problems.append(f"where resolved {resolved} but doctor checked {checked}")
        listed = len(json.loads(outputs["list --json"]))
        if f"({listed} memory dir" not in outputs["export"]:
            problems.append(f"list found {listed} dirs but export wrote: {outputs['export'][:200]}")
    except (KeyError, ValueError, TypeError):
        pass  # the route itself failed and is reported as such
    return problems


def api_calls(out: Path) -> list[tuple[str, Callable[[Path], object]]]:
    """The API calls behind the routes, as (name, call on the home folder)."""
    from memdir_nb import list_memory_dirs, list_sessions
    from memdir_nb.home.config import MemdirConfig
    from memdir_nb.reports.doctor import diagnose
    from memdir_nb.reports.fleet import export_parquet
    from memdir_nb.reports.where import where

    def config(home: Path) -> MemdirConfig:
        return MemdirConfig.from_environment({}, home=home, cwd=home)

    return [
        ("api where", lambda h: where(config(h))),
        ("api diagnose", lambda h: diagnose(config(h))),
        ("api list_memory_dirs", lambda h: list_memory_dirs(h / ".claude")),
        ("api list_sessions", lambda h: list_sessions(h / ".claude")),
        ("api export_parquet", lambda h: export_parquet([h / ".claude"], out / "api")),
    ]


def _notebook_parameters(nb: Any, values: dict[str, str]) -> None:
    """Set the parameters cell (the first code cell) as a user editing it would."""
    cell = next(c for c in nb.cells if c.cell_type == "code")
    lines = cell.source.splitlines()
    for i, line in enumerate(lines):
        name = line.split("=", 1)[0].strip()
        if name in values:
            lines[i] = f"{name} = {values[name]!r}"
    cell.source = "\n".join(lines)


def demo_instead(nb: Any, stem: str) -> list[str]:
    """A notebook given the user's home that showed its bundled demo or sample instead."""
    printed = "".join(
        out.get("text", "")
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if out.get("name") == "stdout"
    )
    if stem.startswith("10") and "demo Claude home" in printed:
        return ["showed the demo, not the home it was given"]
    said_why = "the bundled sample is shown instead" in printed  # the home has no session
    # the sample's scratch copy is named by its folder's name alone, a home given by its path
    sample = "\nClaude home: claude\n" in "\n" + printed
    if stem.startswith("11") and not said_why and sample:
        return ["showed the sample, not the home it was given"]
    return []


def _runs(home: Path, every_session: bool) -> list[tuple[str, dict[str, str], dict[str, str]]]:
    """(notebook, extra environment, parameters) of each notebook run over this home."""
    from memdir_nb import list_memory_dirs, list_sessions

    claude = str(home / ".claude")
    found = [i.path for i in list_memory_dirs(claude) if i.kind == "project"]
    runs: list[tuple[str, dict[str, str], dict[str, str]]] = [
        ("10_where_and_doctor", {}, {"PROJECT_DIR": str(home)}),
        ("11_session_replay", {}, {"CLAUDE_HOME": claude}),
    ]
    if found:
        runs.insert(0, ("09_explore_your_memory_dir", {"MEMDIR_NB_DIR": found[0]}, {}))
    if every_session:
        runs += [
            ("11_session_replay", {}, {"CLAUDE_HOME": claude, "TRANSCRIPT": s.path})
            for s in list_sessions(claude, read=False)
        ]
    return runs


def sweep_notebooks(
    home: Path, cache: Path, limit: float, *, every_session: bool = False
) -> list[tuple[str, str, float]]:
    """The notebooks that take a home, each over this home; (name, problem, seconds) each.

    With every_session, notebook 11 also runs once per transcript (named "11_session_replay
    <project>/<file>" in the results).
    """
    import nbformat

    env = user_env(home) | {"MEMDIR_NB_CACHE_DIR": str(cache)}
    results = []
    for stem, extra_env, params in _runs(home, every_session):
        path = NOTEBOOK_DIR / f"{stem}.ipynb"
        with tempfile.TemporaryDirectory(prefix="homesweep-nb-") as tmp:
            edited = Path(tmp) / path.name
            nb = nbformat.read(path, as_version=4)
            _notebook_parameters(nb, params)
            nbformat.write(nb, edited)
            for sub in ("data",):  # the notebooks read their bundled data beside them
                os.symlink(NOTEBOOK_DIR / sub, Path(tmp) / sub)
            t0 = time.perf_counter()
            nb, problem = execute_notebook(edited, env | extra_env, limit)
            seconds = time.perf_counter() - t0
        opened = Path(extra_env.get("MEMDIR_NB_DIR", home))
        problems = ([problem] if problem else []) + notebook_problems(nb, stem, opened)
        problems += demo_instead(nb, stem)
        name = stem
        if "TRANSCRIPT" in params:
            name += " " + os.path.relpath(params["TRANSCRIPT"], home / ".claude" / "projects")
        results.append((name, "; ".join(problems)[:500], seconds))
    return results


def sweep_home(
    source: Path,
    cli: list[str],
    timeout: float,
    notebooks: bool,
    limit: float,
    every_session: bool = False,
) -> list[Outcome]:
    """Every route over a fresh copy of the home folder source (the original is never touched)."""
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="homesweep-") as tmp:
        home = Path(tmp) / "home"
        problem = copy_home(source, home)
        if problem:
            return [Outcome(str(source), "copy", 0.0, problem)]
        before = home_tree(home)
        env = user_env(home)
        outputs: dict[str, str] = {}
        for n, args in enumerate(HOME_ROUTES):
            name = " ".join(
                a for a in args if a.startswith("--json") or not a.startswith(("-", "{"))
            )
            argv = tuple(
                a.replace("{home}", str(home)).replace("{out}", f"{tmp}/pq{n}") for a in args
            )
            t0 = time.perf_counter()
            outputs[name], problem = run_route(cli, argv, env, timeout)
            outcomes.append(Outcome(str(source), name, time.perf_counter() - t0, problem))
        outcomes += [Outcome(str(source), "agreement", 0.0, p) for p in _agreement(outputs)]
        for name, call in api_calls(Path(tmp)):
            t0 = time.perf_counter()
            try:
                call(home)
                problem = ""
            except Exception as exc:  # a sweep reports every failure and goes on
                problem = "".join(traceback.format_exception_only(exc)).strip()[:300]
            outcomes.append(Outcome(str(source), name, time.perf_counter() - t0, problem))
        if notebooks:
            cache = Path(tmp) / "cache"
            swept = sweep_notebooks(home, cache, limit, every_session=every_session)
            for stem, problem, seconds in swept:
                outcomes.append(Outcome(str(source), stem, seconds, problem))
        if home_tree(home) != before:
            outcomes.append(Outcome(str(source), "unchanged", 0.0, "the home was changed"))
    return outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path, help="home folders, or folders of them")
    parser.add_argument("--notebooks", action="store_true", help="also run notebooks 09, 10, 11")
    parser.add_argument(
        "--every-session",
        action="store_true",
        help="with --notebooks, also run notebook 11 on each transcript of the home",
    )
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per CLI command")
    parser.add_argument("--limit", type=float, default=600.0, help="seconds per notebook")
    parser.add_argument(
        "--cli",
        default=f"{shlex.quote(sys.executable)} -m memdir_nb.cli",
        help="the command that runs memdir-nb (default: this Python's module)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print every run")
    args = parser.parse_args(argv)
    homes = list(claude_homes(args.paths))
    if not homes:
        print("no home (a folder holding .claude/) under the paths given", file=sys.stderr)
        return 2
    outcomes = []
    for home in homes:
        got = sweep_home(
            home,
            shlex.split(args.cli),
            args.timeout,
            args.notebooks,
            args.limit,
            args.every_session,
        )
        if args.verbose:
            for o in got:
                print(f"{'FAIL' if o.problem else 'ok'} {o.seconds:6.1f} s {o.command} {home}")
        outcomes += got
    return report(homes, outcomes, "route runs")


if __name__ == "__main__":
    sys.exit(main())
