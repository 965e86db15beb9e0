"""Fixtures for the browser tests: Debian's Chromium driven by Playwright, Voila and JupyterLab.

Chromium comes from the OS (`apt-get install chromium`, /usr/bin/chromium), never from
`playwright install`. It is launched with flags that keep it off the network, every server
listens on 127.0.0.1 only, and each page aborts any request for another host: Voila's lab
template links Font Awesome from cdn.jsdelivr.net, which the page must not fetch in a test (the
icons come from Voila's own bundle, so the dashboard looks the same without it). Without Chromium the tests are skipped, except in CI (CI=true),
where they fail so a missing browser cannot pass unnoticed.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.kernels import ipc_kernel_flags
from tests.support.ports import free_port

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
ARTIFACTS = REPO / "artifacts" / "browser"
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-dev-shm-usage",
]
SERVER_START_TIMEOUT_S = 90


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in tests/browser/ is a browser test."""
    for item in items:
        if Path(str(item.fspath)).is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.browser)


def find_chromium() -> str | None:
    """The OS Chromium binary, or None."""
    for path in CHROMIUM_CANDIDATES:
        if os.access(path, os.X_OK):
            return path
    return shutil.which("chromium")


def wait_for_http(
    url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float = SERVER_START_TIMEOUT_S
) -> None:
    """Poll url until it answers 200; fail with the server's log if the process dies or time runs
    out. Only a 200 counts: the ready URL is one only our server answers (a static file, or the
    status API with our token), so a stranger on the port is never taken for it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ServerExited(
                f"server exited with {proc.returncode} before answering {url}:\n{log_tail(log)}"
            )
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass  # not listening yet, or a stranger's error page: keep polling
        time.sleep(0.3)
    pytest.fail(f"server did not answer {url} with 200 within {timeout}s:\n{log_tail(log)}")


def log_tail(log: Path) -> str:
    """The last few thousand characters of a server's log."""
    try:
        return log.read_text(encoding="utf-8", errors="replace")[-4000:]
    except OSError as err:
        return f"(no log: {err})"


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server we started (its whole process group), politely first."""
    if proc.poll() is None:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait(timeout=5)


def jupyter_env(root: Path) -> dict[str, str]:
    """Environment for a Jupyter server: private config/runtime dirs, no real memory dir leaking in."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER_", "MEMDIR_NB_"))}
    for name in ("config", "runtime", "data"):
        (root / name).mkdir(parents=True, exist_ok=True)
    env.update(
        JUPYTER_CONFIG_DIR=str(root / "config"),
        JUPYTER_RUNTIME_DIR=str(root / "runtime"),
        JUPYTER_DATA_DIR=str(root / "data"),
        JUPYTER_PLATFORM_DIRS="1",
        ANTHROPIC_API_KEY="",
        PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
    )
    env.pop("ANTHROPIC_API_KEY")
    return env


class ServerExited(Exception):
    """A server we started stopped before it answered."""


# The logs of the servers running now, shown under any browser test that fails.
RUNNING_LOGS: list[Path] = []
PORT_ATTEMPTS = 3


@contextlib.contextmanager
def serve(
    args_for: Callable[[int], list[str]], cwd: Path, env: dict[str, str], log: Path, ready: str
) -> Iterator[int]:
    """Run a Jupyter app on a free port (args_for(port), with its kernels on ipc sockets) until
    the block ends, once http://127.0.0.1:<port><ready> answers 200; yields the port. The app is
    told never to move to another port, so a port taken in the meantime makes it stop, and it
    is started again on a new one; its output goes to log, shown if it never answers."""
    for attempt in range(1, PORT_ATTEMPTS + 1):
        port = free_port()
        with ipc_kernel_flags() as kernel_flags:
            with open(log, "ab") as out:  # every attempt's output stays in the one log
                out.write(f"--- attempt {attempt} on port {port}\n".encode())
                out.flush()  # before the server's own writes land after it
                start = out.tell()
                proc = subprocess.Popen(
                    [*args_for(port), *kernel_flags],
                    cwd=cwd,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            try:
                try:
                    wait_for_http(f"http://127.0.0.1:{port}{ready}", proc, log)
                except ServerExited as exited:
                    if attempt < PORT_ATTEMPTS and "in use" in log.read_bytes()[start:].decode(
                        errors="replace"
                    ):
                        continue
                    pytest.fail(str(exited))
                RUNNING_LOGS.append(log)
                try:
                    yield port
                finally:
                    RUNNING_LOGS.remove(log)
                return
            finally:
                stop(proc)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failing browser test shows the tail of every server log, to tell a slow kernel from a
    dead one."""
    report = yield
    if report.failed and call.when == "call":
        for log in RUNNING_LOGS:
            report.sections.append((f"server log {log.name}", log_tail(log)))
    return report


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        message = (
            "Chromium not found at /usr/bin/chromium; install it with "
            "`apt-get install chromium` (never `playwright install`)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message + " -- CI must run the browser tests")
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    # headless=True adds --headless; Playwright gives each launch a fresh profile dir in tmp
    # (it refuses --user-data-dir in args), so no state survives between runs.
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path, headless=True, args=CHROMIUM_FLAGS)
        yield b
        b.close()


def _local_only(route: Any) -> None:
    """Let a request through only when it is for this machine (127.0.0.1 or localhost)."""
    host = urllib.parse.urlsplit(route.request.url).hostname
    if host in ("127.0.0.1", "localhost") or route.request.url.startswith(("data:", "blob:")):
        route.continue_()
    else:
        route.abort()


@pytest.fixture()
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[object]:
    """A fresh page; its screenshot is saved to artifacts/browser/<test>.png whatever the outcome."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.route("**/*", _local_only)
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    yield pg
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    finally:
        context.close()


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from memdir_nb.ui.demo import build_demo_memory_dir

    return build_demo_memory_dir(tmp_path_factory.mktemp("voila") / "demo_memory")


@contextlib.contextmanager
def serve_voila(memory_dir: Path, root: Path) -> Iterator[str]:
    """Voila serving notebooks/dashboard.ipynb on 127.0.0.1 with MEMDIR_NB_DIR = memory_dir."""
    env = jupyter_env(root)
    env["MEMDIR_NB_DIR"] = str(memory_dir)

    def args_for(port: int) -> list[str]:
        args = [str(BIN / "voila"), "notebooks/dashboard.ipynb", "--no-browser", f"--port={port}"]
        return [
            *args,
            "--Voila.ip=127.0.0.1",
            "--Voila.open_browser=False",
            "--Voila.port_retries=0",
        ]

    # voila.js is Voila's own bundle: a 200 for it is Voila, and asking for it starts no kernel
    # (asking for "/" would run the dashboard once more in a kernel nobody looks at)
    with serve(args_for, REPO, env, root / "voila.log", "/voila/static/voila.js") as port:
        yield f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="session")
def voila_url(
    demo_dir: Path, tmp_path_factory: pytest.TempPathFactory, chromium_path: str
) -> Iterator[str]:
    """Voila serving notebooks/dashboard.ipynb on 127.0.0.1 with MEMDIR_NB_DIR = a demo dir in tmp."""
    with serve_voila(demo_dir, tmp_path_factory.mktemp("voila-home")) as url:
        yield url


@pytest.fixture(scope="session")
def lab_url(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[str]:
    """JupyterLab on 127.0.0.1 over a tmp root holding a copy of notebooks/, with a token."""
    root = tmp_path_factory.mktemp("lab-home")
    work = root / "work"
    shutil.copytree(REPO / "notebooks", work / "notebooks")
    # The tour starts with no stored outputs, so a rendered widget proves the kernel ran it.
    tour = work / "notebooks" / "00_tour.ipynb"
    nb = json.loads(tour.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    tour.write_text(json.dumps(nb), encoding="utf-8")
    token = "memdir-nb-browser-test"

    def args_for(port: int) -> list[str]:
        return [
            str(BIN / "jupyter"),
            "lab",
            "--no-browser",
            f"--port={port}",
            "--ServerApp.port_retries=0",
            "--ServerApp.ip=127.0.0.1",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={work}",
            "--allow-root",
            # keep Lab off the network: no news feed, no update check, no PyPI extension manager
            "--LabApp.news_url=",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
            # as `make lab` starts it (fresh38: the shim printed a DeprecationWarning)
            "--ServerApp.jpserver_extensions=notebook_shim=False",
        ]

    # the status API answers 200 only with our token: a stranger on the port is never taken for it
    ready = f"/api/status?token={token}"
    with serve(args_for, work, jupyter_env(root), root / "lab.log", ready) as port:
        yield f"http://127.0.0.1:{port}/lab/tree/notebooks/00_tour.ipynb?token={token}"
