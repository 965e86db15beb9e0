"""`memdir-nb scan DIR` read without argparse, in the plain forms a shell prompt or a hook types.

argparse (with gettext, locale and their regexes) and building the scan's parser were about
12 M instructions of the 200 M of a `memdir-nb scan` process (docs/performance.md,
forty-second session). The forms read here are the ones argparse can only read one way:
`scan`, then in any order one DIR, `--json` and `--limit N`, where neither DIR nor N is empty
or starts with '-', each option is spelled whole (not `--js`, not `--limit=5`) and `--limit`
comes at most once. DIR and N pass the scan parser's own checks (cli.args.existing_dir_text
and positive_int), so the scan gets the values that parser would give it. Any other command
line, and a DIR or N those checks refuse, is left to the parsers (cli.parsers), which read or
refuse it as before: no refusal is worded here.
"""

from __future__ import annotations

from memdir_nb.cli.args import existing_dir_text, positive_int
from memdir_nb.spec.constants import MAX_MEMORY_FILES
from memdir_nb.spec.records import Record

SCAN_COMMAND = "scan"
JSON_OPTION = "--json"
LIMIT_OPTION = "--limit"


class PlainScan(Record, frozen=True):
    """A plain `scan` command line's values, as the scan's parser gives them."""

    dir: str  # absolute, as existing_dir_text gives it
    limit: int
    json: bool


def plain_scan(words: list[str]) -> PlainScan | None:
    """The values of a plain `scan` command line (see the module's docstring), else None."""
    if not words or words[0] != SCAN_COMMAND:
        return None
    raw_dir: str | None = None
    raw_limit: str | None = None
    as_json = False
    rest = iter(words[1:])
    for word in rest:
        if word == JSON_OPTION:
            as_json = True
        elif word == LIMIT_OPTION and raw_limit is None:
            raw_limit = next(rest, "")
            if not _plain_value(raw_limit):
                return None
        elif raw_dir is None and _plain_value(word):
            raw_dir = word
        else:
            return None
    if raw_dir is None:
        return None
    return _checked(raw_dir, raw_limit, as_json)


def _plain_value(word: str) -> bool:
    """A word argparse can only read as a value: not empty, not starting with '-'."""
    return bool(word) and not word.startswith("-")


def _checked(raw_dir: str, raw_limit: str | None, as_json: bool) -> PlainScan | None:
    """The values after the scan parser's checks; None when one refuses them."""
    try:
        directory = existing_dir_text(raw_dir)
        limit = MAX_MEMORY_FILES if raw_limit is None else positive_int(raw_limit)
    except Exception:  # whatever a check raises, the parsers meet it again and report it
        return None
    return PlainScan(directory, limit, as_json)
