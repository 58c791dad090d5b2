"""A compiled cache of data that is parsed and validated from files: the catalog, the rule packs.

Reading, checking and building the catalog from its YAML costs a command-line run more than the
advice itself; the result is a pure function of the files it was read from and of this code. So the
built object is pickled to a cache file named by a fingerprint of exactly that:

- every source file: its path, size and SHA-256 of its content (a file that is absent counts too,
  so adding `gpus.yaml` to a `--catalog-dir` is seen, and so does whether a directory is there),
  for the built-in files and every organisation's directory alike;
- this code: the path, size and modification time of every module of the `expert` package, the
  Python and pydantic versions and PyYAML's `__init__` (path and SHA-256: it states the version; read,
  not imported, so a command that reads no YAML file does not import PyYAML for the key) — a pickle
  is only read back by the code that wrote it.

Any change of a source file therefore misses the cache and reads the YAML again; nothing is ever
served for other files. A cache file holds a format tag, the SHA-256 of its pickle and the pickle: a
file whose digest does not match (a flipped bit, a truncated write, a file of another format) is not
unpickled, and an object of another type than the caller expects is not served — both are misses,
rebuilt from the YAML and written again, never a different answer. Where: `$GPU_EXPERT_CACHE_DIR`, else `$XDG_CACHE_HOME/gpu-expert`, else
`~/.cache/gpu-expert` (not when the home directory does not exist: it is never created);
`GPU_EXPERT_CACHE_DIR=` (set, empty) turns the cache off. Never inside the
installed package. A directory that cannot be created or written, or a damaged or foreign cache
file, is passed over silently: the data is then read from the YAML, as without a cache. Cache files
are written atomically, readable by their owner only, and read only when owned by this user.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from expert._plumbing.regular import read_regular

ENV = "GPU_EXPERT_CACHE_DIR"
KEEP = 8  # cache files of one kind kept (the newest); older fingerprints are removed on writing
TAG = b"gpu-expert-cache-1\n"  # the format of a cache file: TAG, SHA-256 of the pickle, the pickle
T = TypeVar("T")


def cache_dir() -> Path | None:
    """The cache directory, or None when the cache is turned off (`GPU_EXPERT_CACHE_DIR=`)."""
    value = os.environ.get(ENV)
    if value is not None:
        return Path(value).expanduser() if value.strip() else None
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    if not base:
        try:
            home = Path.home()
        except RuntimeError:  # no home directory: no cache
            return None
        if not home.is_dir():  # HOME=/nonexistent: no cache, and never create someone's home
            return None
        base = str(home / ".cache")
    return Path(base) / "gpu-expert"


@lru_cache(maxsize=1)
def _code_fingerprint() -> bytes:
    """The code that builds and reads the cached objects (once per process)."""
    import pydantic

    h = hashlib.sha256(f"{sys.version}|{pydantic.VERSION}|{_package_file('yaml')}".encode())
    for line in sorted(_modules(str(Path(__file__).resolve().parents[1]), "")):  # the whole expert package
        h.update(line.encode())
    return h.digest()


def _package_file(name: str) -> str:
    """The path and SHA-256 of package `name`'s `__init__` (found without importing the package)."""
    from importlib.util import find_spec

    spec = find_spec(name)
    if spec is None or not spec.origin:
        return f"{name}|absent"
    with open(spec.origin, "rb") as handle:
        return f"{spec.origin}|{hashlib.sha256(handle.read()).hexdigest()}"


def _modules(directory: str, relative: str) -> list[str]:
    """`path|size|mtime` of every module below `directory` (os.scandir: a tenth of pathlib's time)."""
    lines = []
    with os.scandir(directory) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
                lines += _modules(entry.path, f"{relative}{entry.name}/")
            elif entry.name.endswith(".py"):
                stat = entry.stat()
                lines.append(f"{relative}{entry.name}|{stat.st_size}|{stat.st_mtime_ns}\n")
    return lines


def fingerprint(kind: str, files: Iterable[Path]) -> str:
    """The cache key of `kind` built from `files` (in the order given) by this code."""
    h = hashlib.sha256(kind.encode() + b"\0" + _code_fingerprint())
    for path in files:
        try:
            data = read_regular(path)  # a named pipe or a device is not read (the loader refuses it)
        except OSError as error:  # the loader decides what an absent file or a directory means
            state = {FileNotFoundError: "absent", IsADirectoryError: "directory"}.get(type(error), "unreadable")
            h.update(f"{path}|{state}\n".encode())
            continue
        h.update(f"{path}|{len(data)}|{hashlib.sha256(data).hexdigest()}\n".encode())
    return h.hexdigest()[:40]


def read_owned(path: Path) -> bytes | None:
    """The content of a cache file, or None when it is absent or unreadable, or when someone else
    wrote it or others may write it (its content is code or a pickle: never read from such a file)."""
    def owned(info: os.stat_result) -> None:
        if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o022):
            raise PermissionError(path)

    try:
        return read_regular(path, check=owned)  # a named pipe put in the cache is not waited on
    except OSError:
        return None


def _read(path: Path, expected: type[T]) -> T | None:
    """The object stored in a cache file, or None when the file is absent, not ours, damaged (its
    digest does not match) or holds something else than an `expected`."""
    data = read_owned(path)
    if data is None or not data.startswith(TAG):
        return None
    digest, payload = data[len(TAG):len(TAG) + 32], data[len(TAG) + 32:]
    if hashlib.sha256(payload).digest() != digest:
        return None
    try:
        value = pickle.loads(payload)
    except Exception:  # noqa: BLE001 - written by other code (the key covers ours): a miss, never an error
        return None
    return value if isinstance(value, expected) else None


def write_atomic(directory: Path, name: str, data: bytes) -> bool:
    """Write `data` to `directory/name` through a temporary file (a reader sees the old file or the new
    one, never a part), readable by its owner only; False when the directory cannot be written."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=f".{name}-", dir=directory)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(temporary, directory / name)
        except BaseException:
            os.unlink(temporary)
            raise
        return True
    except Exception:  # noqa: BLE001 - read-only, full or foreign directory: run without the cache
        return False


def _write(directory: Path, kind: str, key: str, value: object) -> None:
    try:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - what cannot be pickled is not stored
        return
    if not write_atomic(directory, f"{kind}-{key}.pickle", TAG + hashlib.sha256(data).digest() + data):
        return
    try:
        old = sorted(directory.glob(f"{kind}-*.pickle"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for stale in old[KEEP:]:
            stale.unlink(missing_ok=True)
    except Exception:  # noqa: BLE001 - a file removed meanwhile by another run
        pass


def cached(kind: str, files: Iterable[Path], build: Callable[[], T], expected: type[T]) -> T:
    """`build()`, or what it returned before for the same `files` and code (see the module doc); a
    stored object that is not an `expected` is a miss. What `build` raises is raised, and nothing is
    stored."""
    directory = cache_dir()
    if directory is None:
        return build()
    key = fingerprint(kind, files)
    hit = _read(directory / f"{kind}-{key}.pickle", expected)
    if hit is not None:
        return hit
    value = build()
    _write(directory, kind, key, value)
    return value
