"""LexicalSelector: ranking, stemming, synonyms, threshold, the recent-tools rule, the eval bar."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.recall import LexicalSelector, RelevantMemory, find_relevant_memories
from memdir_nb.recall.lexical import (
    _SYNONYMS,
    LexicalOptions,
    _about_tool,
    _memory_class,
    classify_for_tools,
    filename_words,
    is_about_tool,
    raw_words,
    synonym_tags,
    tokens,
    tool_key,
    tool_memory_class,
)
from memdir_nb.spec import text as textseg
from memdir_nb.spec.constants import CACHE_MAX_BYTES
from memdir_nb.spec.taxonomy import MemoryType
from memdir_nb.storage.scan import scan_memory_files
from tests.support import write_memory

NOW = 1_760_000_000_000.0
_REPO = Path(__file__).resolve().parents[2]
# The labelled tuning set, kept in the repository (MEMDIR_NB_EVAL_CASES may point elsewhere).
EVAL_CASES = (
    Path(os.environ["MEMDIR_NB_EVAL_CASES"])
    if os.environ.get("MEMDIR_NB_EVAL_CASES")
    else _REPO / "benchmarks" / "data" / "recall_cases.json"
)


@pytest.fixture()
def memory_dir(tmp_path: Path) -> Path:
    d = tmp_path / "memory"
    specs = [
        (
            "feedback_testing.md",
            "Integration tests use a real database",
            "Integration tests must hit a real Postgres, not mocks",
            "feedback",
        ),
        (
            "feedback_commit_messages.md",
            "Commit message format",
            "Commit messages: imperative mood, ticket prefix, no emoji",
            "feedback",
        ),
        (
            "reference_grep_tool_usage.md",
            "Grep tool usage",
            "Grep tool usage notes: regex syntax, glob filters, output modes",
            "reference",
        ),
        (
            "feedback_grep_monorepo.md",
            "Scope Grep in the monorepo",
            "Grep in the monorepo: always scope with a path; unscoped searches time out",
            "feedback",
        ),
        (
            "reference_linear_mcp_usage.md",
            "Linear MCP search usage",
            "Linear MCP search tool usage: query syntax and filters",
            "reference",
        ),
        (
            "reference_linear_mcp_gotchas.md",
            "Linear MCP search gotchas",
            "Linear MCP search known issues: silently caps at 50 results",
            "reference",
        ),
        (
            "team/project_release_freeze.md",
            "Release merge freeze",
            "Merge freeze on main for the mobile release, hotfixes only",
            "project",
        ),
        (
            "user_k8s.md",
            "Kubernetes familiarity",
            "User is new to Kubernetes; explain kubectl commands first",
            "user",
        ),
        (
            "project_code_review.md",
            "Review turnaround",
            "Reviewers answer a pull request within one business day",
            "project",
        ),
    ]
    for i, (filename, name, description, type_) in enumerate(specs):
        write_memory(
            d, filename, name=name, description=description, type=type_, age_days=i, now_ms=NOW
        )
    return d


def names(found: Sequence[RelevantMemory]) -> list[str]:
    return [Path(m.path).name for m in found]


def test_direct_match_is_found(memory_dir: Path) -> None:
    found = find_relevant_memories(
        "Draft a commit message for this change", memory_dir, selector=LexicalSelector()
    )
    assert names(found) == ["feedback_commit_messages.md"]


def test_stemming_matches_other_word_forms(memory_dir: Path) -> None:
    query = "any freezes on merging?"
    assert names(find_relevant_memories(query, memory_dir, selector=LexicalSelector())) == [
        "project_release_freeze.md"
    ]
    unstemmed = LexicalSelector(LexicalOptions(stemming=False))
    assert find_relevant_memories(query, memory_dir, selector=unstemmed) == []


def test_synonym_layer_links_pr_to_pull_request(memory_dir: Path) -> None:
    query = "how fast do reviewers look at my PR?"
    assert "project_code_review.md" in names(
        find_relevant_memories(query, memory_dir, selector=LexicalSelector())
    )


def test_synonym_layer_links_k8s_to_kubernetes(memory_dir: Path) -> None:
    found = find_relevant_memories(
        "apply this k8s manifest", memory_dir, selector=LexicalSelector()
    )
    assert names(found) == ["user_k8s.md"]


def _synonym_tags_by_phrase(words: Sequence[str]) -> list[str]:
    """The synonym rule from the table's side: every place each phrase occurs, as written or
    with its last word plural; at one place an exact phrase wins; tags in order of place."""
    places: dict[tuple[int, int], tuple[bool, str]] = {}  # (start, length) -> (exact, tag)
    for phrase, tag in _SYNONYMS.items():
        n = len(phrase)
        for i in range(len(words) - n + 1):
            here = tuple(words[i : i + n])
            exact = here == phrase
            plural = here[:-1] == phrase[:-1] and here[-1] == phrase[-1] + "s"
            if (exact or plural) and not places.get((i, n), (False, ""))[0]:
                places[(i, n)] = (exact, tag)
    return list(dict.fromkeys(tag for _, (_, tag) in sorted(places.items())))


_PHRASE_WORDS = sorted({w for phrase in _SYNONYMS for w in phrase})


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(_PHRASE_WORDS),
            st.sampled_from(_PHRASE_WORDS).map(lambda w: w + "s"),
            st.sampled_from(["the", "deploy", "s", "ss", "friday", "x"]),
        ),
        max_size=12,
    )
)
def test_synonym_tags_finds_every_phrase_the_literal_rule_finds(words: list[str]) -> None:
    assert synonym_tags(words) == _synonym_tags_by_phrase(words)


def _raw_words_word_by_word(text: str) -> list[str]:
    """raw_words' rule read literally: each word, and a hyphen or apostrophe compound's parts."""

    def pieces(word: str) -> list[str]:
        if not {"-", "'"} & set(word):
            return [word]
        return [re.sub("[-']", "", word), *filter(None, re.split("[-']", word))]

    split = textseg.words(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text))
    return [piece for word in split for piece in pieces(word)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abZ9 -'\u2019\u00e9\u65e5\u672c.\n", max_size=40))
def test_raw_words_splits_compounds_as_the_word_by_word_rule(text: str) -> None:
    assert raw_words(text) == _raw_words_word_by_word(text)


def test_unrelated_query_returns_nothing(memory_dir: Path) -> None:
    assert (
        find_relevant_memories(
            "Write a limerick about a cat who hates Mondays", memory_dir, selector=LexicalSelector()
        )
        == []
    )


def test_stopword_only_query_returns_nothing(memory_dir: Path) -> None:
    assert (
        find_relevant_memories(
            "what is it that we should do?", memory_dir, selector=LexicalSelector()
        )
        == []
    )


def test_without_threshold_weak_matches_come_back(memory_dir: Path) -> None:
    query = "the mobile app crashes on startup"
    assert find_relevant_memories(query, memory_dir, selector=LexicalSelector()) == []
    loose = LexicalSelector(LexicalOptions(threshold=False))
    assert names(find_relevant_memories(query, memory_dir, selector=loose)) == [
        "project_release_freeze.md"
    ]


def test_tool_in_use_drops_its_usage_doc_and_keeps_its_gotcha(memory_dir: Path) -> None:
    found = find_relevant_memories(
        "search the code for fuel surcharge",
        memory_dir,
        recent_tools=("Grep",),
        selector=LexicalSelector(),
    )
    assert "feedback_grep_monorepo.md" in names(found)
    assert "reference_grep_tool_usage.md" not in names(found)


def test_usage_doc_is_fine_when_the_tool_is_not_in_use(memory_dir: Path) -> None:
    found = find_relevant_memories(
        "How do I search Linear with the MCP tool?", memory_dir, selector=LexicalSelector()
    )
    assert "reference_linear_mcp_usage.md" in names(found)


def test_mcp_tool_name_matches_memories_about_the_server(memory_dir: Path) -> None:
    found = find_relevant_memories(
        "list the open issues",
        memory_dir,
        recent_tools=("mcp__linear__search",),
        selector=LexicalSelector(),
    )
    assert names(found)[0] == "reference_linear_mcp_gotchas.md"
    assert "reference_linear_mcp_usage.md" not in names(found)


def test_tool_keys_are_derived_from_tool_names() -> None:
    assert tool_key("mcp__linear__search").subject == "linear"
    assert "search" in tool_key("mcp__linear__search").extra
    assert tool_key("Bash").subject == "bash" and tool_key("Grep").subject == "grep"
    assert tool_key("WebFetch").subject == "web fetch"


def test_filename_is_split_into_words() -> None:
    assert filename_words("team/project_release-freeze.md") == "team project release freeze"


def test_ranking_is_deterministic_and_ties_break_by_filename(tmp_path: Path) -> None:
    d = tmp_path / "memory"
    for name in ("b_twin.md", "a_twin.md", "c_twin.md"):
        write_memory(d, name, name="Twin deploy notes", description="deploy notes twin", now_ms=NOW)
    headers = scan_memory_files(d)
    first = LexicalSelector().select("deploy notes", headers)
    assert first == ["a_twin.md", "b_twin.md", "c_twin.md"]
    assert LexicalSelector().select("deploy notes", list(reversed(headers))) == first


def test_never_more_than_five(tmp_path: Path) -> None:
    d = tmp_path / "memory"
    for i in range(9):
        write_memory(
            d,
            f"project_deploy_{i}.md",
            name="Deploy checklist",
            description="deploy checklist step",
            now_ms=NOW,
        )
    assert len(find_relevant_memories("deploy checklist", d, selector=LexicalSelector())) == 5


def test_lexical_default_beats_plain_bm25_top5_on_the_eval_set() -> None:
    if not EVAL_CASES.is_file():  # a quality gate must not pass by skipping on a clean checkout
        pytest.fail(
            f"eval cases not found at {EVAL_CASES}: restore benchmarks/data/recall_cases.json, "
            "or set MEMDIR_NB_EVAL_CASES to the path of a labelled cases file"
        )
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "recall_eval", Path(__file__).resolve().parents[2] / "benchmarks/recall_eval.py"
    )
    assert spec is not None and spec.loader is not None
    recall_eval = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = recall_eval  # dataclasses look their module up while being built
    spec.loader.exec_module(recall_eval)
    results = recall_eval.evaluate(
        json.loads(EVAL_CASES.read_text(encoding="utf-8")),
        now_ms=NOW,
        only=("lexical", "baseline: BM25 top-5"),
    )
    default = results["lexical"]["ALL"]["mean_f1"]
    plain = results["baseline: BM25 top-5"]["ALL"]["mean_f1"]
    assert default >= plain + 0.15, (default, plain)
    assert results["lexical"]["none"]["empty_on_none"] >= 0.75


def test_last_request_records_the_inputs_it_ranked(memory_dir: Path) -> None:
    selector = LexicalSelector()
    headers = scan_memory_files(memory_dir)
    selector.select("deploy to production", headers, recent_tools=["Bash"])
    assert selector.last_request == {
        "selector": "lexical",
        "query": "deploy to production",
        "recent_tools": ["Bash"],
        "candidates": [h.filename for h in headers],
    }


def test_an_mcp_warning_that_names_the_server_as_a_tool_is_kept_first() -> None:
    from memdir_nb.formats.manifest import MemoryHeader
    from memdir_nb.recall.lexical import classify_for_tools, is_about_tool
    from memdir_nb.spec.taxonomy import MemoryType

    key = tool_key("mcp__notebook__run_cell")
    warning = MemoryHeader(
        "feedback_notebook_tool_memory.md",
        "/x/feedback_notebook_tool_memory.md",
        0.0,
        "Notebook tool kernel memory warning",
        "Notebook tool kernels share one 8 GB box; big frames kill every kernel",
        MemoryType.FEEDBACK,
    )
    product = MemoryHeader(
        "project_notebook_cleanup.md",
        "/x/project_notebook_cleanup.md",
        0.0,
        "Notebook cleanup",
        "Which analysis notebooks to archive this quarter",
        MemoryType.PROJECT,
    )
    assert is_about_tool(warning, key) and classify_for_tools(warning, [key]) == "warning"
    assert not is_about_tool(product, key)  # naming the product is not naming the tool


def _header(filename: str, name: str, description: str, kind: str) -> MemoryHeader:
    return MemoryHeader(filename, f"/x/{filename}", 0.0, name, description, MemoryType(kind))


def test_mcp_server_names_lose_their_provenance_prefix_and_split_into_words() -> None:
    # the shapes Claude Code gives MCP tools: connector and plugin servers, hyphens, camelCase
    assert tool_key("mcp__claude_ai_Linear__list_issues").subject == "linear"
    assert tool_key("mcp__plugin_playwright_playwright__browser_click").subject == "playwright"
    assert tool_key("mcp__chrome-devtools__take_screenshot").subject == "chrome devtools"
    assert tool_key("mcp__ide__getDiagnostics").alias == "get diagnostics"
    assert tool_key("mcp__k8s__kubectl").alias == "kubectl"


def test_an_mcp_tool_named_by_its_function_is_recognised() -> None:
    key = tool_key("mcp__cluster__kubectl")
    gotcha = _header(
        "feedback_kubectl_context.md",
        "kubectl tool context",
        "The kubectl tool uses the last context it was given",
        "feedback",
    )
    assert is_about_tool(gotcha, key)
    assert classify_for_tools(gotcha, [key]) == "warning"


def test_a_word_for_tool_in_another_language_names_the_tool() -> None:
    key = tool_key("mcp__scanner__scan")
    french = _header(
        "reference_scanner.md",
        "Notes de travail",
        "L'outil scanner lit les fichiers du dépôt",
        "reference",
    )
    german = _header(
        "feedback_scan.md", "Hinweis", "Das Scanner-Werkzeug liest keine Symlinks", "feedback"
    )
    assert classify_for_tools(french, [key]) == "usage"
    assert classify_for_tools(german, [key]) == "warning"


def test_feedback_about_a_tool_in_use_is_kept_as_a_warning_in_any_language() -> None:
    # feedback is guidance on how (not) to work; about a tool in use that is a gotcha, not its
    # reference docs, even when no English warning word is there to say so
    key = tool_key("mcp__sandbox__deploy")
    feedback = _header(
        "feedback_sandbox_tool.md",
        "Sandbox-Werkzeug",
        "Das Sandbox-Werkzeug setzt die Datenbank bei jedem Deploy zurück",
        "feedback",
    )
    reference = _header(
        "reference_sandbox_tool.md",
        "Sandbox-Werkzeug",
        "Parameter und Aufruf des Sandbox-Werkzeugs",
        "reference",
    )
    assert classify_for_tools(feedback, [key]) == "warning"
    assert classify_for_tools(reference, [key]) == "usage"


def test_a_product_named_like_the_server_is_still_not_the_tool() -> None:
    key = tool_key("mcp__claude_ai_Linear__list_issues")
    product = _header(
        "project_linear_migration.md",
        "Linear migration",
        "Moving the team's tickets into Linear by March",
        "project",
    )
    assert not is_about_tool(product, key)


_IMPORT_PROBE = """
import os, sys, json
from memdir_nb.recall.lexical import import_bm25s
before = os.environ.get("DISABLE_TQDM")
bm25s = import_bm25s()
print(json.dumps([before, os.environ.get("DISABLE_TQDM"), "tqdm" in sys.modules,
                  hasattr(bm25s, "BM25"), import_bm25s() is bm25s]))
"""


@pytest.mark.parametrize("prior", [None, "", "0"])
def test_bm25s_is_imported_without_tqdm_and_the_environment_is_put_back(
    prior: str | None,
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISABLE_TQDM"}
    if prior is not None:
        env["DISABLE_TQDM"] = prior
    out = subprocess.run(
        [sys.executable, "-c", _IMPORT_PROBE], env=env, capture_output=True, text=True, check=True
    )
    before, after, tqdm_loaded, usable, same = json.loads(out.stdout)
    assert before == after == prior
    assert not tqdm_loaded
    assert usable and same


def test_a_rewritten_memory_is_classified_for_tools_from_its_new_header(tmp_path: Path) -> None:
    # is_about_tool and tool_memory_class are remembered by the memory's texts and type: a
    # rewritten file's new header is judged afresh, never from what its old text answered.
    key = tool_key("Grep")

    def rewrite(step: int, name: str, description: str, type_: str) -> MemoryHeader:
        """team_notes.md written with this header (a newer mtime each step), then scanned."""
        path = write_memory(
            tmp_path,
            "team_notes.md",
            name=name,
            description=description,
            type=type_,
            now_ms=1_700_000_000_000 + step * 100_000,
        )
        (header,) = scan_memory_files(tmp_path)
        assert header.file_path == str(path)
        return header

    before = rewrite(0, "Grep gotcha", "grep misses generated files", "feedback")
    assert is_about_tool(before, key) and classify_for_tools(before, [key]) == "warning"
    after = rewrite(1, "Lunch rota", "who orders lunch on fridays", "reference")
    assert not is_about_tool(after, key) and classify_for_tools(after, [key]) is None
    usage = rewrite(2, "Grep usage", "how to call the grep tool", "reference")
    assert classify_for_tools(usage, [key]) == "usage"


def test_the_word_and_tool_caches_count_the_bytes_of_the_texts_they_keep() -> None:
    """A kernel keeps the lexical caches for hours: a description may fill an 8 KiB header,
    so 65,536 remembered answers could hold 600 MB (4,096 tokenised documents, 320 MB). Each
    answer is counted with its texts' bytes, and each cache holds at most CACHE_MAX_BYTES."""
    _about_tool.cache_clear()
    _memory_class.cache_clear()
    selector = LexicalSelector()
    headers = [
        MemoryHeader(
            filename=f"reference_db_{i}.md",
            file_path=f"/m/reference_db_{i}.md",
            mtime_ms=0.0,
            name=f"database notes {i}",
            description=f"{i:04d} postgres query plans " + "vacuum analyze index " * 380,
            type=MemoryType.REFERENCE,
        )
        for i in range(12)
    ]
    selector.select("postgres query plans", headers, recent_tools=["mcp__postgres__query"])
    for header in headers:  # what a turn after a postgres tool call asks of each candidate
        is_about_tool(header, tool_key("mcp__postgres__query"))
        tool_memory_class(header)
    for cache in (_about_tool.cache, _memory_class.cache, selector._doc_cache):
        assert cache.max_bytes == CACHE_MAX_BYTES
        assert cache.bytes_held > 12 * 8000  # each of the 12 answers counts its 8 KB text


def test_a_long_tool_name_counts_towards_the_tool_caches_bound() -> None:
    """A replayed transcript's tool names are the recent tools, and a crafted one may be a
    line long: the answers kept for it hold its ToolKey, counted by what that key holds."""
    _about_tool.cache_clear()
    header = MemoryHeader(
        filename="feedback_grep.md", file_path="/m/feedback_grep.md", mtime_ms=0.0,
        name="Grep gotcha", description="grep misses files", type=MemoryType.FEEDBACK,
    )  # fmt: skip
    name = "mcp__srv__" + "ab_" * 20_000  # 60 KB
    is_about_tool(header, tool_key(name))
    assert _about_tool.cache.bytes_held > len(name)  # the key holds the whole name


def test_a_japanese_question_is_not_drowned_by_its_particles(tmp_path: Path) -> None:
    # A reviewer agent's notes, titled in English with Japanese hooks; the question asks in
    # Japanese, its identifier and content words wrapped in particles and verb endings
    # ("が", "のときの", "は？"). Pieces holding a hiragana are grammar, not terms: counted,
    # they were most of the question's weight and no memory covered enough of it.
    d = tmp_path / "memory"
    specs = [
        (
            "pattern_deploy_orgs.md",
            "Deploy gate by organisation (DEPLOY_ALLOWED_ORGS)",
            "DEPLOY_ALLOWED_ORGS に載った組織だけが本番へ出せる二段階の確認と、その例外",
        ),
        ("pattern_cache_keys.md", "Cache key layout", "キャッシュのキーは tenant と日付で分ける"),
        ("pattern_retry.md", "Retry budget", "外部 API の再試行は三回まで、間隔は倍々に"),
    ]
    for filename, name, description in specs:
        write_memory(d, filename, name=name, description=description, type="project", now_ms=NOW)
    found = find_relevant_memories(
        "DEPLOY_ALLOWED_ORGS が空のときの動作は？", d, selector=LexicalSelector()
    )
    assert names(found) == ["pattern_deploy_orgs.md"]
    # the hiragana pieces are gone from the terms; kanji and katakana pairs stay
    options = LexicalOptions()
    assert tokens("本番へ出せる", options) == ["本番"]
    assert "キャ" in tokens("キャッシュのキー", options)
