"""The secret guard: find credentials in a memory's name, description and body.

Team memories are read by everyone's agent, so a team save or promote whose text looks like
a credential is refused (`SecretInTeamMemoryError`); a private save of the same text is
allowed by the store with a warning. Detection is built on the maintained `detect-secrets`
package: its provider detectors (AWS, GitHub, GitLab, Slack, Stripe, OpenAI, JWT, private
keys, keyword assignments, ...) and its entropy measure and false-positive filters, used
in-process through their pattern objects so no process-wide detect-secrets settings are
touched and no network verification can run. A few supplementary patterns cover what it has
no plugin for (Anthropic keys, newer OpenAI key forms, opaque bearer tokens). See
docs/security.md for the tuning and its reasons.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "BASE64_ENTROPY_LIMIT",
    "ENTROPY_RATIO",
    "HEX_ENTROPY_LIMIT",
    "MIN_ENTROPY_TOKEN_LENGTH",
    "SecretFinding",
    "SecretInTeamMemoryError",
    "base64_entropy_limit",
    "format_findings",
    "raise_if_secrets",
    "redact",
    "scan_for_secrets",
]

# detect-secrets' own defaults are the ceilings. Shannon entropy of a short string cannot
# exceed log2(length), so a flat 4.5 misses most random tokens under ~36 chars; the base64
# limit is therefore min(4.5, ENTROPY_RATIO * log2(length)). See docs/security.md.
BASE64_ENTROPY_LIMIT = 4.5
ENTROPY_RATIO = 0.85
HEX_ENTROPY_LIMIT = 3.0
MIN_ENTROPY_TOKEN_LENGTH = 20
MIN_KEYWORD_VALUE_LENGTH = 6
MIN_LETTER_DIGIT_SWITCHES = 3
MAX_LISTED_FINDINGS = 5

# detect-secrets plugin class name -> the kind we report. Left out on purpose: Artifactory
# (its 'AP[0-9A-F]...' form matches ordinary capitalised words), IBM/SoftLayer/Cloudant
# (keyword-style, duplicated by the keyword detector), public IPs (not a credential).
_PROVIDER_KINDS: dict[str, str] = {
    "AWSKeyDetector": "AWS access key",
    "GitHubTokenDetector": "GitHub token",
    "GitLabTokenDetector": "GitLab token",
    "SlackDetector": "Slack token",
    "StripeDetector": "Stripe API key",
    "OpenAIDetector": "OpenAI API key",
    "SendGridDetector": "SendGrid API key",
    "TwilioKeyDetector": "Twilio API key",
    "PypiTokenDetector": "PyPI token",
    "NpmDetector": "npm token",
    "DiscordBotTokenDetector": "Discord bot token",
    "TelegramBotTokenDetector": "Telegram bot token",
    "MailchimpDetector": "Mailchimp API key",
    "AzureStorageKeyDetector": "Azure storage key",
    "BasicAuthDetector": "password in URL",
    "PrivateKeyDetector": "private key block",
    "JwtTokenDetector": "JWT",
}

# Supplementary patterns for credentials detect-secrets 1.5 has no plugin for.
_SUPPLEMENTARY: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Anthropic API key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{20,}")),
    # Legacy (sk-<48>) and project/service-account keys without the T3BlbkFJ marker.
    ("OpenAI API key", re.compile(r"\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{32,}")),
    ("bearer token", re.compile(r"\bBearer\s+([A-Za-z0-9\-._~+/]{16,}=*)")),
)

_PASSWORD_WORDS = re.compile(r"pass|pwd|contrase", re.IGNORECASE)
_HEX_CREDENTIAL_CONTEXT = re.compile(
    r"(?:token|secret|key|passw(?:or)?d|pwd|credential|auth)\w*['\"\]]*\s*[:=]{1,2}\s*['\"]?$",
    re.IGNORECASE,
)
_ENTROPY_CANDIDATE = re.compile(rf"[A-Za-z0-9+/=_\-]{{{MIN_ENTROPY_TOKEN_LENGTH},}}")
# The scheme is bounded and must start a word: an unbounded `[a-z][...]*://` restarts at every
# letter of a long word and rescans to its end, which is quadratic in the line length.
_URL = re.compile(r"(?<![a-z0-9+.\-])[a-z][a-z0-9+.\-]{0,31}://[^\s'\"<>`]+", re.IGNORECASE)
_URL_SEPARATORS = re.compile(r"[/?&=.:#]")
_HEX_ONLY = re.compile(r"^[0-9a-fA-F]+$")
_DATE_OR_NUMBER = re.compile(r"^[0-9\-:./,+TZ]+$")
_JWT_TAIL = re.compile(r"[A-Za-z0-9\-_.+/=]*")
_PEM_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY-----|---- END SSH2", re.IGNORECASE)


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
# Detection
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Hit:
    kind: str
    start: int
    end: int
    priority: int  # 2 provider/format match, 1 keyword or bearer context, 0 entropy only


def _load_detectors() -> dict[str, Any]:
    """Import detect-secrets lazily and build the detector objects one scan needs."""
    from detect_secrets.filters import heuristic
    from detect_secrets.plugins import (
        aws,
        azure_storage_key,
        basic_auth,
        discord,
        github_token,
        gitlab_token,
        jwt,
        keyword,
        mailchimp,
        npm,
        openai,
        private_key,
        pypi_token,
        sendgrid,
        slack,
        stripe,
        telegram_token,
        twilio,
    )
    from detect_secrets.plugins.high_entropy_strings import (
        Base64HighEntropyString,
        HexHighEntropyString,
    )

    classes = [
        aws.AWSKeyDetector,
        github_token.GitHubTokenDetector,
        gitlab_token.GitLabTokenDetector,
        slack.SlackDetector,
        stripe.StripeDetector,
        openai.OpenAIDetector,
        sendgrid.SendGridDetector,
        twilio.TwilioKeyDetector,
        pypi_token.PypiTokenDetector,
        npm.NpmDetector,
        discord.DiscordBotTokenDetector,
        telegram_token.TelegramBotTokenDetector,
        mailchimp.MailchimpDetector,
        azure_storage_key.AzureStorageKeyDetector,
        basic_auth.BasicAuthDetector,
        private_key.PrivateKeyDetector,
        jwt.JwtTokenDetector,
    ]
    return {
        "providers": [(_PROVIDER_KINDS[c.__name__], c) for c in classes],
        "jwt_valid": jwt.JwtTokenDetector.is_formally_valid,
        "keyword_regexes": keyword.CONFIG_DENYLIST_REGEX_TO_GROUP,
        "b64": Base64HighEntropyString(limit=BASE64_ENTROPY_LIMIT),
        "hex": HexHighEntropyString(limit=HEX_ENTROPY_LIMIT),
        "heuristic": heuristic,
    }


def _provider_hits(line: str, det: dict[str, Any]) -> list[_Hit]:
    hits: list[_Hit] = []
    for kind, cls in det["providers"]:
        for regex in cls.denylist:
            for m in regex.finditer(line):
                if kind == "JWT" and not det["jwt_valid"](m.group(0)):
                    continue
                start, end = m.span()
                if kind == "JWT":
                    # The plugin's pattern stops lazily before the signature; cover all of it.
                    tail = _JWT_TAIL.match(line, end)  # the pattern matches the empty string too
                    end = tail.end() if tail else end
                if m.lastindex and kind not in ("private key block",):
                    # Where the pattern captures the secret itself (e.g. AWS secret keys,
                    # passwords in URLs), point at that; keep the whole match otherwise.
                    g = max(range(1, m.lastindex + 1), key=lambda i: len(m.group(i) or ""))
                    if m.group(g) and len(m.group(g)) >= 8:
                        start, end = m.span(g)
                hits.append(_Hit(kind, start, end, 2))
    for kind, regex in _SUPPLEMENTARY:
        for m in regex.finditer(line):
            start, end = m.span(1) if m.lastindex else m.span()
            value = line[start:end]
            if kind != "bearer token" or _looks_random(value):
                if kind == "OpenAI API key" and not re.search(r"\d", value):
                    continue
                hits.append(_Hit(kind, start, end, 1 if kind == "bearer token" else 2))
    return hits


def _keyword_hits(line: str, det: dict[str, Any]) -> list[_Hit]:
    """`password: hunter2`-style assignments, via detect-secrets' keyword patterns."""
    hits: list[_Hit] = []
    for regex, group in det["keyword_regexes"].items():
        for m in regex.finditer(line):
            raw_value = m.group(group) or ""
            value = raw_value.strip().split()[0] if raw_value.strip() else ""
            value = value.strip("'\"`,;)")
            quoted = raw_value[:1] in "'\"`" or line[
                max(0, m.start(group) - 1) : m.start(group)
            ] in ("'", '"')
            if not _plausible_keyword_value(value, quoted, det):
                continue
            start = line.find(value, m.start(group))
            keyword_text = m.group(0)[: m.start(group) - m.start()]
            kind = (
                "password assignment"
                if _PASSWORD_WORDS.search(keyword_text)
                else "secret assignment"
            )
            hits.append(_Hit(kind, start, start + len(value), 1))
    return hits


def _plausible_keyword_value(value: str, quoted: bool, det: dict[str, Any]) -> bool:
    """Filter out prose ('Password: see the vault'), numbers, dates and placeholders."""
    h = det["heuristic"]
    if len(value) < MIN_KEYWORD_VALUE_LENGTH or _DATE_OR_NUMBER.match(value):
        return False
    if h.is_templated_secret(value) or h.is_prefixed_with_dollar_sign(value):
        return False
    if value.startswith(("<", "{", "[", "*", "(")) or set(value) <= set("*x.X-_"):
        return False
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() for c in value)
    mixed_case = value != value.lower() and value != value.upper()
    return quoted or has_digit or has_symbol or mixed_case


def _looks_random(token: str) -> bool:
    """True if letters and digits alternate often, as in generated tokens and unlike identifiers.

    Identifiers, slugs and versions ('RetryPolicyV2Factory', 'keys-v3', 'utf8mb4') switch
    between letters and digits once or twice; a random 20+ char alphanumeric token does so
    about five times on average.
    """
    transitions = sum(
        1
        for a, b in itertools.pairwise(token)
        if (a.isdigit() and b.isalpha()) or (a.isalpha() and b.isdigit())
    )
    return transitions >= MIN_LETTER_DIGIT_SWITCHES


def _entropy_hits(line: str, det: dict[str, Any]) -> list[_Hit]:
    """Long random-looking tokens, scored with detect-secrets' entropy and filters."""
    h = det["heuristic"]
    hits: list[_Hit] = []
    # Inside URLs, '/', '?', '&', '=', '.', ':' separate parts: a dashboard id in a path is
    # short and public, while a long token passed as a query value is still caught.
    masked = (
        _URL.sub(lambda u: _URL_SEPARATORS.sub(" ", u.group(0)), line) if "://" in line else line
    )
    for m in _ENTROPY_CANDIDATE.finditer(masked):
        token = m.group(0).strip("=-_/+") or m.group(0)
        if h.is_sequential_string(token) or h.is_potential_uuid(token):
            continue
        if _HEX_ONLY.match(token):
            # Hex strings (git SHAs, digests) are common in prose; only a hex value assigned
            # to a credential-sounding name counts.
            if (
                len(token) >= 32
                and det["hex"].calculate_shannon_entropy(token) > HEX_ENTROPY_LIMIT
                and _HEX_CREDENTIAL_CONTEXT.search(line[: m.start()])
            ):
                hits.append(_Hit("high-entropy hex token", m.start(), m.end(), 0))
            continue
        if not _looks_random(token):
            continue
        if det["b64"].calculate_shannon_entropy(token) > base64_entropy_limit(len(token)):
            hits.append(_Hit("high-entropy token", m.start(), m.end(), 0))
    return hits


def base64_entropy_limit(length: int) -> float:
    """The entropy a token of this length must exceed to count as random."""
    return min(BASE64_ENTROPY_LIMIT, ENTROPY_RATIO * math.log2(max(length, 2)))


def _dedupe(hits: list[_Hit]) -> list[_Hit]:
    """One finding per stretch of text: the most specific kind wins, then the longest match."""
    kept: list[_Hit] = []
    for hit in sorted(hits, key=lambda x: (-x.priority, -(x.end - x.start), x.start)):
        if not any(hit.start < k.end and k.start < hit.end for k in kept):
            kept.append(hit)
    return sorted(kept, key=lambda x: x.start)


def _excerpt(line: str, hits: list[_Hit], focus: _Hit, width: int = 100) -> str:
    """The line with every suspected secret on it redacted, trimmed around the focus hit."""
    out, pos, focus_at = [], 0, 0
    for hit in sorted(hits, key=lambda x: x.start):
        if hit.start < pos:
            continue
        out.append(line[pos : hit.start])
        if hit is focus:
            focus_at = sum(len(s) for s in out)
        out.append(redact(line[hit.start : hit.end]))
        pos = hit.end
    out.append(line[pos:])
    text = "".join(out).strip()
    if len(text) > width:
        begin = max(0, min(focus_at - width // 3, len(text) - width))
        text = (
            ("…" if begin else "")
            + text[begin : begin + width]
            + ("…" if begin + width < len(text) else "")
        )
    return text


def scan_for_secrets(fields: Mapping[str, str]) -> list[SecretFinding]:
    """Every suspected credential in the given fields (e.g. name, description, body), in order."""
    det = _load_detectors()
    findings: list[SecretFinding] = []
    for field, text in fields.items():
        if not text:
            continue
        in_pem_block = False
        for line_no, line in enumerate(str(text).splitlines(), start=1):
            if in_pem_block:
                # The base64 body of a key block already reported: do not list each line.
                if _PEM_END.search(line):
                    in_pem_block = False
                continue
            hits = _provider_hits(line, det) + _keyword_hits(line, det) + _entropy_hits(line, det)
            if not hits:
                continue
            hits = _dedupe(hits)
            for hit in hits:
                findings.append(SecretFinding(hit.kind, field, line_no, _excerpt(line, hits, hit)))
            if any(h.kind == "private key block" for h in hits) and not _PEM_END.search(line):
                in_pem_block = True
    return findings
