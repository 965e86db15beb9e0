"""The name gate: which file names are memory files, and why a name is refused.

One rule, used by every route that lists, reads, writes or links a memory file: scan, the index
(a link's target), the store, lint, the extraction sandbox and its tools, the memory tool and
archive import. A name is one path component; a relative path is gated component by component.

A memory file name:
- is valid text (a name that is not UTF-8 on disk arrives from ``os.fsdecode`` holding lone
  surrogates, and is refused);
- is at most ``NAME_MAX_BYTES`` (255) bytes long, as the filesystem allows;
- holds no C0 or C1 control character, no DEL, no line or paragraph separator (U+2028,
  U+2029: a browser breaks the line there), and no bidirectional control (which can make a
  name display as another), no character that shows as nothing (zero-width space, soft
  hyphen, word joiner, BOM, tag characters, Hangul fillers...: the name would show as
  another), no slash, backslash or NUL;
- holds no angle bracket, `<` or `>` (an index line's Markdown link cannot point at such a
  file, so one such name made rebuild-index and dream fail for the whole dir);
- can be a name on Windows too, as a memory dir is synced across machines (folders too): not
  a device name (CON, PRN, AUX, NUL, COM1-9, LPT1-9, CONIN$, CONOUT$, in any letter case,
  whatever follows the first dot, with trailing spaces), which opens the device there; no
  ``: " | ? *``; no trailing dot or space;
- holds no character drawn as a slash or backslash (U+2215, U+FF0F...), which would make the
  name display as a path (`team<U+2215>x.md` as `team/x.md`);
- does not start with a dot (hidden files and the store's own files are never memories);
- at the top of the dir, is not a folder named team/ or logs/ in other letter case (`TEAM`,
  `Logs`): that is the team folder, or the daily logs' folder no listing shows, where names
  ignore case;
- ends in ``.md`` (lower case, as Claude Code's scan matches it) and is more than ``.md``;
- is not the index, ``MEMORY.md``, in any letter case.

Beside the gate, for a name about to be MADE only: no part may start with '~' (tilde_problem),
which a shell reads as a home; a `~` name already in a dir still passes the gate. Nor may it be
another Unicode normal form of a name already in its folder (normal_twin: `café` composed beside
`café` decomposed), which every listing shows as that name and macOS takes for that file.
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Collection, Iterable, Sequence
from functools import lru_cache

from memdir_nb.spec.constants import (
    ENTRYPOINT_NAME,
    LOGS_DIRNAME,
    MEMORY_DIR_MAX_DEPTH,
    NAME_MAX_BYTES,
    TEAM_DIRNAME,
)
from memdir_nb.spec.lazy_regex import compiled_on_first_use
from memdir_nb.spec.text import first_unsafe_char

MEMORY_SUFFIX = ".md"


# Characters that show as nothing (Unicode's default-ignorable code points, and the Hangul
# fillers, which show as a blank), so `user_a<U+00AD>.md` displays exactly as `user_a.md`:
# zero-width space, soft hyphen, combining grapheme joiner, word joiner and the invisible
# operators, BOM, Mongolian vowel separator, Khmer inherent vowels, deprecated format
# characters, shorthand and musical format controls, tag characters. Kept, because scripts and
# emoji need them: the joiners U+200C/U+200D, variation selectors, Mongolian free variation
# selectors, and tag characters inside an emoji tag sequence (a flag such as England's:
# U+1F3F4, tags, U+E007F). The bidirectional controls are refused as controls.
_INVISIBLE_CLASS = (
    "\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b\u2060-\u2065\u206a-\u206f\u3164"
    "\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e00ff\U000e01f0-\U000e0fff"
)
_INVISIBLE = compiled_on_first_use(f"[{_INVISIBLE_CLASS}]")
# The kept marks where no script or emoji uses them, so they show as nothing (attack37): a
# joiner at an end of the text or beside an ASCII character (emoji, Indic and Arabic scripts
# join non-ASCII characters), a variation selector at the start or after an ASCII character
# other than a keycap's base (0-9, #, *: `1<U+FE0F><U+20E3>` is 1️⃣), a Mongolian free variation
# selector after anything but a Mongolian letter. `user_a<U+200D>.md` was a second `user_a.md`
# in every listing, index line and finding.
_STRAY_MARK = compiled_on_first_use(
    "(?:^|[\x00-\x7f])([\u200c\u200d])|([\u200c\u200d])(?:$|[\x00-\x7f])"
    "|(?:^|[\x00-\x22\x24-\x29\x2b-\x2f\x3a-\x7f])([\ufe00-\ufe0f\U000e0100-\U000e01ef])"
    "|(?<![\u1800-\u18af])([\u180b-\u180d\u180f])"  # Mongolian ones after no Mongolian
)
_EMOJI_TAG_SEQUENCE = compiled_on_first_use("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")


def _invisible_char(text: str) -> str | None:
    """The first character of text that shows as nothing and no script needs, else None."""
    found = _INVISIBLE().search(text)
    if found is not None and "\U0001f3f4" in text:  # a flag's tags are the flag, not hidden
        found = _INVISIBLE().search(_EMOJI_TAG_SEQUENCE().sub("\U0001f3f4", text))
    if found is not None:
        return found.group()
    stray = _STRAY_MARK().search(text)
    return next(g for g in stray.groups() if g) if stray is not None else None


def control_problem(text: str) -> str | None:
    """Why text cannot be a name on screen: a control, DEL, bidi control, an invisible character
    or invalid UTF-8, else None."""
    ch = first_unsafe_char(text)
    if ch is None:
        hidden = None if text.isascii() else _invisible_char(text)
        if hidden is None:
            return None
        return (
            f"holds the invisible character U+{ord(hidden):04X}, which makes a name display "
            "as another"
        )
    code = ord(ch)
    if 0xD800 <= code <= 0xDFFF:
        return "is not valid UTF-8"
    if code in (0x2028, 0x2029):
        return (
            f"holds the line separator U+{code:04X}, which breaks the name's line where it is shown"
        )
    if code > 0x9F:
        return f"holds the bidirectional control U+{code:04X}, which can make a name display as another"
    return f"holds the control character U+{code:04X}"


def link_problem(name: str) -> str | None:
    """Why a name cannot be an index link's target (an angle bracket), else None."""
    if "<" in name or ">" in name:
        return (
            "holds an angle bracket ('<' or '>'), which an index link cannot point at; "
            "rename it without them"
        )
    return None


# The names Windows maps to a device whatever the folder: `con.md`, `NUL.tar.md` and `com1 .md`
# open the console, the null device or a serial port there, not a file (the stem before the first
# dot, trailing spaces dropped, in any letter case; COM and LPT with a superscript digit too).
_WINDOWS_DEVICES = frozenset(
    {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}
    | {f"{port}{digit}" for port in ("COM", "LPT") for digit in "123456789\u00b9\u00b2\u00b3"}
)


# The characters Windows refuses in any file or folder name (besides '<', '>', the slashes and
# controls, which the rules above refuse already); ':' names an NTFS stream, so `a:b.md` there
# writes a hidden stream of a file `a`.
_WINDOWS_RESERVED_CHARS = compiled_on_first_use('[:"|?*]')


# Characters drawn as a slash or a backslash (fraction and division slashes, fullwidth and
# mathematical solidus, box-drawing diagonals, set minus...): `team\u2215user_a.md`, a private
# memory, would display as `team/user_a.md`, a team one. Since attack34 also the rest of
# Unicode's confusables of '/' and '\' (confusables.txt) that are no letter of a script in use:
# Philippine single punctuation U+1735, the caret insertion point U+2041, the Kangxi radicals
# dot and slash U+2F02/U+2F03, the vertical kana repeat mark's upper half U+3033, the CJK strokes
# SP and D U+31D3/U+31D4, and three Greek notation symbols. The letters and ideographs it also
# lists (katakana NO U+30CE, U+4E3F, U+4E36, Coptic U+2CC6) are words' letters, so they stay.
_SLASH_LOOKALIKES = compiled_on_first_use(
    "[\u1735\u2041\u2044\u2215\u2216\u2571\u2572\u27cb\u27cd\u29f5\u29f8\u29f9\u2f02"
    "\u2f03\u3033\u31d3\u31d4\ufe68\uff0f\uff3c\U0001d20f\U0001d23a\U0001d23b]"
)


def lookalike_problem(name: str) -> str | None:
    """Why a name would display as a path (a character drawn as a slash), else None."""
    found = None if name.isascii() else _SLASH_LOOKALIKES().search(name)
    if found is None:
        return None
    return (
        f"holds U+{ord(found.group()):04X}, which looks like a slash, so the name would display "
        "as a path; use '-' or '_' instead"
    )


def windows_problem(name: str) -> str | None:
    """Why a name cannot be a file or folder of a memory dir on Windows, else None: a device
    name, a character Windows refuses, or a trailing dot or space (which Windows drops, so
    `notes.` and `notes` are one folder there)."""
    stem = name.partition(".")[0].rstrip(" ")
    # Only ASCII letters are upper-cased ('ı' is not 'I' there): an ASCII stem, nearly every
    # one, in one call; each character's own test only where another is there.
    device = (
        stem.upper() if stem.isascii() else "".join(c.upper() if c.isascii() else c for c in stem)
    )
    if device in _WINDOWS_DEVICES:
        return (
            f"is the Windows device name {device}, which opens a device there, not a file, "
            "and memory dirs are shared across machines; pick another name (e.g. "
            f"{stem.lower()}_notes)"
        )
    found = _WINDOWS_RESERVED_CHARS().search(name)
    if found is not None:
        return (
            f"holds {found.group()!r}, which Windows refuses in a name, and memory dirs are "
            "shared across machines; use '-' or '_' instead"
        )
    if name.endswith((".", " ")) and name not in (".", ".."):
        return (
            "ends in a dot or a space, which Windows drops (so two names would be one there); "
            "remove it"
        )
    return None


def _portable_problem(name: str) -> str | None:
    """The rules a file and a folder name share: a bad component, an angle bracket, a name
    Windows cannot hold, a character drawn as a slash."""
    return (
        component_problem(name)
        or link_problem(name)
        or windows_problem(name)
        or lookalike_problem(name)
    )


def team_case_problem(name: str) -> str | None:
    """Why a folder at the top of a memory dir is refused for being team/ or logs/ in other
    letter case (`TEAM`, `Team`, `Logs`), else None.

    macOS and Windows file systems ignore letter case, so there such a folder is the team
    folder, shared with everyone in the project, while a path written `TEAM/x.md` is not
    resolved to team/ and was taken for a private one: the team secret guard never ran
    (attack round 27). `LOGS/x.md` is the daily logs' folder there, which no listing, recall or
    index shows: the memory tool said it saved a memory nothing would find again (attack45,
    §68). As with Windows device names, a memory dir is shared across machines.
    """
    if name in (TEAM_DIRNAME, LOGS_DIRNAME):
        return None
    if name.casefold() == TEAM_DIRNAME:
        return (
            f"is {TEAM_DIRNAME}/ in other letter case: where file names ignore case (macOS, "
            f"Windows) it is the team folder, shared with everyone in the project, while here it "
            f"would be private; use {TEAM_DIRNAME}/ for team memories and another name for private ones"
        )
    if name.casefold() == LOGS_DIRNAME:
        return (
            f"is {LOGS_DIRNAME}/ in other letter case: where file names ignore case (macOS, "
            f"Windows) it is the daily logs' folder, which no listing, recall or index shows; "
            f"pick another folder name for memories"
        )
    return None


def folder_problem(name: str, *, top: bool = False) -> str | None:
    """Why a folder name cannot hold memory files (a bad component, an angle bracket or a Windows
    device name; at the top of the dir, `top`, also team/ or logs/ in other letter case), else
    None.

    The one folder rule of every route that lists, writes, moves or unpacks folders: a memory
    inside a folder named with '<' or '>' can never be an index link's target either.
    """
    return _portable_problem(name) or (team_case_problem(name) if top else None)


def depth_problem(depth: int) -> str | None:
    """Why a folder `depth` levels below a memory dir is not walked or read into, else None."""
    if depth <= MEMORY_DIR_MAX_DEPTH:
        return None
    return (
        f"is nested {depth} folders deep, past the {MEMORY_DIR_MAX_DEPTH} any memory route "
        "goes into; move what is in it up"
    )


def component_problem(name: str) -> str | None:
    """Why one path component is refused anywhere in a memory dir (folders included), else None."""
    if not name:
        return "is empty"
    if name in (".", ".."):
        return "is a relative step ('.' or '..'), not a name"
    if "/" in name or "\\" in name:
        return "holds a slash or backslash; give one name, not a path"
    if "\0" in name:
        return "holds a NUL byte"
    try:
        size = len(name.encode("utf-8", "surrogateescape"))
    except UnicodeEncodeError:  # a lone surrogate no name on disk holds (JSON's "\ud800")
        return control_problem(name)
    if size > NAME_MAX_BYTES:
        return (
            f"is {size} bytes long; a name holds at most {NAME_MAX_BYTES} bytes, use a shorter name"
        )
    return control_problem(name)


def visible_name_problem(name: str) -> str | None:
    """Why a file name is not even a visible, portable name, else None: the rules every file of
    a memory dir meets whatever it holds (a `notes.txt` or `prefs.xml` another memory-tool
    backend left meets them; a hidden `.memdir.lock` does not)."""
    problem = _portable_problem(name)
    if problem:
        return problem
    if name.startswith("."):
        return "starts with a dot, so it is hidden and never scanned"
    return None


def name_problem(name: str) -> str | None:
    """Why a file name is not a memory file name, in words that name the rule; None when it is one."""
    if len(name) > NAME_MAX_BYTES:  # too long in any encoding, and not remembered: a name from
        return _name_problem(name)  # a tool call or a form may be as long as a pasted text
    return _remembered_name_problem(name)


# A pure function of the name, asked twice per file of every scan (once to report a refused name,
# once to keep a memory): remembered, a warm recall's listing of 200 files costs about 1 ms less.
# Only names of at most NAME_MAX_BYTES characters are: 8,192 of them hold about 6 MB.
@lru_cache(maxsize=8192)
def _remembered_name_problem(name: str) -> str | None:
    return _name_problem(name)


def _name_problem(name: str) -> str | None:
    problem = visible_name_problem(name)
    if problem:
        return problem
    if not name.endswith(MEMORY_SUFFIX) or name == MEMORY_SUFFIX:
        return (
            "does not end in .md (memory files are Markdown files named like feedback_testing.md)"
        )
    if is_index_name(name):
        return f"is the index ({ENTRYPOINT_NAME}), not a memory"
    return None


def is_index_name(name: str) -> bool:
    """Whether a file name is the index, MEMORY.md, in any letter case."""
    return name.casefold() == ENTRYPOINT_NAME.casefold()


def is_memory_filename(name: str) -> bool:
    """Whether a file name passes the name gate."""
    return name_problem(name) is None


def folders_problem(folders: Sequence[str]) -> str | None:
    """Why a file under these folders (top first) is not a memory file, else None.

    Each folder must be a valid, visible component, and the file no deeper than any memory
    route goes (the listing, the reader and the tools stop at MEMORY_DIR_MAX_DEPTH), so a
    writer never makes a file that no route can see again.
    """
    too_deep = depth_problem(len(folders))
    if too_deep:
        return f"its folder {too_deep}"
    for depth, folder in enumerate(folders):
        problem = folder_problem(folder, top=depth == 0)
        if problem:
            return f"folder {folder!r} {problem}"
        if folder.startswith("."):
            return f"folder {folder!r} is hidden (starts with a dot), so nothing in it is scanned"
    return None


def relative_path_problem(relative: str) -> str | None:
    """Why a '/'-separated path inside a memory dir cannot name a memory file, else None.

    Folders must be valid components and not hidden; the last part must pass the name gate.
    """
    parts = relative.split("/")
    problem = folders_problem(parts[:-1])
    if problem:
        return problem
    problem = name_problem(parts[-1])
    return f"{parts[-1]!r} {problem}" if problem else None


def written_path_problem(rel: str, indexes: Collection[str] = ()) -> str | None:
    """Why a '/'-separated path may not be written as a file of a memory dir, else None.

    The two indexes (MEMORY.md and team/MEMORY.md) may be written, and the further indexes
    the caller knows the dir keeps (indexes: an agent memory root's agents' own, which a dream
    and its restore write; storage.agent_root_index.agent_index_paths); any other path must
    pass relative_path_problem. The one check of every route that writes a file named by
    someone else: the extractor's writes, a dream's planned writes and a restore's put-backs.
    """
    parts = rel.split("/")
    if parts[-1] == ENTRYPOINT_NAME and (parts[:-1] in ([], [TEAM_DIRNAME]) or rel in indexes):
        return None
    return relative_path_problem(rel)


def tilde_part(relative: str) -> str | None:
    """The first part of a '/'-separated path inside a memory dir that starts with '~', else None.

    Not a rule of the gate: a `~` file or folder already in a dir (Linux allows it, and a
    person or Claude Code may have made one) is still listed, read, moved and deleted by every
    route. It is the rule for a name about to be MADE (the memory tool's create and rename, the
    extractor's Write of a new file, import, MemoryStore.save): see tilde_problem.
    """
    return next((p for p in relative.split("/") if p.startswith("~")), None)


def tilde_problem(relative: str) -> str | None:
    """Why a name about to be made at this relative path is refused (a part starts with '~'),
    else None.

    A shell reads a word starting with `~` as a home folder: `rm -r ~` typed in the memory dir
    to remove a folder named `~` removes the home instead, and `cd ~` leaves the dir
    (security.md §39). Each route adds who makes no such name and its fix (tilde_free).
    """
    part = tilde_part(relative)
    if part is None:
        return None
    return (
        f"{part!r} starts with '~', which a shell reads as a home folder (`rm -r {part}` in the "
        "memory dir would remove a home, not this folder)"
    )


def tilde_free(relative: str) -> str:
    """The path with each part's leading '~'s dropped: the name a refusal of tilde_problem offers.

    A part that is only '~' goes (`~/a.md` -> `a.md`); one that would then be hidden gets
    `home` before it (`~.md` -> `home.md`); nothing left is `home_notes`.
    """
    kept = []
    for part in relative.split("/"):
        bare = part.lstrip("~")
        if bare.startswith("."):
            bare = "home" + bare
        if bare:
            kept.append(bare)
    return "/".join(kept) or "home_notes"


def tilde_refusal(relative: str, maker: str, root: str) -> str | None:
    """A model tool's refusal of a new name with a part starting '~', else None: the memory
    tool's and the extractor's Write say it in these same words. maker: who makes no such name
    ("the memory tool"); root: the memory dir as the model names it (`/memories`)."""
    problem = tilde_problem(relative)
    if problem is None:
        return None
    return (
        f"{problem}, so {maker} makes no such name. Every path is already in the memory dir: "
        f"name it without the '~', e.g. {root}/{tilde_free(relative)}"
    )


def spelled(name: str) -> str:
    """A name with every character outside ASCII as its escape (`caf\\xe9` against
    `cafe\\u0301`): two names that display alike are then told apart."""
    return name.encode("ascii", "backslashreplace").decode("ascii")


def normal_form(name: str) -> str:
    """Which Unicode normal form a name is written in, in words."""
    if unicodedata.is_normalized("NFC", name):
        return "composed, NFC"
    if unicodedata.is_normalized("NFD", name):
        return "decomposed, NFD, as macOS writes names"
    return "neither NFC nor NFD"


def normal_twin(name: str, siblings: Iterable[str]) -> str | None:
    """The first of siblings (the names in one folder) that is name in another Unicode normal
    form (the same after NFC, spelled otherwise), else None.

    macOS writes names decomposed (NFD) and most other systems composed (NFC): on Linux the two
    are two files that every listing, index line and answer shows as one name; on macOS they
    are one file, so a dir synced there keeps one of them. The Kelvin sign `\u212a` is `K`
    after NFC, so an ASCII name can have a twin too.
    """
    key = unicodedata.normalize("NFC", name)
    return next((s for s in siblings if s != name and unicodedata.normalize("NFC", s) == key), None)


def normal_twin_problem(name: str, twin: str, there: str = "is already there") -> str:
    """Why a new name that is twin's other normal form is not made, and what to do instead."""
    return (
        f"is spelled {spelled(name)} ({normal_form(name)}), and {spelled(twin)} "
        f"({normal_form(twin)}) {there}: the two differ only in Unicode "
        "normalisation, so every listing and index line shows them as one name, and on macOS "
        "they are one file; write to the one already there, or pick another name"
    )


def name_encoding_problem(encoding: str | None = None) -> str | None:
    """Why this Python would misread memory file names, else None.

    Claude Code writes names in UTF-8. A Python whose filesystem encoding is another (started
    with LANG=C and PYTHONUTF8=0, or under a Latin-1 locale such as a bare ``en_US``) reads
    every name with a non-ASCII letter wrongly: the listing skips it or shows another name,
    and its index line reads as dangling. The CLI starts itself again in UTF-8 mode; a kernel
    or a script cannot, so the notebooks print this. encoding defaults to this process's.
    """
    used = sys.getfilesystemencoding() if encoding is None else encoding
    if used.lower().replace("-", "").replace("_", "") == "utf8":
        return None
    return (
        f"this Python reads file names as {used}, not UTF-8: a memory whose name holds a "
        "non-ASCII letter is skipped or shown under another name, and its index line reads "
        "as dangling; start Jupyter or Python with PYTHONUTF8=1, or under a UTF-8 locale "
        "such as LANG=C.UTF-8"
    )


def misread_name_problem(name: str) -> str | None:
    """name_encoding_problem when it can be why `name` is refused or not found, else None.

    A name with a non-ASCII character, read (or linked) by a Python that misreads names: the
    advice a finding gives for it ("rename it", "remove the line") would lose a good memory.
    """
    return None if name.isascii() else name_encoding_problem()
