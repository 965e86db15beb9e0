"""Selection quality on the labelled sets and the recall corpora, and the synonym table's freeze.

The single-dir tuning set is benchmarks/data/recall_cases.json; its holdout,
benchmarks/data/recall_cases_holdout.json, is never tuned on. The corpora
(benchmarks/data/recall_tune.json and recall_holdout.json) come from
benchmarks/corpus/generate.py; a deterministic slice of the tune corpus guards the default and
lexical selectors. The floors sit a little under the figures in docs/selection.md so a
regression shows, not noise.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from memdir_nb.recall.vocabulary import SYNONYM_GROUPS

REPO = Path(__file__).resolve().parents[2]
NOW = 1_760_000_000_000.0


def _recall_eval() -> ModuleType:
    spec = importlib.util.spec_from_file_location("recall_eval", REPO / "benchmarks/recall_eval.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def recall_eval() -> ModuleType:
    return _recall_eval()


@pytest.fixture(scope="module")
def tuning_cases(recall_eval: ModuleType) -> dict[str, Any]:
    path = recall_eval.DEFAULT_CASES
    assert path == REPO / "benchmarks/data/recall_cases.json", path  # the in-repo copy, always
    cases: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return cases


@pytest.fixture(scope="module")
def holdout_cases(recall_eval: ModuleType) -> dict[str, Any]:
    cases: dict[str, Any] = json.loads(recall_eval.HOLDOUT_CASES.read_text(encoding="utf-8"))
    return cases


def _texts(cases: dict[str, Any]) -> str:
    parts = []
    for m in cases["memories"]:
        parts += [m["name"], m["description"], m.get("body", ""), m["path"]]
    parts += [q["query"] for q in cases["queries"]]
    return "\n".join(parts).lower()


def _mentions(text: str, term: str) -> bool:
    return re.search(rf"(?<![a-z0-9]){re.escape(term)}(?![a-z0-9])", text) is not None


def test_synonym_groups_used_only_by_the_tuning_set_stay_near_zero(
    tuning_cases: dict[str, Any], holdout_cases: dict[str, Any]
) -> None:
    from memdir_nb.ui.demo import demo_memories

    tuning = _texts(tuning_cases)
    elsewhere = _texts(holdout_cases) + "\n" + "\n".join(str(m) for m in demo_memories(NOW)).lower()
    only_tuning = [
        group[0]
        for group in SYNONYM_GROUPS
        if any(_mentions(tuning, t) for t in group)
        and not any(_mentions(elsewhere, t) for t in group)
    ]
    print(f"synonym groups found only in the tuning set's texts: {len(only_tuning)} {only_tuning}")
    assert len(only_tuning) <= 3, only_tuning


def test_holdout_set_has_the_shape_and_mix_the_issue_asks_for(
    holdout_cases: dict[str, Any], tuning_cases: dict[str, Any]
) -> None:
    queries = holdout_cases["queries"]
    paths = {m["path"] for m in holdout_cases["memories"]}
    assert len(queries) >= 50
    assert sum(1 for q in queries if not q["relevant"]) >= 8
    assert {q["kind"] for q in queries} >= {"lexical", "paraphrase", "multi", "tools", "none"}
    assert sum(1 for q in queries if len(q["relevant"]) >= 2) >= 6
    for q in queries:
        assert set(q["relevant"]) | set(q["acceptable"]) <= paths, q["id"]
    assert not paths & {m["path"] for m in tuning_cases["memories"]}


def test_semantic_selector_meets_its_bars_on_both_sets(
    recall_eval: ModuleType, tuning_cases: dict[str, Any], holdout_cases: dict[str, Any]
) -> None:
    only = ("semantic (default)", "baseline: BM25 top-5")
    tuning = recall_eval.evaluate(tuning_cases, now_ms=NOW, only=only)
    holdout = recall_eval.evaluate(holdout_cases, now_ms=NOW, only=only)
    t = tuning["semantic (default)"]
    h = holdout["semantic (default)"]
    summary = {
        "tuning": t["ALL"]["mean_f1"],
        "holdout": h["ALL"]["mean_f1"],
        "holdout_paraphrase": h["paraphrase"]["mean_f1"],
        "holdout_lexical": h["lexical"]["mean_f1"],
        "holdout_tools": h["tools"]["mean_f1"],
        "holdout_none_empty": h["none"]["empty_on_none"],
    }
    print(summary)
    assert summary["holdout"] >= 0.70, summary
    # over-fitting shows as tuning far above holdout; a holdout that scores higher is no warning
    assert summary["tuning"] - summary["holdout"] <= 0.08, summary
    assert summary["holdout_paraphrase"] >= 0.45, summary
    assert summary["holdout_lexical"] >= 0.85, summary
    assert summary["holdout_tools"] >= 0.70, summary
    assert summary["holdout_none_empty"] >= 0.75, summary
    assert t["none"]["empty_on_none"] >= 0.75, summary
    for res in (tuning, holdout):
        assert (
            res["semantic (default)"]["ALL"]["mean_f1"]
            >= res["baseline: BM25 top-5"]["ALL"]["mean_f1"] + 0.2
        )


# ------------------------------------------------------------------ the recall corpora

CORPUS_DIR = REPO / "benchmarks" / "corpus"
# A fixed slice of the tune corpus: nine dirs of 2-20 memories in seven languages (91 questions).
TUNE_SLICE = (
    "tune-03-es-2",
    "tune-05-de-3",
    "tune-06-ko-3",
    "tune-07-en-3",
    "tune-08-zh-5",
    "tune-10-en-8",
    "tune-11-ja-8",
    "tune-12-en-9",
    "tune-14-en-20",
)
# Measured on the slice when the corpus was written (docs/selection.md): default (semantic)
# 0.44, lexical 0.29, newest-5 0.32. Selection is deterministic; the floor sits a little under.
LEXICAL_SLICE_FLOOR = 0.25


def _load_module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def recall_corpus() -> ModuleType:
    return _load_module("recall_corpus", REPO / "benchmarks/recall_corpus.py")


@pytest.fixture(scope="module")
def corpora(recall_corpus: ModuleType) -> dict[str, dict[str, Any]]:
    return {
        "tune": recall_corpus.load(recall_corpus.TUNE),
        "holdout": recall_corpus.load(recall_corpus.HOLDOUT),
    }


def test_committed_corpora_are_what_the_generator_writes(tmp_path: Path) -> None:
    generate = _load_module("corpus_generate", CORPUS_DIR / "generate.py")
    assert generate.main(["--out", str(tmp_path)]) == 0
    for name in ("tune", "holdout"):
        written = (tmp_path / f"recall_{name}.json").read_text(encoding="utf-8")
        assert written == (REPO / f"benchmarks/data/recall_{name}.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", ["tune", "holdout"])
def test_each_corpus_has_the_shape_the_issue_asks_for(
    corpora: dict[str, dict[str, Any]], name: str
) -> None:
    generate = _load_module("corpus_generate", CORPUS_DIR / "generate.py")
    corpus = corpora[name]
    sizes = [len(d["memories"]) for d in corpus["dirs"]]
    bodies = sorted(len(m["body"]) for d in corpus["dirs"] for m in d["memories"])
    questions = corpus["questions"]
    assert len(corpus["dirs"]) >= 20 and min(sizes) == 1 and max(sizes) == 200
    assert {1, 3, 8, 20, 60, 120, 200} <= set(sizes)
    assert {d["language"] for d in corpus["dirs"]} == {
        "en",
        "de",
        "fr",
        "es",
        "ja",
        "zh",
        "ko",
        "ru",
    }
    assert len({d["domain"].split("+")[0] for d in corpus["dirs"]}) >= 5
    assert bodies[len(bodies) // 2] > 1000
    assert len(questions) >= 300
    kinds = {k: sum(q["kind"] == k for q in questions) for k in generate.KINDS}
    assert min(kinds.values()) >= 20 and kinds["none"] >= 8, kinds
    offsets = [q["evidence_offset"] for q in questions if q["evidence_offset"] is not None]
    assert sum(o >= 400 for o in offsets) / len(offsets) >= 0.4
    memories = {(d["id"], m["filename"]): m for d in corpus["dirs"] for m in d["memories"]}
    for q in questions:
        assert all((q["dir"], f) in memories for f in q["expected"]), q["id"]
        assert bool(q["expected"]) == (q["kind"] != "none"), q["id"]
        assert bool(q["recent_tools"]) == (q["kind"] == "tools"), q["id"]
        if q["kind"] == "reworded":  # no content word shared with the name or description
            (target,) = q["expected"]
            m = memories[(q["dir"], target)]
            label = generate.content_terms(m["name"] + " " + m["description"])
            assert not generate.content_terms(q["query"]) & label, q["id"]


def test_the_shipped_model_was_fitted_on_the_tune_corpus_without_its_short_and_log_dirs(
    corpora: dict[str, dict[str, Any]],
) -> None:
    # `generate.py --without-short --without-logs` writes those dirs alone: the short dirs, then
    # the log dirs, come last, each from their own random stream, so the shipped fit stays
    # reproducible
    from memdir_nb.recall.decision import DecisionModel

    for corpus in corpora.values():
        domains = [d["domain"] for d in corpus["dirs"]]
        first_short, first_logs = domains.index("short"), domains.index("logs")
        first_dialogue = domains.index("dialogue")
        assert (first_short, first_logs, first_dialogue) == (21, 30, 37)
        assert set(domains[first_short:first_logs]) == {"short"}
        assert set(domains[first_logs:first_dialogue]) == {"logs"}
        assert set(domains[first_dialogue:]) == {"dialogue"}
    fitted = set(re.findall(r"recall_tune:([\w-]+)", DecisionModel.load().fitted_on))
    assert fitted == {
        d["id"] for d in corpora["tune"]["dirs"] if d["domain"] not in ("short", "logs", "dialogue")
    }


def test_without_logs_the_generator_writes_the_corpus_of_the_twentieth_session(
    corpora: dict[str, dict[str, Any]],
) -> None:
    # the log dirs are appended from their own random stream: the 30 dirs before them and
    # their questions are what they were before the twenty-first session
    generate = _load_module("corpus_generate", CORPUS_DIR / "generate.py")
    seed, plan = generate.CORPORA["tune"]
    before = generate.generate("tune", seed, plan, logs=False, dialogue=False)
    now = corpora["tune"]
    later = {d["id"] for d in now["dirs"] if d["domain"] in ("logs", "dialogue")}
    assert before["dirs"] == now["dirs"][:30] and len(now["dirs"]) == 30 + len(later)
    assert before["questions"] == [q for q in now["questions"] if q["dir"] not in later]


@pytest.mark.parametrize("name", ["tune", "holdout"])
def test_each_corpus_has_short_memories_short_questions_and_russian_dirs(
    corpora: dict[str, dict[str, Any]], name: str
) -> None:
    """The twentieth session's dirs: the shapes the long-bodied dirs could not teach."""
    corpus = corpora[name]
    short = [d for d in corpus["dirs"] if d["domain"] == "short"]
    bodies = sorted(len(m["body"]) for d in short for m in d["memories"])
    assert bodies[len(bodies) // 2] < 700 and bodies[-1] < 1000, bodies[len(bodies) // 2]
    assert max(len(d["memories"]) for d in short) >= 100  # a large dir of short memories
    ids = {d["id"] for d in short}
    asked = [q for q in corpus["questions"] if q["dir"] in ids and q["kind"] != "multi"]
    few_words = [q for q in asked if len(q["query"].split()) <= 5]
    assert len(few_words) == len(asked) and len(asked) >= 100
    assert {q["kind"] for q in asked} >= {"direct", "reworded", "non-english", "none"}
    russian = [d for d in short if d["language"] == "ru"]
    assert len(russian) >= 3
    for d in russian:  # each holds the memory that says the user speaks Russian, as real dirs do
        assert any("по-русски" in m["body"] for m in d["memories"]), d["id"]
        assert any(q["dir"] == d["id"] and q["kind"] == "none" for q in corpus["questions"])


@pytest.mark.parametrize("name", ["tune", "holdout"])
def test_each_corpus_has_log_shaped_dirs_whose_answers_sit_deep_in_long_bodies(
    corpora: dict[str, dict[str, Any]], name: str
) -> None:
    """The twenty-first session's dirs: long dated logs, session and call notes, status tables,
    weekly call series (LoCoMo's shape: many look-alike long memories, one entry answers)."""
    corpus = corpora[name]
    logs = [d for d in corpus["dirs"] if d["domain"] == "logs"]
    memories = [m for d in logs for m in d["memories"]]
    bodies = sorted(len(m["body"]) for m in memories)
    assert bodies[len(bodies) // 2] > 1500, bodies[len(bodies) // 2]
    # an entry: a bullet, a table row, a dated line or a speaker's line
    entry = re.compile(r"^(?:- |\| \d{4}-|\d{4}-\d\d-\d\d: |[^\W\d]+: )", re.MULTILINE)
    for m in memories:  # 10-40 entries, each under a date
        assert 10 <= len(entry.findall(m["body"])) <= 40, m["filename"]
    for d in logs:  # memories of a dir look alike: a kit over entities, or one weekly series
        words = Counter(
            w for m in d["memories"] for w in set(re.findall(r"[a-z]+", m["filename"][:-3]))
        )
        del words["project"]
        assert words.most_common(1)[0][1] >= 3, d["id"]
    series = [d for d in logs if len({re.sub(r"[\d-]", "", m["name"]) for m in d["memories"]}) == 1]
    assert len(series) >= 2  # LoCoMo's shape: sessions titled by their date alone
    ids = {d["id"] for d in logs}  # the dirs' own questions (the overlap ones: a test below)
    asked = [q for q in corpus["questions"] if q["dir"] in ids and "shape" not in q]
    assert len(asked) >= 60 and sum(q["language"] == "ru" for q in asked) >= 20
    assert {q["kind"] for q in asked} == {"direct", "reworded", "non-english", "multi", "none"}
    offsets = [q["evidence_offset"] for q in asked if q["evidence_offset"] is not None]
    assert min(offsets) > 0 and sum(o >= 1000 for o in offsets) / len(offsets) >= 0.35


def test_without_overlap_and_dialogue_the_generator_writes_the_corpus_of_before_them(
    corpora: dict[str, dict[str, Any]],
) -> None:
    # the partial-overlap questions come from their own bank and random stream, after each log
    # dir's questions, and the dialogue dirs (twenty-second session) from theirs, after every
    # other dir: without them the 37 dirs and every other question are what they were (one
    # generation checks both flags; the streams are independent, so each flag alone does too)
    generate = _load_module("corpus_generate", CORPUS_DIR / "generate.py")
    seed, plan = generate.CORPORA["holdout"]
    before = generate.generate("holdout", seed, plan, overlap=False, dialogue=False)
    now = corpora["holdout"]
    dialogue = {d["id"] for d in now["dirs"] if d["domain"] == "dialogue"}
    assert len(dialogue) >= 2 and len(now["dirs"]) == 37 + len(dialogue)
    assert before["dirs"] == now["dirs"][:37]
    assert before["questions"] == [
        q for q in now["questions"] if "shape" not in q and q["dir"] not in dialogue
    ]


@pytest.mark.parametrize("name", ["tune", "holdout"])
def test_overlap_questions_share_one_or_two_content_words_with_their_entry(
    corpora: dict[str, dict[str, Any]], name: str
) -> None:
    """LoCoMo's question shape, between direct and reworded: a name or a rare noun of the entry
    that answers, the rest in other words; about a quarter of them on the Russian log dirs."""
    generate = _load_module("corpus_generate", CORPUS_DIR / "generate.py")
    corpus = corpora[name]
    memories = {(d["id"], m["filename"]): m for d in corpus["dirs"] for m in d["memories"]}
    logs = {d["id"] for d in corpus["dirs"] if d["domain"] == "logs"}
    asked = [q for q in corpus["questions"] if q.get("shape") == "overlap"]
    assert len(asked) >= 40 and {q["dir"] for q in asked} == logs
    assert 0.2 <= sum(q["language"] == "ru" for q in asked) / len(asked) <= 0.3
    assert {q["kind"] for q in asked} >= {"direct", "reworded", "non-english", "multi"}
    for q in asked:
        assert re.fullmatch(re.escape(q["dir"]) + r"-o\d\d", q["id"]), q["id"]
        if q["kind"] == "multi":
            continue
        body = memories[(q["dir"], q["expected"][0])]["body"]
        entry = body[q["evidence_offset"] :].split("\n", 1)[0]
        shared = generate.content_terms(q["query"]) & generate.content_terms(entry)
        assert 1 <= len(shared) <= 2, (q["id"], shared)


def test_holdout_shares_no_dir_file_or_question_wording_with_tune(
    corpora: dict[str, dict[str, Any]],
) -> None:
    tune, holdout = corpora["tune"], corpora["holdout"]

    def texts(corpus: dict[str, Any], key: str) -> set[str]:
        return {m[key] for d in corpus["dirs"] for m in d["memories"]}

    assert not {d["id"] for d in tune["dirs"]} & {d["id"] for d in holdout["dirs"]}
    assert len(texts(tune, "description") & texts(holdout, "description")) == 0
    shared_queries = {q["query"] for q in tune["questions"]} & {
        q["query"] for q in holdout["questions"]
    }
    assert not shared_queries, sorted(shared_queries)[:5]


def test_default_selector_beats_five_newest_and_lexical_keeps_its_floor(
    recall_corpus: ModuleType, corpora: dict[str, dict[str, Any]]
) -> None:
    factories = recall_corpus.offline_selectors()
    default = next(name for name in factories if name.endswith("(default)"))
    wanted = {k: factories[k] for k in (default, "lexical", "baseline: newest-5")}
    results = recall_corpus.run_corpus(corpora["tune"], wanted, dirs=TUNE_SLICE)
    f1 = {name: recall_corpus.aggregate(answers)["f1"] for name, answers in results.items()}
    print(f1)
    assert len(results[default]) == 91
    assert f1[default] >= f1["baseline: newest-5"] + 0.08, f1
    assert f1["lexical"] >= LEXICAL_SLICE_FLOOR, f1


@pytest.mark.parametrize("name", ["tune", "holdout"])
def test_each_corpus_has_dialogue_dirs_in_locomos_layout_whose_rare_words_recur(
    corpora: dict[str, dict[str, Any]], name: str
) -> None:
    """The twenty-second session's dirs: one memory per chat session between two people, a
    date line and one "Name: utterance" line per turn; a question's rare words (names, pets,
    towns, projects) occur in many sessions while one or two of them answer it."""
    generate = _load_module("corpus_generate", CORPUS_DIR / "generate.py")
    corpus = corpora[name]
    dialogue = [d for d in corpus["dirs"] if d["domain"] == "dialogue"]
    assert len(dialogue) >= 2
    turn = re.compile(r"^([A-Z][a-z]+): \S")
    for d in dialogue:
        assert 10 <= len(d["memories"]) <= 30, d["id"]
        speakers: set[str] = set()
        for n, m in enumerate(d["memories"], start=1):
            date, blank, *lines = m["body"].rstrip("\n").split("\n")
            assert date.startswith("# Chat session at ") and blank == "", m["filename"]
            assert m["name"] == f"Session {n} ({date[len('# Chat session at ') :]})"
            assert 1000 <= len(m["body"]) <= 4000, (m["filename"], len(m["body"]))
            speakers |= {match.group(1) for line in lines if (match := turn.match(line))}
            assert all(turn.match(line) for line in lines), m["filename"]
        assert len(speakers) == 2, (d["id"], speakers)
    ids = {d["id"] for d in dialogue}
    asked = [q for q in corpus["questions"] if q["dir"] in ids]
    assert len(asked) >= 60
    assert {q["category"] for q in asked} == {"single-hop", "temporal", "multi-hop", "none"}
    assert {q["kind"] for q in asked} == {"direct", "reworded", "multi", "none"}
    bodies = {(d["id"], m["filename"]): m["body"] for d in dialogue for m in d["memories"]}
    terms = {key: generate.content_terms(body) for key, body in bodies.items()}
    recurring = 0
    single = [q for q in asked if len(q["expected"]) == 1]
    for q in single:  # the answering turn is a speaker's line of the expected session
        body = bodies[(q["dir"], q["expected"][0])]
        assert q["evidence_offset"] > 0 and body[q["evidence_offset"] - 1] == "\n", q["id"]
        assert turn.match(body[q["evidence_offset"] :]), q["id"]
        key = (q["dir"], q["expected"][0])
        others = [t for k, t in terms.items() if k[0] == q["dir"] and k != key]
        shared = generate.content_terms(q["query"]) & terms[key]
        recurring += any(sum(t in o for o in others) >= len(others) // 3 for t in shared)
    assert recurring / len(single) >= 0.8, recurring / len(single)


def test_the_dialogue_banks_of_tune_and_holdout_share_no_line_or_question(
    corpora: dict[str, dict[str, Any]],
) -> None:
    def said(corpus: dict[str, Any]) -> set[str]:
        dirs = [d for d in corpus["dirs"] if d["domain"] == "dialogue"]
        lines = {
            line.split(": ", 1)[-1]
            for d in dirs
            for m in d["memories"]
            for line in m["body"].splitlines()[2:]
        }
        ids = {d["id"] for d in dirs}
        return lines | {q["query"] for q in corpus["questions"] if q["dir"] in ids}

    assert not said(corpora["tune"]) & said(corpora["holdout"])


def test_the_summary_prints_the_non_english_kind_and_every_non_english_question_apart(
    recall_corpus: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's "non-English >= 0.7" can be read two ways: the questions of kind non-english,
    or every question asked in another language (reworded ones too). The summary prints both."""
    answer = recall_corpus.score

    def q(qid: str, kind: str, language: str, expected: list[str]) -> dict[str, Any]:
        return {"id": qid, "dir": "d", "kind": kind, "language": language, "expected": expected}

    answers = [
        answer(q("1", "non-english", "de", ["a.md"]), ["a.md"]),  # F1 1.0
        answer(q("2", "reworded", "de", ["b.md"]), []),  # F1 0.0, not of the kind
        answer(q("3", "direct", "en", ["c.md"]), ["c.md"]),
    ]
    recall_corpus.print_summary({"holdout": {"default": answers}})
    header, row = capsys.readouterr().out.strip().splitlines()[-2:]
    assert "non-en q" in header and "non-en all" in header
    cells = row.split()
    # holdout F1, gap, reworded, non-en q, non-en all, none-empty, R@5
    assert cells[0] == "default" and cells[4:6] == ["1.00", "0.50"], row
