"""The shell reading of a Bash call: simple commands, redirections, here-documents, sed -i."""

from __future__ import annotations

import pytest

from memdir_nb.formats.shell_script import (
    COPY_SHORT_VALUES,
    EXPANDED,
    ShellCommand,
    copy_targets,
    dd_files,
    perl_in_place_files,
    sed_in_place_files,
    shell_commands,
    simple_commands,
    split_redirections,
    touch_files,
)
from memdir_nb.spec.constants import SHELL_SUBSHELL_MAX_DEPTH


def test_a_script_splits_into_simple_commands_at_separators_and_line_ends() -> None:
    script = "cd /m && cat a.md; ls | wc -l\n# a comment; rm x\necho 'a; b' \\\n  c"
    assert simple_commands(script) == [
        ["cd", "/m"],
        ["cat", "a.md"],
        ["ls"],
        ["wc", "-l"],
        ["echo", "a; b", "c"],
    ]


def test_an_unclosed_quote_makes_the_script_unreadable() -> None:
    assert simple_commands("echo 'never closed") is None


def test_a_here_document_body_is_not_read_as_commands() -> None:
    script = "cat > n.md <<'EOF'\nit's text; rm a.md\nEOF\ncat <<-X | wc\n\tb\n\tX\nrm b.md"
    assert simple_commands(script) == [["cat", ">", "n.md"], ["cat"], ["wc"], ["rm", "b.md"]]


def test_a_here_document_operator_in_quotes_or_a_comment_is_text() -> None:
    # `echo "a << b"` opened a here-document that swallowed the rest of the script
    script = "echo \"a << b\" 'c <<d'\nrm x.md # <<EOF\ncat <<<EOF\necho 'two\n<<Z lines'\nrm y.md"
    assert simple_commands(script) == [
        ["echo", "a << b", "c <<d"],
        ["rm", "x.md"],
        ["cat", "<<<EOF"],
        ["echo", "two\n<<Z lines"],
        ["rm", "y.md"],
    ]


def test_a_shift_in_arithmetic_is_no_here_document() -> None:
    # `$((1<<2))` opened a here-document ending at a line "2", hiding the rm after it
    for script in ("echo $((1<<2)) > n.md\nrm a.md", 'echo "$(( x << 2 ))"\nrm a.md'):
        commands = simple_commands(script)
        assert commands is not None and commands[-1] == ["rm", "a.md"]


@pytest.mark.parametrize(
    "arithmetic",
    [
        "(( x = 1 << 2 ))",  # the arithmetic command
        "for (( i = 0; i << 2; i++ )); do :; done",  # the arithmetic for loop
        "echo $(( (1 + (2)) << 2 ))",  # parentheses inside: `))` there closes nothing
        "echo $(( $((1)) << 2 ))",  # an expansion nested in an expansion
        "x=$[ 1 << 2 ]",  # the old form of arithmetic expansion
    ],
)
def test_every_form_of_arithmetic_keeps_its_shift_from_opening_a_here_document(
    arithmetic: str,
) -> None:
    # each hid every later line of the script as the body of a here-document ending at "2"
    commands = simple_commands(f"{arithmetic}\nrm a.md")
    assert commands is not None and commands[-1] == ["rm", "a.md"]


def test_a_comment_is_text_whatever_it_holds_and_a_quoted_hash_is_a_word() -> None:
    # an apostrophe in a comment (`# Let's check`) left the script unparsable, so none of its
    # memory operations counted; a quoted `'#'` started a comment and hid the redirection
    script = "# Let's look first\ncat a.md # it's there (\necho '#' \"#x\" > n.md\nrm b.md"
    assert simple_commands(script) == [
        ["cat", "a.md"],
        ["echo", "#", "#x", ">", "n.md"],
        ["rm", "b.md"],
    ]


def test_a_script_nesting_subshells_past_any_real_depth_is_not_read() -> None:
    # each command kept (and the replay compared) the whole stack of subshells around it:
    # 16,000 `(` before 8,000 `cd`s, one 56 KB call, took 3.6 s (quadratic in the script)
    deep = SHELL_SUBSHELL_MAX_DEPTH
    assert simple_commands("(" * deep + "rm a.md" + ")" * deep) == [["rm", "a.md"]]
    assert shell_commands("(" * (deep + 1) + "rm a.md" + ")" * (deep + 1)) is None
    assert shell_commands("(" * 2_000 + "cd a;" * 1_000) is None


def test_a_here_document_inside_a_quoted_substitution_is_still_one() -> None:
    # Claude Code's commit idiom: the message's odd quote must not unbalance the script
    script = 'git commit -m "$(cat <<\'EOF\'\nsay "hi\nEOF\n)"\nrm z.md'
    assert simple_commands(script) == [["git", "commit", "-m", "$(cat  \n)"], ["rm", "z.md"]]


def test_parentheses_open_subshells_and_each_part_of_a_pipeline_is_piped() -> None:
    assert shell_commands("(cd /m && rm a.md); cd x | wc; (ls; (pwd)) ; rm b.md") == [
        ShellCommand(["cd", "/m"], (1,)),
        ShellCommand(["rm", "a.md"], (1,)),
        ShellCommand(["cd", "x"], (), piped=True),
        ShellCommand(["wc"], (), piped=True),
        ShellCommand(["ls"], (2,)),
        ShellCommand(["pwd"], (2, 3)),
        ShellCommand(["rm", "b.md"]),
    ]


def test_redirections_are_split_from_the_words_into_written_and_read_files() -> None:
    words = ["sort", "<", "in.md", "-u", ">>out.md", "2>&1", "3>", "err.md", "<<<", "text"]
    assert split_redirections(words) == (["sort", "-u"], ["out.md", "err.md"], ["in.md"])


def test_sed_rewrites_files_only_with_in_place_and_never_its_script() -> None:
    assert sed_in_place_files(["s/a/b/", "x.md"]) == []
    assert sed_in_place_files(["-i", "s/a/b/", "x.md", "y.md"]) == ["x.md", "y.md"]
    assert sed_in_place_files(["-n", "-e", "1p", "--in-place=.bak", "z.md"]) == ["z.md"]
    assert sed_in_place_files(["-i", "s/a/b/", "*.md"]) == []


def test_perl_rewrites_files_only_with_in_place_and_never_its_program() -> None:
    assert perl_in_place_files(["-pe", "s/a/b/", "x.md"]) == []
    assert perl_in_place_files(["-pi", "-e", "s/a/b/", "x.md", "y.md"]) == ["x.md", "y.md"]
    assert perl_in_place_files(["-i.bak", "-ne", "print", "--", "-z.md"]) == ["-z.md"]
    assert perl_in_place_files(["-Ilib", "-i", "fix.pl", "a.md", "$f"]) == ["a.md"]
    assert perl_in_place_files(["-M", "strict", "-i", "-es/a/b/", "b.md"]) == ["b.md"]


def test_an_expanded_word_names_no_known_file() -> None:
    assert all(EXPANDED.search(w) for w in ("*.md", "$f", "$(ls)", "`ls`", "a[12].md"))
    assert not EXPANDED.search("notes/a.md")


def test_an_ansi_c_string_is_one_word_with_its_escapes_read_as_bash_reads_them() -> None:
    # `$'don\\'t'` left the whole script unparsable (the lexer took `\\'` for the quote's end),
    # so none of its memory operations counted (attack round 17)
    script = "printf $'don\\'t # no comment\\n' > a.md; rm b.md\necho $'x\\ty\\x41\\u00e9\\101'"
    assert simple_commands(script) == [
        ["printf", "don't # no comment\n", ">", "a.md"],
        ["rm", "b.md"],
        ["echo", "x\tyAéA"],
    ]
    assert simple_commands("echo $'two\nlines \\' here' > c.md\nrm d.md") == [
        ["echo", "two\nlines ' here", ">", "c.md"],
        ["rm", "d.md"],
    ]
    assert simple_commands("echo \"$'x\" '$' > e.md") == [["echo", "$'x", "$", ">", "e.md"]]
    assert simple_commands("echo $'never closed") is None


def test_perl_switches_whose_value_is_joined_never_read_as_in_place() -> None:
    # `-Fi` splits at "i"; `-Ci`, `-x`, `-d:Mod` take the rest of their word too
    assert perl_in_place_files(["-Fi", "-lane", "print", "x.md"]) == []
    assert perl_in_place_files(["-CSDi", "-ne", "print", "x.md"]) == []
    assert perl_in_place_files(["-lpi", "-e", "s/a/b/", "x.md"]) == ["x.md"]


def test_cp_and_install_write_each_source_into_the_target() -> None:
    cp, install = COPY_SHORT_VALUES["cp"], COPY_SHORT_VALUES["install"]
    assert copy_targets(["/t/x.md", "m/a.md"], cp) == [("/t/x.md", "m/a.md")]
    assert copy_targets(["-r", "a.md", "b/c.md", "m/"], cp) == [
        ("a.md", "m/a.md"),
        ("b/c.md", "m/c.md"),
    ]
    assert copy_targets(["-t", "m", "a.md"], cp) == [("a.md", "m/a.md")]
    assert copy_targets(["--target-directory=m", "-S", ".bak", "a.md"], cp) == [("a.md", "m/a.md")]
    assert copy_targets(["-T", "src", "m/dest"], cp) == [("src", "m/dest")]
    assert copy_targets(["-m", "644", "x", "m/b.md"], install) == [("x", "m/b.md")]
    assert copy_targets(["-d", "m/sub", "m/other"], install) == []
    assert copy_targets(["only.md"], cp) == [] and copy_targets(["a.md", "$d"], cp) == []


def test_touch_and_dd_name_the_files_they_write_and_read() -> None:
    assert touch_files(["-d", "yesterday", "a.md", "-r", "ref.md", "--", "-b.md"]) == [
        "a.md",
        "-b.md",
    ]
    assert dd_files(["if=a.md", "of=b.md", "bs=1", "of=$x"]) == (["b.md"], ["a.md"])
