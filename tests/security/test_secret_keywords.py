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
    ],
)
def test_a_password_in_prose_is_its_value_alone(line: str, value: str) -> None:
    assert _values(line) == [("password assignment", value)]


def test_an_assignment_names_its_kind_by_its_word() -> None:
    assert _values('db_password = "s3cr3t-v4lue"') == [("password assignment", "s3cr3t-v4lue")]
    assert _values("api_key: AbCd1234EfGh") == [("secret assignment", "AbCd1234EfGh")]


@pytest.mark.parametrize(
    "value",
    ["vault", "2026-06-02", "${DB_PASSWORD}", "<password>", "changeme", "pa-...", "os.environ["],
)
def test_prose_dates_placeholders_and_lookups_are_no_values(value: str) -> None:
    assert not plausible_keyword_value(value, False, heuristic)
