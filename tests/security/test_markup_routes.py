"""Attack round 6: memory content never becomes markup in a widget.

Every widget class is built over a hostile dir (tests/conftest.py `build_markup_home`: HTML and
script in file names, frontmatter, bodies, MEMORY.md, team memories, a daily log and a session
transcript) and driven through the state changes that show content (select, preview, save,
plan, apply, recall with the real SDK against the local Messages API, replay a turn). The
whole widget tree is then walked: each HTML value is parsed, and every element and attribute
must be one the code itself emits, which is learned by driving the same script over the dir's
harmless twin (`benign_text`). Text-only traits (descriptions, tooltips, option labels, tab
titles) are text in the browser as long as no widget lets HTML into its description, which is
checked too. Each payload must also still be there to read, as text.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

from memdir_nb.home.config import MemdirConfig
from memdir_nb.ui.widgets import (
    Dashboard,
    DreamPlanner,
    FreshnessView,
    IndexInspector,
    MemoryBrowser,
    MemoryEditor,
    PathSecurityLab,
    RecallPlayground,
    ReplayView,
    TeamScopeView,
)
from tests.conftest import (
    MARKUP_SESSION_ID,
    benign_name,
    benign_refused_name,
    benign_text,
    build_markup_home,
    markup_name_payload,
    markup_refused_name,
)
from tests.support import NOW
from tests.support.kernels import execute_notebook
from tests.support.messages_api import MessagesAPIServer, json_reply, text_reply

# Elements that run, load or restyle: only ever the code's own (matplotlib's SVG <style>).
ACTIVE_TAGS = {"script", "iframe", "object", "embed", "style", "link", "meta", "base", "form"}
URL_ATTRS = {"href", "src", "xlink:href", "action", "formaction", "data", "srcdoc", "background"}
MARK = "__memdir_pwned"
# A fake GitHub token, so the secret guard has something to quote.
FAKE_TOKEN = "ghp_" + "R8xK2mQ9vL4nT7wZ1pY6sD3fH5jB0cE2gA8u"


@dataclass
class Rendered:
    """What one widget tree puts on the page: HTML fragments and text-only strings."""

    html: list[tuple[str, str]] = field(default_factory=list)  # (where, value)
    text: list[tuple[str, str]] = field(default_factory=list)
    html_descriptions: list[tuple[str, str]] = field(default_factory=list)
    math: list[tuple[str, str]] = field(default_factory=list)  # typeset by MathJax


def walk(w: Any) -> Iterator[Any]:
    """The widget and every widget under it (children, Output widgets' nothing else)."""
    yield w
    for child in getattr(w, "children", ()) or ():
        if isinstance(child, widgets.Widget):
            yield from walk(child)


def collect(root: Any, into: Rendered) -> None:
    """Every value the browser shows from this tree, sorted into HTML and text."""
    for w in walk(root):
        where = f"{type(w).__name__}{sorted(getattr(w, '_dom_classes', ()))}"
        if isinstance(w, widgets.HTMLMath | widgets.Label):
            into.math.append((where, str(w.value)))
        description = getattr(w, "description", None)
        if isinstance(description, str) and description:
            into.math.append((f"{where}.description", description))
        if isinstance(w, widgets.HTML | widgets.HTMLMath):
            into.html.append((where, w.value))
        elif isinstance(w, widgets.Text | widgets.Textarea | widgets.Label | widgets.Combobox):
            into.text.append((where, str(w.value)))
        for trait in ("description", "tooltip", "placeholder"):
            value = getattr(w, trait, None)
            if isinstance(value, str) and value:
                into.text.append((f"{where}.{trait}", value))
        style = getattr(w, "style", None)
        if getattr(w, "description_allow_html", False) or getattr(
            style, "description_allow_html", False
        ):
            into.html_descriptions.append((where, w.description))
        labels = getattr(w, "_options_labels", None)
        if labels:
            into.text.extend((f"{where}.option", str(label)) for label in labels)
        for label in getattr(w, "options", ()) if isinstance(w, widgets.Combobox) else ():
            into.text.append((f"{where}.option", str(label)))
        titles = getattr(w, "titles", None)
        if titles:
            into.text.extend((f"{where}.title", str(t)) for t in titles if t)


class Markup(HTMLParser):
    """The elements, attributes, active-element contents and text of one HTML fragment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str, str]] = []  # (tag, name, value)
        self.active: list[tuple[str, str]] = []  # (tag, its text)
        self.text: list[str] = []
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend((tag, name, value or "") for name, value in attrs)
        if tag in ACTIVE_TAGS:
            self.active.append((tag, ""))
            self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1] == tag:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._open:
            tag, text = self.active[-1]
            self.active[-1] = (tag, text + data)
        self.text.append(data)


def parse(value: str) -> Markup:
    p = Markup()
    p.feed(value)
    p.close()
    return p


def shown_text(r: Rendered) -> str:
    """Everything a person can read: HTML text nodes and the text-only traits."""
    return "\n".join(["".join(parse(v).text) for _, v in r.html] + [v for _, v in r.text])


@dataclass
class Allowed:
    """The code's own markup, learned from the benign twin."""

    tags: set[str] = field(default_factory=set)
    attrs: set[tuple[str, str]] = field(default_factory=set)
    active: set[tuple[str, str]] = field(default_factory=set)

    @classmethod
    def learn(cls, r: Rendered) -> Allowed:
        a = cls()
        for _, value in r.html:
            p = parse(value)
            a.tags.update(p.tags)
            a.attrs.update((t, n) for t, n, _ in p.attrs)
            a.active.update(p.active)
        return a


def _js_url(value: str) -> bool:
    squeezed = re.sub(r"[\s\x00-\x1f]+", "", value).lower()
    return squeezed.startswith(("javascript:", "vbscript:", "data:text/html"))


def _fragment_holes(where: str, value: str, allowed: Allowed) -> list[str]:
    """The elements and attributes of one HTML value that did not come from the code."""
    p = parse(value)
    found = [f"{where}: element <{tag}> from data" for tag in set(p.tags) - allowed.tags]
    for tag, name, val in p.attrs:
        if name.startswith("on"):
            found.append(f"{where}: handler {name}= on <{tag}>")
        elif (tag, name) not in allowed.attrs:
            found.append(f"{where}: attribute {name}= on <{tag}> from data")
        if name in URL_ATTRS and _js_url(val):
            found.append(f"{where}: script URL in {name}= on <{tag}>")
        if name in {"style", "class", "id"} | URL_ATTRS and MARK in val:
            found.append(f"{where}: data inside {name}= on <{tag}>")
    found.extend(
        f"{where}: <{tag}> element with data inside"
        for tag, text in p.active
        if (tag, text) not in allowed.active
    )
    return found


def holes(r: Rendered, allowed: Allowed) -> list[str]:
    """Every element, attribute or typeset text in r that did not come from the code."""
    found = [h for where, value in r.html for h in _fragment_holes(where, value, allowed)]
    found += [
        f"{where}: HTML description holds data" for where, v in r.html_descriptions if MARK in v
    ]
    found += [
        f"{where}: data in text that ipywidgets typesets as LaTeX"
        for where, v in r.math
        if MARK in v
    ]
    return found


# ---------------------------------------------------------------------------------- the routes


def _config(home: Path, **extra: Any) -> MemdirConfig:
    return MemdirConfig.for_tests(home=home / "claude-home", cwd=home, now_ms=NOW, **extra)


def drive_browser(mem: Path, r: Rendered) -> None:
    v = MemoryBrowser(mem, now_ms=NOW, config=_config(mem))
    collect(v, r)
    for row in list(v.rows):
        v.select(row.filename)
        collect(v, r)
    v.search.value = "desc"
    collect(v, r)


def drive_editor(mem: Path, r: Rendered) -> None:
    v = MemoryEditor(mem, now_ms=NOW, config=_config(mem))
    collect(v, r)
    fill = _text_of(mem)
    v.fill(
        type="project",
        name=fill("formname"),
        description=fill("formdesc"),
        body=f"{fill('formbody')} token {FAKE_TOKEN}",
        why=fill("formwhy"),
        how=fill("formhow"),
        scope="team",
    )
    collect(v, r)
    v.save()  # refused: a secret in team memory
    collect(v, r)
    v.fill(type="user", name=fill("savedname"), description=fill("saveddesc"), body=fill("saved"))
    v.save()
    collect(v, r)
    for choice in list(v.forget_choice.options)[:3]:
        value = choice[1] if isinstance(choice, tuple) else choice
        v.forget(value)
        collect(v, r)


def drive_inspector(mem: Path, r: Rendered) -> None:
    v = IndexInspector(mem, now_ms=NOW, config=_config(mem))
    collect(v, r)
    v.rebuild()
    collect(v, r)


def drive_recall(mem: Path, r: Rendered) -> None:
    v = RecallPlayground(mem, now_ms=NOW, config=_config(mem))
    collect(v, r)
    v.run("desc body img onerror window pwned teamdesc", tools=["<b>tool</b>"])
    collect(v, r)
    v.run("name2 desc2 body2")
    collect(v, r)


def drive_recall_with_claude(mem: Path, r: Rendered) -> None:
    from memdir_nb.recall import AnthropicSelector

    names = [f"user_{_name_of(mem)('file')}.md", "feedback_typed.md"]
    cfg = _config(mem, anthropic_api_key="sk-ant-test")
    with MessagesAPIServer() as api:
        api.enqueue(json_reply({"selected_memories": [*names, _text_of(mem)("reply")]}))
        api.enqueue(text_reply(_text_of(mem)("notjson")))
        api.enqueue(json_reply({"selected_memories": _text_of(mem)("wrongshape")}))
        selector = AnthropicSelector(
            api_key="sk-ant-test", base_url=api.base_url, max_retries=0, timeout=5
        )
        v = RecallPlayground(mem, now_ms=NOW, config=cfg, selector=selector)
        for query in ("desc body", "name2 desc2", "teamdesc"):
            v.run(query)
            collect(v, r)
            v.new_session()


def drive_freshness(mem: Path, r: Rendered) -> None:
    v = FreshnessView(mem, now_ms=NOW, config=_config(mem))
    collect(v, r)
    v.threshold.value = 2
    collect(v, r)


def drive_team(mem: Path, r: Rendered) -> None:
    v = TeamScopeView(mem, now_ms=NOW, config=_config(mem))
    collect(v, r)
    for _, filename in list(v.private_list.options):
        v.private_list.value = filename
        collect(v, r)
    hostile = f"user_{_name_of(mem)('file')}.md"
    v.promote(hostile)
    collect(v, r)
    v.demote(f"team/project_{_name_of(mem)('teamfile')}.md")
    collect(v, r)


def drive_lab(mem: Path, r: Rendered) -> None:
    v = PathSecurityLab(mem, now_ms=NOW, config=_config(mem))
    collect(v, r)
    for key in (_text_of(mem)("key"), f"../{_name_of(mem)('key2')}", "ok/" + _name_of(mem)("k3")):
        v.check(key)
        collect(v, r)


def drive_dream(mem: Path, r: Rendered) -> None:
    v = DreamPlanner(mem, project_dir=mem.parent, now_ms=NOW, config=_config(mem))
    collect(v, r)
    v.make_plan()
    collect(v, r)
    v.apply()
    collect(v, r)
    v.restore()
    collect(v, r)


def drive_replay(mem: Path, r: Rendered) -> None:
    v = ReplayView(mem, selector="lexical", now_ms=NOW, config=_config(mem))
    collect(v, r)
    for i in range(len(v.rows)):
        v.select_turn(i)
        collect(v, r)
    v.transcript = str(mem.parent / f"{_name_of(mem)('missing')}.jsonl")  # an error naming it
    collect(v, r)


def drive_dashboard(mem: Path, r: Rendered) -> None:
    collect(Dashboard(mem, now_ms=NOW, config=_config(mem)), r)


ROUTES: dict[str, tuple[Callable[[Path, Rendered], None], tuple[str, ...]]] = {
    # route -> (driver, payload sources that must be readable, as text, afterwards)
    "MemoryBrowser": (
        drive_browser,
        ("file", "skipped", "name", "desc", "type", "desclist", "descmap", "body", "home"),
    ),
    "MemoryEditor": (drive_editor, ("formname", "formdesc", "formbody", "saveddesc", "file")),
    "IndexInspector": (drive_inspector, ("dropped", "stripped", "file", "desc")),
    "RecallPlayground": (drive_recall, ("desc", "file", "body", "teamdesc")),
    "RecallPlayground+Claude": (drive_recall_with_claude, ("desc", "file", "name")),
    "FreshnessView": (drive_freshness, ("file", "desc")),
    "TeamScopeView": (drive_team, ("file", "teamfile")),
    "PathSecurityLab": (drive_lab, ("key", "key2", "k3")),
    "DreamPlanner": (drive_dream, ("file", "dangling", "target", "title", "hook", "jslink")),
    "ReplayView": (
        drive_replay,
        ("prompt", "file", "written", "skipped", "home", "notice", "recap"),
    ),
    "Dashboard": (
        drive_dashboard,
        ("file", "desc", "dropped", "prompt", "skipped", "home", "notice", "recap"),
    ),
}


def _payload(tag: str) -> str:
    from tests.conftest import markup_payload

    return markup_payload(tag)


def _is_benign(mem: Path) -> bool:
    return mem.parents[3].name == "benign"


def _text_of(mem: Path) -> Callable[[str], str]:
    return benign_text if _is_benign(mem) else _payload


def _name_of(mem: Path) -> Callable[[str], str]:
    return benign_name if _is_benign(mem) else markup_name_payload


def render(root: Path, kind: str, route: str) -> Rendered:
    hostile = kind == "hostile"
    mem = build_markup_home(
        root / kind,
        _payload if hostile else benign_text,
        markup_name_payload if hostile else benign_name,
        markup_refused_name if hostile else benign_refused_name,
        markup_refused_name if hostile else benign_name,
    )
    r = Rendered()
    ROUTES[route][0](mem, r)
    return r


@pytest.mark.parametrize("route", list(ROUTES))
def test_no_element_or_attribute_of_a_view_comes_from_memory_data(
    route: str, tmp_path: Path
) -> None:
    allowed = Allowed.learn(render(tmp_path, "benign", route))
    hostile = render(tmp_path, "hostile", route)
    assert holes(hostile, allowed) == []
    text = shown_text(hostile)
    for source in ROUTES[route][1]:
        assert f"{MARK}='{source}'" in text, f"{route} does not show the {source} text"
    assert "<img src=x onerror=" in text  # the markup is there to read, as text


# Attack round 27: the terminal shows a bidirectional override (and every other character
# that can make text display as other text) as a visible escape; the HTML views put it on the
# page raw, so a description `evil<U+202E>dm.exe safe` showed reversed in the dashboard.
BIDI_CONTROLS = "\u202e\u2066\u200f\u061c"


def _bidi_text(tag: str) -> str:
    return f"{tag} evil{BIDI_CONTROLS}dm.exe safe\x1b[2J\u2028end"


@pytest.mark.parametrize(
    "route",
    [
        "MemoryBrowser",
        "IndexInspector",
        "RecallPlayground",
        "FreshnessView",
        "DreamPlanner",
        "ReplayView",
    ],
)
def test_a_bidi_control_in_memory_data_is_shown_escaped_in_every_view(
    route: str, tmp_path: Path
) -> None:
    mem = build_markup_home(tmp_path, _bidi_text, benign_name, benign_refused_name, benign_name)
    r = Rendered()
    ROUTES[route][0](mem, r)
    raw = [
        (where, ch)
        for where, value in r.html + r.text
        for ch in BIDI_CONTROLS + "\x1b\u2028"
        if ch in value
    ]
    assert raw == []
    assert any("\\u202e" in value for _, value in r.html)  # shown, as the terminal shows it


def test_a_transcript_named_with_a_bidi_control_is_shown_escaped_in_the_session_picker(
    tmp_path: Path,
) -> None:
    # transcript names are not memory names: the gate never sees them
    project = tmp_path / "projects" / "-p"
    mem = project / "memory"
    mem.mkdir(parents=True)
    record = {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "hi"}}
    (project / "sess\u202ex.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    r = Rendered()
    collect(ReplayView(mem, selector="lexical", now_ms=NOW, config=_config(mem)), r)
    options = [value for where, value in r.text if where.endswith(".option")]
    assert any(value.startswith("sess\\u202ex") for value in options), options
    assert not any("\u202e" in value for value in options)


def test_a_memory_name_with_an_angle_bracket_is_skipped_and_rebuild_and_dream_still_run(
    tmp_path: Path,
) -> None:
    # The gate once let `user_<img ...>.md` through while no index link can point at it, so
    # the inspector's rebuild and the dream plan failed for the whole dir over one file.
    mem = build_markup_home(tmp_path / "hostile", _payload)
    inspector = IndexInspector(mem, now_ms=NOW, config=_config(mem))
    inspector.rebuild()
    assert "Rebuilt" in inspector.status.value or "rebuilt" in inspector.status.value
    planner = DreamPlanner(mem, project_dir=mem.parent, now_ms=NOW, config=_config(mem))
    assert planner.make_plan() is not None, planner.status.value
    browser = MemoryBrowser(mem, now_ms=NOW, config=_config(mem))
    assert "angle bracket" in browser.skipped_box.value


def test_the_package_has_one_html_escaper() -> None:
    # spec/text.html_safe is the home (the widgets call it `esc`); a second escaper would be
    # a second place to forget the quotes.
    package = Path(__file__).resolve().parents[2] / "memdir_nb"
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [f"{node.module}.{a.name}" for a in node.names]
            found += [
                f"{path.relative_to(package)}: {n}"
                for n in names
                if n == "html" or n.startswith(("html.", "markupsafe", "xml.sax.saxutils"))
            ]
    assert found == ["spec/text.py: html"]


# ------------------------------------------------------------------------------ the notebooks

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


def _notebook_params(stem: str, mem: Path) -> str | None:
    """The parameters cell that points a notebook with its own parameters at the hostile home."""
    if stem == "10_where_and_doctor":
        return f"MEMORY_DIR = {str(mem)!r}\nPROJECT_DIR = None\n"
    if stem == "11_session_replay":
        transcript = mem.parent / f"{MARKUP_SESSION_ID}.jsonl"
        return f"CLAUDE_HOME = {str(mem.parents[2])!r}\nTRANSCRIPT = {str(transcript)!r}\n"
    return None


@pytest.mark.slow
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_a_notebook_over_the_hostile_dir_shows_its_markup_as_text(
    notebook: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    mem = build_markup_home(tmp_path / "hostile")
    monkeypatch.setenv("MEMDIR_NB_DIR", str(mem))
    nb = nbformat.read(notebook, as_version=4)
    params = _notebook_params(notebook.stem, mem)
    if params is not None:
        next(c for c in nb.cells if c.cell_type == "code").source = params
    execute_notebook(
        nb, timeout=300, allow_errors=True, resources={"metadata": {"path": str(notebook.parent)}}
    )
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert [f"{o.ename}: {o.evalue}" for o in outputs if o.output_type == "error"] == []
    found = []
    for out in outputs:
        data = out.get("data", {})
        assert not {"text/markdown", "text/latex", "image/svg+xml"} & set(data), data.keys()
        value = data.get("text/html")
        if value is None:
            continue
        p = parse(value)
        found += [f"handler {n}= on <{t}>" for t, n, _ in p.attrs if n.startswith("on")]
        found += [f"<{t}> from data" for t in p.tags if t in ACTIVE_TAGS - {"style"} | {"img"}]
        found += [f"<{t}> with data" for t, text in p.active if MARK in text]
        if MARK in value and "tex2jax_ignore" not in value:
            found.append("a table holding data that the page's MathJax typesets ($...$ as LaTeX)")
    assert found == []
