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
from collections.abc import Iterator
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
    """Poll url until it answers; fail with the server's log if the process dies or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(
                f"server exited with {proc.returncode} before answering {url}:\n{log.read_text()[-4000:]}"
            )
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return  # it answered (a 403/404 still means the server is up)
        except OSError:
            time.sleep(0.3)
    pytest.fail(f"server did not answer {url} within {timeout}s:\n{log.read_text()[-4000:]}")


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


@contextlib.contextmanager
def serve(args: list[str], cwd: Path, env: dict[str, str], log: Path, ready: str) -> Iterator[None]:
    """Run a Jupyter app (args, with its kernels on ipc sockets) until the block ends, once
    ready answers; its output goes to log, shown if it dies or never answers."""
    with ipc_kernel_flags() as kernel_flags:
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                [*args, *kernel_flags],
                cwd=cwd,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            wait_for_http(ready, proc, log)
            yield
        finally:
            stop(proc)


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
    port = free_port()
    env = jupyter_env(root)
    env["MEMDIR_NB_DIR"] = str(memory_dir)
    url = f"http://127.0.0.1:{port}/"
    args = [str(BIN / "voila"), "notebooks/dashboard.ipynb", "--no-browser", f"--port={port}"]
    args += ["--Voila.ip=127.0.0.1", "--Voila.open_browser=False"]
    with serve(args, REPO, env, root / "voila.log", url):
        yield url


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
    port = free_port()
    token = "memdir-nb-browser-test"
    base = f"http://127.0.0.1:{port}"
    args = [
        str(BIN / "jupyter"),
        "lab",
        "--no-browser",
        f"--port={port}",
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
    with serve(args, work, jupyter_env(root), root / "lab.log", f"{base}/api/status?token={token}"):
        yield f"{base}/lab/tree/notebooks/00_tour.ipynb?token={token}"
