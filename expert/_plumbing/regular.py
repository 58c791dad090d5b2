"""Reading a file only when it is a regular file, opened without blocking and read at most a limit.

`open()` on a named pipe waits for a writer, forever when there is none; `/dev/zero` or `/dev/urandom`
never end, and their size (0) says nothing. Every file the program reads that someone else could have
put there (workloads, setups, sessions, rule packs, catalog files, cache files) is read through
`read_regular`, which opens with O_NONBLOCK, looks at what was opened (`fstat`) and refuses all but a
regular file. No YAML here: the compiled cache reads its keys through it without importing PyYAML.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Callable

_KINDS = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class NotRegularFile(OSError):
    """The path names a named pipe, a device, a socket or another special file."""

    def __init__(self, path: str, kind: str) -> None:
        super().__init__(errno.EINVAL, f"is {kind}, not a regular file", path)
        self.kind = kind


class FileTooLarge(OSError):
    """The file holds more than the reader's limit of bytes."""

    def __init__(self, path: str, limit: int) -> None:
        super().__init__(errno.EFBIG, f"larger than {limit} bytes", path)
        self.limit = limit


def read_regular(path: str | Path, limit: int | None = None,
                 check: Callable[[os.stat_result], None] | None = None) -> bytes:
    """The bytes of the regular file `path`, at most `limit` (FileTooLarge beyond); `check(stat)` may
    refuse the file by raising OSError. A directory raises IsADirectoryError, a special file
    NotRegularFile, a missing file FileNotFoundError; nothing ever blocks."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        if not stat.S_ISREG(info.st_mode):
            kind = next((word for test, word in _KINDS if test(info.st_mode)), "a special file")
            raise NotRegularFile(str(path), kind)
        if check is not None:
            check(info)
        if limit is not None and info.st_size > limit:
            raise FileTooLarge(str(path), limit)
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, 1 << 20 if limit is None else limit + 1 - size):
            chunks.append(chunk)
            size += len(chunk)
            if limit is not None and size > limit:  # grew while being read
                raise FileTooLarge(str(path), limit)
        return b"".join(chunks)
    finally:
        os.close(fd)
