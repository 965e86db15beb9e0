"""The recall command: pick memories for a query and print them as the agent would see them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from memdir_nb.cli.args import dash_value_hint, existing_dir
from memdir_nb.recall import render_recall
from memdir_nb.recall.base import Selector
from memdir_nb.recall.explain_selection import format_explanation, selection_explanation
from memdir_nb.recall.selectors import default_selector, make_selector
from memdir_nb.spec.constants import SELECTOR_TIMEOUT_S
from memdir_nb.spec.text import terminal_line
from memdir_nb.storage.home_folders import empty_dir_note
from memdir_nb.storage.listing import folder_of_memory_dirs


def _dir_and_query(args: argparse.Namespace) -> tuple[Path, str] | str:
    """(memory dir, query) from `DIR QUERY` or `QUERY --dir DIR`; else what is wrong."""
    if args.second is None:
        if args.dir is None:
            return (
                'no memory dir given; pass it first: memdir-nb recall DIR "QUERY" (or --dir DIR); '
                + dash_value_hint("QUERY", "recall DIR")
            )
        return args.dir, args.query
    if args.dir is not None:
        return "the memory dir is given twice (before the query and with --dir); give it once"
    try:
        return existing_dir(args.query), args.second
    except argparse.ArgumentTypeError as exc:
        return str(exc)


def _selector(args: argparse.Namespace) -> Selector:
    """The selector --selector names (else the default one), with --timeout for Claude's call.

    ValueError when --timeout is given to a selector that calls no model: it would do nothing.
    """
    timeout = SELECTOR_TIMEOUT_S if args.timeout is None else args.timeout
    if args.selector:
        selector = make_selector(
            args.selector, chosen_with="--selector ", timeout_s=timeout, timeout_with="--timeout"
        )
    else:
        selector = default_selector(timeout_s=timeout, timeout_with="--timeout")
    name = str(getattr(selector, "name", type(selector).__name__))
    if args.timeout is not None and name != "anthropic":
        how = (
            "chosen with --selector"
            if args.selector
            else "the default here: ANTHROPIC_API_KEY is not set, or MEMDIR_NB_SELECTOR names it"
        )
        raise ValueError(
            f"--timeout sets how long the anthropic selector waits for Claude, but this recall "
            f"uses the {name} selector ({how}), which calls no model; drop --timeout, or pass "
            "--selector anthropic with ANTHROPIC_API_KEY set"
        )
    return selector


def cmd_recall(args: argparse.Namespace) -> int:
    """Print the memories selected for a query, exactly as they would be injected."""

    got = _dir_and_query(args)
    if isinstance(got, str):
        print(f"error: {terminal_line(got)}", file=sys.stderr)
        return 2
    args.dir, args.query = got
    if not args.query.strip():
        print(
            "error: the query is empty; give the text to find memories for, "
            'e.g. memdir-nb recall DIR "how do we deploy?"',
            file=sys.stderr,
        )
        return 2
    nested = folder_of_memory_dirs(args.dir)
    if nested is not None:  # each agent recalls from its own dir, never across them
        print(f"note: {nested.problem}; {nested.fix}")
        return 0
    empty = empty_dir_note(str(args.dir))
    if empty is not None:  # "no memory clearly helps" read as a verdict on memories there
        print(f"note: {empty}")
        return 0
    try:
        selector = _selector(args)
        out = render_recall(args.query, args.dir, tools=tuple(args.tool or ()), selector=selector)
    except ValueError as exc:
        print(f"error: {terminal_line(exc)}", file=sys.stderr)
        return 2
    print(out)
    if args.explain:
        name = str(getattr(selector, "name", type(selector).__name__))
        print(format_explanation(selection_explanation(selector), selector_name=name))
    return 0
