"""The terminal sanitiser, the HTML escaper and the text helpers of spec/text.py."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memdir_nb.security.secret_scan import redact_secrets
from memdir_nb.spec import text as spec_text
from memdir_nb.spec.text import (
    FOLDS_TO_ASCII,
    as_lf,
    cap_text,
    fence_change,
    first_few,
    first_unsafe_char,
    general_words_and_breaks,
    has_ascii_fold,
    html_safe,
    in_style,
    is_not_text,
    line_end_style,
    lone_surrogate_problem,
    one_line,
    plain_words_and_breaks,
    plain_words_by_line,
    plural,
    terminal_line,
    terminal_safe,
    without_format_chars,
    word_count,
    words,
    words_and_breaks,
)
from tests.support.benchmarks import load_benchmark


def test_escape_sequences_reach_the_terminal_as_visible_text() -> None:
    shown = terminal_safe("title\x1b]8;;http://x\x07link\x1b[2J\x9b31m")
    assert "\x1b" not in shown and "\x07" not in shown and "\x9b" not in shown
    assert shown == "title\\x1b]8;;http://x\\x07link\\x1b[2J\\x9b31m"


def test_html_safe_shows_what_the_terminal_escapes_as_the_same_escape() -> None:
    # a bidi override, ESC, a line separator and a lone CR as visible text; CRLF a line end
    assert html_safe("a\u202eb\x1b[2J\u2028c\rd\r\ne\tf") == "a\\u202eb\\x1b[2J\\u2028c\\x0dd\ne\tf"
    assert html_safe("plain <b>") == "plain &lt;b&gt;"


def test_html_safe_turns_markup_and_both_quotes_into_entities() -> None:
    shown = html_safe("""<img src=x onerror="a('b')"> & `c`""")
    assert shown == "&lt;img src=x onerror=&quot;a(&#x27;b&#x27;)&quot;&gt; &amp; `c`"
    assert html_safe(3) == "3" and html_safe(None) == "None"
    assert html_safe("&lt;") == "&amp;lt;"  # an entity in data stays text, never decoded twice


def test_bidi_controls_and_lone_surrogates_are_shown_escaped() -> None:
    assert terminal_safe("a\u202eb\udcff") == "a\\u202eb\\udcff"


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_the_line_and_paragraph_separators_are_shown_escaped_in_text_and_lines(
    separator: str,
) -> None:
    # attack round 22: browsers (a notebook's output, Voila) and Python's str.splitlines break
    # a line at U+2028 and U+2029, and neither was escaped: a name holding one forged a line
    shown = f"\\u{ord(separator):04x}"
    assert terminal_safe(f"a{separator}b") == f"a{shown}b"
    assert terminal_line(f"a{separator}b") == f"a{shown}b"
    assert first_unsafe_char(f"a{separator}b") == separator


def test_newlines_stay_in_text_and_are_escaped_in_one_line_fields() -> None:
    assert terminal_safe("a\nb\tc") == "a\nb\tc"
    assert terminal_safe("a\nb\tc", keep_newlines=False) == "a\\x0ab\\x09c"


def test_first_unsafe_char_finds_controls_and_passes_plain_text() -> None:
    assert first_unsafe_char("plain words, 日本語") is None
    assert first_unsafe_char("x\x7fy") == "\x7f"


def test_plural_counts_in_words() -> None:
    assert (plural(1, "memory"), plural(2, "memory"), plural(3, "day")) == (
        "1 memory",
        "2 memories",
        "3 days",
    )


@pytest.mark.parametrize(
    "ch", ["\u200b", "\u200c", "\u200d", "\u00ad", "\u200e", "\u202e", "\ufeff", "\u2060"]
)
def test_format_characters_are_dropped_and_nothing_else(ch: str) -> None:
    assert without_format_chars(f"pass{ch}word\u2028é\tx") == "password\u2028é\tx"
    assert without_format_chars("plain ascii") == "plain ascii"


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300))
def test_format_characters_are_the_characters_of_category_cf(text: str) -> None:
    # The rule read literally, character by character.
    kept = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    assert without_format_chars(text) == kept


@pytest.mark.parametrize("seed", range(10))
def test_plain_words_and_breaks_gives_each_lines_words_between_the_breaks(seed: int) -> None:
    rng = random.Random(seed)
    pieces = ["Retry", "don't", "follow-up", "v2.3", "_x_", "--", "'", "\n", " ", ".", "Ünï"]
    pieces += ["内存泄漏", "e\u0301", "’s", "Ａ", "x" * 5, "12:30", "\n\n", "a-'b", "-c-"]
    pieces += ["—", "→ ", "“q”", "\u2000"]  # outside ASCII, but in no word
    for _ in range(100):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 20)))
        if any(ch.isalnum() for ch in unicodedata.normalize("NFC", text) if not ch.isascii()):
            assert plain_words_and_breaks(text) is None
            text = text.encode("ascii", "ignore").decode()
        expected: list[str] = []
        for line in text.split("\n"):
            expected += [*words(line), "\n"]
        assert plain_words_and_breaks(text) == expected[:-1], text


@given(st.text(alphabet="ab9Z-'_ .\n\t,é’—", max_size=40))
def test_plain_words_by_line_are_the_patterns_words_of_each_line(text: str) -> None:
    # translation and split give the word pattern's words, separators and all, line by line
    flat = plain_words_and_breaks(text)
    by_line = plain_words_by_line(text)
    if flat is None:
        assert by_line is None
        return
    expected: list[list[str]] = [[]]
    for w in flat:
        if w == "\n":
            expected.append([])
        else:
            expected[-1].append(w)
    assert by_line == expected


# Pieces where whole-text and per-line processing could part: combining marks right after a
# line break (NFC), final and inner sigma (lower-casing looks at neighbours), a dotted capital I
# (lower-cases to two characters), CJK runs across lines, the right single quote, digits of
# other scripts.
_TRICKY = ["\n", "\u0301", "ΟΔΟΣ", "Σ", "İ", "内存", "泄漏", "’s", "e\u0301", "١٢٣", "Ärger"]
_TRICKY += ["don't", "a-'b", "-", " ", "\u3042\u3044", "한국어", "x" * 5, "12:30", "_"]
# and characters outside ASCII that no word holds (English text's usual ones), some with NFC or
# lower-case mappings: an em dash, an arrow, curly quotes, a circled capital, an en quad, the
# Greek numeral sign, the Ohm sign
_TRICKY += ["—", "→", "“", "”", "\u24b6", "\u2000", "\u0374", "\u2126", "Retry", "a1"]


@given(st.lists(st.sampled_from(_TRICKY), max_size=25), st.text(max_size=40))
def test_words_and_breaks_gives_each_lines_words_between_the_breaks(
    pieces: list[str], extra: str
) -> None:
    for text in ("".join(pieces), "".join(pieces) + extra):
        expected: list[str] = []
        for line in text.split("\n"):
            expected += [*words(line), "\n"]
        assert words_and_breaks(text) == expected[:-1], repr(text)
        assert general_words_and_breaks(text) == expected[:-1], repr(text)


@pytest.mark.parametrize("seed", range(5))
def test_word_count_of_ascii_text_counts_its_words(seed: int) -> None:
    rng = random.Random(seed)
    pieces = ["Retry", "don't", "follow-up", "v2.3", "_x_", "--", "'", "\n", " ", ".", "A-b-C"]
    for _ in range(200):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 15)))
        assert word_count(text) == len(words(text)), text
    assert word_count("deploy 内存泄漏 now") == 2 + 2  # CJK characters, two to a word


def test_the_folds_are_every_character_outside_ascii_that_matches_an_ascii_letter() -> None:
    letter = re.compile("[a-z]", re.IGNORECASE)
    folds = "".join(chr(c) for c in range(128, 0x110000) if letter.fullmatch(chr(c)))
    assert folds == FOLDS_TO_ASCII


def test_only_the_dotted_capital_i_lower_cases_to_more_than_one_character() -> None:
    longer = [c for c in range(0x110000) if len(chr(c).lower()) != 1]
    assert longer == [0x130]
    assert "\u0130" in FOLDS_TO_ASCII


def test_lower_casing_makes_ascii_only_from_ascii_and_the_folds() -> None:
    made = [c for c in range(128, 0x110000) if any(ch.isascii() for ch in chr(c).lower())]
    assert {chr(c) for c in made} <= set(FOLDS_TO_ASCII)


def test_lower_casing_keeps_word_space_and_digit_characters_as_they_were() -> None:
    for cls in (re.compile(r"\w"), re.compile(r"\s"), re.compile(r"\d")):
        changed = [
            c
            for c in range(0x110000)
            if chr(c) not in FOLDS_TO_ASCII
            and bool(cls.match(chr(c))) != bool(cls.match(chr(c).lower()))
        ]
        assert changed == [], (cls.pattern, changed[:5])


def test_has_ascii_fold_is_true_only_for_text_holding_a_fold() -> None:
    assert not has_ascii_fold("plain ASCII and café — ok")
    assert all(has_ascii_fold(f"x{c}y") for c in FOLDS_TO_ASCII)


def test_terminal_line_keeps_a_value_on_one_line_and_escapes_controls() -> None:
    assert terminal_line("/srv/a\nb\tc\x1b[31m") == "/srv/a\\x0ab\\x09c\\x1b[31m"
    assert terminal_line(Path("/srv/ok")) == "/srv/ok"


def test_a_lone_surrogate_is_not_text_a_pair_and_other_characters_are() -> None:
    assert lone_surrogate_problem("plain café 日本 \U0001f600") is None
    problem = lone_surrogate_problem("ab\udc80")
    assert problem is not None and "U+DC80, character 3" in problem


def test_the_word_pattern_and_ascii_stems_compile_no_cjk_class() -> None:
    # The plan stems ASCII tokens through word_pattern(); the two CJK classes cost the regex
    # compiler milliseconds each and are compiled only where a text is looked at for CJK.
    code = (
        "import re\n"
        "from memdir_nb.spec import text\n"
        "from memdir_nb.spec.scripts import CJK_CLASS\n"
        "from memdir_nb.spec.word_stems import StemCache\n"
        "StemCache().texts(['plain ascii memory text', 'another, plainer one'])\n"
        "assert text.word_pattern().findall('two words') == ['two', 'words']\n"
        "wide = sum(CJK_CLASS in p.pattern for p in re._cache.values())\n"
        "text.words('caf\u00e9 \u65e5\u672c\u8a9e')  # non-ASCII: now the CJK classes are needed\n"
        "print(wide, sum(CJK_CLASS in p.pattern for p in re._cache.values()))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0", "2"]


def test_ascii_text_is_matched_by_each_patterns_ascii_members_alone() -> None:
    pairs = [
        (spec_text._ASCII_UNSAFE_IN_TEXT, spec_text.unsafe_in_text()),
        (spec_text._ASCII_UNSAFE_IN_LINE, spec_text.unsafe_in_line()),
        (spec_text._ASCII_LINE_BREAKS, spec_text._LINE_BREAKS()),
    ]
    for small, whole in pairs:
        for code in range(128):
            assert bool(small.fullmatch(chr(code))) == bool(whole.fullmatch(chr(code))), code


def test_non_ascii_text_still_meets_the_whole_patterns() -> None:
    assert one_line("a\u2028b\x85 c\r\nd") == "a b c d"
    assert terminal_safe("\u202eevil\tx\n") == "\\u202eevil\tx\n"
    assert terminal_line("\u202eevil\tx\n") == "\\u202eevil\\x09x\\x0a"
    assert terminal_safe("caf\u00e9 \x1b[31m") == "caf\u00e9 \\x1b[31m"


def test_no_unsafe_character_past_ascii_is_printable() -> None:
    # terminal_safe and first_unsafe_char match text that is printable but for newline and tab
    # with the ASCII patterns alone (spec.text._unsafe_only_in_ascii): right only while every
    # member of the whole class past ASCII is one str.isprintable refuses.
    whole = spec_text.unsafe_in_line()
    members = [chr(c) for c in range(128, 0x10000) if whole.fullmatch(chr(c))]
    assert len(members) > 2000  # the C1 controls, the bidi and separator marks, surrogates
    assert [c for c in members if c.isprintable()] == []


@given(st.text(alphabet=st.characters(codec=None), max_size=60))
def test_printed_text_is_escaped_as_the_whole_classes_escape_it(text: str) -> None:
    # the same escapes whichever pattern matched (the ASCII ones for text printable past ASCII)
    def escaped(match: re.Match[str]) -> str:
        return spec_text.escape_of(match.group())

    assert terminal_safe(text) == spec_text.unsafe_in_text().sub(escaped, text)
    assert terminal_line(text) == spec_text.unsafe_in_line().sub(escaped, text)
    found = spec_text.unsafe_in_line().search(text)
    assert first_unsafe_char(text) == (found.group() if found else None)


def test_printed_text_with_a_printable_character_past_ascii_compiles_no_whole_class() -> None:
    # A scan whose output held one '…' compiled the whole class, about 0.3 ms of the process
    code = (
        "from memdir_nb.spec import text\n"
        "out = text.terminal_safe('200 listed, \u2026 and 14 more: caf\u00e9\\n\\tx')\n"
        "line = text.terminal_line('caf\u00e9\\n')\n"
        "first = text.first_unsafe_char('r\u00e9sum\u00e9 \u65e5\u672c.md')\n"
        "big = (text.unsafe_in_text, text.unsafe_in_line)\n"
        "print(repr(line), first, sum(f.cache_info().currsize for f in big))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["'caf\u00e9\\\\x0a'", "None", "0"]


@pytest.mark.parametrize(
    ("text", "end"),
    [
        ("a\r\nb\r\n", "\r\n"),  # Windows
        ("a\rb\r", "\r"),  # classic Mac OS
        ("a\nb\n", "\n"),
        ("a\r\nb\n", "\n"),  # mixed: normalised to LF
        ("a\rb\n", "\n"),  # a lone CR in a file with LFs stays inside its line
        ("one line", "\n"),
    ],
)
def test_an_edit_gives_back_the_line_ends_its_source_had(text: str, end: str) -> None:
    assert line_end_style(text) == end
    lf = as_lf(text)
    assert in_style(lf, end) == text or end == "\n"
    if end != "\n":
        assert lf == "a\nb\n"


@pytest.mark.parametrize(
    ("line", "open_fence", "after"),
    [
        ("```python", "", "```"),  # opens, info string and all
        ("    ~~~~", "", "~~~~"),  # any indent (a list item's block), any run of three or more
        ("``` `x` ```", "", None),  # a backtick in a ``` fence's info string: a code span
        ("~~~ `x`", "", "~~~"),  # a ~~~ fence's info string may hold one
        ("```", "```", ""),  # the same character closes
        ("  `````  ", "````", ""),  # a longer run closes, spaces around it
        ("~~~", "```", None),  # the other character is code inside the block (CommonMark)
        ("```", "~~~", None),
        ("```", "````", None),  # a shorter run is code too
        ("```python", "```", None),  # a closing fence has no info string
        ("prose", "", None),
        ("``", "", None),
    ],
)
def test_a_fenced_block_closes_only_with_its_own_character_at_least_as_long(
    line: str, open_fence: str, after: str | None
) -> None:
    assert fence_change(line, open_fence) == after


def test_content_holding_a_nul_byte_is_not_text_read_as_bytes_or_decoded() -> None:
    latin1 = "café".encode("latin-1")  # not UTF-8, but text: lint's invalid-utf8, still indexed
    assert not is_not_text(latin1) and not is_not_text(latin1.decode("utf-8", "replace"))
    binary = b"\x89PNG\r\n\x1a\n\x00\x00"
    assert is_not_text(binary) and is_not_text(binary.decode("utf-8", "replace"))


GH_TOKEN_SHAPE = "ghp_" + "R4nd0mT0k3nV4lu3" * 2 + "x9Yq"


@pytest.mark.parametrize("kept", [4, 12, 16, 24, 30, 39])
def test_a_capped_text_never_keeps_the_head_of_a_word_the_cap_cuts(kept: int) -> None:
    # attack44: a credential the cap cut kept its head ("ghp_R4nd0mT0k3nV4lu3R4nd0mT0k3", 26
    # of its 36 secret characters), which the masker no longer knew as a token
    text = "y" * (500 - kept - 1) + " " + GH_TOKEN_SHAPE + " and more"
    capped = cap_text(text, 500)
    assert capped == "y" * (500 - kept - 1) + " [...]"
    assert "ghp_" not in capped


def test_a_capped_text_leaves_out_a_word_longer_than_any_credential_with_its_own_marker() -> None:
    assert cap_text("x" * 600, 500) == "[... a word of over 500 characters left out]"
    assert cap_text("a " + "x" * 600, 500) == "a [... a word of over 498 characters left out]"
    assert cap_text("a b", 500) == "a b" and cap_text("a b c", 3) == "a b [...]"
    assert cap_text("abcdef", 3) == "[...]"


def _fake_credentials() -> list[tuple[str, str]]:
    """(id, the credential as one word) of each row of the secret corpus: the shapes the
    masker (security.secret_scan.redact_secrets) is tested to flag."""
    rows = load_benchmark("secret_precision").load_corpus("secrets.jsonl")
    found = []
    for row in rows:
        word = max(row["text"].split(), key=len).rstrip(".,;)")
        found.append((row["id"], word))
    return found


@pytest.mark.parametrize(("kind", "credential"), _fake_credentials())
@pytest.mark.parametrize("run", [300, 5_000])
def test_a_capped_text_never_shows_the_head_of_a_credential_glued_to_a_long_run(
    kind: str, credential: str, run: int
) -> None:
    # lefts45: a word longer than 256 characters was cut inside, so a credential glued to a
    # long run kept its head and the masker, shown the cut text, no longer knew its shape
    for glue in ("", "=", "/"):
        lead = "Zx" * (run // 2) + glue
        text = f"see {lead}{credential} then more words"
        for inside in (4, len(credential) // 2, len(credential) - 1):
            capped = cap_text(text, len("see ") + len(lead) + inside)
            assert capped == f"see [... a word of over {len(lead) + inside:,} characters left out]"
            assert credential[:4] not in redact_secrets(capped), kind


def test_first_few_counts_the_whole_list_when_told_its_length() -> None:
    # sessions45: a caller makes (redacts) only the names it shows and passes the count
    assert first_few(["a", "b", "c"], 2) == "a, b and 1 more"
    assert first_few(["a", "b"], 2, count=200) == "a, b and 198 more"
    assert first_few(["a"], 5, count=1) == "a"
