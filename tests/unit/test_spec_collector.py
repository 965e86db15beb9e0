"""spec.collector: the cyclic collector is off only while a whole-dir pass runs, and a caller's choice is kept; a command's loaded program can be frozen."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from memdir_nb.spec.collector import collector_paused


def test_the_collector_is_off_inside_the_block_and_on_again_after_it() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_comes_back_on_when_the_block_raises() -> None:
    with pytest.raises(RuntimeError, match="boom"), collector_paused():
        raise RuntimeError("boom")
    assert gc.isenabled()


def test_a_caller_who_turned_the_collector_off_keeps_it_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_nested_pauses_restore_the_collector_only_at_the_outer_end() -> None:
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()  # the inner pass found it off and leaves it off
    assert gc.isenabled()


def test_freezing_sets_every_tracked_object_aside_and_leaves_later_ones_collectable() -> None:
    # in a process of its own: a frozen object is never collected, so a test run must not freeze
    code = (
        "import gc\n"
        "from memdir_nb.spec.collector import freeze_what_is_loaded\n"
        "before = gc.get_freeze_count()\n"
        "freeze_what_is_loaded()\n"
        "frozen = gc.get_freeze_count()\n"
        "cycle = []\n"
        "cycle.append(cycle)\n"
        "del cycle\n"
        "print(before, frozen > 1000, gc.collect() >= 1, gc.get_freeze_count() == frozen)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.split() == ["0", "True", "True", "True"]
