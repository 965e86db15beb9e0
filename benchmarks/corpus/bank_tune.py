"""Phrase bank of the TUNE corpus. Every sentence written for memdir_nb; no real memory copied.

Slots: {e}/{E} entity, {ea} the entity said another way, {n1} 2-9, {n2} 10-60, {n3} 100-900,
{n4} 1000-9000, {v} version, {pr} PR number, {sha} commit, {d}/{d2} dates, {p}/{p2} people,
{h} host, {port}.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bank_common import LOG, K, T
from bank_tune_intl import INTL

EN_WEB_ENTITIES = [
    ("billing", "invoicing"),
    ("checkout", "the purchase flow"),
    ("search", "product lookup"),
    ("notifications", "outgoing emails and texts"),
    ("ledger", "bookkeeping"),
    ("catalog", "product listings"),
    ("shipping", "parcel dispatch"),
    ("accounts", "sign-in and profiles"),
    ("reviews", "customer ratings"),
    ("coupons", "discount codes"),
    ("inventory", "stock levels"),
    ("refunds", "money going back to buyers"),
    ("reporting", "monthly exports for finance"),
    ("partners", "affiliate integrations"),
]

EN_WEB = {
    "entities": EN_WEB_ENTITIES,
    "kits": [
        K(
            "feedback",
            "feedback_{e}_webhook_retries",
            "{E} webhook retries",
            [
                "Outbound webhooks from {e} retry with backoff and end in a dead-letter table",
                "Delivery quirks of the {e} service — read before touching its queue",
                "{e} hooks: retry and signing rules",
            ],
            [
                (
                    "Outbound webhooks sent by the {e} service retry with exponential backoff that starts at {n1} seconds and doubles each time.",
                    "What is the initial backoff for {e} webhook retries?",
                    "How long do we wait before the first redelivery attempt to {ea} partners?",
                ),
                (
                    "After {n2} failed attempts the event is parked in the `{e}_dead_letters` table and {p} gets paged.",
                    "How many failed webhook attempts before {e} events go to the dead letters table?",
                    "Who gets woken up when {ea} callbacks keep failing, and after how many tries?",
                ),
                (
                    "Receivers must answer within {n3} ms; slower answers count as failures even when they eventually return 200.",
                    "What response deadline do {e} webhook receivers have?",
                    "How fast must a partner endpoint reply before the call is treated as lost for {ea}?",
                ),
                (
                    "Signatures are HMAC-SHA256 over the raw request body, keyed with the secret at `vault://{e}/hook-secret`.",
                    "Where is the HMAC secret for {e} webhook signatures kept?",
                    "Which vault path holds the signing key partners verify for {ea}?",
                ),
            ],
            "In {d} a partner outage made the queue redeliver in a tight loop, and the {e} workers starved every other job for two hours.",
            [
                "Never lower the backoff base without asking {p} first.",
                "New event types need a payload fixture in `tests/{e}/test_hooks.py` before they ship.",
            ],
            upd=(
                "the attempt cap went down to {n1} because partners complained about duplicate deliveries (PR #{pr}).",
                "Did the {e} webhook attempt cap change recently?",
                "Why did partners grumble about duplicates from {ea}, and what was done about it?",
            ),
        ),
        K(
            "feedback",
            "feedback_{e}_migrations",
            "Schema migrations in {e}",
            [
                "How schema migrations for the {e} database must be written and rolled out",
                "{e} DB change rules",
                "Migration discipline for {e}: expand, backfill, contract",
            ],
            [
                (
                    "Schema changes to the {e} database go out in three separate deploys: expand, backfill, contract.",
                    "How are schema migrations for the {e} database rolled out?",
                    "In how many steps do we ship a table change for {ea}?",
                ),
                (
                    "Backfills run in batches of {n4} rows with a {n1} second pause between batches so replication lag stays under a minute.",
                    "What batch size do {e} backfills use?",
                    "How many rows per chunk when filling a new column for {ea}, and how long is the pause?",
                ),
                (
                    "Never add a NOT NULL column with a default on the `{e}_events` table; it rewrites {n2} GB and locks writes.",
                    "Why can't I add a NOT NULL column with a default to {e}_events?",
                    "What happens if a mandatory field with a fallback value is added to the big {ea} event store?",
                ),
                (
                    "Migration files live in `services/{e}/migrations/` and are numbered; {p} reviews every one that touches an index.",
                    "Who reviews {e} migrations that touch an index?",
                    "Which colleague must look at a change that alters lookups on {ea} tables?",
                ),
            ],
            "A one-shot migration on {d} held a table lock for {n2} minutes and took checkout down with it.",
            [
                "Split every migration PR into the three deploys and link them in the description.",
                "Run `make migrate-dry-run SERVICE={e}` against staging before asking for review.",
            ],
        ),
        K(
            "project",
            "project_{e}_rate_limits",
            "{E} API rate limits",
            [
                "Rate limits on the public {e} API — current numbers and who decided them",
                "Throttling setup for {e}",
                "{E} API limits per plan and the open questions around them",
            ],
            [
                (
                    "The public {e} API allows {n3} requests per minute per API key on the standard plan.",
                    "What is the per-minute request limit of the {e} API?",
                    "How many calls can a normal customer key make each minute against {ea}?",
                ),
                (
                    "Enterprise keys get a burst allowance of {n4} requests, refilled over {n2} seconds.",
                    "What burst allowance do enterprise keys get on the {e} API?",
                    "How big is the spike budget for our largest customers on {ea}?",
                ),
                (
                    "Limits are enforced in the gateway (`gateway/policies/{e}.yaml`), not in the service itself.",
                    "Where are the {e} rate limits enforced?",
                    "Which config file does the throttling for {ea} actually live in?",
                ),
                (
                    "Blocked requests get HTTP 429 with a `Retry-After` header; {p2} wants to add the remaining quota to every response.",
                    "What status code do throttled {e} requests get?",
                    "What does a client see when it has called {ea} too often?",
                ),
            ],
            "Product agreed the numbers with sales on {d}; changing them without telling sales broke two enterprise contracts last year.",
            [
                "Check the plan table before promising a customer anything.",
                "Any change to the YAML needs a changelog entry under 'API limits'.",
            ],
            upd=(
                "the standard-plan limit was raised to {n4} per minute for keys created after {d2}.",
                "Was the {e} API standard limit raised?",
                "Do newer customer keys on {ea} get more calls per minute than old ones?",
            ),
        ),
    ],
    "tools": [
        T(
            "mcp__postgres__query",
            K(
                "reference",
                "reference_postgres_mcp_usage",
                "Using the postgres MCP query tool",
                ["How to call the postgres MCP tool: parameters, read replica, output format"],
                [
                    (
                        "The `mcp__postgres__query` tool takes a `sql` string and an optional `params` list and returns rows as JSON objects.",
                        "",
                        "",
                    ),
                    (
                        "Pass `target: replica` to read from the read replica on {h}; the default is the primary.",
                        "",
                        "",
                    ),
                ],
                "Written down after {p} spent an afternoon figuring out the parameter names on {d}.",
                [
                    "Use positional `$1` placeholders, never string formatting.",
                    "Ask for at most {n4} rows; larger results are truncated silently.",
                ],
            ),
            K(
                "feedback",
                "feedback_postgres_mcp_danger",
                "Postgres MCP tool gotcha",
                ["The postgres MCP tool runs statements in autocommit on the primary by default"],
                [
                    (
                        "Careful: the postgres MCP tool runs every statement in autocommit on the primary unless told otherwise, so an UPDATE cannot be rolled back.",
                        "",
                        "",
                    ),
                    (
                        "On {d} a cleanup query run through it deleted {n3} live orders; restore took {n1} hours.",
                        "",
                        "",
                    ),
                ],
                "The tool has no dry-run mode and no confirmation step.",
                [
                    "Wrap anything that writes in `BEGIN; ... ROLLBACK;` first and look at the row count.",
                    "Point read-only questions at the replica.",
                ],
            ),
            [
                "Run a query against the orders table to count yesterday's cancelled orders.",
                "Delete the test rows I inserted into the customers table earlier today.",
            ],
        )
    ],
}

EN_DATA_ENTITIES = [
    ("churn", "customers leaving"),
    ("fraud", "suspicious payments"),
    ("demand", "how much stock to order"),
    ("pricing", "what we charge"),
    ("ranking", "result ordering"),
    ("sentiment", "the mood of reviews"),
    ("forecast", "next quarter's numbers"),
    ("segmentation", "grouping shoppers"),
    ("attribution", "which ad earned the sale"),
    ("anomaly", "odd spikes in metrics"),
    ("uplift", "campaign effect"),
    ("ltv", "lifetime value of a buyer"),
]

EN_DATA = {
    "entities": EN_DATA_ENTITIES,
    "kits": [
        K(
            "project",
            "project_{e}_feature_pipeline",
            "{E} feature pipeline",
            [
                "The nightly feature pipeline behind the {e} model: sources, schedule, known gaps",
                "Where the {e} features come from",
                "{e} features — pipeline state and open issues",
            ],
            [
                (
                    "Features for the {e} model are built nightly by the `{e}_features` Airflow DAG at 02:{n2} UTC.",
                    "When does the {e} features DAG run?",
                    "At what time of night are the inputs for {ea} rebuilt?",
                ),
                (
                    "The DAG reads the `events_raw` table with a {n1}-day lookback and writes parquet to `s3://ml-features/{e}/`.",
                    "Where does the {e} feature pipeline write its parquet output?",
                    "Which bucket prefix ends up holding the computed columns for {ea}?",
                ),
                (
                    "The `days_since_last_order` feature is null for about {n2}% of rows because guest checkouts have no customer id.",
                    "Why is days_since_last_order null so often in the {e} features?",
                    "Why are so many shoppers missing a recency value in the {ea} training data?",
                ),
                (
                    "Backfilling a year takes about {n1} hours on the `ml-large` pool; {p} owns the pool quota.",
                    "How long does a one-year backfill of {e} features take?",
                    "If we recompute twelve months of inputs for {ea}, how long will it run and whose compute quota is it?",
                ),
            ],
            "The model was retrained on {d} with features that silently skipped a day; nobody noticed for a week.",
            [
                "Check the DAG's row-count sensor before retraining.",
                "Document every new feature in `features/{e}/README.md` with its null rate.",
            ],
            upd=(
                "the DAG moved to 04:{n2} UTC because the warehouse load now finishes later.",
                "Did the {e} DAG schedule move?",
                "Has the nightly rebuild for {ea} been shifted to a later hour?",
            ),
        ),
        K(
            "feedback",
            "feedback_{e}_evaluation",
            "How to evaluate {e} models",
            [
                "Evaluation protocol for {e} models: splits, metrics, what to report",
                "{E} model evaluation rules",
            ],
            [
                (
                    "Evaluate {e} models on a time-based split: train on everything before the last {n1} weeks, test on those weeks.",
                    "What split do we use to evaluate {e} models?",
                    "Do we shuffle rows when judging {ea} predictors, or cut by date?",
                ),
                (
                    "The headline metric is PR-AUC, not ROC-AUC, because positives are about {n1}% of rows.",
                    "Which headline metric do we report for {e}?",
                    "Which curve-based score goes on the first slide for {ea}, and why not the usual one?",
                ),
                (
                    "Always report the metric per country as well; the DE segment regressed {n2}% once while the global number improved.",
                    "Why must {e} evaluation be broken down per country?",
                    "Why do we split the scores by market when judging {ea}?",
                ),
                (
                    "The baseline to beat is the rules model from release {v}; its numbers are in `reports/{e}_baseline.md`.",
                    "What baseline do new {e} models have to beat?",
                    "Which older heuristic is the bar for {ea}, and where are its figures written down?",
                ),
            ],
            "{p} presented a random-split result on {d} that collapsed in production because of leakage through repeat customers.",
            [
                "Use `evaluation/split.py --by-time` rather than writing a split by hand.",
                "Put the per-country table in every model card.",
            ],
        ),
        K(
            "reference",
            "reference_{e}_dataset",
            "{E} labelled dataset",
            [
                "Where the labelled {e} dataset lives and how it was labelled",
                "Pointer to the {e} labels",
            ],
            [
                (
                    "The labelled {e} dataset is a Delta table `ml.labels_{e}` with {n4} rows as of release {v}.",
                    "Where is the labelled {e} dataset?",
                    "Which table holds the hand-checked examples for {ea}?",
                ),
                (
                    "Labels were produced by {n1} annotators; disagreements were settled by {p2}.",
                    "Who settled labelling disagreements for {e}?",
                    "When annotators disagreed about {ea} examples, who had the last word?",
                ),
                (
                    "Inter-annotator agreement (Cohen's kappa) is 0.{n2}; treat labels from before {d} as noisier.",
                    "What is the inter-annotator agreement on the {e} labels?",
                    "How consistent were the people who tagged {ea} examples?",
                ),
            ],
            "People kept re-deriving labels from raw logs and got different counts.",
            ["Read from the table, never from exports.", "Ask {p2} before relabelling anything."],
        ),
    ],
    "tools": [
        T(
            "mcp__notebook__run_cell",
            K(
                "reference",
                "reference_notebook_tool_usage",
                "Notebook cell tool usage",
                ["How the notebook MCP tool is called: cell ids, kernels, outputs"],
                [
                    (
                        "`mcp__notebook__run_cell` takes `notebook` (a path) and `cell_id`; outputs come back as a list of mime bundles.",
                        "",
                        "",
                    ),
                    (
                        "Kernels are started lazily; the first call takes about {n1} seconds.",
                        "",
                        "",
                    ),
                ],
                "Collected while wiring up the analysis notebooks on {d}.",
                ["Use cell ids, not indexes.", "Images arrive base64 encoded."],
            ),
            K(
                "feedback",
                "feedback_notebook_tool_memory",
                "Notebook tool kernel memory warning",
                ["Notebook tool kernels share one 8 GB box; big frames kill every kernel"],
                [
                    (
                        "Warning: all kernels started by the notebook tool share one 8 GB machine, and loading the full events table kills every kernel on it, including other people's.",
                        "",
                        "",
                    ),
                    ("{p} lost a {n1}-hour fit that way on {d}.", "", ""),
                ],
                "There is no per-kernel limit configured yet.",
                [
                    "Sample with `LIMIT` or read one partition before loading anything.",
                    "Save intermediate results to parquet.",
                ],
            ),
            [
                "Load the events table in the analysis notebook and plot daily active users.",
                "Run the cell that joins orders with sessions for the whole of last year.",
            ],
        )
    ],
}

EN_MOBILE_ENTITIES = [
    ("ios", "the iPhone app"),
    ("android", "the Pixel and Samsung build"),
    ("watch", "the wrist companion"),
    ("tablet", "the iPad layout"),
    ("kiosk", "in-store terminals"),
    ("widget", "the home-screen tile"),
    ("wallet", "stored payment cards"),
    ("onboarding", "the first-launch tour"),
    ("offline", "working without signal"),
    ("camera", "photo capture"),
]

EN_MOBILE = {
    "entities": EN_MOBILE_ENTITIES,
    "kits": [
        K(
            "project",
            "project_{e}_release_train",
            "{E} release train",
            [
                "Release process for the {e} build: cadence, freeze, store review",
                "How {e} releases ship",
                "{E} release checklist and the current train",
            ],
            [
                (
                    "The {e} build ships on a {n1}-week train; code freeze is the Thursday before release at 14:00.",
                    "How often does the {e} build ship?",
                    "What's the cadence of store submissions for {ea}, and when do we stop merging?",
                ),
                (
                    "Staged rollout starts at {n1}% and doubles daily unless crash-free sessions drop below 99.{n1}%.",
                    "What percentage does the {e} staged rollout start at?",
                    "How small is the first slice of users who get a new version of {ea}?",
                ),
                (
                    "Release notes are written by {p} in `fastlane/metadata/{e}/` and must be under {n3} characters.",
                    "Who writes the {e} release notes and where?",
                    "Which person drafts the store text for {ea}, and how long may it be?",
                ),
                (
                    "Version {v} is stuck in review because the privacy label lacks the location entry.",
                    "Why is the current {e} version stuck in store review?",
                    "What blocks the latest submission of {ea} with the app store reviewers?",
                ),
            ],
            "A hotfix skipped the freeze on {d} and shipped a login crash to every user at once.",
            [
                "No merges into the release branch after freeze without {p2}'s approval.",
                "Watch the crash dashboard for the first {n2} hours of each rollout step.",
            ],
            upd=(
                "the train moved to weekly releases from {d2}; freeze is now Tuesday noon.",
                "Did the {e} release cadence change?",
                "Is the shipping rhythm of {ea} faster now?",
            ),
        ),
        K(
            "feedback",
            "feedback_{e}_crash_reports",
            "{E} crash reporting",
            [
                "Crash reporting for {e}: symbol upload, grouping, who triages",
                "Crash triage habits for {e}",
            ],
            [
                (
                    "Crashes from {e} go to Sentry project `{e}-prod`; dSYM or mapping files are uploaded by the CI step `upload-symbols`.",
                    "Which Sentry project gets {e} crashes?",
                    "Where do the stack traces of {ea} end up?",
                ),
                (
                    "Triage happens every morning at 9:30 by whoever is on the mobile rota; {p} keeps the rota.",
                    "Who keeps the mobile triage rota for {e} crash reports?",
                    "Which teammate organises the daily look at {ea} failures?",
                ),
                (
                    "Out-of-memory kills are not reported as crashes; check the `{e}_oom_rate` metric instead, currently 0.{n1}%.",
                    "How do we see out-of-memory kills for {e}?",
                    "Where would I notice the app being killed for using too much RAM on {ea}?",
                ),
            ],
            "Unsymbolicated reports were useless for a whole release in {d} because the upload step was skipped.",
            [
                "Never mark a crash group resolved without a linked PR.",
                "Tag groups with the release version so regressions show.",
            ],
        ),
        K(
            "project",
            "project_{e}_push",
            "Push notifications on {e}",
            [
                "Push notification setup for {e}: provider, topics, quiet hours",
                "{E} push state",
            ],
            [
                (
                    "Push for {e} goes through Firebase Cloud Messaging with the server key rotated every {n2} days.",
                    "Which provider sends push notifications for {e}?",
                    "What service delivers the pop-up messages on {ea}?",
                ),
                (
                    "Marketing pushes respect quiet hours from 21:00 to 08:00 local time; transactional ones do not.",
                    "Do {e} push notifications respect quiet hours?",
                    "Can promotional messages wake people at night on {ea}?",
                ),
                (
                    "Opt-in rate after the new prompt is {n2}%; it was {n1}% before {d}.",
                    "What is the push opt-in rate on {e}?",
                    "What share of people agree to receive messages on {ea} since the prompt changed?",
                ),
            ],
            "Users complained about 3 a.m. promotions after a timezone bug.",
            [
                "Test every campaign with a device set to another timezone.",
                "Ask {p} before adding a new topic.",
            ],
        ),
    ],
    "tools": [
        T(
            "mcp__simulator__install_build",
            K(
                "reference",
                "reference_simulator_tool",
                "Simulator tool parameters",
                ["How to call the simulator MCP tool to install and launch builds"],
                [
                    (
                        "`mcp__simulator__install_build` takes `device` (a simulator name) and `app_path`; it boots the device when needed.",
                        "",
                        "",
                    ),
                    (
                        "Use `device: iPhone 15` for screenshots; logs come back in `stdout`.",
                        "",
                        "",
                    ),
                ],
                "Noted on {d} while automating screenshots.",
                ["Prefer named devices over UDIDs.", "Boot takes about {n2} seconds."],
            ),
            K(
                "feedback",
                "feedback_simulator_tool_reset",
                "Simulator tool wipes keychain",
                ["Installing through the simulator tool erases the keychain and test accounts"],
                [
                    (
                        "Known issue: installing a build through the simulator tool erases the simulator keychain, so the logged-in QA account is gone afterwards.",
                        "",
                        "",
                    ),
                    ("{p} lost an afternoon of manual test setup to this on {d}.", "", ""),
                ],
                "The tool calls `simctl erase` before install when the bundle id changed.",
                [
                    "Export test accounts first with `scripts/qa_accounts.sh save`.",
                    "Keep bundle ids stable.",
                ],
            ),
            [
                "Install the latest debug build on the simulator and log in with the QA user.",
                "Put the new build on the iPhone simulator so I can check the settings screen.",
            ],
        )
    ],
}

EN_INFRA_ENTITIES = [
    ("gateway", "the front door proxy"),
    ("postgres", "the main relational store"),
    ("redis", "the in-memory cache"),
    ("kafka", "the event bus"),
    ("runner", "CI build machines"),
    ("vpn", "remote access"),
    ("dns", "name resolution"),
    ("grafana", "dashboards"),
    ("vault", "secret storage"),
    ("elastic", "log search"),
    ("minio", "object storage"),
    ("ldap", "the staff directory"),
    ("cron", "scheduled jobs"),
    ("mailer", "outbound SMTP"),
]

EN_INFRA = {
    "entities": EN_INFRA_ENTITIES,
    "kits": [
        K(
            "project",
            "project_{e}_deploy",
            "{E} deployment",
            [
                "How {e} is deployed: pipeline, hosts, rollback",
                "{E} deploy notes",
                "Deploy and rollback procedure for {e}, with the current host layout",
            ],
            [
                (
                    "{E} is deployed by the `deploy-{e}` pipeline with Ansible to {n1} hosts behind {h}.",
                    "How is {e} deployed?",
                    "Which pipeline pushes new versions of {ea} out, and to how many machines?",
                ),
                (
                    "Rollback is `ansible-playbook rollback.yml -e target={e} -e version=<previous>`; it takes about {n2} minutes.",
                    "What is the rollback command for {e}?",
                    "How do I go back to the previous release of {ea}?",
                ),
                (
                    "The health check polls `/healthz` on port {port} every {n2} seconds; a host leaves the pool after {n1} failures.",
                    "On which port is the {e} health check?",
                    "After how many failed probes is a machine running {ea} pulled from rotation?",
                ),
                (
                    "Config lives in `infra/{e}/group_vars/prod.yml`; secrets come from vault at deploy time.",
                    "Where is the production config for {e}?",
                    "Which YAML file holds live settings for {ea}?",
                ),
            ],
            "On {d} a manual hotfix on one host drifted from the playbook and the next deploy reverted it silently.",
            [
                "Never hand-edit a host; change the playbook.",
                "Announce deploys in #ops and tag {p}.",
            ],
            upd=(
                "we changed the poller sleep to {n1} minutes and the pool drain timeout to {n2} seconds after the incident with {p2}.",
                "Did the {e} health poller sleep or drain timeout change?",
                "Were the waits between probes for {ea} shortened after the incident?",
            ),
        ),
        K(
            "reference",
            "reference_{e}_backup",
            "{E} backups",
            [
                "Backup schedule and restore steps for {e}",
                "Where {e} backups go",
            ],
            [
                (
                    "{E} is backed up every {n1} hours to `s3://backups/{e}/` with {n2} days of retention.",
                    "How often is {e} backed up?",
                    "How frequent are the snapshots of {ea}, and how long are they kept?",
                ),
                (
                    "Restores were last tested on {d} and took {n2} minutes for {n2} GB.",
                    "When was a {e} restore last tested?",
                    "Have we actually tried recovering {ea} from a snapshot lately?",
                ),
                (
                    "The encryption key for the archives is in vault under `backup/{e}`; {p} and {p2} can read it.",
                    "Who can read the {e} backup encryption key?",
                    "Which two people have access to the key that unlocks the {ea} archives?",
                ),
            ],
            "An untested backup turned out to be empty during the {d} incident.",
            [
                "Run the restore drill every quarter.",
                "Check the size of last night's archive in Grafana.",
            ],
        ),
        K(
            "feedback",
            "feedback_{e}_alerts",
            "{E} alerting",
            [
                "Alert thresholds for {e} and how to handle pages",
                "Paging rules for {e}",
            ],
            [
                (
                    "{E} pages on-call when p99 latency stays above {n3} ms for {n1} minutes.",
                    "What latency threshold pages on-call for {e}?",
                    "How slow does {ea} have to get before someone is woken up?",
                ),
                (
                    "Disk alerts fire at {n2}% on the data volume; below that only a ticket is opened.",
                    "At what disk usage do {e} alerts fire?",
                    "How full does the volume of {ea} need to be before a page goes out?",
                ),
                (
                    "Runbooks are linked from the alert annotations; the {e} runbook is `runbooks/{e}.md` and {p} maintains it.",
                    "Who maintains the {e} runbook?",
                    "Which colleague keeps the incident guide for {ea} up to date?",
                ),
            ],
            "Too many pages in {d} made people mute the channel and miss a real outage.",
            ["Tune thresholds rather than muting.", "Every page must have a runbook link."],
        ),
    ],
    "tools": [
        T(
            "mcp__k8s__kubectl",
            K(
                "reference",
                "reference_k8s_tool_usage",
                "kubectl MCP tool reference",
                ["Parameters of the kubectl MCP tool and which contexts it can reach"],
                [
                    (
                        "`mcp__k8s__kubectl` takes `args` (a list) and `context`; contexts are `staging` and `prod-eu`.",
                        "",
                        "",
                    ),
                    ("Output is plain text; add `-o json` for structured output.", "", ""),
                ],
                "Written on {d} when the tool was added.",
                ["Always pass the context explicitly.", "Use `--dry-run=server` for applies."],
            ),
            K(
                "feedback",
                "feedback_k8s_tool_prod_default",
                "kubectl tool defaults to prod",
                ["The kubectl tool falls back to the prod context when none is given"],
                [
                    (
                        "Gotcha: when `context` is left out, the kubectl MCP tool falls back to `prod-eu`, not staging.",
                        "",
                        "",
                    ),
                    (
                        "On {d} a `delete pod --all` meant for staging restarted {n2} production pods.",
                        "",
                        "",
                    ),
                ],
                "The default comes from the shared kubeconfig and cannot be changed per user.",
                [
                    "Set `context: staging` on every call.",
                    "Never run delete with `--all` through the tool.",
                ],
            ),
            [
                "Restart the pods of the payments deployment on staging.",
                "Delete the stuck job in the batch namespace.",
            ],
        )
    ],
}

EN_RESEARCH_ENTITIES = [
    ("ablation", "removing parts one at a time"),
    ("pretraining", "the large first training stage"),
    ("distillation", "teaching a small student model"),
    ("tokenizer", "splitting text into pieces"),
    ("retrieval", "fetching passages"),
    ("robustness", "behaviour under noisy inputs"),
    ("calibration", "confidence matching accuracy"),
    ("multilingual", "non-English languages"),
    ("pruning", "removing weights"),
    ("curriculum", "ordering training examples"),
]

EN_RESEARCH = {
    "entities": EN_RESEARCH_ENTITIES,
    "kits": [
        K(
            "project",
            "project_{e}_experiments",
            "{E} experiments",
            [
                "Running log of the {e} experiments: configs, results, next steps",
                "{E} study status",
                "State of the {e} study",
            ],
            [
                (
                    "The {e} runs use the base config `configs/{e}/base.yaml` with seed {n1} and {n2}k steps.",
                    "Which base config do the {e} runs use?",
                    "What settings file and seed are used for the study on {ea}?",
                ),
                (
                    "Best result so far: {n2}.{n1} on the dev set with learning rate 3e-4; the 1e-3 runs diverged after {n3} steps.",
                    "What is the best dev result of the {e} experiments?",
                    "What top score did we reach so far on {ea}, and which step size blew up?",
                ),
                (
                    "Checkpoints go to `/scratch/{p}/{e}/ckpt`; they are deleted after {n2} days by the cluster policy.",
                    "Where are the {e} checkpoints stored?",
                    "Which scratch folder holds saved weights for {ea}, and when are they purged?",
                ),
                (
                    "Reviewer 2 asked for a comparison with the {v} baseline, which is still missing.",
                    "What did reviewer 2 ask for in the {e} paper?",
                    "Which comparison do the referees still want for {ea}?",
                ),
            ],
            "Results from before {d} used a buggy evaluation script and must not be cited.",
            ["Log every run in the table in `results/{e}.md`.", "Tag runs with the git hash."],
            upd=(
                "the evaluation bug was fixed in {sha}; all numbers after that commit are comparable.",
                "Which commit fixed the {e} evaluation bug?",
                "From which revision onwards can scores for {ea} be compared?",
            ),
        ),
        K(
            "feedback",
            "feedback_{e}_writing",
            "Writing up {e}",
            [
                "Conventions for the {e} paper: notation, figures, citation style",
                "{E} paper style rules",
            ],
            [
                (
                    "In the {e} paper, vectors are bold lowercase and matrices bold uppercase; never use arrows.",
                    "How are vectors written in the {e} paper?",
                    "What typography do we use for column quantities when writing about {ea}?",
                ),
                (
                    "Figures are made with `plots/{e}.py` at {n3} dpi in the colour-blind palette.",
                    "What resolution are {e} paper figures?",
                    "How many dots per inch for the plots about {ea}?",
                ),
                (
                    "{p} insists on citing the workshop version as well as the journal version.",
                    "Which versions must be cited in the {e} paper?",
                    "Does the supervisor want both the short and long publication referenced for {ea}?",
                ),
            ],
            "The last submission lost points for inconsistent notation.",
            [
                "Run `make lint-tex` before sending drafts.",
                "Keep the glossary in `paper/notation.tex`.",
            ],
        ),
        K(
            "reference",
            "reference_{e}_cluster",
            "Cluster jobs for {e}",
            [
                "How {e} jobs are submitted on the university cluster",
                "Cluster notes for {e}",
            ],
            [
                (
                    "{E} jobs run on the `gpu-a100` partition with `--gres=gpu:{n1}` and a {n2}-hour limit.",
                    "Which partition do {e} jobs use?",
                    "On which queue and with how many cards do the training jobs for {ea} run?",
                ),
                (
                    "The group has {n4} GPU hours per month; {p2} tracks usage in a spreadsheet.",
                    "How many GPU hours does the group have for {e}?",
                    "What is our monthly accelerator budget for {ea}?",
                ),
                (
                    "Jobs longer than {n2} hours must checkpoint, because maintenance reboots happen on the first Monday.",
                    "Why must long {e} jobs checkpoint?",
                    "What happens on the first Monday of the month to runs for {ea}?",
                ),
            ],
            "A week of compute was lost to a maintenance reboot in {d}.",
            ["Use `sbatch scripts/{e}.sbatch`.", "Check the quota before big sweeps."],
        ),
    ],
}

EN_ASSISTANT = {
    "entities": [
        ("lisbon", "the Portuguese capital"),
        ("kyoto", "the old Japanese capital"),
        ("oslo", "the Norwegian capital"),
        ("montreal", "the Québec city"),
        ("vienna", "the Austrian capital"),
        ("cape town", "the South African coast city"),
        ("edinburgh", "the Scottish capital"),
        ("seoul", "the Korean capital"),
    ],
    "kits": [
        K(
            "project",
            "project_trip_{e}",
            "Trip to {E}",
            [
                "Plans for the trip to {e}: dates, bookings, open items",
                "{E} trip planning",
            ],
            [
                (
                    "The trip to {e} runs from {d} for {n1} nights; flights are booked, the hotel is not.",
                    "When is the trip to {e}?",
                    "What are the travel dates for the visit to {ea}?",
                ),
                (
                    "Budget is {n4} EUR in total including flights; {p} is paying for the dinners.",
                    "What is the budget for the {e} trip?",
                    "How much money is set aside for the holiday in {ea}?",
                ),
                (
                    "Travel insurance policy number is in the folder `Documents/travel/{e}`; the card covers only {n2} days.",
                    "Where is the travel insurance for the {e} trip?",
                    "Where did I put the cover documents for the journey to {ea}?",
                ),
                (
                    "Want to see the botanical garden on day {n1}; it is closed on Mondays.",
                    "Which day is the botanical garden planned in {e}?",
                    "On what day do we visit the plant collection in {ea}, and when is it shut?",
                ),
            ],
            "The last trip had overlapping bookings because plans lived in three chats.",
            [
                "Keep everything about the trip in this file.",
                "Add confirmation numbers as they arrive.",
            ],
            upd=(
                "the hotel is booked now, {n1} minutes' walk from the station, confirmation {n4}.",
                "Is the hotel for {e} booked?",
                "Have we found a place to sleep in {ea} yet?",
            ),
        ),
        K(
            "user",
            "user_preferences_{e}",
            "Preferences for {E}",
            ["What the user likes and avoids when dealing with {e}", "{E} likes and dislikes"],
            [
                (
                    "For {e} the user prefers morning slots before 10:00 and hates phone calls; email is fine.",
                    "What time slots does the user prefer for {e}?",
                    "When in the day should I schedule things about {ea}?",
                ),
                (
                    "Allergic to shellfish; mention it whenever booking a restaurant there.",
                    "Any food allergy to mention for {e} restaurants?",
                    "Is there something the user cannot eat when dining in {ea}?",
                ),
            ],
            "Said so explicitly on {d} after a bad experience.",
            ["Check this before proposing anything.", "Ask if unsure."],
            entities=[
                ("travel", "journeys"),
                ("dentist", "teeth appointments"),
                ("gym", "workouts"),
                ("bank", "money matters"),
            ],
        ),
        K(
            "reference",
            "reference_{e}_account",
            "{E} account details",
            ["Where the {e} account details and renewal dates are kept", "{E} subscription"],
            [
                (
                    "The {e} subscription renews on the {n1}th of each month at {n2} EUR; the login email is the personal one.",
                    "When does the {e} subscription renew?",
                    "On what day of the month is the fee for {ea} charged?",
                ),
                (
                    "Cancelling needs {n2} days' notice by letter, not online.",
                    "How do I cancel {e}?",
                    "What notice period applies if I want to stop {ea}?",
                ),
                (
                    "The contract number is in the password manager under `{e}-contract`.",
                    "Where is the {e} contract number?",
                    "Where can I find the agreement reference for {ea}?",
                ),
            ],
            "The renewal surprised the user twice.",
            ["Remind three days before renewal.", "Never pay the annual plan without asking."],
            entities=[
                ("streaming", "films and series online"),
                ("climbing", "the bouldering hall"),
                ("newspaper", "the daily paper"),
                ("insurance", "household cover"),
                ("phone", "the mobile contract"),
            ],
        ),
    ],
}

EN_NONE = [
    "What's a good sourdough schedule with rye flour?",
    "Translate this paragraph into Italian for me.",
    "How do I configure a VLAN trunk on a Cisco switch?",
    "Explain the difference between TCP and UDP for a beginner.",
    "Which board game works well for four players who like strategy?",
    "Write a limerick about a cat who loves boxes.",
    "How many moons does Jupiter have?",
    "What's the capital of Mongolia?",
    "Suggest a name for a golden retriever puppy.",
    "How do I remove a red wine stain from a carpet?",
    "Summarise the plot of Moby-Dick in three sentences.",
    "What is the boiling point of water at 3000 m altitude?",
]

EN = {
    "code": "en",
    "space": " ",
    "labels": {
        "why": "**Why:**",
        "how": "**How to apply:**",
        "update": "Update {d2}:",
        "related": "Related:",
        "sections": ["Completed", "Open", "Next"],
    },
    "people": [
        "Priya",
        "Marco",
        "Jonas",
        "Aiko",
        "Lena",
        "Tomás",
        "Grace",
        "Omar",
        "Sven",
        "Nadia",
    ],
    "hosts": ["lb-eu-1", "web-03", "db-primary", "ci-runner-2", "edge-fra", "build-07"],
    "filler": {
        "status": [
            "{d}: merged #{pr} ({sha}) after {p} reviewed it",
            "{d}: {p} reran the nightly job on {h}; green after {n1} attempts",
            "{d}: bumped the lockfile to {v}, nothing else changed",
            "{d}: closed #{pr} as a duplicate of an older ticket",
            "{d}: {p} asked for a short write-up; postponed to next week",
            "{d}: quarantined a flaky test again ({sha})",
            "{d}: docs page updated and links checked",
            "{d}: moved the meeting notes to the wiki",
            "{d}: paired with {p2} on review comments, {n1} left open",
            "{d}: cleaned up {n2} stale branches",
            "{d}: CI took {n2} minutes on {h}, roughly as usual",
            "{d}: answered questions from {p} in the channel",
        ],
        "notes": [
            "{p} finds the naming confusing, but nobody has proposed anything better.",
            "The dashboard on {h} shows the same picture as last week.",
            "We discussed it again on {d} and left things as they are.",
            "Nothing here is urgent; it is written down so the next session does not repeat the digging.",
            "Commit {sha} is the last state known to be good.",
            "{p2} will be away until {d}, so decisions wait for {p}.",
            "There is a half-finished branch for this; it is not worth rebasing.",
            "The numbers were checked twice by hand and agree.",
            "Ticket #{pr} tracks the remaining cleanup.",
            "Keep an eye on this after the next release, but no action is needed now.",
        ],
    },
    "user": [
        K(
            "user",
            "user_profile",
            "Who the user is",
            ["Senior engineer who prefers short answers and reviews everything in the terminal"],
            [
                (
                    "The user is a senior engineer who works mostly in the terminal with neovim and tmux.",
                    "Which editor does the user work in?",
                    "What text editing setup does this person rely on?",
                ),
                (
                    "Prefers short answers with the command first and the explanation after; dislikes emoji in commit messages.",
                    "Does the user want emoji in commit messages?",
                    "How should I phrase commit subjects for this person — any decorative symbols?",
                ),
            ],
            "Stated in the first session.",
            ["Lead with the command.", "Keep commit messages plain."],
        ),
        K(
            "user",
            "user_background",
            "User background",
            ["Background of the user: tenure, languages, what to skip explaining"],
            [
                (
                    "Has {n1} years with Python and Go, new to Kotlin; explain Kotlin idioms briefly.",
                    "Is the user familiar with Kotlin?",
                    "Should I explain JVM-language idioms, or does this person know them?",
                ),
                (
                    "Works from Berlin, usually 8:00 to 16:00, and is reachable on Signal.",
                    "What are the user's working hours?",
                    "When in the day is this person usually around?",
                ),
            ],
            "Mentioned while setting up.",
            ["Skip basics of Python.", "Do not schedule things after 16:00."],
        ),
    ],
    "log": [
        LOG(
            "project_session_{e}_{d}",
            "Session notes {d}",
            "What happened in the working session of {d} and which threads stay open",
            "Session of {d} with {p}: mostly housekeeping and small fixes.",
            "Kept so the next session knows where things stand.",
            "Pick up the open items first.",
        ),
        LOG(
            "project_weekly_{e}",
            "Weekly status {d}",
            "Weekly status summary for the week of {d}",
            "Week of {d}: {n1} PRs merged, {n1} reviews pending, no incidents.",
            "The lead asked for a weekly trail.",
            "Add a line per merged PR.",
        ),
    ],
    "frames": [
        "Before I change anything: {q}",
        "Quick check — {q}",
        "I'm picking this up again today. {q}",
        "{q} I need it for the ticket I'm on.",
    ],
    "joiners": ["{a} Also, {b}", "Two things. {a} {b}", "{a} And while you're at it: {b}"],
    "none": EN_NONE,
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
