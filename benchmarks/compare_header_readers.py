"""Read every memory file's header twice, with and without the YAML-free reader, and compare.

formats/frontmatter_fast.py answers only where its answer is certain to be YAML's: the same
mapping, or (PlainColon) a refusal, after which the fields are recovered line by line exactly
as after a YAML error. This script checks that promise on files nobody here wrote: point it at
copies of published memory dirs (kept outside the repository, never committed).

For each `.md` file it parses the header as memdir_nb does, then again with the fast reader
switched off (PyYAML decides everything), and compares the fields, name, description, type,
the malformed flag, the kept header lines and the problems. The one planned difference is the
problem text after a PlainColon: the fast reader names the key, the line and the fix where
PyYAML names a column; both start "YAML error". It prints a line per difference and a summary
of how each header was read, and exits 1 if any file differs.

  python benchmarks/compare_header_readers.py /tmp/realdirs [MORE_DIRS ...]
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from memdir_nb.formats import frontmatter
from memdir_nb.formats.frontmatter import Frontmatter, parse_frontmatter
from memdir_nb.formats.frontmatter_fast import PlainColon, fast_parse
from memdir_nb.formats.frontmatter_window import header_window_problem
from memdir_nb.spec.timestamps import modified_time_ms

MAX_BYTES = 1 << 20  # a larger file is not a memory file; it is passed over
ROUTES = (  # how_read's answers
    "fast",
    "refused without YAML",
    "yaml",
    "refused by the header window",
    "no header",
    "unclosed",
)


def markdown_files(roots: list[Path]) -> Iterator[Path]:
    """Every regular `.md` file below the roots, in a stable order, links not followed."""
    for root in roots:
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                path = Path(folder, name)
                if name.endswith(".md") and path.is_file() and not path.is_symlink():
                    yield path


def how_read(fm: Frontmatter) -> str:
    """Which route the parser took for a parsed header, asked of the parser's own pieces: the
    header it found (fences within the line window), the window check, then the reader."""
    if not fm.has_frontmatter:
        return "no header"
    if not fm.closed:
        return "unclosed"
    lines = list(fm.header_lines)
    if header_window_problem(lines) is not None:
        return "refused by the header window"
    fast = fast_parse(lines)
    if isinstance(fast, PlainColon):
        return "refused without YAML"
    return "yaml" if fast is None else "fast"


def _same_problems(fast: Frontmatter, slow: Frontmatter, route: str) -> bool:
    if route != "refused without YAML":
        return fast.problems == slow.problems
    return len(fast.problems) == len(slow.problems) and all(
        a.startswith("YAML error") and b.startswith("YAML error")
        for a, b in zip(fast.problems, slow.problems, strict=True)
    )


def compare(text: str) -> tuple[str, list[str]]:
    """(route, the attributes that differ between the two readers)."""
    fast, fast_body = parse_frontmatter(text)
    route = how_read(fast)
    saved = frontmatter.fast_parse
    frontmatter.fast_parse = lambda lines: None  # PyYAML decides every header
    try:
        slow, slow_body = parse_frontmatter(text)
    finally:
        frontmatter.fast_parse = saved
    differ = [
        attr
        for attr in ("name", "description", "type", "raw_type", "malformed", "header_lines")
        if getattr(fast, attr) != getattr(slow, attr)
    ]
    if _normalised_fields(fast) != _normalised_fields(slow):
        differ.append("fields")
    if not _same_problems(fast, slow, route):
        differ.append("problems")
    if fast_body != slow_body:
        differ.append("body")
    return route, differ


def _normalised_fields(fm: Frontmatter) -> dict[str, object]:
    """The fields with a `modified:` time as the instant it names (the planned difference)."""
    out: dict[str, object] = {}
    for key, value in fm.fields.items():
        if isinstance(value, dict):
            value = {k: modified_time_ms(v) if k == "modified" else v for k, v in value.items()}
        out[key] = modified_time_ms(value) if key == "modified" else value
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path, help="folders holding memory files")
    args = parser.parse_args(argv)
    routes: collections.Counter[str] = collections.Counter()
    failures = 0
    for path in markdown_files(args.dirs):
        if path.stat().st_size > MAX_BYTES:
            continue
        text = path.read_bytes().decode("utf-8", errors="replace")
        route, differ = compare(text)
        routes[route] += 1
        if differ:
            failures += 1
            print(f"DIFFERS {path}: {', '.join(differ)}")
    total = sum(routes.values())
    print(f"{total} files: " + ", ".join(f"{routes[r]} {r}" for r in ROUTES if routes[r]))
    print(f"{failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
