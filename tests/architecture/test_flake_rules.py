"""Rules the tests themselves keep, so that a test's outcome depends on neither the day it runs
on nor the other processes on the machine (fresh41, docs/decisions.md "test flakes").

Read from the tests' source text, worker code in string literals included (a race test runs
its workers with `python -c <source>`, and that source is as much the test as its body).
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve()

# Files whose daily-log writes take the wall clock's day, and why that day cannot matter there.
WALL_CLOCK_DAY_ALLOWED = {
    # the clock is replaced by monkeypatch (resolve_now_ms), so the day is the test's own
    "unit/test_kairos.py",
    # every route is refused before a day is read (a folder this user cannot write to)
    "security/test_store_transaction.py",
}
PORT_HOME = "support/ports.py"


def _sources() -> list[tuple[str, str]]:
    return [
        (path.relative_to(TESTS).as_posix(), path.read_text(encoding="utf-8"))
        for path in sorted(TESTS.rglob("*.py"))
        if path != HERE
    ]


def _calls_of(name: str, text: str) -> list[tuple[int, str]]:
    """Each call `name(...)` in text (code or a string holding code): its line and its text up
    to the matching parenthesis."""
    calls = []
    for match in re.finditer(rf"(?<![\w.]){re.escape(name)}\(", text):
        if text[: match.start()].rstrip().endswith("def"):
            continue
        depth, end = 0, match.end() - 1
        while end < len(text):
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            if depth == 0:
                break
            end += 1
        calls.append((text.count("\n", 0, match.start()) + 1, text[match.start() : end + 1]))
    return calls


def _writes_on_the_wall_clock_day(text: str) -> list[int]:
    return [line for line, call in _calls_of("append_daily_log", text) if "now_ms" not in call]


def test_a_test_that_writes_a_daily_log_names_its_day() -> None:
    """A daily log is the file of a calendar day. On the wall clock's day, a test that ran
    across midnight (in the day zone) split its entries over two files: the two log races of
    tests/reliability/test_concurrency.py counted the later ones lost, or found two logs where
    they unpacked one (both failed under faketime from 23:59:57). So each write gives now_ms."""
    offenders = [
        f"{rel}:{line}"
        for rel, text in _sources()
        if rel not in WALL_CLOCK_DAY_ALLOWED
        for line in _writes_on_the_wall_clock_day(text)
    ]
    assert offenders == []


def test_the_daily_log_rule_sees_calls_in_code_and_in_worker_source() -> None:
    worker = 'CODE = r"""\nappend_daily_log(sys.argv[3], f"entry-{i:05d}")\n"""\n'
    assert _writes_on_the_wall_clock_day(worker) == [2]
    spread = 'log = append_daily_log(\n    mem,\n    "seed",\n)\n'
    assert _writes_on_the_wall_clock_day(spread) == [1]
    pinned = 'append_daily_log(mem, f"x {len(xs)}", now_ms=DAY_MS)\nappend_daily_log(\n  m, "y", now_ms=1)\n'
    assert _writes_on_the_wall_clock_day(pinned) == []
    assert _writes_on_the_wall_clock_day("def append_daily_log(memory_dir, text):\n") == []


def _binds_port_zero(text: str) -> list[int]:
    return [
        line
        for line, call in _calls_of("bind", text.replace(".bind(", " bind("))
        if re.fullmatch(r"bind\(\(\s*[^,]+,\s*0\s*\)\)", call)
    ]


def test_a_test_takes_its_port_from_the_free_port_helper() -> None:
    """A port the kernel hands out for bind(0) is in the ephemeral range, which every kernel
    client and server on the machine draws from too: one a test let go, and handed to a server
    or a client later, could be someone else's by then (the fortieth session's CI hung on such
    a port). tests/support/ports.free_port draws below that range; nothing else binds port 0."""
    offenders = [
        f"{rel}:{line}"
        for rel, text in _sources()
        if rel != PORT_HOME
        for line in _binds_port_zero(text)
    ]
    assert offenders == []


def test_the_port_rule_sees_each_spelling_of_port_zero() -> None:
    assert _binds_port_zero('s.bind(("127.0.0.1", 0))\n') == [1]
    assert _binds_port_zero("sock.bind((HOST, 0))\n") == [1]
    assert _binds_port_zero('held.bind(("127.0.0.1", free_port()))\n') == []
    assert _binds_port_zero('s.bind(("127.0.0.1", 8000))\n') == []
