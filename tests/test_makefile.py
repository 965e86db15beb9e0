"""The README's front door: what `make lab` would run, checked with `make -n` (nothing executes)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from memdir_nb.ui.demo import build_demo_memory_dir
from tests.support.ports import free_port

REPO = Path(__file__).resolve().parent.parent


def dry_run(*args: str, env_dir: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "MEMDIR_NB_DIR"}
    if env_dir is not None:
        env["MEMDIR_NB_DIR"] = env_dir
    out = subprocess.run(
        ["make", "-n", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def shell_word(path: object) -> str:
    """How the Makefile hands a path to the shell: in single quotes, each ' written '\\''."""
    return "'" + str(path).replace("'", "'\\''") + "'"


def test_make_lab_opens_the_demo_dir_by_default() -> None:
    out = dry_run("lab")
    assert "memdir-nb demo" in out
    assert f"MEMDIR_NB_DIR={shell_word(REPO / 'demo_memory')}" in out


def test_make_lab_opens_the_dir_named_by_memdir_nb_dir(tmp_path: Path) -> None:
    out = dry_run("lab", env_dir=str(tmp_path))
    assert f"MEMDIR_NB_DIR={shell_word(tmp_path)}" in out
    assert f"MEMDIR_NB_DIR={shell_word(REPO / 'demo_memory')}" not in out


def test_make_lab_opens_a_dir_whose_path_holds_a_space(tmp_path: Path) -> None:
    # $(abspath ...) splits at spaces: "/x/my memory" was handed on as "/x/my <checkout>/memory"
    mine = tmp_path / "my memory"
    assert f"MEMDIR_NB_DIR={shell_word(mine)}" in dry_run("lab", env_dir=str(mine))
    assert f"MEMDIR_NB_DIR={shell_word(REPO / 'my memory')}" in dry_run("lab", env_dir="my memory")


def test_make_lab_starts_its_kernels_in_utf8_mode_whatever_the_locale() -> None:
    # Under LC_ALL=C or a bare LANG=en_US (Latin-1) a kernel read "café.md" as another name
    line = next(x for x in dry_run("lab").splitlines() if "jupyter lab" in x)
    assert "PYTHONUTF8=1 " in line.split("jupyter lab", 1)[0]


def test_make_lab_does_not_load_the_classic_notebook_shim() -> None:
    # fresh38: loading notebook_shim read the server's deprecated ServerApp.token, and every
    # `make lab` printed "DeprecationWarning: ServerApp.token config is deprecated"
    command = dry_run("lab").split("jupyter lab", 1)[1].split(";", 1)[0]
    assert "--ServerApp.jpserver_extensions=notebook_shim=False" in command


def test_make_test_runs_the_notebooks_with_their_caches_outside_home() -> None:
    # a read-only HOME made the kernels warn that ~/.cache and ~/.config/matplotlib could not
    # be written, and nbval counted the warnings as changed output (fresh28)
    recipe = dry_run("test").split("if ls notebooks", 1)[1].split("\nfi", 1)[0]
    before, after = recipe.split("--nbval", 1)
    assert 'MEMDIR_NB_CACHE_DIR="$scratch/cache"' in before
    assert 'MPLCONFIGDIR="$scratch/matplotlib"' in before
    # IPython's profile dir too: a HOME it cannot write left two temp dirs a kernel in /tmp
    assert 'IPYTHONDIR="$scratch/ipython"' in before
    assert 'rm -rf "$scratch"; exit $status' in after


# --------------------------------------------------------------------------- Lab works on copies (branch doctor)


def test_make_lab_serves_copies_not_the_committed_notebooks() -> None:
    out = dry_run("lab")
    assert f"--ServerApp.root_dir={shell_word(REPO / 'lab')}" in out
    assert "notebooks/00_tour.ipynb" not in out.split("jupyter lab", 1)[1]


def test_make_lab_prints_a_url_that_opens_the_tour() -> None:
    out = dry_run("lab")
    assert "/lab/tree/00_tour.ipynb?token=" in out
    assert "--LabApp.default_url=/lab/tree/00_tour.ipynb" in out


def test_lab_copy_leaves_notebooks_untouched_and_keeps_edited_copies(tmp_path: Path) -> None:
    import hashlib

    def digest() -> dict[str, str]:
        return {
            p.name: hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((REPO / "notebooks").glob("*.ipynb"))
        }

    before = digest()
    lab = tmp_path / "lab"

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["make", "-s", "lab-copy", f"LAB_DIR={lab}"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
        )

    assert run().returncode == 0
    assert sorted(p.name for p in lab.glob("*.ipynb")) == sorted(before)
    assert (lab / "data" / "sample_transcript.jsonl").is_file()
    tour = lab / "00_tour.ipynb"
    tour.write_text(tour.read_text() + " ")  # what running cells in Lab does: the copy changes
    edited = tour.read_text()
    assert run().returncode == 0
    assert tour.read_text() == edited  # an edited copy is newer than the source: kept
    assert digest() == before  # the committed notebooks nbval checks are untouched


# --------------------------------------------------------------------------- a checkout at any path (fresh29)

ODD_FOLDER = "it's $HOME `touch ran` dir"  # a quote, a variable and a command, each a word


def _checkout_at(parent: Path, folder: str = ODD_FOLDER) -> Path:
    """A checkout at parent/folder/memdir_nb (by default a path holding a space, a quote, `$HOME`
    and a backquoted command): the Makefile copied in, the notebooks linked (lab-copy reads
    them)."""
    checkout = parent / folder / "memdir_nb"
    checkout.mkdir(parents=True)
    (checkout / "Makefile").write_bytes((REPO / "Makefile").read_bytes())
    (checkout / "notebooks").symlink_to(REPO / "notebooks")
    return checkout


def _make(checkout: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "-s", *args], cwd=checkout, capture_output=True, text=True, timeout=120
    )


def test_make_clean_at_a_path_with_a_space_removes_only_its_own_folders(tmp_path: Path) -> None:
    # unquoted, "<tmp>/my work/memdir_nb/demo_memory" was two paths: rm -rf removed "<tmp>/my",
    # a folder of someone else's (fresh29 lost one that way). Only a space here: were the
    # recipe unquoted again, a `$HOME` in the path would be handed to rm -rf as the home.
    checkout = _checkout_at(tmp_path, "my work")
    decoy = tmp_path / "my"
    decoy.mkdir()
    (decoy / "keep.txt").write_text("someone else's\n", "utf-8")
    for folder in ("demo_memory", "lab"):
        (checkout / folder).mkdir()

    done = _make(checkout, "clean")

    assert done.returncode == 0, done.stderr
    assert (decoy / "keep.txt").read_text("utf-8") == "someone else's\n"
    assert not (checkout / "demo_memory").exists() and not (checkout / "lab").exists()


def test_lab_copy_at_a_path_with_dollar_and_backquotes_copies_there_and_runs_nothing(
    tmp_path: Path,
) -> None:
    # in double quotes the shell expanded $HOME and ran the backquoted command: the copies went
    # to "<tmp>/it's /root  dir/memdir_nb/lab" and `touch ran` ran in the checkout
    checkout = _checkout_at(tmp_path)

    done = _make(checkout, "lab-copy")

    assert done.returncode == 0, done.stderr
    assert (checkout / "lab" / "00_tour.ipynb").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == [ODD_FOLDER]
    assert not (checkout / "ran").exists()
    assert f"copies in {checkout}/lab;" in done.stdout


# --------------------------------------------------------------------------- a pull after an edit (fresh30)


def _checkout_with_own_notebooks(parent: Path) -> Path:
    """A checkout whose notebooks/ is a real copy, so a test can play a `git pull` on it."""
    checkout = parent / "checkout"
    checkout.mkdir()
    (checkout / "Makefile").write_bytes((REPO / "Makefile").read_bytes())
    (checkout / "notebooks").mkdir()
    for src in (REPO / "notebooks").glob("*.ipynb"):
        (checkout / "notebooks" / src.name).write_bytes(src.read_bytes())
    data = checkout / "notebooks" / "data"
    data.mkdir()
    (data / "sample_transcript.jsonl").write_bytes(
        (REPO / "notebooks" / "data" / "sample_transcript.jsonl").read_bytes()
    )
    return checkout


def _pull(path: Path, text: str) -> None:
    """What `git pull` does to a file it changes: new bytes, mtime = now (here an hour ahead,
    so the test does not depend on the file system's mtime resolution)."""
    path.write_text(text, "utf-8")
    later = path.stat().st_mtime + 3600
    os.utime(path, (later, later))


def test_lab_copy_keeps_an_edited_copy_when_a_pull_brings_a_new_committed_notebook(
    tmp_path: Path,
) -> None:
    # the mtime rule ("copy when the committed notebook is newer") took a pull's fresh mtime for
    # "the copy was never edited" and wrote the committed notebook over a person's work
    checkout = _checkout_with_own_notebooks(tmp_path)
    assert _make(checkout, "lab-copy").returncode == 0
    copy = checkout / "lab" / "00_tour.ipynb"
    copy.write_text(copy.read_text("utf-8") + "\n", "utf-8")  # a person ran cells and saved
    edited = copy.read_bytes()
    _pull(checkout / "notebooks" / "00_tour.ipynb", '{"cells": [], "pulled": true}\n')

    done = _make(checkout, "lab-copy")

    assert done.returncode == 0, done.stderr
    assert copy.read_bytes() == edited
    assert "kept" in done.stdout and "00_tour.ipynb, which you edited" in done.stdout
    copy.unlink()  # "deleting it brings back the committed version" (README)
    assert _make(checkout, "lab-copy").returncode == 0
    assert copy.read_text("utf-8") == '{"cells": [], "pulled": true}\n'


def test_lab_copy_brings_a_pulled_notebook_into_a_copy_nobody_edited(tmp_path: Path) -> None:
    checkout = _checkout_with_own_notebooks(tmp_path)
    assert _make(checkout, "lab-copy").returncode == 0
    _pull(checkout / "notebooks" / "03_selection.ipynb", '{"cells": [], "pulled": 3}\n')
    _pull(checkout / "notebooks" / "data" / "sample_transcript.jsonl", '{"pulled": 1}\n')

    done = _make(checkout, "lab-copy")

    assert done.returncode == 0, done.stderr
    lab = checkout / "lab"
    assert (lab / "03_selection.ipynb").read_text("utf-8") == '{"cells": [], "pulled": 3}\n'
    assert (lab / "data" / "sample_transcript.jsonl").read_text("utf-8") == '{"pulled": 1}\n'


def test_lab_copy_keeps_an_edited_data_file_the_notebooks_read(tmp_path: Path) -> None:
    # `cp -R notebooks/data/. lab/data/` wrote every data file over the copy on each `make lab`
    checkout = _checkout_with_own_notebooks(tmp_path)
    assert _make(checkout, "lab-copy").returncode == 0
    mine = checkout / "lab" / "data" / "sample_transcript.jsonl"
    mine.write_text('{"my": "own transcript"}\n', "utf-8")

    done = _make(checkout, "lab-copy")

    assert done.returncode == 0, done.stderr
    assert mine.read_text("utf-8") == '{"my": "own transcript"}\n'


def test_make_clean_keeps_a_lab_folder_holding_a_notebook_a_person_made(tmp_path: Path) -> None:
    # JupyterLab's file browser opens at lab/, so File > New > Notebook saves there; `rm -rf lab`
    # deleted that work with the copies
    checkout = _checkout_with_own_notebooks(tmp_path)
    assert _make(checkout, "lab-copy").returncode == 0
    mine = checkout / "lab" / "Untitled.ipynb"
    mine.write_text('{"cells": [], "mine": true}\n', "utf-8")

    done = _make(checkout, "clean")

    assert done.returncode == 0, done.stderr
    assert mine.read_text("utf-8") == '{"cells": [], "mine": true}\n'
    assert "Untitled.ipynb" in done.stdout


def test_make_clean_removes_a_lab_folder_of_unedited_copies(tmp_path: Path) -> None:
    checkout = _checkout_with_own_notebooks(tmp_path)
    assert _make(checkout, "lab-copy").returncode == 0
    checkpoints = checkout / "lab" / ".ipynb_checkpoints"  # what opening a notebook in Lab makes
    checkpoints.mkdir()
    (checkpoints / "00_tour-checkpoint.ipynb").write_bytes(
        (checkout / "lab" / "00_tour.ipynb").read_bytes()
    )

    done = _make(checkout, "clean")

    assert done.returncode == 0, done.stderr
    assert not (checkout / "lab").exists()


# --------------------------------------------------------------------------- the demo dir a person wrote in (keep35)


def _checkout_with_demo(parent: Path) -> Path:
    """A checkout (at a path with a space, a quote, `$HOME` and a backquote) whose venv's python
    is this test's Python (memdir_nb installed), and whose demo_memory/ the builder made."""
    checkout = _checkout_at(parent)
    bin_dir = checkout / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_bytes(
        b'#!/bin/sh\nexec "' + os.fsencode(sys.executable) + b'" "$@"\n'
    )
    (bin_dir / "python").chmod(0o755)
    build_demo_memory_dir(checkout / "demo_memory")
    return checkout


def test_make_clean_keeps_a_demo_dir_holding_memories_a_person_saved_or_edited(
    tmp_path: Path,
) -> None:
    # `make lab` opens demo_memory/, so a memory saved there while trying the lab is a person's
    # work; `rm -rf demo_memory` deleted it with no word
    checkout = _checkout_with_demo(tmp_path)
    demo = checkout / "demo_memory"
    edited = next(p for p in sorted(demo.glob("*.md")) if p.name != "MEMORY.md")
    edited.write_text(edited.read_text("utf-8") + "My own note.\n", "utf-8")
    (demo / "user_my_setup.md").write_text("---\nname: my setup\n---\n\nMine.\n", "utf-8")

    done = _make(checkout, "clean")

    assert done.returncode == 0, done.stderr
    assert (demo / "user_my_setup.md").read_text("utf-8").endswith("Mine.\n")
    assert edited.read_text("utf-8").endswith("My own note.\n")
    assert f"kept {demo}: it holds files you made or edited" in done.stdout
    named = [line.strip() for line in done.stdout.splitlines() if line.startswith("  ")]
    assert named == [str(demo / edited.name), str(demo / "user_my_setup.md")]
    assert not (checkout / ".venv").exists()  # the rest of clean still ran


def test_make_clean_removes_a_demo_dir_the_builder_made_that_nobody_changed(
    tmp_path: Path,
) -> None:
    checkout = _checkout_with_demo(tmp_path)

    done = _make(checkout, "clean")

    assert done.returncode == 0, done.stderr
    assert not (checkout / "demo_memory").exists() and not (checkout / ".venv").exists()
    assert "kept" not in done.stdout


def test_make_clean_without_a_venv_keeps_a_demo_dir_it_cannot_compare(tmp_path: Path) -> None:
    checkout = _checkout_at(tmp_path, "no venv")
    build_demo_memory_dir(checkout / "demo_memory")

    done = _make(checkout, "clean")

    assert done.returncode == 0, done.stderr
    assert (checkout / "demo_memory" / "MEMORY.md").is_file()
    assert "cannot be compared with the demo the builder makes" in done.stdout


# --------------------------------------------------------------------------- a locale that is not UTF-8 (fresh31)


def _latin1_locale_env(parent: Path) -> dict[str, str]:
    """An environment whose locale is Latin-1 (glibc's en_US.ISO-8859-1, built with localedef
    into a folder of the test's: LOCPATH), beside a UTF-8 one built the same way."""
    locales = parent / "locales"
    locales.mkdir()
    for name, charset in (("en_US.ISO-8859-1", "ISO-8859-1"), ("en_US.UTF-8", "UTF-8")):
        built = subprocess.run(
            ["localedef", "-i", "en_US", "-f", charset, str(locales / name)],
            capture_output=True,
            timeout=120,
        )
        if not (locales / name).is_dir():
            pytest.skip(f"localedef could not build {name}: {built.stderr[-300:]!r}")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONUTF8"))}
    return {**env, "LOCPATH": str(locales), "LC_ALL": "en_US.ISO-8859-1"}


def test_recipes_run_under_a_utf8_locale_so_a_checkout_at_a_non_ascii_path_imports_itself(
    tmp_path: Path,
) -> None:
    # Under a Latin-1 locale Python 3.11 reads the editable install's .pth, which names the
    # checkout, as Latin-1 even in UTF-8 mode (PYTHONUTF8=1, as `make lab` starts its kernels),
    # while it opens files as UTF-8: "/…/jürgen ß/…" became "/…/jÃ¼rgen Ã\x9f/…", so nothing
    # under the checkout could be imported; and pip wrote every venv script's #! line the same
    # way (`make demo`: "exec: …/python: not found").
    env = _latin1_locale_env(tmp_path)
    # the folder's name as UTF-8 bytes, as on a person's disk, whatever this Python's locale
    checkout = _checkout_at(tmp_path, os.fsdecode("jürgen ß".encode()))
    venv = checkout / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (checkout / "src").mkdir()
    (checkout / "src" / "probe_module.py").write_text("WHERE = __file__\n", "utf-8")
    site = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    (site / "_editable_impl_probe.pth").write_bytes(bytes(checkout / "src") + b"\n")
    (checkout / "probe.mk").write_text(
        "probe:\n\t$(BIN)/python -X utf8 -c 'import probe_module; print(probe_module.WHERE)'\n",
        "utf-8",
    )

    done = subprocess.run(
        ["make", "-s", "-f", "Makefile", "-f", "probe.mk", "probe"],
        cwd=checkout,
        env=env,
        capture_output=True,
        timeout=120,
    )

    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert done.stdout.strip() == bytes(checkout / "src" / "probe_module.py")


# --------------------------------------------------------------------------- a HOME Jupyter cannot write (fresh31)


def _checkout_with_venv_stand_ins(parent: Path) -> Path:
    """A checkout whose venv is this test's Python, installed (its stamp newer than what it is
    built from), and whose `jupyter` does what Jupyter's server does first: make its runtime
    folder (jupyter_core's own rule and call) and say where it is."""
    checkout = _checkout_at(parent, "lab home")
    for name in ("pyproject.toml", "requirements-model.txt"):
        (checkout / name).write_text("", "utf-8")
        os.utime(checkout / name, (1_000_000_000, 1_000_000_000))
    bin_dir = checkout / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (checkout / ".venv" / ".installed").write_text("", "utf-8")
    first_step = (
        "from jupyter_core.paths import jupyter_runtime_dir; "
        "from jupyter_core.utils import ensure_dir_exists; "
        "ensure_dir_exists(jupyter_runtime_dir(), 0o700); print('runtime', jupyter_runtime_dir())"
    )
    python = os.fsencode(sys.executable)  # its bytes: this Python may not read names as UTF-8
    for name, script in (
        ("python", b'exec "' + python + b'" "$@"\n'),
        ("jupyter", b'exec "' + python + b'" -c "' + first_step.encode("ascii") + b'"\n'),
    ):
        (bin_dir / name).write_bytes(b"#!/bin/sh\n" + script)
        (bin_dir / name).chmod(0o755)
    return checkout


@pytest.mark.parametrize("home", ["unwritable", "writable"])
def test_make_lab_starts_jupyter_when_home_cannot_hold_its_runtime_folder(
    tmp_path: Path, home: str
) -> None:
    # fresh31: under a read-only HOME `make lab` stopped at once: "OSError: [Errno 30]
    # Read-only file system: '<HOME>/.local'" (the server's runtime folder)
    checkout = _checkout_with_venv_stand_ins(tmp_path)
    memory = tmp_path / "memory"
    memory.mkdir()
    home_dir = Path("/dev/null/home") if home == "unwritable" else tmp_path / "home"  # even root
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER_", "XDG_", "MEMDIR_NB_"))
    }
    env.update(HOME=str(home_dir), MEMDIR_NB_DIR=str(memory), LAB_PORT=str(free_port()))

    done = subprocess.run(
        ["make", "-s", "lab"], cwd=checkout, env=env, capture_output=True, text=True, timeout=120
    )

    assert done.returncode == 0, done.stderr
    runtime = Path(done.stdout.split("runtime ", 1)[1].splitlines()[0])
    if home == "unwritable":
        assert "Jupyter cannot make its runtime folder under HOME" in done.stdout
        assert not runtime.is_relative_to(home_dir)
        assert not runtime.exists()  # the run's own folder is removed when the lab stops
    else:
        assert "Jupyter cannot make" not in done.stdout
        assert runtime.is_relative_to(home_dir) and runtime.is_dir()


def _lab_with_dir(
    checkout: Path, home: Path, memdir: str, *, port: int | None = None
) -> subprocess.CompletedProcess[str]:
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER_", "XDG_", "MEMDIR_NB_"))
    }
    env.update(HOME=str(home), MEMDIR_NB_DIR=memdir, LAB_PORT=str(port or free_port()))
    return subprocess.run(
        ["make", "-s", "lab"], cwd=checkout, env=env, capture_output=True, text=True, timeout=120
    )


def test_make_lab_reads_a_quoted_tilde_in_memdir_nb_dir_as_the_notebooks_do(
    tmp_path: Path,
) -> None:
    # fresh32: MEMDIR_NB_DIR='~/memory' (quoted, so no shell expanded it) was checked as the
    # folder `~/memory` here and refused as "not a directory", and would have reached the
    # kernels as <checkout>/~/memory; the notebooks read `~/` as HOME
    checkout = _checkout_with_venv_stand_ins(tmp_path)
    home = tmp_path / "home"
    (home / "memory").mkdir(parents=True)

    done = _lab_with_dir(checkout, home, "~/memory")

    assert done.returncode == 0, done.stdout + done.stderr
    assert "opening ~/memory" in done.stdout
    assert f"MEMDIR_NB_DIR={shell_word('~/memory')}" in dry_run("lab", env_dir="~/memory")


def test_make_lab_says_a_tilde_it_cannot_expand_was_taken_literally_with_the_fix(
    tmp_path: Path,
) -> None:
    checkout = _checkout_with_venv_stand_ins(tmp_path)
    home = tmp_path / "home"
    home.mkdir()

    missing = _lab_with_dir(checkout, home, "~/memory")
    literal = _lab_with_dir(checkout, home, "~sam/memory")

    assert missing.returncode == 2
    assert f"is not a directory ({home / 'memory'})" in missing.stdout
    assert literal.returncode == 2
    assert "it was taken literally, as a folder named '~sam' here" in literal.stdout
    assert "give the full path, or leave the ~ unquoted so the shell expands it" in literal.stdout


# --------------------------------------------------------------------------- a taken port (fresh40)


def test_make_lab_stops_before_printing_a_url_when_its_port_is_taken(tmp_path: Path) -> None:
    # fresh40: with another Jupyter on the port (8888 is everyone's default), `make lab` printed
    # "The tour: http://127.0.0.1:8888/...?token=..." (the other server's address, with a token
    # it does not know), started Jupyter, and only then did Jupyter refuse: "port 8888 is not
    # available", with no word of LAB_PORT.
    checkout = _checkout_with_venv_stand_ins(tmp_path)
    memory = tmp_path / "memory"
    memory.mkdir()
    with socket.socket() as held:
        held.bind(("127.0.0.1", free_port()))
        held.listen()
        port = held.getsockname()[1]
        done = _lab_with_dir(checkout, tmp_path / "home", str(memory), port=port)

    assert done.returncode == 2, done.stdout + done.stderr
    assert f"port {port} on 127.0.0.1 is taken" in done.stdout
    assert "LAB_PORT=" in done.stdout
    assert "The tour:" not in done.stdout
    assert "runtime" not in done.stdout  # the stand-in jupyter never ran
