"""full_text_fallback: without the model, the lexical selector's rule decides over BM25 alone."""

from __future__ import annotations

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.recall.dir_index import MemoryDoc
from memdir_nb.recall.full_text_fallback import full_text_fallback
from memdir_nb.recall.fulltext import LexicalHit
from memdir_nb.recall.lexical import LexicalOptions, tokens

OPTIONS = LexicalOptions()
QUERY = list(dict.fromkeys(tokens("deploy the staging cluster", OPTIONS)))


def _header(name: str) -> MemoryHeader:
    return MemoryHeader(name, f"/m/{name}", 0.0, name, "", None)


def _doc(*windows: str) -> MemoryDoc:
    return MemoryDoc(None, " ".join(windows), windows, ())


def _decided(
    hits: list[LexicalHit], classes: list[str | None], *, limit: int = 5
) -> dict[str, tuple[bool, str, int | None]]:
    names = [f"m{i}.md" for i in range(len(hits))]
    docs = [_doc("nothing here", "deploy to the staging cluster", "staging only")] * len(hits)
    rows = full_text_fallback(
        [_header(n) for n in names], docs, hits, classes, QUERY, OPTIONS, limit=limit, why="W"
    )
    assert [r.filename for r in rows][: sum(c == "warning" for c in classes)] == [
        n for n, c in zip(names, classes, strict=True) if c == "warning"
    ]  # tool warnings lead
    return {r.filename: (r.selected, r.reason, r.window_index) for r in rows}


def test_a_memory_is_picked_by_coverage_and_a_share_of_the_best_score() -> None:
    strong = LexicalHit(10.0, 0.9, ("deploy",))
    weak_score = LexicalHit(6.0, 0.9, ("deploy",))  # under 0.7 of the best
    weak_cover = LexicalHit(9.0, 0.1, ("deploy",))  # under the coverage floor
    unmatched = LexicalHit(9.5, 0.9, ())  # no query term held
    got = _decided([strong, weak_score, weak_cover, unmatched], [None] * 4)
    assert [name for name, (picked, _, _) in got.items() if picked] == ["m0.md"]
    assert got["m0.md"][1].startswith("W: picked") and got["m1.md"][1].startswith("W: below")


def test_a_picked_memory_names_the_window_holding_most_query_terms() -> None:
    got = _decided([LexicalHit(10.0, 0.9, ("deploy",))], [None])
    assert got["m0.md"] == (True, "W: picked", 1)


def test_tool_warnings_lead_usage_notes_never_count_and_the_limit_caps_the_picks() -> None:
    usage = LexicalHit(100.0, 1.0, ("deploy",))  # would set the bar for the others: it does not
    plain = LexicalHit(10.0, 0.9, ("deploy",))
    warning = LexicalHit(0.0, 0.0, ())
    got = _decided([usage, plain, warning, plain], ["usage", None, "warning", None], limit=2)
    picked = sorted(name for name, (ok, _, _) in got.items() if ok)
    assert picked == ["m1.md", "m2.md"]  # the warning, then the best plain one (by name)
    assert not got["m0.md"][0] and not got["m3.md"][0]
