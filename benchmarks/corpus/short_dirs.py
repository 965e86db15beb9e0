"""Dirs of short memories and short questions (twentieth session), appended to both corpora.

The first corpora's bodies are long (tune p10 840 characters, p25 1,080) and their questions are
full sentences. Real dirs also hold many memories of a few hundred characters, and people ask
them in two to five words ("when is the X cutover?"). These dirs have that shape: each memory
holds one to three facts of its kit, a Why or a How-to-apply line at times and a context line or
two, in an order drawn per memory, so the fact sits anywhere in a short body. Some dirs are in
Russian (Cyrillic), with the "the user speaks Russian" memory real Russian dirs keep, and one dir
holds 150 short memories.

A short bank (bank_short_<corpus>.py) gives, per language: entities, kits (S), user kits, notes
(short session notes, never the answer to a question), "nothing relevant" questions and joiners.
The questions come in the first corpora's proportions: budget min(60, 8 + 0.3 n), a seventh
"nothing relevant", a sixth multi-memory, the rest split between direct and reworded.
"""

from __future__ import annotations

import math
import random
from typing import Any

from generate import (
    Built,
    QuestionSet,
    Slots,
    assign_ages,
    content_terms,
    round_robin,
    slugify,
)

Fact = tuple[str, str, str]  # (body sentence, direct question, reworded question)
MAX_CONTEXT = 6  # context lines (dates, tickets, who said it) in one short memory, at most


def S(
    type_: str,
    file: str,
    name: str,
    desc: list[str],
    facts: list[Fact],
    why: str | None = None,
    how: str | None = None,
) -> dict[str, Any]:
    """A short kit: a topic, its facts with their two questions, an optional Why and How."""
    return {
        "type": type_,
        "file": file,
        "name": name,
        "desc": desc,
        "facts": facts,
        "why": why,
        "how": how,
    }


def _target_length(rng: random.Random) -> int:
    """Short bodies after the survey's low end (p10 about 370, p25 about 660 characters)."""
    return int(min(990, max(250, rng.lognormvariate(math.log(700), 0.45))))


def short_memory(
    rng: random.Random, lang: dict[str, Any], kit: dict[str, Any], entity: tuple[str, str] | None
) -> Built:
    """One short memory: some of the kit's facts, Why/How lines and context, in a drawn order."""
    slots = Slots(rng, lang["people"], lang["hosts"])
    n_facts = len(kit["facts"])  # the lead fact (facts[0]) always, some of the others
    n_held = n_facts if rng.random() < 0.6 else rng.randint(1, n_facts)
    held = [0, *sorted(rng.sample(range(1, n_facts), n_held - 1))]
    parts = [slots.fill(kit["facts"][i][0], entity) for i in held]
    parts += [slots.fill(d, entity) for d in kit.get("details", [])]
    rng.shuffle(parts)
    labels = lang["labels"]
    if kit["why"] and rng.random() < 0.8:
        parts.insert(
            rng.randint(0, len(parts)), f"{labels['why']} {slots.fill(kit['why'], entity)}"
        )
    if kit["how"] and rng.random() < 0.7:
        parts.append(f"{labels['how']} {slots.fill(kit['how'], entity)}")
    context = list(lang["context"])
    rng.shuffle(context)
    context = context[:MAX_CONTEXT]  # a real short memory is mostly its own content
    target = _target_length(rng)
    while context and sum(len(p) + 1 for p in parts) < target:
        parts.insert(rng.randint(0, len(parts)), slots.fill(context.pop(), entity))
    body = ("\n\n" if rng.random() < 0.5 else lang["space"]).join(parts)
    description = slots.fill(
        kit["desc"][0] if rng.random() < 0.7 else rng.choice(kit["desc"]), entity
    )
    slug = slugify(entity[2] if entity and len(entity) > 2 else entity[0]) if entity else None
    filename = slots.fill(kit["file"], (slug, slug) if slug else None) + ".md"
    facts = [
        (
            slots.fill(kit["facts"][i][1], entity),
            slots.fill(kit["facts"][i][2], entity),
            body.find(slots.fill(kit["facts"][i][0], entity)),
        )
        for i in held
    ]
    memory = {
        "filename": filename,
        "name": slots.fill(kit["name"], entity),
        "description": description,
        "type": kit["type"],
        "body": body,
        "age_days": 0,
    }
    return Built(memory, facts, role="user" if entity is None else "topic")


def build_short_dir(
    rng: random.Random, bank: dict[str, Any], size: int, code: str, dir_id: str
) -> tuple[dict[str, Any], list[Built]]:
    """A dir of `size` short memories: a user memory (from 3 up), kits over entities, notes."""
    lang = bank[code]
    built: list[Built] = []
    if size >= 3 or (code != "en" and size >= 1):
        built.append(short_memory(rng, lang, rng.choice(lang["user"]), None))
    combos = [(kit, tuple(e)) for kit in lang["kits"] for e in lang["entities"]]
    rng.shuffle(combos)
    combos = round_robin(combos, lambda c: id(c[0]))
    seen = {b.memory["filename"] for b in built}
    i = 0
    while len(built) < size:
        if i < len(combos) and len(built) < size * 0.88 + 1:
            kit, entity = combos[i]
            i += 1
            memory = short_memory(rng, lang, kit, entity)  # type: ignore[arg-type]
        else:
            note = rng.choice(lang["notes"])
            memory = short_memory(rng, lang, note, (f"n{len(built):03d}", ""))
            memory.role = "log"
        if memory.memory["filename"] in seen:
            continue
        seen.add(memory.memory["filename"])
        built.append(memory)
    assign_ages(rng, built)
    return {"id": dir_id, "language": code, "domain": "short"}, built


def build_short_questions(
    rng: random.Random, bank: dict[str, Any], info: dict[str, Any], built: list[Built]
) -> list[dict[str, Any]]:
    """Short questions for one dir, in the first corpora's proportions (no tool questions)."""
    lang = bank[info["language"]]
    budget = min(60, 8 + round(len(built) * 0.3))
    answerable = [b for b in built if b.role in ("topic", "user")]
    out = QuestionSet(info)
    n_none = max(1, budget // 7)
    n_multi = max(0, min(budget // 6, len(answerable) // 2)) if len(answerable) >= 2 else 0
    rest = budget - n_none - n_multi
    n_direct, n_reworded = rest - rest // 2, rest // 2
    picks = [(b, j) for b in answerable for j in range(len(b.facts))]
    rng.shuffle(picks)
    picks = round_robin(picks, lambda p: id(p[0]))
    direct_kind = "direct" if info["language"] == "en" else "non-english"
    for b, j in picks[:n_direct]:
        out.add(direct_kind, b.facts[j][0], [b.memory["filename"]], evidence=b.facts[j][2])
    made = 0
    for b, j in picks[n_direct:] + picks[:n_direct]:
        if made >= n_reworded:
            break
        query = b.facts[j][1]
        if content_terms(query) & content_terms(b.memory["name"] + " " + b.memory["description"]):
            continue
        out.add("reworded", query, [b.memory["filename"]], evidence=b.facts[j][2])
        made += 1
    for _ in range(n_multi):
        first, second = rng.sample(answerable, 2)
        query = rng.choice(lang["joiners"]).format(
            a=rng.choice(first.facts)[0], b=rng.choice(second.facts)[0]
        )
        out.add("multi", query, [first.memory["filename"], second.memory["filename"]])
    labels: set[str] = set()
    for b in built:
        labels |= content_terms(b.memory["name"] + " " + b.memory["description"])
    nothing = list(lang["none"])
    rng.shuffle(nothing)
    for query in [q for q in nothing if not content_terms(q) & labels][:n_none]:
        out.add("none", query, [])
    return out.items
