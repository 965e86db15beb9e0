"""REALTALK as memory dirs: a second public benchmark, never tuned on.

Usage:
    python benchmarks/realtalk.py PATH/TO/REALTALK/data [--conversations N] [--cache-dir D]
        [--json OUT] [--seed S]

REALTALK (Lee, Maharana, Pujara, Ren, Barbieri, 2025, arXiv 2502.13270) is ten 21-day
conversations between real people on a messaging app, with memory-probing questions whose
evidence ids name the turns that answer them, in LoCoMo's format. Get the ten
`data/Chat_*.json` files by hand from the danny911kr/REALTALK repository (commit b903e06) and
pass the directory that holds them. The repository publishes no licence: read the files, never
commit or redistribute them. Every file's SHA-256 is checked first; a missing or different file
is refused, because the figures are only for these exact files.

Layout (the one benchmarks/locomo.py uses, so the two tables read alike): one memory dir per
conversation, one memory file per session, named "Session N (<date>)". REALTALK has no session
summaries; the description is the first sub-event its annotators wrote for the session (the
first speaker's, else the second's), or "Chat session N." when the session has none. The body is
"# Chat session at <date>" and one "Speaker: text" line per turn (the cleaned text; a shared
image adds its caption as "[image: caption]", as REALTALK's own question-answering prompt does).
Sessions are written oldest first, so the newest session has the newest mtime.

Each conversation is turned into LoCoMo's sample shape (`as_locomo_sample`) and scored by
locomo.run_sample, so the selector, the gold sets and the metrics are LoCoMo's code. Every
question is answerable (categories 1 multi-hop, 2 temporal, 3 open-domain: LoCoMo's numbering,
which REALTALK's own scoring follows); its gold set is the sessions its evidence ids name.
Evidence ids that name no session (a few are malformed, such as "D58") leave a question with no
gold session: it still counts, as a miss for every ranker, and the report says how many.

Printed, in one run: default (SemanticSelector's answer), ranking (its candidates by pick
probability, no gate), lexical (its full-text channel alone), grep
(recall_baselines.grep_rank), BM25 top-5 (recall_baselines.BM25BodySelector over name,
description and body) and random (five sessions, fixed seed); hit@5, recall@5, MRR, the empty
rate, and the same per category.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

BENCH = Path(__file__).resolve().parent
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import locomo  # noqa: E402  (the layout, run_sample, Tally and report: one home, both benchmarks)
from recall_baselines import BM25BodySelector  # noqa: E402  (the one BM25 baseline)

from memdir_nb.recall.semantic import SemanticSelector  # noqa: E402

# The ten conversations of danny911kr/REALTALK data/ at commit b903e06a (2025-07-03).
REALTALK_SHA256 = {
    "Chat_1_Emi_Elise.json": "4e947998a751a1ba2c3710fc873b90fbcbc234fda7a5e4e75db2b762e0f25a36",
    "Chat_2_Kevin_Elise.json": "4ac6e319c206731aa9a025c93325eb1edb43686cf39473f058c87ae7deb2d62a",
    "Chat_3_Kevin_Paola.json": "10c9208016538cbe7a28aafa6cfd72587b072677964c36ec242159fdf58961f2",
    "Chat_4_Emi_Paola.json": "80aa012ed6a918f5b317bd942b4d4811a158d27a6e07b7a5c6182994107a9367",
    "Chat_5_Nicolas_Nebraas.json": "32dd7c45786b1a26861dc1574a1bb698a855196fd2ae3fc0c091f3c9ab2d6d06",
    "Chat_6_Vanessa_Nicolas.json": "9d5ee072ab5a0667ef71d5644d7cd3a4c6777a1e6e2252bf306f310d982e40ac",
    "Chat_7_Nebraas_Vanessa.json": "b5716bb093217980e747dec0d98996829b569febc09587a025efc6b79806e9ce",
    "Chat_8_Akib_Muhhamed.json": "814f64ad7e8a46f0398f550fe84184e2ba495a292290b9ff96ffc95448280800",
    "Chat_9_Fahim_Akib.json": "05b9b4331bf0e25a2a64dc89c404622c83a61ab5e7c935fb7d844449caf6dd39",
    "Chat_10_Fahim_Muhhamed.json": "26135a9e3482f40bea4c71de570a2d994a361848111067e60587be1dd82a0127",
}
# Read at most this much of a data file: more is no REALTALK conversation (each of the ten is a
# few hundred KB of JSON), and a name linked to a large file was read whole before being hashed
# (attack round 25).
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain"}
BM25 = "BM25 top-5"
RANKERS = ("default", "ranking", "lexical", "grep", BM25, "random")
TITLE = "REALTALK, every question (categories 1-3)"
_SESSION = re.compile(r"session_(\d+)")


class RealtalkFileError(SystemExit):
    """The given directory does not hold REALTALK's ten expected files."""


def _file_order(name: str) -> tuple[int, str]:
    """Chat_2_… before Chat_10_…: the number after "Chat_", then the name."""
    number = re.match(r"Chat_(\d+)_", name)
    return (int(number.group(1)) if number else 0, name)


def check_dir(path: Path, expected: Mapping[str, str] = REALTALK_SHA256) -> list[dict]:
    """Every expected file of `path`, parsed and turned into LoCoMo's sample shape, after
    checking its SHA-256 against `expected` (file name -> hex digest). `expected` is
    REALTALK's ten files; only the harness's own tests pass another table, for files they
    write. A missing or different file raises RealtalkFileError naming it and the fix."""
    if not path.is_dir():
        raise RealtalkFileError(
            f"{path} is not a directory. Download the ten data/Chat_*.json files of the "
            "danny911kr/REALTALK repository and pass the directory that holds them."
        )
    samples = []
    for name in sorted(expected, key=_file_order):
        raw = locomo.read_data_file(
            path / name,
            expected[name],
            missing=f"{path} has no {name}: this benchmark reads all ten conversations of "
            "REALTALK's data/ directory. Download the missing file from danny911kr/REALTALK.",
            what=f"REALTALK's data/{name}",
            fix="Download it again from the danny911kr/REALTALK repository (commit b903e06).",
            error=RealtalkFileError,
        )
        samples.append(as_locomo_sample(json.loads(raw.decode("utf-8")), Path(name).stem))
    return samples


def turn_text(turn: Mapping[str, object]) -> str:
    """One turn's text: the cleaned message, then a shared image's caption."""
    text = str(turn.get("clean_text") or "")
    caption = turn.get("blip_caption")
    if caption:
        text = f"{text} [image: {caption}]".strip()
    return text


def first_sub_event(events: object) -> str:
    """The first sub-event written for a session (the first speaker's, else the second's),
    or "" when there is none."""
    if not isinstance(events, dict):
        return ""
    for agent in ("agent_a", "agent_b"):
        for event in events.get(agent) or []:
            text = " ".join(str(event.get("sub-event") or "").split())
            if text:
                return text
    return ""


def as_locomo_sample(data: Mapping[str, object], sample_id: str) -> dict:
    """One REALTALK conversation in the shape locomo.write_dir and locomo.run_sample read:
    sessions of {"speaker", "text"} turns, their dates, a one-line summary per session (its
    first sub-event) and the questions as they are."""
    conversation: dict[str, object] = {}
    summaries: dict[str, str] = {}
    for key, value in data.items():
        number = _SESSION.fullmatch(key)
        if not number or not isinstance(value, list):
            continue
        n = number.group(1)
        conversation[key] = [{"speaker": t["speaker"], "text": turn_text(t)} for t in value]
        conversation[f"session_{n}_date_time"] = data.get(f"session_{n}_date_time", "")
        summaries[f"session_{n}_summary"] = first_sub_event(data.get(f"events_session_{n}"))
    questions = data.get("qa")
    return {
        "sample_id": sample_id,
        "conversation": conversation,
        "session_summary": summaries,
        "qa": list(questions) if isinstance(questions, list) else [],
    }


def no_gold_count(samples: Sequence[dict]) -> int:
    """Questions whose evidence ids name no session that holds turns."""
    count = 0
    for sample in samples:
        known = {locomo.session_filename(n) for n in locomo.sessions_of(sample)}
        count += sum(1 for qa in sample["qa"] if not locomo.gold_of(qa, known))
    return count


def run(samples: Sequence[dict], root: Path, selector: SemanticSelector, seed: int) -> dict:
    """Every question of every conversation, asked of its own dir, with every ranker."""
    tallies = {name: locomo.Tally() for name in RANKERS}
    bm25 = BM25BodySelector()
    extra: dict[str, locomo.Ranker] = {BM25: lambda q, hay: bm25.select(q, hay.headers)}
    rng = random.Random(seed)
    for sample in samples:
        haystack = locomo.conversation_dir(sample, root)
        locomo.run_sample(
            sample, haystack, selector, tallies, rng, categories=CATEGORIES, extra=extra
        )
    return tallies


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="the directory of REALTALK's ten data/Chat_*.json files")
    parser.add_argument("--conversations", type=int, default=0, help="only the first N (0 = all)")
    parser.add_argument("--cache-dir", help="vector cache (default: a fresh temp dir)")
    parser.add_argument("--json", dest="json_out", help="also write the figures as JSON here")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random baseline")
    args = parser.parse_args(argv)
    try:
        samples = check_dir(Path(args.path))
    except RealtalkFileError as err:
        print(f"realtalk.py: {err}", file=sys.stderr)
        return 2
    if args.conversations:
        samples = samples[: args.conversations]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="realtalk-") as tmp:
        cache_dir = Path(args.cache_dir) if args.cache_dir else Path(tmp) / "cache"
        selector = locomo.loaded_selector("realtalk.py", cache_dir)
        if selector is None:
            return 2
        tallies = run(samples, Path(tmp) / "dirs", selector, args.seed)
    text = locomo.report(tallies, time.perf_counter() - start, title=TITLE, categories=CATEGORIES)
    print(text)
    print(
        f"questions whose evidence names no session (a miss for every ranker): "
        f"{no_gold_count(samples)}"
    )
    if args.json_out:
        data = {
            name: {"all": t.summary(), **{CATEGORIES[c]: t.summary(c) for c in CATEGORIES}}
            for name, t in tallies.items()
        }
        Path(args.json_out).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
