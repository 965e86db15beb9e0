"""Pure rules: every name and cap, the type taxonomy, dates, freshness, text and similarity.

Nothing here opens a file, reads the environment or asks the wall clock for itself; a function
whose answer depends on "now" takes ``now_ms`` and falls back to :mod:`memdir_nb.clock`.
"""
