"""How many entries a zip's central directory lists, counted without building it.

`zipfile.ZipFile` parses the whole central directory when it opens an archive, one `ZipInfo`
per entry, so an archive of millions of empty entries (half a gigabyte of directory) takes
gigabytes of memory before any cap on the entry count can be checked. This reads the end
records (zip64 too) and walks the directory's fixed-size headers, stopping one past the cap.
"""

from __future__ import annotations

import struct
from typing import BinaryIO

__all__ = ["count_central_entries"]

_EOCD = b"PK\x05\x06"  # end of central directory record (22 bytes, then a comment)
_EOCD_SIZE = 22
_MAX_COMMENT = 65535
_ZIP64_LOCATOR = b"PK\x06\x07"  # 20 bytes, right before the end record
_ZIP64_EOCD = b"PK\x06\x06"  # 56 bytes, where the locator says
_CENTRAL_HEADER = b"PK\x01\x02"  # 46 bytes, then the name, the extra field and the comment
_CENTRAL_HEADER_SIZE = 46


def _central_directory(fp: BinaryIO, size: int) -> tuple[int, int] | None:
    """(start, size) of the central directory as the end records give it, or None."""
    tail_len = min(size, _EOCD_SIZE + _MAX_COMMENT)
    fp.seek(size - tail_len)
    tail = fp.read(tail_len)
    at = tail.rfind(_EOCD)
    if at < 0 or at + _EOCD_SIZE > len(tail):
        return None
    cd_size, _offset = struct.unpack("<II", tail[at + 12 : at + 20])
    end = size - tail_len + at  # the directory ends where the end records start
    locator = tail[at - 20 : at] if at >= 20 else b""
    if locator.startswith(_ZIP64_LOCATOR):  # a zip64 end record sits between the two
        (z64_pos,) = struct.unpack("<Q", locator[8:16])
        if z64_pos + 56 > size:
            return None
        fp.seek(z64_pos)
        record = fp.read(56)
        if not record.startswith(_ZIP64_EOCD):
            return None
        (cd_size,) = struct.unpack("<Q", record[40:48])
        end = z64_pos
    start = end - cd_size
    return (start, cd_size) if start >= 0 else None


def count_central_entries(fp: BinaryIO, size: int, cap: int) -> int | None:
    """How many entries the central directory of the zip in fp (size bytes) lists, counting no
    further than cap + 1; None when the end records or the headers cannot be read (zipfile then
    says what is wrong)."""
    found = _central_directory(fp, size)
    if found is None:
        return None
    start, cd_size = found
    fp.seek(start)
    pos, end, count = start, start + cd_size, 0
    while pos + _CENTRAL_HEADER_SIZE <= end and count <= cap:
        head = fp.read(_CENTRAL_HEADER_SIZE)
        if len(head) < _CENTRAL_HEADER_SIZE or not head.startswith(_CENTRAL_HEADER):
            return None
        name, extra, comment = struct.unpack("<HHH", head[28:34])
        pos += _CENTRAL_HEADER_SIZE + name + extra + comment
        fp.seek(pos)
        count += 1
    return count
