"""The recall command: pick memories for a query and print them as the agent would see them."""

from __future__ import annotations

import argparse
import sys

from memdir_nb.recall import render_recall
from memdir_nb.recall.explain_selection import format_explanation, selection_explanation
from memdir_nb.recall.selectors import default_selector, make_selector


def cmd_recall(args: argparse.Namespace) -> int:
    """Print the memories selected for a query, exactly as they would be injected."""

    if not args.query.strip():
        print(
            "error: the query is empty; give the text to find memories for, "
            'e.g. memdir-nb recall "how do we deploy?" --dir DIR',
            file=sys.stderr,
        )
        return 2
    try:
        selector = make_selector(args.selector) if args.selector else default_selector()
        out = render_recall(args.query, args.dir, tools=tuple(args.tool or ()), selector=selector)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(out)
    if args.explain:
        name = str(getattr(selector, "name", type(selector).__name__))
        print(format_explanation(selection_explanation(selector), selector_name=name))
    return 0
