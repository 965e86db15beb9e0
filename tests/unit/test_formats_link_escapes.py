"""Percent-escapes in a link target: decoded as a Markdown reader decodes them, never into a
name the gates refuse (docs/security.md section 47)."""

from __future__ import annotations

import pytest

from memdir_nb.formats.link_escapes import decoded_link_target


@pytest.mark.parametrize(
    ("written", "decoded"),
    [
        ("kiln%20days.md", "kiln days.md"),
        ("team/kiln%20days.md", "team/kiln days.md"),
        ("caf%C3%A9.md", "café.md"),
        ("%2E%2E/x.md", "../x.md"),  # a step written escaped is a step: containment judges it
    ],
)
def test_a_percent_escaped_target_is_decoded(written: str, decoded: str) -> None:
    assert decoded_link_target(written) == decoded


@pytest.mark.parametrize(
    "written",
    [
        "kiln days.md",  # nothing escaped
        "100%.md",  # a lone % is no escape
        "..%2F..%2Fetc%2Fpasswd.md",  # an escaped separator never makes a folder
        "..%5C..%5Csecret.md",
        "a%00.md",  # NUL: no system call takes it
        "a%0Ab.md",  # a newline in a name
        "a%1B%5B31m.md",  # ESC
        "a%E2%80%AEb.md",  # a bidi override (U+202E)
        "a%ff.md",  # not UTF-8
        "a%3Cb%3E.md",  # angle brackets: the name gate refuses them
        "a%2520b.md",  # decoded once, never twice
        "MEMORY%2Emd",  # the index name is no memory
    ],
)
def test_a_target_whose_decoded_form_a_gate_refuses_is_not_decoded(written: str) -> None:
    assert decoded_link_target(written) is None
