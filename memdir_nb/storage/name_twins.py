"""Whether a path about to be made in a memory dir names a file or folder already there in
another Unicode normal form (formats.names.normal_twin), so no route makes a second one.

The routes that make a name someone gave (the memory tool's create and rename, MemoryStore.save
with a filename, import) ask it before they write; a name already there is never refused, and
lint names the twins a dir holds (lint.name_twins). On macOS the file system itself refuses the
second name ("already exists"); this makes Linux answer the same (security.md §42).
"""

from __future__ import annotations

import os

from memdir_nb.formats.names import normal_twin, normal_twin_problem


def new_name_twin(root: str | os.PathLike[str], rel: str) -> str | None:
    """Why rel ('/'-separated, under the folder root) would make a twin, else None: the first
    part of rel not there yet, when a name in its folder is that part in another normal form.

    Only that folder is listed: the parts after it are inside a folder not made yet. A folder
    that cannot be listed (not there, not a folder) has no twin to find.
    """
    folder = os.fspath(root)
    parts = rel.split("/")
    for i, part in enumerate(parts):
        try:
            names = os.listdir(folder)
        except OSError:
            return None
        if part in names:
            folder = os.path.join(folder, part)
            continue
        twin = normal_twin(part, names)
        if twin is None:
            return None
        subject = "its name" if i == len(parts) - 1 else "its folder"
        return f"{subject} {normal_twin_problem(part, twin)}"
    return None
