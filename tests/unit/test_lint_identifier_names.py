"""lint/identifier_names.py: which tokens are names, not keys, for lint's secret rule."""

from __future__ import annotations

import pytest

from memdir_nb.lint.identifier_names import looks_like_identifier


@pytest.mark.parametrize(
    ("token", "name"),
    [
        ("Level15GSF_NoDrop_K16", True),
        ("Base12RNN_NoNorm", True),
        ("sk_test_1234567890abcdefghij", False),  # a key's known prefix
        ("aB3dEf9GhIj_kLm2NoP", False),  # short runs: random
        ("tok_9fK2mQ8rT4vX1zB7nC3pL6", False),
        ("rk_live_1234567890abcdefghij", False),  # no capitalised word
    ],
)
def test_a_variants_snake_case_name_of_words_acronyms_and_numbers_is_an_identifier(
    token: str, name: bool
) -> None:
    assert looks_like_identifier(token) is name
