"""What this machine gives the process, below every layer: CPUs, and a second process.

Work that can use more than one core (encoding batches, linting or planning a large dir,
scoring many pairs) asks here how many it may use, so the rule is the same everywhere: the
CPUs in the process's affinity mask (what `taskset`, a container's cpuset or a batch scheduler
allows), not every CPU the machine has.

Work split over two processes goes through `fork_pays` and `in_two_processes` (or
`beside_this_process`, for one task run in a child while this process does another), the one
home of the rules for when forking is safe and how a worker's failure is absorbed; both fork
through `ForkedCall`, a bare fork with a pipe for the answer. Work that
runs outside the GIL goes to a thread beside this one through `ThreadBeside`. A variable of the
process's environment set for one step only goes through `environment_set`.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from functools import lru_cache, partial
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic, NoReturn, TypeVar, cast

if TYPE_CHECKING:  # pragma: no cover
    from concurrent.futures import Future, ThreadPoolExecutor

T = TypeVar("T")
R = TypeVar("R")


def usable_cpus() -> int:
    """How many CPUs this process may run on: its affinity mask where the OS has one."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1  # macOS and Windows have no affinity mask


@lru_cache(maxsize=1)
def _thread_controller() -> Any:
    # threadpoolctl here, not at the top: it loads numpy's BLAS, and most commands use none
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def one_blas_thread(numpy_only: bool = False) -> Any:
    """A context in which BLAS runs on one thread: the package's matrices are small (an encoder
    batch, a block of pair scores), and on a busy 2-core machine OpenBLAS's spinning worker
    threads made encoding several times slower and doubled the pair scores' CPU time instead of
    halving their wall time (recall.embedding, recall.semantic and spec.similarity use it).

    numpy_only: the block's products are numpy's alone. When numpy's BLAS is OpenBLAS and
    OPENBLAS_NUM_THREADS is 1 (a command process sets it before numpy loads: cli.main), it
    already runs one thread, and threadpoolctl's look at every loaded library (about 4 ms, once
    per process) is spared. The variable is read when asked: one set after numpy loaded, with
    more threads already started, changes only the speed, never a product.
    """
    if numpy_only and _numpy_blas_has_one_thread():
        return nullcontext()
    return _thread_controller().limit(limits=1, user_api="blas")


def _numpy_blas_has_one_thread() -> bool:
    if os.environ.get("OPENBLAS_NUM_THREADS") != "1" and not _BLAS_OWED[0]:
        return False
    config = getattr(sys.modules.get("numpy.__config__"), "CONFIG", None)
    try:
        name = config["Build Dependencies"]["blas"]["name"]  # type: ignore[index]
    except (KeyError, TypeError):  # another numpy, or numpy not loaded: ask threadpoolctl
        return False
    return isinstance(name, str) and "openblas" in name.lower()


# The variables OpenBLAS reads for its thread count when it loads, in its order: one a user set
# is theirs, and numpy then loads as it would anyway.
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
_BLAS_LOCK = threading.Lock()
_BLAS_BLOCKS = [0]  # numpy_loads_lightly blocks open now, in any thread
# numpy was loaded by numpy_module with one OpenBLAS thread and its count is still to be given
# back when the last block closes
_BLAS_OWED = [False]


def numpy_module() -> ModuleType:
    """numpy, imported; inside a numpy_loads_lightly block, if this is numpy's first load and
    no BLAS thread variable is set, with OpenBLAS loaded on one thread (see there)."""
    loaded = sys.modules.get("numpy")
    if loaded is not None:
        return loaded
    if _BLAS_BLOCKS[0] and not _blas_threads_chosen():
        # The environment's lock first, then _BLAS_LOCK (the order every path takes them in)
        # (owed even if another thread loaded numpy meanwhile: the give-back raises only a
        # count that is still 1)
        with environment_set("OPENBLAS_NUM_THREADS", "1"):
            import numpy

            with _BLAS_LOCK:
                _BLAS_OWED[0] = True
            return numpy
    import numpy

    return numpy


def _blas_threads_chosen() -> bool:
    return any(os.environ.get(name) for name in BLAS_THREAD_VARIABLES)


@contextmanager
def numpy_loads_lightly() -> Iterator[None]:
    """A block in which numpy, if numpy_module first loads it, loads OpenBLAS with one thread,
    given back its default count (one per usable CPU, as OpenBLAS counts them) when the block
    ends.

    OpenBLAS starts its threads when it loads, and an idle one spins for about 0.1 s after
    that: about 25 ms of CPU during numpy's import and 15 more during the first dream plan,
    on a 2-core machine the second CPU that the plan's contradiction scores run on
    (docs/performance.md, "Thirty-first session (plan31)" and "Thirty-seventh session
    (plan37)"). Every product the block makes runs on one BLAS thread anyway (one_blas_thread).
    The count is given back with threadpoolctl, which starts the threads then: the user's
    products after the block run on every core as they would have. A count changed meanwhile
    (not 1 any more) is left as it is.
    """
    with _BLAS_LOCK:
        _BLAS_BLOCKS[0] += 1
    try:
        yield
    finally:
        with _BLAS_LOCK:
            _BLAS_BLOCKS[0] -= 1
            owed = _BLAS_OWED[0] and _BLAS_BLOCKS[0] == 0
            if owed:
                _BLAS_OWED[0] = False
        if owed:
            _give_back_blas_threads()


def _give_back_blas_threads() -> None:
    # A controller of its own: a kept one may predate numpy's load and not know its OpenBLAS
    from threadpoolctl import ThreadpoolController

    for lib in ThreadpoolController().select(internal_api="openblas").lib_controllers:
        if lib.num_threads == 1:
            lib.set_num_threads(usable_cpus())


_ENVIRONMENT_LOCK = threading.RLock()  # re-entrant: a block may set another variable


@contextmanager
def environment_set(name: str, value: str) -> Iterator[None]:
    """The process's environment variable `name` set to `value` inside the block, then put back
    as it was (unset if it was unset), whatever the block raises. Blocks of different threads
    take turns, so each puts back what it found; a block must therefore not wait for another
    thread that sets a variable here. Other code reading the environment meanwhile sees the
    value.
    """
    with _ENVIRONMENT_LOCK:
        prior = os.environ.get(name)
        os.environ[name] = value
        try:
            yield
        finally:
            if prior is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = prior


# How much less CPU share a thread working beside this one asks for (lower_this_threads_share).
BESIDE_NICE_STEP = 3


def lower_this_threads_share(step: int = BESIDE_NICE_STEP) -> bool:
    """Raise the calling thread's nice value by step (Linux only); whether it was raised.

    For a thread that works beside the thread that waits for it (the planner's contradiction
    scores): the threads it starts inherit the value. Two rapidfuzz threads beside one Python
    thread on two CPUs otherwise share both CPUs three ways, so the Python thread, whose work
    is the longer, runs at two thirds of a CPU while a CPU goes idle at the end. At 3 steps
    (about half the weight) the scheduler leaves the Python thread a CPU of its own, while the
    scores still get about a third of a CPU against a busy process. Linux keeps a nice value per
    thread; elsewhere it is the whole process's, so nothing is done there. The value dies with
    the thread; an unprivileged thread cannot lower it again, so call this only in a thread of
    its own.
    """
    if (
        not sys.platform.startswith("linux")
        or threading.current_thread() is threading.main_thread()
    ):
        return False
    tid = threading.get_native_id()
    try:
        now = os.getpriority(os.PRIO_PROCESS, tid)
        os.setpriority(os.PRIO_PROCESS, tid, min(now + step, 19))
    except OSError:  # pragma: no cover - a sandbox that refuses it: the thread runs as before
        return False
    return True


class ThreadBeside(Generic[T, R]):
    """work over chunks of items on a thread of its own, beside the thread that hands them over.

    For work that runs outside the GIL (rapidfuzz's batched scores) while the handing thread runs
    Python. The thread asks for a smaller CPU share (lower_this_threads_share), so the handing
    thread, whose work is the longer, keeps a CPU; the chunks it has not started when result()
    is asked for are done by the asking thread instead, at its own share. Items go in chunks of
    about `chunk` (at least `chunk` where there are as many). On leaving the with-block the
    thread stops: chunks not started are dropped, a running one is waited for.
    """

    def __init__(self, work: Callable[[list[T]], list[R]], chunk: int) -> None:
        self.work, self.chunk = work, max(1, chunk)
        self.pool: ThreadPoolExecutor | None = None
        self.chunks: list[tuple[list[T], Future[list[R]]]] = []

    @property
    def started(self) -> bool:
        """Whether items were handed over (and the thread started)."""
        return self.pool is not None

    def hand_over(self, items: list[T]) -> None:
        """Queue work over items for the thread, cut into len // chunk runs of nearly one length."""
        if not items:
            return
        if self.pool is None:
            from concurrent import futures  # deferred: only work large enough comes here

            self.pool = futures.ThreadPoolExecutor(1, initializer=lower_this_threads_share)
        step = -(-len(items) // max(1, len(items) // self.chunk))  # ceil
        for k in range(0, len(items), step):
            run = items[k : k + step]
            self.chunks.append((run, self.pool.submit(self.work, run)))

    def result(self) -> list[R]:
        """work's results for every item handed over, in order: waits for the thread's chunks."""
        taken = [pending.cancel() for _, pending in self.chunks]  # all not started, at once
        out: list[R] = []
        for (run, pending), here in zip(self.chunks, taken, strict=True):
            out += self.work(run) if here else pending.result()
        return out

    def __enter__(self) -> ThreadBeside[T, R]:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)


def fork_pays(n_items: int, min_items: int) -> bool:
    """Whether splitting n_items of work over a forked second process is safe and pays here.

    - at least min_items (the caller's measured break-even: starting a worker and sending its
      results back costs tens of ms);
    - at least two usable CPUs;
    - Linux, where forking is the platform's own cheap way to share what was read;
    - one Python thread in this process. Forking a process that runs other threads (a notebook
      kernel, a recall prefetch, a progress bar's monitor) can copy a lock another thread
      holds, and the child could then wait on it for ever.
    """
    return (
        n_items >= min_items
        and sys.platform.startswith("linux")
        and usable_cpus() >= 2
        and threading.active_count() == 1
    )


class ForkedCall(Generic[R]):
    """work() in a child forked from this process, its result sent back through a pipe.

    The child inherits this process's memory at the fork, so work reads what was built without it
    being pickled; only the result is pickled back. A bare fork and a pipe, not a process pool:
    the pool's queues, feeder and manager threads cost 20-30 ms a use here against about 4 ms
    (docs/performance.md). The child never returns into the caller's stack: it sends its answer
    and leaves with os._exit, so no `finally`, atexit hook or inherited stdio buffer runs twice.

    `outcome()` waits for the child and gives ("ok", result) or ("raise", exception), or None
    when there was no child (it could not be forked) or it died before its whole answer arrived
    (killed, out of memory). `abandon()` kills a child whose answer is no longer wanted. Either
    way the child is reaped.
    """

    def __init__(self, work: Callable[[], R]) -> None:
        self.pid: int | None = None
        self._read_end: int | None = None
        self._outcome: tuple[str, object] | None = None
        self._done = False
        _flush_standard_streams()  # what this process printed is written once, here
        try:
            read_end, write_end = os.pipe()
        except OSError:  # no file descriptors left: nothing runs beside this process
            self._done = True
            return
        try:
            pid = os.fork()
        except OSError:  # no process slots or no memory: nothing runs beside this process
            os.close(read_end)
            os.close(write_end)
            self._done = True
            return
        if pid == 0:  # the child: never returns from here
            _child_answers(work, read_end, write_end)
        os.close(write_end)
        self.pid, self._read_end = pid, read_end

    def outcome(self) -> tuple[str, object] | None:
        """("ok", result), ("raise", exception), or None: no child, or it died before answering."""
        if not self._done:
            self._done = True
            try:
                self._outcome = _answer(_read_all(cast(int, self._read_end)))
            finally:
                self._close(kill=self._outcome is None)
        return self._outcome

    def abandon(self) -> None:
        """Kill the child if it is still working, and reap it; its answer is never read."""
        if not self._done:
            self._done = True
            self._close(kill=True)

    def _close(self, *, kill: bool) -> None:
        if self._read_end is not None:
            os.close(self._read_end)
            self._read_end = None
        if self.pid is None:
            return
        try:
            if kill:
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):  # already gone, or reaped elsewhere
            pass
        self.pid = None


def _flush_standard_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # closed or broken: nothing buffered can be written
            pass


def _child_answers(work: Callable[[], object], read_end: int, write_end: int) -> NoReturn:
    """In the forked child: run work, write the pickled answer to write_end, and leave."""
    import pickle  # deferred: only forked work pickles (about 4 ms to import cold)

    code = 1
    try:
        os.close(read_end)
        try:
            answer: tuple[str, object] = ("ok", work())
        except BaseException as err:  # every failure is sent back and raised there
            answer = ("raise", err)
        try:
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as err:  # an answer that cannot be pickled is an error
            text = (
                f"the forked worker's answer could not be sent back ({type(err).__name__}: {err})"
            )
            data = pickle.dumps(("raise", RuntimeError(text)))
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view) :]
        _flush_standard_streams()  # what work itself printed
        code = 0
    finally:
        os._exit(code)


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _answer(data: bytes) -> tuple[str, object] | None:
    """The child's answer, or None if it is missing or cut short (the child died)."""
    import pickle  # deferred, as in _child_answers

    try:
        kind, value = pickle.loads(data)
    except Exception:  # a cut-short pickle fails in several ways: all mean "died"
        return None
    return (kind, value) if kind in ("ok", "raise") else None


def _delivered(outcome: tuple[str, object] | None) -> tuple[bool, object]:
    """(True, result) for an answer; raises the child's exception; (False, None) if it died."""
    if outcome is None:
        return False, None
    kind, value = outcome
    if kind == "raise":
        raise cast(BaseException, value)
    return True, value


def in_two_processes(
    work: Callable[[list[T]], list[R]],
    items: Sequence[T],
    *,
    here: Callable[[list[T]], list[R]] | None = None,
) -> list[R]:
    """work over items, one result per item in items' order: a forked worker runs work on every
    second item while this process runs here (work by default) on the others.

    Items alternate rather than split in halves: neighbours are often alike, so each side gets
    the same mix. The worker inherits work and its items at the fork (nothing is pickled to it);
    its results are pickled back. If the worker cannot be started (no process slots, no memory),
    or dies (killed, out of memory), its items are done here with work, so the answer never
    depends on the worker; an exception work raises in the worker is raised here.
    """
    ours_in, theirs_in = list(items[0::2]), list(items[1::2])
    child = ForkedCall(partial(work, theirs_in))
    try:
        ours = (here or work)(ours_in)
    except BaseException:
        child.abandon()
        raise
    answered, value = _delivered(child.outcome())
    theirs = cast("list[R]", value) if answered else work(theirs_in)
    if len(ours) != len(ours_in) or len(theirs) != len(theirs_in):
        raise ValueError("in_two_processes: work must give one result per item")
    merged: list[R] = [*ours, *theirs]
    merged[0::2], merged[1::2] = ours, theirs
    return merged


@contextmanager
def beside_this_process(work: Callable[[], R]) -> Iterator[Callable[[], R]]:
    """work() in a forked child while the with-block runs here; yields a function that waits for
    work's result and returns it.

    The child inherits this process's memory at the fork, so work may read anything built so
    far without it being pickled; only its result is sent back, so it should be small. As in
    in_two_processes, a child that cannot be started or dies leaves work to be done here, when
    the result is asked for; an exception work raises in the child is raised here. The result
    may be asked for inside the block or after it: leaving the block waits for the child, and
    leaving it by an exception kills the child. Use it only where fork_pays says forking is safe.
    """
    child = ForkedCall(work)

    def result() -> R:
        answered, value = _delivered(child.outcome())
        return cast(R, value) if answered else work()

    try:
        yield result
    except BaseException:
        child.abandon()
        raise
    child.outcome()  # reaped now; the answer is kept for result()
