"""Dialogue dirs (twenty-second session): LoCoMo's layout, appended to both corpora.

LoCoMo keeps one memory per chat session between two named people: the name is "Session N
(<date>)", the description the first sentence of a short summary of the session (about a third
of them say no more than who talked and when), the body a date line and one "Name: utterance"
line per turn, 2-4 k characters. What makes it hard for a lexical ranker to be beaten there is
that the rare words of a question (the two people's names, their pets, towns, hobbies and
running projects) recur in many sessions, while one or two sessions hold the answer.

A dialogue bank (bank_dialogue_<corpus>.py) gives, per dir: the two people, greetings and
goodbyes, a pool of small-talk exchanges that mention the recurring names (never the answer to a
question), and the sessions in order, each with a summary, its main exchange (a turn marked
`1A:` or `2B:` carries the fact of the session's first or second question) and its questions.
A session's body is its greeting, its main exchange with four to nine small-talk exchanges
around it (so the answering turn sits anywhere), and a goodbye. Questions follow LoCoMo's
categories: single-hop and temporal ("When did ...?", answered by the session's date line) on
one session, multi-hop on two, and a few "nothing relevant" near misses. A single-session
question keeping a word of the memory's name or description is "direct", one sharing none
"reworded" (the corpora's rule); two-session ones are "multi". Each question carries its LoCoMo
category in an extra field `"category"` that the harness ignores.
"""

from __future__ import annotations

import datetime
import random
import re
from typing import Any

from generate import Built, QuestionSet, content_terms

CATEGORIES = ("single-hop", "temporal", "multi-hop", "none")
MARK = re.compile(r"^(?:(\d))?([AB]): ")  # an optional fact number, then the speaker


def S(summary: str, turns: str, questions: list[tuple[str, int, str]]) -> dict[str, Any]:
    """A session: summary sentences, the main exchange, questions (category, fact number, text)."""
    lines = [line.strip() for line in turns.strip().splitlines() if line.strip()]
    assert all(MARK.match(line) for line in lines), turns[:60]
    for category, fact, _ in questions:
        assert category in ("single-hop", "temporal") and any(
            line.startswith(f"{fact}") for line in lines
        ), (category, fact, turns[:60])
    return {"summary": summary, "turns": lines, "questions": questions}


def _when(day: datetime.date, rng: random.Random) -> str:
    """LoCoMo's date style: '7:15 pm on 3 March, 2025'."""
    hour, minute = rng.randint(1, 11), rng.randint(0, 59)
    noon = rng.choice(["am", "pm", "pm"])
    return f"{hour}:{minute:02d} {noon} on {day.day} {day.strftime('%B')}, {day.year}"


def _render(line: str, people: tuple[str, str]) -> tuple[str, int | None]:
    """'1A: text' -> ('Name: text', 1); {A} and {B} inside the text become the names."""
    match = MARK.match(line)
    assert match
    speaker = people[0] if match.group(2) == "A" else people[1]
    text = line[match.end() :].replace("{A}", people[0]).replace("{B}", people[1])
    return f"{speaker}: {text}", int(match.group(1)) if match.group(1) else None


def _exchange(lines: list[str], people: tuple[str, str]) -> list[str]:
    return [_render(line, people)[0] for line in lines]


def dialogue_session(
    rng: random.Random, spec: dict[str, Any], n: int, when: str, deck: list[list[str]]
) -> tuple[dict[str, Any], dict[int, int]]:
    """One session's memory and the offset in its body of each fact turn."""
    people = (spec["people"][0], spec["people"][1])
    session = spec["sessions"][n]
    main: list[str] = []
    facts: dict[int, str] = {}
    for line in session["turns"]:
        text, fact = _render(line, people)
        main.append(text)
        if fact is not None:
            facts[fact] = text
    chat = [_exchange(deck.pop(), people) for _ in range(rng.randint(4, 9)) if deck]
    before = rng.randint(0, len(chat))
    lines = _exchange(rng.choice(spec["greetings"]), people)
    for block in chat[:before]:
        lines += block
    lines += main
    for block in chat[before:]:
        lines += block
    lines += _exchange(rng.choice(spec["goodbyes"]), people)
    body = f"# Chat session at {when}\n\n" + "\n".join(lines) + "\n"
    if rng.random() < 0.35:  # a third of LoCoMo's first sentences say only who talked and when
        description = rng.choice(spec["plain"]).format(A=people[0], B=people[1], when=when)
    else:
        description = session["summary"].format(A=people[0], B=people[1]).split(". ")[0]
        description = description.rstrip(".") + "."
    memory = {
        "filename": f"session_{n + 1:02d}.md",
        "name": f"Session {n + 1} ({when})",
        "description": description,
        "type": "project",
        "body": body,
        "age_days": 0,
    }
    return memory, {k: body.find(text) for k, text in facts.items()}


def build_dialogue_dir(
    rng: random.Random, spec: dict[str, Any], dir_id: str
) -> tuple[dict[str, Any], list[Built], list[dict[int, int]]]:
    """A dir of one memory per session, oldest first, 3-20 days apart."""
    day = datetime.date(rng.choice([2024, 2025]), rng.randint(1, 6), rng.randint(1, 28))
    days = []
    for _ in spec["sessions"]:
        days.append(day)
        day += datetime.timedelta(days=rng.randint(3, 20))
    pool = [list(block) for block in spec["chat"]]
    deck: list[list[str]] = []
    built, offsets = [], []
    for n in range(len(spec["sessions"])):
        if len(deck) < 8:  # the small talk comes round again, shuffled, as people repeat
            fresh = list(pool)
            rng.shuffle(fresh)
            deck = fresh + deck
        memory, where = dialogue_session(rng, spec, n, _when(days[n], rng), deck)
        memory["age_days"] = (days[-1] - days[n]).days
        built.append(Built(memory, role="topic"))
        offsets.append(where)
    info = {"id": dir_id, "language": "en", "domain": "dialogue"}
    return info, built, offsets


def build_dialogue_questions(
    info: dict[str, Any], spec: dict[str, Any], built: list[Built], offsets: list[dict[int, int]]
) -> list[dict[str, Any]]:
    """The dir's questions in the bank's order: per session, then multi-hop, then none."""
    out = QuestionSet(info)
    category: dict[str, str] = {}
    for n, session in enumerate(spec["sessions"]):
        memory = built[n].memory
        label = content_terms(memory["name"] + " " + memory["description"])
        for cat, fact, query in session["questions"]:
            kind = "direct" if content_terms(query) & label else "reworded"
            out.add(kind, query, [memory["filename"]], evidence=offsets[n][fact])
            category[query] = cat
    for query, pair in spec["multi"]:
        out.add("multi", query, [built[i - 1].memory["filename"] for i in pair])  # 1-based
        category[query] = "multi-hop"
    for query in spec["none"]:
        out.add("none", query, [])
        category[query] = "none"
    return [{**q, "category": category[q["query"]]} for q in out.items]
