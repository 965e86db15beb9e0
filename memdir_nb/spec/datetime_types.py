"""datetime's classes as its C module gives them: `date`, `datetime`, `timedelta` and `UTC`.

On CPython 3.11 `import datetime` runs all of datetime.py, a pure-Python copy of every class,
before replacing them with `from _datetime import *`: about 6 M instructions, paid by every
`memdir-nb scan` process, whose header reader and manifest date memories (docs/performance.md,
forty-second session). The scan's modules (formats.manifest, formats.frontmatter,
formats.frontmatter_fast, spec.timestamps) take the same classes from `_datetime` here; a
Python without that C module gets datetime's own. Python 3.12 moved the pure-Python copy out
of datetime.py, so there both ways cost the same.
"""

from __future__ import annotations

TYPE_CHECKING = False  # mypy reads datetime's own names; typing stays unimported at run time
if TYPE_CHECKING:
    from datetime import UTC, date, datetime, timedelta
else:
    try:
        from _datetime import UTC, date, datetime, timedelta
    except ImportError:  # no C module (another Python): the pure-Python classes
        from datetime import UTC, date, datetime, timedelta

__all__ = ["UTC", "date", "datetime", "timedelta"]
