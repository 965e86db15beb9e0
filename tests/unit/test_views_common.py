"""What the view-models share: the demo check and a file's scope."""

from __future__ import annotations

from memdir_nb.views import common as view


def test_is_demo_dir(demo_mem, tmp_path):
    assert view.is_demo_dir(demo_mem) and not view.is_demo_dir(tmp_path)
