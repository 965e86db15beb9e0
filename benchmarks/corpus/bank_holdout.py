"""Phrase bank of the HOLDOUT corpus: other topics, entities and wordings than bank_tune.py.

Written separately for memdir_nb; never tune a selector on anything generated from this file.
Slots as in bank_tune.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bank_common import LOG, K, T
from bank_holdout_intl import INTL

EN_WEB = {
    "entities": [
        ("orders", "purchases"),
        ("profile", "the personal details page"),
        ("wishlist", "saved items"),
        ("loyalty", "reward points"),
        ("giftcard", "prepaid vouchers"),
        ("subscriptions", "recurring plans"),
        ("returns", "sending goods back"),
        ("helpdesk", "live support"),
        ("marketplace", "third-party sellers"),
        ("tax", "VAT calculation"),
        ("invoices", "bills sent to firms"),
        ("feeds", "product exports to ad networks"),
        ("sitemap", "crawler index pages"),
        ("quotes", "price offers to business buyers"),
    ],
    "kits": [
        K(
            "project",
            "project_{e}_feature_flags",
            "{E} feature flags",
            [
                "Which feature flags guard the {e} rollout and who may flip them",
                "Flag inventory for {e}",
                "{E}: toggles in flight",
            ],
            [
                (
                    "The new {e} flow sits behind the flag `{e}_v2`, currently on for {n2}% of logged-in traffic.",
                    "What share of traffic has the {e}_v2 flag on?",
                    "How many visitors already see the rebuilt {ea} experience?",
                ),
                (
                    "Only {p} and {p2} may change the percentage in LaunchDarkly; everybody else has read access.",
                    "Who may change the {e} flag percentage?",
                    "Which two colleagues are allowed to widen the audience for {ea}?",
                ),
                (
                    "The kill switch `{e}_off` short-circuits to the legacy code path and is checked on every request, cached for {n1} seconds.",
                    "How long is the {e} kill switch cached?",
                    "If we need to turn {ea} back to the old behaviour instantly, how quickly does it take effect?",
                ),
                (
                    "Flags older than {n2} days must be removed; the cleanup ticket is #{pr}.",
                    "When must old {e} flags be removed?",
                    "After how many days do we delete stale toggles around {ea}?",
                ),
            ],
            "A forgotten flag on {d} served half the shoppers a page with no prices for an hour.",
            [
                "Add every new flag to `docs/flags/{e}.md` with an owner and an expiry date.",
                "Never reuse a flag name.",
            ],
            upd=(
                "rollout paused at {n2}% after a spike in support tickets; {p} decides when to resume.",
                "Why is the {e}_v2 rollout paused?",
                "Who gets to say when the rebuilt {ea} experience keeps widening?",
            ),
        ),
        K(
            "feedback",
            "feedback_{e}_caching",
            "Caching of {e} endpoints",
            [
                "Cache headers and CDN rules for the {e} endpoints",
                "{E} caching — what not to cache",
            ],
            [
                (
                    "Public {e} GET endpoints are cached at the CDN for {n2} seconds with `stale-while-revalidate`.",
                    "How long does the CDN cache {e} endpoints?",
                    "For how many seconds do edge servers keep answers about {ea}?",
                ),
                (
                    "Anything that depends on the session cookie must send `Cache-Control: private`; we once leaked one user's basket to another this way.",
                    "Which header must session-dependent {e} responses send?",
                    "What stops one shopper from seeing another person's data for {ea}?",
                ),
                (
                    "Purging goes through `scripts/purge.sh {e}` and takes about {n1} minutes to reach all edges.",
                    "How do I purge the {e} cache?",
                    "How do I force fresh content for {ea} across every edge location?",
                ),
            ],
            "The basket leak on {d} came from a shared cache key.",
            ["Review the Vary header on every new endpoint.", "Ask {p} before raising a TTL."],
        ),
        K(
            "reference",
            "reference_{e}_api_versions",
            "{E} API versions",
            [
                "Supported versions of the {e} API and their sunset dates",
                "{E} API version table",
            ],
            [
                (
                    "The {e} API currently serves v{n1} and v{n1}.1; v1 was switched off on {d}.",
                    "Which {e} API versions are served?",
                    "Which revisions of the interface for {ea} are still answered?",
                ),
                (
                    "Clients pick the version with the `Accept-Version` header; without it they get the oldest supported one.",
                    "How do clients pick the {e} API version?",
                    "How does a caller choose which revision of {ea} it talks to?",
                ),
                (
                    "{n3} integrators still call the deprecated endpoints; {p2} emails them monthly.",
                    "How many integrators still use deprecated {e} endpoints?",
                    "How many partners keep hitting the retired routes for {ea}, and who reminds them?",
                ),
            ],
            "Sunsetting without notice cost us a large customer once.",
            ["Give six months' notice.", "Log version usage per key."],
        ),
    ],
    "tools": [
        T(
            "mcp__redis__command",
            K(
                "reference",
                "reference_redis_tool",
                "Redis MCP tool",
                ["How the redis MCP tool is called and which databases it can see"],
                [
                    (
                        "`mcp__redis__command` takes `command` as a list of strings and an optional `db` number; replies come back as JSON.",
                        "",
                        "",
                    ),
                    ("The session store is db {n1}, rate-limit counters are db 0.", "", ""),
                ],
                "Noted on {d} after {p} asked how to read session keys.",
                ["Use SCAN with a pattern, not KEYS.", "Pass `db` explicitly."],
            ),
            K(
                "feedback",
                "feedback_redis_tool_flush",
                "Redis tool and FLUSHDB",
                ["The redis MCP tool accepts FLUSHDB on production without confirmation"],
                [
                    (
                        "Beware: the redis MCP tool is connected to production and will happily run FLUSHDB or DEL on live keys without asking.",
                        "",
                        "",
                    ),
                    ("On {d} a cleanup wiped every session and logged out {n4} shoppers.", "", ""),
                ],
                "There is no staging instance behind this tool.",
                ["Only read commands unless {p} is on the call.", "Never use patterns with DEL."],
            ),
            [
                "Clear the cached sessions for the test accounts.",
                "Look up how many rate-limit counters exist right now.",
            ],
        )
    ],
}

EN_DATA = {
    "entities": [
        ("homepage", "the landing screen"),
        ("search ranking", "result order"),
        ("onboarding", "first-week emails"),
        ("pricing page", "plan comparison"),
        ("checkout button", "the buy step"),
        ("recommendations", "suggested products"),
        ("newsletter", "weekly mailing"),
        ("free shipping", "no delivery fee"),
        ("trial", "the test period"),
        ("referral", "invite a friend"),
        ("bundles", "multi-item deals"),
        ("reviews widget", "rating stars"),
    ],
    "kits": [
        K(
            "feedback",
            "feedback_{e}_experiment_analysis",
            "Analysing {e} experiments",
            [
                "How A/B tests on {e} are analysed and when a result counts",
                "{E} experiment analysis rules",
            ],
            [
                (
                    "Tests on the {e} run for at least {n1} full weeks, so weekday effects cancel out.",
                    "How long must {e} tests run?",
                    "What is the minimum duration of a trial split on {ea}?",
                ),
                (
                    "The primary metric is revenue per visitor; conversion alone misled us when basket sizes shrank by {n2}%.",
                    "What is the primary metric for {e} tests?",
                    "Which number decides a winner when comparing variants of {ea}?",
                ),
                (
                    "Use CUPED with the previous {n1} weeks as covariate; the helper is `stats/cuped.py`.",
                    "Which variance reduction do we use for {e} tests?",
                    "Which trick do we apply to shrink the noise when comparing variants of {ea}?",
                ),
                (
                    "Sample ratio mismatch above 0.{n1}% invalidates the test; {p} checks it before any readout.",
                    "When is an {e} test invalid because of sample ratio mismatch?",
                    "When do uneven group sizes mean we throw away a comparison on {ea}?",
                ),
            ],
            "A test stopped early on {d} declared a winner that lost money over the quarter.",
            ["Pre-register the metric in the test doc.", "No peeking dashboards for stakeholders."],
            upd=(
                "minimum duration raised to {n1} weeks after the holiday season skewed two tests.",
                "Was the minimum {e} test duration changed?",
                "Do trial splits on {ea} now need to run longer than before?",
            ),
        ),
        K(
            "project",
            "project_{e}_dwh_model",
            "{E} warehouse model",
            [
                "The dbt model behind {e} reporting: sources, grain, refresh",
                "{E} dbt model notes",
            ],
            [
                (
                    "The dbt model `fct_{e}` has one row per session and is rebuilt every {n1} hours.",
                    "What is the grain of the fct_{e} model?",
                    "What does a single line in the reporting table for {ea} stand for?",
                ),
                (
                    "It joins `stg_events` with `dim_customers`; late events up to {n2} hours are merged incrementally.",
                    "How late may events arrive and still land in fct_{e}?",
                    "How long after the fact can a tracking hit still be counted for {ea}?",
                ),
                (
                    "Tests in `models/{e}/schema.yml` check uniqueness of `session_id`; {p2} owns the model.",
                    "Who owns the {e} dbt model?",
                    "Whom do I ask about the table that feeds {ea} reporting?",
                ),
            ],
            "Two dashboards disagreed by {n1}% in {d} because they counted sessions differently.",
            [
                "Build new dashboards on this model only.",
                "Document metric definitions in the YAML.",
            ],
        ),
        K(
            "feedback",
            "feedback_{e}_pii",
            "Personal data in {e} analyses",
            [
                "Rules for personal data when analysing {e}",
                "{E} and PII",
            ],
            [
                (
                    "Analyses of {e} use the pseudonymised `customer_key`, never email or name; raw columns live only in the restricted schema.",
                    "Which customer identifier do {e} analyses use?",
                    "How do we refer to individual shoppers when studying {ea}?",
                ),
                (
                    "Exports leaving the warehouse must aggregate to groups of at least {n2} people.",
                    "What is the minimum group size for {e} exports?",
                    "How many people must be in a bucket before numbers about {ea} can leave the warehouse?",
                ),
                (
                    "Requests for raw data go to the privacy officer, {p}, with a purpose statement.",
                    "Who approves raw data requests for {e}?",
                    "Which person signs off when someone wants unmasked records about {ea}?",
                ),
            ],
            "An export with emails ended up in a shared drive on {d}.",
            ["Run `make pii-check` on notebooks before sharing.", "Keep raw data out of git."],
        ),
    ],
    "tools": [
        T(
            "mcp__bigquery__run_query",
            K(
                "reference",
                "reference_bigquery_tool",
                "BigQuery MCP tool reference",
                ["Parameters and limits of the BigQuery MCP tool"],
                [
                    (
                        "`mcp__bigquery__run_query` takes `sql`, `project` and `max_rows`; results come back as a list of dicts.",
                        "",
                        "",
                    ),
                    ("Default project is `analytics-prod`; the location is EU.", "", ""),
                ],
                "Recorded on {d}.",
                ["Set `max_rows` to keep responses small.", "Use standard SQL."],
            ),
            K(
                "feedback",
                "feedback_bigquery_tool_cost",
                "BigQuery tool cost trap",
                ["The BigQuery tool bills full scans even with LIMIT"],
                [
                    (
                        "Warning: the BigQuery tool bills the whole table scan even when the query has a LIMIT, and it has no cost cap configured.",
                        "",
                        "",
                    ),
                    ("One exploratory query on {d} cost {n3} EUR.", "", ""),
                ],
                "LIMIT is applied after the scan.",
                [
                    "Filter on the partition column first.",
                    "Dry-run large queries to see the bytes.",
                ],
            ),
            [
                "Pull the number of page views per day from the raw events table for the last two years.",
                "Show me ten example rows from the raw clickstream table.",
            ],
        )
    ],
}

EN_MOBILE = {
    "entities": [
        ("notes", "the jotting screen"),
        ("calendar", "the agenda view"),
        ("player", "audio playback"),
        ("scanner", "document capture"),
        ("inbox", "the message list"),
        ("settings", "preferences"),
        ("feed", "the home timeline"),
        ("editor", "the text composer"),
        ("checkout", "in-app purchase"),
        ("sharing", "sending to friends"),
    ],
    "kits": [
        K(
            "project",
            "project_{e}_offline_sync",
            "{E} offline sync",
            [
                "How the {e} screen syncs when the device is offline, and known conflicts",
                "{E} sync design",
            ],
            [
                (
                    "Changes in {e} are queued in SQLite and pushed when connectivity returns, at most {n2} items per batch.",
                    "How many items per batch does {e} sync push?",
                    "When the phone is back online, how big are the bundles sent for {ea}?",
                ),
                (
                    "Conflicts resolve last-writer-wins by server timestamp, except deletions, which always win.",
                    "How are {e} sync conflicts resolved?",
                    "If two devices edit {ea} at once, whose change survives?",
                ),
                (
                    "The queue is capped at {n4} entries; beyond that the oldest are dropped and a banner warns the user.",
                    "What is the size cap of the {e} offline queue?",
                    "How many pending edits can pile up for {ea} before some are thrown away?",
                ),
            ],
            "Users on the underground lost edits on {d} because the queue was memory-only.",
            ["Test with airplane mode on a real device.", "Keep payloads under {n2} KB."],
            upd=(
                "deletions no longer always win: they now lose against edits newer than {n2} seconds (PR #{pr}).",
                "Do deletions still always win in {e} sync?",
                "Does removing something on one device still beat edits made elsewhere on {ea}?",
            ),
        ),
        K(
            "feedback",
            "feedback_{e}_accessibility",
            "Accessibility in {e}",
            [
                "Accessibility rules for the {e} screen",
                "{E}: a11y checklist",
            ],
            [
                (
                    "Every tappable element in {e} needs a target of at least 44 by 44 points and a content description.",
                    "What minimum tap target applies in {e}?",
                    "How large must touch areas be on {ea}?",
                ),
                (
                    "Text must scale to {n3}% without clipping; test with the largest system font.",
                    "To what text scale must {e} work?",
                    "How far must font enlargement go without breaking {ea}?",
                ),
                (
                    "{p} runs a screen-reader pass before each release and files issues with the label `a11y`.",
                    "Who does the screen reader pass for {e}?",
                    "Which teammate listens through {ea} with VoiceOver before shipping?",
                ),
            ],
            "An audit on {d} found {n2} unlabeled buttons.",
            ["Add accessibility checks to UI tests.", "No icon-only buttons without labels."],
        ),
        K(
            "project",
            "project_{e}_app_size",
            "{E} bundle size",
            [
                "Download size budget for the {e} module and what grew it",
                "{E} size budget",
            ],
            [
                (
                    "The {e} module may add at most {n2} MB to the download; it is at {n1}.{n1} MB now.",
                    "What is the size budget of the {e} module?",
                    "How many megabytes may {ea} add to what users download?",
                ),
                (
                    "The biggest contributor is the bundled font set ({n1} MB); {p} wants to load it on demand.",
                    "What is the biggest contributor to {e} size?",
                    "Which asset makes {ea} heavy, and what is the plan?",
                ),
                (
                    "Size is measured by the CI job `size-report` on every PR against `main`.",
                    "How is {e} size measured?",
                    "Which automated check reports growth of {ea} on pull requests?",
                ),
            ],
            "Install conversion drops when the app exceeds the cellular download limit.",
            ["Check the size report before merging.", "Prefer vector assets."],
        ),
    ],
    "tools": [
        T(
            "mcp__playstore__upload",
            K(
                "reference",
                "reference_playstore_tool",
                "Play Store upload tool",
                ["How to call the Play Store MCP tool: track, bundle path, notes"],
                [
                    (
                        "`mcp__playstore__upload` takes `bundle` (path to the .aab), `track` and `release_notes`.",
                        "",
                        "",
                    ),
                    ("Tracks are `internal`, `alpha`, `beta` and `production`.", "", ""),
                ],
                "Noted on {d}.",
                ["Upload to internal first.", "Notes are limited to 500 characters."],
            ),
            K(
                "feedback",
                "feedback_playstore_tool_track",
                "Play Store tool track default",
                ["The Play Store tool publishes to production when no track is given"],
                [
                    (
                        "Careful: if `track` is missing, the Play Store tool publishes straight to production at 100%.",
                        "",
                        "",
                    ),
                    ("A debug bundle reached every user for {n2} minutes on {d}.", "", ""),
                ],
                "The default comes from an old script nobody wants to touch.",
                ["Always set `track: internal`.", "Check the version code twice."],
            ),
            [
                "Upload the new bundle so the testers can try it.",
                "Push build {n4} to the store for the QA group.",
            ],
        )
    ],
}

EN_INFRA = {
    "entities": [
        ("api gateway", "the public entry point"),
        ("build farm", "compile machines"),
        ("object store", "blob storage"),
        ("search cluster", "full-text engine"),
        ("message broker", "queue server"),
        ("sso", "single sign-on"),
        ("status page", "public uptime site"),
        ("bastion", "the jump host"),
        ("mail relay", "outgoing email server"),
        ("cdn", "edge caching network"),
        ("registry", "container image store"),
        ("wiki", "internal documentation site"),
    ],
    "kits": [
        K(
            "reference",
            "reference_{e}_certificates",
            "{E} TLS certificates",
            [
                "Where the {e} certificates come from and how they renew",
                "{E} certs",
            ],
            [
                (
                    "Certificates for the {e} are issued by Let's Encrypt through cert-manager and renew {n2} days before expiry.",
                    "How do the {e} certificates renew?",
                    "How are the HTTPS keys for {ea} kept from expiring?",
                ),
                (
                    "The wildcard for internal hosts is not automated: {p} renews it by hand every year in {d}.",
                    "Who renews the internal wildcard certificate for {e}?",
                    "Which person handles the yearly manual step for {ea}?",
                ),
                (
                    "Expiry is monitored by the `cert_days_left` metric; alert below {n1} days.",
                    "How is {e} certificate expiry monitored?",
                    "What warns us before the HTTPS keys for {ea} run out?",
                ),
            ],
            "An expired certificate took the {e} down for {n2} minutes on a Sunday.",
            ["Check the metric after every renewal.", "Keep the manual wildcard in the calendar."],
        ),
        K(
            "project",
            "project_{e}_capacity",
            "{E} capacity plan",
            [
                "Capacity planning for the {e}: current load, headroom, next purchase",
                "{E} scaling notes",
            ],
            [
                (
                    "The {e} peaks at {n4} requests per second on Monday mornings, using about {n2}% of capacity.",
                    "What is the peak load of the {e}?",
                    "How busy does {ea} get at its worst moment?",
                ),
                (
                    "Autoscaling adds a node when CPU stays above {n2}% for {n1} minutes; the maximum is {n2} nodes.",
                    "When does the {e} autoscaler add a node?",
                    "At what processor usage do we grow {ea}, and up to how many machines?",
                ),
                (
                    "Finance approved {n4} EUR for extra nodes in Q{n1}; {p2} places the order.",
                    "What budget was approved for {e} nodes?",
                    "How much money is there for more machines for {ea}, and who orders them?",
                ),
            ],
            "Black Friday saturated the {e} in {d}.",
            ["Run the load test before each peak season.", "Update the forecast sheet monthly."],
            upd=(
                "we changed the scale-up wait to {n1} minutes and the cooldown to {n2} minutes after the last peak.",
                "Did the {e} autoscaling wait or cooldown change?",
                "Did we make {ea} react faster when load climbs?",
            ),
        ),
        K(
            "feedback",
            "feedback_{e}_costs",
            "{E} cloud costs",
            [
                "Cost rules for the {e}: budget, tags, what to avoid",
                "{E} spending",
            ],
            [
                (
                    "The {e} has a monthly budget of {n4} EUR; an alert goes to #finops at {n2}%.",
                    "What is the monthly budget of the {e}?",
                    "How much may {ea} cost per month?",
                ),
                (
                    "Every resource needs the tags `team` and `cost-centre`; untagged ones are deleted after {n1} days.",
                    "Which tags do {e} resources need?",
                    "What labels keep cloud resources of {ea} from being removed?",
                ),
                (
                    "Cross-region traffic is the hidden cost: it was {n2}% of the bill in {d}.",
                    "What is the hidden cost of the {e}?",
                    "Which kind of network transfer inflates the bill for {ea}?",
                ),
            ],
            "A forgotten test cluster cost {n4} EUR in one month.",
            ["Tag at creation time.", "Ask {p} before reserving instances."],
        ),
    ],
    "tools": [
        T(
            "mcp__terraform__apply",
            K(
                "reference",
                "reference_terraform_tool",
                "Terraform MCP tool",
                ["How the terraform MCP tool runs plans and applies"],
                [
                    (
                        "`mcp__terraform__apply` takes `workspace` and `dir`; with `plan_only: true` it stops after the plan.",
                        "",
                        "",
                    ),
                    ("State is stored in the `tf-state` bucket, locked by DynamoDB.", "", ""),
                ],
                "Written on {d}.",
                ["Read the plan output fully.", "Use one workspace per environment."],
            ),
            K(
                "feedback",
                "feedback_terraform_tool_autoapprove",
                "Terraform tool auto-approves",
                ["The terraform MCP tool applies with -auto-approve unless plan_only is set"],
                [
                    (
                        "Known problem: the terraform tool passes `-auto-approve`, so without `plan_only: true` it applies immediately, destroys included.",
                        "",
                        "",
                    ),
                    (
                        "On {d} it replaced a database instance and we lost {n2} minutes of writes.",
                        "",
                        "",
                    ),
                ],
                "The tool was built for CI, where approval happens in the PR.",
                ["Always run with `plan_only: true` first.", "Check for `destroy` in the plan."],
            ),
            [
                "Add a new bucket for the logs in the staging workspace.",
                "Change the instance size of the reporting database.",
            ],
        )
    ],
}

EN_RESEARCH = {
    "entities": [
        ("sarcasm", "irony detection"),
        ("dialect", "regional speech varieties"),
        ("summaries", "condensed texts"),
        ("hate speech", "abusive posts"),
        ("medical notes", "clinical text"),
        ("code review", "comments on pull requests"),
        ("legal clauses", "contract language"),
        ("children's books", "texts for young readers"),
        ("podcasts", "spoken shows"),
        ("poetry", "verse"),
    ],
    "kits": [
        K(
            "project",
            "project_{e}_annotation_study",
            "{E} annotation study",
            [
                "Status of the {e} annotation study: guidelines, annotators, agreement",
                "{E} labelling campaign",
            ],
            [
                (
                    "The {e} study has {n1} annotators labelling {n4} items with guideline version {v}.",
                    "How many annotators work on the {e} study?",
                    "How many people are tagging items about {ea}, and with which guideline revision?",
                ),
                (
                    "Krippendorff's alpha is 0.{n2} after round two; the third round targets ambiguous items only.",
                    "What is the agreement in the {e} study?",
                    "How consistent are the taggers on {ea} so far?",
                ),
                (
                    "Annotators are paid {n2} EUR per hour via the university; {p} handles the contracts.",
                    "Who handles annotator contracts for {e}?",
                    "Which person deals with paying the taggers working on {ea}?",
                ),
            ],
            "The ethics board asked for a record of every guideline change in {d}.",
            ["Version the guidelines in git.", "Log disagreements in `adjudication.csv`."],
            upd=(
                "round three finished; alpha rose to 0.{n2} and {n3} items were dropped as unresolvable.",
                "Did agreement improve in the {e} study?",
                "How did the last round of tagging on {ea} turn out?",
            ),
        ),
        K(
            "feedback",
            "feedback_{e}_reproducibility",
            "Reproducibility for {e}",
            [
                "What every {e} result must come with to be reproducible",
                "{E} reproducibility rules",
            ],
            [
                (
                    "Every reported {e} number needs the commit hash, the config file and the random seed in the table caption.",
                    "What must accompany every reported {e} number?",
                    "What do we attach to each score about {ea} so others can rerun it?",
                ),
                (
                    "Report the mean and standard deviation over {n1} seeds, never the best seed.",
                    "How many seeds do {e} results average over?",
                    "Do we quote the luckiest run for {ea} or an average?",
                ),
                (
                    "Environment files are frozen with `uv pip compile`; {p2} checks them before submission.",
                    "How are environments frozen for {e}?",
                    "How do we pin software versions for experiments on {ea}?",
                ),
            ],
            "A reviewer could not reproduce a table in {d} and the paper was rejected.",
            ["Run `make reproduce` on a clean machine.", "Store seeds in the config."],
        ),
        K(
            "project",
            "project_{e}_submission",
            "{E} paper submission",
            [
                "Submission plan for the {e} paper: venue, deadlines, open tasks",
                "{E} paper deadlines",
            ],
            [
                (
                    "The {e} paper targets the ACL rolling review cycle with the abstract due {d}.",
                    "Which venue does the {e} paper target?",
                    "Where are we sending the write-up about {ea}, and when is the abstract due?",
                ),
                (
                    "Page limit is 8 plus references; the current draft is {n1} pages over.",
                    "How far over the page limit is the {e} draft?",
                    "How much must the manuscript on {ea} be cut?",
                ),
                (
                    "{p} writes related work, {p2} the analysis section; the intro is still unassigned.",
                    "Who writes the related work of the {e} paper?",
                    "Who is drafting the literature part of the manuscript on {ea}?",
                ),
            ],
            "Last cycle the paper missed the deadline by one hour because of a broken LaTeX build.",
            ["Compile the PDF daily.", "Freeze numbers a week before the deadline."],
        ),
    ],
}

EN_ASSISTANT = {
    "entities": [
        ("kitchen", "where we cook"),
        ("bathroom", "the washroom"),
        ("garden", "the outdoor plot"),
        ("attic", "the loft"),
        ("balcony", "the terrace"),
        ("garage", "the car shelter"),
    ],
    "kits": [
        K(
            "project",
            "project_renovation_{e}",
            "{E} renovation",
            [
                "Renovation of the {e}: quotes, contractor, schedule",
                "{E} works",
            ],
            [
                (
                    "The {e} renovation is quoted at {n4} EUR by the contractor {p}; work starts {d}.",
                    "How much is the {e} renovation quote?",
                    "What will redoing {ea} cost, and who is doing it?",
                ),
                (
                    "Tiles are ordered from the shop in the industrial park, delivery in {n1} weeks.",
                    "When will the tiles for the {e} arrive?",
                    "How long until the floor material for {ea} is delivered?",
                ),
                (
                    "The water must be off for {n1} days; the neighbours were told on {d2}.",
                    "How long will the water be off during the {e} works?",
                    "For how many days will the taps be dry while {ea} is redone?",
                ),
            ],
            "The last contractor left the job half done, so everything is written down.",
            ["Pay in three instalments only.", "Photograph progress weekly."],
            upd=(
                "the start moved to {d2} because the permit took longer.",
                "Did the start of the {e} renovation move?",
                "Has the beginning of the work on {ea} been delayed?",
            ),
        ),
        K(
            "reference",
            "reference_health_{e}",
            "{E} appointments",
            [
                "Recurring {e} appointments and practice details",
                "{E} practice info",
            ],
            [
                (
                    "The {e} check-up is every {n1} months at the practice on Elm Street; the next one is {d}.",
                    "When is the next {e} check-up?",
                    "When do I next have to see the doctor for {ea}?",
                ),
                (
                    "Bring the insurance card and the referral letter; the practice does not accept photos.",
                    "What to bring to the {e} appointment?",
                    "Which papers are needed for the visit about {ea}?",
                ),
            ],
            "An appointment was lost once because the referral was missing.",
            ["Book the next visit right after each one.", "Keep the letters in the blue folder."],
            entities=[
                ("dentist", "teeth"),
                ("eye doctor", "vision"),
                ("physio", "back exercises"),
                ("paediatrician", "the kids' doctor"),
            ],
        ),
        K(
            "reference",
            "reference_school_{e}",
            "{E} school matters",
            [
                "School details for {e}: teachers, schedule, forms",
                "{E} school info",
            ],
            [
                (
                    "{E}'s class teacher is {p}; parent evenings are on the first Tuesday of the month.",
                    "Who is {e}'s class teacher?",
                    "Which teacher looks after {ea} this year?",
                ),
                (
                    "The lunch account tops up by bank transfer, reference {n4}; balance below {n2} EUR blocks meals.",
                    "How is {e}'s lunch account topped up?",
                    "How do I add money so {ea} can eat at the canteen?",
                ),
            ],
            "Forms were missed twice last year.",
            ["Check the school app on Sundays.", "Sign forms the same day."],
            entities=[("mia", "our daughter"), ("noah", "our son")],
        ),
    ],
}

EN = {
    "code": "en",
    "space": " ",
    "labels": {
        "why": "**Why:**",
        "how": "**How to apply:**",
        "update": "Correction ({d2}):",
        "related": "See also:",
        "sections": ["Done", "In progress", "Later"],
    },
    "people": ["Hannah", "Raj", "Elif", "Bruno", "Chen", "Olga", "Kofi", "Ines", "Dmitri", "Sara"],
    "hosts": ["edge-ams-2", "pg-main", "runner-11", "api-blue", "batch-01", "lb-west"],
    "filler": {
        "status": [
            "{d} — {p} landed #{pr} ({sha})",
            "{d} — nightly pipeline on {h} failed once, passed on retry {n1}",
            "{d} — upgraded the toolchain to {v}",
            "{d} — #{pr} won't fix, closed",
            "{d} — {p2} reorganised the board; {n2} cards archived",
            "{d} — wrote the retro notes",
            "{d} — {n1} review threads still open with {p}",
            "{d} — build time on {h} was {n2} min",
            "{d} — answered a support escalation",
            "{d} — dependency audit clean",
        ],
        "notes": [
            "{p} would rename this if we ever touch it again.",
            "Checked again on {d}: still accurate.",
            "This is background, not a to-do.",
            "The last clean state is {sha}.",
            "{p2} is out until {d}; {p} covers.",
            "Figures double-checked against the raw export.",
            "An old draft of this lives in the team drive.",
            "No one has complained since, which is a good sign.",
            "There's more context in #{pr}.",
        ],
    },
    "user": [
        K(
            "user",
            "user_role",
            "User role",
            ["Staff engineer on the platform team; likes diagrams and precise numbers"],
            [
                (
                    "The user is a staff engineer on the platform team and prefers diagrams in Mermaid over prose.",
                    "Which diagram format does the user prefer?",
                    "How does this person like architecture drawn?",
                ),
                (
                    "Uses JetBrains GoLand on macOS; keyboard layout is Dvorak, so never suggest shortcuts by key position.",
                    "What keyboard layout does the user have?",
                    "Why shouldn't I describe hotkeys by where the keys sit?",
                ),
            ],
            "Said in an early session.",
            ["Draw, then explain.", "Quote exact numbers."],
        ),
        K(
            "user",
            "user_about",
            "About the user",
            ["Data person in Lisbon, part-time; mornings only"],
            [
                (
                    "Works part-time from Lisbon, mornings only, and reviews things in the afternoon of the next day.",
                    "When does the user work?",
                    "At which part of the day is this person available?",
                ),
                (
                    "Strong in SQL, learning Rust; wants Rust answers to explain ownership briefly.",
                    "Is the user learning Rust?",
                    "Should borrow-checker concepts be spelled out for this person?",
                ),
            ],
            "From the first chat.",
            ["Keep replies short in the morning."],
        ),
    ],
    "log": [
        LOG(
            "project_worklog_{e}",
            "Worklog {d}",
            "Work log entry for {d}: what moved and what is blocked",
            "Worklog {d}: {p} and I went through the backlog.",
            "The team likes a written trail.",
            "Read the blocked items first.",
        ),
        LOG(
            "project_standup_{e}_{d}",
            "Standup {d}",
            "Standup notes of {d}",
            "Standup {d}: nothing blocked, {n1} items in review.",
            "Async standup for people in other timezones.",
            "Mention blockers at the top.",
        ),
    ],
    "frames": [
        "Context first: {q}",
        "{q} Asking before I start the change.",
        "Reminder needed — {q}",
        "Got a minute? {q}",
    ],
    "joiners": ["{a} Plus: {b}", "Quick pair of questions — {a} {b}", "{a} Separately, {b}"],
    "none": [
        "Recommend a hiking trail near Innsbruck for a beginner.",
        "How do I descale an espresso machine?",
        "Write a haiku about a train station at night.",
        "What's the difference between baking soda and baking powder?",
        "Give me three synonyms for 'happy'.",
        "How tall is Mount Kilimanjaro?",
        "Which houseplants are safe for cats?",
        "Explain how a rainbow forms.",
        "Plan a five-day workout routine without equipment.",
        "What year did the Berlin Wall fall?",
        "How do I tie a bowline knot?",
        "Suggest a vegetarian lasagna recipe.",
    ],
    "domains": {
        "web": EN_WEB,
        "data": EN_DATA,
        "mobile": EN_MOBILE,
        "infra": EN_INFRA,
        "research": EN_RESEARCH,
        "assistant": EN_ASSISTANT,
    },
}

BANK = {"langs": {"en": EN, **INTL}}
