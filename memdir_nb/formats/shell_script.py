"""Reading a Bash tool call's script the way a shell splits it: simple commands, their words,
their redirections, and the files a few commands write (`tee`, `sed -i`).

Enough of the shell for the memory timeline to see which memory files a script reads or
writes; not a shell. What it does not follow is said where each rule is, and in
docs/sessions.md.
"""

from __future__ import annotations

import re
import shlex

_SHELL_SPLIT = ";&|\n"  # what ends a simple command, alone or in runs (`&&`, `||`, `;\n`)
# a word the shell expands (a glob, `$f`, `$(...)`, a backquote) names no one known file
EXPANDED = re.compile(r"[*?\[$`]")
_CONTINUATION = re.compile(r"\\\r?\n")
# a here-document operator and its delimiter word, quoted or not (`<<EOF`, `<<-'EOF'`, `<< "X"`);
# `<<<` is a here-string, whose word is on the line itself
_HEREDOC = re.compile(r"(?<!<)<<(-?)[ \t]*(?:'([^'\n]*)'|\"([^\"\n]*)\"|\\?([A-Za-z0-9_.-]+))")
# an output redirection word: `>` or `>>`, a file descriptor before it (`1>>`, `2>`), the
# target spaced or joined on (`>>MEMORY.md`); group 1 is the target, if joined. `&>` needs no
# case: the lexer splits at `&`, leaving `>`. Not seen: `>|` (split at `|`) and a redirection
# joined to the word before it (`x>>f`, which quotes removed by the lexer make ambiguous).
_REDIRECT = re.compile(r"^\d*>>?(.*)$")
_INPUT = re.compile(r"^\d*<(?![<(])(.*)$")  # `< file`, `0<file`; not `<<`, `<<<` or `<(`


def _without_here_documents(script: str) -> str:
    """The script with each here-document's operator and body taken out: the body (a commit
    message, a memory's text) is data, and read as commands it would name files it never
    touched or, holding an apostrophe, make the whole script unparsable. The body runs to the
    line that is exactly its delimiter (tabs before it allowed after `<<-`); the operator's
    line keeps its command and redirections (`cat > notes.md`)."""
    kept: list[str] = []
    waiting: list[tuple[str, bool]] = []  # (delimiter, tabs allowed), in the order opened
    for line in script.split("\n"):
        if waiting:
            delimiter, dashed = waiting[0]
            if (line.lstrip("\t") if dashed else line).rstrip("\r") == delimiter:
                waiting.pop(0)
            continue
        for match in _HEREDOC.finditer(line):
            word = next(group for group in match.group(2, 3, 4) if group is not None)
            waiting.append((word, bool(match.group(1))))
        kept.append(_HEREDOC.sub(" ", line))
    return "\n".join(kept)


def simple_commands(command: str) -> list[list[str]] | None:
    """The words of each simple command of a shell script, split where the shell runs the next
    one (`;`, `&`, `|`, `&&`, `||` and a line end; a `#` comment runs to its line end), or None
    when the script cannot be parsed (an unclosed quote)."""
    script = _without_here_documents(command)
    joined = _CONTINUATION.sub(" ", script)  # a backslash before a line end continues the line
    lexer = shlex.shlex(joined, posix=True, punctuation_chars=_SHELL_SPLIT)
    lexer.whitespace, lexer.whitespace_split, lexer.commenters = " \t\r", True, ""
    commands: list[list[str]] = [[]]
    comment = False
    try:
        for token in lexer:
            if token and all(ch in _SHELL_SPLIT for ch in token):
                if comment and "\n" not in token:
                    continue  # `;` or `|` inside a comment: the comment runs to the line end
                commands.append([])
                comment = False
            elif comment or token.startswith("#"):  # a word starting with # starts a comment
                comment = True
            else:
                commands[-1].append(token)
    except ValueError:
        return None
    return [words for words in commands if words]


def _files(words: list[str]) -> list[str]:
    """Redirection targets that name files (not `&1`, `&-`: a descriptor)."""
    return [word for word in words if not word.startswith("&")]


def split_redirections(words: list[str]) -> tuple[list[str], list[str], list[str]]:
    """A simple command's words without its redirections; the files its output redirections
    write; the files its input redirections (`< file`) read. A here-string (`<<< word`) or a
    here-document operator left over names no file."""
    kept: list[str] = []
    targets: tuple[list[str], list[str]] = ([], [])  # written, read
    pending: list[str] | None = None
    for word in words:
        if pending is not None:
            pending.append(word)
            pending = None
            continue
        if word.startswith("<<"):
            pending = [] if word.strip("<-") == "" else None  # its word is text, not a file
            continue
        output = _REDIRECT.match(word)
        match = output or _INPUT.match(word)
        if match is None:
            kept.append(word)
            continue
        into = targets[0] if output else targets[1]
        if match.group(1):
            into.append(match.group(1))
        else:
            pending = into
    written, read = targets  # `2>&1`, `>&2` and `<&0` duplicate a descriptor: no file
    return kept, _files(written), _files(read)


def sed_in_place_files(words: list[str]) -> list[str]:
    """The files `sed -i` rewrites in place (none without -i): every word that is not an option,
    an option's value (`-e SCRIPT`, `-f FILE`) or, with neither, the script itself."""
    if not any(w == "--in-place" or w.startswith(("-i", "--in-place=")) for w in words):
        return []
    files: list[str] = []
    script_given = False
    takes_value = False
    for word in words:
        if takes_value:
            takes_value = False
        elif word in ("-e", "-f", "--expression", "--file"):
            takes_value = script_given = True
        elif word.startswith(("--expression=", "--file=")):
            script_given = True
        elif word.startswith("-") and word != "-":
            continue
        elif not script_given:
            script_given = True  # the first operand is the script
        else:
            files.append(word)
    return [word for word in files if not EXPANDED.search(word)]
