"""The one way to keep a module-level regex uncompiled until its first use.

Its own module (it was spec/text.py's) so a module that needs only this, such as the header
parser, the containment checks or the name gate, does not import the tokenizer with it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable


def compiled_on_first_use(pattern: str, flags: int = 0) -> Callable[[], re.Pattern[str]]:
    """The one way to keep a module-level regex uncompiled until it is used: call the result.

    For a regex in a module a common path imports without running it (`memdir-nb scan`
    imports the header parser, the containment checks and the tokenizer, and runs few of their
    regexes): the compile, a tenth of a millisecond or more each, is paid on first use, once
    per process, instead of by every process that imports the module.
    """
    return functools.cache(functools.partial(re.compile, pattern, flags))
