"""Where lint's content rules look: the patterns of derivable content and task state (file paths
with a line number, code maps, commit ids, PR numbers, work in flight), and the quick checks in
front of them.

lint.content runs a pattern on a memory's lines only when `matches_somewhere` finds it in them
all. The quick checks (literal needles and hints on the lower-cased text) never skip a text the
pattern matches; the tests derive that from the patterns themselves.
"""

from __future__ import annotations

import re

from memdir_nb.lint.git_history import GIT_SHA_CONTEXT, LONG_SHA, PR_REF
from memdir_nb.spec import text as textseg

__all__ = [
    "CODE_SYMBOL",
    "EPHEMERAL",
    "FILE_LINE",
    "IN_PROGRESS",
    "LINE_PATTERNS",
    "lowered",
    "matches_somewhere",
    "names_a_status",
]

_FILE_EXT = r"(?:py|pyi|js|jsx|ts|tsx|mjs|cjs|go|rs|java|kt|kts|scala|rb|php|c|h|cc|cpp|hpp|cs|swift|m|sql|sh|bash|zsh|ps1|yaml|yml|toml|json|ini|cfg|tf|proto|vue|svelte|lua|ex|exs|erl|hs|ml|r|jl|dart|gradle)"
FILE_LINE = re.compile(
    rf"(?<![\w/.-])(?:[\w.\-]+/)*[\w.\-]+\.{_FILE_EXT}(?::\d+(?::\d+)?\b|,?\s+(?:line|lines|l\.)\s*\d+)",
    re.IGNORECASE,
)
# A framework named like a script ("`router.back()` in Next.js", real44: a web app's notes on
# how the framework behaves): no file of the repository, so no code location.
_FRAMEWORK_JS = (
    r"(?:Next|Node|Nuxt|Vue|React|Express|Ember|Angular|Three|Chart|Socket|Nest|Alpine|"
    r"Preact|Solid|Moment|Backbone|Knockout|Meteor|Ext|Day|Anime|Video|Leaflet|Paper)\.js\b"
)
CODE_SYMBOL = re.compile(
    rf"`(?:[A-Za-z_][\w.]*\(\)|(?:class|def|fn|func|function)\s+[A-Za-z_]\w*)`"
    rf"[^\n]{{0,40}}?\b(?:in|from|inside|defined in|lives in|at)\s+`?(?!{_FRAMEWORK_JS})"
    rf"(?:[\w.\-]+/)*[\w.\-]+\.{_FILE_EXT}\b",
    re.IGNORECASE,
)
EPHEMERAL = re.compile(
    r"\b(?:currently\s+(?:working\s+on|debugging|fixing|implementing|investigating|looking\s+(?:at|into)|refactoring)"
    r"|(?:I'?m|I\s+am|we'?re|we\s+are)\s+(?:now\s+)?(?:working\s+on|in\s+the\s+middle\s+of)"
    # "TODO:", "TODO(ann)", "TODO - x"; not a slug or link such as todo-lists-are-read-only,
    # nor a tracked item's number, "TODO (#2, nonce CSP)" as "TODO #48" (real45: retros)
    r"|TODO(?:\s*:|\s*\((?!#\d)|\s*-(?![\w-]))|FIXME\s*:|WIP\b|work\s+in\s+progress"
    r"|(?:in|during)\s+this\s+(?:conversation|session|chat)"
    r"|(?:status|state)\s*:\s*(?:in\s+progress|ongoing|todo|wip|not\s+started))",
    re.IGNORECASE,
)
IN_PROGRESS = re.compile(r"\bin\s+progress\b", re.IGNORECASE)
# Words that, right after "in progress", show it is the name of something (a status, a hook).
_NAMED_AFTER = re.compile(
    r"^[\s\"'`\u201d]*(?:hooks?|status(?:es)?|states?|columns?|labels?|tags?|lanes?|badges?|"
    r"filters?|values?|options?|events?|steps?|buckets?|icons?|colou?rs?|field|enum|flag|"
    r"warehouses?|inventory|stock|accounts?)\b",
    re.IGNORECASE,
)


# Quick checks in front of the content patterns, on the lower-cased text (lowered): `in` finds
# literal text far faster than the regex engine runs a pattern with no literal start (tried at
# every position), and so does a case-sensitive regex whose branches start with literals. They
# hold on any text without textseg.FOLDS_TO_ASCII, the four characters outside ASCII that
# case-insensitive matching takes for an ASCII letter (the Kelvin sign for 'k', the long s for
# 's', the dotted and dotless I for 'i'). Lower-casing such text turns no other character into
# an ASCII one, changes no length, and keeps \w, \s and \d where they were (tests derive all
# three from Python itself). A text holding one of the four is searched with the pattern alone.
_PR_HINT = re.compile(r"prs?\s*#?\d|#\d|/pull/")
# Every file name with a line number has a '.' before its extension, which starts with a letter.
_FILE_LINE_HINT = re.compile(r"\.[a-z]")
# Each EPHEMERAL branch, lower-cased, holds one of these (every branch starts with a
# literal, so the regex engine skips quickly to the places worth trying).
_EPHEMERAL_HINT = re.compile(
    r"currently|working\s+on|middle\s+of|todo|fixme|wip|progress"
    r"|this\s+(?:conversation|session|chat)|stat(?:us|e)\s*:"
)
# EPHEMERAL itself without IGNORECASE, for the lowered text: there it matches exactly
# where EPHEMERAL matches the text (its escapes are all lower-case: \s, \b, \-), and it
# is several times faster. It runs after the hint ("working on" alone is common).
_EPHEMERAL_LOW = re.compile(EPHEMERAL.pattern.lower())
# Per pattern, checks on the lowered text (lowered), each passed by every text
# the pattern matches: literal text (one of which every match holds) or a regex (which finds
# something in every match). The cheap checks come first. None: the pattern always runs.
_Check = tuple[str, ...] | re.Pattern[str]
_EPHEMERAL_WORDS = (
    "currently",
    "working",
    "middle",
    "todo",
    "fixme",
    "wip",
    "progress",
    "conversation",
    "session",
    "chat",
    "status",
    "state",
)
_NEEDLES: dict[re.Pattern[str], tuple[_Check, ...] | None] = {
    FILE_LINE: (_FILE_LINE_HINT,),
    CODE_SYMBOL: (("`",),),
    GIT_SHA_CONTEXT: (
        (
            "commit",
            "sha",
            "revert",
            "cherry-pick",
            "fixed in",
            "landed in",
            "introduced in",
            "merged as",
        ),
    ),
    LONG_SHA: None,  # no needle: _has_hex_run checks it (see matches_somewhere)
    PR_REF: (_PR_HINT,),
    EPHEMERAL: (_EPHEMERAL_WORDS, _EPHEMERAL_HINT, _EPHEMERAL_LOW),
    IN_PROGRESS: (("progress",),),
}
LINE_PATTERNS = (FILE_LINE, CODE_SYMBOL, GIT_SHA_CONTEXT, LONG_SHA, PR_REF, EPHEMERAL)
# Per pattern with no literal start, a pattern that matches inside each of its matches and
# starts with a literal (which the regex engine skips to): where the hint finds nothing, the
# pattern cannot match. Same flags, so it holds for any text, ASCII or not.
_HINTS: dict[re.Pattern[str], re.Pattern[str]] = {
    FILE_LINE: re.compile(rf"\.{_FILE_EXT}(?::\d|,?\s+(?:line|lines|l\.)\s*\d)", re.IGNORECASE),
}


_HEX_MARKS = bytes(ord("x") if chr(b) in "0123456789abcdef" else ord(" ") for b in range(256))


def _has_hex_run(low: str, n: int) -> bool:
    """Whether lower-case text holds n ASCII hex digits in a row (one C pass, no regex)."""
    return b"x" * n in low.encode("ascii", "replace").translate(_HEX_MARKS)


def lowered(blob: str) -> str | None:
    """blob lower-cased for the quick checks, or None when it holds one of FOLDS_TO_ASCII
    (spec.text, the one home of that rule)."""
    if textseg.has_ascii_fold(blob):
        return None
    return blob.lower()


def matches_somewhere(pattern: re.Pattern[str], blob: str, low: str | None) -> bool:
    """Whether pattern matches in blob; low is lowered(blob) (None: no quick checks)."""
    needles = _NEEDLES[pattern]
    if low is not None:
        if pattern is LONG_SHA and not _has_hex_run(low, 40):
            return False
        # a commit id is 7 to 40 hex digits in a row
        if pattern is GIT_SHA_CONTEXT and not _has_hex_run(low, 7):
            return False
        for check in needles or ():
            if isinstance(check, re.Pattern):
                if check.search(low) is None:
                    return False
            elif not any(n in low for n in check):
                return False
    hint = _HINTS.get(pattern)
    if hint is not None and hint.search(blob) is None:
        return False
    return pattern.search(blob) is not None


def names_a_status(line: str, m: re.Match[str]) -> bool:
    """Whether an "in progress" or "WIP" hit names a status, a hook or a thing rather than
    saying work is under way.

    A table row listing statuses, a quoted or backticked phrase ('the "in progress" hook'), the
    phrase followed by a noun such as status, column, hook or warehouse, or one item of a comma
    list of names ("Finished Goods, WIP, Goods In Transit": an ERP's work-in-progress
    warehouse, real42) is vocabulary, not task state.
    """
    hit = m.group(0).lower()
    if "progress" not in hit and hit != "wip":
        return False
    if line.lstrip().startswith("|"):
        return True
    before = line[: m.start()].rstrip()
    if before[-1:] in ("`", '"', "'", "\u201c", "\u2018"):
        return True
    after = line[m.end() :]
    # one of a list of statuses: "Draft | Ready | In Progress | Done", "Todo -> In progress"
    if before.endswith(_STATUS_SEPARATORS) or after.lstrip().startswith(_STATUS_SEPARATORS):
        return True
    if before.endswith(",") and _a_listed_name(m.group(0), after.strip()):
        return True
    return _NAMED_AFTER.match(after) is not None


_STATUS_SEPARATORS = ("|", "->", "\u2192")


def _a_listed_name(hit: str, rest: str) -> bool:
    """Whether a hit after a comma is one name of a list ("EPS HO, Finished Goods, WIP, Goods
    In Transit"): another name or the list's close follows, or it ends the line written as a
    name ("..., Goods In Transit, Work In Progress.")."""
    if rest.startswith((",", ")")):
        return True
    return rest in ("", ".", ";") and (hit.istitle() or hit.isupper())
