"""home/moved_home: a moved home's former project key, the one rule for it."""

from __future__ import annotations

from pathlib import Path

from memdir_nb.formats.session_model import Session
from memdir_nb.home.moved_home import former_keys, former_keys_of_file, head_cwd
from memdir_nb.home.sessions import read_session
from memdir_nb.spec.constants import SESSION_HEAD_READ_MAX_BYTES
from tests.conftest import build_moved_home_session, build_moved_subfolder_session


def test_a_moved_homes_session_names_its_old_key_for_the_dir_beside_it_and_for_no_other(
    tmp_path: Path,
) -> None:
    # the transcript is filed under the new folder; the session ran in /media/old/kiln
    folder = tmp_path / "projects" / "-srv-work-kiln"
    session = Session(path=str(folder / "s.jsonl"), cwd="/media/old/kiln")
    assert former_keys(session, folder / "memory") == ("-media-old-kiln",)
    windows = Session(path=str(folder / "s.jsonl"), cwd="D:\\old\\kiln")
    assert former_keys(windows, folder / "memory") == ("D--old-kiln",)
    assert former_keys(session, tmp_path / "projects" / "-srv-other" / "memory") == ()
    same = Session(path=str(folder / "s.jsonl"), cwd="/srv/work/kiln")
    assert former_keys(same, folder / "memory") == ()  # not moved: its own key already
    relative = Session(path=str(folder / "s.jsonl"), cwd="kiln")
    assert former_keys(relative, folder / "memory") == ()


def test_a_transcript_file_not_read_whole_names_its_old_key_from_the_cwd_its_head_names(
    tmp_path: Path,
) -> None:
    path = build_moved_home_session(tmp_path)
    assert head_cwd(path) == "/media/old/kiln"
    assert former_keys_of_file(path, path.parent / "memory") == ("-media-old-kiln",)
    assert former_keys_of_file(path, tmp_path / "elsewhere" / "memory") == ()


def test_a_head_without_a_cwd_or_a_file_that_cannot_be_read_names_no_old_key(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "projects" / "-srv-work-kiln"
    folder.mkdir(parents=True)
    bare = folder / "bare.jsonl"
    bare.write_text('{"type":"summary","summary":"kiln"}\nnot json\n')
    assert head_cwd(bare) is None and former_keys_of_file(bare, folder / "memory") == ()
    assert head_cwd(folder / "absent.jsonl") is None
    # a cwd only past the head is not looked for: the listing's head rule, not a whole read
    late = folder / "late.jsonl"
    late.write_text(
        '{"type":"summary","summary":"' + "k" * SESSION_HEAD_READ_MAX_BYTES + '"}\n'
        '{"type":"user","cwd":"/media/old/kiln"}\n'
    )
    assert head_cwd(late) is None


def test_a_loose_transcript_beside_a_loose_memory_dir_is_no_moved_home(tmp_path: Path) -> None:
    # no `projects/<key>/` around them: the folder's name is no project key that could have moved
    loose = Session(path=str(tmp_path / "work" / "s.jsonl"), cwd="/media/old/kiln")
    assert former_keys(loose, tmp_path / "work" / "memory") == ()


def test_a_subfolder_session_of_a_moved_project_names_its_git_roots_old_key_for_its_dir_now(
    tmp_path: Path,
) -> None:
    path = build_moved_subfolder_session(tmp_path)
    projects = path.parent.parent
    session = read_session(path)
    assert former_keys(session, projects / "-srv-work-kiln" / "memory") == ("-media-old-kiln",)
    assert former_keys(session, path.parent / "memory") == ("-media-old-kiln-web",)
    assert former_keys_of_file(path, projects / "-srv-work-kiln" / "memory") == ("-media-old-kiln",)
