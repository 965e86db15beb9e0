"""Text shapes the secret guard needs: passwords inside URLs, and public identifiers.

Two questions about one line of text, each answered in time linear in the line's length:

- `url_password_spans`: where a URL carries a password in its userinfo
  (`scheme://user:password@host`), whatever characters the password holds (`@`, `:`, `/`,
  `#`, `?`, `%`-escapes, non-ASCII) and with an empty user name (`redis://:pw@host`).
- `public_spans`: where the line holds an identifier that is public by design and only
  looks random: video, channel and playlist ids, document ids in share links, pod and node
  names, package integrity hashes, module sums, public keys, content ids, cloud resource
  and API object ids. The entropy detector ignores tokens inside these spans; detectors for
  a provider's key format still run over them.

See docs/security.md for the list and the reasons.
"""

from __future__ import annotations

import base64
import binascii
import re

from memdir_nb.spec.text import has_ascii_fold

__all__ = [
    "CJK_PASSWORD_WORDS",
    "DETECTOR_NEEDLES",
    "KEYWORD_LEAD",
    "KEYWORD_PATTERNS",
    "PROSE_KEYWORD_PATTERN",
    "PUBLIC_BLOCK_BEGIN",
    "PUBLIC_BLOCK_END",
    "SUPPLEMENTARY_PATTERNS",
    "URL_PATTERN",
    "basic_auth_spans",
    "blank_spans",
    "is_placeholder_password",
    "keyword_patterns_found",
    "public_spans",
    "url_password_spans",
]

Span = tuple[int, int]

# Longest password taken from a URL. Longer "userinfo" is not a password but a run of text
# that happens to hold '://', ':' and '@'; the cap also keeps the scan linear.
MAX_URL_PASSWORD_CHARS = 256

# A scheme must start a word and is at most 32 characters (an unbounded one restarts at
# every letter of a long word, which is quadratic in the line length).
_SCHEME = re.compile(r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{0,31}://")
_NOT_SPACE_RUN = re.compile(r"\S+")
_USER = re.compile(r"[^:/?#\s]*")
_PORT_THEN_PATH = re.compile(r"\d{1,5}(?:[/?#]|$)")
_HOST_START = re.compile(r"[A-Za-z0-9\[]")
_HOSTLIKE_USER = re.compile(r"[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\]")
_LOCAL_HOST = re.compile(
    r"(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\]|host\.docker\.internal"
    r"|[A-Za-z0-9.\-]+\.(?:local|localhost|test|example|invalid))(?::\d+)?(?:[/?#]|$)",
    re.IGNORECASE,
)
_PLACEHOLDER_WORDS = frozenset(
    {
        "password",
        "passwd",
        "pass",
        "pwd",
        "secret",
        "token",
        "changeme",
        "mypassword",
        "yourpassword",
        "your-password",
        "your_password",
        "example",
    }
)
_TEMPLATE = re.compile(
    r"^(?:<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|\{[^}]*\}|\$[A-Za-z_]\w*|%s|\[[^\]]*\])$"
)


# ---------------------------------------------------------------------------- more detectors

# A UUID as a capture group, not followed by more of a token.
_UUID = r"([0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12})(?![\w\-])"
# Supplementary patterns for credentials detect-secrets 1.5 has no plugin for.
SUPPLEMENTARY_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("Anthropic API key", re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{20,}")),
    # Legacy (sk-<48>) and project/service-account keys without the T3BlbkFJ marker.
    ("OpenAI API key", re.compile(r"\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{32,}")),
    ("bearer token", re.compile(r"\bBearer\s+([A-Za-z0-9\-._~+/]{16,}=*)")),
    # Provider tokens with a fixed prefix that the entropy measure misses (hex bodies) or
    # that detect-secrets has no plugin for.
    ("DigitalOcean token", re.compile(r"\bdo[opr]_v1_[a-f0-9]{64}\b")),
    ("Hugging Face token", re.compile(r"\bhf_[A-Za-z0-9]{34,}\b")),
    ("Google API key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])")),
    ("Google OAuth client secret", re.compile(r"\bGOCSPX-[0-9A-Za-z_\-]{28}(?![0-9A-Za-z_\-])")),
    ("Shopify token", re.compile(r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b")),
    ("Vault token", re.compile(r"\bhv[sbr]\.[A-Za-z0-9_\-]{24,}")),
    ("Linear API key", re.compile(r"\blin_api_[A-Za-z0-9]{40}\b")),
    ("GitHub token", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{60,}")),
    ("npm token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b|(?<=:_authToken=)[A-Fa-f0-9\-]{36}\b")),
    ("Stripe webhook secret", re.compile(r"\bwhsec_[A-Za-z0-9+/=]{24,}")),
    # Chat-group bot webhooks whose one credential is a UUID, which the entropy check skips
    # (session, message and request ids are UUIDs): whoever holds it posts to the group.
    # WeCom's `send?key=<uuid>` (real42: a Chinese home's transcripts pasted one 64 times)
    # and Feishu/Lark's `bot/v2/hook/<uuid>`.
    (
        "WeCom bot webhook key",
        re.compile(
            r"qyapi\.weixin\.qq\.com/cgi-bin/webhook/send\?(?:[^\s#]{0,200}?&)?key=" + _UUID
        ),
    ),
    (
        "Feishu bot webhook",
        re.compile(r"open\.(?:feishu\.cn|larksuite\.com)/open-apis/bot/v2/hook/" + _UUID),
    ),
)
# Assignments of a value to a credential-sounding name, after detect-secrets' keyword list,
# with every repetition bounded so that a line full of keywords stays linear: `name: value`,
# `name = value` (also `==`, `!=`), `"value" == name` and `name("value");`.
# "Password" in Chinese (simplified, traditional), Japanese and Korean: each is its own needle.
CJK_PASSWORD_WORDS = (
    "\u5bc6\u7801",
    "\u5bc6\u78bc",
    "\u30d1\u30b9\u30ef\u30fc\u30c9",
    "\ube44\ubc00\ubc88\ud638",
)
_KW = (
    r"(?P<kw>api_?key|auth_?key|service_?key|account_?key|db_?key|database_?key|priv_?key"
    r"|private_?key|client_?key|db_?pass|database_?pass|key_?pass|password|passwd|pwd|secret"
    r"|contraseña|contrasena|" + "|".join(CJK_PASSWORD_WORDS) + r"|(?<![A-Za-z])pw(?![a-z]))"
)
# The password words of Chinese, Japanese and Korean notes take a full-width colon as often as
# an ASCII one (`密码：Kiln2026x`, realdata34: a real Chinese memory index held two passwords so).
_COLON = "[:\uff1a]"
_VALUE = r"(?P<value>(?=\w)[^\s'\"]{1,500})"
# A password written in prose, with no '=': "admin pw `Hv4!pQz8Lr`", "the root password
# is Tq7rLm2Zx9", "password for prod is now: **Tq7rLm2Zx9**", 'password was "Hv4!pQz8Lr"'. Only
# password words count here (secret_detect checks the keyword), and a value not in backticks must
# hold a digit or a symbol ("password Manager", "pw reset", 'is "required"' are words, not values).
PROSE_KEYWORD_PATTERN = re.compile(
    _KW
    + r"(?![\w\-])(?:\s{1,3}+for\s{1,3}+[\w.\-]{1,40}+)?"
    + r"(?:\s{1,3}+(?:is|was|now)(?:\s{1,3}+now)?)?(?::(?=\s))?"
    + r"\s{1,3}+(?P<q>`|\*\*|\*|\"|'|)"
    + _VALUE,
    re.IGNORECASE,
)
KEYWORD_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(
        _KW
        + r"\w{0,40}+[\]'\"]{0,2}(?:"
        + _COLON
        + r"|\s{0,100}+(?:={1,3}|!==?))\s{0,100}+(?P<q>['\"`]?)"
        + _VALUE,
        re.IGNORECASE,
    ),
    re.compile(
        r"(?P<q>['\"`])(?P<value>(?=\w)[^\v'\"]{1,300}?)(?P=q)\s{0,100}[!=]{2,3}\s{0,100}\w{0,40}?"
        + _KW,
        re.IGNORECASE,
    ),
    re.compile(
        _KW + r"[^\s'\"`]{0,60}?\s{0,100}+(?P<q>['\"`])(?P<value>(?=\w)[^\v'\"]{1,300}?)(?P=q);",
        re.IGNORECASE,
    ),
    PROSE_KEYWORD_PATTERN,
)
# The most characters a keyword of _KW holds before the first keyword needle in it
# ("database_" before "key" or "pass"); tests derive it from _KW's alternatives.
KEYWORD_LEAD = 9
# Two characters from {!, =} in a row (_COMPARISON in a pattern): every match of such a
# pattern (`"v" == name`) holds one of these, so a text without any cannot match it.
_COMPARISON = "[!=]{2,3}"
_COMPARISONS = ("==", "!=", "=!", "!!")
_DENSE_NEEDLES = 64  # more than one keyword needle in this many characters: search whole


def keyword_patterns_found(text: str) -> list[bool]:
    """For each of KEYWORD_PATTERNS, whether it matches somewhere in text: what search says.

    A pattern that begins with a keyword (the `name: value` and `name("value");` shapes) can
    only match where a keyword starts, and every keyword holds one of the keyword needles,
    lower-cased, at most KEYWORD_LEAD characters after its start. So only the starts up to
    KEYWORD_LEAD characters before a needle are tried, found once for all the patterns (a long
    text of prose with a few "key" words costs a few dozen match calls instead of a scan with
    the keyword alternation at every position; a text dense with needles is searched whole).
    The `"value" == name` shape needs two comparison characters in a row. This holds for any
    text without spec.text.FOLDS_TO_ASCII, the only characters outside ASCII that a
    case-insensitive pattern matches to an ASCII letter; a text holding one is searched whole.
    """
    low = text.lower()  # as long as text when it holds none of spec.text.FOLDS_TO_ASCII
    needles = DETECTOR_NEEDLES["keyword"]
    # Where needles are dense (a text made of keywords, as an attacker could write), one
    # search is cheaper than a match at each start, so the cost stays near the search's.
    whole = has_ascii_fold(text) or sum(map(low.count, needles)) * _DENSE_NEEDLES > len(text)
    starts = [] if whole else _keyword_starts(low)
    found: list[bool] = []
    for pattern in KEYWORD_PATTERNS:
        if whole:
            found.append(pattern.search(text) is not None)
        elif pattern.pattern.startswith(_KW):
            found.append(any(pattern.match(text, at) is not None for at in starts))
        elif _COMPARISON in pattern.pattern and not any(c in text for c in _COMPARISONS):
            found.append(False)
        else:
            found.append(pattern.search(text) is not None)
    return found


def _keyword_starts(low: str) -> list[int]:
    """Where in low a keyword can start: up to KEYWORD_LEAD characters before each needle."""
    starts: set[int] = set()
    for needle in DETECTOR_NEEDLES["keyword"]:
        at = low.find(needle)
        while at >= 0:
            starts.update(range(max(0, at - KEYWORD_LEAD), at + 1))
            at = low.find(needle, at + 1)
    return sorted(starts)


_BASIC_AUTH = re.compile(r"\bBasic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")

# Literal text at least one of which every match of a detector contains (lower-cased), so a
# line without any of them skips the detector. Detectors not listed always run.
DETECTOR_NEEDLES: dict[str, tuple[str, ...]] = {
    "AWS access key": ("a3t", "abia", "acca", "akia", "asia", "aws"),
    "GitHub token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    "GitLab token": ("gl", "gr1348941"),
    "Slack token": ("xox", "hooks.slack.com"),
    "Stripe API key": ("k_live_",),
    "SendGrid API key": ("sg.",),
    "PyPI token": ("pypi-",),
    "Telegram bot token": (":",),
    "Mailchimp API key": ("-us",),
    "Azure storage key": ("accountkey=",),
    "private key block": ("private key", "putty-user-key-file"),
    "JWT": ("eyj",),
    "keyword": ("key", "pass", "pw", "secret", "contrase", *CJK_PASSWORD_WORDS),
}


def basic_auth_spans(line: str) -> list[Span]:
    """Spans of `Authorization: Basic <base64>` values that decode to `user:password`."""
    return [
        m.span(1) for m in _BASIC_AUTH.finditer(line) if _decodes_to_user_and_password(m.group(1))
    ]


def _decodes_to_user_and_password(value: str) -> bool:
    """Whether a `Basic` header value is base64 of printable `user:password`."""
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
        text = raw.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return False
    _user, sep, password = text.partition(":")
    return bool(sep and password) and text.isprintable()


def is_placeholder_password(password: str) -> bool:
    """True for values that stand for a password in documentation: `<token>`, `${DB_PASS}`, `****`."""
    return (
        password.lower() in _PLACEHOLDER_WORDS
        or bool(_TEMPLATE.match(password))
        or len(set(password)) == 1
        or password in ("...", "…")
    )


def url_password_spans(line: str) -> list[Span]:
    """Spans of the passwords that URLs on this line carry in their userinfo."""
    if "://" not in line or "@" not in line:
        return []
    spans: list[Span] = []
    for word in _NOT_SPACE_RUN.finditer(line):
        if "://" not in word.group(0):
            continue
        last_at = line.rfind("@", word.start(), word.end())
        if last_at == -1:
            continue
        for m in _SCHEME.finditer(line, word.start(), last_at):
            span = _password_after(line, m.end(), last_at, word.end())
            if span is not None:
                spans.append(span)
    return spans


def _password_after(line: str, start: int, last_at: int, word_end: int) -> Span | None:
    """The password span of the userinfo that runs from start to the word's last '@', if any."""
    user = _USER.match(line, start, last_at)
    colon = user.end() if user else start
    if colon >= last_at or line[colon] != ":":
        return None  # no ':' before any '/', '?' or '#': no password in this userinfo
    if last_at - colon - 1 > MAX_URL_PASSWORD_CHARS or last_at == colon + 1:
        return None
    host_start = last_at + 1
    if host_start >= word_end or not _HOST_START.match(line, host_start):
        return None
    password = line[colon + 1 : last_at]
    if (
        any(c in password for c in "/?#")
        and _HOSTLIKE_USER.fullmatch(line, start, colon)
        and _PORT_THEN_PATH.match(line, colon + 1)
    ):
        # 'host:8443/path@x' is a host, a port and a path with an '@' in it, not a password.
        return None
    if is_placeholder_password(password):
        return None
    if password == line[start:colon] and _LOCAL_HOST.match(line, host_start):
        return None  # postgres:postgres@localhost, the local default of a dev container
    return colon + 1, last_at


# ---------------------------------------------------------------------------- public ids

PUBLIC_BLOCK_BEGIN = re.compile(
    r"-----BEGIN (?:PUBLIC KEY|RSA PUBLIC KEY|CERTIFICATE|X509 CRL|PGP PUBLIC KEY BLOCK"
    r"|PGP SIGNATURE|SSH2 PUBLIC KEY)-----|---- BEGIN SSH2 PUBLIC KEY ----"
)
PUBLIC_BLOCK_END = re.compile(
    r"-----END (?:PUBLIC KEY|RSA PUBLIC KEY|CERTIFICATE|X509 CRL|PGP PUBLIC KEY BLOCK"
    r"|PGP SIGNATURE|SSH2 PUBLIC KEY)-----|---- END SSH2 PUBLIC KEY ----"
)

_W = r"[A-Za-z0-9_\-]"  # one character of a base64url identifier
_B64 = r"[A-Za-z0-9+/]"
_K8S = r"[bcdfghjklmnpqrstvwxz2456789]"  # the alphabet Kubernetes uses for generated suffixes
_PUBLIC_SHAPES = re.compile(
    "|".join(
        [
            # YouTube channel (UC + 22) and playlist (PL + 16 or 32) ids
            rf"(?<!{_W})UC{_W}{{22}}(?!{_W})",
            rf"(?<!{_W})PL(?:{_W}{{32}}|{_W}{{16}})(?!{_W})",
            # Kubernetes pod names (deployment-<hash>-<suffix>) and GKE/AKS node names
            rf"(?<![\w.\-])[a-z0-9][a-z0-9\-]{{0,60}}-{_K8S}{{5,10}}-{_K8S}{{5}}(?![\w.\-])",
            r"(?<![\w.\-])gke-[a-z0-9\-]{1,60}-[0-9a-f]{8}-[a-z0-9]{4}(?![\w.\-])",
            r"(?<![\w.\-])aks-[a-z0-9]{1,30}-\d{8}-vmss[0-9a-z]{6}(?![\w.\-])",
            # Subresource-integrity hashes (npm, yarn, pnpm, nix, <script integrity>)
            rf"(?<![\w\-])sha(?:1|224|256|384|512)-{_B64}{{20,}}={{0,2}}",
            # Go module sums, image and blob digests
            rf"(?<![\w\-])h1:{_B64}{{43}}=",
            r"(?<![\w\-])sha(?:256|384|512):[0-9a-f]{64,128}",
            # Nix store paths, age recipients, IPFS content ids, bech32 addresses
            r"/nix/store/[0-9a-z]{32}-",
            r"(?<![\w\-])age1[02-9ac-hj-np-z]{58}(?![\w\-])",
            r"(?<![\w\-])(?:Qm[1-9A-HJ-NP-Za-km-z]{44}|bafy[a-z2-7]{50,60})(?![\w\-])",
            # SSH public keys
            r"(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp(?:256|384|521)"
            rf"|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)\s+AAAA{_B64}+={{0,3}}",
            # Google OAuth client ids (the client secret is separate and is a secret); tried
            # only where a run of digits starts, so a long run is not rescanned from each digit
            r"(?<!\d)\d{6,}-[a-z0-9]{32}\.apps\.googleusercontent\.com",
            # Cloud resource ids and ARNs
            r"(?<![\w\-])(?:i|vpc|subnet|sg|ami|vol|snap|eni|igw|nat|rtb|acl|eipalloc|lt|tgw|vpce)"
            r"-[0-9a-f]{8,17}(?![\w\-])",
            r"(?<![\w\-])arn:aws[a-z\-]*:[a-z0-9\-]*:[a-z0-9\-]*:\d{0,12}:[^\s'\"`<>]+",
            # BigQuery's billing export tables: the billing account id (6-6-6 hex) is in the name
            r"(?<![\w\-])gcp_billing_export(?:_resource)?_v1_[0-9A-F]{6}_[0-9A-F]{6}_[0-9A-F]{6}"
            r"(?![\w\-])",
            # Stripe object ids and publishable keys (secret and restricted keys are not here)
            r"(?<![\w\-])(?:pk_(?:live|test)|cs_(?:live|test)|cus|pi|pm|ch|in|sub|si|price|prod"
            r"|evt|acct|seti|txn|po|re|plink|ii|il)_[A-Za-z0-9]{8,}(?![\w\-])",
            # Supabase publishable keys, made to ship in a web page (the sb_secret_ key is not
            # here); a memory noting a project's client setup lists one (real40b)
            r"(?<![\w\-])sb_publishable_[A-Za-z0-9_\-]{16,}(?![\w\-])",
            # API object ids: Anthropic messages, requests, tool calls, batches and the
            # triggers of scheduled cloud routines (RemoteTrigger, 2.1.2xx); OpenAI ids
            r"(?<![\w\-])(?:msg|req|toolu|msgbatch|trig)_0[A-Za-z0-9]{20,}(?![\w\-])",
            r"(?<![\w\-])(?:chatcmpl-|asst_|thread_|run_|resp_|batch_|file-)[A-Za-z0-9]{16,}(?![\w\-])",
            # Claude Code's subagent ids as its files and folders name them: `a`, an optional
            # label of lower-case letters then `-`, then 16 hex digits (a subagent's transcript
            # `agent-<id>.jsonl`, its worktree `.claude/worktrees/agent-<id>` and the branch
            # `worktree-agent-<id>`); one in four read as a high-entropy token (real35)
            r"(?<![\w\-])(?:worktree-)?agent-a(?:[a-z_]{1,30}-)?[0-9a-f]{16}(?![\w\-])",
            # Inline data (an image in a data: URI is content, not a credential)
            rf"data:[\w/+.\-]+;base64,{_B64}+={{0,2}}",
            # Device paths (/dev/serial/by-id/usb-FTDI_..._A50285BI-if00-port0, /dev/disk/by-*)
            r"(?<![\w/])/dev/[\w.:+@/\-]+",
            # Hardware serial numbers and bus ids named as such (serial: X, iSerial X, S/N X,
            # serial_id=X, ID_SERIAL_SHORT=X): printed on the board, not a credential
            r"(?i:\b(?:i?serial(?:[ _-]?(?:no|number|id|short))?|s/?n|id_serial(?:_short)?|busid)"
            r"\b[\s:=#]{1,3}(?:0x)?[A-Za-z0-9_\-]{6,64})",
        ]
    )
)

# Hosts whose link paths and ids are public document, media or chat ids; a credential-named
# query parameter in such a link is still scanned.
_PUBLIC_HOSTS = (
    "youtube.com",
    "youtu.be",
    "youtube-nocookie.com",
    "docs.google.com",
    "drive.google.com",
    "sheets.google.com",
    "slides.google.com",
    "colab.research.google.com",
    "figma.com",
    "open.spotify.com",
    "notion.so",
    "notion.site",
    "loom.com",
    "vimeo.com",
    "miro.com",
    "airtable.com",
    "twitch.tv",
    "dropbox.com",
    "canva.com",
    "trello.com",
    "lucid.app",
)
# A URL in text: a scheme of ASCII letters (bounded, starting a word: an unbounded one restarts
# at every letter of a long word, quadratic in the line) and what follows `://` up to a space or
# a quote. Spelled out, not re.IGNORECASE: that makes [a-z] match the Kelvin sign, the long s
# and the dotless i, and `\u212a://<token>` then passed for a URL whose parts are public.
URL_PATTERN = re.compile(r"(?<![A-Za-z0-9+.\-])[A-Za-z][A-Za-z0-9+.\-]{0,31}://[^\s'\"<>`]+")
_HOST = re.compile(r"(?:[^/?#@\s]*@)?([A-Za-z0-9.\-]+)")
# Parameter names are bounded so that a long run of keyword-like text cannot backtrack.
_SECRET_PARAM = re.compile(
    r"[?&;](?!resourcekey=)(?:[\w.\-]{0,40}"
    r"(?:token|key|secret|sig|signature|auth|pass|pwd|session|credential|jwt|code)"
    r"[\w.\-]{0,40})=([^&#;\s]*)",
    re.IGNORECASE,
)


def _public_host(host: str) -> bool:
    host = host.lower().rstrip(".")
    return any(host == h or host.endswith("." + h) for h in _PUBLIC_HOSTS)


def public_spans(line: str) -> list[Span]:
    """Spans of this line that hold public identifiers (see the module docstring)."""
    spans = [m.span() for m in _PUBLIC_SHAPES.finditer(line)]
    if "://" in line:
        for url in URL_PATTERN.finditer(line):
            host = _HOST.match(line, url.start() + url.group(0).index("://") + 3, url.end())
            if host is None or not _public_host(host.group(1)):
                continue
            pos = url.start()
            for param in _SECRET_PARAM.finditer(line, url.start(), url.end()):
                spans.append((pos, param.start(1)))
                pos = param.end(1)
            spans.append((pos, url.end()))
    return spans


def blank_spans(line: str, spans: list[Span]) -> str:
    """line with each of the sorted, disjoint spans replaced by as many spaces."""
    out: list[str] = []
    pos = 0
    for start, end in spans:
        out += [line[pos:start], " " * (end - start)]
        pos = end
    out.append(line[pos:])
    return "".join(out)
