"""Attack round 9: hostile names and records, each tried through every route that takes them.

docs/security.md section 15 holds the class x route table these tests fill in. Each test states
the rule; the attack data is written here, in these tests' own words.
"""

from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
import zipfile
from pathlib import Path

import pytest

from memdir_nb.dream import (
    PlanAction,
    PlanError,
    WriteFile,
    apply_plan,
    plan_consolidation,
    restore,
)
from memdir_nb.dream.apply import RestoreError
from memdir_nb.extract import ToolRunner, can_use_tool
from memdir_nb.extract.sandbox import write_name_problem
from memdir_nb.formats.names import name_problem
from memdir_nb.lint import lint_memory_dir
from memdir_nb.storage.archive import export_archive, import_archive
from memdir_nb.storage.rebuild import rebuild_index
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.store_checks import MemoryValidationError
from memdir_nb.toolloop.memory_commands import MemoryDirBackend
from memdir_nb.toolloop.memory_text import MemoryCommandError
from tests.support.child_env import child_env

NOW_MS = 1_790_000_000_000.0
MEMORY = "---\nname: {n}\ndescription: a memory about {n}\ntype: user\n---\nbody of {n}\n"


def _memory(name: str) -> str:
    return MEMORY.format(n=name)


# ------------------------------------------------------------- folders with an angle bracket

ANGLE_FOLDER = "x<img src=y>"


def test_a_folder_named_with_an_angle_bracket_is_skipped_by_the_listing_routes(
    tmp_path: Path,
) -> None:
    # The gate refused '<' in a memory's folder, but the listing walked such a folder, so its
    # memory was scanned, and rebuild-index and the dream plan then failed for the whole dir
    # (an index link cannot point into it).
    (tmp_path / ANGLE_FOLDER).mkdir()
    (tmp_path / ANGLE_FOLDER / "user_a.md").write_text(_memory("a"), encoding="utf-8")
    (tmp_path / "user_b.md").write_text(_memory("b"), encoding="utf-8")
    report = scan_memory_dir(tmp_path)
    assert [h.filename for h in report.headers] == ["user_b.md"]
    assert any("angle bracket" in s.reason for s in report.skipped)
    rebuilt = rebuild_index(tmp_path, write=False)
    assert "user_b.md" in rebuilt and ANGLE_FOLDER not in rebuilt
    assert plan_consolidation(tmp_path, now_ms=NOW_MS) is not None
    found = lint_memory_dir(tmp_path, now_ms=NOW_MS, progress=False)
    assert any(f.rule == "skipped-by-scan" and "angle bracket" in f.message for f in found)


def test_a_folder_named_with_an_angle_bracket_is_refused_by_the_memory_tool(
    tmp_path: Path,
) -> None:
    tool = MemoryDirBackend(tmp_path)
    tool.create("/memories/notes/user_a.md", _memory("a"))
    with pytest.raises(MemoryCommandError, match="angle bracket"):
        tool.rename("/memories/notes", f"/memories/{ANGLE_FOLDER}")
    assert (tmp_path / "notes" / "user_a.md").is_file()
    assert not (tmp_path / ANGLE_FOLDER).exists()


def test_a_folder_named_with_an_angle_bracket_is_refused_by_archive_import(
    tmp_path: Path,
) -> None:
    archive = tmp_path / "in.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(f"{ANGLE_FOLDER}/user_a.md", _memory("a"))
        zf.writestr("user_b.md", _memory("b"))
    mem = tmp_path / "mem"
    report = import_archive(archive, mem)
    assert report.written == ["user_b.md"]
    assert [r.name for r in report.refused] == [f"{ANGLE_FOLDER}/user_a.md"]
    assert "angle bracket" in report.refused[0].reason
    assert not (mem / ANGLE_FOLDER).exists()


# ---------------------------------------- attack round 11: characters that show as nothing

# Each shows as nothing (or a blank) in a browser, a file manager or a terminal, so the name
# displays exactly as `user_a.md`; round 5 refused four of them (U+200B, U+2060, U+FEFF, U+180E).
SHOWN_AS_NOTHING = {
    "soft hyphen": "\u00ad",
    "combining grapheme joiner": "\u034f",
    "Hangul filler": "\u3164",
    "halfwidth Hangul filler": "\uffa0",
    "invisible times": "\u2062",
    "tag letter a": "\U000e0061",
    "Khmer inherent vowel": "\u17b4",
    # attack37: kept for the scripts and emoji that need them, but beside an ASCII character
    # no script joins nor varies: `user_a<U+200D>.md` was a second `user_a.md` in every listing
    "zero-width joiner": "\u200d",
    "zero-width non-joiner": "\u200c",
    "emoji variation selector": "\ufe0f",
    "ideographic variation selector": "\U000e0100",
    "Mongolian free variation selector": "\u180b",
}


@pytest.mark.parametrize("hidden", SHOWN_AS_NOTHING.values(), ids=SHOWN_AS_NOTHING.keys())
def test_a_name_holding_a_character_that_shows_as_nothing_is_refused_by_every_route(
    tmp_path: Path, hidden: str
) -> None:
    name = f"user_a{hidden}.md"
    code = f"U+{ord(hidden):04X}"
    (tmp_path / name).write_text(_memory("twin"), encoding="utf-8")
    (tmp_path / "user_a.md").write_text(_memory("a"), encoding="utf-8")
    report = scan_memory_dir(tmp_path)
    assert [h.filename for h in report.headers] == ["user_a.md"]
    assert any(code in s.reason for s in report.skipped)
    tool = MemoryDirBackend(tmp_path)
    with pytest.raises(MemoryCommandError, match=re.escape(code)):
        tool.create(f"/memories/user_b{hidden}.md", _memory("b"))
    assert not (tmp_path / f"user_b{hidden}.md").exists()
    archive = tmp_path / "in.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(f"user_c{hidden}.md", _memory("c"))
    assert [r.name for r in import_archive(archive, tmp_path / "mem").refused] == [
        f"user_c{hidden}.md"
    ]


@pytest.mark.parametrize(
    "name",
    [
        "user_\U0001f469\u200d\U0001f4bb.md",  # a joiner inside an emoji: woman technologist
        "user_1\ufe0f\u20e3.md",  # a variation selector in a keycap: 1️⃣
        "user_\u0915\u094d\u200d\u0937.md",  # a joiner in Devanagari: a half form
        "user_\u2764\ufe0f.md",  # a variation selector: the red heart emoji
        "user_\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f.md",  # England
        "user_\u0645\u200c\u06cc.md",  # a non-joiner in Persian
        "user_\u845b\U000e0100.md",  # an ideographic variation selector
        "user_\u1820\u180b.md",  # a Mongolian free variation selector after a Mongolian letter
    ],
)
def test_characters_that_scripts_and_emoji_need_still_pass_the_gate(name: str) -> None:
    assert name_problem(name) is None


# --------------------------------------- attack round 12: names Windows opens as a device

DEVICE_NAMES = ["con.md", "NUL.md", "com1.md", "lpt9.md", "Aux.old.md", "prn .md"]


def test_a_windows_device_name_is_refused_by_every_route_that_names_a_file(
    tmp_path: Path,
) -> None:
    # A memory dir is shared across machines; on Windows `con.md` opens the console, not a file.
    for name in DEVICE_NAMES[:3]:
        (tmp_path / name).write_text(_memory(name), encoding="utf-8")
    (tmp_path / "user_a.md").write_text(_memory("a"), encoding="utf-8")
    report = scan_memory_dir(tmp_path)
    assert [h.filename for h in report.headers] == ["user_a.md"]
    assert sum("Windows device name" in s.reason for s in report.skipped) == 3
    tool = MemoryDirBackend(tmp_path / "tool")
    tool.create("/memories/user_a.md", _memory("a"))
    for name in DEVICE_NAMES:
        with pytest.raises(MemoryCommandError, match="Windows device name"):
            tool.create(f"/memories/{name}", _memory("b"))
    with pytest.raises(MemoryCommandError, match="Windows device name LPT9"):
        tool.rename("/memories/user_a.md", "/memories/lpt9.md")
    assert sorted(p.name for p in (tmp_path / "tool").glob("*.md")) == ["user_a.md"]
    with pytest.raises(MemoryCommandError, match="Windows device name AUX"):
        tool.create("/memories/aux/user_b.md", _memory("b"))
    with pytest.raises(MemoryValidationError, match="Windows device name PRN"):
        MemoryStore(tmp_path).save("Printer", "the printer notes", "user", "x", filename="prn.md")
    assert write_name_problem("team/nul.md") is not None
    archive = tmp_path / "in.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("CON.md", _memory("c"))
        zf.writestr("lpt1/user_c.md", _memory("c"))
    assert len(import_archive(archive, tmp_path / "mem").refused) == 2
    assert not (tmp_path / "prn.md").exists() and not (tmp_path / "mem" / "lpt1").exists()


def test_a_name_that_displays_as_a_team_path_is_refused_by_scan_and_the_memory_tool(
    tmp_path: Path,
) -> None:
    # `team<U+2215>user_a.md` is a private memory whose name shows as `team/user_a.md`
    spoof = "team\u2215user_a.md"
    (tmp_path / spoof).write_text(_memory("spoof"), encoding="utf-8")
    report = scan_memory_dir(tmp_path)
    assert report.headers == [] and "looks like a slash" in report.skipped[0].reason
    with pytest.raises(MemoryCommandError, match="U\\+2044"):
        MemoryDirBackend(tmp_path / "tool").create("/memories/team\u2044b.md", _memory("b"))


# -------------------------------- attack round 27: team/ in other letter case is not private

# macOS and Windows file systems ignore letter case, so `TEAM/` and `Team/` there are the team
# folder, shared with everyone in the project; here they were a private folder, where a
# credential is only warned about. A memory dir synced across machines (or memdir_nb run on a
# Mac, where the path as written is not resolved to team/) put a secret into team memory.
TEAM_CASES = ["TEAM", "Team", "tEaM"]
SECRET_BODY = "token: ghp_" + "A1b2C3d4E5f6G7h8I9j0" + "K1l2M3n4O5p6Q7r8"


@pytest.mark.parametrize("folder", TEAM_CASES)
def test_the_team_folder_in_other_letter_case_is_refused_by_every_route(
    tmp_path: Path, folder: str
) -> None:
    tool = MemoryDirBackend(tmp_path / "tool")
    with pytest.raises(MemoryCommandError, match="letter case"):
        tool.create(f"/memories/{folder}/reference_creds.md", _memory("c") + SECRET_BODY)
    tool.create("/memories/notes/user_a.md", _memory("a"))
    with pytest.raises(MemoryCommandError, match="letter case"):
        tool.rename("/memories/notes", f"/memories/{folder}")
    assert not (tmp_path / "tool" / folder).exists()
    assert write_name_problem(f"{folder}/user_b.md") is not None
    assert write_name_problem(f"notes/{folder}/user_b.md") is None  # only the top folder is team/
    archive = tmp_path / "in.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(f"{folder}/user_c.md", _memory("c"))
        zf.writestr("team/user_d.md", _memory("d"))
    report = import_archive(archive, tmp_path / "mem")
    assert report.written == ["team/user_d.md"]
    assert [r.name for r in report.refused] == [f"{folder}/user_c.md"]
    listed = tmp_path / "listed"
    (listed / folder).mkdir(parents=True)
    (listed / folder / "user_e.md").write_text(_memory("e"), encoding="utf-8")
    (listed / "user_f.md").write_text(_memory("f"), encoding="utf-8")
    scanned = scan_memory_dir(listed)
    assert [h.filename for h in scanned.headers] == ["user_f.md"]
    assert "letter case" in scanned.skipped[0].reason


LOGS_CASES = ["LOGS", "Logs"]


@pytest.mark.parametrize("folder", LOGS_CASES)
def test_the_logs_folder_in_other_letter_case_is_refused_by_every_route(
    tmp_path: Path, folder: str
) -> None:
    """attack45 (§68): where names ignore case (macOS, Windows), `Logs/` is logs/, the daily
    logs' folder no scan, recall or index shows: the memory tool said it saved a memory there,
    and an archive's `Logs/` memories arrived where nothing would find them again."""
    tool = MemoryDirBackend(tmp_path / "tool")
    with pytest.raises(MemoryCommandError, match="logs/ in other letter case"):
        tool.create(f"/memories/{folder}/user_a.md", _memory("a"))
    tool.create("/memories/notes/user_b.md", _memory("b"))
    with pytest.raises(MemoryCommandError, match="letter case"):
        tool.rename("/memories/notes", f"/memories/{folder}")
    assert not (tmp_path / "tool" / folder).exists()
    assert write_name_problem(f"{folder}/user_c.md") is not None  # the extractor's writes
    archive = tmp_path / "in.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(f"{folder}/user_d.md", _memory("d"))
        zf.writestr("user_e.md", _memory("e"))
    report = import_archive(archive, tmp_path / "mem")
    assert report.written == ["user_e.md"]
    assert [r.name for r in report.refused] == [f"{folder}/user_d.md"]
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "memdir_nb.cli",
            "import",
            str(archive),
            "--dir",
            str(tmp_path / "cli"),
        ],
        capture_output=True,
        text=True,
        env=child_env(HOME=str(tmp_path)),
        timeout=180,
    )
    assert out.returncode == 1 and "logs/ in other letter case" in out.stdout, out.stdout
    assert not (tmp_path / "cli" / folder).exists()
    listed = tmp_path / "listed"
    (listed / folder).mkdir(parents=True)
    (listed / folder / "user_f.md").write_text(_memory("f"), encoding="utf-8")
    scanned = scan_memory_dir(listed)
    assert scanned.headers == [] and "letter case" in scanned.skipped[0].reason


# ------------------------------------------- class: two names that differ only by NFC and NFD


def test_names_differing_only_by_nfc_and_nfd_stay_two_files_on_every_route(tmp_path: Path) -> None:
    """On Linux `café` composed and decomposed are two names, and no route merges them or
    reads one while naming the other (attack round 28): the scan keeps both, the index lists
    each under its own bytes, the memory tool reads the one it was given. On macOS they are
    one file; a create of the twin there is refused by the link that publishes it ("already
    exists"), so nothing is overwritten (docs/security.md section 35)."""
    composed = unicodedata.normalize("NFC", "project_café.md")
    decomposed = unicodedata.normalize("NFD", "project_café.md")
    assert composed != decomposed and name_problem(composed) is None
    assert name_problem(decomposed) is None
    for name, word in ((composed, "composed"), (decomposed, "decomposed")):
        (tmp_path / name).write_text(
            f"---\nname: {word}\ndescription: {word} one\ntype: project\n---\n{word} body\n",
            encoding="utf-8",
        )
    headers = {h.filename: h.name for h in scan_memory_dir(tmp_path).headers}
    assert headers == {composed: "composed", decomposed: "decomposed"}
    index = rebuild_index(tmp_path, write=False)
    assert f"[composed]({composed})" in index and f"[decomposed]({decomposed})" in index
    tool = MemoryDirBackend(tmp_path)
    assert "decomposed body" in tool.view(f"/memories/{decomposed}")
    assert "decomposed body" not in tool.view(f"/memories/{composed}")


COMPOSED = unicodedata.normalize("NFC", "project_café.md")
DECOMPOSED = unicodedata.normalize("NFD", COMPOSED)
TWIN_TEXT = (
    "---\nname: cafe\ndescription: the cafe the team meets in on Fridays\ntype: project\n---\n"
    "Fridays.\n\n**Why:** quiet.\n\n**How to apply:** book it.\n"
)
TWIN_WORDS = r"differ only in Unicode normalisation.*on macOS they are one file"


def _visible(root: Path) -> list[str]:
    return sorted(
        ascii(p.relative_to(root).as_posix())
        for p in root.rglob("*")
        if not any(part.startswith(".") for part in p.relative_to(root).parts)
    )


@pytest.mark.parametrize(
    ("there", "sent"),
    [(COMPOSED, DECOMPOSED), (DECOMPOSED, COMPOSED)],
    ids=["nfd-sent-for-nfc", "nfc-sent-for-nfd"],
)
def test_the_memory_tool_takes_a_path_in_the_other_normal_form_for_the_file_there(
    tmp_path: Path, there: str, sent: str
) -> None:
    """attack34: a model reads a listing of `café` as macOS wrote it (decomposed) and sends it
    back composed, as it types accents. `view` said "does not exist" and `create` made a
    second file that every answer showed under the first's name (one file on macOS). Now a
    path there in no form as sent is taken in the form the dir holds, as macOS opens it."""
    root = tmp_path / "mem"
    root.mkdir()
    (root / there).write_text(TWIN_TEXT, encoding="utf-8")
    (root / "project_other.md").write_text(TWIN_TEXT, encoding="utf-8")
    tool = MemoryDirBackend(root)
    before = _visible(root)
    with pytest.raises(MemoryCommandError, match="already exists"):
        tool.create(f"/memories/{sent}", TWIN_TEXT)
    with pytest.raises(MemoryCommandError, match="already exists"):
        tool.rename("/memories/project_other.md", f"/memories/{sent}")
    assert _visible(root) == before
    assert "Fridays." in tool.view(f"/memories/{sent}")
    tool.str_replace(f"/memories/{sent}", "Fridays.", "Fridays at ten.")
    assert "Fridays at ten." in (root / there).read_text(encoding="utf-8")
    tool.delete(f"/memories/{sent}")
    assert not (root / there).exists() and not (root / sent).exists()


def test_the_memory_tool_makes_no_name_that_is_another_normal_form_of_one_there(
    tmp_path: Path,
) -> None:
    """A name sent in ASCII is taken as sent; beside the Kelvin sign's `\u212a`, which is `K`
    after NFC, it is refused by the twin rule, both spellings escaped."""
    root = tmp_path / "mem"
    root.mkdir()
    there, made = "project_\u212ailn.md", "project_Kiln.md"
    (root / there).write_text(TWIN_TEXT, encoding="utf-8")
    (root / "project_other.md").write_text(TWIN_TEXT, encoding="utf-8")
    tool = MemoryDirBackend(root)
    before = _visible(root)
    with pytest.raises(MemoryCommandError, match=TWIN_WORDS) as refused:
        tool.create(f"/memories/{made}", TWIN_TEXT)
    assert "project_\\u212ailn.md" in str(refused.value)
    with pytest.raises(MemoryCommandError, match=TWIN_WORDS):
        tool.rename("/memories/project_other.md", f"/memories/{made}")
    assert _visible(root) == before


def test_the_memory_tool_takes_a_folder_in_the_other_normal_form_for_the_one_there(
    tmp_path: Path,
) -> None:
    root = tmp_path / "mem"
    folder = unicodedata.normalize("NFC", "café")
    (root / folder).mkdir(parents=True)
    (root / "notes").mkdir()
    (root / "notes" / "project_b.md").write_text(TWIN_TEXT, encoding="utf-8")
    tool = MemoryDirBackend(root)
    other = unicodedata.normalize("NFD", folder)
    tool.create(f"/memories/{other}/project_c.md", TWIN_TEXT)  # into the folder there
    assert (root / folder / "project_c.md").is_file() and not (root / other).exists()
    with pytest.raises(MemoryCommandError, match="already exists"):
        tool.rename("/memories/notes", f"/memories/{other}")
    assert (root / "notes" / "project_b.md").is_file()


def test_store_save_makes_no_filename_that_is_another_normal_form_of_one_there(
    tmp_path: Path,
) -> None:
    (tmp_path / COMPOSED).write_text(TWIN_TEXT, encoding="utf-8")
    before = _visible(tmp_path)
    store = MemoryStore(tmp_path)
    with pytest.raises(MemoryValidationError, match=f"{TWIN_WORDS}.*nothing was written"):
        store.save(
            "cafe two",
            "where the team meets on Mondays",
            "project",
            "Mondays.\n\n**Why:** x.\n\n**How to apply:** y.",
            filename=DECOMPOSED,
        )
    assert _visible(tmp_path) == before


@pytest.mark.parametrize("verb", ["promote", "demote"])
def test_promote_and_demote_make_no_name_that_is_another_normal_form_of_one_there(
    tmp_path: Path, verb: str
) -> None:
    # attack40: the store's save refused the twin (§42), but a promote of project_café.md
    # (composed) into a team/ holding it decomposed moved it in beside it; a demote the same
    (tmp_path / "team").mkdir()
    mover, there = (COMPOSED, DECOMPOSED) if verb == "promote" else (DECOMPOSED, COMPOSED)
    src, dst = (tmp_path, tmp_path / "team") if verb == "promote" else (tmp_path / "team", tmp_path)
    (src / mover).write_text(TWIN_TEXT, encoding="utf-8")
    (dst / there).write_text(TWIN_TEXT, encoding="utf-8")
    before = _visible(tmp_path)
    store = MemoryStore(tmp_path)
    name = mover if verb == "promote" else f"team/{mover}"
    with pytest.raises(MemoryValidationError, match=f"{TWIN_WORDS}.*rename or forget one"):
        getattr(store, verb)(name)
    assert _visible(tmp_path) == before


@pytest.mark.parametrize("route", ["restore", "restore --dry-run", "memdir-nb restore"])
def test_restore_puts_back_no_name_beside_its_twin_in_another_normal_form(
    tmp_path: Path, route: str
) -> None:
    # attack40: a memory tool delete of project_café.md (composed), then a create of the same
    # name decomposed, then `restore` of the delete: both were there, as two files one name
    root = tmp_path / "mem"
    tool = MemoryDirBackend(root)
    tool.create(f"/memories/{COMPOSED}", TWIN_TEXT)
    tool.delete(f"/memories/{COMPOSED}")
    tool.create(f"/memories/{DECOMPOSED}", TWIN_TEXT)
    (batch,) = [b.name for b in (root / ".trash").iterdir()]
    before = _visible(tmp_path)
    if route == "memdir-nb restore":
        out = subprocess.run(
            [sys.executable, "-m", "memdir_nb.cli", "restore", str(root), batch],
            capture_output=True,
            text=True,
            env=child_env(HOME=str(tmp_path)),
            timeout=180,
        )
        assert out.returncode == 2 and re.search(TWIN_WORDS, out.stderr), out.stderr
        assert "Nothing was restored" in out.stderr
    else:
        with pytest.raises(RestoreError, match=f"{TWIN_WORDS}.*Nothing was restored"):
            restore(root, batch, dry_run=route.endswith("--dry-run"))
    assert _visible(tmp_path) == before


def _zip(path: Path, entries: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in entries.items():
            zf.writestr(name, text)
    return path


def test_import_refuses_an_entry_that_is_another_normal_form_of_a_file_or_entry_there(
    tmp_path: Path,
) -> None:
    """Import wrote the decomposed `café` beside the composed one, and both forms from one
    archive: on macOS the second is the first. Each is refused by name; the rest arrive."""
    mem = tmp_path / "mem"
    mem.mkdir()
    (mem / COMPOSED).write_text(TWIN_TEXT, encoding="utf-8")
    other = unicodedata.normalize("NFC", "user_zoë.md")
    other_nfd = unicodedata.normalize("NFD", other)
    entries = {DECOMPOSED: TWIN_TEXT, other: TWIN_TEXT, other_nfd: TWIN_TEXT}
    archive = _zip(tmp_path / "a.zip", {**entries, "project_plain.md": TWIN_TEXT})
    for dry_run in (True, False):
        report = import_archive(archive, mem, dry_run=dry_run)
        refused = {r.name: r.reason for r in report.refused}
        assert sorted(refused) == sorted([DECOMPOSED, other_nfd])
        assert all(re.search(TWIN_WORDS, why) for why in refused.values()), refused
        assert "is in the archive too" in refused[other_nfd]
    visible = sorted(p.name for p in mem.iterdir() if not p.name.startswith("."))
    assert visible == sorted([COMPOSED, other, "project_plain.md"])


def test_export_leaves_out_the_second_of_two_normal_forms_naming_it(tmp_path: Path) -> None:
    """What export packs, its import takes (§39): the second spelling is left out, named."""
    mem = tmp_path / "mem"
    mem.mkdir()
    for name in (COMPOSED, DECOMPOSED, "project_plain.md"):
        (mem / name).write_text(TWIN_TEXT, encoding="utf-8")
    report = export_archive(mem, tmp_path / "out.zip")
    with zipfile.ZipFile(tmp_path / "out.zip") as zf:
        packed = [n for n in zf.namelist() if n.endswith(".md")]
    assert sorted(packed) == sorted([DECOMPOSED, "project_plain.md"])  # NFD sorts first
    assert [rel for rel, _ in report.skipped] == [COMPOSED]
    assert re.search(TWIN_WORDS, report.skipped[0][1])
    assert import_archive(tmp_path / "out.zip", tmp_path / "fresh").refused == []


def test_the_extractor_and_a_dream_make_no_name_that_is_another_normal_form_of_one_there(
    tmp_path: Path,
) -> None:
    mem = tmp_path / "mem"
    mem.mkdir()
    (mem / COMPOSED).write_text(TWIN_TEXT, encoding="utf-8")
    before = _visible(mem)
    verdict = can_use_tool("Write", {"file_path": str(mem / DECOMPOSED), "content": "x"}, mem)
    assert not verdict.allowed and re.search(TWIN_WORDS, verdict.reason), verdict.reason
    with pytest.raises(ValueError, match=TWIN_WORDS):  # again under the lock, as for '~'
        ToolRunner(mem)._tool_write({"file_path": str(mem / DECOMPOSED), "content": "x"})
    assert can_use_tool("Write", {"file_path": str(mem / COMPOSED), "content": "x"}, mem).allowed
    plan = plan_consolidation(mem)
    plan.actions.append(
        PlanAction("t", "write", "x", (DECOMPOSED,), (WriteFile(DECOMPOSED, TWIN_TEXT),))
    )
    with pytest.raises(PlanError, match=f"{TWIN_WORDS}.*nothing was written"):
        apply_plan(plan)
    assert _visible(mem) == before
