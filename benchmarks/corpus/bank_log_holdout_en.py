"""Log bank of the HOLDOUT corpus, English (twenty-first session). Every sentence written for
memdir_nb; no sentence is shared with bank_log_tune_en.py.

A data-science consultancy's running files: a run log per model, analysis notebooks, client call
notes, a pipeline status table, model review notes. Slots as in bank_holdout.py; {e} is the
model or dataset, {ea} another name for it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from log_dirs import L

KITS = [
    L(
        "project",
        "project_{e}_run_log",
        "{E} run log",
        ["Training and evaluation runs of the {e}, one line each", "{E} experiment runs"],
        "line",
        "Every run of the {e} gets a line, failed ones included. Metrics are on the validation "
        "split unless noted.",
        [
            (
                "best so far: learning rate {n1}e-4 with warmup of {n3} steps gave AUC 0.{n3}; "
                "config saved as {sha}.",
                "Which learning rate gave the best {e} result?",
                "What step size worked best when fitting the {ea}?",
            ),
            (
                "switched the {e} to the {d} data snapshot; the older one had duplicated rows "
                "from the March backfill.",
                "Which data snapshot does the {e} use now?",
                "What dump of the source tables feeds the {ea} at present?",
            ),
            (
                "GPU quota for the {e} is {n1} cards on {h}; anything bigger needs {p}'s sign-off.",
                "What GPU quota does the {e} have?",
                "How many accelerators may the {ea} jobs claim?",
            ),
            (
                "dropped the postcode feature from the {e}: it leaked the label through the store id.",
                "Why was the postcode feature dropped from the {e}?",
                "What leak made us remove the location field from the {ea}?",
            ),
        ],
    ),
    L(
        "project",
        "project_{e}_notebook",
        "{E} analysis notebook",
        ["Working notes from analysis sessions on the {e}", "{E} analysis scratchpad"],
        "section",
        "Dated working notes on the {e}; half-finished thoughts are left in on purpose.",
        [
            (
                "Seasonality in the {e} residuals is weekly, not monthly; the monthly term only "
                "fitted noise.",
                "Is the seasonality in the {e} residuals weekly or monthly?",
                "What cycle length shows up in the leftover errors of the {ea}?",
            ),
            (
                "Outlier rule agreed for the {e}: clip values above the 99.{n1} percentile, never "
                "delete rows.",
                "What outlier rule applies to the {e}?",
                "How do we treat extreme values in the {ea}?",
            ),
            (
                "{p2} found that the {e} baseline in the paper used a different test split, so "
                "our {n1}-point gap is not comparable.",
                "Why is the {e} gap to the paper's baseline not comparable?",
                "What makes the comparison of the {ea} against the published number unfair?",
            ),
            (
                "The {e} code needs pandas {v} exactly; later versions change the resample defaults.",
                "Which pandas version does the {e} code need?",
                "What dataframe library release must the {ea} pin?",
            ),
        ],
    ),
    L(
        "project",
        "project_{e}_client_calls",
        "{E} client calls",
        ["What the client said on calls about the {e}"],
        "dialogue",
        "Notes from calls with the client about the {e}, speaker first, typed live.",
        [
            (
                "they want the {e} results by {d2}, as a slide deck, not a dashboard.",
                "When does the client want the {e} results?",
                "What is the delivery date for the {ea} findings?",
            ),
            (
                "their contact for data access is {p2} from the warehouse team, not the analytics "
                "lead.",
                "Who is the client's contact for {e} data access?",
                "Whom do we ask on their side to get at the {ea} tables?",
            ),
            (
                "they accept precision of 0.{n2} on the {e} as long as recall stays above 0.{n3}.",
                "What precision does the client accept for the {e}?",
                "Which accuracy floor will the customer live with for the {ea}?",
            ),
            (
                "the invoice for the {e} work goes to the Utrecht office, purchase order PO-{n4}.",
                "Which purchase order covers the {e} work?",
                "What PO number do we bill the {ea} effort against?",
            ),
        ],
    ),
    L(
        "project",
        "project_{e}_pipeline_status",
        "{E} pipeline status",
        ["Where each stage of the {e} pipeline stands"],
        "table",
        "One row per change to the {e} pipeline; the bottom row is current.",
        [
            (
                "Nightly refresh of the {e} moved to 02:{n2} UTC to stay clear of the backup window.",
                "When does the nightly refresh of the {e} run?",
                "At what hour does the overnight rebuild of the {ea} start?",
            ),
            (
                "Feature table renamed to `features_v{n1}`; the old name stays a view until {d2}.",
                "What is the {e} feature table called now?",
                "Under which name do the {ea} inputs live these days?",
            ),
            (
                "Quality gate fails the run when more than {n1}% of rows are null.",
                "When does the quality gate fail the {e} run?",
                "What share of empty rows stops the {ea} job?",
            ),
            (
                "{p} owns the alerts since {d}; they go to #ds-alerts.",
                "Who owns the {e} pipeline alerts?",
                "Who gets paged when the {ea} data flow breaks?",
            ),
        ],
    ),
    L(
        "project",
        "project_{e}_review_notes",
        "{E} model review notes",
        ["Notes from review-board sessions about the {e}"],
        "section",
        "What each review-board session said about the {e}, by date.",
        [
            (
                "Board approved the {e} for the EU markets only; the US needs a fairness audit first.",
                "Which markets was the {e} approved for?",
                "Where may the {ea} be used after the panel's decision?",
            ),
            (
                "Latency budget for the {e} in production: {n2} ms at p95.",
                "What is the production latency budget of the {e}?",
                "How fast must the {ea} answer when serving live traffic?",
            ),
            (
                "The {e} must be retrained at least every {n1} weeks; drift alarms fire after "
                "{n2} days without a retrain.",
                "How often must the {e} be retrained?",
                "What is the longest allowed gap between refits of the {ea}?",
            ),
            (
                "SHAP explanations for the {e} use a sample of {n3} rows; the full set took too long.",
                "How many rows are used for the {e} SHAP explanations?",
                "On what sample size are the {ea} attributions computed?",
            ),
        ],
    ),
]

PLAIN = [
    L(
        "project",
        "project_lab_standup_{e}",
        "Lab standup, week {e}",
        ["Daily standup lines of the analytics group"],
        "line",
        "A line per day, whoever remembers to write it.",
        [],
    ),
    L(
        "project",
        "project_group_call_{e}",
        "Analytics group call {e}",
        ["Notes from the analytics group's call"],
        "dialogue",
        "Typed live; treat as hearsay unless a line says it was decided.",
        [],
    ),
]

ROUTINE = [
    "Reran yesterday's job with a fixed seed, same numbers.",
    "{p} out at a conference; {p2} picked up the review queue.",
    "Cluster busy all morning, jobs waited {n2} min in the queue.",
    "Cleaned the scratch bucket, freed {n3} GB.",
    "Notebook kernels restarted after the image update on {h}.",
    "Read two papers on calibration; nothing we can use yet.",
    "Plots for the weekly update exported and shared.",
    "Validation numbers within noise of last week.",
    "Fixed a typo in the feature docs, no code change.",
    "Spent the afternoon on data loading; {n1}x faster with parquet.",
    "Merged PR #{pr} (logging tweaks).",
    "Checked label balance again: unchanged.",
    "Unit tests green, {n3} of them.",
    "Meeting-heavy day, no progress to report.",
    "Pulled the latest schema docs; two columns renamed upstream, no impact.",
    "Disk on {h} nearly full again, moved old checkpoints to the archive.",
    "Ran the profiler; the join is still the slow part.",
    "Reviewed {p2}'s notebook, left {n1} comments.",
    "Tried a bigger batch size; no gain, reverted.",
    "Dashboard refreshed, no anomalies flagged.",
    "Updated the environment lock file after a security advisory.",
    "Paired with {p} on the evaluation script.",
    "Wrote the summary for the monthly report.",
    "Random restarts gave a spread of 0.0{n1} on the main metric; logged it.",
    "Sampled {n3} rows by hand to sanity-check labels; looked fine.",
    "Moved the task board columns around; nothing else.",
    "Slack was down for an hour, used email.",
    "Deleted {n2} stale experiment folders.",
    "Sent the weekly numbers to {p2}.",
    "Figures regenerated at a higher resolution for the report.",
    "Looked into a warning from the tokenizer; harmless.",
    "Onboarding session for the new intern, {p} led it.",
    "Re-ran the drift report: all green.",
    "Raised the job timeout to {n1} h for the long evaluation.",
]

CHATTER = [
    "right, makes sense.",
    "I'll send that round by email.",
    "nothing new from us.",
    "let's park that for now.",
    "agreed.",
    "can you share the screen again?",
    "we'll come back with numbers.",
    "that matches what we saw.",
]

# LoCoMo's shape: the analytics group's weekly call, a session per week titled by its date;
# each fact is said in one session (log_dirs.build_series_dir).
SERIES = L(
    "project",
    "project_analytics_weekly_{e}",
    "Analytics weekly call {e}",
    ["What the analytics group discussed on its weekly call"],
    "session",
    "Live notes, one line per turn.",
    [
        (
            "the reading group moves to Thursdays at four, {p} picks the papers.",
            "When does the reading group meet now?",
            "On which afternoon do we discuss papers together?",
        ),
        (
            "we standardise on Polars for new projects; pandas stays for old ones.",
            "Which dataframe library do new projects use?",
            "What table-processing package is the default for fresh work?",
        ),
        (
            "the shared GPU box is reserved through a calendar, at most {n1} days per booking.",
            "How long can one booking of the shared GPU box last?",
            "What is the longest reservation allowed on the common accelerator machine?",
        ),
        (
            "{p2} is going on sabbatical; {p} inherits the forecasting dashboards.",
            "Who inherits the forecasting dashboards?",
            "Who looks after the prediction screens while a colleague is on sabbatical?",
        ),
        (
            "the data catalogue tool costs {n4} euros a year; approved.",
            "How much does the data catalogue tool cost?",
            "What is the yearly price of the metadata inventory product?",
        ),
        (
            "every model going to production needs a one-page model card.",
            "What does every production model need?",
            "What document must accompany anything we deploy for live predictions?",
        ),
        (
            "interns get read-only access to production tables, never write.",
            "What access do interns get to production tables?",
            "Can trainees change live data?",
        ),
        (
            "{p} is our privacy champion now.",
            "Who is the privacy champion?",
            "Whom do we ask about personal-data questions?",
        ),
        (
            "the quarterly hackday theme is synthetic data.",
            "What is the quarterly hackday theme?",
            "What topic is the next internal build day about?",
        ),
        (
            "notebooks older than {n2} days on the shared drive get archived automatically.",
            "When do shared notebooks get archived?",
            "After how long are old Jupyter files moved away from the common storage?",
        ),
        (
            "we won't buy the AutoML licence; the trial found nothing our baselines missed.",
            "Why did we not buy the AutoML licence?",
            "What did the automated model search trial conclude?",
        ),
        (
            "the conference budget is {n4} euros per person per year.",
            "What is the conference budget per person?",
            "How much can each of us spend on events a year?",
        ),
        (
            "A/B test results need sign-off from {p2} before anyone announces them.",
            "Who signs off A/B test results?",
            "Whose approval do experiment outcomes need before they're shared?",
        ),
        (
            "the move to the new data warehouse finishes on {d2}.",
            "When does the move to the new data warehouse finish?",
            "By what date are we fully on the replacement analytics database?",
        ),
        (
            "office hours for stakeholders are Tuesdays 10 to 11, {p} hosts them.",
            "When are the office hours for stakeholders?",
            "At what slot can business people drop in with questions?",
        ),
        (
            "code review is required for notebooks too, not only for packages.",
            "Do notebooks need code review?",
            "Must exploratory Jupyter work be checked by a colleague?",
        ),
        (
            "the rotation for broken pipelines starts next month, one week each.",
            "When does the rotation for broken pipelines start?",
            "From when does someone take turns fixing failed data flows?",
        ),
        (
            "we retire the R server at the end of the quarter.",
            "When is the R server retired?",
            "When does the machine for the statistics language go away?",
        ),
        (
            "new hires pair with a buddy for their first {n1} weeks.",
            "How long do new hires pair with a buddy?",
            "For how many weeks does a newcomer get a companion?",
        ),
        (
            "the recommendation model's monthly cloud bill is {n4} dollars, half of it idle GPUs.",
            "What is the recommendation model's monthly cloud bill?",
            "How much does hosting the suggestions engine cost each month?",
        ),
    ],
)

LOG = {
    "code": "en",
    "people": ["Hana", "Ivo", "Jules", "Kofi", "Lena", "Mats", "Nia"],
    "hosts": ["gpu-3", "lab-db", "nb-12", "etl-5"],
    "entities": [
        ("churn model", "attrition predictor", "churn_model"),
        ("price index", "cost tracker", "price_index"),
        ("sentiment corpus", "opinion dataset", "sentiment_corpus"),
        ("demand forecast", "sales projection", "demand_forecast"),
        ("fraud scorer", "scam detector", "fraud_scorer"),
        ("survey panel", "respondent pool", "survey_panel"),
        ("route optimiser", "delivery planner", "route_optimiser"),
        ("search ranker", "results orderer", "search_ranker"),
    ],
    "kits": KITS,
    "series": SERIES,
    "plain": PLAIN,
    "routine": ROUTINE,
    "chatter": CHATTER,
    "section_labels": ["session", "notes", "board", "check"],
    "call_labels": ["client call", "call", "check-in with client"],
    "table_head": "| When | Change |\n|---|---|",
    "none": [
        "Did we ever evaluate a transformer for the invoice classifier?",
        "Who negotiated the cloud credits with the vendor?",
        "What was decided about publishing our benchmark?",
        "When does the GDPR training for the team happen?",
        "Which intern gets the spare laptop?",
        "Has anyone tried federated learning on hospital records?",
        "What did the ethics committee say about face data?",
        "Who books the venue for the summer workshop?",
        "Was the annotation vendor contract extended?",
        "Which conference are we submitting the causal paper to?",
    ],
    "joiners": ["{a} Plus: {b}", "{a} Separately: {b}"],
}
