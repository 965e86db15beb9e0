"""The secret rule: public-by-context values masked, long lines windowed, then the shared detectors.

The detectors (memdir_nb.security.secret_scan) are shared with the store's team guard, which stays
strict; the context handling here is lint's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from memdir_nb.lint.findings import Collector, MemoryText, ScopeIndex, field_line
from memdir_nb.lint.identifier_names import KEY_PREFIXES as _KEY_PREFIXES
from memdir_nb.lint.identifier_names import looks_like_identifier as _looks_like_identifier
from memdir_nb.security.secret_scan import (
    DECODED_FIELD_PREFIX,
    SecretFinding,
    decoded_header_fields,
    scan_with_values,
)

# The secret scan covers the first 64 KB of a body, in windows of 1,000 characters per line.
MAX_SECRET_SCAN_CHARS = 64 * 1024
SECRET_LINE_WINDOW = 1000
SECRET_LINE_OVERLAP = 200
MAX_HEADER_SCAN_CHARS = 4096


def _secret_window(text: str) -> str:
    """Text with very long lines cut into overlapping pieces, each on its own line.

    The secret scanner's cost grows with the square of a line's length (a 32,000-character
    line takes seconds), so a pasted blob is scanned in windows; overlap keeps a token that
    straddles a cut whole in one piece. Line numbers shift only inside such blobs.
    """
    if len(text) <= SECRET_LINE_WINDOW or max(map(len, text.split("\n"))) <= SECRET_LINE_WINDOW:
        return text  # no line is longer than a window
    out = []
    step = SECRET_LINE_WINDOW - SECRET_LINE_OVERLAP
    for line in text.split("\n"):
        if len(line) <= SECRET_LINE_WINDOW:
            out.append(line)
            continue
        out.extend(
            line[i : i + SECRET_LINE_WINDOW]
            for i in range(0, len(line) - SECRET_LINE_OVERLAP, step)
        )
    return "\n".join(out)


# Values that look random but are public by what the line says they are. Lint masks them
# before the secret scan (the detectors in secret_scan.py are shared with the store's team
# guard, which stays strict); each pattern names its context, so a bare token is still scanned.
_PUBLIC_KEY = re.compile(
    r"(?P<pre>(?i:\bpub(?:lic)?[ _-]?key)[^\w\n+/]{0,6}(?:is\s+|=\s*|:\s*)?[`'\"]?)"
    r"(?P<v>[A-Za-z0-9+/]{20,}={0,2})"
)
_CHANNEL_ID = re.compile(r"(?P<pre>)\b(?P<v>[CG][A-Z0-9]{8,11})\b")
# A blockchain address on a line that says what it is ("Program ID", "mint address", "wallet"):
# base58 (Solana, Bitcoin) or 0x and 40 hex digits (Ethereum). Addresses are public.
_ADDRESS_CONTEXT = re.compile(
    r"(?i)\b(?:program|mint|wallet|contract|vault)[ _-]?(?:id|address|addr|pubkey)\b"
    r"|\b(?:account|public)[ _-]?(?:address|addr|pubkey)\b|\bpubkey\b|\bwallet\b|\bon-?chain\b"
)
# Every _ADDRESS_CONTEXT match holds one of these (lower-cased): a memory without any is not
# searched (the pattern's word boundaries make it slow to run over every body).
_ADDRESS_NEEDLES = ("program", "mint", "wallet", "contract", "vault", "addr", "pubkey", "chain")
_CHAIN_ADDRESS = re.compile(
    r"(?P<pre>)(?<![\w])(?P<v>[1-9A-HJ-NP-Za-km-z]{32,44}|0x[0-9a-fA-F]{40})(?![\w])"
)
_BASE58 = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
# A byte per ASCII character: "a" for a base58 character, " " for any other (non-ASCII
# characters are encoded as "?" first): a base58 address is a run of 32 "a"s.
_BASE58_MARKS = bytes(ord("a") if b in _BASE58 else ord(" ") for b in range(256))


def _may_hold_address(text: str) -> bool:
    """False when text holds no run of 32 base58 characters and no "0x": no address to mask."""
    return "0x" in text or b"a" * 32 in text.encode("ascii", "replace").translate(_BASE58_MARKS)


# What a masked value leaves in the text: one character the detectors never read as part of a
# token, so the words on either side stay apart (removing it could join them into a new
# token). It is ASCII, so a masked text keeps the detectors' quick paths for ASCII text, and a
# finding's quoted example shows it as MASKED_SHOWN: where something public was left out.
MASKED = "\x1f"
MASKED_SHOWN = "\u2026"
_PUBLIC_VALUE_PATTERNS = (
    # an environment variable's NAME (HOLIDAY_API_KEY), not its value
    re.compile(r"(?P<pre>)(?<![\w=:])(?P<v>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![\w=])"),
    # a file name, or an absolute or home path: the path to a credential is not the credential
    # (a match starts only where a run of name characters starts, so a long run of '-' or '.'
    # is tried once, not from each of its characters: linear, not quadratic)
    re.compile(
        r"(?P<pre>)(?<![\w/.-])(?P<v>(?:~|/)?(?:[\w.-]+/)*[\w-]+\.(?:py|pyi|js|ts|tsx|json|ya?ml|"
        r"toml|md|txt|csv|sh|go|rs|java|sql|ipynb|log|conf|cfg|ini|xml|html))(?![\w])"
    ),
    re.compile(r"(?P<pre>)(?<![\w/])(?P<v>~?/(?:[\w.-]+/)+[\w.-]*)"),
)
# an agent session id (ses_...), which names a transcript, and a hosting project's or team's
# id (Vercel's prj_..., team_..., real44: a deploy note naming the live project), which names
# where code runs: they grant nothing
_SESSION_ID = re.compile(
    r"(?P<pre>)\b(?P<v>ses_[A-Za-z0-9]{16,}|(?:prj|team)_[A-Za-z0-9]{20,40})\b"
)
_SESSION_ID_NEEDLES = ("ses_", "prj_", "team_")
# For each _PUBLIC_VALUE_PATTERNS entry, in order, a pattern that matches inside every one of
# its matches and starts with a literal (which the regex engine finds quickly): where the
# hint finds nothing, the slower full pattern cannot match either and is not run.
_FILE_NAME_HINT = re.compile(
    r"\.(?:py|pyi|js|ts|tsx|json|ya?ml|toml|md|txt|csv|sh|go|rs|java|sql|ipynb|log|conf|cfg"
    r"|ini|xml|html)(?!\w)"
)
_DOT_LETTER = re.compile(r"\.[a-z]")
_PUBLIC_VALUE_HINTS = (
    # an upper-case letter or digit, '_', an upper-case letter or digit (the literal '_' first)
    re.compile(r"_(?<=[A-Z0-9]_)[A-Z0-9]"),
    _FILE_NAME_HINT,
    re.compile(r"/[\w.-]+/"),
)
# Lines that speak of a credential keep their identifier-like values: a password can be CamelCase.
_CREDENTIAL_WORDS = re.compile(
    r"(?i)pass(?:word|wd|phrase)?\b|\bpwd\b|secret|token|api[_ -]?key|credential|bearer"
)
# A byte per ASCII character: "a" for a lower-case letter, "B" for an upper-case letter, a
# digit or "_", " " for anything else (other characters are encoded as "?" first).
_CASE_MARKS = bytes(
    ord("a")
    if chr(b).islower() and chr(b).isascii()
    else ord("B")
    if (chr(b).isupper() or chr(b).isdigit() or chr(b) == "_") and chr(b).isascii()
    else ord(" ")
    for b in range(256)
)
_LOWER_THEN_BREAK = b"aB"
_IDENTIFIER = re.compile(r"(?<![\w+/=-])[A-Za-z][A-Za-z0-9_]{7,}(?![\w+/=])")


def _public(m: re.Match[str]) -> str:
    return m.group("pre") + MASKED


# A memory that speaks of Google Docs or Drive holds document and folder ids: 25-50 characters
# of [A-Za-z0-9_-]. They name a file (sharing settings decide who can open it) and are removed
# before the scan, unless they carry a provider's key prefix.
_DRIVE_CONTEXT = re.compile(
    r"(?i)google\s*(?:docs|drive|sheets|slides)|(?:docs|drive)\.google\.com|구글\s*(?:드라이브|독스|문서)|"
    r"谷歌(?:文档|云端硬盘)|\bfolders/"
)
_DRIVE_ID = re.compile(r"(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9_-]{25,50}(?![\w-])")
# A value right after a label that calls it a Drive, folder, doc or sheet id names a file on
# any line, whatever else the memory or the line speaks of (real39: a table row naming the
# token file `token_drive.json` gave the spreadsheet it downloads as "Drive ID `…`").
_DRIVE_ID_LABELLED = re.compile(
    r"(?P<pre>(?i:\b(?:drive|folder|docs?|document|sheets?|spreadsheet|slides?)[ _-]?"
    r"(?:file[ _-]?)?id)[^\w\n]{0,6}(?:is\s+|=\s*|:\s*)?[`'\"]?)"
    r"(?P<v>[A-Za-z0-9_-]{25,50})(?![\w-])"
)
_DRIVE_LABEL_NEEDLES = ("drive", "folder", "doc", "sheet", "slide")


def _may_label_a_drive_id(text: str, low: str) -> bool:
    """False when _DRIVE_ID_LABELLED cannot match (every match says "id" and one of the
    needles; outside ASCII, True: case folding maps a few more letters)."""
    if not text.isascii():
        return True
    return "id" in low and any(map(low.__contains__, _DRIVE_LABEL_NEEDLES))


def _drive_label_public(m: re.Match[str]) -> str:
    """A labelled Drive id masked, unless it carries a provider's key prefix."""
    return m.group(0) if m.group("v").startswith(_KEY_PREFIXES) else _public(m)


def _may_name_drive(text: str, low: str) -> bool:
    """False when _DRIVE_CONTEXT cannot match (a quick literal check; outside ASCII, True)."""
    if not text.isascii():  # case folding maps a few more letters ('ſ' to 's'): no shortcut
        return True
    return "google" in low or "folder" in low


class _Steps(NamedTuple):
    """Which of mask_public_values' steps may change a text (False: its quick check failed)."""

    public_key: bool = True
    drive_label: bool = True
    drive: bool = True
    channel: bool = True
    address: bool = True
    env_name: bool = True
    file_name: bool = True
    path: bool = True
    session: bool = True
    identifiers: bool = True


_EVERY_STEP = _Steps()


def _steps_that_may_apply(text: str) -> _Steps:
    """The steps whose quick check passes on text (what mask_public_values_each asks of a join).

    Each check is a needle or a match with every character it looks at inside the match, so it
    passes on text whenever it passes on a piece of it, masked or not: masking only replaces
    values with MASKED, which no check matches, so what a check finds in a masked text lies in
    a stretch of the text as written.
    """
    low = text.lower()
    env_hint, _, path_hint = _PUBLIC_VALUE_HINTS  # the file-name step asks _DOT_LETTER first
    return _Steps(
        public_key="pub" in low,
        drive_label=_may_label_a_drive_id(text, low),
        drive=_may_name_drive(text, low),
        channel="channel" in low,
        address=any(map(low.__contains__, _ADDRESS_NEEDLES)),
        env_name=env_hint.search(text) is not None,
        file_name=_DOT_LETTER.search(text) is not None,
        path=path_hint.search(text) is not None,
        session=any(map(text.__contains__, _SESSION_ID_NEEDLES)),
        identifiers=_LOWER_THEN_BREAK in text.encode("ascii", "replace").translate(_CASE_MARKS),
    )


def mask_public_values_each(texts: Sequence[str]) -> list[str]:
    """[mask_public_values(t) for t in texts], with the quick checks made once for all of them.

    A memory's fields (name, description, header, body) are masked one by one, and most hold
    nothing to mask: the checks run on the fields joined, and a step whose check fails there
    cannot apply to any field (_steps_that_may_apply), so it is left out for each of them.
    """
    steps = _steps_that_may_apply("\n".join(texts))
    if not any(steps):
        return list(texts)
    return [_mask(text, steps) for text in texts]


def mask_public_values(text: str) -> str:
    """text with values that are public by context removed before the secret scan.

    Public keys, values labelled as a Drive, folder, doc or sheet id, chat channel ids on a line
    that says "channel", environment variable names,
    file names and paths, and (on lines that do not speak of a credential: a password, secret,
    token, API key...) blockchain addresses on a line that says what they are, agent session
    ids, Google Docs/Drive ids in a memory about those, and CamelCase or snake_case identifiers
    look random but grant nothing. The detectors
    (secret_scan.py) are shared with the store's team guard, which stays strict; this context
    handling is lint's own. Each value masked leaves MASKED in its place, and line breaks are
    kept, so line numbers hold.
    """
    return _mask(text, _EVERY_STEP)


def _mask(text: str, steps: _Steps) -> str:
    """mask_public_values(text), leaving out the steps that steps rules out."""
    low = text.lower()
    if steps.public_key and "pub" in low:  # every _PUBLIC_KEY match says "pub"
        text = _PUBLIC_KEY.sub(_public, text)
    if steps.drive_label and _may_label_a_drive_id(text, low):
        text = _DRIVE_ID_LABELLED.sub(_drive_label_public, text)
    if steps.drive and _may_name_drive(text, low) and _DRIVE_CONTEXT.search(text):
        text = _sub_where(_DRIVE_ID, text, _names_no_credential, _drive_id_or_key)
    # Every step works within a line (no pattern matches a line break, and a line break
    # satisfies each pattern's boundary checks as a line's start or end does), so the steps
    # that apply to every line run once over the whole text, in the same order per line.
    if steps.channel and "channel" in low:
        text = _sub_where(_CHANNEL_ID, text, lambda line: "channel" in line.lower())
    if (
        steps.address
        and any(map(low.__contains__, _ADDRESS_NEEDLES))
        and _may_hold_address(text)
        and _ADDRESS_CONTEXT.search(text)
    ):
        text = _sub_where(
            _CHAIN_ADDRESS,
            text,
            lambda line: bool(_ADDRESS_CONTEXT.search(line)) and _names_no_credential(line),
        )
    wanted = (steps.env_name, steps.file_name, steps.path)
    for pattern, hint, may in zip(_PUBLIC_VALUE_PATTERNS, _PUBLIC_VALUE_HINTS, wanted, strict=True):
        if not may:
            continue
        if hint is _FILE_NAME_HINT and _DOT_LETTER.search(text) is None:
            continue  # every extension starts with a letter: no '.' before one, no file name
        if hint.search(text) is not None:
            text = _sub_on_hinted_lines(pattern, hint, text)
    if steps.session and any(map(text.__contains__, _SESSION_ID_NEEDLES)):
        text = _sub_where(
            _SESSION_ID,
            text,
            lambda line: (
                any(map(line.__contains__, _SESSION_ID_NEEDLES)) and _names_no_credential(line)
            ),
        )
    return _mask_identifiers(text) if steps.identifiers else text


def _names_no_credential(line: str) -> bool:
    """Whether a line does not speak of a credential: only then are its context values public
    (a value on `wallet secret: ...` or `Drive API token: ...` is scanned as the guard scans it)."""
    return _CREDENTIAL_WORDS.search(line) is None


def _drive_id_or_key(m: re.Match[str]) -> str:
    return m.group(0) if m.group(0).startswith(_KEY_PREFIXES) else MASKED


def _sub_where(
    pattern: re.Pattern[str],
    text: str,
    applies: Callable[[str], bool],
    repl: Callable[[re.Match[str]], str] = _public,
) -> str:
    """pattern's matches replaced by repl (masked) on the lines of text where applies(line) holds."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if applies(line):
            lines[i] = pattern.sub(repl, line)
    return "\n".join(lines)


def _sub_on_hinted_lines(pattern: re.Pattern[str], hint: re.Pattern[str], text: str) -> str:
    """pattern's matches in text masked, looked for only on the lines where hint finds something.

    No match holds a line break, and a line break meets each pattern's boundary checks as a
    line's start or end does, so the lines' matches are the text's; a match holds a hint, so a
    line without one has none. A long memory with one file name is then searched on one line,
    not from every word of every line (the file-name pattern backtracks over each word).
    """
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if hint.search(line) is not None:
            lines[i] = pattern.sub(_public, line)
    return "\n".join(lines)


def _mask_identifiers(text: str) -> str:
    """text with CamelCase and snake_case identifiers removed, on lines that name no credential."""
    # A maskable token has two word-like parts, so a lower-case letter right before an
    # upper-case letter, a digit or '_' (one translation marks them: a byte per character):
    # only the lines holding such a pair are searched, and text without one is returned.
    marks = text.encode("ascii", "replace").translate(_CASE_MARKS)
    at = marks.find(_LOWER_THEN_BREAK)
    if at < 0:
        return text
    # A line's matches are the whole text's matches on that line (no match holds a line
    # break, which meets the boundary checks as a line's start or end does); a masked
    # identifier is cut unless its line speaks of a credential.
    kept: list[str] = []
    done = 0  # text[:done] is settled
    while at >= 0:
        line_start = text.rfind("\n", 0, at) + 1
        line_end = text.find("\n", at)
        if line_end < 0:
            line_end = len(text)
        masking: bool | None = None  # decided at the line's first identifier
        for m in _IDENTIFIER.finditer(text, line_start, line_end):
            if not _looks_like_identifier(m.group(0)):
                continue
            if masking is None:
                masking = _CREDENTIAL_WORDS.search(text, line_start, line_end) is None
            if not masking:
                break
            kept.append(text[done : m.start()] + MASKED)
            done = m.end()
        at = marks.find(_LOWER_THEN_BREAK, line_end)
    kept.append(text[done:])
    return "".join(kept)


FILE_NAME_FIELD = "file name"


def check_secrets(mem: MemoryText, c: Collector) -> frozenset[str]:
    """The secret rule on one memory; returns the credentials found, for the other rules' quotes."""
    fm = mem.header
    raw_header = "\n".join(fm.header_lines)
    # every other key and YAML comment as written, then every value as YAML decodes it, with
    # its key (a folded or literal scalar puts a value on the lines below its key)
    decoded = decoded_header_fields(fm.fields, raw_header)
    names = ["name", "description", "header", *decoded, "body"]
    texts = [
        (fm.name or "")[:MAX_HEADER_SCAN_CHARS],
        (fm.description or "")[:MAX_HEADER_SCAN_CHARS],
        raw_header,
        *(pair[:MAX_HEADER_SCAN_CHARS] for pair in decoded.values()),
        mem.body[:MAX_SECRET_SCAN_CHARS],
    ]
    fields = {
        field: _secret_window(masked)
        for field, masked in zip(names, mask_public_values_each(texts), strict=True)
    }
    # the file's own name as the team guard scans it, but for its CamelCase or snake_case
    # words, which lint masks as it masks them in a body (real41: `project_v8_vix3m_verify.md`,
    # a name of words and tickers, read as a high-entropy token); a key used as a name stays
    fields[FILE_NAME_FIELD] = _mask_identifiers(mem.rel.rsplit("/", 1)[-1])
    findings, values = scan_with_values(fields)
    if not findings:
        return values
    team = mem.scope == "team"
    first = findings[0]
    line = _finding_line(mem, first.field, first.line) if first.field != FILE_NAME_FIELD else None
    kinds = ", ".join(sorted({f.kind for f in findings}))
    where = "team memory, shared with everyone in the project" if team else "private memory"
    c.add(
        "secret",
        f"looks like a credential ({kinds}; e.g. `{first.excerpt.replace(MASKED, MASKED_SHOWN)}`) "
        f"in {where}",
        "remove it and name where it is stored instead (e.g. the vault entry); rotate it if it was shared",
        line,
        severity="error" if team else "warning",
    )
    return values


def check_index_secrets(index: ScopeIndex, c: Collector) -> frozenset[str]:
    """The secret rule on one MEMORY.md; returns the credentials found, for the other rules'
    quotes. Every line the load caps keep goes into the prompt (a team index into every
    teammate's), and lint is the only check on one that arrives by git pull. Link targets are
    scanned as the team guard scans a file name, but for their CamelCase or snake_case words
    (as check_secrets scans the memory's own name)."""
    # The targets go in as one field, a target a line (a target never holds a line break, and
    # the scan reads line by line): the same findings as a field each, for one field's cost.
    lines = [e.line_no for e in index.entries]
    fields = {
        "index": _secret_window(mask_public_values(index.text[:MAX_SECRET_SCAN_CHARS])),
        TARGETS_FIELD: _mask_identifiers("\n".join(e.target for e in index.entries)),
    }
    findings, values = scan_with_values(fields)
    if findings:
        team = index.scope == "team"
        first = min(findings, key=lambda f: _index_line(f, lines))
        where = "the team index, loaded into everyone's prompt" if team else "the index"
        c.add(
            "secret",
            f"looks like a credential ({', '.join(sorted({f.kind for f in findings}))}; e.g. "
            f"`{first.excerpt.replace(MASKED, MASKED_SHOWN)}`) in {where}",
            "remove it from the line (name where it is stored instead); rotate it if it was shared",
            _index_line(first, lines),
            severity="error" if team else "warning",
        )
    return values


TARGETS_FIELD = "link targets"


def _index_line(finding: SecretFinding, target_lines: list[int]) -> int:
    """The index line of a finding of check_index_secrets (target_lines: each entry's line)."""
    if finding.field == TARGETS_FIELD:
        return target_lines[finding.line - 1]
    return finding.line


def _finding_line(mem: MemoryText, field: str, line: int) -> int:
    """The file line of a finding in one of check_secrets' fields."""
    if field == "body":
        return mem.body_line + line - 1
    if field == "header":
        return 1 + line  # the header starts below the opening '---'
    if field.startswith(DECODED_FIELD_PREFIX):
        key = field[len(DECODED_FIELD_PREFIX) :].split(".", 1)[0].split("[", 1)[0]
        return field_line(mem, key)
    return field_line(mem, field)
