"""The shell reading of a Bash call: simple commands, redirections, here-documents, sed -i."""

from __future__ import annotations

from memdir_nb.formats.shell_script import (
    EXPANDED,
    sed_in_place_files,
    simple_commands,
    split_redirections,
)


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


def test_redirections_are_split_from_the_words_into_written_and_read_files() -> None:
    words = ["sort", "<", "in.md", "-u", ">>out.md", "2>&1", "3>", "err.md", "<<<", "text"]
    assert split_redirections(words) == (["sort", "-u"], ["out.md", "err.md"], ["in.md"])


def test_sed_rewrites_files_only_with_in_place_and_never_its_script() -> None:
    assert sed_in_place_files(["s/a/b/", "x.md"]) == []
    assert sed_in_place_files(["-i", "s/a/b/", "x.md", "y.md"]) == ["x.md", "y.md"]
    assert sed_in_place_files(["-n", "-e", "1p", "--in-place=.bak", "z.md"]) == ["z.md"]
    assert sed_in_place_files(["-i", "s/a/b/", "*.md"]) == []


def test_an_expanded_word_names_no_known_file() -> None:
    assert all(EXPANDED.search(w) for w in ("*.md", "$f", "$(ls)", "`ls`", "a[12].md"))
    assert not EXPANDED.search("notes/a.md")
