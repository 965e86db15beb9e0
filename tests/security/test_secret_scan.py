"""secret_scan: each credential kind is found with its place; clean memory text is left alone.

Every fake credential is assembled at runtime from pieces, so this file holds no string that
a scanner (or a reader) would take for a real secret.
"""

from __future__ import annotations

import base64
import json
import random
import string
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.lint import lint_memory_dir
from memdir_nb.security import secret_scan
from memdir_nb.security.secret_detect import Hit
from memdir_nb.security.secret_scan import (
    SecretFinding,
    SecretInTeamMemoryError,
    format_findings,
    mask_secret_values,
    raise_if_secrets,
    redact,
    scan_for_secrets,
    scan_with_values,
)
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.transaction import open_transaction
from tests.support.benchmarks import load_benchmark
from tests.support.cpu_growth import growth_ratio


def _random_token(
    length: int, seed: int, alphabet: str = string.ascii_letters + string.digits
) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(length))


def _b64url(obj: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


def _fake_jwt() -> str:
    return ".".join(
        [
            _b64url({"alg": "HS256", "typ": "JWT"}),
            _b64url({"sub": "42", "name": "Ann"}),
            _random_token(43, 7, string.ascii_letters + string.digits + "-_"),
        ]
    )


AWS_KEY = "AKIA" + "Q7WZ" * 4
ANTHROPIC_KEY = "sk-" + "ant-" + "api03-" + _random_token(93, 1) + "AA"
OPENAI_LEGACY = "sk-" + _random_token(20, 2) + "T3Blbk" + "FJ" + _random_token(20, 3)
OPENAI_PROJECT = (
    "sk-" + "proj-" + _random_token(120, 4, string.ascii_letters + string.digits + "_-")
)
GITHUB_TOKEN = "gh" + "p_" + _random_token(36, 5)
SLACK_TOKEN = "xo" + "xb-" + "1234567890" + "12-" + "1234567890123-" + _random_token(24, 6)
STRIPE_KEY = "sk_" + "live_" + _random_token(24, 8)
JWT = _fake_jwt()
BEARER = _random_token(40, 9, string.ascii_lowercase + string.digits)
PEM_BEGIN = "-----BEGIN " + "RSA PRIVATE KEY-----"
PEM_END = "-----END " + "RSA PRIVATE KEY-----"
HIGH_ENTROPY = _random_token(48, 10, string.ascii_letters + string.digits + "+/")
HEX_SECRET = _random_token(40, 11, "0123456789abcdef")
DB_PASSWORD = "Tr0ub4dor" + "&3x"
URL_PASSWORD = "s3cr3t" + "Passw0rd"
# A chat bot's webhook credential is a UUID, a shape the entropy check leaves alone (real42)
WECOM_KEY = "5c1e8a2f-" + "93d4-4b6e-a0c7-1f2e3d4c5b6a"
FEISHU_HOOK = "7d3b2c91-" + "4e5f-4a8b-9c0d-6e7f8a9b0c1d"

# (id, text, expected kind, the secret that must not appear in full)
KIND_CASES = [
    ("aws", f"CI uses the deploy key {AWS_KEY} for uploads", "AWS access key", AWS_KEY),
    ("anthropic", f"ANTHROPIC_API_KEY={ANTHROPIC_KEY}", "Anthropic API key", ANTHROPIC_KEY),
    ("openai-legacy", f"the old key was {OPENAI_LEGACY}", "OpenAI API key", OPENAI_LEGACY),
    ("openai-project", f"use {OPENAI_PROJECT} for the eval runs", "OpenAI API key", OPENAI_PROJECT),
    ("github", f"push with {GITHUB_TOKEN}", "GitHub token", GITHUB_TOKEN),
    ("slack", f"bot token {SLACK_TOKEN}", "Slack token", SLACK_TOKEN),
    ("stripe", f"stripe live key {STRIPE_KEY}", "Stripe API key", STRIPE_KEY),
    ("private-key", PEM_BEGIN, "private key block", PEM_BEGIN),
    ("jwt", f"a session cookie looked like {JWT}", "JWT", JWT),
    (
        "bearer",
        f"curl -H 'Authorization: Bearer {BEARER}' https://api.internal/v1",
        "bearer token",
        BEARER,
    ),
    ("password-equals", f"password = {DB_PASSWORD}", "password assignment", DB_PASSWORD),
    ("password-colon", f"staging db password: {DB_PASSWORD}", "password assignment", DB_PASSWORD),
    (
        "password-quoted",
        "DB_PASS: 'correcthorsebattery'",
        "password assignment",
        "correcthorsebattery",
    ),
    ("api-key-assignment", f"api_key: {DB_PASSWORD}", "secret assignment", DB_PASSWORD),
    (
        "password-in-url",
        f"postgres://admin:{URL_PASSWORD}@db.internal:5432/app",
        "password in URL",
        URL_PASSWORD,
    ),
    (
        "high-entropy",
        f"the staging signing secret is {HIGH_ENTROPY}",
        "high-entropy token",
        HIGH_ENTROPY,
    ),
    ("hex-token", f"token: {HEX_SECRET}", "high-entropy hex token", HEX_SECRET),
    (
        "wecom-webhook",
        f"推送地址 https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={WECOM_KEY}",
        "WeCom bot webhook key",
        WECOM_KEY,
    ),
    (
        "wecom-webhook-second-parameter",
        f'curl "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?debug=1&key={WECOM_KEY}"',
        "WeCom bot webhook key",
        WECOM_KEY,
    ),
    (
        "feishu-webhook",
        f"the digest bot posts to https://open.feishu.cn/open-apis/bot/v2/hook/{FEISHU_HOOK}",
        "Feishu bot webhook",
        FEISHU_HOOK,
    ),
]

CLEAN_TEXTS = [
    # a bot webhook with its credential left out, as a setup note writes it
    "企业微信机器人：https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=你的key",
    "set WEBHOOK to https://open.feishu.cn/open-apis/bot/v2/hook/xxxxxxxx-xxxx-xxxx in .env",
    "The password policy requires 12 characters and a rotation every 90 days.",
    "Rate limiting uses the token bucket in middleware/ratelimit.py; refill is 10/s per tenant.",
    "Bearer tokens expire after an hour, so long jobs must refresh them.",
    "Latency dashboard: https://grafana.example.com/d/Xk9fQ2mZk/api-latency-p99?orgId=1&from=now-6h&var-env=prod",
    "Linear issue ENG-1234 tracks the flaky checkout test; ENG-1290 is the follow-up.",
    "The regression came in with commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 (see PR #4821).",
    "Password: ask in #ops-secrets, never store it here.",
    "password_min_length: 12\npassword_rotation_date: 2026-04-01",
    "api_key: stored in 1Password under 'Stripe prod'",
    "Set the key with export API_KEY=${API_KEY} from the vault; never hard-code it.",
    "Use `password: <your-password>` in the template; the real value comes from Vault.",
    "Image digest sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 is the pinned base.",
    "Request 550e8400-e29b-41d4-a716-446655440000 in the logs shows the retry storm.",
    "test_checkout_flow_handles_gateway_timeouts and handleSubscriptionRenewalWebhookForEnterprise both need the fixture.",
    "Raw events land in s3://acme-data-lake-prod/events/2026/03/ and are compacted nightly.",
    "The design tokens live in @acme/design-system-tokens v2.3.1; do not fork them.",
    "**Why:** the API_KEY env var was unset in CI, so the SDK fell back to anonymous mode.\n"
    "**How to apply:** check the CI secrets page before blaming the SDK.",
    "Secret scanning runs in pre-commit via detect-secrets; the baseline is .secrets.baseline.",
    "The user prefers terse answers; no trailing summaries after diffs.",
    "Merge freeze lifted 2026-03-10; batch non-critical PRs after that.",
    # code samples that read a secret at run time, or name it with a stand-in word
    'string apiKey = configuration["OpenAIKey"];',
    'var apiKey = context.Request.Headers["X-API-Key"].ToString() ?? "default";',
    'api_token = os.environ["SERVICE_TOKEN"]  # from the deploy env',
    "db_password = getpass.getpass()",
    'options.ClientSecret = "secret";',
]


@pytest.mark.parametrize(
    ("text", "kind", "secret"), [c[1:] for c in KIND_CASES], ids=[c[0] for c in KIND_CASES]
)
def test_each_credential_kind_is_found_with_its_kind_name(
    text: str, kind: str, secret: str
) -> None:
    findings = scan_for_secrets({"body": text})
    assert [f.kind for f in findings] == [kind], findings
    assert findings[0].field == "body" and findings[0].line == 1
    assert secret not in findings[0].excerpt


@pytest.mark.parametrize("text", CLEAN_TEXTS, ids=[f"clean-{i}" for i in range(len(CLEAN_TEXTS))])
def test_ordinary_memory_text_is_not_a_secret(text: str) -> None:
    assert scan_for_secrets({"name": "Some memory", "description": "a note", "body": text}) == []


def test_clean_corpus_is_large_enough() -> None:
    assert len(CLEAN_TEXTS) >= 15


def test_finding_reports_field_and_line_within_that_field() -> None:
    body = "line one\nline two\n" + f"deploy with {GITHUB_TOKEN}\n"
    findings = scan_for_secrets(
        {"name": "Deploy notes", "description": f"uses {AWS_KEY}", "body": body}
    )
    assert [(f.kind, f.field, f.line) for f in findings] == [
        ("AWS access key", "description", 1),
        ("GitHub token", "body", 3),
    ]


def test_private_key_block_is_one_finding_not_one_per_line() -> None:
    key_lines = [
        _random_token(64, 100 + i, string.ascii_letters + string.digits + "+/") for i in range(5)
    ]
    body = (
        "Server key for staging:\n"
        + "\n".join([PEM_BEGIN, *key_lines, PEM_END])
        + "\nafter the block"
    )
    findings = scan_for_secrets({"body": body})
    assert [(f.kind, f.line) for f in findings] == [("private key block", 2)]


def test_scanning_resumes_after_a_key_block_ends() -> None:
    body = "\n".join([PEM_BEGIN, _random_token(64, 200), PEM_END, f"and also {AWS_KEY}"])
    assert [(f.kind, f.line) for f in scan_for_secrets({"body": body})] == [
        ("private key block", 1),
        ("AWS access key", 4),
    ]


def test_one_secret_matched_by_several_detectors_is_reported_once() -> None:
    findings = scan_for_secrets({"body": f"Authorization: Bearer {JWT}"})
    assert [f.kind for f in findings] == ["JWT"]


def test_several_secrets_on_one_line_are_all_redacted_in_each_excerpt() -> None:
    findings = scan_for_secrets({"body": f"{AWS_KEY} and {GITHUB_TOKEN}"})
    assert [f.kind for f in findings] == ["AWS access key", "GitHub token"]
    for f in findings:
        assert AWS_KEY not in f.excerpt and GITHUB_TOKEN not in f.excerpt


def test_redact_never_returns_the_whole_secret() -> None:
    for secret in ["hunter2", "abcdefgh", AWS_KEY, ANTHROPIC_KEY]:
        out = redact(secret)
        assert secret not in out
        assert f"[{len(secret)} chars]" in out
    assert redact(AWS_KEY).startswith("AKIA")
    assert redact("hunter2").startswith("…")  # short secrets show nothing of themselves


def test_error_names_kind_field_and_line_and_hides_the_secret() -> None:
    fields = {
        "name": "Deploy",
        "description": "how we deploy",
        "body": f"step 1\nkey {ANTHROPIC_KEY}\n",
    }
    with pytest.raises(SecretInTeamMemoryError) as info:
        raise_if_secrets(fields)
    err = info.value
    assert isinstance(err, ValueError)
    assert [(f.kind, f.field, f.line) for f in err.findings] == [("Anthropic API key", "body", 2)]
    message = str(err)
    assert "Anthropic API key in body line 2" in message
    assert "save the memory privately" in message and "Nothing was written" in message
    assert ANTHROPIC_KEY not in message
    assert ANTHROPIC_KEY[:20] not in message


def test_raise_if_secrets_is_silent_on_clean_fields() -> None:
    raise_if_secrets(
        {
            "name": "Testing policy",
            "description": "integration tests hit a real db",
            "body": CLEAN_TEXTS[0],
        }
    )


def test_format_findings_lists_a_handful_and_counts_the_rest() -> None:
    findings = [SecretFinding("JWT", "body", i, "x") for i in range(1, 9)]
    text = format_findings(findings)
    assert text.count("JWT in body line") == 5
    assert text.endswith("and 3 more")


def test_empty_and_missing_fields_are_fine() -> None:
    assert scan_for_secrets({"name": "", "description": "", "body": ""}) == []
    assert scan_for_secrets({}) == []


def test_most_random_40_char_tokens_are_caught_by_entropy() -> None:
    # Measured on fixed seeds: about 3% of random 40-char alphanumeric tokens switch between
    # letters and digits fewer than 3 times and are let through (see docs/security.md).
    alphabet = string.ascii_letters + string.digits
    tokens = [_random_token(40, 1000 + i, alphabet) for i in range(200)]
    caught = sum(1 for t in tokens if scan_for_secrets({"body": f"value {t}"}))
    assert caught >= 0.9 * len(tokens)


def test_identifiers_paths_and_versions_are_not_random_tokens() -> None:
    samples = [
        "handleV2RenewalWebhook3",
        "oauth2-client-credentials-v2",
        "utf8mb4_unicode_ci_collation",
        "k8s-prod-eu-west-1-cluster-2",
        "com.example.payments.RetryPolicyV2Factory",
        "arn:aws:iam::123456789012:role/DeployRole2",
        "feature/PAY-2231-idempotency-keys-v3",
        "ghcr.io/acme/api-server:v4.12.0-rc2",
        "x86_64-unknown-linux-gnu",
    ]
    for sample in samples:
        assert scan_for_secrets({"body": f"see {sample} for details"}) == [], sample


def test_part_numbers_and_paths_joining_words_and_numbers_are_not_random_tokens() -> None:
    # A memory dir of network lab notes (realdata25): a switch's model number and a report's
    # path, whose parts each switch between letters and digits at most once, were "credentials"
    samples = [
        "Core switch: Extreme 5420F-48P-4XE-FabricEngine (firmware 9.1)",
        "- Capture notes: `docs/data/oct2-eap-repro/LabRun_SessionNotes_Oct2_0930PST.docx`",
    ]
    for sample in samples:
        assert scan_for_secrets({"body": sample}) == [], sample
    # a key whose parts each look random is still one
    raw = _random_token(25, 4, string.ascii_uppercase + string.digits)
    key = "-".join(raw[i : i + 5] for i in range(0, 25, 5))
    assert [f.kind for f in scan_for_secrets({"body": f"license {key}"})] == ["high-entropy token"]


def test_an_elided_example_value_is_a_template_not_a_key() -> None:
    assert scan_for_secrets({"body": "VOYAGE_API_KEY=pa-...\nSTRIPE_KEY=sk_live_\u2026"}) == []
    long_stem = "VOYAGE_API_KEY=pa-8f3kd93kfls03kfd29x..."  # most of a key, cut: still a key
    assert [f.kind for f in scan_for_secrets({"body": long_stem})] == ["secret assignment"]


def test_a_billing_export_table_is_public_but_a_token_behind_its_prefix_is_not() -> None:
    table = "gcp_billing_export_v1_0A1B2C_3D4E5F_60718F"
    assert scan_for_secrets({"body": f"query `ops.billing.{table}` by partition"}) == []
    token = _random_token(40, 77)
    findings = scan_for_secrets({"body": f"query ops.billing.gcp_billing_export_v1_{token}"})
    assert [f.kind for f in findings] == ["high-entropy token"]


def test_a_claude_code_subagent_id_is_public_but_a_token_glued_to_it_is_not() -> None:
    # real35: agents write their subagents' worktrees and transcripts into memories ("branch
    # worktree-agent-a…, worktree agent-a… review-fixed"); about one id in four read as a key
    rng = random.Random(35)
    flagged = []
    for _ in range(120):
        aid = "a" + "".join(rng.choice("0123456789abcdef") for _ in range(16))
        for text in (
            f"the fix waits in worktree agent-{aid} for review",
            f"pushed from branch worktree-agent-{aid} then merged",
            f"stale copy under .claude/worktrees/agent-{aid}/src/app.ts",
            f"read subagents/agent-{aid}.jsonl for what it tried",
            f"the summary agent agent-acompact-{aid[1:]} ran twice",
        ):
            if scan_for_secrets({"body": text}):
                flagged.append(text)
    assert flagged == []
    glued = scan_for_secrets({"body": f"worktree agent-a0123456789abcdef{_random_token(30, 35)}"})
    assert [f.kind for f in glued] == ["high-entropy token"]
    beside = scan_for_secrets({"body": f"worktree agent-a0123456789abcdef {_random_token(30, 36)}"})
    assert [f.kind for f in beside] == ["high-entropy token"]


@pytest.mark.parametrize(
    "text",
    [
        "password Manager entry",
        "a pw reset takes a day",
        "the password is env-format in the unit file",
        "password lookup_table, then main()",
        "pw in /run/secrets/app",
        "pw `2026-06-02`",
        "upward 12345abc!",
        "passwords 9a8b7c6d!",
        "upward_speed = 'fast1234'",
        'pwned = "yes12345"',
    ],
)
def test_a_password_word_followed_by_words_holds_no_value(text: str) -> None:
    assert scan_for_secrets({"body": text}) == []


def test_long_token_in_a_url_query_is_still_caught() -> None:
    token = _random_token(40, 12)
    findings = scan_for_secrets(
        {"body": f"https://hooks.example.com/notify?channel=ops&token={token}"}
    )
    assert [f.kind for f in findings] == ["high-entropy token"]
    assert token not in findings[0].excerpt


@pytest.mark.parametrize("scheme", ["\u212a", "\u017f", "\u0131"])
def test_a_scheme_of_letters_that_only_fold_to_ascii_is_no_url_hiding_a_token(scheme: str) -> None:
    """The Kelvin sign, the long s and the dotless i fold to k, s and i under re.IGNORECASE:
    the entropy check's URL rule took `\u212a://<token>` for a URL, split the token at its
    slashes and passed it (onehome30: one URL rule now, secret_shapes.URL_PATTERN)."""
    token = "/".join(_random_token(8, seed) for seed in range(5))
    findings = scan_for_secrets({"body": f"see {scheme}://{token} ok"})
    assert [f.kind for f in findings] == ["high-entropy token"]


def test_importing_the_module_does_not_import_detect_secrets() -> None:
    code = "import sys, memdir_nb.security.secret_scan; print('detect_secrets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_scan_does_not_touch_detect_secrets_global_settings() -> None:
    from detect_secrets.settings import get_settings

    before = get_settings().json()
    scan_for_secrets({"body": f"{AWS_KEY}\npassword = {DB_PASSWORD}"})
    assert get_settings().json() == before


@pytest.mark.timeout(60)
def test_a_long_single_line_body_does_not_stall_the_guard() -> None:
    # One 200 KB word used to take minutes (a URL pattern rescanned the line from every
    # letter); the timeout is a hang guard, not a speed target.
    line = "x" * 200_000
    assert scan_for_secrets({"body": line}) == []
    key = "AKIA" + "Q" * 16
    findings = scan_for_secrets({"body": line[:100_000] + " " + key + " " + line[:100_000]})
    assert [f.kind for f in findings] == ["AWS access key"]


# --------------------------------------------------------------------------- corpora (issue 10)


from memdir_nb.security.secret_scan import scan_memory_file  # noqa: E402

_CORPUS = load_benchmark("secret_precision")
BENIGN = _CORPUS.load_corpus("benign.jsonl")
SECRETS = _CORPUS.load_corpus("secrets.jsonl")


def test_corpora_are_large_enough_and_hold_no_whole_fake_secret_on_disk() -> None:
    assert len(BENIGN) >= 50 and len(SECRETS) >= 50
    raw = (_CORPUS.DATA / "secrets.jsonl").read_text(encoding="utf-8")
    assert raw.count(_CORPUS.SPLIT_MARK) >= len(SECRETS)  # every fake key is stored split


@pytest.mark.parametrize("row", BENIGN, ids=[r["id"] for r in BENIGN])
def test_public_identifiers_in_memory_text_are_not_flagged(row: dict[str, Any]) -> None:
    assert scan_for_secrets({"body": row["text"]}) == []


@pytest.mark.parametrize("row", SECRETS, ids=[r["id"] for r in SECRETS])
def test_every_fake_credential_in_the_corpus_is_flagged_and_hidden(row: dict[str, Any]) -> None:
    findings = scan_for_secrets({"body": row["text"]})
    assert findings, row["id"]
    for finding in findings:
        for word in row["text"].split():
            if len(word) >= 24 and any(c.isdigit() for c in word):
                assert word not in finding.excerpt


URL_PASSWORD_CASES = [
    ("https://:" + "hunter2" + "@host/", "hunter2"),
    ("postgres://:" + "p%40ss" + "@db:5432/x", "p%40ss"),
    ("redis://:" + "pw" + "@h", "pw"),
    ("amqp://app:" + "p@ss:w/rd#1?x" + "@mq.internal:5672/", "p@ss:w/rd#1?x"),
    ("https://bob:" + "пароль42" + "@intranet.example/", "пароль42"),
    ("see [db](mysql://svc:" + "Zx9!q" + "@10.0.0.7:3306/shop) for access", "Zx9!q"),
    ("mirror https://a.example/x https://user:" + "k3y-" + "value@b.example/y", "k3y-value"),
]


@pytest.mark.parametrize(("text", "password"), URL_PASSWORD_CASES)
def test_password_in_url_is_found_whatever_it_holds_and_with_no_user(
    text: str, password: str
) -> None:
    findings = scan_for_secrets({"body": text})
    assert [f.kind for f in findings] == ["password in URL"], findings
    assert password not in findings[0].excerpt or len(password) < 3


@pytest.mark.parametrize(
    "text",
    [
        "https://social.example.org:8443/@acme_status",
        "https://mail.example.com:8080/unsub?email=bob@example.com",
        "ssh://git@github.com/acme/ledger.git",
        "postgres://" + "postgres:postgres" + "@localhost:5432/dev",
        "postgres://${DB_USER}:${DB_PASSWORD}@db.internal/app",
        "https://<user>:<token>@git.example.com/org/repo.git",
        "https://user:" + "password" + "@example.com/",
    ],
)
def test_urls_without_a_real_password_are_not_flagged(text: str) -> None:
    assert scan_for_secrets({"body": text}) == []


def test_a_provider_key_inside_a_public_link_is_still_found() -> None:
    doc = "https://docs.google.com/document/d/" + _random_token(44, 300) + "/edit"
    findings = scan_for_secrets({"body": f"{doc}?access_token={_random_token(40, 301)} {AWS_KEY}"})
    assert [f.kind for f in findings] == ["high-entropy token", "AWS access key"]


def test_memory_file_scan_covers_filename_every_header_key_comments_and_index_line() -> None:
    text = (
        "---\nname: Deploy\ndescription: how deploys authenticate\ntype: reference\n"
        f"extra_token: {GITHUB_TOKEN}\n# old key {AWS_KEY}\n---\n\nAsk in #ops.\n"
    )
    findings = scan_memory_file(
        f"notes_{AWS_KEY}.md", text, f"- [Deploy](deploy.md) — key {STRIPE_KEY}"
    )
    where = sorted((f.field, f.line, f.kind) for f in findings)
    assert where == [
        ("file name", 1, "AWS access key"),
        ("index line", 1, "Stripe API key"),
        (f"notes_{AWS_KEY}.md", 5, "GitHub token"),
        (f"notes_{AWS_KEY}.md", 6, "AWS access key"),
    ]


def test_memory_file_scan_decodes_yaml_that_hides_a_key_across_lines_or_escapes() -> None:
    half = len(AWS_KEY) // 2
    # A double-quoted YAML value continued with a backslash joins its lines with no space.
    folded = f'---\nname: x\ndescription: "key {AWS_KEY[:half]}\\\n  {AWS_KEY[half:]}"\ntype: user\n---\n'
    escaped = '---\nname: x\ndescription: "key \\x41' + AWS_KEY[1:] + '"\ntype: user\n---\n'
    for text in (folded, escaped):
        assert AWS_KEY not in text
        findings = scan_memory_file("x.md", text)
        assert [(f.field, f.kind) for f in findings] == [
            ("frontmatter description", "AWS access key")
        ], text


def test_clean_memory_file_scan_is_empty() -> None:
    text = "---\nname: Video sources\ndescription: where the videos live\ntype: reference\n---\n\n"
    text += BENIGN[0]["text"] + "\n"
    assert (
        scan_memory_file("reference_videos.md", text, "- [Videos](reference_videos.md) — x") == []
    )


ADVERSARIAL_WORDS = {
    "keywords": "password" * 16_384,
    "keyword-colons": "password: " * 13_107,
    "quotes-and-keywords": "password('" * 13_107,
    "scheme-chain": "a:b://" * 21_845 + "@h",
    "userinfo": "https://u:" + "p" * 131_072 + "@h",
    "slashes-then-npm": "//" * 65_536 + ":_authToken=",
    "sk-run-with-marker": "sk-" * 43_690 + "T3BlbkFJ",
    "jwt-heads": "eyJ" * 43_690,
    "param-names": "https://youtube.com/x?" + "tokentoken" * 13_107,
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("word", ADVERSARIAL_WORDS.values(), ids=ADVERSARIAL_WORDS.keys())
def test_a_128_kb_adversarial_word_does_not_stall_the_guard(word: str) -> None:
    # Hang guard, not a speed target (benchmarks measure speed): each of these words made a
    # pattern rescan the rest of the line from every position before the scan was linear.
    scan_for_secrets({"body": word})


# ---------------------------------------------------------------- the guard reads as the consumer reads


# A password made at runtime: short, so only the keyword next to it makes it a finding.
DB_PASSWORD = "Zq8!" + "vLp2#rT"
# The characters Python's str.splitlines ends a line at, though a file's reader does not.
NOT_LINE_ENDS = {
    "VT": "\x0b",
    "FF": "\x0c",
    "NEL": "\x85",
    "LINE SEPARATOR": "\u2028",
    "PARAGRAPH SEPARATOR": "\u2029",
}
# Unicode format characters (category Cf): invisible, so the key reads the same with them.
FORMAT_CHARS = {
    "zero-width space": "\u200b",
    "zero-width joiner": "\u200d",
    "soft hyphen": "\u00ad",
    "right-to-left mark": "\u200f",
    "byte order mark": "\ufeff",
}


def _hidden_bodies() -> dict[str, str]:
    """Bodies whose credential a line-splitting or format-blind guard would miss."""
    bodies = {
        f"password and value split by {name}": f"The staging db password:{ch}{DB_PASSWORD}\n"
        for name, ch in NOT_LINE_ENDS.items()
    }
    for name, ch in FORMAT_CHARS.items():
        bodies[f"{name} inside the keyword"] = f"pass{ch}word = {DB_PASSWORD}\n"
        bodies[f"{name} inside the key"] = f"Use {ANTHROPIC_KEY[:12]}{ch}{ANTHROPIC_KEY[12:]}\n"
    # A public id hides itself, never a key glued to its end (where its shape has no boundary)
    glued = {
        "a serial number's 64 characters": f"serial: {'A1' * 32}{HIGH_ENTROPY}\n",
        "a Go module sum": f"h1:{'a' * 43}={HIGH_ENTROPY}\n",
        "a Nix store path's hash": f"/nix/store/{'a' * 32}-{HIGH_ENTROPY}\n",
    }
    bodies.update({f"a key glued past {name}": body for name, body in glued.items()})
    return bodies


HIDDEN = _hidden_bodies()


@pytest.mark.parametrize("body", list(HIDDEN.values()), ids=list(HIDDEN))
def test_a_split_or_disguised_key_is_found_in_the_text(body: str) -> None:
    assert scan_for_secrets({"body": body}), body


def _file(header_extra: str) -> str:
    return f"---\nname: Staging db\ndescription: how to reach staging\ntype: reference\n{header_extra}---\n\nAsk #ops.\n"


# Frontmatter whose key and value sit on different lines, or whose value is not written as read.
HIDDEN_HEADERS = {
    "folded scalar": f"password: >\n  {DB_PASSWORD}\n",
    "literal scalar": f"password: |\n  {DB_PASSWORD}\n",
    "nested literal scalar": f"db:\n  password: |-\n    {DB_PASSWORD}\n",
    "list of folded scalars": f"password:\n  - >-\n    {DB_PASSWORD}\n",
    "quoted scalar with an escape": 'password: "\\x5A' + DB_PASSWORD[1:] + '"\n',
}


@pytest.mark.parametrize("extra", list(HIDDEN_HEADERS.values()), ids=list(HIDDEN_HEADERS))
def test_decoded_yaml_values_are_scanned_with_their_keys(extra: str) -> None:
    findings = scan_memory_file("team/db.md", _file(extra))
    assert any(f.field.startswith("frontmatter ") for f in findings), findings


@pytest.mark.parametrize("body", list(HIDDEN.values()), ids=list(HIDDEN))
def test_a_team_save_refuses_a_split_or_disguised_key(tmp_path: Path, body: str) -> None:
    store = MemoryStore(tmp_path)
    with pytest.raises(SecretInTeamMemoryError):
        store.save("Staging db", "how to reach staging", "reference", body, scope="team")
    assert not (tmp_path / "team").exists() or not list((tmp_path / "team").glob("*.md"))


# Lint's own public contexts (an address line, a session id, a memory about Google Drive), each
# on a line that speaks of a credential: the guard finds the key, and so must lint.
B58_TOKEN = _random_token(40, 21, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
LINT_CONTEXTS = {
    "wallet line": f"Phantom wallet RPC api token = {B58_TOKEN}\n",
    "on-chain line": f"on-chain signer password: {B58_TOKEN}\n",
    "pubkey line": f"pubkey service, API_KEY={B58_TOKEN}\n",
    "session id": f"session token ses_{HIGH_ENTROPY.replace('+', 'x').replace('/', 'y')}\n",
    "Google Drive memory": f"Specs live in Google Drive.\n\nDeploy API token: {B58_TOKEN}\n",
}


@pytest.mark.parametrize("body", list(LINT_CONTEXTS.values()), ids=list(LINT_CONTEXTS))
def test_lint_context_never_hides_a_key_on_a_line_that_speaks_of_a_credential(
    tmp_path: Path, body: str
) -> None:
    assert scan_for_secrets({"body": body}), body  # the team guard's verdict
    with pytest.raises(SecretInTeamMemoryError):
        MemoryStore(tmp_path).save("Deploy", "how deploys run", "reference", body, scope="team")
    # a teammate's file that came another way (a git pull): lint is its check
    (tmp_path / "team").mkdir(exist_ok=True)
    (tmp_path / "team" / "reference_deploy.md").write_text(
        f"---\nname: Deploy\ndescription: how deploys run\ntype: reference\n---\n\n{body}"
    )
    found = [f for f in lint_memory_dir(tmp_path) if f.rule == "secret"]
    assert [(f.path, f.severity) for f in found] == [("team/reference_deploy.md", "error")]


@pytest.mark.parametrize("extra", list(HIDDEN_HEADERS.values()), ids=list(HIDDEN_HEADERS))
def test_a_team_write_refuses_a_key_hidden_by_yaml(tmp_path: Path, extra: str) -> None:
    # The route of dream apply and the extractor's Write: a whole file written into team/.
    (tmp_path / "team").mkdir()
    with pytest.raises(SecretInTeamMemoryError), open_transaction(tmp_path) as tx:
        tx.write("team/db.md", _file(extra))
    assert not (tmp_path / "team" / "db.md").exists()


@pytest.mark.parametrize(
    "text",
    [_file("").replace("Ask #ops.", body.strip()) for body in HIDDEN.values()]
    + [_file(extra) for extra in HIDDEN_HEADERS.values()],
    ids=[*HIDDEN, *HIDDEN_HEADERS],
)
def test_lint_finds_a_split_disguised_or_yaml_hidden_key(tmp_path: Path, text: str) -> None:
    (tmp_path / "team").mkdir()
    (tmp_path / "team" / "db.md").write_text(text, encoding="utf-8")
    (tmp_path / "team" / "MEMORY.md").write_text("- [Staging db](db.md) — how to reach staging\n")
    secret = [f for f in lint_memory_dir(tmp_path) if f.rule == "secret"]
    assert secret and secret[0].severity == "error", text
    assert secret[0].line is not None and 1 <= secret[0].line <= text.count("\n")


# ---- narrowing: detectors that cannot fire anywhere in a text are skipped on its lines


@pytest.mark.parametrize(
    "text",
    [
        "plain prose about deploy windows\nand a second line",
        "token: ghp_" + "a1B2" * 9 + "\nnothing here",
        "see https://user:hunter2pass@db.internal:5432/app\nAuthorization: Basic dXNlcjpwYXNzd29yZA==",
        "key = 'Zx9kQ2mP7vL4nR8tW1yB'\n" + "x" * 2500 + " AKIA" + "B" * 16,
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
    ],
    ids=["none", "github", "url and basic auth", "long line", "pem"],
)
def test_narrowed_detectors_find_exactly_what_all_detectors_find(text: str) -> None:
    from memdir_nb.security.secret_detect import line_hits, load_detectors, narrow_detectors

    det = load_detectors()
    narrowed = narrow_detectors(det, text)
    for line in text.splitlines():
        expected = line_hits(line, det)
        assert (line_hits(line, narrowed) if narrowed["anything"] else []) == expected
    if text.startswith("plain prose"):
        assert narrowed["anything"] is False  # nothing left to run: the lines are skipped


# ---- the cheap prefilter in front of the detectors: it never skips a text a detector matches


def _token_samples() -> list[str]:
    """One fake token per detector shape (assembled from pieces), plus near misses."""
    lower = string.ascii_lowercase + string.digits
    return [
        AWS_KEY,
        GITHUB_TOKEN,
        SLACK_TOKEN,
        "xo" + "xb-1-a",
        STRIPE_KEY,
        JWT,
        "ey" + "Ja.b",
        ANTHROPIC_KEY,
        OPENAI_LEGACY,
        HIGH_ENTROPY,
        HEX_SECRET,
        "gl" + "pat-" + _random_token(20, 20),
        "S" + "G." + _random_token(22, 21) + "." + _random_token(43, 22),
        "A" + "C" + _random_token(32, 23, lower),
        "M" + _random_token(23, 24) + "." + _random_token(6, 25) + "." + _random_token(27, 26),
        "12345678" + ":" + _random_token(35, 27),
        "1234567" + ":" + _random_token(35, 28),
        "١٢٣٤٥٦٧٨" + ":" + _random_token(35, 29),
        _random_token(32, 30, lower) + "-us" + "7",
        "Account" + "Key=" + _random_token(88, 31, string.ascii_letters + string.digits + "+/"),
        "hf" + "_" + _random_token(34, 32),
        "AI" + "za" + _random_token(35, 33),
        "hv" + "s." + _random_token(24, 34),
        "npm" + "_" + _random_token(36, 35),
        ":_auth" + "Token=" + _random_token(36, 36, "0123456789abcdef-"),
        "wh" + "sec_" + _random_token(24, 37),
        "Bearer " + BEARER,
        "Bearer " + "ab.cd~ef.gh~ij.kl~mn",
        "Basic " + base64.b64encode(b"ann:hunter22").decode(),
        PEM_BEGIN,
        f"password = {DB_PASSWORD}",
        "secret: 'x'",
        "https://ann:" + URL_PASSWORD + "@db.internal/app",
        _random_token(19, 38),
        _random_token(20, 39),
        "deploy",
        "ünïcödé",
        "\u200b",
        "Ａ" * 3,
    ]


_GLUE = ["", " ", "\n", ":", "-", "_", ".", "=", "'", "/", "é"]


@pytest.mark.parametrize("seed", range(40))
def test_narrowed_detectors_match_all_detectors_on_seeded_random_texts(seed: int) -> None:
    from memdir_nb.security.secret_detect import line_hits, load_detectors, narrow_detectors

    det = load_detectors()
    rng = random.Random(seed)
    pieces = _token_samples() + [c[1] for c in KIND_CASES] + CLEAN_TEXTS
    for _ in range(10):
        parts = [rng.choice(pieces) for _ in range(rng.randint(1, 6))]
        if rng.random() < 0.1:
            parts.append("x" * 2100)  # a line longer than the detectors' pattern window
        text = "".join(p + rng.choice(_GLUE) for p in parts)
        narrowed = narrow_detectors(det, text)
        for line in text.split("\n"):
            expected = line_hits(line, det)
            got = line_hits(line, narrowed) if narrowed["anything"] else []
            assert got == expected, (seed, line)


@pytest.mark.parametrize("seed", range(20))
def test_token_run_check_agrees_with_the_entropy_pattern(seed: int) -> None:
    from memdir_nb.security.secret_detect import _ENTROPY_CANDIDATE, has_token_run

    rng = random.Random(seed)
    alphabet = string.ascii_letters + string.digits + "+/=_- .:\n'é١Ａ\u200b"
    for _ in range(200):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        text = text.replace(" ", " " * rng.randint(0, 1))
        assert has_token_run(text) is (_ENTROPY_CANDIDATE.search(text) is not None), text


def _run_kind_patterns() -> list[tuple[str, str, int]]:
    from memdir_nb.security.secret_detect import RUN_KINDS, load_detectors
    from memdir_nb.security.secret_shapes import SUPPLEMENTARY_PATTERNS

    det = load_detectors()
    out = [(k, r.pattern, r.flags) for k, rs, _ in det["providers"] for r in rs if k in RUN_KINDS]
    out += [(k, r.pattern, r.flags) for k, r in SUPPLEMENTARY_PATTERNS if k in RUN_KINDS]
    return out


def test_every_run_kind_names_a_detector() -> None:
    from memdir_nb.security.secret_detect import RUN_KINDS

    assert {k for k, _, _ in _run_kind_patterns()} == RUN_KINDS


@pytest.mark.parametrize(("kind", "pattern", "flags"), _run_kind_patterns())
def test_every_ascii_match_of_a_run_kind_holds_a_run_of_token_characters(
    kind: str, pattern: str, flags: int
) -> None:
    """Strings generated to match each pattern (ASCII) all hold the run the prefilter needs."""
    import re

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from memdir_nb.security.secret_detect import has_token_run

    # A lookbehind cannot be generated: match the text it looks behind for, then the token.
    pattern = pattern.replace("(?<=:_authToken=)", ":_authToken=")
    regex = re.compile(pattern, flags)

    @settings(
        max_examples=150,
        derandomize=True,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.from_regex(regex, fullmatch=True, alphabet=st.characters(codec="ascii")))
    def check(match: str) -> None:
        assert has_token_run(match), (kind, match)

    check()


# ---- attack round 8: lint's other rules never quote a credential; lint reads the indexes too

# 40 hex digits: a token, or a commit id
HEX_TOKEN = "3f9a2c1d" + "8b7e6f5a" + "4d3c2b1a" + "0f9e8d7c" + "6b5a4f3e"
QUOTED_ELSEWHERE = {
    # (file, what the file holds): each makes another rule quote the line holding the key
    "inline hash value": ("team/project_a.md", f"description: api key {GITHUB_TOKEN} #prod\n"),
    "unknown type": ("team/project_a.md", f"type: {ANTHROPIC_KEY}\n"),
    "git commit id": ("team/project_a.md", f"body: the bot uses token: {HEX_TOKEN} to push\n"),
    "vague description": ("team/project_a.md", f"description: {GITHUB_TOKEN}\n"),
    "index target": ("team/MEMORY.md", f"- [Key]({GITHUB_TOKEN}.md) — the deploy key\n"),
    "index outside link": ("team/MEMORY.md", f"- [Key](../{GITHUB_TOKEN}.md) — the deploy key\n"),
}


def _memory_with(line: str) -> str:
    header = {"description": "how the deploy bot reaches the package registry", "type": "project"}
    key, _, value = line.partition(": ")
    body = "The bot reads its token from the vault.\n"
    if key == "body":
        body = value
    elif key in header:
        header[key] = value.rstrip("\n")
    return (
        f"---\nname: deploy bot\ndescription: {header['description']}\ntype: {header['type']}\n"
        f"---\n{body}"
    )


@pytest.mark.parametrize("where", list(QUOTED_ELSEWHERE.values()), ids=list(QUOTED_ELSEWHERE))
def test_lint_never_quotes_a_credential_in_another_rules_message(
    tmp_path: Path, where: tuple[str, str]
) -> None:
    path, line = where
    (tmp_path / "team").mkdir()
    if path.endswith("MEMORY.md"):
        (tmp_path / "team" / "project_a.md").write_text(_memory_with("x: y"))
        (tmp_path / path).write_text(f"- [A](project_a.md) — the bot\n{line}")
    else:
        (tmp_path / path).write_text(_memory_with(line))
        (tmp_path / "team" / "MEMORY.md").write_text("- [A](project_a.md) — the bot\n")
    findings = lint_memory_dir(tmp_path)
    assert any(f.rule == "secret" and f.path == path for f in findings)  # the key is found
    assert len([f for f in findings if f.path == path]) > 1  # and another rule quotes its line
    for f in findings:
        for key in (GITHUB_TOKEN, ANTHROPIC_KEY, HEX_TOKEN):
            assert key not in f.message and key not in f.hint, (f.rule, f.message)


@pytest.mark.parametrize(("scope", "severity"), [("team", "error"), ("", "warning")])
def test_lint_finds_a_credential_in_an_index_line(
    tmp_path: Path, scope: str, severity: str
) -> None:
    # Every line of MEMORY.md within the caps is in the prompt (a team index in every
    # teammate's), and a pulled index never passed the team guard.
    folder = tmp_path / scope if scope else tmp_path
    folder.mkdir(exist_ok=True)
    (folder / "project_a.md").write_text(_memory_with("x: y"))
    (folder / "MEMORY.md").write_text(f"- [A](project_a.md) — the bot, token {GITHUB_TOKEN}\n")
    rel = f"{scope}/MEMORY.md" if scope else "MEMORY.md"
    found = [f for f in lint_memory_dir(tmp_path) if f.rule == "secret"]
    assert [(f.path, f.severity, f.line) for f in found] == [(rel, severity, 1)]
    assert GITHUB_TOKEN not in found[0].message


def test_lint_finds_a_credential_in_an_index_link_target_on_its_own_line(tmp_path: Path) -> None:
    # link targets are scanned as written (lint's context masks file names), all in one field
    (tmp_path / "project_a.md").write_text(_memory_with("x: y"))
    (tmp_path / "MEMORY.md").write_text(
        "# Index\n\n- [A](project_a.md) — first\n"
        f"- [B](notes/{GITHUB_TOKEN}.md) — second\n- [C](project_c.md) — third\n"
    )
    found = [f for f in lint_memory_dir(tmp_path) if f.rule == "secret"]
    assert [(f.path, f.line) for f in found] == [("MEMORY.md", 4)]
    assert GITHUB_TOKEN not in found[0].message


def test_masking_found_values_hides_every_occurrence_and_keeps_the_rest() -> None:
    findings, values = scan_with_values({"body": f"token: {GITHUB_TOKEN}"})
    assert findings and values == {GITHUB_TOKEN}
    quoted = f"see {GITHUB_TOKEN[:20]}\u200b{GITHUB_TOKEN[20:]} and {GITHUB_TOKEN}."
    masked = mask_secret_values(quoted, values)
    assert GITHUB_TOKEN not in masked and masked.startswith("see ghp_…[40 chars] and ")
    assert mask_secret_values("nothing here", values) == "nothing here"
    assert mask_secret_values(quoted, frozenset()) == quoted


def test_lint_finds_a_credential_in_a_memory_file_name(tmp_path: Path) -> None:
    # the team guard refuses such a name on every write; one that arrives by git pull is
    # lint's to find, listed in no index or in one
    (tmp_path / "team").mkdir()
    name = f"project_{GITHUB_TOKEN}.md"
    (tmp_path / "team" / name).write_text(_memory_with("x: y"))
    found = [f for f in lint_memory_dir(tmp_path) if f.rule == "secret"]
    assert [(f.path, f.severity, f.line) for f in found] == [(f"team/{name}", "error", None)]
    assert GITHUB_TOKEN not in found[0].message


@pytest.mark.parametrize(
    "body",
    [
        "The staging db password is: Tq7rLm2Zx9",
        'root password was "Hv4!pQz8Lr"',
        "admin password is **Tq7rLm2Zx9**",
        "db password for prod is Tq7rLm2Zx9",
    ],
)
def test_a_team_save_refuses_a_password_written_in_prose(tmp_path: Path, body: str) -> None:
    # attack round 8: each of these shapes was saved into team memory
    with pytest.raises(SecretInTeamMemoryError):
        MemoryStore(tmp_path).save("Staging", "reaching staging", "reference", body, scope="team")
    assert not (tmp_path / "team").exists() or not list((tmp_path / "team").glob("*.md"))


def test_the_excerpts_of_many_hits_on_one_long_line_take_linear_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # attack round 14: each hit's excerpt stripped the whole redacted line again, so a line of
    # n hits cost n copies of it: a 4 MB team entry of `password: …` in an archive took 160 s to
    # import-check (10 s once the line is stripped once). The hits are handed in directly here,
    # so the test times the excerpts alone: 2,500 hits on a 130 KB line against 20,000 on 1 MB.
    # (It asserted under 0.5 s of CPU, 1.6 s before the fix; a full run here took 0.51 s.)
    def excerpts(n_hits: int) -> Callable[[], list[secret_scan.SecretFinding]]:
        line = "pw: 12345678 " * (4 * n_hits)
        hits = [
            Hit("password assignment", i * 13 + 4, i * 13 + 12, 1) for i in range(0, 4 * n_hits, 4)
        ]
        monkeypatch.setattr(secret_scan, "_line_hits", lambda text, det: iter([(1, line, hits)]))
        return lambda: secret_scan._scan_lines("body", line, {}, set())

    # eight times the hits: linear work took 10.5-10.9 times the CPU here, quadratic about 64
    assert growth_ratio(excerpts, 2_500, 20_000) < 20
    findings = excerpts(20_000)()
    assert len(findings) == 20_000 and all(len(f.excerpt) < 120 for f in findings)


def test_memories_naming_subagent_worktrees_have_no_secret_and_save_to_team(
    real_dir: Callable[[str], Path], tmp_path: Path
) -> None:
    # real35: "worktree agent-abfa… review-fixed" in a published memory was a `secret` warning;
    # in a team memory the same id is an error, and the team guard refused to save it
    root = real_dir("subagent-notes")
    assert [f for f in lint_memory_dir(root) if f.rule == "secret"] == []
    body = (root / "team" / "project_worktree_cleanup.md").read_text(encoding="utf-8")
    body = body.split("---\n", 2)[2]
    store = MemoryStore(tmp_path / "mem")
    saved = store.save("Worktree cleanup", "stale worktrees", "project", body, scope="team")
    assert Path(saved).read_text(encoding="utf-8").count("agent-a") == 4
