"""Usable CPUs: the process's affinity mask, as taskset or a container's cpuset sets it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from memdir_nb import machine
from memdir_nb.machine import (
    ThreadBeside,
    beside_this_process,
    environment_set,
    fork_pays,
    in_two_processes,
    lower_this_threads_share,
    usable_cpus,
)

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")


def test_usable_cpus_is_the_affinity_mask_not_the_machine() -> None:
    if not hasattr(os, "sched_getaffinity"):
        pytest.skip("no affinity mask on this platform")
    assert usable_cpus() == len(os.sched_getaffinity(0)) >= 1


def test_a_process_pinned_to_one_cpu_may_use_one() -> None:
    taskset = shutil.which("taskset")
    if taskset is None or not hasattr(os, "sched_getaffinity"):
        pytest.skip("taskset pins a process on Linux only")
    cpu = min(os.sched_getaffinity(0))
    code = "from memdir_nb.machine import usable_cpus; print(usable_cpus())"
    out = subprocess.run(
        [taskset, "-c", str(cpu), sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert out.stdout.strip() == "1"


# ---- two processes: when forking is safe and pays, and how a worker's failure is absorbed


def _squares(items: list[int]) -> list[int]:
    return [i * i for i in items]


def _first_only(items: list[int]) -> list[int]:
    return items[:1]


def _pids(items: list[int]) -> list[int]:
    return [os.getpid() for _ in items]


def test_fork_waits_for_the_callers_break_even(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "usable_cpus", lambda: 2)
    monkeypatch.setattr(threading, "active_count", lambda: 1)  # other tests may leave threads
    assert fork_pays(99, 100) is False
    assert fork_pays(100, 100) is sys.platform.startswith("linux")


def test_one_usable_cpu_never_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "usable_cpus", lambda: 1)
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert fork_pays(10**6, 1) is False


def test_a_process_running_another_thread_never_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "usable_cpus", lambda: 2)
    release = threading.Event()
    other = threading.Thread(target=release.wait, daemon=True)
    other.start()
    try:
        assert fork_pays(10**6, 1) is False
    finally:
        release.set()
        other.join()


@pytest.mark.parametrize("n", [0, 1, 999, 1000, 1999, 2000, 2999, 10_490])
def test_work_beside_comes_back_in_order_in_chunks_of_at_least_the_chunk(n: int) -> None:
    items = list(range(n))
    ran_on: list[tuple[int, bool]] = []

    def work(run: list[int]) -> list[int]:
        ran_on.append((len(run), threading.current_thread() is threading.main_thread()))
        return [2 * i for i in run]

    with ThreadBeside(work, 1000) as beside:
        beside.hand_over(items)
        assert beside.result() == [2 * i for i in items]
        assert beside.started is (n > 0)
    assert len(ran_on) == (max(1, n // 1000) if n else 0)
    if n >= 1000:
        assert min(size for size, _ in ran_on) >= 1000


def test_work_beside_not_started_is_done_by_the_thread_that_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The thread is held back until the result is asked for: the asking thread then does every
    # chunk itself, and the held thread, once let go, does none.
    held = threading.Event()
    monkeypatch.setattr(machine, "lower_this_threads_share", lambda: held.wait(10))
    on_main: list[bool] = []

    def work(run: list[int]) -> list[int]:
        on_main.append(threading.current_thread() is threading.main_thread())
        return run

    with ThreadBeside(work, 10) as beside:
        beside.hand_over(list(range(100)))
        assert beside.result() == list(range(100))
        held.set()
    assert on_main == [True] * 10


@linux_only
def test_a_thread_beside_lowers_its_own_share_and_no_other() -> None:
    # Linux keeps a nice value per thread: the thread's rises by the step (capped at 19); the
    # main thread's, and with it the process's, stays as it was.
    main_before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen: list[tuple[bool, int, int]] = []

    def beside() -> None:
        tid = threading.get_native_id()
        before = os.getpriority(os.PRIO_PROCESS, tid)
        seen.append((lower_this_threads_share(), before, os.getpriority(os.PRIO_PROCESS, tid)))

    thread = threading.Thread(target=beside)
    thread.start()
    thread.join()
    ((lowered, before, after),) = seen
    assert lowered is True
    assert after == min(before + machine.BESIDE_NICE_STEP, 19)
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == main_before


def test_the_main_thread_never_lowers_its_share() -> None:
    # Elsewhere than Linux a nice value is the whole process's, and the main thread is the one
    # the work beside it waits for: neither is ever lowered.
    before = os.getpriority(os.PRIO_PROCESS, 0) if hasattr(os, "getpriority") else None
    assert lower_this_threads_share() is False
    if before is not None:
        assert os.getpriority(os.PRIO_PROCESS, 0) == before


@linux_only
@pytest.mark.parametrize("n", [1, 2, 7, 40])
def test_results_come_back_in_the_items_order(n: int) -> None:
    assert in_two_processes(_squares, list(range(n))) == [i * i for i in range(n)]


@linux_only
def test_every_second_item_is_done_by_a_forked_worker() -> None:
    pids = in_two_processes(_pids, list(range(10)))
    assert set(pids[0::2]) == {os.getpid()}
    assert len(set(pids[1::2])) == 1 and pids[1] != os.getpid()


@linux_only
def test_here_runs_this_processs_share_and_work_the_workers() -> None:
    got = in_two_processes(_squares, [1, 2, 3, 4], here=lambda xs: [-x for x in xs])
    assert got == [-1, 4, -3, 16]


@linux_only
def test_a_killed_worker_leaves_its_items_to_this_process(tmp_path: Path) -> None:
    parent, marker = os.getpid(), tmp_path / "worker-was-killed"

    def dying(items: list[int]) -> list[int]:
        if os.getpid() != parent:
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)  # killed for real, mid-work
        return [i * i for i in items]

    assert in_two_processes(dying, list(range(9))) == [i * i for i in range(9)]
    assert marker.exists()


@linux_only
def test_the_worker_inherits_work_and_items_nothing_is_pickled_to_it() -> None:
    lock = threading.Lock()  # a closure over an object pickle refuses

    def work(items: list[int]) -> list[int]:
        with lock:
            return [i + 1 for i in items]

    assert in_two_processes(work, [1, 2, 3, 4, 5]) == [2, 3, 4, 5, 6]


@linux_only
def test_no_worker_to_start_means_every_item_is_done_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_slots() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_slots)
    before = _open_fds()
    assert in_two_processes(_pids, list(range(6))) == [os.getpid()] * 6
    assert _open_fds() == before  # the pipe made for the worker is closed again


@linux_only
def test_an_error_in_the_worker_is_raised_here() -> None:
    parent = os.getpid()

    def work(items: list[int]) -> list[int]:
        if os.getpid() != parent:
            raise LookupError(f"no such items: {items}")
        return items

    with pytest.raises(LookupError, match=r"no such items: \[1, 3\]"):
        in_two_processes(work, [0, 1, 2, 3])


@linux_only
def test_a_result_that_cannot_be_sent_back_is_a_clear_error() -> None:
    parent = os.getpid()

    def work(items: list[object]) -> list[object]:
        return [threading.Lock() if os.getpid() != parent else i for i in items]

    items: list[object] = [0, 1]
    with pytest.raises(RuntimeError, match="could not be sent back"):
        in_two_processes(work, items)


@linux_only
def test_an_error_here_kills_and_reaps_the_worker(tmp_path: Path) -> None:
    started = tmp_path / "worker-pid"

    def slow(items: list[int]) -> list[int]:
        started.write_text(str(os.getpid()))
        threading.Event().wait(60)  # would hold the test for a minute if it were waited for
        return items

    def fails(items: list[int]) -> list[int]:
        while not started.exists():  # the worker is running
            threading.Event().wait(0.01)
        raise KeyError("here")

    with pytest.raises(KeyError):
        in_two_processes(slow, [1, 2], here=fails)
    with pytest.raises(ChildProcessError):  # killed and reaped: not left working, not a zombie
        os.waitpid(int(started.read_text() or 0), os.WNOHANG)


@linux_only
def test_output_buffered_before_the_fork_is_written_once() -> None:
    # stdout to a pipe is block-buffered: a child leaving with a copy of the buffer and flushing
    # it would print "before" twice.
    code = (
        "import sys\n"
        "from memdir_nb.machine import in_two_processes\n"
        "sys.stdout.write('before;')\n"
        "print(in_two_processes(lambda xs: [x * 2 for x in xs], [1, 2, 3]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout == "before;[2, 4, 6]\n"


@linux_only
def test_a_worker_whose_parent_was_killed_finishes_and_leaves(tmp_path: Path) -> None:
    # SIGKILL (or SIGTERM, which Python does not catch) ends the parent at once; its worker
    # must not outlive the share it was given, blocked on a pipe nobody reads.
    pid_file = tmp_path / "worker.pid"
    code = (
        "import os, sys, time\n"
        "from memdir_nb.machine import in_two_processes\n"
        f"pid_file = {str(pid_file)!r}\n"
        "def work(items):\n"
        "    if os.getpid() != parent:\n"
        "        open(pid_file, 'w').write(str(os.getpid()))\n"
        "        time.sleep(1.5)\n"
        "        return [b'x' * 200_000 for _ in items]  # more than a pipe holds\n"
        "    time.sleep(60)\n"
        "parent = os.getpid()\n"
        "in_two_processes(work, [1, 2])\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 30
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline, "the worker never started"
            time.sleep(0.05)
        worker = int(pid_file.read_text())
        proc.kill()
        proc.wait(timeout=30)
        deadline = time.monotonic() + 30
        while Path(f"/proc/{worker}").exists() and "Z" not in _state(worker):
            assert time.monotonic() < deadline, "the orphaned worker is still running"
            time.sleep(0.05)
    finally:
        proc.kill()
        proc.wait(timeout=30)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def _children() -> list[int]:
    """This process's child processes, from /proc."""
    me = str(os.getpid())
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if stat.rsplit(")", 1)[1].split()[1] == me:
                found.append(int(entry))
    return found


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


@linux_only
def test_work_that_loses_items_is_refused() -> None:
    with pytest.raises(ValueError, match="one result per item"):
        in_two_processes(_first_only, [1, 2, 3, 4])


# ---- one task beside this process: a forked child that inherits what was built


@linux_only
def test_work_beside_this_process_runs_in_a_child_that_sees_what_was_built() -> None:
    built = {"rows": list(range(1000))}  # a closure over local data: nothing is pickled to it
    with beside_this_process(lambda: (os.getpid(), sum(built["rows"]))) as result:
        here = sum(i * i for i in range(100))
    pid, total = result()
    assert pid != os.getpid() and total == 499_500 and here == 328_350


@linux_only
def test_a_killed_child_leaves_its_work_to_this_process(tmp_path: Path) -> None:
    parent, marker = os.getpid(), tmp_path / "child-was-killed"

    def work() -> int:
        if os.getpid() != parent:
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return os.getpid()

    with beside_this_process(work) as result:
        pass
    assert result() == parent
    assert marker.exists()


@linux_only
def test_leaving_the_block_by_an_error_kills_and_reaps_the_child() -> None:
    def slow() -> bool:
        return threading.Event().wait(60)  # would hold the test for a minute if waited for

    before = set(_children())
    with pytest.raises(KeyError), beside_this_process(slow):
        started = set(_children()) - before
        raise KeyError("here")
    assert len(started) == 1
    with pytest.raises(ChildProcessError):  # killed and reaped: not left working, not a zombie
        os.waitpid(started.pop(), os.WNOHANG)


@linux_only
def test_the_result_may_be_asked_for_after_the_block() -> None:
    with beside_this_process(lambda: os.getpid()) as result:
        pass
    assert result() != os.getpid()
    assert result() == result()  # one child, one answer, kept


@linux_only
def test_an_error_in_the_child_is_raised_here() -> None:
    def work() -> int:
        raise LookupError("no such pair")

    with beside_this_process(work) as result, pytest.raises(LookupError, match="no such pair"):
        result()


@pytest.mark.parametrize("prior", [None, "", "kept"])
def test_a_variable_set_for_a_block_is_put_back_as_it_was(
    prior: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = "MEMDIR_NB_TEST_ENVIRONMENT_SET"
    if prior is None:
        monkeypatch.delenv(name, raising=False)
    else:
        monkeypatch.setenv(name, prior)
    with environment_set(name, "inside"):
        assert os.environ[name] == "inside"
    assert os.environ.get(name) == prior


def test_a_block_that_raises_still_puts_the_variable_back(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "MEMDIR_NB_TEST_ENVIRONMENT_SET"
    monkeypatch.delenv(name, raising=False)
    with pytest.raises(KeyError), environment_set(name, "inside"):
        raise KeyError(name)
    assert name not in os.environ


def test_blocks_may_nest_in_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMDIR_NB_TEST_A", raising=False)
    monkeypatch.delenv("MEMDIR_NB_TEST_B", raising=False)
    with environment_set("MEMDIR_NB_TEST_A", "a"), environment_set("MEMDIR_NB_TEST_B", "b"):
        assert (os.environ["MEMDIR_NB_TEST_A"], os.environ["MEMDIR_NB_TEST_B"]) == ("a", "b")
    assert "MEMDIR_NB_TEST_A" not in os.environ and "MEMDIR_NB_TEST_B" not in os.environ


def test_blocks_of_two_threads_take_turns_and_each_puts_back_what_it_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name = "MEMDIR_NB_TEST_ENVIRONMENT_SET"
    monkeypatch.setenv(name, "original")
    inside = threading.Event()
    seen: list[str | None] = []

    def other() -> None:
        inside.wait()
        with environment_set(name, "other"):
            seen.append(os.environ.get(name))

    worker = threading.Thread(target=other)
    worker.start()
    with environment_set(name, "first"):
        inside.set()
        worker.join(0.2)  # it waits for this block: it cannot be inside it now
        assert worker.is_alive()
        assert os.environ[name] == "first"
    worker.join()
    assert seen == ["other"]
    assert os.environ[name] == "original"


_BLAS_LIMIT_PROBE = (
    "import sys\n"
    "import numpy\n"
    "from threadpoolctl import threadpool_info\n"
    "from memdir_nb import machine\n"
    "with machine.one_blas_thread(numpy_only=sys.argv[1] == 'numpy'):\n"
    "    inside = [i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas']\n"
    "print(machine._thread_controller.cache_info().misses, inside)\n"
)


@pytest.mark.parametrize(
    ("chosen", "only", "looked"),
    [("1", "numpy", 0), ("1", "any", 1), (None, "numpy", 1), ("2", "numpy", 1)],
)
def test_numpy_blas_loaded_with_one_thread_is_not_limited_again(
    chosen: str | None, only: str, looked: int
) -> None:
    # A command process loads OpenBLAS with one thread (cli.main); a block of numpy's products
    # alone then needs no threadpoolctl controller (about 4 ms of looking at every loaded
    # library). Other blocks, or another count, still get one. BLAS runs one thread inside
    # the block every time.
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if chosen is not None:
        env["OPENBLAS_NUM_THREADS"] = chosen
    out = subprocess.run(
        [sys.executable, "-c", _BLAS_LIMIT_PROBE, only],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    misses, inside = out.stdout.split(maxsplit=1)
    assert int(misses) == looked
    assert inside.strip() in ("[1]", "[]")  # [] where numpy's BLAS is not one threadpoolctl knows


# ---- numpy loaded inside a plan: OpenBLAS on one thread there, its default count after

_BLAS_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")

_LIGHT_LOAD_PROBE = (
    "import json, os, sys\n"
    "from threadpoolctl import threadpool_info\n"
    "from memdir_nb import machine\n"
    "def blas():\n"
    "    return [i['num_threads'] for i in threadpool_info() if i['internal_api'] == 'openblas']\n"
    "if sys.argv[1] == 'before':\n"
    "    import numpy\n"
    "with machine.numpy_loads_lightly():\n"
    "    np = machine.numpy_module()\n"
    "    inside, variable = blas(), os.environ.get('OPENBLAS_NUM_THREADS')\n"
    "    with machine.one_blas_thread(numpy_only=True):\n"
    "        product = float((np.ones((64, 64), np.float32) @ np.ones(64, np.float32)).sum())\n"
    "looked = machine._thread_controller.cache_info().misses\n"
    "print(json.dumps([inside, variable, blas(), looked, product]))\n"
)

_DEFAULT_BLAS_PROBE = (
    "import numpy\n"
    "from threadpoolctl import threadpool_info\n"
    "print([i['num_threads'] for i in threadpool_info() if i['internal_api'] == 'openblas'])\n"
)


def _without_blas_variables(**chosen: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _BLAS_VARIABLES}
    return {**env, **chosen}


def _run_probe(code: str, *args: str, env: dict[str, str]) -> str:
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout


def _default_blas_threads(env: dict[str, str]) -> list[int]:
    counts: list[int] = json.loads(_run_probe(_DEFAULT_BLAS_PROBE, env=env))
    if not counts:
        pytest.skip("numpy's BLAS here is not OpenBLAS")
    if counts == [1]:
        pytest.skip("OpenBLAS starts one thread here anyway (one usable CPU)")
    return counts


def test_numpy_first_loaded_in_a_light_block_runs_one_blas_thread_and_the_default_after() -> None:
    # OpenBLAS's idle thread spins beside a first plan's scores for about 0.1 s after it loads;
    # inside the block it is never started, and the user's products after the block get the
    # count OpenBLAS would have started with. The variable is not left set, and the block's
    # numpy-only products need no threadpoolctl controller (the count is already one).
    env = _without_blas_variables()
    default = _default_blas_threads(env)
    inside, variable, after, looked, product = json.loads(
        _run_probe(_LIGHT_LOAD_PROBE, "in-block", env=env)
    )
    assert inside == [1]
    assert variable is None
    assert after == default
    assert looked == 0
    assert product == 64.0 * 64


@pytest.mark.parametrize(
    ("how", "chosen"),
    [
        ("before", {}),
        ("in-block", {"OPENBLAS_NUM_THREADS": "2"}),
        ("in-block", {"OMP_NUM_THREADS": "2"}),
    ],
)
def test_numpy_loaded_before_the_block_or_with_a_count_the_user_chose_is_left_as_it_is(
    how: str, chosen: dict[str, str]
) -> None:
    env = _without_blas_variables()
    default = _default_blas_threads(env)
    expected = [2] if chosen else default
    inside, variable, after, _, _ = json.loads(
        _run_probe(_LIGHT_LOAD_PROBE, how, env=_without_blas_variables(**chosen))
    )
    assert inside == expected
    assert after == expected
    assert variable == chosen.get("OPENBLAS_NUM_THREADS")


_PLAN_BLAS_PROBE = (
    "import json, sys\n"
    "from threadpoolctl import threadpool_info\n"
    "from memdir_nb.dream import compare, plan_consolidation\n"
    "from memdir_nb.spec import similarity\n"
    "def blas():\n"
    "    return [i['num_threads'] for i in threadpool_info() if i['internal_api'] == 'openblas']\n"
    "seen = []\n"
    "dense = similarity._Join.dense_columns\n"
    "def watched(self):\n"
    "    found = dense(self)\n"
    "    seen.append(blas())\n"
    "    return found\n"
    "similarity._Join.dense_columns = watched\n"
    "similarity.DENSE_MIN_PAIRS = 0\n"
    "compare._BATCH_MIN_PAIRS = 0\n"
    "plan = plan_consolidation(sys.argv[1], now_ms=1_790_000_000_000.0)\n"
    "print(json.dumps([seen[:1], blas(), len(plan.actions)]))\n"
)


def test_a_plan_that_loads_numpy_runs_its_products_on_one_blas_thread_and_gives_the_count_back(
    tmp_path: Path,
) -> None:
    env = _without_blas_variables()
    default = _default_blas_threads(env)
    for i in range(12):
        words = "deploy staging cluster nightly backup rotation keys" if i % 2 else "deploy cluster"
        negation = "never " if i % 3 == 0 else ""
        (tmp_path / f"project_note_{i}.md").write_text(
            f"---\nname: note {i}\ndescription: {negation}{words} {i}\ntype: project\n---\n"
            f"We {negation}{words} every night, run {i}.\n",
            encoding="utf-8",
        )
    seen, after, _ = json.loads(_run_probe(_PLAN_BLAS_PROBE, str(tmp_path), env=env))
    assert seen == [[1]]  # the first dense join: numpy loaded inside the plan, one thread
    assert after == default
