"""The secret guard: find credentials in a memory's name, description and body.

Team memories are read by everyone's agent, so a team save or promote whose text looks like
a credential is refused (`SecretInTeamMemoryError`); a private save of the same text is
allowed by the store with a warning. Detection is built on the maintained `detect-secrets`
package: its provider detectors (AWS, GitHub, GitLab, Slack, Stripe, JWT, private keys,
...) and its entropy measure and false-positive filters, used
in-process through their pattern objects so no process-wide detect-secrets settings are
touched and no network verification can run. A few supplementary patterns cover what it has
no plugin for (Anthropic and OpenAI keys, opaque bearer tokens, Basic auth headers, a few
more providers' prefixed tokens); keyword assignments, passwords in URLs and public
identifiers are recognised by `secret_shapes` (see `secret_detect` for the engine). `scan_memory_file` scans everything that lands in a memory
dir with one memory: the filename, the whole file (every frontmatter key, YAML comments,
the body) and its index line. See docs/security.md for the tuning and its reasons.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.security.secret_detect import (
    BASE64_ENTROPY_LIMIT,
    ENTROPY_RATIO,
    HEX_ENTROPY_LIMIT,
    MIN_ENTROPY_TOKEN_LENGTH,
    PEM_END,
    Hit,
    base64_entropy_limit,
    line_hits,
    load_detectors,
    narrow_detectors,
)
from memdir_nb.security.secret_shapes import PUBLIC_BLOCK_BEGIN, PUBLIC_BLOCK_END
from memdir_nb.spec.text import without_format_chars

__all__ = [
    "BASE64_ENTROPY_LIMIT",
    "DECODED_FIELD_PREFIX",
    "ENTROPY_RATIO",
    "HEX_ENTROPY_LIMIT",
    "MIN_ENTROPY_TOKEN_LENGTH",
    "SecretFinding",
    "SecretInTeamMemoryError",
    "base64_entropy_limit",
    "decoded_header_fields",
    "format_findings",
    "mask_secret_values",
    "raise_if_secrets",
    "redact",
    "redact_secrets",
    "scan_for_secrets",
    "scan_memory_file",
    "scan_with_values",
]

MAX_LISTED_FINDINGS = 5
MAX_DECODED_HEADER_VALUES = 200
DECODED_FIELD_PREFIX = "frontmatter "  # the field name of a decoded `key: value` pair


@dataclass(frozen=True)
class SecretFinding:
    """One suspected credential: its kind, where it is, and a redacted excerpt of the line."""

    kind: str
    field: str
    line: int
    excerpt: str

    def describe(self) -> str:
        """One line such as: AWS access key in body line 3: `key AKIA…[20 chars]`."""
        return f"{self.kind} in {self.field} line {self.line}: `{self.excerpt}`"


class SecretInTeamMemoryError(ValueError):
    """A team save or promote was refused because its text looks like it holds a credential."""

    def __init__(self, findings: Iterable[SecretFinding]) -> None:
        self.findings = list(findings)
        super().__init__(
            "Refusing to write team memory: it looks like it contains a credential "
            f"({format_findings(self.findings)}). Team memories are shared with everyone who "
            "works in this project. Remove the secret (refer to it by where it is stored, "
            "e.g. the vault entry's name) or save the memory privately instead. Nothing was written."
        )


def redact(secret: str) -> str:
    """A short stand-in for secret that never contains all of it: a few leading chars and the length."""
    keep = 4 if len(secret) >= 16 else (2 if len(secret) >= 8 else 0)
    return f"{secret[:keep]}…[{len(secret)} chars]"


def format_findings(findings: Iterable[SecretFinding]) -> str:
    """Join findings into one readable line, listing at most a handful."""
    items = list(findings)
    text = "; ".join(f.describe() for f in items[:MAX_LISTED_FINDINGS])
    if len(items) > MAX_LISTED_FINDINGS:
        text += f"; and {len(items) - MAX_LISTED_FINDINGS} more"
    return text


def raise_if_secrets(fields: Mapping[str, str]) -> None:
    """Raise SecretInTeamMemoryError if any field looks like it holds a credential."""
    findings = scan_for_secrets(fields)
    if findings:
        raise SecretInTeamMemoryError(findings)


# ---------------------------------------------------------------------------------------------
# Scanning fields and files
# ---------------------------------------------------------------------------------------------


def _redacted_line(line: str, hits: list[Hit]) -> tuple[str, dict[int, int]]:
    """The line with every hit redacted, and where each hit (by index) starts in it."""
    out: list[str] = []
    where: dict[int, int] = {}
    pos = length = 0
    for i, hit in sorted(enumerate(hits), key=lambda x: x[1].start):
        if hit.start < pos:
            continue
        out.append(line[pos : hit.start])
        length += hit.start - pos
        where[i] = length
        piece = redact(line[hit.start : hit.end])
        out.append(piece)
        length += len(piece)
        pos = hit.end
    out.append(line[pos:])
    return "".join(out), where


def redact_secrets(text: str) -> str:
    """text with every suspected credential redacted (see `redact`), line by line.

    For text quoted in messages for other reasons (a lint rule quoting a body sentence), so a
    quote never shows a credential the secret rule would mask.
    """
    det = narrow_detectors(load_detectors(), text)
    if not det["anything"]:
        return text
    out = []
    for line in text.split("\n"):
        hits = line_hits(line, det)
        out.append(_redacted_line(line, hits)[0] if hits else line)
    return "\n".join(out)


def _excerpt(text: str, focus_at: int, width: int = 100) -> str:
    """The redacted line (already stripped), trimmed to about width characters around one hit.

    The caller strips the line once for all its hits: stripping it again per hit was quadratic
    (a 1 MB line of 50,000 `password: …` took seconds; attack round 14).
    """
    if len(text) > width:
        begin = max(0, min(focus_at - width // 3, len(text) - width))
        text = (
            ("…" if begin else "")
            + text[begin : begin + width]
            + ("…" if begin + width < len(text) else "")
        )
    return text


def _line_hits(text: str, det: dict[str, Any]) -> Iterator[tuple[int, str, list[Hit]]]:
    """(line number, line, hits) of every line of text with a hit.

    The guard reads as the consumer reads: format characters are dropped first (a key with a
    zero-width space inside is still the key), and lines end only at '\n' (a file's lines):
    VT, FF, NEL, U+2028 and U+2029 do not end a line for the reader, so they do not split
    `password:<U+2028>value` here either (str.splitlines would).
    """
    text = without_format_chars(text)  # before narrowing: a needle may hide a zero-width space
    det = narrow_detectors(det, text)
    if not det["anything"]:  # no detector can fire on any line: nothing to report
        return
    in_pem_block = in_public_block = False
    for line_no, line in enumerate(text.split("\n"), start=1):
        if in_pem_block:
            # The base64 body of a key block already reported: do not list each line.
            if PEM_END.search(line):
                in_pem_block = False
            continue
        if in_public_block:
            # A certificate or public key's base64 lines are public: no entropy check.
            in_public_block = not PUBLIC_BLOCK_END.search(line)
            hits = line_hits(line, det, entropy=False)
        elif "-----" in line and PUBLIC_BLOCK_BEGIN.search(line):
            in_public_block = not PUBLIC_BLOCK_END.search(line)
            hits = line_hits(line, det, entropy=False)
        else:
            hits = line_hits(line, det)
        if not hits:
            continue
        yield line_no, line, hits
        if any(h.kind == "private key block" for h in hits) and not PEM_END.search(line):
            in_pem_block = True


def _scan_lines(
    field: str, text: str, det: dict[str, Any], values: set[str]
) -> list[SecretFinding]:
    """The findings of one field, line by line; the text of every hit is added to values."""
    findings: list[SecretFinding] = []
    for line_no, line, hits in _line_hits(text, det):
        redacted, where = _redacted_line(line, hits)
        stripped = redacted.strip()
        for i, hit in enumerate(hits):
            findings.append(
                SecretFinding(hit.kind, field, line_no, _excerpt(stripped, where.get(i, 0)))
            )
            values.add(line[hit.start : hit.end])
    return findings


def scan_with_values(fields: Mapping[str, str]) -> tuple[list[SecretFinding], frozenset[str]]:
    """scan_for_secrets, and the text of every suspected credential it found.

    The values are for masking the same credentials wherever else the text is quoted
    (`mask_secret_values`); they are never shown.
    """
    det = load_detectors()
    findings: list[SecretFinding] = []
    values: set[str] = set()
    texts = [without_format_chars(str(text)) for text in fields.values() if text]
    if len(texts) > 1:
        # Every field's lines are lines of the fields joined, so detectors that cannot fire
        # on the joined text are left out once, and often nothing is left to run at all.
        det = narrow_detectors(det, "\n".join(texts))
        if not det["anything"]:
            return findings, frozenset()
    for field, text in fields.items():
        if text:
            findings += _scan_lines(field, str(text), det, values)
    return findings, frozenset(values)


def mask_secret_values(text: str, values: frozenset[str]) -> str:
    """text with every occurrence of the given credentials redacted (see `redact`).

    For text a message quotes for another reason (a lint rule quoting a description, a commit
    id, an index line) from a file whose credentials `scan_with_values` found: the quote never
    shows one. Format characters are dropped first, as the scan dropped them.
    """
    if not values:
        return text
    text = without_format_chars(text)
    for value in sorted(values, key=len, reverse=True):  # a longer value first: it may hold another
        if value in text:
            text = text.replace(value, redact(value))
    return text


def scan_for_secrets(fields: Mapping[str, str]) -> list[SecretFinding]:
    """Every suspected credential in the given fields (e.g. name, description, body), in order."""
    return scan_with_values(fields)[0]


def scan_memory_file(
    filename: str, text: str, index_line: str | None = None
) -> list[SecretFinding]:
    """Every suspected credential in what one memory puts in a memory dir.

    That is its filename, the whole file text (every frontmatter key, YAML comments, the
    body; lines are the file's lines) and its index line, and every frontmatter value as
    YAML decodes it, with its key (see `decoded_header_fields`).
    """
    # Findings name the file itself ("… in team/x.md line 5"), and its name as "file name".
    fields = {"file name": filename, filename: text}
    if index_line:
        fields["index line"] = index_line
    fields.update(decoded_header_fields(parse_frontmatter(text)[0].fields, text))
    return scan_for_secrets(fields)


def decoded_header_fields(header: Mapping[str, object], text: str = "") -> dict[str, str]:
    """Every frontmatter string value as YAML decodes it, with its key: `{"frontmatter a.b": "b: value"}`.

    A folded (`>`) or literal (`|`) scalar puts the value on the lines below its key, and a
    quoted scalar may hold escapes or line continuations, so the file's own lines can show a
    key and its value apart, or a value that is not the text written. Scanning `key: value`
    as decoded finds `password: >` + an indented secret. A pair already written that way on
    one line of `text` is left to the scan of the file itself.
    """
    out: dict[str, str] = {}
    stack: list[tuple[str, str, object]] = [(str(k), str(k), v) for k, v in header.items()]
    while stack and len(out) < MAX_DECODED_HEADER_VALUES:
        path, key, value = stack.pop()
        if isinstance(value, dict):
            stack += [(f"{path}.{k}", str(k), v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(f"{path}[{i}]", key, v) for i, v in enumerate(value)]
        elif isinstance(value, str) and value.strip():
            pair = f"{key}: {value.lstrip()}"
            if pair not in text:
                out[f"{DECODED_FIELD_PREFIX}{path}"] = pair
    return out
