"""dream.disk_kept: a plan with the on-disk cache is the plan without it, whatever the file holds."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdir_nb import machine
from memdir_nb.dream import compare, disk_kept, plan_snapshot, scored_texts
from memdir_nb.dream.actions import ConsolidationPlan
from memdir_nb.dream.disk_kept import CACHE_FILENAME, PAIRS_FILENAME, PlanCacheWarning
from memdir_nb.dream.kept import BlockResults
from memdir_nb.dream.plan import plan_consolidation
from memdir_nb.formats import index_batch
from memdir_nb.storage.derived_cache import DerivedCache

NOW_MS = 1_790_000_000_000.0
REPO = Path(__file__).resolve().parents[2]

_SUBJECTS = [
    "deploy the release on fridays after the freeze",
    "run the integration tests before every merge to main",
    "use tabs for indentation in the build scripts",
    "squash the commits of a feature branch before review",
    "write dates in memories as absolute dates",
    "ask before deleting a branch on the shared remote",
]
_FILLER = ["team", "agreed", "in", "march", "because", "the", "pager", "woke", "us", "twice"]
_TYPES = ["feedback", "project", "user"]


def _memory(rng: random.Random, n: int) -> tuple[str, str]:
    """A memory file's name and text: alike subjects, half of them negated, so a plan finds
    near-duplicates and contradictions; a few without a `name:` (named by their path)."""
    subject = rng.choice(_SUBJECTS)
    kind = rng.choice(_TYPES)
    negated = rng.random() < 0.4
    description = ("never " if negated else "") + subject
    if rng.random() < 0.5:
        description += " " + " ".join(rng.sample(_FILLER, 2))
    body = f"{description.capitalize()}.\n\n" + " ".join(rng.choices([*_FILLER, subject], k=8))
    if kind == "project" and rng.random() < 0.5:
        body += "\nDecided yesterday, shipped today."
    name_line = "" if rng.random() < 0.15 else f"name: {subject[:24]} {n % 7}\n"
    text = f"---\n{name_line}description: {description}\ntype: {kind}\n---\n\n{body}\n"
    return f"{kind}_{n:03d}.md", text


def _build(root: Path, seed: int, count: int = 36) -> Path:
    rng = random.Random(seed)
    root.mkdir(parents=True)
    for n in range(count):
        name, text = _memory(rng, n)
        path = root / name
        path.write_text(text, encoding="utf-8")
        when = NOW_MS / 1000 - n * 3_600
        os.utime(path, (when, when))
    (root / "MEMORY.md").write_text(
        "".join(f"- [{p.stem}]({p.name}) — a memory\n" for p in sorted(root.glob("*.md"))[:10]),
        encoding="utf-8",
    )
    return root


def _new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget what this process kept from earlier plans, as a new process starts."""
    monkeypatch.setattr(compare, "_DUPLICATE_BLOCKS", BlockResults())
    monkeypatch.setattr(compare, "_CONTRADICTION_BLOCKS", BlockResults())
    monkeypatch.setattr(scored_texts, "_PREPARED", {})
    monkeypatch.setattr(plan_snapshot, "_HEADS", {})
    monkeypatch.setattr(disk_kept, "_OPEN", {})
    index_batch.fit_index.cache_clear()  # its few answers kept in this process


def _shape(plan: ConsolidationPlan) -> tuple[Any, ...]:
    return (
        [repr(a) for a in plan.actions],
        list(plan.notes),
        sorted((k, v or "") for k, v in plan.hashes.items()),
        plan.diff(),
    )


def _plan(
    monkeypatch: pytest.MonkeyPatch, root: Path, cache: Path | None = None
) -> tuple[Any, ...]:
    _new_process(monkeypatch)
    return _shape(plan_consolidation(root, now_ms=NOW_MS, cache_dir=cache))


class _Counted:
    """Counts the calls of a planner step (to see what the disk spared)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> None:
        self.calls = 0
        real = getattr(module, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)


def test_an_unchanged_dirs_plan_in_a_new_process_parses_and_prepares_nothing_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _build(tmp_path / "memory", seed=1)
    cache = tmp_path / "cache"
    bare = _plan(monkeypatch, root)
    actions = " ".join(bare[0])
    assert "merge_duplicates" in actions and "flag_contradiction" in actions  # not vacuous
    assert _plan(monkeypatch, root, cache) == bare  # cold: computes, and writes the file
    assert (cache / CACHE_FILENAME).is_file()
    heads = _Counted(monkeypatch, plan_snapshot, "core_header")
    texts = _Counted(monkeypatch, compare, "prepared_texts")
    pairs = _Counted(monkeypatch, compare, "_near_duplicate_pairs")
    assert _plan(monkeypatch, root, cache) == bare  # warm
    assert (heads.calls, texts.calls, pairs.calls) == (0, 0, 0)


_EDITS = st.lists(
    st.tuples(
        st.sampled_from(
            ["negate", "retype", "rename", "unname", "body", "same-stat", "delete", "move"]
        ),
        st.integers(0, 35),
    ),
    min_size=1,
    max_size=6,
)


def _edit(root: Path, op: str, n: int) -> None:
    files = sorted(p for p in root.glob("*.md") if p.name != "MEMORY.md")
    path = files[n % len(files)]
    st_before = path.stat()
    text = path.read_text(encoding="utf-8")
    if op == "delete":
        path.unlink()
        return
    if op == "move":  # the same bytes under another path: a memory without `name:` is renamed
        slug = "-".join(_SUBJECTS[n % len(_SUBJECTS)].split()[:4])
        path.rename(path.with_name(f"{path.stem.split('_')[0]}_{slug}_{n}.md"))
        return
    if op == "negate":
        text = (
            text.replace("description: never ", "description: ", 1)
            if ("description: never " in text)
            else text.replace("description: ", "description: never ", 1)
        )
    elif op == "retype":
        kind = text.split("\ntype: ", 1)[1].split("\n", 1)[0]
        text = text.replace(
            f"\ntype: {kind}\n", f"\ntype: {_TYPES[(_TYPES.index(kind) + 1) % 3]}\n"
        )
    elif op == "rename":
        text = text.replace("name: ", "name: renamed ", 1) if "\nname: " in text else text
    elif op == "unname":
        text = "---\n" + "\n".join(
            line for line in text[4:].split("\n") if not line.startswith("name: ")
        )
    elif op == "body":
        text += "Never deploy the release on fridays after the freeze.\n"
    else:  # another description of the same size (polarity flipped), the times put back
        head, rest = text.split("description: ", 1)
        swapped = "today " if rest.startswith("never ") else "never "
        text = head + "description: " + swapped + rest[6:]
    path.write_text(text, encoding="utf-8")
    if op == "same-stat":
        os.utime(path, ns=(st_before.st_atime_ns, st_before.st_mtime_ns))


def _forking(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The contradiction step run in a forked child at any size (as from BESIDE_MIN_MEMORIES
    memories on); gives the list of the children asked for, as they are."""
    forks: list[int] = []
    real = machine.beside_this_process

    def counted(work: Any) -> Any:
        forks.append(len(forks))
        return real(work)

    monkeypatch.setattr(compare, "fork_pays", lambda n, least: True)
    monkeypatch.setattr(compare, "beside_this_process", counted)
    return forks


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 10_000), edits=_EDITS)
@pytest.mark.parametrize("way", ["here", "fork"])
def test_a_plan_with_a_warm_cache_equals_one_without_after_random_edits(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    seed: int,
    edits: list[tuple[str, int]],
    way: str,
) -> None:
    # way: the contradiction step in this process, or in a forked child (its reads and writes
    # of the cache replayed here)
    if way == "fork":
        if not sys.platform.startswith("linux"):
            pytest.skip("forks on Linux only")
        _forking(monkeypatch)
    tmp = tmp_path_factory.mktemp("edits")
    root = _build(tmp / "memory", seed=seed)
    cache = tmp / "cache"
    _plan(monkeypatch, root, cache)  # the cache as the dir was
    for op, n in edits:
        _edit(root, op, n)
    assert _plan(monkeypatch, root, cache) == _plan(monkeypatch, root)


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x00\xff\xfe not json",
        None,  # the real file cut in half
        b'{"kind": "another program", "version": "1", "entries": {}}',
        b'{"kind": "memdir_nb dream plan", "version": "x", "entries": {"h0": 1}}',
        b"[" * 100_000,
    ],
    ids=["empty", "garbage", "cut", "foreign", "other-version", "deep"],
)
def test_a_damaged_or_foreign_cache_file_changes_no_plan_and_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes | None
) -> None:
    root = _build(tmp_path / "memory", seed=2)
    cache = tmp_path / "cache"
    bare = _plan(monkeypatch, root)
    _plan(monkeypatch, root, cache)
    path = cache / CACHE_FILENAME
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2] if content is None else content)
    assert _plan(monkeypatch, root, cache) == bare
    assert path.read_bytes() == whole  # rebuilt: the same entries, in the same order


def test_a_symlinked_or_oversized_cache_file_is_not_read_and_its_target_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _build(tmp_path / "memory", seed=3)
    cache = tmp_path / "cache"
    bare = _plan(monkeypatch, root)
    _plan(monkeypatch, root, cache)
    path = cache / CACHE_FILENAME
    target = tmp_path / "target.json"
    path.rename(target)
    path.symlink_to(target)
    heads = _Counted(monkeypatch, plan_snapshot, "core_header")
    assert _plan(monkeypatch, root, cache) == bare
    assert heads.calls == 36 and not path.is_symlink()  # not read through the link
    monkeypatch.setattr(disk_kept, "MAX_BYTES", path.stat().st_size - 1)
    assert _plan(monkeypatch, root, cache) == bare  # too large to read: made again


def test_a_cache_another_version_wrote_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _build(tmp_path / "memory", seed=4)
    cache = tmp_path / "cache"
    bare = _plan(monkeypatch, root)
    _plan(monkeypatch, root, cache)
    path = cache / CACHE_FILENAME
    doc = json.loads(path.read_bytes())
    # what an older planner might have found: no pair anywhere (a shape this one accepts)
    doc["entries"] = {k: ([] if k[0] in "cd" else v) for k, v in doc["entries"].items()}
    path.write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.setattr(disk_kept, "FORMAT", disk_kept.FORMAT + 1)
    assert _plan(monkeypatch, root, cache) == bare
    monkeypatch.setattr(compare, "DUPLICATE_BODY_THRESHOLD", compare.DUPLICATE_BODY_THRESHOLD)
    assert disk_kept.version("s") != disk_kept.version("t")  # the scorer's version counts


def test_an_unwritable_cache_root_is_said_once_and_the_plan_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _build(tmp_path / "memory", seed=5)
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    bare = _plan(monkeypatch, root)
    monkeypatch.setattr(disk_kept, "_said", set())
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert _plan(monkeypatch, root, blocker / "cache") == bare
        assert _plan(monkeypatch, root, blocker / "cache") == bare
    told = [w for w in seen if issubclass(w.category, PlanCacheWarning)]
    assert len(told) == 1 and "MEMDIR_NB_CACHE_DIR" in str(told[0].message)
    assert blocker.read_text() == "in the way"


_CHILD = """
import json, sys
from memdir_nb.dream.plan import plan_consolidation
from memdir_nb.storage.derived_cache import DerivedCache
plan = plan_consolidation(sys.argv[1], now_ms=float(sys.argv[3]), cache_dir=sys.argv[2])
print(json.dumps([repr(a) for a in plan.actions]))
"""


def test_two_processes_planning_at_once_share_the_file_and_change_no_plan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roots = [_build(tmp_path / f"memory{n}", seed=10 + n) for n in range(2)]
    cache = tmp_path / "cache"
    want = [_plan(monkeypatch, root)[0] for root in roots]
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONWARNINGS": "error::UserWarning"}
    for _ in range(3):
        children = [
            subprocess.Popen(
                [sys.executable, "-c", _CHILD, str(root), str(cache), str(NOW_MS)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
            for root in (*roots, *roots)
        ]
        outs = [child.communicate() for child in children]
        assert [child.returncode for child in children] == [0, 0, 0, 0], outs
        assert [json.loads(out) for out, _ in outs] == [*want, *want]
    assert sorted(os.listdir(cache)) == [PAIRS_FILENAME, CACHE_FILENAME]  # no temp file left
    doc = json.loads((cache / CACHE_FILENAME).read_bytes())
    assert doc["kind"] == disk_kept.KIND


@pytest.mark.parametrize(
    "bad",
    [
        None,
        7,
        "text",
        [[0, 10_000]],
        [[1, 1]],
        [[0, -1]],
        [[0, 1.0]],
        [[True, 1]],
        [1, "", ""],
        [None, 2, ""],
        [None, "", None],
        [[0, 1, 2]],
    ],
)
def test_a_value_of_another_shape_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bad: object
) -> None:
    root = _build(tmp_path / "memory", seed=6)
    cache = tmp_path / "cache"
    bare = _plan(monkeypatch, root)
    _plan(monkeypatch, root, cache)
    path = cache / CACHE_FILENAME
    doc = json.loads(path.read_bytes())
    # every value this shape, but the empty pair lists (a shape a block may have)
    doc["entries"] = {k: (v if v == [] else bad) for k, v in doc["entries"].items()}
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert _plan(monkeypatch, root, cache) == bare


def test_a_memory_named_by_its_path_is_compared_again_when_moved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same bytes, no `name:`: the file's stem is its name, which near-duplicates compare.
    root = tmp_path / "memory"
    root.mkdir()
    text = "---\ndescription: deploy the release on fridays\ntype: feedback\n---\n\nFridays.\n"
    for n, stem in enumerate(["feedback_deploy-fridays", "feedback_deploy-fridays-2"]):
        (root / f"{stem}.md").write_text(text, encoding="utf-8")
        os.utime(root / f"{stem}.md", (NOW_MS / 1000 - n, NOW_MS / 1000 - n))
    cache = tmp_path / "cache"
    assert "merge_duplicates" in " ".join(_plan(monkeypatch, root, cache)[0])
    moved = root / "feedback_quarterly-budget-review-minutes-archive.md"
    (root / "feedback_deploy-fridays-2.md").rename(moved)
    bare = _plan(monkeypatch, root)
    assert "merge_duplicates" not in " ".join(bare[0])
    assert _plan(monkeypatch, root, cache) == bare


def _feedback(root: Path, name: str, description: str, body: str, age_hours: int) -> None:
    path = root / f"{name}.md"
    text = f"---\nname: {name}\ndescription: {description}\ntype: feedback\n---\n\n{body}\n"
    path.write_text(text, encoding="utf-8")
    when = NOW_MS / 1000 - age_hours * 3_600
    os.utime(path, (when, when))


_RULE = "never use tabs for indentation in the build scripts"
_RULE_BODY = "The old linter of the ci rejects them since march, said the release team."


def test_a_changed_partner_of_an_unchanged_memory_is_scored_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A contradiction pair's kept score is keyed by both members' hashes: when one member
    changes (still a candidate, now scoring under the threshold), the pair is scored again.
    Several pairs, so some unchanged member has the smaller hash (its entry holds the pair)."""
    root = tmp_path / "memory"
    root.mkdir()
    cache = tmp_path / "cache"
    for k in range(4):
        _feedback(root, f"rule_{k}", f"{_RULE} {k}", _RULE_BODY, k)
        _feedback(
            root,
            f"tabs_{k}",
            f"use tabs for indentation in the build scripts {k}",
            "Make wants them.",
            10 + k,
        )
    flagged = _plan(monkeypatch, root)
    assert "flag_contradiction" in " ".join(flagged[0])
    assert _plan(monkeypatch, root, cache) == flagged
    for k in range(4):
        body = "Make wants them; the pager woke us twice over spaces."
        _feedback(
            root, f"tabs_{k}", f"use tabs in the makefiles of the release team {k}", body, 10 + k
        )
    scored = _Scored(monkeypatch)
    bare = _plan(monkeypatch, root)
    assert "flag_contradiction" not in " ".join(bare[0]) and scored.pairs  # still candidates
    assert _plan(monkeypatch, root, cache) == bare


class _Scored:
    """The contradiction texts of every pair handed to the scorer (pair by pair)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.pairs: list[tuple[str, str]] = []
        real = compare._similar_pairs

        def scored(pairs: list[tuple[int, int]], texts: list[str], fuzz: Any) -> Any:
            self.pairs += [(texts[i], texts[j]) for i, j in pairs]
            return real(pairs, texts, fuzz)

        monkeypatch.setattr(compare, "_similar_pairs", scored)


def test_a_pairs_kept_score_is_found_whatever_the_plans_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pair is keyed by its members' hashes in sorted order, not the plan's: after every
    file's time is turned around (every type's order, so its key, changes) and one memory is
    added, a warm plan scores only the new memory's candidates."""
    root = _build(tmp_path / "memory", seed=3)
    cache = tmp_path / "cache"
    _plan(monkeypatch, root, cache)
    files = sorted(p for p in root.glob("*.md") if p.name != "MEMORY.md")
    for n, path in enumerate(files):
        when = NOW_MS / 1000 - (len(files) - n) * 3_600
        os.utime(path, (when, when))
    _feedback(root, "zebra", "never deploy the release on fridays zebra", "Zebra rule.", 0)
    bare = _plan(monkeypatch, root)
    scored = _Scored(monkeypatch)
    assert _plan(monkeypatch, root, cache) == bare
    assert scored.pairs and all("zebra" in a + b for a, b in scored.pairs)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")
def test_a_forked_contradiction_step_keeps_its_pairs_for_a_later_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From BESIDE_MIN_MEMORIES memories the contradiction step runs in a forked child. What it
    finds is kept in the cache files as a step run here keeps it: an unchanged dir's warm plan
    forks no child and prepares no text, and after one memory is added the child scores only
    that memory's candidates."""
    root = _build(tmp_path / "memory", seed=3)
    cache = tmp_path / "cache"
    forks = _forking(monkeypatch)
    bare = _plan(monkeypatch, root)
    assert "flag_contradiction" in " ".join(bare[0]) and forks == [0]
    assert _plan(monkeypatch, root, cache) == bare and forks == [0, 1]  # cold
    entries = json.loads((cache / CACHE_FILENAME).read_text())["entries"]
    assert any(key.startswith("c") for key in entries)
    assert (cache / PAIRS_FILENAME).is_file()
    texts = _Counted(monkeypatch, compare, "prepared_texts")
    assert _plan(monkeypatch, root, cache) == bare and forks == [0, 1]  # warm: no child
    assert texts.calls == 0
    _feedback(root, "zebra", "never deploy the release on fridays zebra", "Zebra rule.", 0)
    changed = _plan(monkeypatch, root)
    scored = tmp_path / "scored"  # written in the child, where the scorer runs
    real = compare._similar_pairs

    def logged(pairs: list[tuple[int, int]], texts: list[str], fuzz: Any) -> Any:
        with scored.open("a", encoding="utf-8") as out:
            out.writelines(f"{texts[i]} | {texts[j]}\n" for i, j in pairs)
        return real(pairs, texts, fuzz)

    monkeypatch.setattr(compare, "_similar_pairs", logged)
    assert _plan(monkeypatch, root, cache) == changed and forks == [0, 1, 2, 3]
    lines = scored.read_text(encoding="utf-8").splitlines()
    assert lines and all("zebra" in line for line in lines)


def test_an_unchanged_dirs_warm_plan_does_not_read_the_pair_scores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pair scores are read only for a type that changed: an unchanged dir's warm plan
    leaves even a garbage pairs file as it is (it neither parses nor rewrites it)."""
    root = _build(tmp_path / "memory", seed=5)
    cache = tmp_path / "cache"
    bare = _plan(monkeypatch, root)
    assert _plan(monkeypatch, root, cache) == bare
    (cache / PAIRS_FILENAME).write_bytes(b"\x00 not json")
    assert _plan(monkeypatch, root, cache) == bare
    assert (cache / PAIRS_FILENAME).read_bytes() == b"\x00 not json"


def _damaged(value: str, damage: str) -> Any:
    if damage == "cut-values":
        return value[:-1]
    if damage == "lists":
        return [value]
    return value.upper().replace("0", "1")


@pytest.mark.parametrize("damage", ["garbage", "cut-values", "lists", "upper-case"])
def test_a_damaged_pairs_file_changes_no_plan_of_a_changed_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    root = _build(tmp_path / "memory", seed=6)
    cache = tmp_path / "cache"
    _plan(monkeypatch, root, cache)
    pairs = cache / PAIRS_FILENAME
    doc = json.loads(pairs.read_text(encoding="utf-8"))
    entries = doc["entries"]
    assert entries and all(key.startswith("p") for key in entries)
    if damage == "garbage":
        pairs.write_bytes(b"{[")
    else:
        doc["entries"] = {key: _damaged(value, damage) for key, value in entries.items()}
        pairs.write_text(json.dumps(doc), encoding="utf-8")
    for n in range(0, 36, 9):  # every type holds a changed memory
        _edit(root, "body", n)
    assert _plan(monkeypatch, root, cache) == _plan(monkeypatch, root)
    assert json.loads(pairs.read_text(encoding="utf-8"))["kind"] == disk_kept.PAIRS_KIND


def test_a_cold_cache_looks_up_no_pair_score_and_keeps_what_a_lookup_each_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An empty scores' file gives no score: a cold plan records its candidates without a
    lookup for each first member (1,558 in the 2,000-file bench dir), and writes the very
    files, byte for byte, that looking each up writes."""
    root = _build(tmp_path / "memory", seed=7)
    bare = _plan(monkeypatch, root)
    looked = _Counted(monkeypatch, disk_kept.PlanCache, "scores")
    assert _plan(monkeypatch, root, tmp_path / "cold") == bare
    assert looked.calls == 0
    monkeypatch.setattr(disk_kept.PlanCache, "holds_scores", lambda self: True)
    assert _plan(monkeypatch, root, tmp_path / "each") == bare
    assert looked.calls > 0
    for name in (CACHE_FILENAME, PAIRS_FILENAME):
        cold = (tmp_path / "cold" / name).read_bytes()
        assert cold == (tmp_path / "each" / name).read_bytes()
    assert len(json.loads(cold)["entries"]) > 5


@given(
    st.lists(
        st.dictionaries(
            st.text(alphabet="0123456789abcdef", min_size=32, max_size=32),
            st.sampled_from(["0", "1"]),
            min_size=1,
            max_size=6,
        ),
        max_size=5,
    )
)
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_pair_scores_read_back_as_put_whether_or_not_a_pair_reaches(
    tmp_path: Path, firsts: list[dict[str, str]]
) -> None:
    """put_scores writes an entry with no "1" in a shorter way (the partners joined by "0"):
    every entry reads back in the next process as it was put, in order."""
    cache = tmp_path / f"c{len(list(tmp_path.iterdir()))}"
    shas = [f"{n:064x}" for n in range(len(firsts))]
    disk = disk_kept.PlanCache(cache, "scorer")
    disk.put_scores(zip(shas, firsts, strict=True))
    disk.save()
    later = disk_kept.PlanCache(cache, "scorer")
    for sha, scores in zip(shas, firsts, strict=True):
        assert list(later.scores(sha).items()) == list(scores.items())


def test_a_cold_plan_looks_up_no_header_in_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file read empty holds no header: a cold plan parses each header without a lookup, and
    a warm one finds them all."""
    root = _build(tmp_path / "memory", seed=8)
    bare = _plan(monkeypatch, root)
    real = DerivedCache.get
    asked: list[str] = []

    def get(self: Any, key: str) -> Any:
        asked.append(key)
        return real(self, key)

    monkeypatch.setattr(DerivedCache, "get", get)
    assert _plan(monkeypatch, root, tmp_path / "cache") == bare
    assert not [key for key in asked if key.startswith("h")]
    parsed = _Counted(monkeypatch, plan_snapshot, "core_header")
    assert _plan(monkeypatch, root, tmp_path / "cache") == bare
    assert len([key for key in asked if key.startswith("h")]) >= 30 and parsed.calls == 0


def test_a_cold_plan_asks_for_no_header_and_writes_what_a_put_each_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cold file can find no header: the plan does not ask it once per file, puts the
    headers it parsed in one call, and writes both files byte for byte as the plan that asks
    and puts each header (and looks up each pair's score) writes. Two files of the same bytes
    give one header entry."""
    root = _build(tmp_path / "memory", seed=9)
    twin = sorted(root.glob("*.md"))[1]
    (root / "twin.md").write_bytes(twin.read_bytes())
    bare = _plan(monkeypatch, root)
    asked = _Counted(monkeypatch, disk_kept.PlanCache, "head")
    one = _Counted(monkeypatch, disk_kept.PlanCache, "put_head")
    assert _plan(monkeypatch, root, tmp_path / "cold") == bare
    assert asked.calls == 0 and one.calls == 0
    monkeypatch.setattr(disk_kept.PlanCache, "may_hold_heads", lambda self: True)
    monkeypatch.setattr(disk_kept.PlanCache, "holds_scores", lambda self: True)  # pairs too
    assert _plan(monkeypatch, root, tmp_path / "each") == bare
    # every memory's but the twin's (plan._HEADS holds it) and MEMORY.md's
    assert one.calls == asked.calls == len(list(root.glob("*.md"))) - 2
    for name in (CACHE_FILENAME, PAIRS_FILENAME):
        cold = (tmp_path / "cold" / name).read_bytes()
        assert cold == (tmp_path / "each" / name).read_bytes()
    entries = json.loads((tmp_path / "cold" / CACHE_FILENAME).read_bytes())["entries"]
    assert len([key for key in entries if key.startswith("h")]) == one.calls


def _re_date(path: Path, day: str) -> None:
    text = path.read_text(encoding="utf-8")
    old = text.split("modified: ", 1)[1][:10]
    path.write_text(text.replace(f"modified: {old}", f"modified: {day}"), encoding="utf-8")


@pytest.mark.parametrize("change", ["none", "index", "order"])
def test_an_over_cap_index_is_fitted_once_and_fitted_again_when_its_text_or_order_changes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    real_dir: Any,
    change: str,
) -> None:
    # plan40b: a new process planning an unchanged dir took its index's fit from the disk
    # cache, not fitted again (~37 ms of the bench dir's plan); a changed text or order is
    # another key, fitted again
    root = real_dir("cloned-over-cap")
    cache = tmp_path / "cache"
    _plan(monkeypatch, root, cache)  # the cache as the dir was
    if change == "index":
        index_md = root / "MEMORY.md"
        index_md.write_text(index_md.read_text(encoding="utf-8") + "Firing 999: glaze.\n")
    elif change == "order":  # the wheel rota, the oldest, made the newest: another goes first
        _re_date(root / "project_wheel_rota.md", "2026-12-01")
    bare = _plan(monkeypatch, root)
    assert "fit_index_caps" in " ".join(bare[0])  # not vacuous
    _new_process(monkeypatch)
    fits = _Counted(monkeypatch, index_batch, "_drop_until_fit")
    plan = plan_consolidation(root, now_ms=NOW_MS, cache_dir=cache)
    assert fits.calls == (0 if change == "none" else 1)  # the plan's own (its diff fits too)
    assert _shape(plan) == bare


def test_a_kept_fit_of_another_shape_is_fitted_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, real_dir: Any
) -> None:
    root = real_dir("cloned-over-cap")
    cache = tmp_path / "cache"
    bare = _plan(monkeypatch, root)
    _plan(monkeypatch, root, cache)
    path = cache / CACHE_FILENAME
    doc = json.loads(path.read_bytes())
    fits = [k for k in doc["entries"] if k.startswith("f")]
    assert len(fits) == 1
    doc["entries"][fits[0]] = ["not", "a", "text"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert _plan(monkeypatch, root, cache) == bare
    assert isinstance(json.loads(path.read_bytes())["entries"][fits[0]], str)  # made again
