"""Whether a path about to be made in a memory dir names a file or folder already there in
another Unicode normal form (formats.names.normal_twin), so no route makes a second one.

The routes that make a name someone gave (the memory tool's create and rename, MemoryStore.save
with a filename, import, the extractor's Write, a dream's new file) ask new_name_twin before they
write; a name already there is never refused, and lint names the twins a dir holds
(lint.name_twins). On macOS the file system itself refuses the second name ("already exists").
The memory tool also takes a path sent in the other form for the file there (twin_spelling), as
macOS opens it, so its answers are macOS's (security.md §42).
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


def twin_spelling(root: str | os.PathLike[str], rel: str) -> str | None:
    """rel ('/'-separated, under the folder root) as the dir spells it, when some part of it is
    not there as written but is there in another Unicode normal form (the parts after the first
    that is there in no form are kept as written: they are new); None when nothing is respelled.

    What a normalising file system (macOS) does when it opens a path: the model reads a listing
    of a name macOS wrote decomposed and sends it back composed, as it types every accent.
    """
    folder = os.fspath(root)
    parts = rel.split("/")
    changed = False
    for i, part in enumerate(parts):
        try:
            names = os.listdir(folder)
        except OSError:
            break
        if part not in names:
            twin = normal_twin(part, names)
            if twin is None:
                break
            parts[i], changed = twin, True
        folder = os.path.join(folder, parts[i])
    return "/".join(parts) if changed else None
