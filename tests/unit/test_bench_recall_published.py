"""benchmarks/recall_published.py: labels, scoring, and one run over a tiny labelled dir."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
import recall_published as rp
from recall_eval import rank_figures

from memdir_nb.recall.semantic import SemanticSelector
from tests.conftest import _put, flat_memory

REPO = Path(__file__).resolve().parents[2]


def _tiny_dir(root: Path) -> Path:
    """Three memories written for this test; the deploy note is the newest."""
    _put(
        root / "feedback_deploy.md",
        flat_memory(
            "Deploy with the script",
            "How the staging deploy runs",
            "feedback",
            "Deploy staging with ./deploy.sh after the smoke tests pass.",
        ),
        1,
    )
    _put(
        root / "project_sqlite.md",
        flat_memory(
            "Database file",
            "Where the SQLite file lives",
            "project",
            "The SQLite database file is data/app.db; back it up before migrations.",
        ),
        5,
    )
    _put(
        root / "notes" / "user_role.md",
        flat_memory("Role", "The user is a data lead", "user", "Leads the data team."),
        9,
    )
    return root


def _labels(path: Path, memory_dir: Path, entries: list[dict[str, object]]) -> Path:
    rows = [{"dir": str(memory_dir), "language": "en", **e} for e in entries]
    path.write_text(json.dumps({"questions": rows}), encoding="utf-8")
    return path


def test_a_none_question_scores_one_only_when_answered_empty() -> None:
    q = rp.Question(Path("/x"), "weather?", "none", "en", ())
    assert rp.score("default", q, []).f1 == 1.0
    assert rp.score("newest", q, ["a.md"]).f1 == 0.0
    row = rp.score("default", q, [])
    assert (row.hit, row.recall, row.reciprocal_rank, row.empty) == (None, None, None, True)


def test_rank_figures_read_the_top_five_only() -> None:
    picks = ["a", "b", "c", "d", "e", "gold"]
    assert rank_figures(picks, {"gold"}) == (0.0, 0.0, 0.0)
    assert rank_figures(["a", "gold", "x"], {"gold", "other"}) == (1.0, 0.5, 0.5)


def test_summary_averages_rank_figures_over_answerable_questions_only() -> None:
    answerable = rp.Question(Path("/x"), "q", "direct", "en", ("a.md",))
    none = rp.Question(Path("/x"), "q", "none", "en", ())
    rows = [rp.score("grep", answerable, ["a.md"]), rp.score("grep", none, ["a.md"])]
    s = rp.summarise(rows)
    assert (s["n"], s["f1"], s["hit@5"], s["mrr"], s["none_empty"]) == (2, 0.5, 1.0, 1.0, 0.0)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"question": "q", "kind": "guess", "gold": ["a.md"]}, "kind 'guess' is not one of"),
        ({"question": "q", "kind": "none", "gold": ["a.md"]}, "only it does"),
        ({"question": "q", "kind": "direct", "gold": []}, "only it does"),
        ({"question": "", "kind": "direct", "gold": ["a.md"]}, "'question' must be"),
        ({"question": "q", "kind": "direct", "gold": "a.md"}, "'gold' must be a list"),
    ],
)
def test_a_malformed_label_names_its_entry_and_the_problem(
    tmp_path: Path, entry: dict[str, object], message: str
) -> None:
    path = _labels(tmp_path / "labels.json", tmp_path, [entry])
    with pytest.raises(rp.LabelsError, match=message) as err:
        rp.load_labels(path)
    assert "question 0" in str(err.value)


def test_a_missing_labels_file_exits_2_with_the_fix(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "recall_published.py"), str(tmp_path / "no")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert out.returncode == 2
    assert "is not a file: pass the path of the labels JSON file" in out.stderr
    assert "Traceback" not in out.stderr


def test_a_gold_name_the_scan_does_not_list_is_refused(tmp_path: Path) -> None:
    memory_dir = _tiny_dir(tmp_path / "mem")
    questions = rp.load_labels(
        _labels(
            tmp_path / "labels.json",
            memory_dir,
            [{"question": "deploy?", "kind": "direct", "gold": ["MEMORY.md"]}],
        )
    )
    selector = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    with pytest.raises(rp.LabelsError, match=r"gold \['MEMORY.md'\] not among the scanned"):
        rp.evaluate(questions, selector)


def test_every_ranker_answers_over_the_dir_as_scanned(tmp_path: Path) -> None:
    memory_dir = _tiny_dir(tmp_path / "mem")
    questions = rp.load_labels(
        _labels(
            tmp_path / "labels.json",
            memory_dir,
            [
                {
                    "question": "How do I deploy staging?",
                    "kind": "direct",
                    "gold": ["feedback_deploy.md"],
                },
                {
                    "question": "Who leads the data team?",
                    "kind": "direct",
                    "gold": ["notes/user_role.md"],
                },
            ],
        )
    )
    selector = SemanticSelector(cache_dir=tmp_path / "cache", progress=False)
    haystack = rp.read_haystack(memory_dir)
    assert haystack.bodies["project_sqlite.md"].strip().startswith("The SQLite database file")
    picks = rp.rankings(questions[0], haystack, selector, random.Random(0))
    assert picks["default"] == ["feedback_deploy.md"]
    assert picks["grep"][0] == picks["lexical"][0] == picks["ranking"][0] == "feedback_deploy.md"
    assert picks["newest"] == ["feedback_deploy.md", "project_sqlite.md", "notes/user_role.md"]
    assert sorted(picks["random"]) == sorted(haystack.bodies)
    rows, answers = rp.evaluate(questions, selector)
    assert len(rows) == 2 * len(rp.RANKERS)
    assert answers[1]["picks"]["default"] == ["notes/user_role.md"]  # type: ignore[index]
    assert "per language: F1 / hit@5 (n)" in rp.report(rows)
