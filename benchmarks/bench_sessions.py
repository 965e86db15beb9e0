"""Benchmark reading session transcripts and replaying a session (docs/performance.md, Sessions).

  read    memdir_nb.read_session on generated transcripts of 10, 25 and 50 MB: wall time
          (median of --runs) and peak Python memory (tracemalloc, a separate run), to show the
          peak does not follow the file size. The transcript mixes what real ones hold:
          prompts, responses split one block per record, parallel tool calls, tool results of
          source code (brackets inside strings), pasted images (base64), progress records.
  replay  memdir_nb.replay_session of a 200-turn session over 200 memories, with the offline
          selectors (semantic and lexical): cold (first run, model load and embeddings) and
          warm (a second run of the same replay; the vector cache is on disk).

Usage:  python benchmarks/bench_sessions.py [--sizes 10,25,50] [--runs 3] [--turns 200]
        [--memories 200] [--json]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memdir_nb import read_session, replay_session
from memdir_nb.recall.selectors import make_selector
from memdir_nb.ui.demo.session_records import RecordWriter

NOW_MS = 1_790_000_000_000.0
MEM = "/home/bench/.claude/projects/-home-bench-app/memory"
CODE = "\n".join(
    f"    {i:>4}\u2192def handler_{i}(request: dict[str, list[int]]) -> dict:  # [{i}] {{ok}}"
    for i in range(120)
)
IMAGE = base64.b64encode(random.Random(1).randbytes(90_000)).decode()


def _turn(w: RecordWriter, n: int, rng: random.Random, fat: int = 1) -> None:
    if n % 25 == 7:
        w.prompt(
            [
                {"type": "text", "text": f"[Image #{n}] what is wrong on screen {n}?"},
                {
                    "type": "image",
                    "source": {"type": "base64", "media_type": "image/png", "data": IMAGE},
                },
            ]
        )
    else:
        w.prompt(f"turn {n}: fix the handler for route {rng.randint(1, 500)} and run the tests")
    read = w.tool_use("Read", {"file_path": f"/home/bench/app/src/h{n % 40}.py"})
    bash = w.tool_use("Bash", {"command": "pytest -q tests/test_handlers.py"})
    mem = w.tool_use("Read", {"file_path": f"{MEM}/project_topic_{n % 200:03}.md"})
    w.response(
        [
            {"type": "thinking", "thinking": "Look at the handler, the tests and the notes."},
            {"type": "text", "text": "Reading the handler and running the tests."},
            read,
            bash,
            mem,
        ]
    )
    code = CODE * fat
    w.result(
        read,
        code,
        detail={
            "type": "text",
            "file": {"filePath": "x", "content": code, "numLines": 120, "totalLines": 120},
        },
    )
    w.result(bash, "".join(f"test_{i} PASSED\n" for i in range(60 * fat)))
    w.result(mem, "note")
    w.bookkeeping("progress", data={"type": "bash_progress", "output": "." * 500})
    w.response([{"type": "text", "text": f"Turn {n} done: the handler returns a dict again."}])
    w.system("turn_duration", durationMs=3000, isMeta=False)


def write_transcript(path: Path, megabytes: float, fat: int = 1) -> int:
    """A transcript of about `megabytes` MB; returns its turn count (fat: payloads x fat)."""
    rng = random.Random(7)
    target = int(megabytes * 1024 * 1024)
    turns = written = 0
    with path.open("w", encoding="utf-8") as out:
        while written < target:
            w = RecordWriter(
                "bench", "/home/bench/app", "2026-05-01T10:00:00.000Z", seed=f"b{turns}"
            )
            for _ in range(20):
                _turn(w, turns, rng, fat)
                turns += 1
            text = w.text()
            out.write(text)
            written += len(text.encode())
    return turns


def bench_read(sizes: list[float], runs: int) -> list[dict[str, object]]:
    """Each size with the usual payloads, then the smallest size's turns with 5x payloads."""
    rows = []
    cases = [(size, 1) for size in sizes] + [(sizes[0] * 4.6, 5)]
    with tempfile.TemporaryDirectory() as tmp:
        for size, fat in cases:
            path = Path(tmp) / f"t{size}-{fat}.jsonl"
            turns = write_transcript(path, size, fat)
            times, cpu = [], []
            for _ in range(runs):
                start, start_cpu = time.perf_counter(), time.process_time()
                session = read_session(path)
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            assert len(session.turns) == turns
            del session
            tracemalloc.start()
            session = read_session(path)
            kept, peak = tracemalloc.get_traced_memory()  # kept: the Session, still alive
            tracemalloc.stop()
            assert len(session.turns) == turns
            rows.append(
                {
                    "file_mb": round(path.stat().st_size / 1024 / 1024, 1),
                    "payload_x": fat,
                    "turns": turns,
                    "median_s": round(statistics.median(times), 3),
                    "median_cpu_s": round(statistics.median(cpu), 3),
                    "peak_mb": round(peak / 1024 / 1024, 1),
                    "kept_kb_per_turn": round(kept / 1024 / turns, 1),
                }
            )
    return rows


def build_replay_case(root: Path, turns: int, memories: int) -> tuple[Path, Path]:
    """A session of `turns` turns over a memory dir of `memories` files (some written mid-session)."""
    memory = root / "projects" / "-home-bench-app" / "memory"
    memory.mkdir(parents=True)
    topics = ["deploys", "queues", "billing", "auth", "search", "caching", "migrations", "alerts"]
    for i in range(memories):
        t = topics[i % len(topics)]
        path = memory / f"project_topic_{i:03}.md"
        path.write_text(
            f"---\nname: {t} note {i}\ndescription: how we handle {t} in service {i % 17}\n"
            f"type: project\n---\n\nDetails about {t} for service {i % 17}.\n"
        )
        stamp = (NOW_MS - (i + 5) * 86_400_000) / 1000
        os.utime(path, (stamp, stamp))
    w = RecordWriter("bench", "/home/bench/app", "2026-05-01T10:00:00.000Z", seed="replay")
    rng = random.Random(3)
    for n in range(turns):
        t = topics[rng.randrange(len(topics))]
        w.prompt(f"why does {t} fail for service {rng.randrange(17)} after the last release?")
        read = w.tool_use(
            "Read", {"file_path": f"{MEM}/project_topic_{rng.randrange(memories):03}.md"}
        )
        calls = [read]
        if n % 20 == 10:
            calls.append(
                w.tool_use(
                    "Edit",
                    {
                        "file_path": f"{MEM}/project_topic_{n:03}.md",
                        "old_string": "Details",
                        "new_string": "Notes",
                    },
                )
            )
        w.response(calls)
        for call in calls:
            w.result(call, "ok")
        w.response([{"type": "text", "text": "done"}])
    transcript = root / "projects" / "-home-bench-app" / "s.jsonl"
    transcript.write_text(w.text())
    return transcript, memory


def bench_replay(turns: int, memories: int) -> list[dict[str, object]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        transcript, memory = build_replay_case(Path(tmp), turns, memories)
        for name in ("lexical", "semantic"):
            selector = make_selector(name)
            timings, cpu = [], []
            for _ in range(3):  # cold, then warm twice
                start, start_cpu = time.perf_counter(), time.process_time()
                replay = replay_session(
                    transcript, memory, selector=selector, now_ms=NOW_MS, progress=False
                )
                timings.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            rows.append(
                {
                    "selector": name,
                    "turns": len(replay.turns),
                    "memories": memories,
                    "cold_s": round(timings[0], 2),
                    "warm_s": round(min(timings[1:]), 2),
                    "warm_cpu_s": round(min(cpu[1:]), 2),
                    "ms_per_turn_warm": round(1000 * min(timings[1:]) / len(replay.turns), 1),
                    "likely_miss_rate": round(replay.likely_miss_rate, 3),
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10,25,50")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--memories", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    read_rows = bench_read([float(s) for s in args.sizes.split(",")], args.runs)
    replay_rows = bench_replay(args.turns, args.memories)
    if args.json:
        print(json.dumps({"load": load, "read": read_rows, "replay": replay_rows}, indent=2))
        return
    print(f"1-minute load average at start: {load:.2f}")
    print(
        f"{'file MB':>8} {'payload':>7} {'turns':>6} {'wall s':>7} {'cpu s':>6} {'peak MB':>8}"
        f" {'KB/turn':>8}"
    )
    for r in read_rows:
        print(
            f"{r['file_mb']:>8} {str(r['payload_x']) + 'x':>7} {r['turns']:>6} {r['median_s']:>7}"
            f" {r['median_cpu_s']:>6} {r['peak_mb']:>8} {r['kept_kb_per_turn']:>8}"
        )
    print()
    print(
        f"{'selector':<9} {'turns':>5} {'memories':>8} {'cold s':>7} {'warm s':>7} {'warm cpu s':>10} {'ms/turn':>8}"
    )
    for r in replay_rows:
        print(
            f"{r['selector']:<9} {r['turns']:>5} {r['memories']:>8} {r['cold_s']:>7} {r['warm_s']:>7}"
            f" {r['warm_cpu_s']:>10} {r['ms_per_turn_warm']:>8}"
        )


if __name__ == "__main__":
    main()
