"""Generate the two recall corpora (tune and holdout) from phrase banks, deterministically.

Usage:
    python benchmarks/corpus/generate.py            # writes benchmarks/data/recall_{tune,holdout}.json
    python benchmarks/corpus/generate.py --check    # regenerates in memory and fails if the files differ
    python benchmarks/corpus/generate.py --without-dialogue --out DIR  # the corpora of before
                                                     # the dialogue dirs (twenty-first session)
    python benchmarks/corpus/generate.py --without-overlap --out DIR  # the corpora of before the
                                                     # log dirs' partial-overlap questions
    python benchmarks/corpus/generate.py --without-logs --out DIR  # the 30-dir corpora of before
                                                     # the twenty-first session
    python benchmarks/corpus/generate.py --without-short --without-logs --out DIR
                                                     # the 21-dir corpora of before the
                                                     # twentieth session (the shipped fit's)

Each corpus is built from its own phrase bank (bank_tune.py / bank_holdout.py: different topics,
different wordings, different entities) and its own seed. Every text was written for this
project; the shapes (dir sizes, body anatomy, description habits) follow the TUNE half of the
survey of published memory dirs summarised in docs/selection.md ("The recall corpora").

A memory is built from a *kit*: a topic with a lead fact, further facts, a Why, How-to-apply
bullets and optionally a dated correction. Every fact carries a direct question and a reworded
one. Bodies are padded to a log-normal length with dated status notes in the dir's language, so
the fact a question needs can sit anywhere in the body. Descriptions are written from the kit's
summary lines and never quote the facts' values.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data"
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from plans import PLAN_HOLDOUT, PLAN_LOGS, PLAN_SHORT, PLAN_TUNE  # noqa: E402

KINDS = ("direct", "reworded", "multi", "tools", "non-english", "none")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+")
LATIN = re.compile(r"[a-zà-ÿß0-9а-яё][a-zà-ÿß0-9а-яё_\-]*")  # Latin and Cyrillic words
STOP_WORDS = """
    the and for with that this what which when where who why how does did do our we you your
    are was were is be been has have had not but any all can could should would will from into
    about there their them they its it's one two use used using get got set still now then
    than also just like over under after before again more most some such only very much many
    der die das und mit für ist wie was wer wann wo warum wir ihr sie ein eine einen dem den
    des nicht auch noch bei von zum zur auf aus hat haben wird sind war les des une pour avec
    dans est que qui quoi quand comment nous vous sur par pas plus quel quelle quels quelles
    aux ces son sa ses leur faut los las una para con por que qué cómo cuándo dónde quién del
    como hay son está nos nuestro nuestra cuál cuáles pero más sus
    что как где когда кто для это эта этот или при уже ещё был была были есть какой какая
    какие какое чем про над под его они нам вам нас наш наша так там тут сейчас теперь все всё
"""
STOP = set(STOP_WORDS.split())


def content_terms(text: str) -> set[str]:
    """Content words (Latin, 3+ letters, no stop words) and CJK character bigrams."""
    low = text.lower()
    terms = {w for w in LATIN.findall(low) if len(w) >= 3 and w not in STOP}
    for run in CJK.findall(low):
        if len(run) == 1:
            continue
        terms |= {run[i : i + 2] for i in range(len(run) - 1)}
    return terms


def load_bank(name: str, key: str = "BANK") -> dict[str, Any]:
    """Import bank_<name>.py from this folder and return its BANK (or `key`) dict."""
    path = HERE / f"bank_{name}.py"
    spec = importlib.util.spec_from_file_location(f"bank_{name}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    bank: dict[str, Any] = getattr(module, key)
    return bank


@dataclass
class Built:
    """One generated memory plus the question material its facts carry."""

    memory: dict[str, Any]
    facts: list[tuple[str, str, int]] = field(default_factory=list)  # direct q, reworded q, offset
    tool: str | None = None
    role: str = "topic"  # topic | user | usage | warning | log
    kit: str = ""  # a log memory's kit (its file template), for the partial-overlap questions
    fills: list[tuple[int, Slots, tuple[str, str]]] = field(default_factory=list)  # per fact held


class Slots:
    """Random values for a memory's placeholders, drawn once per memory."""

    def __init__(self, rng: random.Random, people: list[str], hosts: list[str]) -> None:
        year = rng.choice([2025, 2026])
        month = rng.randint(1, 12)
        self.values = {
            "n1": str(rng.randint(2, 9)),
            "n2": str(rng.randint(10, 60)),
            "n3": str(rng.randint(100, 900)),
            "n4": str(rng.randint(1000, 9000)),
            "v": f"{rng.randint(1, 5)}.{rng.randint(0, 12)}.{rng.randint(0, 9)}",
            "pr": str(rng.randint(40, 980)),
            "sha": "".join(rng.choice("0123456789abcdef") for _ in range(7)),
            "d": f"{year}-{month:02d}-{rng.randint(1, 28):02d}",
            "d2": f"{year}-{min(month + 1, 12):02d}-{rng.randint(1, 28):02d}",
            "p": rng.choice(people),
            "p2": rng.choice(people),
            "h": rng.choice(hosts),
            "port": str(rng.randint(3000, 9900)),
        }

    def fill(self, template: str, entity: tuple[str, str] | None) -> str:
        """Fill {e}, {E}, {ea} and the value slots."""
        values = dict(self.values)
        if entity is not None:
            values["e"] = entity[0]
            values["E"] = entity[0][:1].upper() + entity[0][1:]
            values["ea"] = entity[1]
        return template.format(**values)


def _lognormal_length(rng: random.Random, kind: str) -> int:
    if kind == "user":
        return int(min(700, max(120, rng.lognormvariate(math.log(380), 0.5))))
    if kind == "feedback":
        return int(min(2600, max(600, rng.lognormvariate(math.log(1150), 0.45))))
    return int(min(9000, max(700, rng.lognormvariate(math.log(1700), 0.8))))


def _filler_paragraph(
    rng: random.Random, lang: dict[str, Any], deck: list[str], bullets: int
) -> str:
    """A block of dated status bullets, or note sentences drawn from this body's deck."""
    fill = lang["filler"]
    if deck and rng.random() < 0.45:
        sentences = []
        for _ in range(min(len(deck), max(1, bullets // 2))):
            local = Slots(rng, lang["people"], lang["hosts"])
            sentences.append(local.fill(deck.pop(), None))
        return lang["space"].join(sentences)
    lines = []
    for tmpl in rng.sample(fill["status"], min(bullets, len(fill["status"]))):
        local = Slots(rng, lang["people"], lang["hosts"])
        lines.append("- " + local.fill(tmpl, None))
    return "\n".join(lines)


def build_body(
    rng: random.Random,
    lang: dict[str, Any],
    kit: dict[str, Any],
    slots: Slots,
    entity: tuple[str, str] | None,
    related: list[str],
) -> tuple[str, list[int]]:
    """Assemble a body to a sampled length; return it and the fact indexes it holds."""
    labels = lang["labels"]
    target = _lognormal_length(rng, kit["type"])
    deck = list(lang["filler"]["notes"])
    rng.shuffle(deck)
    facts = [slots.fill(f[0], entity) for f in kit["facts"]]
    lead, rest = facts[0], facts[1:]
    order = list(range(len(rest)))
    rng.shuffle(order)
    blocks: list[str] = []
    heading = rng.random() < (0.45 if lang["code"] in ("ja", "zh", "ko") else 0.2)
    if heading:
        blocks.append("# " + slots.fill(kit["name"], entity))
    long_file = kit["type"] in ("project", "reference") and target > 1800
    why = f"{labels['why']} {slots.fill(kit['why'], entity)}"
    how = labels["how"] + "\n" + "\n".join("- " + slots.fill(h, entity) for h in kit["how"])
    if not long_file:
        # canonical anatomy: lead (+ one fact), Why, How to apply, later facts among notes
        first = lead
        if order and rng.random() < 0.35:
            first += lang["space"] + rest[order.pop(0)]
        blocks += [first, why, how]
        for idx in order:
            if sum(len(b) for b in blocks) < target * 0.8 and rng.random() < 0.6:
                blocks.append(_filler_paragraph(rng, lang, deck, rng.randint(2, 4)))
            blocks.append(rest[idx])
    else:
        # long project file: sections with status bullets, facts scattered, Why/How at the end
        blocks.append(lead)
        sections = list(labels["sections"])
        per_section = max(1, math.ceil(len(order) / len(sections)))
        for s, title in enumerate(sections):
            blocks.append("## " + title)
            blocks.append(_filler_paragraph(rng, lang, deck, rng.randint(2, 5)))
            for idx in order[s * per_section : (s + 1) * per_section]:
                blocks.append("- " + rest[idx])
        blocks += [why, how]
    while sum(len(b) + 2 for b in blocks) < target:
        pos = rng.randint(2 if heading else 1, len(blocks))
        blocks.insert(pos, _filler_paragraph(rng, lang, deck, rng.randint(2, 5)))
    if kit.get("upd"):
        blocks.append(f"{slots.fill(labels['update'], None)} {slots.fill(kit['upd'][0], entity)}")
    if related and rng.random() < 0.5:
        blocks.append(labels["related"] + " " + ", ".join(f"[[{r}]]" for r in related))
    return "\n\n".join(blocks), list(range(len(kit["facts"])))


AGES_DAYS = (0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233)  # a memory's age, drawn per memory


def assign_ages(rng: random.Random, built: list[Built]) -> None:
    """Give each built memory an age in days, drawn from AGES_DAYS in order."""
    for b in built:
        b.memory["age_days"] = rng.choice(AGES_DAYS)


def round_robin(items: list[Any], group: Any) -> list[Any]:
    """Reorder so each group's first item comes before any group's second (stable)."""
    counts: dict[int, int] = {}
    ranked = []
    for pos, item in enumerate(items):
        key = group(item)
        ranked.append((counts.get(key, 0), pos, item))
        counts[key] = counts.get(key, 0) + 1
    return [item for _, _, item in sorted(ranked, key=lambda r: (r[0], r[1]))]


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def build_memory(
    rng: random.Random,
    lang: dict[str, Any],
    kit: dict[str, Any],
    entity: tuple[str, str] | None,
    related: list[str],
    role: str,
) -> Built:
    """One memory from a kit and an entity: file, name, description, body, questions."""
    slots = Slots(rng, lang["people"], lang["hosts"])
    body, _ = build_body(rng, lang, kit, slots, entity, related)
    descs = kit["desc"]
    roll = rng.random()
    if kit.get("den") and roll < 0.2:
        description = slots.fill(kit["den"], entity)  # English label over a foreign body
    elif roll < 0.7 or len(descs) == 1:
        description = slots.fill(descs[0], entity)
    else:
        description = slots.fill(rng.choice(descs[1:]), entity)
    if rng.random() < 0.02:  # an issue number left unquoted, as in real headers
        description += f" (#{slots.values['pr']})"
    name = slots.fill(kit["name"], entity)
    slug = None
    if entity is not None:
        slug = entity[2] if len(entity) > 2 else slugify(entity[0])
    filename = slots.fill(kit["file"], (slug, slug) if slug else None)
    filename = re.sub(r"[^A-Za-z0-9_\-]+", "_", filename).strip("_") + ".md"
    facts = [
        (slots.fill(f[1], entity), slots.fill(f[2], entity), body.find(slots.fill(f[0], entity)))
        for f in kit["facts"]
    ]
    if kit.get("upd"):
        u = kit["upd"]
        where = body.find(slots.fill(u[0], entity))
        facts.append((slots.fill(u[1], entity), slots.fill(u[2], entity), where))
    memory = {
        "filename": filename,
        "name": name,
        "description": description,
        "type": kit["type"],
        "body": body,
        "age_days": 0,
    }
    return Built(memory, facts, role=role)


def _domains(spec: str, lang: dict[str, Any], rng: random.Random, size: int) -> list[str]:
    available = sorted(lang["domains"])
    if spec == "*":
        if size >= 20:
            return available  # big foreign dirs span the language's domains
        tooled = [d for d in available if lang["domains"][d].get("tools")]
        return [rng.choice(tooled if size >= 8 and tooled else available)]
    return [d for d in spec.split("+") if d in available] or [available[0]]


def build_dir(
    rng: random.Random, bank: dict[str, Any], size: int, code: str, spec: str, dir_id: str
) -> tuple[dict[str, Any], list[Built], list[str]]:
    """One memory dir: a user file, a tool pair, kit memories over entities, then log notes."""
    lang = bank["langs"][code]
    domains = _domains(spec, lang, rng, size)
    built: list[Built] = []
    if size >= 3:
        built.append(build_memory(rng, lang, rng.choice(lang["user"]), None, [], "user"))
    if size >= 8:
        pair = [t for d in domains for t in lang["domains"][d].get("tools") or []]
        for tool in pair[: 1 if size < 60 else 2]:
            usage = build_memory(rng, lang, tool["usage"], None, [], "usage")
            warn = build_memory(rng, lang, tool["warn"], None, [], "warning")
            usage.tool = warn.tool = tool["tool"]
            local = Slots(rng, lang["people"], lang["hosts"])
            warn.facts = [(local.fill(q, None), local.fill(q, None), 0) for q in tool["q"]]
            built += [usage, warn]
    combos: list[tuple[dict[str, Any], tuple[str, str]]] = []
    for domain in domains:
        block = lang["domains"][domain]
        entities = list(block["entities"])
        rng.shuffle(entities)
        for kit in block["kits"]:
            own = list(kit.get("entities") or entities)
            rng.shuffle(own)
            for entity in own:
                combos.append((kit, tuple(entity)))  # type: ignore[arg-type]
    # interleave so small dirs get different kits, not one kit over many entities
    rng.shuffle(combos)
    combos = round_robin(combos, lambda c: id(c[0]))
    log_kits = lang["log"]
    seen: set[str] = {b.memory["filename"] for b in built}
    i = 0
    while len(built) < size:
        if i < len(combos) and len(built) < size * 0.8 + 1:
            kit, entity = combos[i]
            i += 1
            role = "topic"
        else:
            kit, entity = rng.choice(log_kits), (f"s{len(built):03d}", f"s{len(built):03d}")
            role = "log"
        related = [b.memory["filename"][:-3] for b in rng.sample(built, min(2, len(built)))]
        memory = build_memory(rng, lang, kit, entity, related, role)
        if memory.memory["filename"] in seen:
            continue
        seen.add(memory.memory["filename"])
        built.append(memory)
    assign_ages(rng, built)
    info = {"id": dir_id, "language": code, "domain": "+".join(domains)}
    return info, built, domains


def _nothing_queries(
    rng: random.Random, bank: dict[str, Any], code: str, domains: list[str]
) -> list[str]:
    """Queries with no memory behind them: off-topic lines and other domains' topics."""
    lang = bank["langs"][code]
    out = list(lang["none"])
    for domain, block in sorted(lang["domains"].items()):
        if domain in domains:
            continue
        for kit in block["kits"]:
            ent = tuple((kit.get("entities") or block["entities"])[0])
            slots = Slots(rng, lang["people"], lang["hosts"])
            out.append(slots.fill(kit["facts"][0][1], ent))  # type: ignore[arg-type]
    rng.shuffle(out)
    return out


class QuestionSet:
    """The labelled questions of one dir; a query asked twice is kept once."""

    def __init__(self, info: dict[str, Any]) -> None:
        self.info = info
        self.items: list[dict[str, Any]] = []
        self.asked: set[str] = set()

    def add(
        self,
        kind: str,
        query: str,
        expected: list[str],
        tools: list[str] | None = None,
        evidence: int | None = None,
    ) -> None:
        if query in self.asked:
            return
        self.asked.add(query)
        self.items.append(
            {
                "id": f"{self.info['id']}-q{len(self.items) + 1:02d}",
                "dir": self.info["id"],
                "query": query,
                "kind": kind,
                "language": self.info["language"],
                "recent_tools": tools or [],
                "expected": expected,
                "evidence_offset": evidence,
            }
        )


def _single_memory_questions(
    rng: random.Random, lang: dict[str, Any], out: QuestionSet, picks: list, counts: tuple[int, int]
) -> None:
    """Direct questions (a third with a task framing), then reworded ones that share no
    content word with the memory's name or description."""
    n_direct, n_reworded = counts
    direct_kind = "direct" if out.info["language"] == "en" else "non-english"
    for b, j in picks[:n_direct]:
        query = b.facts[j][0]
        if rng.random() < 0.35:  # a task framing around the question, as people type them
            query = rng.choice(lang["frames"]).format(q=query)
        out.add(direct_kind, query, [b.memory["filename"]], evidence=b.facts[j][2])
    made = 0
    for b, j in picks[n_direct:] + picks[:n_direct]:
        if made >= n_reworded:
            break
        query = b.facts[j][1]
        label = content_terms(b.memory["name"] + " " + b.memory["description"])
        if content_terms(query) & label:
            continue
        out.add("reworded", query, [b.memory["filename"]], evidence=b.facts[j][2])
        made += 1


def build_questions(
    rng: random.Random,
    bank: dict[str, Any],
    info: dict[str, Any],
    built: list[Built],
    domains: list[str],
) -> list[dict[str, Any]]:
    """Labelled questions for one dir, spread over the kinds."""
    code = info["language"]
    lang = bank["langs"][code]
    budget = min(60, 8 + round(len(built) * 0.3))
    answerable = [b for b in built if b.role in ("topic", "user")]
    out = QuestionSet(info)
    n_none = max(1, budget // 7)
    n_tools = 2 if any(b.role == "warning" for b in built) else 0
    n_multi = max(0, min(budget // 6, len(answerable) // 2)) if len(answerable) >= 2 else 0
    rest = budget - n_none - n_tools - n_multi
    picks = [(b, j) for b in answerable for j in range(len(b.facts))]
    rng.shuffle(picks)
    picks = round_robin(picks, lambda p: id(p[0]))
    _single_memory_questions(rng, lang, out, picks, (rest - rest // 2, rest // 2))
    for _ in range(n_multi):
        first, second = rng.sample(answerable, 2)
        qa = rng.choice(first.facts)[0]
        qb = rng.choice(second.facts)[0]
        joiner = rng.choice(lang["joiners"])
        pair = [first.memory["filename"], second.memory["filename"]]
        out.add("multi", joiner.format(a=qa, b=qb), pair)
    warnings = [b for b in built if b.role == "warning"]
    for k in range(n_tools):
        warn = warnings[k % len(warnings)]
        query = warn.facts[k % len(warn.facts)][0]
        out.add("tools", query, [warn.memory["filename"]], [warn.tool or ""])
    seen_terms: set[str] = set()
    for b in built:
        seen_terms |= content_terms(b.memory["name"] + " " + b.memory["description"])
    nothing = _nothing_queries(rng, bank, code, domains)
    for query in [q for q in nothing if not content_terms(q) & seen_terms][:n_none]:
        out.add("none", query, [])
    return out.items


def generate(
    name: str,
    seed: int,
    plan: list[tuple[int, str, str]],
    *,
    short: bool = True,
    logs: bool = True,
    overlap: bool = True,
    dialogue: bool = True,
) -> dict[str, Any]:
    """The whole corpus for one bank: dirs and questions."""
    bank = load_bank(name)
    rng = random.Random(seed)
    dirs, questions = [], []
    for n, (size, code, spec) in enumerate(plan):
        dir_id = f"{name}-{n + 1:02d}-{code}-{size}"
        info, built, domains = build_dir(rng, bank, size, code, spec, dir_id)
        info["memories"] = [b.memory for b in built]
        dirs.append(info)
        questions += build_questions(rng, bank, info, built, domains)
    # the short dirs (twentieth session): their own bank and random stream, so the dirs above
    # stay byte for byte what they were. Imported here: short_dirs imports this module's helpers.
    from short_dirs import build_short_dir, build_short_questions

    plan_short = PLAN_SHORT if short else []
    short_bank = load_bank(f"short_{name}", key="SHORT")
    short_rng = random.Random(seed + 20)
    for n, (size, code) in enumerate(plan_short, start=len(plan) + 1):
        info, built = build_short_dir(
            short_rng, short_bank, size, code, f"{name}-{n:02d}-{code}-{size}"
        )
        info["memories"] = [b.memory for b in built]
        dirs.append(info)
        questions += build_short_questions(short_rng, short_bank, info, built)
    # the log-shaped dirs (twenty-first session): their own banks and random stream, numbered
    # after the short dirs whether or not those are written, so each part stays what it is.
    from log_dirs import build_log_dir, build_series_dir
    from overlap_questions import build_overlap_questions

    log_bank = {code: load_bank(f"log_{name}_{code}", key="LOG") for code in ("en", "ru")}
    log_rng = random.Random(seed + 21)
    # the partial-overlap questions (twenty-first session): their own bank and random stream,
    # appended after each log dir's questions, so the memories and questions above stay as they were
    overlap_bank = load_bank(f"overlap_{name}", key="OVERLAP")
    overlap_rng = random.Random(seed + 22)
    first = len(plan) + len(PLAN_SHORT) + 1
    for n, (size, code, shape) in enumerate(PLAN_LOGS if logs else [], start=first):
        build = build_series_dir if shape == "series" else build_log_dir
        info, built = build(log_rng, log_bank, size, code, f"{name}-{n:02d}-{code}-{size}")
        info["memories"] = [b.memory for b in built]
        dirs.append(info)
        questions += build_short_questions(log_rng, log_bank, info, built)
        if overlap:
            questions += build_overlap_questions(
                overlap_rng,
                overlap_bank[code],
                log_bank[code],
                info,
                built,
                series=shape == "series",
            )
    # the dialogue dirs (twenty-second session): LoCoMo's layout, their own bank and random
    # stream, numbered after the log dirs whether or not those are written
    from dialogue_dirs import build_dialogue_dir, build_dialogue_questions

    dialogue_bank = load_bank(f"dialogue_{name}", key="DIALOGUE")["dirs"]
    dialogue_rng = random.Random(seed + 23)
    first = len(plan) + len(PLAN_SHORT) + len(PLAN_LOGS) + 1
    for n, spec in enumerate(dialogue_bank if dialogue else [], start=first):
        size = len(spec["sessions"])
        info, built, offsets = build_dialogue_dir(dialogue_rng, spec, f"{name}-{n:02d}-en-{size}")
        info["memories"] = [b.memory for b in built]
        dirs.append(info)
        questions += build_dialogue_questions(info, spec, built, offsets)
    return {
        "version": 1,
        "corpus": name,
        "seed": seed,
        "generator": "benchmarks/corpus/generate.py",
        "dirs": dirs,
        "questions": questions,
    }


CORPORA = {"tune": (1913, PLAN_TUNE), "holdout": (2741, PLAN_HOLDOUT)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed files differ")
    parser.add_argument("--out", default=str(DATA), help="output folder")
    parser.add_argument(
        "--without-short",
        action="store_true",
        help="leave out the short dirs (with --without-logs: the shipped model's corpora)",
    )
    parser.add_argument(
        "--without-logs",
        action="store_true",
        help="leave out the log-shaped dirs (the corpora of the twentieth session)",
    )
    parser.add_argument(
        "--without-dialogue",
        action="store_true",
        help="leave out the dialogue dirs (the corpora of the twenty-first session)",
    )
    parser.add_argument(
        "--without-overlap",
        action="store_true",
        help="leave out the log dirs' partial-overlap questions (the corpora of before them)",
    )
    args = parser.parse_args(argv)
    status = 0
    for name, (seed, plan) in CORPORA.items():
        corpus = generate(
            name,
            seed,
            plan,
            short=not args.without_short,
            logs=not args.without_logs,
            overlap=not args.without_overlap,
            dialogue=not args.without_dialogue,
        )
        text = json.dumps(corpus, ensure_ascii=False, indent=1) + "\n"
        path = Path(args.out) / f"recall_{name}.json"
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                print(f"{path} is not what the generator writes; run it again", file=sys.stderr)
                status = 1
            continue
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {len(corpus['dirs'])} dirs, {len(corpus['questions'])} questions")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
