"""lint.content_patterns: a quick check in front of a content pattern never skips a text the
pattern matches."""

from __future__ import annotations

from typing import Any

import pytest

from memdir_nb.lint import content_patterns
from memdir_nb.spec.text import FOLDS_TO_ASCII


def _content_patterns() -> list[Any]:
    return [*content_patterns.LINE_PATTERNS, content_patterns.IN_PROGRESS]


_CONTENT_PIECES = [
    "see src/app/main.py:42 for it",
    "billing.PY line 7",
    "utils.ts,  lines 3",
    "run.zsh:3",
    "Build.KTS l. 4",
    "main.py\x1cl. 5",  # \x1c is whitespace to \s: the needles before this round missed it
    "`parse()` lives in lib/x.go",
    "commit 3f2a9c1 fixed it",
    "Reverted a1b2c3d4",
    "a" * 3 + "0123456789abcdef" * 3,
    "PR #123",
    "prs 4",
    "/pull/77",
    "#45 and #46",
    "Currently  debugging the cache",
    "I'm now working on it",
    "we are\tworking on it",
    "a data scientist working on Kelva",
    "in the middle of",
    "TODO: fix",
    "FIXME:",
    "WIP",
    "work in progress",
    "during this session",
    "Status: ongoing",
    "state : in progress",
    "in progress",
    "plain words",
    "28:00 UTC",
    "e.g. this",
    "Ünïcode ſ K",
    "\n",
    " ",
    ".",
    # outside ASCII without the four folds: digits and letters of other scripts, dashes
    "PR #١٢",
    "#٣٤ — done",
    "Straße → TODO：",
    "ΣΤΑΤUS: wip",
    "работаем commit 3f2a9c1",
    "進行中 in progress",
    "\u00a0",
    # a fold is the only way these match: no quick check may run on them
    "work in progreſs",
    "currently debuggİng",
    "PR̲ #12",
]


@pytest.mark.parametrize("seed", range(30))
def test_content_prefilters_never_skip_a_text_the_pattern_matches(seed: int) -> None:
    import random

    rng = random.Random(seed)
    for _ in range(40):
        blob = "".join(rng.choice(_CONTENT_PIECES) for _ in range(rng.randint(1, 8)))
        low = content_patterns.lowered(blob)
        for pattern in _content_patterns():
            expected = pattern.search(blob) is not None
            assert content_patterns.matches_somewhere(pattern, blob, low) is expected, (
                pattern,
                blob,
            )


@pytest.mark.parametrize("index", range(7))
def test_generated_matches_of_each_content_pattern_pass_its_prefilter(index: int) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    pattern = _content_patterns()[index]

    @settings(
        max_examples=150, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(st.from_regex(pattern, alphabet=st.characters(codec="ascii")))
    def check(text: str) -> None:
        if pattern.search(text) is not None:
            assert content_patterns.matches_somewhere(pattern, text, text.lower()), text

    # any character but the four folds: \w, \s and \d then draw letters, digits and spaces
    # of every script, and the quick checks run on the lowered text all the same
    others = st.characters(codec="utf-8", exclude_characters=FOLDS_TO_ASCII)

    @settings(
        max_examples=150, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(st.from_regex(pattern, alphabet=others))
    def check_any_script(text: str) -> None:
        low = content_patterns.lowered(text)
        assert low is not None
        if pattern.search(text) is not None:
            assert content_patterns.matches_somewhere(pattern, text, low), text

    check()
    check_any_script()


def test_a_text_with_a_fold_gets_no_quick_checks() -> None:
    assert content_patterns.lowered("a ſession note") is None
    assert content_patterns.lowered("Straße — TODO") == "straße — todo"


@pytest.mark.parametrize(
    "line",
    [
        # real44: a web app's notes say how the framework behaves, naming no file of the repo
        '- `router.push(-1)` \u2192 `router.back()` (in Next.js App Router, push(-1) opens "-1")',
        "`useSearchParams()` in Next.js returns the read-only params, not an array.",
        "`fetch()` inside Node.js 18 has no proxy support",
    ],
)
def test_a_call_said_to_be_in_a_framework_named_like_a_script_is_no_code_location(
    line: str,
) -> None:
    assert content_patterns.CODE_SYMBOL.search(line) is None


def test_a_call_in_a_repository_file_is_still_a_code_location() -> None:
    found = content_patterns.CODE_SYMBOL.search("`getDigest()` from `lib/next.js` builds it")
    assert found is not None
    assert content_patterns.CODE_SYMBOL.search("`render()` in NextPage.js draws it") is not None


@pytest.mark.parametrize(
    "text", ["One new TODO (#2, nonce CSP) holds the rest.", "The next TODO (#14) closes it."]
)
def test_a_todo_cited_by_its_number_in_brackets_is_no_task_state(text: str) -> None:
    assert content_patterns.EPHEMERAL.search(text) is None


@pytest.mark.parametrize("text", ["TODO (ann): wire the form", "TODO(#owner) later", "TODO: x"])
def test_a_todo_with_an_owner_or_a_colon_is_still_task_state(text: str) -> None:
    assert content_patterns.EPHEMERAL.search(text) is not None
