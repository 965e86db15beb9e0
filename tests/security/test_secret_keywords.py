"""The keyword detector's values: what after a credential word is a value written down."""

from __future__ import annotations

import pytest
from detect_secrets.filters import heuristic

from memdir_nb.security.secret_keywords import keyword_spans, plausible_keyword_value


def _values(line: str) -> list[tuple[str, str]]:
    return [(kind, line[a:b]) for kind, a, b in keyword_spans(line, heuristic)]


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("admin pw `Hv4!pQz8Lr`, then sudo", "Hv4!pQz8Lr"),
        ("the root password is Tq7rLm2Zx9.", "Tq7rLm2Zx9"),
        ("passwd Kd93mZ!aq (rotated monthly)", "Kd93mZ!aq"),
        ("router pw `48151623`", "48151623"),
        # attack round 8: the same sentence written a little differently
        ("the root password is: Tq7rLm2Zx9", "Tq7rLm2Zx9"),
        ('the root password is "Hv4!pQz8Lr"', "Hv4!pQz8Lr"),
        ("the root password was 'Hv4!pQz8Lr'", "Hv4!pQz8Lr"),
        ("the root password is now `Tq7rLm2Zx9`", "Tq7rLm2Zx9"),
        ("the admin password is **Tq7rLm2Zx9**", "Tq7rLm2Zx9"),
        ("db password for prod is Tq7rLm2Zx9", "Tq7rLm2Zx9"),
        ("password for staging: Kd93mZ!aq", "Kd93mZ!aq"),
    ],
)
def test_a_password_in_prose_is_its_value_alone(line: str, value: str) -> None:
    assert _values(line) == [("password assignment", value)]


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("- \u5bc6\u7801\uff1aKiln2026x", "Kiln2026x"),  # 密码：, a full-width colon
        ("- \u6570\u636e\u5e93\u5bc6\u7801: Glz.4471a", "Glz.4471a"),  # 数据库密码:
        ("\u5bc6\u78bc\uff1a `Hv4!pQz8Lr`", "Hv4!pQz8Lr"),  # 密碼：
        ("\u30d1\u30b9\u30ef\u30fc\u30c9\uff1aTq7rLm2Zx9", "Tq7rLm2Zx9"),  # パスワード：
        ("\ube44\ubc00\ubc88\ud638: Kd93mZ!aq", "Kd93mZ!aq"),  # 비밀번호:
    ],
)
def test_a_password_under_a_chinese_japanese_or_korean_label_is_its_value(
    line: str, value: str
) -> None:
    # realdata34: a real Chinese memory index held `密码：<password>` and lint said nothing
    assert set(_values(line)) == {("password assignment", value)}


@pytest.mark.parametrize(
    "line",
    [
        "- \u5bc6\u7801\uff1a\u89c1\u5bc6\u7801\u7ba1\u7406\u5668",  # 密码：见密码管理器 (in the manager)
        "- \u5fd8\u8bb0\u5bc6\u7801\u65f6\u70b9\u91cd\u7f6e",  # 忘记密码时点重置 (prose)
        "- \u5bc6\u7801\uff1a<\u4f60\u7684\u5bc6\u7801>",  # 密码：<你的密码> (a placeholder)
    ],
)
def test_a_chinese_password_label_without_a_value_is_no_value(line: str) -> None:
    assert _values(line) == []


def test_an_assignment_names_its_kind_by_its_word() -> None:
    assert _values('db_password = "s3cr3t-v4lue"') == [("password assignment", "s3cr3t-v4lue")]
    assert _values("api_key: AbCd1234EfGh") == [("secret assignment", "AbCd1234EfGh")]


@pytest.mark.parametrize(
    "value",
    ["vault", "2026-06-02", "${DB_PASSWORD}", "<password>", "changeme", "pa-...", "os.environ["],
)
def test_prose_dates_placeholders_and_lookups_are_no_values(value: str) -> None:
    assert not plausible_keyword_value(value, False, heuristic)


@pytest.mark.parametrize(
    "line",
    [
        'the password is "required"',  # a quoted word: a value needs a digit or a symbol
        "user reverted to **password auth** (no key)",  # bold markup is no symbol of a value
        "- [Agent PWD = worktree](feedback_agent_pwd.md) — cd first",  # a link target no value
        "the password for prod is stored in the vault",
    ],
)
def test_password_words_in_prose_and_markup_are_no_values(line: str) -> None:
    assert _values(line) == []


@pytest.mark.parametrize(
    "line",
    [
        # a published dir: the name of a Secret Manager entry, in backticks
        "| Gatekeeper | Secret Manager secret: `Google-Cloud-idaho-vault-sync-service` | live |",
        "deploy token: `ci_release_bot_token` (in the CI settings)",
    ],
)
def test_a_credential_named_by_words_joined_with_hyphens_is_no_value(line: str) -> None:
    assert _values(line) == []


def test_words_joined_with_hyphens_after_a_password_word_are_still_a_value() -> None:
    line = "wifi password: `correct-horse-battery-staple`"  # a passphrase is made of words
    assert ("password assignment", "correct-horse-battery-staple") in _values(line)
    assert _values("api_key: `sk-live-4f9aQ2x7Lm`") == [("secret assignment", "sk-live-4f9aQ2x7Lm")]


@pytest.mark.parametrize(
    "line",
    [
        # a published agent memory lists each tool's hints after its name (fortieth session)
        "- reset_guest_password: Destructive=true, Idempotent=true (same value twice, same state)",
        "- rotate_api_key: Destructive=true, Idempotent=false",
        "db_password: mode=readonly (the role, not the secret)",
    ],
)
def test_a_setting_listed_after_a_tool_named_for_a_password_is_no_value(line: str) -> None:
    assert _values(line) == []


def test_a_value_with_a_digit_or_in_quotes_after_the_label_is_still_a_value() -> None:
    assert ("password assignment", "Pass=word9") in _values("admin_password: Pass=word9")
    assert ("password assignment", "Open=sesame") in _values('guest_password: "Open=sesame"')


@pytest.mark.parametrize(
    "line",
    [
        # real41: a VB.NET port's notes list each form and the controls swapped in it
        "- FrmLogonPassword: AxOldKnob\u2192Button",
        "- FrmPasswordReset: AxOldKnob \u2192 Button, OldGrid\u2192DataGridView",
        "- dlgPassword: LegacySpinner -> NumericUpDown",
    ],
)
def test_a_form_named_for_a_password_and_the_controls_replaced_in_it_is_no_value(line: str) -> None:
    assert _values(line) == []


def test_a_value_with_a_digit_before_an_arrow_or_in_quotes_is_still_a_value() -> None:
    assert ("password assignment", "Hunter2->x") in _values("db_password: Hunter2->x")
    assert ("password assignment", "Open\u2192Sesame") in _values(
        'guest_password: "Open\u2192Sesame"'
    )


@pytest.mark.parametrize(
    "line",
    [
        # real42: an ERP's mail settings say what the password is like, not what it is
        "- Password: 16-char App Password made under the sender's mail account",
        "- SMTP password: 16-chars, kept in the site config",
        "- Vault password: 12-character passphrase, ask the office manager",
    ],
)
def test_a_length_and_its_unit_after_a_password_label_is_no_value(line: str) -> None:
    assert _values(line) == []


def test_a_password_holding_a_length_word_with_more_to_it_is_still_a_value() -> None:
    assert ("password assignment", "16charZx9!") in _values("password: 16charZx9!")
    assert ("password assignment", "8-chars!x") in _values("password = 8-chars!x")
    assert ("password assignment", "16-char") in _values('password: "16-char"')


@pytest.mark.parametrize(
    "line",
    [
        # real44: a deploy checklist shows which key goes in each variable
        "RAZORPAY_WEBHOOK_SECRET=whsec_xxxxx",
        'api_key: "re_xxxxxxxxxxxx"',
        "- client_secret: sk_test_XXXXXXXX (from the dashboard)",
        "SESSION_SECRET=app-prod-********",
        "RESEND_API_KEY=re_xxxxx  # OR SENDGRID_API_KEY=SG.xxxxx",
    ],
)
def test_a_keys_prefix_followed_by_a_run_of_marks_is_no_value(line: str) -> None:
    assert _values(line) == []


def test_a_prefix_with_anything_but_one_mark_after_it_is_still_a_value() -> None:
    assert ("secret assignment", "whsec_x9Kq2LmZ0pQ") in _values("SECRET=whsec_x9Kq2LmZ0pQ")
    assert ("secret assignment", "whsec_xxxx9") in _values("SECRET=whsec_xxxx9")
