"""The one home of relative dates: what each phrase means on a fixed Wednesday (2026-11-18)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memdir_nb.spec import dates
from memdir_nb.spec.counted_spans import a_numbered_period
from memdir_nb.spec.dates import (
    convert_relative_dates,
    find_relative_dates,
    local_date,
    resolve_relative_date,
)
from memdir_nb.spec.text import FOLDS_TO_ASCII

WEDNESDAY = dt.date(2026, 11, 18)

RESOLUTIONS = [
    # phrase, absolute text on Wednesday 2026-11-18
    ("today", "2026-11-18"),
    ("tonight", "2026-11-18"),
    ("this morning", "2026-11-18"),
    ("tomorrow", "2026-11-19"),
    ("yesterday", "2026-11-17"),
    # this <weekday>: that day of the current Monday-Sunday week, past or future
    ("this monday", "2026-11-16"),
    ("this Wednesday", "2026-11-18"),
    ("this friday", "2026-11-20"),
    ("this sunday", "2026-11-22"),
    # next / coming <weekday> and a bare weekday: the first such day after today
    ("next monday", "2026-11-23"),
    ("next friday", "2026-11-20"),
    ("next wednesday", "2026-11-25"),
    ("coming Thursday", "2026-11-19"),
    ("Thursday", "2026-11-19"),
    # last / past <weekday>: the last such day before today
    ("last monday", "2026-11-16"),
    ("last friday", "2026-11-13"),
    ("last wednesday", "2026-11-11"),
    ("past Tuesday", "2026-11-17"),
    # in N / N ago: days, weeks, months (day clamped to the month's length)
    ("in 3 days", "2026-11-21"),
    ("in 2 weeks", "2026-12-02"),
    ("in a week", "2026-11-25"),
    ("in two weeks", "2026-12-02"),
    ("in 3 months", "2027-02-18"),
    ("5 days ago", "2026-11-13"),
    ("2 weeks ago", "2026-11-04"),
    ("a month ago", "2026-10-18"),
    # periods
    ("this week", "the week of 2026-11-16"),
    ("next week", "the week of 2026-11-23"),
    ("last week", "the week of 2026-11-09"),
    ("this weekend", "the weekend of 2026-11-21"),
    ("next month", "December 2026"),
    ("last month", "October 2026"),
    ("next year", "2027"),
    # end of ...
    ("end of month", "2026-11-30"),
    ("end of the month", "2026-11-30"),
    ("end of next month", "2026-12-31"),
    ("end of the week", "2026-11-20"),
    ("end of next week", "2026-11-27"),
    ("end of the quarter", "2026-12-31"),
    ("end of the year", "2026-12-31"),
]


@pytest.mark.parametrize(("phrase", "expected"), RESOLUTIONS)
def test_phrase_resolves_on_a_fixed_wednesday(phrase: str, expected: str) -> None:
    resolved = resolve_relative_date(phrase, WEDNESDAY)
    assert resolved is not None, phrase
    assert resolved.text == expected


@pytest.mark.parametrize("phrase", ["in a few days", "a couple of weeks ago", "several days ago"])
def test_vague_phrases_are_found_but_name_no_date(phrase: str) -> None:
    assert [r.phrase for r in find_relative_dates(f"Ship {phrase}.")] == [phrase]
    assert resolve_relative_date(phrase, WEDNESDAY) is None


@pytest.mark.parametrize("text", ["Report at the next quarter close.", "Ship in the next sprint."])
def test_quarters_and_sprints_are_not_flagged(text: str) -> None:
    assert find_relative_dates(text) == []


def test_a_single_day_is_exact_and_a_period_is_not() -> None:
    day = resolve_relative_date("tomorrow", WEDNESDAY)
    week = resolve_relative_date("next week", WEDNESDAY)
    assert day is not None and day.exact_day and day.first_day == dt.date(2026, 11, 19)
    assert week is not None and not week.exact_day and week.first_day == dt.date(2026, 11, 23)


@pytest.mark.parametrize(
    "text",
    [
        "Demo is on Thursday 2026-03-05.",
        "Demo on 2026-03-05 (Thursday).",
        "Freeze next Thursday 2026-03-05.",
        "Handoff every Monday at 10.",
        "Triage happens on Tuesdays.",
        "- `sort_audit.py`: weekly Monday 6 AM UTC vault audit",  # a schedule, seen in a real dir
        "Backups run biweekly Friday night.",
        "the monday standup",  # a lowercase weekday alone is not flagged
        "Never schedule a migration on a Friday.",  # any Friday: a rule, not a date
        "No Friday deploys, and no deploy on any Saturday.",
        # fresh34: a range of weekdays is a weekly schedule (a deploy window), not a date
        "Production deploys happen Tuesday to Thursday, 10:00-15:00 Helsinki time.",
        "On call Monday\u2013Friday, standup Monday-Friday, reviews Monday through Friday.",
    ],
)
def test_anchored_recurring_or_lowercase_weekdays_are_not_relative_dates(text: str) -> None:
    assert find_relative_dates(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Monday 10:00 standup with the platform team.",
        "Standup Monday 10:00, retro Friday 16:00 CET.",
        "Rotation hands over Monday 10:00 UTC.",
        "Weekly sync Tuesday at 3pm PST; the Thursday 1:1 moves with it.",
        "Office hours: Wednesday 14:00-15:00.",
    ],
)
def test_a_recurring_meetings_weekday_slot_is_not_a_relative_date(text: str) -> None:
    # lefts37: "Monday 10:00 standup" was relative-date ('Monday'); a standup, a retro, a 1:1
    # or a rotation recurs by its nature, so its weekday is the weekly slot, not a date
    assert find_relative_dates(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "The cdn peaks at 4853 requests per second on Monday mornings.",  # the recall corpus
        "Tuesday afternoons are teaching in term time.",
        "Cut bad Friday longs before the close.",  # real41: a trading project's pattern
        "Friday shorts into the weekend gap lose money.",
    ],
)
def test_a_weekday_made_a_kind_of_day_by_the_plural_after_it_is_not_a_relative_date(
    text: str,
) -> None:
    # lefts42: a part of the day or a trading position in the plural names every such day
    assert find_relative_dates(text) == []


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("test on Monday", "Monday"),  # real41's true findings stay
        ("URGENT Monday check", "Monday"),
        ("The Friday longs were stopped out.", "Friday"),  # "the": one Friday's
        ("Friday night is the cutover.", "Friday"),  # one night
        ("Hold Friday deploys until the fix lands.", "Friday"),  # may be this week's
        ("Monday works for the demo.", "Monday"),  # a verb after it
        ("Exit after Friday close.", "Friday"),  # singular: left as found
    ],
)
def test_a_weekday_before_any_other_word_stays_a_relative_date(text: str, phrase: str) -> None:
    assert [h.phrase for h in find_relative_dates(text)] == [phrase]


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("Client demo Thursday 14:00.", "Thursday"),  # a time alone: a one-off reads the same
        ("Monday 10:00", "Monday"),
        ("We sync Thursday about pricing.", "Thursday"),  # "sync" the verb: a one-off
        ("Standup moved; the launch is Friday.", "Friday"),  # the meeting is not the weekday's
    ],
)
def test_a_weekday_with_only_a_time_or_a_verb_beside_it_stays_a_relative_date(
    text: str, phrase: str
) -> None:
    assert [h.phrase for h in find_relative_dates(text)] == [phrase]


def test_a_weekday_range_opened_by_next_stays_two_relative_dates() -> None:
    # a guard: a range opened by "next" names days of one week, both still relative dates
    assert [h.phrase for h in find_relative_dates("Off next Tuesday to Thursday.")] == [
        "next Tuesday",
        "Thursday",
    ]


def test_finder_reports_line_span_and_phrase_in_reading_order() -> None:
    hits = find_relative_dates("Intro\nShip tomorrow, review on Friday and in 2 weeks.")
    assert [(h.line, h.phrase) for h in hits] == [(1, "tomorrow"), (1, "Friday"), (1, "in 2 weeks")]
    first = hits[0]
    assert "Ship tomorrow, review"[first.start : first.end] == "tomorrow"


def test_a_word_inside_inline_code_is_a_name_and_no_relative_date() -> None:
    """A helper named `loadDay/Tomorrow` or a flag `--since yesterday` in backticks is code,
    which the rewrite leaves alone; lint asked for a date there (real38: an agent's note on
    two date helpers), so the finder skips it too. The same word outside the backticks is one."""
    line = "Times were fine (`loadDay/Tomorrow` share one zone); run `tool --since yesterday`."
    assert find_relative_dates(line) == []
    hits = find_relative_dates(line + " Retry tomorrow.")
    assert [h.phrase for h in hits] == ["tomorrow"]


def test_a_word_joined_by_a_slash_is_a_name_and_no_relative_date() -> None:
    """real39: a note in Portuguese says overdue bills are moved "para today/EOM", the two
    values of a setting, and lint asked for the date 'today' meant. A relative word joined by
    a slash to a word is an option, a route or a path ("today/EOM", "/api/today"), as one
    joined by a hyphen is a compound; the rewrite leaves it, and lint does too. A slash with
    a space beside it joins no word."""
    for line in [
        "Overdue bills move to today/EOM (the mode's two values).",
        "The widget polls /api/today for the list.",
        "Settle at EOM/tomorrow.",
    ]:
        assert find_relative_dates(line) == [], line
        assert convert_relative_dates(line, WEDNESDAY) == (line, [])
    hits = find_relative_dates("Both stay put / tomorrow we move them.")
    assert [h.phrase for h in hits] == ["tomorrow"]


def test_a_relative_word_compared_with_a_name_is_code_and_no_relative_date() -> None:
    """real40b: a project memory lists a rule, "active when status=won + endDate>today", and
    the dream rewrote it to "endDate>2026-06-07", fixing the rule's moving day to the day the
    memory was written. A relative word on either side of a comparison with a name, or set with
    no space after `=`, is code; a phrase after a spaced `=` or an arrow is still a date."""
    for line in [
        "Capacity check on when status=won + endDate>today.",
        "Flag the card if due <= tomorrow.",
        "Skip rows where today == lastRun.",
        "Open the board with ?from=yesterday in the link.",
    ]:
        assert find_relative_dates(line) == [], line
        assert convert_relative_dates(line, WEDNESDAY) == (line, [])
    for line, phrase in [("The ETA = tomorrow.", "tomorrow"), ("Moved -> tomorrow.", "tomorrow")]:
        assert [h.phrase for h in find_relative_dates(line)] == [phrase], line


def test_a_capitalised_today_naming_a_part_of_an_app_is_a_name_and_no_relative_date() -> None:
    """lefts45: apps name their daily screen "Today", and project memories about them say
    "Today view lists the doses due" or "- [x] Today tab shows the streak"; lint asked which
    day it meant and the dream rewrote the name to a date. A capitalised "Today" before a word
    naming a part of an app, or a link's text, is a name; "Today we moved..." and "as of
    today" are dates, as is "Today:" opening a note."""
    for line in [
        "Today view lists the doses due, oldest first.",
        "- [x] Today tab shows the streak ring after a check-in.",
        "Surfaces touched: Today page, the settings sheet and the widget.",
        "Shipped. Today screen now loads from the cache.",
        "- **Today** view: tasks due now, grouped by project.",
        "1. TODAY PANEL keeps its scroll position.",
        "The layout is in [Today](screens/today.md) and [Today view](views.md).",
        "Pin it to [[Today]] so it shows first.",
    ]:
        assert find_relative_dates(line) == [], line
        assert convert_relative_dates(line, WEDNESDAY) == (line, [])
    for line, phrase in [
        ("Today we moved the build to the new runner.", "Today"),
        ("As of today the flag is on for everyone.", "today"),
        ("Today: the deploy froze at noon.", "Today"),
        ("Today the view loads slowly; check after the fix.", "Today"),
        ("today page weight doubled after the font change.", "today"),
    ]:
        assert [h.phrase for h in find_relative_dates(line)] == [phrase], line
    assert convert_relative_dates("Today we moved the runner.", WEDNESDAY)[0] == (
        "2026-11-18 we moved the runner."
    )


def test_in_n_days_after_a_tally_is_the_span_it_covers_and_no_relative_date() -> None:
    """real41: a trading project's memories report backtests ("Only 10 signals in 56 days",
    "+29.3% in 9 days", "68 events in 12 months"); lint called each a relative date and the
    dream rewrote the first to "Only 10 signals 2027-01-28". After a tally (a percentage, an
    amount of money, or a number and a plural noun) "in N days" is how long the tally took;
    after a plan's verb, or a name ending in a digit (`v2`), it is still a day to come."""
    for line in [
        "Backtest: only 14 fills in 40 days, the gate is too strict.",
        "Paper account: +12.5% in 9 days, worst day -$80.",
        "- **31 bounces in 12 months (2.6/month)**",
        "The bot made +$320 in 3 days.",
        "Saw 7 new alerts in 2 weeks.",
    ]:
        assert find_relative_dates(line) == [], line
        assert convert_relative_dates(line, WEDNESDAY) == (line, [])
    for line in ["Ship v2 in 3 days.", "We cut the release in 2 weeks.", "Tag 1.4 in 3 days."]:
        assert [h.phrase for h in find_relative_dates(line)] != [], line


def test_convert_rewrites_outside_code_and_lists_each_change() -> None:
    text, changes = convert_relative_dates(
        "Decided yesterday, ship in 2 weeks, `today` stays, demo Friday.\n```\ntoday\n```",
        WEDNESDAY,
    )
    assert text == (
        "Decided 2026-11-17, ship 2026-12-02, `today` stays, demo Friday.\n```\ntoday\n```"
    )
    assert changes == ["'yesterday' -> '2026-11-17'", "'in 2 weeks' -> '2026-12-02'"]


def test_convert_leaves_a_fenced_block_in_a_list_item_alone() -> None:
    """A fence nested in a list item is indented past three spaces; its lines are code, and
    the dream's rewrite changed them (onehome30: the fence rule is spec.text.fence_change)."""
    body = "- check what landed:\n\n    ```\n    git log --since yesterday\n    ```\n\nShipped yesterday."
    text, changes = convert_relative_dates(body, WEDNESDAY)
    assert text == body.replace("Shipped yesterday", "Shipped 2026-11-17")
    assert changes == ["'yesterday' -> '2026-11-17'"]


def test_convert_leaves_a_fenced_block_alone_until_its_own_fence_closes_it() -> None:
    """A ~~~ line inside a ``` block (or a shorter run inside a longer one) is code, as
    CommonMark reads it: the block goes on, and so do its dates (polish30b: it closed them)."""
    body = "```\n~~~\ngit log --since yesterday\n```\n````\n```\ndue tomorrow\n````\nShipped yesterday."
    text, changes = convert_relative_dates(body, WEDNESDAY)
    assert text == body.replace("Shipped yesterday", "Shipped 2026-11-17")
    assert changes == ["'yesterday' -> '2026-11-17'"]


def test_convert_leaves_vague_and_anchored_phrases_alone() -> None:
    body = "Soon: in a few days. Freeze next Thursday (2026-11-26)."
    assert convert_relative_dates(body, WEDNESDAY) == (body, [])


@pytest.mark.parametrize(
    "text",
    [
        "Covering the last week of changes to the kiln log.",  # the seven days before
        "The past week's glaze tests came out matte.",
        "Over the past month the clay price rose twice.",
        "Booked for the next week of firings.",
        "Kiln cleaning is on the last Friday of the month.",  # any month's, not one date
    ],
)
def test_a_modified_week_month_or_weekday_after_the_is_reported_but_left_as_written(
    text: str,
) -> None:
    # real35: the rewrite made "covering the last week of" into "covering the the week of
    # 2026-11-23 of", a calendar week for a span, with its article twice
    assert find_relative_dates(text) != []
    assert convert_relative_dates(text, WEDNESDAY) == (text, [])
    assert convert_relative_dates("Shipped last week.", WEDNESDAY)[0] == (
        "Shipped the week of 2026-11-09."
    )


@pytest.mark.parametrize(
    "text",
    [
        "### The Problem Today",  # a heading names a topic
        "## Yesterday",
        "> ship it tomorrow, she said",  # a blockquote repeats words said then
        'Any job that reports "yesterday UTC" must run after midnight.',  # quoted: a name
        "The flag reads \u201cnext week\u201d in the UI.",
        "`priority_teams()` puts today's teams first.",  # "today's": the present
        "Today\u2019s build is the one to keep.",
        # real35: a title capitalised inside a sentence, as a blog's catalogue table holds it
        "| glaze-log | glaze-log: Turn Yesterday's Firings Into a Glaze Log | kiln |",
        "Read Firing Today Without Cracks before loading the kiln.",
        # real35: a word joined by a hyphen, "safe-today usage" in a published memory
        "Plain glazes are the safe-today choice for the shelf.",
        "A today-only discount on seconds.",
        "Cones come tomorrow-ish.",
    ],
)
def test_headings_quotes_and_todays_are_not_relative_dates(text: str) -> None:
    assert find_relative_dates(text) == []
    assert convert_relative_dates(text, WEDNESDAY) == (text, [])


@pytest.mark.parametrize(
    "text", ["Done. Today we fired the kiln.", "| Yesterday | bisque fired |", "- Tomorrow: glaze"]
)
def test_a_capital_opening_a_sentence_a_cell_or_an_item_is_still_a_relative_date(text: str) -> None:
    assert len(find_relative_dates(text)) == 1


def test_the_statement_beside_a_quote_is_still_a_relative_date() -> None:
    line = 'We renamed "today view" yesterday; #tags stay. Tomorrow\u2019s review'
    assert [h.phrase for h in find_relative_dates(line)] == ["yesterday", "Tomorrow"]
    text, _ = convert_relative_dates(line, WEDNESDAY)
    assert text == 'We renamed "today view" 2026-11-17; #tags stay. 2026-11-19\u2019s review'


def test_lint_the_draft_verdict_and_dream_agree_on_one_wednesday() -> None:
    from memdir_nb.dream import convert_relative_dates as dream_convert
    from memdir_nb.storage.draft import relative_date_problems

    noon = dt.datetime(2026, 11, 18, 12, 0).timestamp() * 1000
    text = "Review this monday, ship in 2 weeks."
    assert [h.phrase for h in find_relative_dates(text)] == ["this monday", "in 2 weeks"]
    converted, _ = dream_convert(text, local_date(noon))
    assert converted == "Review 2026-11-16, ship 2026-12-02."
    messages = [p.message for p in relative_date_problems(text, noon)]
    assert "2026-11-16" in messages[0] and "2026-12-02" in messages[1]


@pytest.mark.parametrize(
    "text",
    [
        "Ship it tomorrow",
        "the freeze starts next Thursday",
        "in two weeks",
        "three days ago",
        "end of the quarter",
        "On Monday we deploy",
        "TOMORROW",
        "a plain line\nwith nothing dated",
        "Ｔｏｍｏｒｒｏｗ and 明天",
    ],
)
def test_the_whole_text_check_never_hides_a_relative_date(text: str) -> None:
    from memdir_nb.spec.dates import may_hold_relative_date

    if find_relative_dates(text):
        assert may_hold_relative_date(text)
    if text.startswith("a plain line"):
        assert not may_hold_relative_date(text)


def _reference_hits(line: str) -> list[tuple[int, int, str]]:
    """Phrase spans as the case-insensitive pattern finds them on the line as written."""
    from memdir_nb.spec import dates

    spans = []
    for m in dates._PHRASE.finditer(line):
        wd = m.start("wd")
        if wd != -1 and dates._weekday_anchored(line, wd, m.end("wd")):
            continue
        if dates._in_a_title(line, m.start()):  # a capital inside a sentence (real35)
            continue
        if dates._in_a_compound(line, m.start(), m.end()):  # joined by a hyphen (real35)
            continue
        if a_numbered_period(line, m):  # "end of week 20" (real44)
            continue
        spans.append((m.start(), m.end(), m.group(0)))
    return spans


def test_ascii_lines_searched_lower_cased_give_the_case_insensitive_spans() -> None:
    # On ASCII text the phrase pattern runs case-sensitively over the lower-cased line: the
    # same spans, and each phrase as written in the line.
    import random

    from memdir_nb.spec import dates

    rng = random.Random(8)
    pieces = [
        "Tomorrow",
        "TODAY",
        "this Morning",
        "Next Friday",
        "LAST week",
        "in Two WEEKS",
        "3 Days Ago",
        "End Of The Quarter",
        "a couple of",
        "days",
        "on",
        "ship",
        "2026-03-05",
        "Thursday",
        "every Monday",
        "weekend",
        "ThIs  YeAr",
        "\t",
        ", ",
        "tonight.",
    ]
    for _ in range(2_000):
        line = " ".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        want = _reference_hits(line)
        got = [s for s in dates._line_hits(line) if not dates._BARE_WEEKDAY.fullmatch(s[2])]
        assert got == sorted(want), line
        found = dates._PHRASE.search(line) or dates._BARE_WEEKDAY.search(line)
        assert dates.may_hold_relative_date(line) == (found is not None), line


def test_non_ascii_lines_keep_the_case_insensitive_search() -> None:
    # Case-insensitive matching folds the long s and the Kelvin sign onto ASCII letters.
    text = "ſhip it tomorrow ＴＯＭＯＲＲＯＷ café"
    assert [h.phrase for h in find_relative_dates(text)] == ["tomorrow"]


@pytest.mark.parametrize("seed", range(20))
def test_the_whole_text_check_agrees_with_the_lines_on_seeded_random_texts(seed: int) -> None:
    import random

    from memdir_nb.spec.dates import _BARE_WEEKDAY, _PHRASE, _PHRASE_LOWER, may_hold_relative_date

    rng = random.Random(seed)
    pieces = ["Next", "WEEK", "this", "Morning", "in", "3", "Days", "ago", "a couple of", "end of"]
    pieces += ["the", "Quarter", "Monday", "monday", "Tuesdays", "every", "to", "day", "YEAR"]
    pieces += [" ", " ", "\n", "\t", "-", "2026-03-05", "ſ", "K", "today's"]
    # outside ASCII: spaces of other kinds, a dash, letters and digits of other scripts, and
    # the two folds left (a text with any of the four is searched with the pattern alone)
    pieces += ["\u00a0", "\u2003", "—", "Ünï", "日本", "١٢", "İ", "ı", "ΣΑΣ"]
    for _ in range(100):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))
        if any(find_relative_dates(line) for line in text.split("\n")):
            assert may_hold_relative_date(text), text
        hit = _PHRASE.search(text) is not None or _BARE_WEEKDAY.search(text) is not None
        assert may_hold_relative_date(text) is hit, text
        if text.isascii():
            found = _PHRASE.search(text) is not None
            assert (_PHRASE_LOWER.search(text.lower()) is not None) is found, text


def test_generated_relative_date_phrases_pass_the_whole_text_check() -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from memdir_nb.spec.dates import _PHRASE, may_hold_relative_date

    @settings(
        max_examples=300, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(st.from_regex(_PHRASE, alphabet=st.characters(codec="ascii")))
    def check(text: str) -> None:
        if _PHRASE.search(text) is not None:
            assert may_hold_relative_date(text), text

    # every script but the four folds: its whitespace and letters go through the quick path
    @settings(
        max_examples=300, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(
        st.from_regex(
            _PHRASE, alphabet=st.characters(codec="utf-8", exclude_characters=FOLDS_TO_ASCII)
        )
    )
    def check_any_script(text: str) -> None:
        if _PHRASE.search(text) is not None:
            assert may_hold_relative_date(text), text

    check()
    check_any_script()


def test_the_longest_phrase_with_single_spaces_is_phrase_max_chars() -> None:
    # The window around each needle relies on it: every phrase the pattern allows, written
    # with single spaces (a number at its longest), is at most _PHRASE_MAX_CHARS long.
    from itertools import product

    from memdir_nb.spec import dates

    mods = ["this", "next", "last", "coming", "past"]
    counts = ["999", "a", "an", "one", "seven", "a few", "a couple of", "several"]
    units = [u + s for u in ("day", "week", "month") for s in ("", "s")]
    phrases = ["today", "tonight", "tomorrow", "yesterday"]
    phrases += [f"this {p}" for p in ("morning", "afternoon", "evening")]
    phrases += [f"{m} {w}" for m, w in product(mods, [*dates.WEEKDAYS, "week", "weekend"])]
    phrases += [f"{m} {p}" for m, p in product(mods, ["month", "year"])]
    phrases += [f"in {c} {u}" for c, u in product(counts, units)]
    phrases += [f"{c} {u} ago" for c, u in product(counts, units)]
    periods = ["week", "month", "quarter", "year"]
    phrases += [f"end of {m}{p}" for m, p in product(["", "the ", "this ", "next "], periods)]
    for phrase in phrases:
        assert dates._PHRASE_LOWER.fullmatch(phrase), phrase
    assert max(map(len, phrases)) == dates._PHRASE_MAX_CHARS


def test_the_needle_windows_give_the_whole_text_search_s_answer() -> None:
    # may_hold_relative_date on ASCII tries the phrase pattern only near each needle, in the
    # text with its whitespace runs made single spaces. Its answer must be the whole-text
    # search's, with phrases far from other needles, long whitespace runs inside phrases,
    # and words cut at a window's end ("todays", "weekends").
    import random

    from memdir_nb.spec import dates

    rng = random.Random(12)
    pieces = ["a couple of", "months", "ago", "in", "several", "days", "end", "of", "the"]
    pieces += ["quarter", "this", "month", "todays", "Monday", "Mondays", "weekends", "next"]
    pieces += ["year", "x" * 30, "spend tagged before month end", "morning", "2026-03-05"]
    gaps = [" ", "  ", "\t", "\n", " \n\t ", " " * 25, "-", ", ", ""]
    hits = 0
    for _ in range(4_000):
        text = "".join(rng.choice(pieces) + rng.choice(gaps) for _ in range(rng.randint(1, 10)))
        want = (
            dates._PHRASE_LOWER.search(text.lower()) is not None
            or dates._BARE_WEEKDAY.search(text) is not None
        )
        assert dates.may_hold_relative_date(text) == want, repr(text)
        hits += want
    assert 500 < hits < 3_500  # both answers well covered


_EVERY_KIND_OF_PHRASE = (
    "today",
    "tomorrow",
    "yesterday",
    "this morning",
    "next Monday",
    "last Sunday",
    "this Friday",
    "Thursday",
    "this week",
    "next week",
    "last week",
    "next weekend",
    "next month",
    "last month",
    "next year",
    "last year",
    "in 999 days",
    "999 days ago",
    "in 999 weeks",
    "999 weeks ago",
    "in 999 months",
    "999 months ago",
    "end of the week",
    "end of next week",
    "end of the month",
    "end of next month",
    "end of next quarter",
    "end of the quarter",
    "end of next year",
)


@pytest.mark.parametrize(
    "today", [dt.date.max, dt.date.min, dt.date(9999, 12, 1), dt.date(1, 1, 31)]
)
def test_a_phrase_whose_date_falls_off_the_calendar_names_no_date_and_never_raises(
    today: dt.date,
) -> None:
    # attack37: a memory whose `modified:` was 9999-12-31 made "next year" date(10000, 1, 1):
    # ValueError out of the whole dream plan ("error: year 10000 is out of range"), so one
    # teammate's memory stopped every consolidation of the dir, naming no file
    for phrase in _EVERY_KIND_OF_PHRASE:
        found = resolve_relative_date(phrase, today)
        assert found is None or dt.date.min <= found.first_day <= dt.date.max, phrase
    text = "We fire " + ", ".join(_EVERY_KIND_OF_PHRASE) + ".\n"
    converted, changes = convert_relative_dates(text, today)
    assert len(changes) <= len(_EVERY_KIND_OF_PHRASE)
    assert "next year" in converted or today.year < 9999  # left as written when off the calendar


@pytest.mark.parametrize(
    "text",
    [
        "2026-12-25 (Friday): office closed",
        "Friday, 25 December 2026: office closed",
        "Office closed on December 25th, 2026 (Friday).",
        "Thursday: we close early, at 15:00 (Dec 31, 2026)",  # the line's label, its date
        "12/25/2026 (Friday) and 25/12/2026 (Friday)",  # a slash date read either way
        "2026/12/25 Friday, 2026.12.24 Thursday",
        "## 2026-12-25\nFriday: office closed",  # under a heading that holds the date
        "### 25 December 2026\n\nFriday: office closed",  # a blank line between
        "- 2027-01-01 reopening\n  Friday: the alarm code changes",
    ],
)
def test_a_weekday_naming_the_day_of_a_full_date_on_its_line_or_the_line_before_is_no_relative_date(
    text: str,
) -> None:
    # real44: holiday and schedule notes name a full date's weekday beside it or under it;
    # "Friday: office closed" under "## 2026-12-25" was reported as a relative date
    assert find_relative_dates(text) == []


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("2026-12-25 (Thursday): office closed", "Thursday"),  # 2026-12-25 is a Friday
        ("Thursday, 25 December 2026", "Thursday"),
        ("## 2026-12-25\nMonday: office closed", "Monday"),
        ("Closed 2026-12-25 (Friday), reopens Monday.", "Monday"),
        ("Review next Friday; closures are under 2026-12-25.", "next Friday"),
        ("## 2026-12-25\nlast Friday we shipped", "last Friday"),
        ("## 2026-12-25\nSome text.\nFriday: deploy", "Friday"),  # two lines below the date
        # a weekday inside a sentence may be another week's, whatever the date says (the
        # recall benchmark's standups: 2026-06-05 is a Friday, the demo the next one)
        ("Standup 2026-06-05: 7 PRs merged, demo moved to Friday.", "Friday"),
        ("Rota from 2026-02-23.\nThe hand-off is Monday at 10:00.", "Monday"),
    ],
)
def test_a_weekday_the_full_date_does_not_fall_on_or_a_modified_one_stays_a_relative_date(
    text: str, phrase: str
) -> None:
    assert [h.phrase for h in find_relative_dates(text)] == [phrase]


def test_the_line_before_is_given_when_one_line_of_a_longer_text_is_read() -> None:
    # lint reads a memory line by line and passes the last line above that is not blank
    assert [h.phrase for h in find_relative_dates("Friday: office closed")] == ["Friday"]
    assert find_relative_dates("Friday: office closed", "### 2026-12-25 holidays") == []
    assert [h.phrase for h in find_relative_dates("Friday: closed", "### 2026-12-24")] == ["Friday"]


@pytest.mark.parametrize(
    "text",
    [
        "Goal: 10 paying customers by end of week 20.",
        "Review the pilot at the end of month 3, then decide.",
        "Stage 2 closes at end of the quarter 2 milestone",
    ],
)
def test_end_of_a_numbered_week_or_month_is_a_plans_period_and_no_relative_date(text: str) -> None:
    # real44: a startup's staged plan ("Stage 5 (weeks 15-20) ... ~$1k MRR by end of week 20")
    # was reported as 'end of week', and the dream would have written the memory's own Friday
    assert find_relative_dates(text) == []
    assert convert_relative_dates(text, WEDNESDAY) == (text, [])
    assert [h.phrase for h in find_relative_dates("Ship by end of week.")] == ["end of week"]


# redos44: the checks around each phrase of a line asked every quote, phrase and range of the
# line before it, and every bare weekday searched the whole line before it for "every":
# quadratic ("Monday " 36,000 times in one 256 KiB memory: 200 s a read)


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=8))
def test_a_span_set_covers_a_position_when_one_of_its_spans_does(
    spans: list[tuple[int, int]],
) -> None:
    covered = dates._Spans(spans)
    for pos in range(-1, 32):
        assert covered.covers(pos) == any(s <= pos < e for s, e in spans)


_CUE_PIECES = ["every", "each", "on alternate", "a", "no", "bi-weekly", " ", "  ", "\t", "\u00a0"]


@given(st.lists(st.sampled_from([*_CUE_PIECES, "x", "ya", "-", "on"]), max_size=10))
def test_a_recurring_cue_is_found_before_a_weekday_as_in_the_whole_line_before_it(
    pieces: list[str],
) -> None:
    line = "".join(pieces) + "Monday"
    for start in range(len(line) + 1):
        whole_line_before = dates._RECURRING_BEFORE.search(line[:start]) is not None
        assert dates._recurring_before(line, start) == whole_line_before


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("Monday " * 36_000, 36_000),  # each a bare weekday, reported
        ("every Monday " * 20_000, 0),  # each made recurring by the cue before it
        ("Tuesday to Thursday " * 13_000, 0),  # ranges: a weekly schedule
        ('"Monday" ' * 28_000, 0),  # quoted
        ('"a" ' * 30_000 + "tomorrow " * 15_000, 15_000),  # many quotes, then the phrases
        ("next Monday " * 20_000, 20_000),  # a phrase, its weekday not counted again
        ("2026-12-25 (Friday) " * 12_000, 0),  # each the weekday of the date beside it
        ("Friday: closed 2026-12-24, " * 8_000, 8_000),  # a label and a date of another day
        ("went from a to b in 3 days. " * 10_000, 0),  # each the time a change took
        ("ship in 3 days; " * 20_000, 20_000),  # each a day, no start before any
        ("YYYY-MM-DD " + "today " * 20_000, 0),  # the day a step is done, the template once
    ],
    ids=[
        "weekdays",
        "recurring",
        "ranges",
        "quoted",
        "quotes-then-phrases",
        "phrases",
        "dated-weekdays",
        "mislabelled-weekdays",
        "change-spans",
        "spans-without-a-start",
        "templated-todays",
    ],
)
def test_a_long_line_of_phrases_quotes_and_ranges_is_read_phrase_by_phrase(
    line: str, found: int
) -> None:
    hits = dates.find_relative_dates(line)
    assert len(hits) == found
    assert all(hit.phrase == line[hit.start : hit.end] for hit in hits)


@pytest.mark.parametrize(
    ("line", "phrases"),
    [
        ("- [Setup](retro.md) \u2014 project zero \u2192 first deploy in 4 days", []),
        ("Shipped \u2014 the whole app from zero in 4 days: scaffolding first", []),
        ('it went from "one provider" to "a dropdown of three" in three days', []),
        ("name it `posts/YYYY-MM-DD-NN.md`: today's date (01 if none went out today)", []),
        ("Hit the lock again today; the freeze is in 4 days", ["today", "in 4 days"]),
        ("we went from A to B. The audit is in 4 days", ["in 4 days"]),
    ],
)
def test_a_changes_span_and_a_templates_today_are_no_relative_dates(
    line: str, phrases: list[str]
) -> None:
    """real45: retros told how long a change took, and a rule named files by a date template."""
    assert [h.phrase for h in dates.find_relative_dates(line)] == phrases
