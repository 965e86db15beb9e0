"""The detection engine behind the secret guard: one line in, suspected credentials out.

detect-secrets' provider detectors, entropy measure and filters, used in-process through
their pattern objects (no process-wide settings, no network verification), plus the shapes
in `secret_shapes` (keyword assignments after detect-secrets' keyword list, passwords in
URLs, public identifiers, providers detect-secrets lacks). Every step is linear in the line's length: detect-secrets'
patterns see long lines in overlapping windows, and a cheap literal check skips a detector on
lines it cannot match. `secret_scan` is the public face; see docs/security.md.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from memdir_nb.security.secret_keywords import keyword_spans
from memdir_nb.security.secret_shapes import DETECTOR_NEEDLES as _NEEDLES
from memdir_nb.security.secret_shapes import SUPPLEMENTARY_PATTERNS as _SUPPLEMENTARY
from memdir_nb.security.secret_shapes import (
    URL_PATTERN,
    basic_auth_spans,
    blank_spans,
    keyword_patterns_found,
    public_spans,
    url_password_spans,
)

# detect-secrets' own defaults are the ceilings. Shannon entropy of a short string cannot
# exceed log2(length), so a flat 4.5 misses most random tokens under ~36 chars; the base64
# limit is therefore min(4.5, ENTROPY_RATIO * log2(length)). See docs/security.md.
BASE64_ENTROPY_LIMIT = 4.5
ENTROPY_RATIO = 0.85
HEX_ENTROPY_LIMIT = 3.0
MIN_ENTROPY_TOKEN_LENGTH = 20
MIN_LETTER_DIGIT_SWITCHES = 3
# detect-secrets' patterns are not all linear in the line length (some rescan the rest of
# the line from every keyword), so a longer line is given to them in overlapping windows;
# the detectors written here run over the whole line.
PATTERN_WINDOW = 2000
PATTERN_WINDOW_OVERLAP = 400

# detect-secrets plugin class name -> the kind we report. Left out on purpose: Artifactory
# (its 'AP[0-9A-F]...' form matches ordinary capitalised words), IBM/SoftLayer/Cloudant
# (keyword-style, duplicated by the keyword detector), public IPs (not a credential), and
# OpenAI (its pattern backtracks on long 'sk-' runs; the supplementary 'sk-' pattern covers
# its keys), npm (same, and rewritten in secret_shapes), and
# basic-auth URLs (its pattern misses passwords holding '@', ':', '/' and empty user names;
# secret_shapes.url_password_spans replaces it).
_PROVIDER_KINDS: dict[str, str] = {
    "AWSKeyDetector": "AWS access key",
    "GitHubTokenDetector": "GitHub token",
    "GitLabTokenDetector": "GitLab token",
    "SlackDetector": "Slack token",
    "StripeDetector": "Stripe API key",
    "SendGridDetector": "SendGrid API key",
    "TwilioKeyDetector": "Twilio API key",
    "PypiTokenDetector": "PyPI token",
    "DiscordBotTokenDetector": "Discord bot token",
    "TelegramBotTokenDetector": "Telegram bot token",
    "MailchimpDetector": "Mailchimp API key",
    "AzureStorageKeyDetector": "Azure storage key",
    "PrivateKeyDetector": "private key block",
    "JwtTokenDetector": "JWT",
}

_HEX_CREDENTIAL_CONTEXT = re.compile(
    r"(?:token|secret|key|passw(?:or)?d|pwd|credential|auth)\w*['\"\]]*\s*[:=]{1,2}\s*['\"]?$",
    re.IGNORECASE,
)
_ENTROPY_CANDIDATE = re.compile(rf"[A-Za-z0-9+/=_\-]{{{MIN_ENTROPY_TOKEN_LENGTH},}}")
_TOKEN_PARTS = re.compile(r"[+/=_\-]+")  # what joins the parts of a candidate token
_URL_SEPARATORS = re.compile(r"[/?&=.:#]")
# A web address written without its scheme, a host (a dotted name ending in a lower-case
# top-level domain) and a path: `adilet.zan.kz/rus/docs/V23R0001751` (real41: a law's page in a
# design memory) is split on the same separators as a URL with one.
_BARE_URL = re.compile(
    r"(?<![\w@.\-/])(?:[A-Za-z0-9][A-Za-z0-9\-]{0,62}\.)+[a-z]{2,24}/[^\s'\"<>`]+"
)
_HEX_ONLY = re.compile(r"^[0-9a-fA-F]+$")
_JWT_TAIL = re.compile(r"[A-Za-z0-9\-_.+/=]*")
PEM_END = re.compile(r"-----END [A-Z0-9 ]*PRIVATE KEY-----|---- END SSH2", re.IGNORECASE)


@dataclass(frozen=True)
class Hit:
    kind: str
    start: int
    end: int
    priority: int  # 2 provider/format match, 1 keyword or bearer context, 0 entropy only


@functools.lru_cache(maxsize=1)
def load_detectors() -> dict[str, Any]:
    """Import detect-secrets on first use and build the (immutable) detector objects once."""
    from detect_secrets.filters import heuristic
    from detect_secrets.plugins import (
        aws,
        azure_storage_key,
        discord,
        github_token,
        gitlab_token,
        jwt,
        mailchimp,
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
        sendgrid.SendGridDetector,
        twilio.TwilioKeyDetector,
        pypi_token.PypiTokenDetector,
        discord.DiscordBotTokenDetector,
        telegram_token.TelegramBotTokenDetector,
        mailchimp.MailchimpDetector,
        azure_storage_key.AzureStorageKeyDetector,
        private_key.PrivateKeyDetector,
        jwt.JwtTokenDetector,
    ]
    return {
        "providers": tuple(
            (
                _PROVIDER_KINDS[c.__name__],
                tuple(c.denylist),  # type: ignore[arg-type]  # a class attribute here
                _NEEDLES.get(_PROVIDER_KINDS[c.__name__]),
            )
            for c in classes
        ),
        "jwt_valid": jwt.JwtTokenDetector.is_formally_valid,
        "b64": Base64HighEntropyString(limit=BASE64_ENTROPY_LIMIT),
        "hex": HexHighEntropyString(limit=HEX_ENTROPY_LIMIT),
        "heuristic": heuristic,
    }


# Literal text (lower-cased) that every match of each SUPPLEMENTARY_PATTERNS entry contains,
# in the same order, so a text holding none of them skips that pattern on every line.
_SUPPLEMENTARY_NEEDLES: tuple[tuple[str, ...], ...] = (
    ("sk-ant-",),
    ("sk-",),
    ("bearer",),
    ("_v1_",),
    ("hf_",),
    ("aiza",),
    ("gocspx-",),
    ("shp",),
    ("hvs.", "hvb.", "hvr."),
    ("lin_api_",),
    ("github_pat_",),
    ("npm_", ":_authtoken="),
    ("whsec_",),
    ("qyapi.weixin.qq.com",),
    ("/open-apis/bot/v2/hook/",),
)


# A byte per ASCII character: "x" for a character of _ENTROPY_CANDIDATE's class, " " for any
# other. Text encoded as ASCII with "replace" (every other character becomes one "?", which is
# not in the class) and translated with it holds "x" * MIN_ENTROPY_TOKEN_LENGTH exactly when
# _ENTROPY_CANDIDATE matches the text: one C pass instead of a regex tried at every position.
_TOKEN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-"
_TOKEN_MARKS = bytes(ord("x") if chr(b) in _TOKEN_CHARS else ord(" ") for b in range(256))
_TOKEN_RUN = b"x" * MIN_ENTROPY_TOKEN_LENGTH
# The same for Telegram's '\d{8,10}:' on ASCII text: digits become "d", ':' stays.
_DIGIT_MARKS = bytes(
    ord("d") if chr(b) in "0123456789" else ord(":") if chr(b) == ":" else ord(" ")
    for b in range(256)
)
_TELEGRAM_LEAD = b"d" * 8 + b":"
# Detectors every match of which (on ASCII text) holds MIN_ENTROPY_TOKEN_LENGTH or more
# characters of _TOKEN_CHARS in a row (their patterns need a key body of 16 to 88 such
# characters after a prefix of the same class). ASCII text without such a run skips them,
# before any needle check. Left out: Slack ('xoxb-1-a'), private key blocks, JWTs
# ('eyJa.b'), bearer tokens ('.' and '~' cut the run), keyword assignments. Checked against
# generated matches of each pattern in tests/security/test_secret_scan.py.
RUN_KINDS = frozenset(
    {
        "AWS access key",
        "GitHub token",
        "GitLab token",
        "Stripe API key",
        "SendGrid API key",
        "Twilio API key",
        "PyPI token",
        "Discord bot token",
        "Telegram bot token",
        "Mailchimp API key",
        "Azure storage key",
        "Anthropic API key",
        "OpenAI API key",
        "DigitalOcean token",
        "Hugging Face token",
        "Google API key",
        "Google OAuth client secret",
        "Shopify token",
        "Vault token",
        "Linear API key",
        "npm token",
        "Stripe webhook secret",
    }
)


# (kind, pattern, needles) of each supplementary detector; and of those a text without a
# run of token characters can still match.
_SUPPLEMENTARY_ALL = tuple(
    (kind, regex, needles)
    for (kind, regex), needles in zip(_SUPPLEMENTARY, _SUPPLEMENTARY_NEEDLES, strict=True)
)
_SUPPLEMENTARY_RUNLESS = tuple(s for s in _SUPPLEMENTARY_ALL if s[0] not in RUN_KINDS)


def has_token_run(text: str) -> bool:
    """Whether _ENTROPY_CANDIDATE matches text (a run of 20+ token characters), in one C pass."""
    return _TOKEN_RUN in text.encode("ascii", "replace").translate(_TOKEN_MARKS)


def _telegram_may_match(text: str, ascii_text: bool) -> bool:
    """False when ASCII text has no 8 digits followed by ':' (every Telegram token has them)."""
    return not ascii_text or _TELEGRAM_LEAD in text.encode("ascii").translate(_DIGIT_MARKS)


def narrow_detectors(det: dict[str, Any], text: str) -> dict[str, Any]:
    """det without the detectors that cannot match on any line of text.

    A detector is left out when the text is ASCII and holds no run of token characters
    that every match of it holds (RUN_KINDS), when the text holds none of its literal
    needles, or when its pattern finds nothing in the whole text: a match on one line is
    also a match in the whole text, since no pattern needs a line's start or end and a line
    break meets every boundary check as a line's end does. Provider patterns see lines
    longer than PATTERN_WINDOW in windows (whose cut edges can satisfy a boundary check the
    whole text does not), so with such a line only the needles and the run decide. The
    result finds exactly what det finds on the lines of text, usually with few detectors
    left (often none). The cheap checks come first: most texts are decided by one
    translation of the text and a few literal searches, with no regex run at all.
    """
    low = text.lower()
    ascii_text = text.isascii()
    token_run = has_token_run(text)
    runless = ascii_text and not token_run  # no RUN_KINDS detector can match
    whole = len(text) <= PATTERN_WINDOW or max(map(len, text.split("\n"))) <= PATTERN_WINDOW
    providers = []
    for kind, regexes, needles in det["providers"]:
        if runless and kind in RUN_KINDS:
            continue
        if needles is not None and not _may_match(low, needles):
            continue
        if kind == "Telegram bot token" and not _telegram_may_match(text, ascii_text):
            continue
        kept = tuple(r for r in regexes if not whole or r.search(text) is not None)
        if kept:
            providers.append((kind, kept, needles))
    supplementary = tuple(
        (kind, regex)
        for kind, regex, needles in (_SUPPLEMENTARY_RUNLESS if runless else _SUPPLEMENTARY_ALL)
        if _may_match(low, needles) and regex.search(text) is not None
    )
    keywords = _may_match(low, _NEEDLES["keyword"]) and any(keyword_patterns_found(text))
    return {
        **det,
        "providers": tuple(providers),
        "supplementary": supplementary,
        "keywords": keywords,
        "entropy": token_run,
        "anything": bool(providers or supplementary or keywords)
        or token_run
        or "://" in text
        or "basic" in low,
    }


def _windows(line: str) -> Iterator[tuple[int, str]]:
    """(offset, piece) covering the line: the line itself, or overlapping windows of a long one."""
    if len(line) <= PATTERN_WINDOW:
        yield 0, line
        return
    step = PATTERN_WINDOW - PATTERN_WINDOW_OVERLAP
    for at in range(0, len(line) - PATTERN_WINDOW_OVERLAP, step):
        yield at, line[at : at + PATTERN_WINDOW]


def _may_match(low: str, needles: tuple[str, ...] | None) -> bool:
    if needles is None:
        return True
    for n in needles:  # a loop, not any(): this runs for every detector on every line  # noqa: SIM110
        if n in low:
            return True
    return False


def _provider_hits(line: str, low: str, det: dict[str, Any]) -> list[Hit]:
    hits: list[Hit] = []
    for kind, regexes, needles in det["providers"]:
        if not _may_match(low, needles):
            continue
        for at, piece in _windows(line):
            for regex in regexes:
                for m in regex.finditer(piece):
                    hit = _provider_hit(line, kind, m, at, det)
                    if hit is not None:
                        hits.append(hit)
    for kind, regex in det.get("supplementary", _SUPPLEMENTARY):
        for m in regex.finditer(line):
            start, end = m.span(1) if m.lastindex else m.span()
            value = line[start:end]
            if kind != "bearer token" or _looks_random(value):
                if kind == "OpenAI API key" and not re.search(r"\d", value):
                    continue
                hits.append(Hit(kind, start, end, 1 if kind == "bearer token" else 2))
    hits += [Hit("password in URL", a, b, 2) for a, b in url_password_spans(line)]
    if "basic" in low:
        hits += [Hit("Basic auth credentials", a, b, 2) for a, b in basic_auth_spans(line)]
    return hits


def _provider_hit(
    line: str, kind: str, m: re.Match[str], at: int, det: dict[str, Any]
) -> Hit | None:
    """One detect-secrets match (in a window starting at `at`) as a hit on the whole line."""
    if kind == "JWT" and not det["jwt_valid"](m.group(0)):
        return None
    start, end = at + m.start(), at + m.end()
    if kind == "JWT":
        # The plugin's pattern stops lazily before the signature; cover all of it.
        tail = _JWT_TAIL.match(line, end)  # the pattern matches the empty string too
        end = tail.end() if tail else end
    if m.lastindex and kind != "private key block":
        # Where the pattern captures the secret itself (e.g. AWS secret keys), point at that;
        # keep the whole match otherwise.
        g = max(range(1, m.lastindex + 1), key=lambda i: len(m.group(i) or ""))
        if m.group(g) and len(m.group(g)) >= 8:
            start, end = at + m.start(g), at + m.end(g)
    return Hit(kind, start, end, 2)


def _keyword_hits(line: str, low: str, det: dict[str, Any]) -> list[Hit]:
    """Credential-named assignments and passwords in prose (secret_keywords), as hits."""
    if not det.get("keywords", True) or not _may_match(low, _NEEDLES["keyword"]):
        return []
    return [Hit(kind, a, b, 1) for kind, a, b in keyword_spans(line, det["heuristic"])]


def _looks_random(token: str) -> bool:
    """True if letters and digits alternate often, as in generated tokens and unlike identifiers.

    Identifiers, slugs and versions ('RetryPolicyV2Factory', 'keys-v3', 'utf8mb4') switch
    between letters and digits once or twice; a random 20+ char alphanumeric token does so
    about five times on average, and within its parts too. Words and numbers joined by '-',
    '_', '/' or '+' (a model number '5320-16P-2MXT-2X-SwitchEngine', a path
    'data/may8-repro/Details_May8_1209PST', a slug) switch at most once in any part.
    """
    switches = [
        sum(
            1
            for a, b in itertools.pairwise(part)
            if (a.isdigit() and b.isalpha()) or (a.isalpha() and b.isdigit())
        )
        for part in _TOKEN_PARTS.split(token)
    ]
    return sum(switches) >= MIN_LETTER_DIGIT_SWITCHES and max(switches) >= 2


def _entropy_hits(line: str, det: dict[str, Any]) -> list[Hit]:
    """Long random-looking tokens, scored with detect-secrets' entropy and filters. A public id
    (public_spans) hides itself, never what is glued to it: a line where a token may hold one
    is scored with its public spans blanked (`serial: <64 characters><a key>`: the key alone)."""
    hits, longest = _random_tokens(line, det)
    # A token that could hold a public id (at least 6 characters) and a random tail
    public = _merge(public_spans(line)) if hits or longest > MIN_ENTROPY_TOKEN_LENGTH + 5 else []
    return _random_tokens(blank_spans(line, public), det)[0] if public else hits


def _random_tokens(line: str, det: dict[str, Any]) -> tuple[list[Hit], int]:
    h, hits, longest = det["heuristic"], [], 0  # the hits, and the longest candidate's length
    # In URLs, '/?&=.:' split parts: a short path id is public, a long query value is not.
    masked = (
        URL_PATTERN.sub(lambda u: _URL_SEPARATORS.sub(" ", u.group(0)), line)
        if "://" in line
        else line
    )
    if "/" in masked and "." in masked:
        masked = _BARE_URL.sub(lambda u: _URL_SEPARATORS.sub(" ", u.group(0)), masked)
    for m in _ENTROPY_CANDIDATE.finditer(masked):
        longest = max(longest, m.end() - m.start())
        token = m.group(0).strip("=-_/+") or m.group(0)
        if h.is_sequential_string(token) or h.is_potential_uuid(token):
            continue
        if _HEX_ONLY.match(token):
            # Hex (git SHAs, digests) is common prose: only hex given a credential's name counts
            if (
                len(token) >= 32
                and det["hex"].calculate_shannon_entropy(token) > HEX_ENTROPY_LIMIT
                and _HEX_CREDENTIAL_CONTEXT.search(line[max(0, m.start() - 80) : m.start()])
            ):
                hits.append(Hit("high-entropy hex token", m.start(), m.end(), 0))
            continue
        if not _looks_random(token):
            continue
        if det["b64"].calculate_shannon_entropy(token) > base64_entropy_limit(len(token)):
            hits.append(Hit("high-entropy token", m.start(), m.end(), 0))
    return hits, longest


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted, disjoint spans covering the same text."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _overlaps(start: int, end: int, disjoint: list[tuple[int, int]]) -> bool:
    """Whether [start, end) overlaps any of the sorted, disjoint spans."""
    i = bisect.bisect_right(disjoint, (start, math.inf)) - 1
    if i >= 0 and disjoint[i][1] > start:
        return True
    return i + 1 < len(disjoint) and disjoint[i + 1][0] < end


def base64_entropy_limit(length: int) -> float:
    """The entropy a token of this length must exceed to count as random."""
    return min(BASE64_ENTROPY_LIMIT, ENTROPY_RATIO * math.log2(max(length, 2)))


def dedupe(hits: list[Hit]) -> list[Hit]:
    """One finding per stretch of text: the most specific kind wins, then the longest match."""
    kept: list[Hit] = []
    spans: list[tuple[int, int]] = []  # the kept hits' spans, sorted and disjoint
    for hit in sorted(hits, key=lambda x: (-x.priority, -(x.end - x.start), x.start)):
        if not _overlaps(hit.start, hit.end, spans):
            kept.append(hit)
            bisect.insort(spans, (hit.start, hit.end))
    return sorted(kept, key=lambda x: x.start)


def line_hits(line: str, det: dict[str, Any], *, entropy: bool = True) -> list[Hit]:
    """Every suspected credential on one line, one hit per stretch of text, in line order."""
    low = line.lower()
    hits = _provider_hits(line, low, det) + _keyword_hits(line, low, det)
    # has_token_run: a line without a run of 20 token characters has no entropy candidate (the
    # URL masking in _entropy_hits only shortens runs), decided by one C-level translation
    if entropy and det.get("entropy", True) and has_token_run(line):
        hits += _entropy_hits(line, det)
    return dedupe(hits) if hits else []
