"""The keyword detector's values: credential-named assignments and passwords in prose.

`secret_shapes.KEYWORD_PATTERNS` find a credential word and what follows it (`password: …`,
`api_key = "…"`, `"…" == secret`, "the admin pw is …"); this module decides whether what follows is a
value someone wrote down, or prose, a placeholder, a date, a number or code that reads the
secret at run time. `secret_detect` runs it on each line that holds a keyword needle.
"""

from __future__ import annotations

import re
from typing import Any

from memdir_nb.security.secret_shapes import (
    CJK_PASSWORD_WORDS,
    KEYWORD_PATTERNS,
    PROSE_KEYWORD_PATTERN,
    is_placeholder_password,
)

MIN_KEYWORD_VALUE_LENGTH = 6
# A value cut off with "..." or "…" whose kept start is shorter than this is a template's
# example (VOYAGE_API_KEY=pa-...): it names the key's form, and grants nothing.
_ELIDED_STEM_MAX = 12
# An unquoted value that is a name (dotted) followed by an index, or by a call with no string
# in its parentheses: a lookup or a call that produces the secret at run time, not the secret.
# (A call given a string, `hash("hunter2!")`, may be passing the secret itself: still checked.)
_LOOKUP_OR_CALL = re.compile(r"[A-Za-z_][\w.]*\s*(?:\[|\((?![^)]*['\"`]))")
_PASSWORD_WORDS = re.compile(
    "|".join(("pass", "pw", "contrase", *CJK_PASSWORD_WORDS)), re.IGNORECASE
)
# A bare word after a password word is a value only with a digit or one of these (a hyphen,
# an underscore or a dot also join the words of identifiers and prose)
_PASSWORD_SYMBOLS = frozenset("!@#$%^&*+=?~")
_DATE_OR_NUMBER = re.compile(r"^[0-9\-:./,+TZ]+$")
# Three or more letters-only words joined by hyphens or underscores name a credential (a secret
# manager's entry, `Google-Cloud-vault-sync-service`): no issued key or token is made of words.
# After a password word they may be the value itself (a passphrase), so they stay checked there.
_WORDS_NAME = re.compile(r"[A-Za-z]+(?:[-_][A-Za-z]+){2,}")
# An unquoted value that is itself a setting, a word set to a word (`Destructive=true`,
# `mode=readonly`): the label before it names a tool, a field or an option whose settings the
# line lists ("- set_guest_password: Destructive=true, Idempotent=false"), not a secret written
# down. No digit and no symbol but the one '=', so no issued key or password has this shape.
_SETTING = re.compile(r"[A-Za-z][A-Za-z_]*=[A-Za-z]+")
# An unquoted value that is a word an arrow leads from to another word (`AxButton→Button`,
# `FlexGrid -> DataGridView`): the label names a form, a screen or a field whose parts the
# line says were replaced ("- FrmPassWord: AxCWButton→Button", real41: a VB.NET port's notes),
# not a secret written down. Letters only before the arrow, so no issued key has this shape.
_RENAMED = re.compile(r"[A-Za-z][A-Za-z_.]*\s*(?:\u2192|->|=>|\u21d2)\s*[A-Za-z]")
# An unquoted value that is a length and its unit (`16-char`, `12-character`, `6-digit`): the
# label is followed by what the secret is like ("- Password: 16-char App Password generated
# under the sender's account", real42: an ERP's mail settings), not by the secret itself.
_LENGTH_OF = re.compile(r"\d{1,3}-?(?:chars?|characters?|digits?|letters?|words?|bytes?)", re.I)
# A value that is a key's issued prefix and then a run of x's or stars (`whsec_xxxxx`,
# `sk_test_XXXXXXXX`, `SG.xxxxx`, `re_********`): how an `.env` example shows which key goes
# there, not a key (real44: "RAZORPAY_WEBHOOK_SECRET=whsec_xxxxx" in a deploy checklist). No
# issued key has only one mark after its prefix.
_MASKED_AFTER_PREFIX = re.compile(r"(?:[A-Za-z0-9]{1,12}[_.-]){1,3}(?:[xX]{3,}|\*{3,})")

Span = tuple[str, int, int]  # (kind, start, end) on the line


def keyword_spans(line: str, heuristic: Any) -> list[Span]:
    """Every credential-named assignment on the line whose value looks written down.

    heuristic: detect-secrets' filters module (templated values, `$NAME` values).
    """
    spans: list[Span] = []
    for regex in KEYWORD_PATTERNS:
        for m in regex.finditer(line):
            if regex is PROSE_KEYWORD_PATTERN:
                span = _prose_password_span(line, m, heuristic)
                if span is not None:
                    spans.append(span)
                continue
            # a value ends where a Markdown link's target starts ("[Agent PWD = worktree](x.md)")
            raw_value = m.group("value").split("](", 1)[0]
            value = raw_value.split()[0].strip("'\"`,;)") if raw_value.strip() else ""
            quoted = bool(m.group("q")) or line[max(0, m.start("value") - 1)] in "'\""
            if not plausible_keyword_value(value, quoted, heuristic):
                continue
            if not quoted and _RENAMED.match(line, m.start("value") + raw_value.find(value)):
                continue  # a part replaced by another ("FrmPassWord: AxButton→Button")
            password = _PASSWORD_WORDS.search(m.group("kw")) is not None
            if not password and _WORDS_NAME.fullmatch(value):
                continue
            start = m.start("value") + raw_value.find(value)
            kind = "password assignment" if password else "secret assignment"
            spans.append((kind, start, start + len(value)))
    return spans


def _prose_password_span(line: str, m: re.Match[str], heuristic: Any) -> Span | None:
    """A password word followed by its value in prose ("admin pw `Hv4!pQz8Lr`"), or None."""
    at = m.start()
    if not _PASSWORD_WORDS.search(m.group("kw")) or (at and line[at - 1].isalpha()):
        return None  # another credential word, or the end of a longer word
    quoted = m.group("q") == "`"  # in "" or '' or bold, a value still needs a digit or a symbol
    raw = m.group("value")
    value = raw.split("`")[0] if quoted else raw.rstrip(".,;:)]}*")
    pin = quoted and value.isdigit() and len(value) >= MIN_KEYWORD_VALUE_LENGTH  # pw `200152`
    if "://" in value or not (pin or plausible_keyword_value(value, quoted, heuristic)):
        return None
    if not quoted and not any(c.isdigit() or c in _PASSWORD_SYMBOLS for c in value):
        return None  # words ("password Manager", "password is env-format"), not a value
    start = m.start("value")
    return ("password assignment", start, start + len(value))


def plausible_keyword_value(value: str, quoted: bool, heuristic: Any) -> bool:
    """Filter out prose ('Password: see the vault'), numbers, dates and placeholders."""
    if len(value) < MIN_KEYWORD_VALUE_LENGTH or _DATE_OR_NUMBER.match(value):
        return False
    if heuristic.is_templated_secret(value) or heuristic.is_prefixed_with_dollar_sign(value):
        return False
    if value.startswith(("<", "{", "[", "*", "(")) or set(value) <= set("*x.X-_"):
        return False
    stem = value.rstrip(".\u2026")
    if stem != value and len(stem) < _ELIDED_STEM_MAX:
        return False  # an elided example ("pa-...", "sk-live-…"): a prefix, not a key
    if not quoted and _SETTING.fullmatch(value):
        return False  # a setting listed after a tool's or a field's name, not its value
    if not quoted and _LENGTH_OF.fullmatch(value):
        return False  # what the secret is like ("16-char App Password"), not the secret
    if _MASKED_AFTER_PREFIX.fullmatch(value):
        return False  # a prefix and marks: which kind of key goes there, not the key
    if is_placeholder_password(value) or (not quoted and _LOOKUP_OR_CALL.match(value)):
        # a word that stands for the secret ("ClientSecret = \"secret\""), or code that reads it
        # at run time (`apiKey = configuration["OpenAIKey"]`, `token = os.environ["T"]`,
        # `key = getpass()`): the value is not written here
        return False
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() for c in value)
    mixed_case = value != value.lower() and value != value.upper()
    return quoted or has_digit or has_symbol or mixed_case
