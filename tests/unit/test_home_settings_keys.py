"""The memory settings keys: the type each must have, and a key written inside an env block."""

from __future__ import annotations

from memdir_nb.home.settings_keys import (
    MEMORY_SETTINGS_KEYS,
    setting_in_env_block,
    typed_key_problems,
)


def test_each_memory_key_of_the_wrong_type_is_one_problem_and_null_counts_as_unset() -> None:
    data = {"autoMemoryEnabled": 1, "autoMemoryDirectory": ["/srv"], "autoDreamEnabled": None}
    problems = typed_key_problems("user", "/h/.claude/settings.json", data)
    assert len(problems) == 2
    assert all(p.startswith("user settings /h/.claude/settings.json: ") for p in problems)
    assert "autoMemoryEnabled must be true or false, got 1;" in problems[1]
    assert typed_key_problems("user", "p", {"autoMemoryEnabled": False}) == []


def test_a_quoted_boolean_word_is_called_a_string_and_given_its_json_spelling() -> None:
    (problem,) = typed_key_problems("local", "p", {"autoDreamEnabled": " TRUE"})
    assert 'got the string " TRUE"; write it without the quotes, as true' in problem
    (other,) = typed_key_problems("local", "p", {"autoDreamEnabled": "yes"})
    assert "got 'yes'" in other and "without the quotes" not in other


def test_only_the_memory_keys_are_settings_written_in_the_wrong_place() -> None:
    assert setting_in_env_block("user", "p", "CLAUDE_CODE_DISABLE_AUTO_MEMORY", "1") is None
    assert set(MEMORY_SETTINGS_KEYS) == {
        "autoMemoryDirectory",
        "autoMemoryEnabled",
        "autoDreamEnabled",
    }
    home = setting_in_env_block("user", "p", "autoMemoryDirectory", "~/kiln/memory")
    assert home is not None and home.endswith('as "autoMemoryDirectory": "~/kiln/memory".')
    repo = setting_in_env_block("project", "p", "autoMemoryDirectory", "/srv/kiln")
    assert repo is not None and "top level of user or local settings" in repo
    off = setting_in_env_block("policy", "p", "autoMemoryEnabled", "False")
    assert off is not None and '"autoMemoryEnabled": false (or, to keep it in env' in off


def test_a_huge_value_in_an_env_block_is_quoted_cut() -> None:
    said = setting_in_env_block("user", "p", "autoMemoryDirectory", "/m" + "x" * 1_000_000)
    assert said is not None and "..." in said and len(said) < 500
