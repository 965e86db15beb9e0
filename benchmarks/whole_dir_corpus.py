"""Realistic memory dirs of any size for the whole-dir benchmark, built once into a cache folder.

Each memory file has a header (name, description, type) and a body of a few sentences built
from templates over a vocabulary with a long tail: a few hundred common engineering words,
a few thousand generated project codenames, people, services and ids, chosen with a
Zipf-like skew so that, as in real dirs, some words are everywhere and most are rare.
About 3% of files are near-duplicates of an earlier file (same subject, a line added or
reworded) and about 1% restate an earlier file with a negation (candidate contradictions).
Both indexes list only the newest files (as a capped index does) plus a few dangling lines.

Dirs are written under a cache folder (default .bench/whole_dir, gitignored) with a marker
file written last, so an interrupted build is rebuilt and a finished one is reused.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import shutil
from pathlib import Path

CORPUS_VERSION = 4  # 4: the same dir in every process (3 varied with PYTHONHASHSEED)
NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
NOW_MS = NOW.timestamp() * 1000
INDEXED_NEWEST = 150  # files each index lists (the newest ones)
DONE_MARKER = ".bench-complete"

_SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "nu",
    "pe",
    "ro",
    "su",
    "ti",
    "va",
    "ze",
    "bar",
    "cor",
    "dun",
    "fel",
    "gim",
    "hox",
    "jup",
    "kel",
    "mor",
    "nix",
    "tal",
    "vin",
    "wex",
    "yor",
]
_SERVICES = [
    "payments-api",
    "ledger",
    "checkout-web",
    "search-indexer",
    "auth-gateway",
    "notifications",
    "billing-worker",
    "inventory-sync",
    "media-transcoder",
    "feature-flags",
    "reporting-etl",
    "mobile-bff",
    "pricing-engine",
    "fraud-scorer",
    "session-store",
    "email-relay",
    "audit-log",
    "geo-lookup",
    "recommendations",
    "export-service",
]
_TECH = [
    "Postgres",
    "Redis",
    "Kafka",
    "Terraform",
    "Kubernetes",
    "Helm",
    "React",
    "TypeScript",
    "Go",
    "Rust",
    "Python",
    "Django",
    "FastAPI",
    "Celery",
    "Airflow",
    "dbt",
    "Snowflake",
    "BigQuery",
    "Grafana",
    "Prometheus",
    "Sentry",
    "Datadog",
    "Vault",
    "Argo",
    "GitHub-Actions",
    "Buildkite",
    "Playwright",
    "Jest",
    "pytest",
    "Bazel",
    "pnpm",
    "Docker",
    "nginx",
    "Envoy",
]
_PEOPLE = [
    "Ana",
    "Bruno",
    "Chen",
    "Dana",
    "Emeka",
    "Fatima",
    "Gus",
    "Hana",
    "Ivan",
    "Jonas",
    "Kemal",
    "Lena",
    "Mateo",
    "Nia",
    "Omar",
    "Priya",
    "Quinn",
    "Rosa",
    "Sami",
    "Tomas",
    "Uma",
    "Viktor",
    "Wen",
    "Yusuf",
    "Zoe",
]
_ROLES = [
    "data scientist",
    "backend engineer",
    "staff engineer on payments",
    "new to the frontend",
    "SRE on call this quarter",
    "product manager for checkout",
    "security reviewer",
    "mobile lead",
]
_METRICS = [
    "p99 latency",
    "error budget",
    "queue depth",
    "cache hit rate",
    "deploy frequency",
    "cost per request",
]
_COMMON = [
    "the",
    "team",
    "agreed",
    "to",
    "keep",
    "this",
    "rule",
    "after",
    "the",
    "incident",
    "review",
    "and",
    "it",
    "still",
    "holds",
    "tests",
    "deploy",
    "release",
    "staging",
    "production",
    "rollback",
    "canary",
    "schema",
    "migration",
    "review",
    "oncall",
    "dashboard",
    "alert",
    "budget",
    "flaky",
    "cache",
    "queue",
    "retry",
    "timeout",
    "owner",
    "runbook",
    "ticket",
]

_FEEDBACK = [
    (
        "{tech} migrations for {svc} in {code}",
        "{svc} schema changes for {code} must be transactional in {tech}",
    ),
    (
        "{code} integration tests hit a real {tech}",
        "{svc} tests for {code} use a real {tech}, not mocks",
    ),
    ("Keep {code} PRs small", "split {code} changes to {svc} into PRs under {n}0 lines"),
    ("Terse answers about {code}", "{person} wants short {code} replies, summaries skipped"),
    ("Pin {tech} in {code}", "{code} pins {tech} exactly in {svc}; upgrades get their own PR"),
]
_PROJECT = [
    ("{code} launch for {svc}", "{code} ships {svc} to all tenants behind a flag"),
    ("{svc} freeze before {code}", "merge freeze on {svc} while {code} is rolled out"),
    ("Move {code} to {tech}", "{code} in {svc} migrates to {tech} this quarter, owned by {person}"),
    ("{code} deadline", "{code} is due for the {svc} audit; {person} owns it"),
]
_REFERENCE = [
    ("{tech} board for {code}", "where the {code} {metric} dashboard lives in {tech}"),
    ("{code} runbook", "runbook for {code} pages in {svc}; linked from the on-call rota"),
    ("{code} tracker", "the {code} epic in Linear tracks {svc} work"),
]
_USER = [
    ("{person} on {code}", "{person} is a {role} working on {code}"),
    ("How {person} reviews {code}", "{person} reviews {code} {tech} changes, small diffs first"),
]
_TEMPLATES = {
    "feedback": _FEEDBACK,
    "project": _PROJECT,
    "reference": _REFERENCE,
    "user": _USER,
}
_SENTENCES = [
    "The {svc} team agreed on this after {code} went sideways in staging.",
    "{person} asked for it during the {code} review; the reason was the {metric} alert.",
    "It applies to every {tech} change in {svc}, including hotfixes.",
    "See the {tech} dashboard for {svc} before changing the {metric} threshold.",
    "Last time this was skipped the rollback took {n} minutes and paged {person}.",
    "{code} depends on it, so check with {person} before relaxing the rule.",
    "The {svc} owners keep the runbook in the wiki under {code}.",
    "Decided {when}; revisit when {code} is done.",
    "Quarterly numbers for {code} showed the {metric} drifting by {n} percent.",
    "{person} measured {n} ms at the edge after moving {svc} onto {tech}.",
    "Vendors quoted {n}k for the {code} contract; legal still has it.",
    "Customers on the {code} pilot reported duplicate emails from {svc}.",
    "Finance wants {svc} spend tagged by {code} before month end.",
    "Staging mirrors prod for {svc} except the {tech} replica count.",
    "Alerts for {code} route to {person}'s rotation until the handover.",
    "Load tests of {svc} plateau near {n} requests per second on {tech}.",
    "Historic incidents: {code}-{n} (cache stampede) and a {tech} upgrade stall.",
    "Schema for {code} lives in the {svc} repo, versioned with {tech} migrations.",
    "Mobile clients older than {n}.x cannot talk to {svc} after {code}.",
    "Security review of {code} flagged the {tech} admin port; {person} closed it.",
    "Onboarding doc for {svc} links the {code} architecture sketch.",
    "Batch jobs in {svc} run at {n}:00 UTC and hold a {tech} lock.",
    "{person} prefers decisions written in the {code} channel, not in DMs.",
    "Feature flag {code}_{n} gates the new {svc} checkout path.",
]
_WHEN = ["yesterday", "last week", "on 2026-03-05", "in the March planning", "3 days ago"]


def _zipf(rng: random.Random, items: list[str], s: float = 1.1) -> str:
    """An item chosen with a Zipf-like skew (the first items are much more common)."""
    n = len(items)
    u = rng.random()
    index = int(n ** (u ** (1 / s))) - 1  # cheap long-tailed pick: log-uniform over ranks
    return items[min(max(index, 0), n - 1)]


def _codenames(rng: random.Random, count: int) -> list[str]:
    names = set()
    while len(names) < count:
        names.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize())
    ordered = sorted(names)  # a set's order changes with PYTHONHASHSEED; this one does not
    rng.shuffle(ordered)
    return ordered


def _slots(rng: random.Random, codes: list[str]) -> dict[str, str]:
    return {
        "svc": _zipf(rng, _SERVICES),
        "tech": _zipf(rng, _TECH),
        "person": rng.choice(_PEOPLE),
        "role": rng.choice(_ROLES),
        "metric": rng.choice(_METRICS),
        "code": rng.choice(codes),
        "n": str(rng.randint(5, 90)),
        "when": rng.choice(_WHEN),
    }


def _memory(rng: random.Random, mtype: str, codes: list[str]) -> tuple[str, str, str]:
    slots = _slots(rng, codes)
    name_t, desc_t = rng.choice(_TEMPLATES[mtype])
    body = [rng.choice(_SENTENCES).format(**_slots(rng, codes)) for _ in range(rng.randint(2, 4))]
    body.insert(0, desc_t.format(**slots).capitalize() + ".")
    if mtype in ("feedback", "project"):
        body.append(f"**Why:** {rng.choice(_SENTENCES).format(**slots)}")
        body.append(f"**How to apply:** {' '.join(rng.sample(_COMMON, 8))}.")
    return name_t.format(**slots), desc_t.format(**slots), "\n".join(body) + "\n"


def _render(name: str, description: str, mtype: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: {mtype}\n---\n\n{body}"


def build_dir(root: Path, count: int, seed: int = 11) -> None:
    """Write `count` memory files and both indexes under root (which must not exist yet)."""
    rng = random.Random(seed)
    codes = _codenames(rng, max(300, count // 3))
    types = ["feedback", "project", "reference", "user"]
    made: list[tuple[str, str, str, str, str, float]] = []  # rel, scope, name, desc, type, mtime
    bodies: list[str] = []
    for i in range(count):
        folder = rng.choices(["", "team/", "topics/"], weights=[70, 20, 10])[0]
        roll = rng.random()
        if made and roll < 0.03:  # near-duplicate of an earlier file in the same folder
            j = rng.randrange(len(made))
            rel0, _, name, desc, mtype, _ = made[j]
            folder = rel0.rsplit("/", 1)[0] + "/" if "/" in rel0 else ""
            body = bodies[j] + f"Also noted by {rng.choice(_PEOPLE)} after the {codes[0]} retro.\n"
        elif made and roll < 0.04:  # the same subject, negated
            j = rng.randrange(len(made))
            _, _, name, desc, mtype, _ = made[j]
            desc = "never " + desc
            body = "Never do this any more. " + bodies[j]
        else:
            mtype = "feedback" if folder == "team/" and i % 5 == 0 else types[i % 4]
            if folder == "team/" and mtype == "user":
                mtype = "reference"
            name, desc, body = _memory(rng, mtype, codes)
        rel = f"{folder}{mtype}_{i:06d}.md"
        mtime = NOW.timestamp() - rng.uniform(0, 400 * 86400)
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_render(name, desc, mtype, body), encoding="utf-8")
        os.utime(path, (mtime, mtime))
        made.append((rel, folder, name, desc, mtype, mtime))
        bodies.append(body)
    for scope in ("", "team/"):
        in_scope = [m for m in made if m[0].startswith(scope) and (scope or m[1] != "team/")]
        newest = sorted(in_scope, key=lambda m: -m[5])[:INDEXED_NEWEST]
        lines = [f"- [{m[2]}]({m[0][len(scope) :]}) \u2014 {m[3][:120]}" for m in newest]
        lines += [f"- [Old note {k}](gone_{k}.md) \u2014 deleted long ago" for k in range(3)]
        (root / scope / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def cached_dir(cache: Path, count: int, seed: int = 11) -> Path:
    """The dir for (count, seed) under cache, built on first use; an unfinished build is redone."""
    root = cache / f"v{CORPUS_VERSION}-{count}-{seed}"
    if (root / DONE_MARKER).exists():
        return root
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    build_dir(root, count, seed)
    # A dot-file: scans skip it, so it is not a memory.
    (root / DONE_MARKER).write_text(f"{count} files, seed {seed}\n", encoding="utf-8")
    return root
