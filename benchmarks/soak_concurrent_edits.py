"""Two real processes change one memory file at once: how many of the other writer's changes survive.

Usage:
    python benchmarks/soak_concurrent_edits.py [--code DIR] [--rounds N]

One process inserts N lines through the memory tool (`insert`, which reads the file, changes it
and writes it back under the store's lock); the other appends N lines to the same file in place,
as an editor or Claude Code would, taking no lock. It prints how many tool inserts were written
or refused, and how many of the plain appends are still in the file at the end. Since the
twenty-third session an edit is written only if the file still holds what it was made from
(docs/security.md, "Lead, twenty-third session"): an append is never lost, and an insert that
met one is refused with a message instead. `--code` runs another checkout (e.g. an older commit
in a `git worktree`), for a before/after in one sitting.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HEAD = "---\nname: Log\ndescription: a shared log\ntype: project\n---\n\n"
NAME = "project_log.md"


def tool_side(code: str, mem: str, rounds: int, out: mp.Queue, ready: Any) -> None:
    sys.path.insert(0, code)
    from anthropic.lib.tools import ToolError

    from memdir_nb import MemdirMemoryTool

    tool = MemdirMemoryTool(mem)
    tool.call({"command": "view", "path": f"/memories/{NAME}"})  # warm: imports done
    ready.set()
    ok = refused = 0
    for i in range(rounds):
        command = {"command": "insert", "path": f"/memories/{NAME}", "insert_line": 6}
        try:
            tool.call(command | {"insert_text": f"A-{i}\n"})
            ok += 1
        except ToolError:
            refused += 1
    out.put((ok, refused))


def plain_side(mem: str, rounds: int, ready: Any) -> None:
    ready.wait(120)  # start together with the tool's inserts, not during its imports
    path = Path(mem) / NAME
    for j in range(rounds):
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"B-{j}\n")
        time.sleep(0.0005)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", default=str(Path(__file__).resolve().parents[1]))
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    mem = tempfile.mkdtemp(prefix="soak-edits-")
    (Path(mem) / NAME).write_text(HEAD, encoding="utf-8")
    results: mp.Queue = mp.Queue()
    ready = mp.Event()
    tool = mp.Process(target=tool_side, args=(args.code, mem, args.rounds, results, ready))
    plain = mp.Process(target=plain_side, args=(mem, args.rounds, ready))
    tool.start()
    plain.start()
    plain.join()
    tool.join()
    ok, refused = results.get()
    lines = (Path(mem) / NAME).read_text(encoding="utf-8").splitlines()
    inserts = sum(line.startswith("A-") for line in lines)
    appends = sum(line.startswith("B-") for line in lines)
    print(
        f"{args.code}: tool inserts written {ok}, refused {refused}, in the file {inserts}; "
        f"plain appends {args.rounds}, in the file {appends}, lost {args.rounds - appends}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
