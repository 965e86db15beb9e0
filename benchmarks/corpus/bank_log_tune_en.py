"""Log bank of the TUNE corpus, English (twenty-first session). Every sentence written for memdir_nb.

A platform team's running files: rollout notes per service, pager shift lines, weekly call notes
with the product side, a cluster-move status table, incident follow-ups. Slots as in
bank_tune.py; {e} is the service, {ea} another name for it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from log_dirs import L

KITS = [
    L(
        "project",
        "project_{e}_deploy_log",
        "{E} deploy log",
        ["Rollouts of {e} with the checks run after each", "{E} rollout history"],
        "section",
        "Appended after each {e} rollout, newest at the bottom. Checks are the usual smoke set "
        "unless an entry says otherwise.",
        [
            (
                "Rolled {e} back to {v} after the canary showed p99 latency at {n3} ms; the bad "
                "build stays quarantined as {sha}.",
                "Which version was {e} rolled back to after the canary?",
                "After the bad canary, what build did the {ea} return to?",
            ),
            (
                "Moved the {e} deploy window to Tuesdays {n1}:00 UTC; Fridays are frozen from now on.",
                "When is the {e} deploy window now?",
                "On which weekday may the {ea} ship these days?",
            ),
            (
                "From this release {e} needs `pool_size` set to {n2}, or it starts with the old "
                "default of 5 and runs out of connections at lunch.",
                "What pool size does {e} need to start properly?",
                "How many database connections must the {ea} config ask for?",
            ),
            (
                "{p} now signs off {e} releases; {p2} handed that over before parental leave.",
                "Who signs off {e} releases now?",
                "Whose approval does a fresh {ea} version need?",
            ),
        ],
    ),
    L(
        "project",
        "project_{e}_oncall_notes",
        "{E} on-call notes",
        ["Shift-by-shift notes from whoever held the {e} pager", "{E} pager shift notes"],
        "line",
        "One line per shift. Quiet shifts get a line too, so gaps are visible.",
        [
            (
                "paged at 3 am for disk on {h}: the {e} spool had filled with retries; cleared "
                "it and capped the spool at {n1} GB.",
                "What cap did we put on the {e} spool?",
                "How big may the {ea} retry backlog grow on disk?",
            ),
            (
                "alert threshold for the {e} error rate raised from 1% to {n1}% after a week of "
                "false alarms.",
                "What is the {e} error-rate alert threshold now?",
                "At what failure percentage does the {ea} wake someone up?",
            ),
            (
                "found that the {e} health checks hit port {port}, not the admin port; the "
                "dashboard was wrong, not the service.",
                "Which port do the {e} health checks hit?",
                "Where do liveness probes for the {ea} connect?",
            ),
            (
                "vendor support for {e} answers within {n2} minutes only if the ticket says "
                "severity 1; use the phone line otherwise.",
                "When does {e} vendor support answer quickly?",
                "How do we get a fast reply from the supplier behind the {ea}?",
            ),
        ],
    ),
    L(
        "project",
        "project_{e}_weekly_sync",
        "{E} weekly sync",
        ["Call notes from the weekly {e} sync with the product side", "What came up in {e} syncs"],
        "dialogue",
        "Rough notes typed during the call, speaker first. Not minutes; ask before quoting anyone.",
        [
            (
                "we agreed to drop the legacy XML export of {e} on {d2}, nobody has downloaded it "
                "since spring.",
                "When will the legacy XML export of {e} be dropped?",
                "What date does the old XML download of the {ea} go away?",
            ),
            (
                "the budget for {e} load testing is {n4} euros this quarter, and that has to cover "
                "the staging boxes too.",
                "What is the {e} load testing budget this quarter?",
                "How much money is there for stress runs against the {ea}?",
            ),
            (
                "first customer in the {e} beta is Nordvik Freight, they start on day {n1} of the "
                "month.",
                "Who is the first customer in the {e} beta?",
                "Which client tries the preview of the {ea} before anyone else?",
            ),
            (
                "we stay on the managed queue for {e}: self-hosting was estimated at {n2} "
                "engineer-days and lost the vote.",
                "How many engineer-days was self-hosting the {e} queue estimated at?",
                "What effort did running our own broker for the {ea} come to?",
            ),
        ],
    ),
    L(
        "project",
        "project_{e}_migration_status",
        "{E} migration status",
        ["Step-by-step status of moving {e} to the new cluster", "{E} cluster move tracker"],
        "table",
        "One row per step of the {e} move; the last row is where things stand.",
        [
            (
                "Data copy for {e} finished: {n3} GB in {n1} h {n2} min, checksums matched.",
                "How long did the {e} data copy take?",
                "What was the duration of shipping the {ea} bytes across?",
            ),
            (
                "DNS for {e} cut over at 0{n1}:30; the TTL had been lowered to 60 s the day before.",
                "When did DNS for {e} cut over?",
                "At what time did name resolution switch for the {ea}?",
            ),
            (
                "Old {e} nodes on {h} stay up read-only until {d2}, then {p} deletes them.",
                "Until when do the old {e} nodes stay up?",
                "How long are the previous {ea} machines kept around read-only?",
            ),
            (
                "Blocked: {e} needs firewall rule FW-{n3} opened by the network team first.",
                "Which firewall rule does {e} need opened?",
                "What network ticket holds up the {ea} switch?",
            ),
        ],
    ),
    L(
        "project",
        "project_{e}_incident_followups",
        "{E} incident follow-ups",
        ["Open and closed follow-ups from {e} incident reviews"],
        "section",
        "Follow-ups from each {e} incident review, by review date. Closed ones are kept.",
        [
            (
                "Root cause of the {d} outage: a cron job on {h} rotated the {e} signing key "
                "without reloading the workers.",
                "What caused the {d} outage of {e}?",
                "Why did the {ea} go down on {d}?",
            ),
            (
                "Agreed retention for {e} audit records: {n2} months, then archived to cold storage.",
                "How long are {e} audit records retained?",
                "For how many months do we keep audit trails of the {ea}?",
            ),
            (
                "Action item: {p} adds a synthetic check that logs in to {e} every {n1} minutes.",
                "How often will the synthetic check log in to {e}?",
                "At what interval does the robot probe sign in to the {ea}?",
            ),
            (
                "The status page for {e} is updated by support, not engineering; their rota is in "
                "the helpdesk wiki.",
                "Who updates the {e} status page?",
                "Which team posts public outage notices for the {ea}?",
            ),
        ],
    ),
]

PLAIN = [
    L(
        "project",
        "project_standup_week_{e}",
        "Standup log, week {e}",
        ["Daily standup lines of the platform team"],
        "line",
        "Who said what at standup, one line a day.",
        [],
    ),
    L(
        "project",
        "project_team_sync_{e}",
        "Platform team sync {e}",
        ["Notes from the platform team's own sync"],
        "dialogue",
        "Typed during the call; nothing here is a decision unless it says so.",
        [],
    ),
]

ROUTINE = [
    "Smoke tests green; nothing to note.",
    "Checked the dashboards at handover, all flat.",
    "{p} away today, {p2} covering reviews.",
    "Refreshed the staging data snapshot, took {n2} minutes as usual.",
    "Merged {n1} dependency bumps from the bot, no behaviour change.",
    "Quiet shift. One page for a flapping check on {h}, auto-resolved.",
    "Cleaned up {n2} stale branches and two abandoned preview environments.",
    "Ran the weekly restore drill on {h}; restored fine in {n2} min.",
    "Reviewed PR #{pr}, asked for a test on the error path.",
    "Disk on {h} at {n2}%, within limits.",
    "CI queue was slow in the morning, {n1} runners were stuck; restarted them.",
    "Log volume normal, around {n3} MB per hour.",
    "Paired with {p} on the flaky integration test; still flaky, ticket updated.",
    "Rotated the shared test credentials as scheduled.",
    "Nothing shipped, waiting on review.",
    "Patched base images on {h}, rebooted in the maintenance slot.",
    "Upgraded the linter to {v}; {n1} new warnings, fixed them the same afternoon.",
    "Latency p50 steady at {n2} ms, p99 unremarkable.",
    "Backlog grooming: closed {n1} tickets as won't-fix.",
    "Updated the runbook links after the wiki moved.",
    "Load on {h} spiked during the batch window, back to normal by 07:00.",
    "{p} demoed the new dashboard panel; feedback positive.",
    "Release notes drafted and sent to {p2} for a read.",
    "Memory pressure alert on {h}; the GC tuning is already tracked in PR #{pr}.",
    "No rollouts: freeze for the quarter-end close.",
    "Tagged {v} for the record; no functional change.",
    "Scanner reported {n1} low findings, all in test fixtures.",
    "Handed over to {p2} at 18:00, nothing open.",
    "Reran the nightly job by hand after a timeout on {h}; passed.",
    "Test coverage at {n2}%, unchanged.",
    "Helped support with a customer question; not a bug, answered in the ticket.",
    "Config drift check found nothing.",
    "Cost report: spend flat week on week.",
    "Two hours lost to a laptop update; no other news.",
    "Weekly dependency audit done, nothing urgent.",
    "{p2} asked for read access to the metrics; granted.",
]

CHATTER = [
    "ok, noted.",
    "I'll check after lunch and post in the channel.",
    "no update from my side this week.",
    "can we take that offline?",
    "sounds fine to me.",
    "let's revisit next week when {p2} is back.",
    "the numbers look the same as last time.",
    "I still owe you the write-up, sorry.",
]

# LoCoMo's shape: one weekly call of the platform team, a session per week titled by its date;
# each fact is said in one session (log_dirs.build_series_dir).
SERIES = L(
    "project",
    "project_platform_sync_{e}",
    "Platform weekly sync {e}",
    ["Call notes from the platform team's weekly sync", "Platform weekly call, rough notes"],
    "session",
    "Typed during the call, one line per turn.",
    [
        (
            "the on-call rota moves to two-week shifts starting next month.",
            "How long will on-call shifts be from next month?",
            "What is the new length of a pager stint?",
        ),
        (
            "we're budgeting {n4} euros for the observability vendor renewal.",
            "How much is budgeted for the observability vendor renewal?",
            "What will renewing our monitoring supplier cost?",
        ),
        (
            "the staging cluster gets shut down every night at 22:00 to save money.",
            "When is the staging cluster shut down each night?",
            "At what time does the pre-production environment switch off?",
        ),
        (
            "{p} is taking over the Terraform modules from {p2}.",
            "Who is taking over the Terraform modules?",
            "Who now maintains our infrastructure-as-code building blocks?",
        ),
        (
            "the postmortem template now has a customer-impact-in-euros field.",
            "What field was added to the postmortem template?",
            "What new box must incident write-ups fill in?",
        ),
        (
            "we picked Grafana over Datadog for the new dashboards, mainly on price.",
            "Which tool did we pick for the new dashboards?",
            "Which charting product won for our monitoring screens?",
        ),
        (
            "the hackathon is on {d2}, two days, and projects must touch production data safely.",
            "When is the hackathon?",
            "On what date is the two-day internal build event?",
        ),
        (
            "{p2} counted that {n2}% of our alerts never lead to any action.",
            "What share of our alerts never lead to action?",
            "How many pages turn out to need nothing done?",
        ),
        (
            "the offsite is in Lisbon this year, {p} books the flights.",
            "Where is the offsite this year?",
            "In which city do we gather away from the office?",
        ),
        (
            "we agreed that no pull request stays unreviewed for more than {n1} working days.",
            "How long may a pull request stay unreviewed?",
            "What is the longest wait allowed before someone looks at a code change?",
        ),
        (
            "the database upgrade to Postgres 16 is planned for the quarter's last weekend.",
            "When is the database upgrade to Postgres 16?",
            "On which weekend does our SQL server move to the next major release?",
        ),
        (
            "security asked us to rotate all deploy keys every {n2} days.",
            "How often must deploy keys be rotated?",
            "What is the rotation period for the credentials the release robots use?",
        ),
        (
            "{p} will present our cost savings at the all-hands.",
            "Who presents the cost savings at the all-hands?",
            "Which colleague talks about the money we saved at the company meeting?",
        ),
        (
            "the CI bill went up {n2}% after we doubled the test matrix.",
            "Why did the CI bill go up?",
            "What made the build service invoice grow?",
        ),
        (
            "the old Jenkins box is switched off for good on {d2}.",
            "When is the old Jenkins box switched off?",
            "When does the legacy build server go away for good?",
        ),
        (
            "we now keep application logs for {n2} days, down from ninety.",
            "How many days do we keep application logs now?",
            "What is the retention of service output records these days?",
        ),
        (
            "status updates to leadership go out every other Friday, {p2} writes them.",
            "Who writes the status updates to leadership?",
            "Who drafts the fortnightly report for the executives?",
        ),
        (
            "the load balancer certificates now renew automatically through ACME.",
            "How do the load balancer certificates renew now?",
            "What takes care of refreshing TLS for the traffic distributor?",
        ),
        (
            "the laptop policy allows Linux for engineers from next quarter.",
            "When may engineers use Linux laptops?",
            "From when can developers run a Linux machine?",
        ),
        (
            "we cap pages at {n1} per night before the secondary takes over.",
            "How many night pages before the secondary takes over?",
            "After how many overnight alerts does the backup person step in?",
        ),
    ],
)

LOG = {
    "code": "en",
    "people": ["Ada", "Bram", "Cleo", "Dev", "Esme", "Femi", "Gus"],
    "hosts": ["ops-2", "db-west", "ci-9", "box-14"],
    "entities": [
        ("gateway", "edge proxy"),
        ("ledger", "money book"),
        ("notifier", "push sender"),
        ("importer", "feed loader"),
        ("scheduler", "job runner"),
        ("thumbnailer", "image resizer"),
        ("webhooks", "callback relay"),
        ("sessions", "login store"),
    ],
    "kits": KITS,
    "series": SERIES,
    "plain": PLAIN,
    "routine": ROUTINE,
    "chatter": CHATTER,
    "section_labels": ["rollout", "session", "check-in", "review", "notes"],
    "call_labels": ["weekly call", "sync", "call with product"],
    "table_head": "| Date | Step / status |\n|---|---|",
    "none": [
        "Who approved the switch to a different CI provider?",
        "What did we decide about hiring a second SRE?",
        "Which team owns crash reporting for the mobile app?",
        "Was the data warehouse contract renewed for next year?",
        "Has anyone benchmarked ARM instances for our batch jobs?",
        "What is the plan for dropping Python 3.9 in the tooling repo?",
        "Who is organising the disaster recovery game day?",
        "When is the penetration test booked?",
        "Did we agree on a naming scheme for Terraform workspaces?",
        "Which office gets the spare rack of servers?",
    ],
    "joiners": ["{a} And {b}", "{a} Also: {b}"],
}
