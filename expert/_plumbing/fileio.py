"""Reading user and catalog files safely: YAML (safe loader only) or JSON, size-limited.

Every failure becomes one `InputError` naming the file and what went wrong.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import yaml

from expert.errors import InputError, format_loc

MAX_FILE_BYTES = 1024 * 1024  # a hostile file must not exhaust memory; real files are a few KB
MAX_DEPTH = 64          # nesting levels; real files use fewer than 8
MAX_NODES = 200_000     # values after expanding YAML aliases (a "billion laughs" file expands to 10^9)

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # safe: builds only plain data, never objects


def read_text(source: str | Path, *, stdin_name: str = "-") -> tuple[str, str]:
    """Return (display name, text) for a path, or for standard input when `source` is '-'."""
    if str(source) == stdin_name:
        text = sys.stdin.read(MAX_FILE_BYTES + 1)
        name = "<stdin>"
    else:
        path = Path(source)
        name = str(source)
        if not path.exists():
            raise InputError("file not found", file=name)
        if path.is_dir():
            raise InputError("is a directory, expected a file", file=name)
        if path.stat().st_size > MAX_FILE_BYTES:
            raise InputError(f"file is larger than {MAX_FILE_BYTES // 1024} KiB", file=name)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InputError("not UTF-8 text", file=name) from None
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", file=name) from None
    if len(text) > MAX_FILE_BYTES:
        raise InputError(f"input is larger than {MAX_FILE_BYTES // 1024} KiB", file=name)
    return name, text


def parse_document(text: str, name: str) -> Any:
    """Parse YAML or JSON text (JSON is YAML); reject empty documents and non-finite numbers."""
    if not text.strip():
        raise InputError("file is empty", file=name)
    try:
        loader = _Loader(text)
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
