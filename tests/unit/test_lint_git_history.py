"""The derivable-git-history rule: commit ids, and lists of pull requests, are git's record."""

from __future__ import annotations

from memdir_nb.lint.findings import Collector, Finding
from memdir_nb.lint.git_history import GIT_SHA_CONTEXT, LONG_SHA, PR_REF, HistoryRefs


def _history(*lines: str) -> list[Finding]:
    refs = HistoryRefs({GIT_SHA_CONTEXT, LONG_SHA, PR_REF})
    previous = ""
    for no, line in enumerate(lines, start=1):
        refs.collect(no, line, previous)
        previous = line
    c = Collector("m.md")
    refs.report(c)
    return c.items


def test_a_commit_id_named_as_one_is_history() -> None:
    (found,) = _history("The regression came in with commit 9c1e4a7b and was reverted.")
    assert "9c1e4a7b" in found.message and found.line == 1


def test_a_commit_id_named_in_the_description_and_the_body_is_listed_once() -> None:
    # real38: "git commit ids (bbf1cee, bbf1cee)" for one id the header and the body both name
    (found,) = _history(
        "description: Since commit 5e0d2a1 the form has one notes field",
        "The notes field replaced two (commit `5e0d2a1`); cherry-picked as 7a7b3c9 later.",
    )
    assert "(5e0d2a1, 7a7b3c9)" in found.message and found.line == 1


def test_three_pull_requests_make_a_list_and_two_do_not() -> None:
    (found,) = _history("Shipped as PR #41 and PR #42,", "then /pull/57 fixed the docs.")
    assert found.message == "a list of 3 PR references is git history" and found.line == 1
    assert _history("Shipped as PR #41 and PR #42.") == []


def test_a_pull_request_named_again_is_counted_once_in_the_message_as_in_the_threshold() -> None:
    # real38: "a list of 18 PR references" for a note naming a few PRs again and again
    (found,) = _history(
        "The sync queue came with PR #61; PR #64 retried it and PR #70 capped the retries.",
        "PR #61 is the one to read first, PR #64 second; PR #61 again for the schema.",
        "Before touching retries, reread PR #70 and PR #64.",
    )
    assert found.message == "a list of 3 PR references is git history"
    assert _history("PR #61, then PR #61 again, and PR #64 twice: PR #64.") == []


def test_a_bare_number_is_a_pull_request_only_beside_words_about_prs() -> None:
    assert (
        _history("- Caches expire hourly; #1282", "- Tokens rotate weekly; #1780", "#52 waits")
        == []
    )
    (found,) = _history("Both halves were merged (#301, and then", "#322 and #323 followed).")
    assert found.line == 1


def test_a_table_rows_number_is_no_pull_request() -> None:
    assert _history("| #12 | merged layout | #13 | #14 |") == []


def test_an_issue_number_beside_a_pull_request_is_no_pull_request() -> None:
    # A review note names the two pull requests that settled a rule and the issues they closed
    # ("PR #88 (Issue #31)"): two PRs are no list, whatever issues they cite on the same line.
    assert (
        _history(
            "**Settled in PR #207 (Issue #164):** quote the label, never the raw value.",
            "**Before:** PR #88 (Issue #31) quoted it twice; PR #207 (issue #164) fixed that.",
        )
        == []
    )
    (found,) = _history("Merged PR #88, PR #207 and PR #250 (Issue #31).")
    assert found.message == "a list of 3 PR references is git history"
