"""Every shared name and cap of a memory dir, defined once and imported everywhere else."""

from __future__ import annotations

# File and folder names inside a memory dir.
ENTRYPOINT_NAME = "MEMORY.md"  # the index, private and team
TEAM_DIRNAME = "team"  # team memory lives in <memory_dir>/team/
TRASH_DIRNAME = ".trash"  # forget, consolidation and restore move files here, never unlink
NAME_MAX_BYTES = 255  # Linux's NAME_MAX: the longest file or folder name, in bytes
# The deepest folder below a memory dir any route walks or reads into. Real dirs nest two or
# three deep; a tree of thousands of one-letter folders (within PATH_MAX) made every recursive
# step (Python 3.11's os.walk, the reader's folder descriptors) raise RecursionError.
MEMORY_DIR_MAX_DEPTH = 64
# The most files and folders one walk of a memory dir looks at before it stops and says so.
# Claude Code loads the 200 newest files and the benchmarks go to 100,000; a home folder or a
# whole disk passed by mistake holds millions (`lint /` read every *.md on it for 201 s).
MEMORY_DIR_MAX_ENTRIES = 500_000
PATH_MAX_BYTES = 4095  # Linux's PATH_MAX, less the terminating NUL
# Trash batches (.trash/<batch>/ with a manifest.json) that restore() can undo: dream's, the
# memory tool's deletes, the indexes rebuild-index replaced, and the files `import --overwrite`
# replaced.
DREAM_BATCH_PREFIX = "dream-"
MEMORY_TOOL_BATCH_PREFIX = "memory-tool-"
REBUILD_BATCH_PREFIX = "rebuild-index-"
IMPORT_BATCH_PREFIX = "import-"
LOGS_DIRNAME = "logs"  # KAIROS daily logs: logs/YYYY/MM/YYYY-MM-DD.md
# Agent memory: <root>/<agent>/ is each agent's memory dir, under ~/.claude/ (user scope) or the
# project's .claude/ (project, local). The root itself is never a memory dir: no index there loads.
AGENT_MEMORY_DIRNAME = "agent-memory"
AGENT_MEMORY_LOCAL_DIRNAME = "agent-memory-local"
# The root of every path the API's memory tool takes: the prompt names it, the tool checks it.
MEMORY_TOOL_ROOT = "/memories"
# The Claude model asked when none is given: recall's selector and the tool loop that the
# extractor and the dream's Claude planner run.
DEFAULT_MODEL = "claude-sonnet-4-6"
# How long recall's Claude selector waits for its one call, every retry and the waits between
# them included: a recall past it picks nothing and says why, so it never holds up the turn it
# serves. `memdir-nb recall --timeout SECONDS` sets another, more than 0 and at most the max.
SELECTOR_TIMEOUT_S = 20.0
SELECTOR_TIMEOUT_MAX_S = 3600.0
STORE_LOCK_NAME = ".memdir.lock"  # the store's one lock; dream applies under it too
DAILY_LOG_LOCK_NAME = ".daily-log.lock"  # appends to daily logs (inside logs/)
CONSOLIDATION_LOCK_NAME = ".consolidate-lock"  # the dream lock; its mtime is the last-run time

# Repository files that an exported memory dir (a folder pushed to a public repo) holds next
# to its memories. At the top level of a memory dir these names are never memories: the scan
# passes over them (ScanReport.ignored says so). Compared case-insensitively on the stem;
# LICENSE-* variants count too.
REPOSITORY_FILE_STEMS = frozenset(
    {
        "readme",
        "license",
        "licence",
        "copying",
        "changelog",
        "contributing",
        "code_of_conduct",
        "security",
        "notice",
        "authors",
    }
)

# The index caps: lines first, then "bytes" cut at the last newline. Claude Code's bytes are
# UTF-16 code units (JavaScript's String.length; formats.index_caps.cap_units), not UTF-8.
MAX_ENTRYPOINT_LINES = 200
MAX_ENTRYPOINT_BYTES = 25_000

# Scanning: at most this many topic files, newest first; headers are read within these bounds.
MAX_MEMORY_FILES = 200
FRONTMATTER_MAX_LINES = 30
FRONTMATTER_MAX_BYTES = 8192
YAML_MAX_DEPTH = 32  # a header nests at most this deep (checked before libyaml, which can segfault)

# Recall: at most five memories a turn; each attached memory and the session are capped.
MAX_RELEVANT_MEMORIES = 5
RECALL_MAX_LINES = 200
RECALL_MAX_BYTES = 4096
MAX_SESSION_BYTES = 60 * 1024

# An index line is a one-line pointer; lint warns and dream shortens hooks past this length.
MAX_INDEX_LINE_CHARS = 200
MAX_HOOK_CHARS = 150  # an index entry's hook is cut to about this many characters

# Read caps of the contained reader (memdir_nb/access.py), one per purpose. A read never holds
# more than its cap in memory; what a cap cut is reported (ReadResult.truncated / cut_note).
INDEX_READ_MAX_BYTES = 1024 * 1024  # MEMORY.md, private and team: prompts, reports, lint, edits
HEADER_READ_MAX_BYTES = FRONTMATTER_MAX_BYTES  # a topic file's header (scan, frontmatter)
# A recalled memory is read a few bytes past its cap, so a cut shows.
RECALL_READ_SLACK_BYTES = 4
RECALL_READ_MAX_BYTES = RECALL_MAX_BYTES + RECALL_READ_SLACK_BYTES
# A whole topic file: lint, dream planning, store edits, views.
MEMORY_FILE_READ_MAX_BYTES = 256 * 1024
# What one in-process cache of a long-lived process (a kernel, the dashboard) may hold, in bytes as
# well as in entries (spec.bounded_cache): a key or value is as long as its file allows.
CACHE_MAX_BYTES = 16 * 1024 * 1024  # header texts: recall's word and tool caches, transcripts' keys
CACHE_BODIES_MAX_BYTES = 32 * 1024 * 1024  # bodies: the semantic index's documents, its snippets
SCAN_CACHE_MAX_BYTES = 32 * 1024 * 1024  # a ScanCache's header fields (every dir it scanned)
# The dream planner's fuzzy comparisons cost the product of the two texts' lengths: a body is
# compared (near-duplicates, contradictions) on at most its first DREAM_COMPARE_MAX_CHARS, and
# a merge looks for a near-identical line only while the lines of the two bodies, multiplied,
# stay within DREAM_MERGE_MAX_LINE_PAIRS (past it, only a line already there word for word is
# left out). Two 240 KB bodies took 6 s a pair to compare, two 56 KB ones 22 s to merge.
DREAM_COMPARE_MAX_CHARS = 8 * 1024
# A memory without `modified:` whose body names a day (2026-07-16) more than this many days
# before its file's mtime was not written on its mtime's day (a clone's or a copy's mtime):
# the dream leaves its "today" and "last week" as written rather than date them that day.
DREAM_DATE_SLACK_DAYS = 30
DREAM_MERGE_MAX_LINE_PAIRS = 200_000
DAILY_LOG_READ_MAX_BYTES = 4 * 1024 * 1024  # one day's KAIROS log, parsed into entries
LOCK_READ_MAX_BYTES = 64  # a lock file's body: a process id or nothing
SETTINGS_READ_MAX_BYTES = 1024 * 1024  # a settings.json (any layer)
GIT_POINTER_READ_MAX_BYTES = 4096  # a worktree's .git file or its commondir file
GIT_CONFIG_READ_MAX_BYTES = 64 * 1024  # a submodule's git config, read for core.worktree
# A session transcript (not in the memory dir) read whole as text: read_transcript's cap, and
# what one extractor run reads after its cursor (extract.transcript_tail).
TRANSCRIPT_READ_MAX_BYTES = 64 * 1024 * 1024
SESSION_READ_MAX_BYTES = 1024 * 1024 * 1024  # a transcript streamed as a Session: 1 GiB, then cut
# What a session listing that does not read transcripts reads of a top-level one, to tell its kind
SESSION_HEAD_READ_MAX_BYTES = 64 * 1024
# A subagent's `<agent>.meta.json` beside its transcript (2.x: agentType, description): a few
# hundred bytes in every home read (real38); one past this is not read
SUBAGENT_META_READ_MAX_BYTES = 16 * 1024
# The session model streams a transcript line by line: one line (one record) is read only up to
# this size (pasted images make lines of several hundred KB; a longer line is skipped and reported).
TRANSCRIPT_LINE_MAX_BYTES = 8 * 1024 * 1024
# and makes at most this many JSON values (formats.jsonio.value_count), which bounds what its parse
# holds: 8 MB of `{},{},...` under the byte cap was 2.8 million dicts, 205 MB for one line (§43).
# A real line's values are strings of a few bytes at least, so only a line of mostly empty
# values over 4 MB passes it.
TRANSCRIPT_LINE_MAX_VALUES = 1_000_000
# A project folder under <claude home>/projects holds its transcripts and this memory folder.
PROJECT_MEMORY_DIRNAME = "memory"
# The folder of a Claude home that holds one folder per project (its key): <home>/projects/<key>.
PROJECTS_DIRNAME = "projects"
# The Claude home's name in a home folder (~/.claude), and a project's settings folder.
CLAUDE_DIRNAME = ".claude"
# What the session model keeps of each record, so its memory follows the count of records, not
# their size: prompt text, a tool call's input strings, and a tool result's text preview.
SESSION_PROMPT_MAX_CHARS = 8_000
SESSION_TOOL_INPUT_MAX_CHARS = (
    64 * 1024
)  # a memory Write's content: whole for any memory-sized file
SESSION_TOOL_RESULT_MAX_CHARS = 1_000  # a result preview, and any other tool's input strings
SESSION_QUEUED_PROMPT_MAX_CHARS = 2_000  # a prompt typed while a turn ran (queued)
# A short note a session keeps: a `!` command, a local command's line, an API error, a title,
# a compaction's summary.
SESSION_NOTE_MAX_CHARS = 500
# A session listing (a count-only read) keeps the last summary text of at most this many of the
# leaves old-style `summary` lines name, the latest named, to tell which is the session's own
# title at the end (2.0.x files hold hundreds naming other sessions' records)
SUMMARY_TITLE_LEAVES_MAX = 1024
# The memory timeline rebuilds a session's memory files by undoing and redoing its edits: the
# texts it makes, and the text its edits search, stay within these many characters in all
# (past either an edit is not rebuilt; a searched gigabyte is a second or two).
TIMELINE_REBUILT_MAX_CHARS = 64 * 1024 * 1024
TIMELINE_SEARCHED_MAX_CHARS = 1024 * 1024 * 1024
SESSION_MAX_PROBLEMS = 1_000  # reported bad lines per session; a count says how many more
# Distinct record `type` strings counted one by one per session (Session.record_counts); the
# CLI writes about a dozen, and the rest of a crafted file's are counted under one bucket.
SESSION_RECORD_TYPES_MAX = 64
SESSION_RECORD_TYPE_MAX_CHARS = 100  # a longer `type` is counted in that bucket too
SESSION_OTHER_RECORD_TYPES = "(other types)"
SESSION_OUTSIDE_EDITS_MAX = (
    4_096  # `edited_text_file` notes kept per session (files changed outside)
)
# The memory paths kept from one record of the CLI's own memory work (a `relevant_memories`
# attachment names at most five; a `memory_saved` note what an extraction or a dream wrote),
# and the CLI's recall picks kept in a whole session.
RECORD_MEMORY_PATHS_MAX = 256
SESSION_CLI_RECALLS_MAX = 4_096
TOOL_READ_MAX_BYTES = 256 * 1024  # the extraction agent's Read tool, per call
TOOL_GREP_FILE_MAX_BYTES = 1024 * 1024  # Grep searches at most this much of each file
TOOL_GREP_MAX_OUTPUT_BYTES = 30_000  # Grep's result text
TOOL_GREP_MAX_FILES = 10_000  # Grep searches at most this many files under a folder
TOOL_GLOB_MAX_ENTRIES = 50_000  # Glob looks at most at this many files and folders under one
TOOL_GREP_PATTERN_MAX_CHARS = 2_000  # a model-supplied Grep regex (compiled by RE2, linear time)
TOOL_GREP_REGEX_MAX_MEM = 8 * 1024 * 1024  # RE2's memory budget for one compiled Grep regex
TOOL_BASH_MAX_OUTPUT_BYTES = 30_000  # Bash's captured output (stdout and stderr together)
# A Bash call's command text and its commands (attack38): shlex tokenised a long word in
# quadratic time (one 600 KB path: 20 s before anything ran; formats.shell_lexer is linear since
# redos44, and a path that long still ends in E2BIG), and each command of a pipeline is a
# process started at once (20,000 `| cat` started processes until the file descriptors ran
# out, 55 s). Read-only look-ups need neither.
TOOL_BASH_MAX_COMMAND_CHARS = 32_000
TOOL_BASH_MAX_COMMANDS = 64  # commands joined by |, && and || in one call
# The refused tool calls one run keeps to show (ToolRunner.refused, each quoted by spec.quoted);
# past it they are only counted (refused_dropped). 10,000 refused calls of 1 MB each were all
# kept whole (polish38).
REFUSED_CALLS_KEPT = 200

# The store's transaction (memdir_nb/transaction.py): its crash journal, lock wait and read bound.
STORE_JOURNAL_NAME = ".memdir.journal"  # written before a step changes files, replayed after
STORE_LOCK_TIMEOUT_S = 60.0  # how long a writer waits for the store lock before giving up
# The most a write step reads of one file (an index or a topic file) and scans for secrets.
STORE_READ_MAX_BYTES = max(INDEX_READ_MAX_BYTES, MEMORY_FILE_READ_MAX_BYTES)
# The most a write step writes of one visible file (a memory, an index, a log): what a later
# step can read back to edit and scan for secrets. Archive import keeps its own entry cap.
STORE_WRITE_MAX_BYTES = STORE_READ_MAX_BYTES
STORE_JOURNAL_MAX_BYTES = 16 * 1024 * 1024  # a longer journal is refused rather than read
# The JSON values one journal line may make (a record the store writes makes about 20): a line
# of 16 MB of `{},{},...` in a planted journal held 480 MB while lint and a save parsed it (§43).
STORE_JOURNAL_RECORD_MAX_VALUES = 256


FENCE = "---"


# Real files written by current Claude Code nest the type (with node_type, originSessionId,
# modified...) under this key instead of writing a top-level `type:`.
METADATA_KEY = "metadata"
# Where Claude Code's header stamper writes this flag under `metadata:` (beside node_type,
# originSessionId and modified; seen from September 2026, while other installs of the same weeks
# still stamp `metadata: type:` and no flag), the memory has no type at all: 20 real memories of
# a dozen projects, 2026-09-01 to 2026-10-09, none typed (docs/decisions.md, "Twenty-ninth
# session (realdata29)").
PINNED_KEY = "pinned"
# Claude Code 2.1.214+ writes the memory's own time (ISO 8601) here, at top level or under
# `metadata:`; it survives a clone or a restore, which the file's mtime does not.
MODIFIED_KEY = "modified"
# A file's mtime and its `modified:` time "disagree" when they are further apart than this (a
# save writes both within a second; a restore or a clone resets the mtime to that day).
MODIFIED_MTIME_TOLERANCE_MS = 60_000

# Outside JSON (settings, transcripts, journal, manifests, model replies) nests at most this deep.
JSON_MAX_DEPTH = 64
# ... and makes at most one JSON value (formats.jsonio.value_count) per this many bytes of its
# byte cap, unless its caller passes its own max_values: what bounds the memory a parse takes.
# A cap-sized file of `[],[],...` made 28x its bytes in Python objects (§43); under this default
# it is refused past 3/8 of the cap, and what passes peaks at about 9x the cap's bytes (§44).
# Real JSON measured 7.6 to 28 bytes a value (a safetensors header 9.6, tokenizer.json 7.6).
JSON_BYTES_PER_VALUE = 4
# A Bash call's script nests subshells at most this deep to be read (formats/shell_script): each
# command keeps the subshells around it, so a deeper script would cost depth x commands.
SHELL_SUBSHELL_MAX_DEPTH = 64
# Byte caps of each kind of outside JSON, passed to memdir_nb.formats.jsonio.loads_bounded
# (settings files use SETTINGS_READ_MAX_BYTES, the journal STORE_JOURNAL_MAX_BYTES).
TRASH_MANIFEST_MAX_BYTES = 4 * 1024 * 1024  # a dream batch's .trash/<batch>/manifest.json
MODEL_REPLY_MAX_BYTES = 1024 * 1024  # a model's JSON answer (the recall selector's pick)
# One Messages API reply's body as it comes over HTTP (security.api_replies): far above what the
# largest output (128k tokens, every character escaped) and its thinking make, far below memory.
MESSAGES_REPLY_MAX_BYTES = 8 * 1024 * 1024
# One Messages API call as a whole: every attempt the SDK's retries make and the waits between
# them (security.api_replies), when the caller names no deadline of its own. The SDK's own
# default for one attempt, held now for the whole call (its 2 retries made it about 30 min).
MESSAGES_CALL_DEADLINE_S = 600.0
PACKAGE_DATA_MAX_BYTES = 4 * 1024 * 1024  # JSON shipped with the package or a model download
# The largest file that is not a memory (nor an index) a notebook's scratch copy of a memory dir
# takes (storage.scratch_copy): the most any memory route reads of such a file in the dir (the
# journal's cap; a manifest's, a daily log's and an index's are smaller), so a larger one is
# one no route reads whole anyway. A 10 GB video beside the memories was copied whole.
SCRATCH_COPY_OTHER_FILE_MAX_BYTES = max(
    STORE_JOURNAL_MAX_BYTES,
    TRASH_MANIFEST_MAX_BYTES,
    DAILY_LOG_READ_MAX_BYTES,
    INDEX_READ_MAX_BYTES,
)

# The recall selectors a config, an environment variable or `memdir-nb recall --selector` names.
SELECTOR_NAMES: tuple[str, ...] = ("semantic", "lexical", "anthropic")

# The index cap verdict given to a writing agent: near the cap from this fraction of either cap,
# and told to rewrite the index to about this fraction when over it. Claude Code (2.1.212 and
# later) reminds from 0.8 of the worse cap ("approaching the 24.4KB read limit" at 19.5 KB).
INDEX_NEAR_CAP_FRACTION = 0.8
INDEX_REWRITE_TARGET_FRACTION = 0.7

# Memory archives (memdir-nb export --archive / import): an import refuses entries past these.
ARCHIVE_MANIFEST_NAME = ".memdir-nb-archive.json"  # names, sizes, hashes and exact mtimes
ARCHIVE_MANIFEST_MAX_BYTES = 16 * 1024 * 1024  # a longer manifest is passed over (mtimes not kept)
ARCHIVE_MAX_ENTRIES = 20_000
# The JSON values the manifest may make (export writes 8 a file): past it, it is passed over as
# past its byte cap. 16 MB of `{},{},...` packed into a 38 KB archive took import to 467 MB (§43).
ARCHIVE_MANIFEST_MAX_VALUES = 10 * ARCHIVE_MAX_ENTRIES
ARCHIVE_MAX_ENTRY_BYTES = 4 * 1024 * 1024  # one file unpacked
ARCHIVE_MAX_TOTAL_BYTES = 256 * 1024 * 1024  # everything unpacked
ARCHIVE_MAX_RATIO = 100  # unpacked / packed ratio older imports refused; export stores past it
ARCHIVE_RATIO_MIN_BYTES = 64 * 1024  # ... judged only for entries at least this big
ARCHIVE_MAX_BYTES = 512 * 1024 * 1024  # the archive file itself
