"""Claude Code's settings files: the five layers, which of them are trusted, and reading one.

A settings.json is read at five places (policy, flag, local, user and project layers, most
trusted first); each is read bounded, as a regular file only, and an unusable one counts as
empty with a problem that names the file and the fix, as Claude Code ignores it whole. The
project layer is a repository's own file: parsed, but never trusted for where memory lives.
home.config builds a MemdirConfig's `settings` from here (read_settings_layers); doctor, where
and the memory-dir reports read single files with load_settings_file.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memdir_nb.formats.jsonio import JSONLimitError, json_error_cause, loads_bounded, utf8_json_text
from memdir_nb.home.settings_keys import typed_key_problems
from memdir_nb.home.warn_once import WarnedOnce
from memdir_nb.security.log_lines import OneLineRecords
from memdir_nb.spec.constants import SETTINGS_READ_MAX_BYTES
from memdir_nb.storage.containment import same_real_path
from memdir_nb.storage.regular_file import read_regular_file

logger = logging.getLogger(__name__)
logger.addFilter(WarnedOnce())  # each layer builds a config; each problem is told once
logger.addFilter(OneLineRecords())  # on one line, whatever path it names (attack round 26)

# Settings layers in trust order, most trusted first. Project settings are parsed but never
# trusted for where memory lives: a cloned repo must not be able to point writes at ~/.ssh.
TRUSTED_LAYERS: tuple[str, ...] = ("policy", "flag", "local", "user")
ALL_LAYERS: tuple[str, ...] = (*TRUSTED_LAYERS, "project")


def default_policy_settings_path(platform: str | None = None) -> Path:
    """Where managed (policy) settings live on this platform, as Claude Code looks for them."""
    platform = platform or sys.platform
    if platform == "darwin":
        return Path("/Library/Application Support/ClaudeCode/managed-settings.json")
    if platform.startswith("win"):
        return Path(r"C:\ProgramData\ClaudeCode\managed-settings.json")
    return Path("/etc/claude-code/managed-settings.json")


@dataclass(frozen=True)
class SettingsLayers:
    """Parsed settings.json objects per layer ({} when a file is absent or unusable)."""

    policy: dict[str, Any] = field(default_factory=dict)
    flag: dict[str, Any] = field(default_factory=dict)
    local: dict[str, Any] = field(default_factory=dict)
    user: dict[str, Any] = field(default_factory=dict)
    project: dict[str, Any] = field(default_factory=dict)
    paths: dict[str, Any] = field(default_factory=dict)  # layer -> its file (read or would be)

    def layer(self, name: str) -> dict[str, Any]:
        """The parsed object of one layer by name."""
        if name not in ALL_LAYERS:
            raise ValueError(f"unknown settings layer {name!r}; use one of {', '.join(ALL_LAYERS)}")
        value: dict[str, Any] = getattr(self, name)
        return value

    def describe(self, name: str) -> str:
        """A layer as people name it: 'user settings (/home/me/.claude/settings.json)'."""
        path = self.paths.get(name)
        return f"{name} settings ({path})" if path else f"{name} settings"

    def trusted_values(self, key: str) -> list[tuple[object, str]]:
        """Every (value, layer) for ``key`` in trusted layers, most trusted first; never project."""
        found: list[tuple[object, str]] = []
        for name in TRUSTED_LAYERS:
            data = getattr(self, name)
            if key in data and data[key] is not None:
                found.append((data[key], name))
        return found

    def trusted_value(self, key: str) -> tuple[object, str] | None:
        """The (value, layer) of the most trusted layer that sets ``key``; project is never used."""
        found = self.trusted_values(key)
        return found[0] if found else None


def load_settings_file(path: Path | str | None, layer: str) -> tuple[dict[str, Any], str | None]:
    """Parse one settings file; returns (object or {}, problem text or None). Never raises."""
    if path is None:
        return {}, None
    path = Path(path)

    try:  # a regular file only (a FIFO planted by a repository must not hang us), bounded
        res = read_regular_file(path, SETTINGS_READ_MAX_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        return {}, _dangling_link_problem(path, layer)
    except OSError as exc:
        problem = f"{layer} settings {path}: cannot read ({type(exc).__name__}: {exc}); ignored"
        logger.warning(problem)
        return {}, problem
    if res.truncated:  # Claude Code's own settings files are a few KB; this is likely not one
        problem = (
            f"{layer} settings {path}: the file is {res.total_size:,} bytes, over the "
            f"{SETTINGS_READ_MAX_BYTES:,}-byte limit and far larger than a settings file gets; "
            "it was not read. Check that it is the settings file you meant, then trim it."
        )
        logger.warning(problem)
        return {}, problem
    try:
        text = utf8_json_text(res.data)
    except ValueError as exc:
        problem = f"{layer} settings {path}: the file {exc}; ignored whole, as Claude Code does"
        logger.warning(problem)
        return {}, problem
    if not text.strip():
        return {}, None
    try:
        data = loads_bounded(text, max_bytes=SETTINGS_READ_MAX_BYTES, what="the JSON")
    except JSONLimitError as exc:
        problem = (
            f"{layer} settings {path}: {exc}; ignored. Flatten or shorten the file, or delete it."
        )
        logger.warning(problem)
        return {}, problem
    except json.JSONDecodeError as exc:
        cause = json_error_cause(text, exc)
        found = f"{cause} at line {exc.lineno}" if cause else f"{exc.msg} at line {exc.lineno}"
        problem = (
            f"{layer} settings {path}: not valid JSON ({found}, column {exc.colno}); "
            "the whole file is ignored, as Claude Code ignores it. "
            + ("Remove it, or delete the file." if cause else "Fix the JSON or delete the file.")
        )
        logger.warning(problem)
        return {}, problem
    if not isinstance(data, dict):
        problem = (
            f"{layer} settings {path}: top level is a {type(data).__name__}, "
            "but settings must be a JSON object ({...}); ignored."
        )
        logger.warning(problem)
        return {}, problem
    return data, None


def _dangling_link_problem(path: Path, layer: str) -> str | None:
    """A settings path that is a symlink to nothing (a dotfiles link cloned to another
    machine): Claude Code reads no settings there, which the user should hear about."""
    if not os.path.islink(path):
        return None
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    problem = (
        f"{layer} settings {path}: a symlink to {target}, which does not exist; "
        f"no {layer} settings are read. Point the link at the real file or delete it."
    )
    logger.warning(problem)
    return problem


def read_settings_layers(
    cwd: Path,
    claude_home: Path,
    flag_settings_path: Path | str | None,
    policy_settings_path: Path | str | None,
    problems: list[str],
) -> SettingsLayers:
    """Every settings layer parsed (an unusable file is {} and a problem), with where each is."""
    if policy_settings_path is None:
        policy_settings_path = default_policy_settings_path()
    layer_paths: dict[str, Path | None] = {
        "policy": Path(policy_settings_path),
        "flag": Path(flag_settings_path) if flag_settings_path is not None else None,
        "local": cwd / ".claude" / "settings.local.json",
        "user": claude_home / "settings.json",
        "project": cwd / ".claude" / "settings.json",
    }
    layers: dict[str, dict[str, Any]] = {}
    for name, path in layer_paths.items():
        if name == "project" and _same_file(path, layer_paths["user"]):
            # Started in the home folder: <cwd>/.claude/settings.json is the user's own file,
            # already read (and trusted) as user settings; doubting it as a repository's
            # would flag the user's own keys and report its problems twice.
            layers[name] = {}
            continue
        data, load_problem = load_settings_file(path, name)
        if load_problem:
            problems.append(load_problem)
        for problem in typed_key_problems(name, path, data):
            logger.warning(problem)
            problems.append(problem)
        layers[name] = data
    if flag_settings_path is not None and not Path(flag_settings_path).is_file():
        problem = f"flag settings {flag_settings_path}: file not found; ignored."
        logger.warning(problem)
        problems.append(problem)
    return SettingsLayers(
        **layers, paths={k: str(v) for k, v in layer_paths.items() if v is not None}
    )


def _same_file(a: Path | None, b: Path | None) -> bool:
    """Whether two settings paths name one file (links and `..` resolved)."""
    return a is not None and b is not None and same_real_path(a, b)
