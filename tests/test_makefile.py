"""The README's front door: what `make lab` would run, checked with `make -n` (nothing executes)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

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


def test_make_test_runs_the_notebooks_with_their_caches_outside_home() -> None:
    # a read-only HOME made the kernels warn that ~/.cache and ~/.config/matplotlib could not
    # be written, and nbval counted the warnings as changed output (fresh28)
    recipe = dry_run("test").split("if ls notebooks", 1)[1].split("\nfi", 1)[0]
    before, after = recipe.split("--nbval", 1)
    assert 'MEMDIR_NB_CACHE_DIR="$scratch/cache"' in before
    assert 'MPLCONFIGDIR="$scratch/matplotlib"' in before
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
