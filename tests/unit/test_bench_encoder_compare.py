"""benchmarks/encoder_compare.py: the `-cjk` variants send CJK questions through the semantic
channel and change nothing else recall reads from spec.scripts."""

from __future__ import annotations

import encoder_compare
import pytest

from memdir_nb.recall import semantic
from memdir_nb.spec import scripts


def test_the_cjk_variant_routes_only_cjk_questions_away_from_the_full_text_channel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert semantic._full_text_route("データベースの移行はいつ") == "CJK query"
    monkeypatch.setattr(semantic, "scripts", encoder_compare.scripts_with_no_cjk_route())
    assert semantic._full_text_route("データベースの移行はいつ") is None
    assert semantic._full_text_route("как включить тёмную тему") == "query not in Latin script"
    assert semantic._full_text_route("when is the cutover?") is None


def test_the_cjk_variants_module_keeps_every_other_name_and_leaves_the_real_one_alone() -> None:
    copy = encoder_compare.scripts_with_no_cjk_route()
    public = {k for k in vars(scripts) if not k.startswith("__")}
    assert public <= set(vars(copy))
    assert all(getattr(copy, k) is getattr(scripts, k) for k in public - {"mostly_cjk"})
    assert not copy.mostly_cjk("内存泄漏") and scripts.mostly_cjk("内存泄漏")
