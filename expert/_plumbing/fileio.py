"""Reading user and catalog files safely: YAML (safe loader only) or JSON, size-limited.

Only regular files are read, opened without blocking (a named pipe or a device such as /dev/zero is
refused, never waited on or read without end), at most MAX_FILE_BYTES; standard input that is closed,
empty or not UTF-8 gets a message of its own. One YAML loader (`StrictLoader`) reads every input and
refuses duplicate keys. Every failure becomes one `InputError` naming the file and what went wrong.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import yaml

from expert.errors import InputError, format_loc
from expert._plumbing.regular import FileTooLarge, NotRegularFile, read_regular

MAX_FILE_BYTES = 1024 * 1024  # a hostile file must not exhaust memory; real files are a few KB
MAX_DEPTH = 64          # nesting levels; real files use fewer than 8
MAX_NODES = 200_000     # values after expanding YAML aliases (a "billion laughs" file expands to 10^9)
_BLANK = " \t\r\n\ufeff"  # what YAML itself counts as blank (str.strip() would also eat U+001C-U+001F)


class StrictLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The safe loader (libyaml when available; builds only plain data, never objects) that refuses a
    key given twice in one mapping (otherwise the later would silently win). Merge keys (`<<`) may be
    overridden, as YAML defines."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: set[tuple[str, str]] = set()
            for key_node, _ in node.value:
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = (key_node.tag, key_node.value)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key '{_short(key_node.value)}'", key_node.start_mark)
                seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def read_text(source: str | Path, *, stdin_name: str = "-") -> tuple[str, str]:
    """Return (display name, text) for a path, or for standard input when `source` is '-'."""
    if str(source) == stdin_name:
        name, data = "<stdin>", _read_stdin()
    else:
        name = str(source)
        data = _read_regular_file(Path(source), name)
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"input is larger than {MAX_FILE_BYTES // 1024} KiB", file=name)
    try:
        return name, data.decode("utf-8")
    except UnicodeDecodeError as exc:
        what = "standard input is" if name == "<stdin>" else "file is"
        raise InputError(f"{what} not UTF-8 text (byte {exc.start + 1} cannot be decoded)",
                         file=name) from None


def _read_stdin() -> bytes:
    stream = getattr(sys.stdin, "buffer", None) if sys.stdin is not None else None
    try:
        data = stream.read(MAX_FILE_BYTES + 1) if stream is not None else None
    except (OSError, ValueError):  # fd 0 closed (EBADF) or the stream closed
        data = None
    if data is None:
        raise InputError("standard input is closed: pipe a file into it or name the file", file="<stdin>")
    if not data.strip(_BLANK.encode() + b"\xef\xbb\xbf"):
        raise InputError("standard input is empty: pipe a workload or setup into it", file="<stdin>")
    return data


def _read_regular_file(path: Path, name: str) -> bytes:
    """The bytes of a regular file (`regular.read_regular`: no pipe, no device, never blocking)."""
    try:
        return read_regular(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise InputError("file not found", file=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", file=name) from None
    except NotRegularFile as exc:
        raise InputError(f"is {exc.kind}, not a regular file (only regular files are read)",
                         file=name) from None
    except FileTooLarge:
        raise InputError(f"file is larger than {MAX_FILE_BYTES // 1024} KiB", file=name) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", file=name) from None


def parse_document(text: str, name: str) -> Any:
    """Parse YAML or JSON text (JSON is YAML); reject empty documents and non-finite numbers."""
    if not text.strip(_BLANK):
        raise InputError("file is empty", file=name)
    try:
        loader = StrictLoader(text)
        try:
            node = loader.get_single_node()  # parse into nodes first: aliases are still shared here
            if node is None:
                raise InputError("file is empty", file=name)
            _check_shape(node, name)
            data = loader.construct_document(node)
        finally:
            loader.dispose()
    except RecursionError:
        raise InputError(f"nested more than {MAX_DEPTH} levels deep", file=name) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "invalid syntax"
        raise InputError(f"malformed YAML/JSON{where}: {problem}", file=name) from None
    except (ValueError, IndexError, TypeError, OverflowError, AttributeError, KeyError):  # PyYAML constructors on
        # a tag that does not fit its value (`!!float` on nothing, `!!timestamp x`) raise these
        raise InputError("malformed YAML/JSON: a value does not match its tag", file=name) from None
    _reject_non_finite(data, name, ())
    return data


def _check_shape(root: yaml.Node, name: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH and documents whose aliases expand beyond MAX_NODES
    values, before anything is built (iterative: a hostile file cannot exhaust the stack)."""
    expanded: dict[int, int] = {}  # node id -> values it expands to (aliases share nodes)
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        key = id(node)
        children = _children(node)
        if done:
            on_path.discard(key)
            expanded[key] = 1 + sum(expanded[id(child)] for child in children)
            if expanded[key] > MAX_NODES:
                raise InputError(f"more than {MAX_NODES} values after expanding YAML aliases "
                                 "(anchors and *references)", file=name)
            continue
        if key in expanded:
            continue
        if key in on_path:
            raise InputError("a YAML alias refers to itself (recursive anchor)", file=name)
        if depth > MAX_DEPTH:
            raise InputError(f"nested more than {MAX_DEPTH} levels deep", file=name)
        on_path.add(key)
        stack.append((node, depth, True))
        stack.extend((child, depth + 1, False) for child in children if id(child) not in expanded)


def _children(node: yaml.Node) -> list:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return []


def load_mapping(source: str | Path) -> tuple[str, dict]:
    """Read a file (or '-') whose top level must be a mapping."""
    name, text = read_text(source)
    data = parse_document(text, name)
    if not isinstance(data, dict):
        raise InputError(f"top level must be a mapping, got {type(data).__name__}", file=name)
    return name, data


def _reject_non_finite(value: Any, name: str, loc: tuple) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise InputError(f"{value} is not a finite number", file=name, path=format_loc(loc))
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, (str, int)):
                raise InputError(f"key {key!r} must be a string", file=name, path=format_loc(loc))
            _reject_non_finite(item, name, loc + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _reject_non_finite(item, name, loc + (index,))


def dumps_json(data: Any) -> str:
    """Byte-stable JSON: keys in model order, 2-space indent, UTF-8, trailing newline."""
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
