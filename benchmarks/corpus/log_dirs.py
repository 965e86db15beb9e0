"""Log-shaped and dialogue-shaped dirs (twenty-first session), appended to both corpora.

LoCoMo's memories are long sessions among 19-32 similar ones, and real memory dirs keep files of
that shape too: running logs with one dated entry per day or session, session notes with a few
bullets under a dated heading, call notes with one line per speaker, status tables with one row
per step. Most entries are routine (checks passed, nothing changed, someone was away); the fact
a question needs is one entry somewhere in a long body, often past character 1,000, and several
memories of a dir share the kit, the vocabulary and the routine lines, so they look alike.

A log bank (bank_log_<corpus>_<language>.py) gives, per language: entities, kits (L), routine
lines (never the answer to a question), chatter for call notes, section and call labels,
"nothing relevant" questions (near misses in the dir's own domain), joiners and plain kits
(logs with no fact in them, the bulk of a large dir). Questions come
in the first corpora's proportions (short_dirs.build_short_questions: budget min(60, 8 + 0.3 n),
a seventh "nothing relevant", a sixth multi-memory, the rest split between direct and reworded).
"""

from __future__ import annotations

import copy
import datetime
import math
import random
from typing import Any

from generate import Built, Slots, assign_ages, round_robin, slugify

Fact = tuple[str, str, str]  # (entry text, direct question, reworded question)
FORMS = ("line", "table", "section", "dialogue", "session")


def L(
    type_: str,
    file: str,
    name: str,
    desc: list[str],
    form: str,
    intro: str,
    facts: list[Fact],
) -> dict[str, Any]:
    """A log kit: a running file about one entity, its facts as entries among routine ones."""
    assert form in FORMS, form
    return {
        "type": type_,
        "file": file,
        "name": name,
        "desc": desc,
        "form": form,
        "intro": intro,
        "facts": facts,
    }


def _entry_count(rng: random.Random, median: int) -> int:
    """10-40 entries, most around `median` (the survey's memdir logs hold 3-15, repo logs 20-40)."""
    return int(min(40, max(10, rng.lognormvariate(math.log(median), 0.35))))


def _dates(rng: random.Random, count: int) -> list[str]:
    """Increasing dates, one to five days apart, from a start in 2025 or 2026."""
    day = datetime.date(rng.choice([2025, 2026]), rng.randint(1, 10), rng.randint(1, 28))
    out = []
    for _ in range(count):
        out.append(day.isoformat())
        day += datetime.timedelta(days=rng.randint(1, 5))
    return out


def _entries(
    rng: random.Random, lang: dict[str, Any], texts: list[str], dates: list[str], form: str
) -> list[str]:
    """Render the dated entry texts in a form (one block per section or call, else one)."""
    speakers = [rng.choice(lang["people"]) for _ in texts]
    if form == "session":  # one call, one speaker line per turn
        turns = [f"{p}: {t}" for p, t in zip(speakers, texts, strict=True)]
        return [f"## {dates[0]} — {rng.choice(lang['call_labels'])}\n" + "\n".join(turns)]
    if form == "line":
        dash = "- " if rng.random() < 0.6 else ""
        return [f"{dash}{d}: {t}" for d, t in zip(dates, texts, strict=True)]
    if form == "table":
        rows = [f"| {d} | {t} |" for d, t in zip(dates, texts, strict=True)]
        return [lang["table_head"] + "\n" + "\n".join(rows)]
    blocks, i = [], 0
    label_key = "section_labels" if form == "section" else "call_labels"
    while i < len(texts):
        size = rng.randint(1, 3) if form == "section" else rng.randint(2, 4)
        chunk = range(i, min(len(texts), i + size))
        title = f"## {dates[i]} — {rng.choice(lang[label_key])}"
        if form == "section":
            lines = [f"- {texts[j]}" for j in chunk]
        else:
            lines = [f"{speakers[j]}: {texts[j]}" for j in chunk]
        blocks.append(title + "\n" + "\n".join(lines))
        i += size
    return blocks


def _dated_slots(slots: Slots, date: str, rng: random.Random) -> Slots:
    """The memory's slots with {d} the entry's own date and {d2} two to eight weeks later."""
    later = datetime.date.fromisoformat(date) + datetime.timedelta(days=rng.randint(14, 60))
    dated = copy.copy(slots)
    dated.values = {**slots.values, "d": date, "d2": later.isoformat()}
    return dated


def log_memory(
    rng: random.Random,
    lang: dict[str, Any],
    kit: dict[str, Any],
    entity: tuple[str, ...],
    role: str = "topic",
    held: list[int] | None = None,
) -> Built:
    """One long log-like memory: the kit's facts as entries at drawn places among routine ones.

    `held` names the facts a session of a series holds (all on the session's day, the entity)."""
    slots = Slots(rng, lang["people"], lang["hosts"])
    ent = (entity[0], entity[1])
    facts = list(range(len(kit["facts"]))) if held is None else list(held)
    if held is None and len(facts) > 2 and rng.random() < 0.35:  # a log that never got to one
        facts.remove(rng.choice(facts[1:]))
    count = max(_entry_count(rng, lang.get("entries", 24)), len(facts) + 8)
    places = dict(zip(sorted(rng.sample(range(count), len(facts))), facts, strict=True))
    deck: list[str] = []
    pool = lang["routine"] + (lang["chatter"] if kit["form"] in ("dialogue", "session") else [])
    dates = _dates(rng, count) if held is None else [entity[0]] * count
    texts = []
    per_fact: dict[int, Slots] = {}
    for pos in range(count):
        if pos in places:
            per_fact[places[pos]] = _dated_slots(slots, dates[pos], rng)
            texts.append(per_fact[places[pos]].fill(kit["facts"][places[pos]][0], ent))
            continue
        if not deck:
            deck = list(pool)
            rng.shuffle(deck)
        local = Slots(rng, lang["people"], lang["hosts"])
        if local.values["p2"] == local.values["p"]:  # "Femi away, Femi covering" reads wrong
            others = [p for p in lang["people"] if p != local.values["p"]]
            local.values["p2"] = rng.choice(others)
        texts.append(local.fill(deck.pop(), ent))
    blocks = _entries(rng, lang, texts, dates, kit["form"])
    head = [f"# {slots.fill(kit['name'], ent)}"] if rng.random() < 0.7 else []
    body = "\n\n".join([*head, slots.fill(kit["intro"], ent), *blocks])
    description = slots.fill(kit["desc"][0] if rng.random() < 0.7 else rng.choice(kit["desc"]), ent)
    slug = entity[2] if len(entity) > 2 else slugify(entity[0])
    filename = slots.fill(kit["file"], (slug, slug)) + ".md"
    held = [
        (
            per_fact[i].fill(kit["facts"][i][1], ent),
            per_fact[i].fill(kit["facts"][i][2], ent),
            body.find(per_fact[i].fill(kit["facts"][i][0], ent)),
        )
        for i in sorted(facts)
    ]
    memory = {
        "filename": filename,
        "name": slots.fill(kit["name"], ent),
        "description": description,
        "type": kit["type"],
        "body": body,
        "age_days": 0,
    }
    built = Built(memory, held if role == "topic" else [], role=role, kit=kit["file"])
    if role == "topic":  # the slots each held fact was written with (partial-overlap questions)
        built.fills = [(i, per_fact[i], ent) for i in sorted(facts)]
    return built


def build_log_dir(
    rng: random.Random, bank: dict[str, Any], size: int, code: str, dir_id: str
) -> tuple[dict[str, Any], list[Built]]:
    """A dir of `size` long logs: kits over entities, the rest routine-only logs of the domain."""
    lang = bank[code]
    combos = [(kit, tuple(e)) for kit in lang["kits"] for e in lang["entities"]]
    rng.shuffle(combos)
    combos = round_robin(combos, lambda c: id(c[0]))
    built: list[Built] = []
    seen: set[str] = set()
    i = 0
    while len(built) < size:
        if i < len(combos) and len(built) < size * 0.88 + 1:
            kit, entity = combos[i]
            i += 1
            memory = log_memory(rng, lang, kit, entity)
        else:
            number = f"{len(built):02d}"  # a routine-only log: standups, weekly notes
            memory = log_memory(rng, lang, rng.choice(lang["plain"]), (number, "", number), "log")
        if memory.memory["filename"] in seen:
            continue
        seen.add(memory.memory["filename"])
        built.append(memory)
    assign_ages(rng, built)
    return {"id": dir_id, "language": code, "domain": "logs"}, built


def build_series_dir(
    rng: random.Random, bank: dict[str, Any], size: int, code: str, dir_id: str
) -> tuple[dict[str, Any], list[Built]]:
    """LoCoMo's shape: `size` weekly sessions of one call about one subject, titled by their
    date alone; each fact of the series is said in one session, so a question names no
    memory and only the body can answer it."""
    lang = bank[code]
    kit = lang["series"]
    day = datetime.date(rng.choice([2025, 2026]), rng.randint(1, 3), rng.randint(1, 28))
    sessions = list(range(size))
    rng.shuffle(sessions)
    held: list[list[int]] = [[] for _ in range(size)]
    facts = list(range(len(kit["facts"])))
    rng.shuffle(facts)
    for k, fact in enumerate(facts):
        held[sessions[k % size]].append(fact)
    built = []
    for n in range(size):
        date = (day + datetime.timedelta(weeks=n)).isoformat()
        entity = (date, "", date.replace("-", "_"))
        role = "topic" if held[n] else "log"
        built.append(log_memory(rng, lang, kit, entity, role, held=sorted(held[n])))
    assign_ages(rng, built)
    return {"id": dir_id, "language": code, "domain": "logs"}, built
