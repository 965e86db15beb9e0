"""One home per rule and per boundary primitive, read from the source (docs/architecture.md).

Each test names a primitive, the one module allowed to do it, and refuses it anywhere else:
the JSON parser, the YAML loader, the wall clock, the HTML escaper, file opens, and the shared
names and caps of spec/constants. A module that needs the primitive imports its home.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from tests.architecture.test_layers import PACKAGE, layer_of, module_name

CONSTANTS = "memdir_nb.spec.constants"


def _modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield module_name(path), ast.parse(path.read_text(encoding="utf-8"))


def _dotted(node: ast.AST) -> str:
    """`a.b.c` for a chain of names and attributes, else ''."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    return ".".join([node.id, *reversed(parts)])


def _calls(tree: ast.Module) -> Iterator[tuple[str, ast.Call]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield _dotted(node.func), node


def _imported_names(tree: ast.Module, module: str) -> set[str]:
    """Names taken with `from module import name` (to catch `from json import loads`)."""
    return {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == module
        for alias in node.names
    }


def test_only_jsonio_parses_json() -> None:
    """json's recursive parser crashes on a few thousand `[` and holds the whole text:
    formats.jsonio checks size and nesting first (loads_bounded, loads_glued for records glued
    on one line), so no other module calls json.loads, json.load or a JSONDecoder."""
    parsers = {"json.loads", "json.load", "json.JSONDecoder"}
    callers = []
    for name, tree in _modules():
        if name == "memdir_nb.formats.jsonio":
            continue
        if _imported_names(tree, "json") & {"loads", "load", "JSONDecoder"}:
            callers.append(f"{name}: from json import a parser")
        for dotted, call in _calls(tree):
            if dotted in parsers or dotted.endswith(".raw_decode"):
                callers.append(f"{name}:{call.lineno} {dotted}")
    assert callers == []


def test_the_cli_prints_json_only_through_jsonio() -> None:
    """What a `--json` command prints is written by formats.jsonio.dumps_output, which shows a
    non-UTF-8 name's byte as the terminal does; json.dumps wrote it as a lone `\\udcff`
    escape a strict parser refuses (security.md §39)."""
    callers = [
        f"{name}:{call.lineno} {dotted}"
        for name, tree in _modules()
        if name.startswith("memdir_nb.cli")
        for dotted, call in _calls(tree)
        if dotted in ("json.dumps", "json.dump")
    ]
    assert callers == []


def test_only_frontmatter_loads_yaml() -> None:
    """formats.frontmatter checks the header window and YAML's nesting before the C loader
    runs (a deep document recursed the pure-Python one out of stack); rendering may dump."""
    loaders = {"load", "safe_load", "full_load", "unsafe_load", "load_all", "safe_load_all"}
    loaders |= {"compose", "compose_all", "parse", "scan"}
    callers = []
    for name, tree in _modules():
        if name == "memdir_nb.formats.frontmatter":
            continue
        if _imported_names(tree, "yaml") & loaders:
            callers.append(f"{name}: from yaml import a loader")
        for dotted, call in _calls(tree):
            if dotted.startswith("yaml.") and dotted.split(".", 1)[1] in loaders:
                callers.append(f"{name}:{call.lineno} {dotted}")
    assert callers == []


def _reads_the_clock(dotted: str, call: ast.Call) -> bool:
    if dotted in {"time.time", "time.time_ns"}:
        return True
    if dotted in {"time.localtime", "time.gmtime", "time.ctime", "time.asctime"}:
        return not call.args  # with no time given, these read "now"
    if dotted == "time.strftime":
        return len(call.args) < 2
    last = dotted.rsplit(".", 1)[-1]
    owner = dotted.rsplit(".", 2)[-2] if dotted.count(".") >= 1 else ""
    return last in {"now", "utcnow", "today"} and owner in {"datetime", "date"}


def test_only_the_clock_reads_the_wall_clock() -> None:
    """clock.py is the one place that asks the system for "now" (`resolve_now_ms`,
    `system_clock_ms`), so a test, a notebook or a replay can pin the date. Monotonic clocks
    (timeouts) are not the wall clock and may be read anywhere."""
    callers = []
    for name, tree in _modules():
        if name == "memdir_nb.clock":
            continue
        if _imported_names(tree, "time") & {"time", "time_ns"}:
            callers.append(f"{name}: from time import time")
        for dotted, call in _calls(tree):
            if _reads_the_clock(dotted, call):
                callers.append(f"{name}:{call.lineno} {dotted}")
    assert callers == []


def test_the_clock_rule_sees_each_way_of_reading_now() -> None:
    """The rule above would pass on anything if it recognised nothing: each spelling of "now"
    counts, and a conversion of a given time does not."""

    def reads(source: str) -> bool:
        call = ast.parse(source, mode="eval").body
        assert isinstance(call, ast.Call)
        return _reads_the_clock(_dotted(call.func), call)

    for now in ("time.time()", "_dt.datetime.now()", "datetime.date.today()", "time.gmtime()"):
        assert reads(now), now
    for given in ("time.gmtime(ms / 1000)", "time.monotonic()", "_dt.datetime.fromtimestamp(t)"):
        assert not reads(given), given


def test_only_spec_dates_makes_a_utc_calendar_day() -> None:
    """A clock reading's UTC day is `spec.dates.utc_date` (polish30: `home.sessions` formatted
    its own with `strftime("%Y-%m-%d")`); a date-only format anywhere else is a second home."""
    callers = [
        f"{name}:{call.lineno}"
        for name, tree in _modules()
        if name != "memdir_nb.spec.dates"
        for dotted, call in _calls(tree)
        if dotted.endswith("strftime")
        and any(isinstance(a, ast.Constant) and a.value == "%Y-%m-%d" for a in call.args)
    ]
    assert callers == []


def _reads_the_local_zone(dotted: str, call: ast.Call) -> bool:
    """Whether a call turns a time into (or from) the machine's local zone by itself: a
    localtime/mktime/tzset, a fromtimestamp with no zone, an astimezone() with none."""
    last = dotted.rsplit(".", 1)[-1]
    zone_given = len(call.args) >= 2 or any(k.arg == "tz" for k in call.keywords)
    return (
        dotted in {"time.localtime", "time.mktime", "time.tzset", "time.ctime"}
        or (last == "fromtimestamp" and not zone_given)
        or (last == "astimezone" and not call.args and not call.keywords)
    )


def test_only_spec_calendar_days_counts_in_the_local_zone() -> None:
    """A time becomes a local day (or a local time of day, or back) in spec.calendar_days
    alone, in its day zone (set_day_zone): the demo's notebooks set UTC there. The daily log's
    heading and the demo's log times read the machine's zone themselves, and the demo was read
    in UTC by setting the process's TZ (machine.hold_utc_zone, lefts39)."""
    callers = [
        f"{name}:{call.lineno} {dotted}"
        for name, tree in _modules()
        if name != "memdir_nb.spec.calendar_days"
        for dotted, call in _calls(tree)
        if _reads_the_local_zone(dotted, call)
    ]
    assert callers == []


def test_the_local_zone_rule_sees_each_way_of_reading_the_zone() -> None:
    """The rule above recognises each spelling, and passes a conversion with a zone given."""

    def reads(source: str) -> bool:
        call = ast.parse(source, mode="eval").body
        assert isinstance(call, ast.Call)
        return _reads_the_local_zone(_dotted(call.func), call)

    for local in (
        "time.localtime(t)",
        "time.mktime(fields)",
        "time.tzset()",
        "_dt.datetime.fromtimestamp(t)",
        "dt.date.fromtimestamp(t)",
        "moment.astimezone()",
    ):
        assert reads(local), local
    for zoned in (
        "_dt.datetime.fromtimestamp(t, _dt.UTC)",
        "_dt.datetime.fromtimestamp(t, tz=zone)",
        "moment.astimezone(_dt.UTC)",
        "time.gmtime(t)",
    ):
        assert not reads(zoned), zoned


# Modules beside spec/text that rewrite a CR themselves, and why.
LINE_END_REWRITERS = {
    "memdir_nb.spec.text": "the one home: line_end_style, as_lf, in_style (and html_safe's CRLF)",
    "memdir_nb.formats.index_caps": "Claude Code's loader, which ends a line at every CR",
}


def _rewrites_a_cr(call: ast.Call) -> bool:
    """Whether a call is `<text>.replace("...\\r...", ...)`: a line end rewritten by hand."""
    first = call.args[0] if call.args else None
    return (
        isinstance(call.func, ast.Attribute)
        and call.func.attr == "replace"
        and isinstance(first, ast.Constant)
        and isinstance(first.value, str)
        and "\r" in first.value
    )


def test_only_spec_text_decides_line_ends() -> None:
    """A file's line ends are read by one rule, spec.text.as_lf (CRLF and a CR-only file's CRs
    become LF; a lone CR in a file with LFs stays in its line): two readers turned every CR into
    LF, so a mixed file was numbered two ways (polish31)."""
    callers = [
        f"{name}:{call.lineno}"
        for name, tree in _modules()
        if name not in LINE_END_REWRITERS
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _rewrites_a_cr(call := node)
    ]
    assert callers == []


def test_the_line_end_rule_sees_a_replace_chain() -> None:
    tree = ast.parse('t = raw.replace("\\r\\n", "\\n").replace("\\r", "\\n")')
    assert sum(isinstance(n, ast.Call) and _rewrites_a_cr(n) for n in ast.walk(tree)) == 2


def test_only_file_diff_makes_a_unified_diff() -> None:
    """A diff a command shows of a file it rewrites (rebuild-index, import, a dream plan) is
    formats.file_diff's: lines split where the loader splits them, bounded where it must be.
    The dream plan kept its own difflib call over str.splitlines (lefts38)."""
    callers = [
        f"{name}:{call.lineno} {dotted}"
        for name, tree in _modules()
        if name != "memdir_nb.formats.file_diff"
        for dotted, call in _calls(tree)
        if dotted.startswith("difflib.")
    ] + [
        f"{name}: from difflib import"
        for name, tree in _modules()
        if _imported_names(tree, "difflib")
    ]
    assert callers == []


def test_only_shell_lexer_splits_shell_words() -> None:
    """A shell command's words are formats.shell_lexer's: shlex's own lexer grows each word a
    character at a time, quadratic in a word's length (redos44), so no module calls shlex.shlex
    or shlex.split (shlex.quote, which makes a word, is allowed)."""
    splitters = {"shlex.shlex", "shlex.split"}
    callers = [
        f"{name}:{call.lineno} {dotted}"
        for name, tree in _modules()
        for dotted, call in _calls(tree)
        if dotted in splitters
    ] + [
        f"{name}: from shlex import a splitter"
        for name, tree in _modules()
        if _imported_names(tree, "shlex") & {"shlex", "split"}
    ]
    assert callers == []


def test_only_spec_text_escapes_html() -> None:
    """Every HTML value a widget builds from data goes through spec.text.html_safe (`&`, `<`,
    `>` and both quotes); a second escaper would drift from it (one that left `'` as it is
    breaks out of a single-quoted attribute)."""
    callers = []
    for name, tree in _modules():
        if name == "memdir_nb.spec.text":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(
                a.name in {"html", "markupsafe"} for a in node.names
            ):
                callers.append(f"{name}:{node.lineno} import html")
            if isinstance(node, ast.ImportFrom) and node.module in {
                "html",
                "markupsafe",
                "xml.sax.saxutils",
            }:
                callers.append(f"{name}:{node.lineno} from {node.module} import")
    assert callers == []


# Modules beside home/config that touch the process's environment, and why.
ENVIRONMENT_USERS = {
    "memdir_nb.home.config": "the one reader: settings, HOME, CLAUDE_CONFIG_DIR, ...",
    "memdir_nb.machine": ("environment_set, the one writer (a variable set for one step)"),
    "memdir_nb.cli.main": (
        "a command process's OPENBLAS_NUM_THREADS, set before numpy loads when the user set none"
    ),
    "memdir_nb.cli.help_format": "COLUMNS, as shutil.get_terminal_size reads it, for argparse's width",
}


def test_only_home_config_reads_the_environment() -> None:
    """home/config is the only reader of os.environ: every other module takes a MemdirConfig
    (or an env mapping), so a test or a notebook gives a whole environment in one place."""
    readers = []
    for name, tree in _modules():
        if name in ENVIRONMENT_USERS:
            continue
        if _imported_names(tree, "os") & {"environ", "environb", "getenv", "getenvb"}:
            readers.append(f"{name}: from os import the environment")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _dotted(node) in {
                "os.environ",
                "os.environb",
                "os.getenv",
                "os.getenvb",
            }:
                readers.append(f"{name}:{node.lineno} {_dotted(node)}")
    assert readers == []


# Where the raw streams are named, and why that prints nothing past the sanitiser.
RAW_STREAM_USERS = {"memdir_nb.cli.help_format": "asks sys.__stdout__ for the terminal's width"}


def _around_the_sanitiser(name: str, node: ast.AST) -> str | None:
    """What a node writes to the terminal without the sanitiser, else None."""
    dotted = _dotted(node) if isinstance(node, ast.Attribute) else ""
    raw = {"sys.__stdout__", "sys.__stderr__"} if name not in RAW_STREAM_USERS else set()
    if dotted in {"sys.stdout.buffer", "sys.stderr.buffer", *raw}:
        return dotted
    if isinstance(node, ast.Call) and _dotted(node.func) == "os.write" and node.args:
        fd = node.args[0]
        if isinstance(fd, ast.Constant) and fd.value in (1, 2):
            return f"os.write({fd.value})"
    return None


def test_nothing_prints_around_the_sanitiser() -> None:
    """The CLI and the notebooks print through security.printed_output, which wraps
    sys.stdout and sys.stderr in spec.text.terminal_safe. Writing to the streams' `.buffer`, to
    sys.__stdout__ / sys.__stderr__ or with os.write to descriptor 1 or 2 would go around it."""
    around = []
    for name, tree in _modules():
        for node in ast.walk(tree):
            if (what := _around_the_sanitiser(name, node)) is not None:
                around.append(f"{name}:{getattr(node, 'lineno', 0)} {what}")
    assert around == []


def test_the_sanitiser_rule_sees_each_way_around() -> None:
    """The rule above would pass on anything if it recognised nothing."""
    for source in ("sys.stdout.buffer", "sys.__stderr__", "os.write(1, b'x')"):
        node = ast.parse(source, mode="eval").body
        assert _around_the_sanitiser("memdir_nb.cli.dir_commands", node) is not None, source
    node = ast.parse("sys.__stdout__", mode="eval").body
    assert _around_the_sanitiser("memdir_nb.cli.help_format", node) is None


# Modules outside storage/ that open files of their own, none of them in a memory dir: each
# reads what the package ships or installed, or writes the demo's own folders.
OPENS_OUTSIDE_STORAGE = {
    "memdir_nb.recall.model_files": "hashes and maps the installed encoder's weight files",
    "memdir_nb.recall.fulltext": "fingerprints the package's own tokenizer modules",
    "memdir_nb.recall.decision": "reads the selector model shipped as package data",
    "memdir_nb.dream.lock": "reads /proc/<pid>/stat to tell a zombie lock holder",
    "memdir_nb.ui.demo.homes": "writes the demo Claude home's settings files",
    "memdir_nb.ui.demo.session": "writes the demo's recorded session transcript",
}
_FILE_CALLS = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "fdopen"}


def _opens_a_file(call: ast.Call) -> bool:
    """`open(...)`, `os.fdopen(...)`, or `<path>.open/read_text/read_bytes/write_text/
    write_bytes(...)`; os.open is test_layers' rule, and a transaction's own `tx.read_text` is
    the store's reader, not a file open."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id == "open"
    if not isinstance(func, ast.Attribute) or func.attr not in _FILE_CALLS:
        return False
    receiver = _dotted(func.value)
    if receiver == "tx":
        return False
    return receiver != "os" or func.attr == "fdopen"


def test_only_storage_opens_files_but_for_a_named_few() -> None:
    """Every read of a memory dir goes through storage/access.py and every write through the
    store's transaction: files are opened in storage/ and in the modules listed above, each
    with what it opens."""
    callers: dict[str, list[int]] = defaultdict(list)
    for name, tree in _modules():
        if layer_of(name) != "storage":
            for _, call in _calls(tree):
                if _opens_a_file(call):
                    callers[name].append(call.lineno)
    unexpected = {
        name: lines for name, lines in callers.items() if name not in OPENS_OUTSIDE_STORAGE
    }
    assert unexpected == {}
    stale = set(OPENS_OUTSIDE_STORAGE) - set(callers)
    assert stale == set(), "these no longer open files: take them off OPENS_OUTSIDE_STORAGE"


def _module_bindings(tree: ast.Module) -> Iterator[tuple[str, ast.expr, int]]:
    """(name, value, line) of each module-level `NAME = value` with an upper-case name."""
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            value = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if node.value is None:
                continue
            targets, value = [node.target.id], node.value
        else:
            continue
        for target in targets:
            bare = target.lstrip("_")
            if bare.isupper() and bare not in {"ALL"}:
                yield target, value, node.lineno


def _is_alias(value: ast.expr) -> bool:
    """A binding that names another binding (`ROOT = MEMORY_TOOL_ROOT`), takes its home's value
    (`_BREAKS = line_breaks()`, a home's pattern), or is a type variable."""
    if isinstance(value, ast.Name | ast.Attribute):
        return True
    if not isinstance(value, ast.Call):
        return False
    return _dotted(value.func) in {"TypeVar", "ParamSpec"} or not (value.args or value.keywords)


def test_a_shared_name_or_cap_of_spec_constants_is_bound_only_there() -> None:
    """A module that spells `AGENT_MEMORY_DIRNAME = "agent-memory"` itself has a second home
    for it (reports.memory_dirs had): it imports the constant instead. Binding the imported
    constant to the same name (`TEAM_DIRNAME = constants.TEAM_DIRNAME`) is an alias, not a
    second home."""
    path = PACKAGE / "spec" / "constants.py"
    shared = {name for name, _, _ in _module_bindings(ast.parse(path.read_text(encoding="utf-8")))}
    again = []
    for name, tree in _modules():
        if name == CONSTANTS:
            continue
        for target, value, line in _module_bindings(tree):
            if target in shared and not _is_alias(value):
                again.append(f"{name}:{line} {target}")
    assert again == []


# The same name bound to the same value in two modules, where each module's value is its own
# to tune (a change to one must not move the other).
SAME_BY_CHANCE = {
    "KEPT_MAX_BYTES": "lint's and the dream's in-process caches each have their own budget",
    "DIGIT": "a one-character class (\\d), no rule",
    "TYPE_CHECKING": "the typing flag without importing typing (a module's own import cost)",
}


def test_no_two_modules_bind_one_name_to_one_value() -> None:
    """Two modules with `DEFAULT_MODEL = "claude-sonnet-4-6"` (recall's selector and the tool
    loop had) are two homes of one rule: the second changes without the first."""
    seen: dict[tuple[str, str], list[str]] = defaultdict(list)
    for name, tree in _modules():
        for target, value, line in _module_bindings(tree):
            if not _is_alias(value):
                seen[(target.lstrip("_"), ast.unparse(value))].append(f"{name}:{line}")
    twice = {
        key: places
        for key, places in seen.items()
        if len({p.split(":")[0] for p in places}) > 1 and key[0] not in SAME_BY_CHANCE
    }
    assert twice == {}
    unused = set(SAME_BY_CHANCE) - {key[0] for key, places in seen.items() if len(places) > 1}
    assert unused == set(), "take these off SAME_BY_CHANCE"


def test_the_binding_rules_see_a_second_home() -> None:
    """The two rules above would pass on anything if _module_bindings found nothing."""
    source = 'ROOT = "/memories"\n_CAP: int = 5\nT = TypeVar("T")\nA = B\nF = home()\nx = 1\n'
    found = {target: _is_alias(value) for target, value, _ in _module_bindings(ast.parse(source))}
    assert found == {"ROOT": False, "_CAP": False, "T": True, "A": True, "F": True}


# The modules that start programs; each finds them through storage.programs first (§61).
PROGRAM_STARTERS = {
    "memdir_nb.home.git_root": "git, found by program_path",
    "memdir_nb.toolloop.bounded_tools": "the extraction's read-only commands, by require_program",
}
PROGRAMS = "memdir_nb.storage.programs"


def test_only_storage_programs_finds_a_program_and_only_its_users_start_one() -> None:
    """A program name looked up anywhere else could take PATH's relative entries, which name
    the folder a child starts in (a downloaded repository, the memory dir): storage.programs
    searches PATH's absolute folders only. Starting a program is allowed only where a program
    was found through it."""
    finders, starters = [], []
    starts = {"subprocess.run", "subprocess.Popen", "subprocess.call", "subprocess.check_output"}
    starts |= {"os.system", "os.popen", "os.execvp", "os.execlp", "os.spawnvp", "os.spawnlp"}
    for name, tree in _modules():
        for dotted, call in _calls(tree):
            if dotted == "shutil.which" and name != PROGRAMS:
                finders.append(f"{name}:{call.lineno}")
            if dotted in starts and name not in PROGRAM_STARTERS:
                starters.append(f"{name}:{call.lineno} {dotted}")
        if _imported_names(tree, "shutil") & {"which"} and name != PROGRAMS:
            finders.append(f"{name}: from shutil import which")
    assert finders == []
    assert starters == []
    for name in PROGRAM_STARTERS:
        source = (PACKAGE.parent / (name.replace(".", "/") + ".py")).read_text(encoding="utf-8")
        assert PROGRAMS in source, f"{name} starts programs without storage.programs"


CLIENT_MAKER = "memdir_nb.security.api_replies"


def test_only_security_api_replies_makes_an_anthropic_client() -> None:
    """The SDK's timeout bounds each read, never a whole reply, and the SDK reads and unpacks a
    reply whole: security.api_replies.messages_client builds every client the package sends
    with over a client that holds each reply to a deadline, a byte cap and no compression."""
    makers = []
    for name, tree in _modules():
        if name == CLIENT_MAKER:
            continue
        for dotted, call in _calls(tree):
            if dotted in {"anthropic.Anthropic", "Anthropic", "anthropic.DefaultHttpxClient"}:
                makers.append(f"{name}:{call.lineno} {dotted}")
        if _imported_names(tree, "anthropic") & {"Anthropic", "DefaultHttpxClient"}:
            makers.append(f"{name}: from anthropic import a client")
    assert makers == []


def test_every_home_named_here_exists() -> None:
    """The homes these tests allow are real modules (a rename would leave a test passing on a
    name that no longer exists)."""
    known = {name for name, _ in _modules()}
    homes = {
        "memdir_nb.formats.jsonio",
        "memdir_nb.formats.frontmatter",
        "memdir_nb.clock",
        "memdir_nb.spec.text",
        "memdir_nb.formats.file_diff",
        "memdir_nb.formats.shell_lexer",
        CONSTANTS,
        *OPENS_OUTSIDE_STORAGE,
        *RAW_STREAM_USERS,
        *ENVIRONMENT_USERS,
        *PROGRAM_STARTERS,
        PROGRAMS,
        CLIENT_MAKER,
    }
    assert homes - known == set()
    assert Path(PACKAGE / "storage").is_dir()
