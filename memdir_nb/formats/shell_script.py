"""Reading a Bash tool call's script the way a shell splits it: simple commands, their words,
their redirections, and the files a few commands write (`tee`, `sed -i`).

Enough of the shell for the memory timeline to see which memory files a script reads or
writes; not a shell. What it does not follow is said where each rule is, and in
docs/sessions.md.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

from memdir_nb.formats.shell_lexer import shell_words
from memdir_nb.spec.constants import SHELL_SUBSHELL_MAX_DEPTH

_SHELL_SPLIT = ";&|\n"  # what ends a simple command, alone or in runs (`&&`, `||`, `;\n`)
_PUNCTUATION = _SHELL_SPLIT + "()"  # and a subshell's parentheses (`( cd x; rm a )`, `$(...)`)
# one operator of a run of punctuation the lexer returns as one token (`)&&(`, `;;`, `|&`)
_OPERATOR = re.compile(r"\|\||&&|\|&|;;|[;&|\n()]")
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


def _quoted_step(line: str, i: int, nest: list[str], ansi: list[list[int]]) -> int:
    """How far one step inside quotes moves, closing the quote or opening a `$(` in it; the
    end of an ANSI-C string (`$'...'`, where `\\'` is a quote in it) is noted in `ansi`."""
    ch, top = line[i], nest[-1]
    if top == "$'":
        if ch == "'":
            nest.pop()
            ansi[-1][1:] = [i + 1, ansi[-1][2] | 1]
        return 2 if ch == "\\" else 1
    if top == "'" or ch not in '\\"$':
        if ch == top:
            nest.pop()
        return 1
    if ch == "\\":
        return 2
    if ch == '"':
        nest.pop()
        return 1
    if line.startswith("$((", i):
        nest.append("((")
        return 3
    if line.startswith("$[", i):
        nest.append("$[")
        return 2
    if line.startswith("$(", i):
        nest.append("(")
        return 2
    return 1


# what opens arithmetic, where `<<` is a shift: `$((`, `((` as a command (`(( x <<= 1 ))`,
# `for ((`), `$[`; and, inside it, a parenthesis or bracket that must close before it does
_ARITHMETIC = ("((", "$[", "a(", "a[")


def _arithmetic_step(line: str, i: int, nest: list[str]) -> int:
    """How far one step inside arithmetic moves: `))` closes `((` only when the parentheses
    opened inside it are closed (`$(( (1 + (2)) << 2 ))`, `$(( $((1)) << 2 ))`)."""
    ch, top = line[i], nest[-1]
    if top == "((" and line.startswith("))", i):
        nest.pop()
        return 2
    if (ch == "]" and top in ("$[", "a[")) or (ch == ")" and top == "a("):
        nest.pop()
    elif ch in "([":
        nest.append("a" + ch)
    return 1


def _open_dollar(line: str, i: int, nest: list[str], ansi: list[list[int]]) -> None:
    """Open `$[` (arithmetic) or `$'` (an ANSI-C string, its start noted in `ansi`) at i."""
    nest.append(line[i : i + 2])
    if line[i + 1] == "'":
        ansi.append([i, len(line), 2])


def _heredoc_operators(
    line: str, nest: list[str], ansi: list[list[int]]
) -> tuple[list[re.Match[str]], int]:
    """The here-document operators of one line that the shell would see, and where its comment
    starts (the line's length when it has none): a `<<` inside quotes (`echo "a << b"`) or a
    comment is text, one inside `$(...)` is an operator even within double quotes
    (`git commit -m "$(cat <<'EOF'`), and one inside `$((...))` is a shift; a `#` starting a
    word outside quotes starts a comment. `nest` is what is open at the line's start,
    innermost last (a quote, `$'` for an ANSI-C string, `(` for a substitution or subshell,
    `((` for arithmetic), and is left as it is at the line's end, for a string that spans
    lines. Each ANSI-C string's piece on the line is appended to `ansi` as [start, end, how]:
    how is 2 when it opens here (`$'`), 1 when it closes here, 0 when it runs on past the line
    (3 for both)."""
    found: list[re.Match[str]] = []
    i, word_start = 0, True
    last_close = line.rfind("))")
    while i < len(line):
        ch, top = line[i], nest[-1] if nest else ""
        if top in ("'", '"', "$'"):
            i += _quoted_step(line, i, nest, ansi)
            word_start = False
            continue
        if top in _ARITHMETIC:
            i, word_start = i + _arithmetic_step(line, i, nest), False
            continue
        if ch == "\\":
            i += 1
        elif line.startswith("$((", i) or (
            word_start and line.startswith("((", i) and last_close > i
        ):  # `((` with no `))` after it on its line is two subshells, as bash reads it
            nest.append("((")
            i, word_start = i + (3 if ch == "$" else 2), False
            continue
        elif line.startswith(("$[", "$'"), i):
            _open_dollar(line, i, nest, ansi)
            i += 1
        elif ch in "'\"(":
            nest.append(ch)
        elif ch == ")" and top == "(":
            nest.pop()
        elif ch == "#" and word_start:
            return found, i  # a comment runs to the line end
        elif line.startswith("<<<", i):  # a here-string: its word is on this line
            i, word_start = i + 3, True
            continue
        elif line.startswith("<<", i) and (match := _HEREDOC.match(line, i)) is not None:
            found.append(match)
            i, word_start = match.end(), False
            continue
        word_start = ch in " \t;&|()<>"
        i += 1
    return found, len(line)


def _without_here_documents(script: str) -> str:
    """The script with its comments, and each here-document's operator and body, taken out:
    a comment and a body (a commit message, a memory's text) are text, and read as commands
    they would name files never touched or, holding an apostrophe, make the whole script
    unparsable. A body runs to the line that is exactly its delimiter (tabs before it allowed
    after `<<-`); the operator's line keeps its command and redirections (`cat > notes.md`)."""
    kept: list[str] = []
    waiting: deque[tuple[str, bool]] = deque()  # (delimiter, tabs allowed), in the order opened
    nest: list[str] = []
    for line in script.split("\n"):
        if waiting:
            delimiter, dashed = waiting[0]
            if (line.lstrip("\t") if dashed else line).rstrip("\r") == delimiter:
                waiting.popleft()
            continue
        # an ANSI-C string from an earlier line goes on here
        ansi: list[list[int]] = [[0, len(line), 0]] if nest[-1:] == ["$'"] else []
        operators, comment = _heredoc_operators(line, nest, ansi)
        line = line[:comment]  # a comment is text, whatever quotes it holds (`# it's`)
        edits = [(start, end, _single_quoted(line[start:end], how)) for start, end, how in ansi]
        for match in operators:
            word = next(group for group in match.group(2, 3, 4) if group is not None)
            waiting.append((word, bool(match.group(1))))
            edits.append((match.start(), match.end(), " "))
        if edits:  # one join: rebuilding the line per edit was quadratic in its length
            pieces: list[str] = []
            at = 0
            for start, end, text in sorted(edits):
                pieces += (line[at:start], text)
                at = end
            line = "".join(pieces) + line[at:]
        kept.append(line)
    return "\n".join(kept)


# an escape of an ANSI-C string (`$'...'`), as bash decodes it: a hex, Unicode or octal code,
# a control (`\cX`) or one character (`\n`, `\'`, `\\`; an unknown one keeps its backslash)
_ANSI_ESCAPE = re.compile(
    r"\\(?:x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})|([0-7]{1,3})|c(.)|(.))",
    re.DOTALL,
)
_ANSI_CHARS = dict(zip("abeEfnrtv\\'\"?", "\a\b\x1b\x1b\f\n\r\t\v\\'\"?", strict=True))


def _ansi_char(match: re.Match[str]) -> str:
    hex_code, short, long, octal, control, char = match.groups()
    code = hex_code or short or long
    if code is not None or octal is not None:
        value = int(code, 16) if code is not None else int(octal, 8) & 0xFF
        return chr(value) if value <= 0x10FFFF else match.group()
    if control is not None:
        return chr(ord(control) & 0x1F)
    return _ANSI_CHARS.get(char, match.group())


def _single_quoted(piece: str, how: int) -> str:
    """A piece of an ANSI-C string (`$'don\\'t'`, which the lexer cannot read) as the same text
    single-quoted (`'don'\\''t'`); how: 2 when the piece opens the string, 1 when it closes it."""
    body = piece[2 if how & 2 else 0 : len(piece) - (how & 1)]
    text = _ANSI_ESCAPE.sub(_ansi_char, body).replace("'", "'\\''")
    return ("'" if how & 2 else "") + text + ("'" if how & 1 else "")


@dataclass(frozen=True)
class ShellCommand:
    """One simple command and where it runs: `scope` names the subshells around it, outermost
    first (`()` is the script's own shell), and `piped` says it is one part of a pipeline,
    which runs in a subshell of its own. A `cd` moves only its own scope."""

    words: list[str]
    scope: tuple[int, ...] = ()
    piped: bool = False


def shell_commands(command: str) -> list[ShellCommand] | None:
    """Each simple command of a shell script with its words, split where the shell runs the
    next one (`;`, `&`, `|`, `&&`, `||`, a line end, a parenthesis; a `#` comment runs to its
    line end), or None when the script cannot be parsed (an unclosed quote) or nests
    subshells deeper than SHELL_SUBSHELL_MAX_DEPTH."""
    script = _CONTINUATION.sub(" ", _without_here_documents(command))
    tokens = shell_words(script, _PUNCTUATION, whitespace=" \t\r")  # a line end is an operator
    found: list[ShellCommand] = []
    words: list[str] = []
    scope: list[int] = []
    opened = 0
    piped = False

    def end(pipe: bool = False) -> None:
        nonlocal piped
        if words:
            found.append(ShellCommand(list(words), tuple(scope), piped or pipe))
            words.clear()
        piped = pipe

    try:
        for token in tokens:
            if not token or any(ch not in _PUNCTUATION for ch in token):
                words.append(token)  # comments are gone (_without_here_documents)
                continue
            for operator in _OPERATOR.findall(token):
                end(pipe=operator in ("|", "|&"))
                if operator == "(":
                    if len(scope) == SHELL_SUBSHELL_MAX_DEPTH:
                        return None  # deeper than any script is written: not read
                    opened += 1
                    scope.append(opened)
                elif operator == ")" and scope:
                    scope.pop()
    except ValueError:
        return None
    end()
    return found


def simple_commands(command: str) -> list[list[str]] | None:
    """The words of each simple command of a shell script (see shell_commands), or None when
    the script cannot be parsed."""
    commands = shell_commands(command)
    return None if commands is None else [c.words for c in commands]


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


def perl_in_place_files(words: list[str]) -> list[str]:
    """The files `perl -i` rewrites in place (none without -i, alone or in a cluster such as
    `-pi.bak`): the operands after the program, which is the value of `-e`/`-E` or, with
    neither, the first operand (a script file)."""
    files: list[str] = []
    in_place = program_given = options_done = False
    takes_value = False
    for word in words:
        if takes_value:
            takes_value = False
        elif options_done or not word.startswith("-") or word == "-":
            if program_given:
                files.append(word)
            program_given = True
        elif word == "--":
            options_done = True
        else:
            cluster = word[1:]
            for at, switch in enumerate(cluster):
                if switch == "i":
                    in_place = True
                    break  # the rest is the backup's suffix
                if switch in "eE":
                    program_given = True
                    takes_value = at == len(cluster) - 1  # `-e CODE`, or `-eCODE` joined
                    break
                if switch in "IMm":  # a directory or a module, joined or the next word
                    takes_value = at == len(cluster) - 1
                    break
                if switch in "FxCdD":  # the rest is its value (`-Fi`: split at "i", no -i)
                    break
    if not in_place:
        return []
    return [word for word in files if not EXPANDED.search(word)]


# the long options of cp and install whose value may be the next word, and the short ones
_COPY_LONG_VALUES = ("suffix", "mode", "owner", "group", "strip-program")
COPY_SHORT_VALUES = {"cp": "St", "install": "StmogC"}


def copy_targets(words: list[str], short_values: str) -> list[tuple[str, str]]:
    """What `cp` or `install` (words after the name; short_values: its options that take a
    value) writes: (source, destination) pairs. The destination is a folder's file
    (`folder/<source's name>`) with `-t DIR`, several sources, or a last operand not ending in
    `.md` (as for mv); none for install -d (folders only). Expanded words name no file."""
    operands, target, flags = _copy_words(words, short_values)
    if "d" in flags and "m" in short_values:  # install (the one with -m) -d makes folders
        return []
    if target is None:
        if len(operands) < 2:
            return []
        *operands, target = operands
        into = "T" not in flags and (len(operands) > 1 or not target.endswith(".md"))
    else:
        into = True
    pairs = []
    for source in operands:
        dest = f"{target.rstrip('/')}/{source.rstrip('/').rsplit('/', 1)[-1]}" if into else target
        if not EXPANDED.search(dest):
            pairs.append((source, dest))
    return pairs


def _copy_words(words: list[str], short_values: str) -> tuple[list[str], str | None, set[str]]:
    """(operands, the -t folder, the switches T and d seen) of cp's or install's words."""
    operands: list[str] = []
    target: str | None = None
    flags: set[str] = set()
    pending = ""  # "t": the next word is -t's folder; "v": another option's value
    options_done = False
    for word in words:
        if pending:
            target = word if pending == "t" else target
            pending = ""
        elif options_done or not word.startswith("-") or word == "-":
            operands.append(word)
        elif word == "--":
            options_done = True
        else:
            joined, pending, found = _copy_option(word, short_values)
            target = target if joined is None else joined
            flags |= found
    return operands, target, flags


def _copy_option(word: str, short_values: str) -> tuple[str | None, str, set[str]]:
    """One option word of cp or install: (-t's folder when joined to it, what the next word
    is: "t" -t's folder, "v" another option's value, "" an operand or option; the switches
    T and d in it)."""
    if word.startswith("--"):
        name, eq, value = word[2:].partition("=")
        if name == "target-directory":
            return (value, "", set()) if eq else (None, "t", set())
        flag = {"no-target-directory": "T", "directory": "d"}.get(name)
        return None, "v" if name in _COPY_LONG_VALUES and not eq else "", {flag} if flag else set()
    flags = set()
    for at, switch in enumerate(word[1:], start=1):
        if switch in "Td":
            flags.add(switch)
        if switch in short_values:
            rest = word[at + 1 :]
            if switch == "t":
                return (rest, "", flags) if rest else (None, "t", flags)
            return None, "" if rest else "v", flags
    return None, "", flags


def touch_files(words: list[str]) -> list[str]:
    """The files `touch` creates or stamps (not -r's, -d's or -t's value)."""
    files: list[str] = []
    takes_value = options_done = False
    for word in words:
        if takes_value:
            takes_value = False
        elif options_done or not word.startswith("-") or word == "-":
            files.append(word)
        elif word == "--":
            options_done = True
        elif not word.startswith("--"):
            cluster = word[1:]
            found = next((at for at, ch in enumerate(cluster) if ch in "rdt"), None)
            takes_value = found is not None and found == len(cluster) - 1
        else:
            takes_value = word[2:] in ("reference", "date")
    return [word for word in files if not EXPANDED.search(word)]


def dd_files(words: list[str]) -> tuple[list[str], list[str]]:
    """(written, read): the files `dd` writes (`of=`) and reads (`if=`)."""
    written = [w[3:] for w in words if w.startswith("of=") and not EXPANDED.search(w[3:])]
    read = [w[3:] for w in words if w.startswith("if=") and not EXPANDED.search(w[3:])]
    return written, read
