"""home/moved_keys: the keys a moved project's folders had and have."""

from __future__ import annotations

from memdir_nb.home.moved_keys import former_project_keys, moved_keys


def key_now(written: str, cwd: str, filed_as: str) -> str | None:
    """The key now of a key the records name, as home.sessions looks it up."""
    return dict(moved_keys(cwd, filed_as)).get(written)


def test_each_folder_up_from_the_working_one_has_its_old_key_and_its_key_now() -> None:
    pairs = list(moved_keys("/media/old/kiln/web", "-srv-work-kiln-web"))
    assert pairs == [
        ("-media-old-kiln-web", "-srv-work-kiln-web"),
        ("-media-old-kiln", "-srv-work-kiln"),
        ("-media-old", "-srv-work"),
    ]  # /media adds `-old-kiln-web`, which `-srv-work-kiln-web` does not end with
    # a folder name the filed key does not end with has no key now
    assert list(moved_keys("/media/old/kiln/web", "-srv-site")) == [
        ("-media-old-kiln-web", "-srv-site")
    ]


def test_the_git_roots_old_key_names_the_parents_dir_now_and_not_the_subfolders() -> None:
    assert former_project_keys("/media/old/kiln/web", "-srv-work-kiln-web", "-srv-work-kiln") == (
        "-media-old-kiln",
    )
    assert former_project_keys(
        "/media/old/kiln/web", "-srv-work-kiln-web", "-srv-work-kiln-web"
    ) == ("-media-old-kiln-web",)
    # not moved: the keys it names are the keys it has
    assert former_project_keys("/srv/work/kiln/web", "-srv-work-kiln-web", "-srv-work-kiln") == ()
    assert key_now("-media-old-kiln", "/media/old/kiln/web", "-srv-work-kiln-web") == (
        "-srv-work-kiln"
    )
    # a key of no folder on the way up (another project's memory) is left alone
    assert key_now("-media-old-tides", "/media/old/kiln/web", "-srv-work-kiln-web") is None


def test_windows_folders_are_folded_as_windows_keys_are() -> None:
    assert key_now("D--old-kiln", "D:\\old\\kiln\\web", "d--work-kiln-web") == "d--work-kiln"
    assert former_project_keys("d:\\old\\kiln\\web", "D--work-kiln-web", "D--work-kiln") == (
        "d--old-kiln",
    )


def test_no_relative_or_missing_working_folder_and_a_hashed_key_has_no_folder_above() -> None:
    assert list(moved_keys("kiln/web", "-srv-work-kiln-web")) == []
    assert list(moved_keys(None, "-srv-work-kiln-web")) == []
    deep = "/media/" + "/".join(["kiln"] * 60)  # a key past 200 characters ends in a hash
    ((only, now),) = moved_keys(deep, "-srv-x")
    assert now == "-srv-x" and len(only) > 200
