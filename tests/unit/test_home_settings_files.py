"""home/settings_files.py: the settings layers, their trust order, and reading one file.

How a MemdirConfig reads every layer (bad JSON, links, caps, encodings) is in test_config.py,
which builds configs from real files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memdir_nb.home.settings_files import (
    ALL_LAYERS,
    TRUSTED_LAYERS,
    SettingsLayers,
    default_policy_settings_path,
    load_settings_file,
)


def test_the_project_layer_is_last_and_never_trusted() -> None:
    assert TRUSTED_LAYERS == ("policy", "flag", "local", "user")
    assert (*TRUSTED_LAYERS, "project") == ALL_LAYERS


def test_trusted_values_lists_every_trusted_layer_in_order() -> None:
    layers = SettingsLayers(
        policy={}, flag={"x": 1}, local={"x": None}, user={"x": 3}, project={"x": 4}
    )
    assert layers.trusted_values("x") == [(1, "flag"), (3, "user")]


def test_unknown_layer_name_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="policy, flag, local, user, project"):
        SettingsLayers().layer("enterprise")


def test_load_settings_file_with_no_path_is_empty() -> None:
    assert load_settings_file(None, "flag") == ({}, None)


def test_default_policy_path_per_platform() -> None:
    assert default_policy_settings_path("linux") == Path("/etc/claude-code/managed-settings.json")
    assert "ClaudeCode" in str(default_policy_settings_path("darwin"))
