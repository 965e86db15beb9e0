"""What the view-models share: the demo check and a file's scope."""

from __future__ import annotations

from memdir_nb.views import common as view


def test_is_demo_dir(demo_mem, tmp_path):
    assert view.is_demo_dir(demo_mem) and not view.is_demo_dir(tmp_path)


def test_scope_of_reads_the_team_folder_from_the_filename():
    assert view.scope_of("team/reference_oncall.md") == "team"
    assert view.scope_of("teamwork.md") == "private"
    assert view.scope_of("notes/team/x.md") == "private"
