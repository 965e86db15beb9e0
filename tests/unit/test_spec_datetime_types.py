"""spec.datetime_types: datetime's own classes, taken from its C module."""

from __future__ import annotations

import datetime
import subprocess
import sys

from memdir_nb.spec import datetime_types


def test_the_classes_are_datetimes_own() -> None:
    assert datetime_types.date is datetime.date
    assert datetime_types.datetime is datetime.datetime
    assert datetime_types.timedelta is datetime.timedelta
    assert datetime_types.UTC is datetime.UTC


def test_importing_them_runs_no_pure_python_datetime() -> None:
    # `import datetime` on 3.11 runs datetime.py's pure-Python classes first: about 6 M
    # instructions of every scan process (docs/performance.md, forty-second session)
    code = (
        "import sys\n"
        "from memdir_nb.spec import datetime_types\n"
        "print('datetime' in sys.modules, datetime_types.date(2026, 1, 2).isoformat())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "2026-01-02"]


def test_a_python_without_the_c_module_gets_datetimes_own_classes() -> None:
    code = (
        "import sys\n"
        "sys.modules['_datetime'] = None  # import _datetime fails, as where there is none\n"
        "from memdir_nb.spec import datetime_types\n"
        "import datetime\n"
        "print(datetime_types.datetime is datetime.datetime, datetime_types.UTC is datetime.UTC)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]
