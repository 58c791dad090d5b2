"""Reading rule-pack files: strict YAML, typed validation, one clear `InputError` per problem.

Files are read size-limited (1 MiB, regular files only, `expert._plumbing.fileio`) and parsed with the
inputs' safe YAML loader, which refuses duplicate keys, here also anchors/aliases (no "billion laughs").
Rule files never execute code.
Every rejection names the file, the field path, the rule id (when inside a rule) and the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from expert.engine.checks import RuleProblem, check_rule
from expert.engine.rulepack import RulePack
from expert.engine.templates import ALIAS_RE, FIELD_RE
from expert.errors import InputError, format_loc
from expert._plumbing.fileio import StrictLoader, read_text

_PATTERN_NAMES = {
    r"^[a-z0-9]+(-[a-z0-9]+)*$": "lowercase letters, digits and single dashes",
    r"^[a-z][a-z0-9_]*$": "lowercase letters, digits and underscores, starting with a letter",
    rf"^{FIELD_RE}$": "letters, digits and underscores, starting with a letter; dots for "
                      "nested fields",
    rf"^{ALIAS_RE}\.{FIELD_RE}$": "alias.field, e.g. s.gpu",
}


class _StrictLoader(StrictLoader):
    """The inputs' loader (`fileio.StrictLoader`: safe, no duplicate keys) also refusing
    anchors/aliases and keys that are not plain values."""

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        if node in self.constructed_objects:  # a node built twice is an alias (*name)
            raise yaml.constructor.ConstructorError(
                None, None, "YAML aliases (*name) are not allowed in rule packs", node.start_mark)
        return super().construct_object(node, deep=deep)

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            for key_node, _ in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise yaml.constructor.ConstructorError(
                        None, None, "keys must be plain values", key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


def load_pack(path: str | Path) -> RulePack:
    """Read and validate one rule-pack file; raise InputError naming file, rule and field."""
    name, text = read_text(path)
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise InputError(f"malformed YAML{where}: {exc.problem or exc.context}", file=name) from None
    except (yaml.YAMLError, ValueError, IndexError, TypeError, OverflowError, AttributeError, KeyError,
            RecursionError):  # PyYAML constructors raise these on a tag that does not fit its value
        raise InputError("malformed YAML", file=name) from None
    return parse_pack(data, name)


def parse_pack(data: Any, file: str) -> RulePack:
    """Validate already-parsed data as a rule pack (models, then cross-field checks)."""
    if not isinstance(data, dict):
        got = "an empty file" if data is None else f"a {type(data).__name__}"
        raise InputError(f"a rule pack must be a mapping with keys pack, description, rules; "
                         f"got {got}", file=file)
    try:
        pack = RulePack.model_validate(data)
    except ValidationError as exc:
        raise _from_pydantic(exc, data, file) from None
    for index, rule in enumerate(pack.rules):
        try:
            check_rule(rule)
        except RuleProblem as problem:
            raise InputError(f"{problem.reason} in rule '{rule.id}'", file=file,
                             path=format_loc(("rules", index) + problem.loc),
                             allowed=problem.allowed) from None
    seen: set[str] = set()
    for index, rule in enumerate(pack.rules):
        if rule.id in seen:
            raise InputError(f"duplicate rule id '{rule.id}'", file=file,
                             path=format_loc(("rules", index, "id")))
        seen.add(rule.id)
    return pack


def load_packs(dirs: Iterable[str | Path],
               check: Callable[[RulePack, Path], None] | None = None) -> list[RulePack]:
    """Load every `*.yaml` of each directory (by file name), refusing duplicate pack or rule ids.

    `check(pack, path)` may add domain checks (e.g. the fact vocabulary); it raises InputError.
    """
    packs: list[RulePack] = []
    owners: dict[str, str] = {}
    pack_files: dict[str, str] = {}
    for directory in dirs:
        directory = Path(directory)
        if not directory.is_dir():
            raise InputError("rule directory not found", file=str(directory))
        for path in sorted(directory.glob("*.yaml"), key=lambda p: p.name):
            pack = load_pack(path)
            if check is not None:
                check(pack, path)
            if pack.pack in pack_files:
                raise InputError(f"duplicate pack name '{pack.pack}' (also in "
                                 f"{pack_files[pack.pack]})", file=str(path), path="pack")
            pack_files[pack.pack] = str(path)
            for index, rule in enumerate(pack.rules):
                if rule.id in owners:
                    raise InputError(f"duplicate rule id '{rule.id}' (also in {owners[rule.id]})",
                                     file=str(path), path=format_loc(("rules", index, "id")))
                owners[rule.id] = str(path)
            packs.append(pack)
    return packs


def _from_pydantic(exc: ValidationError, data: dict, file: str) -> InputError:
    error = exc.errors(include_url=False)[0]
    loc = [p for p in error["loc"] if not (isinstance(p, str) and (p.startswith("<") or "[" in p))]
    ctx = error.get("ctx") or {}
    kind, allowed = error["type"], ctx.get("allowed")
    reason = error["msg"]
    if kind == "missing":
        reason, loc = f"missing required key '{loc[-1]}'", loc[:-1]
    elif kind == "literal_error":
        reason, allowed = f"unknown value {error['input']!r}", str(ctx.get("expected"))
    elif kind == "too_short":
        reason = "must not be empty"
    elif kind == "too_long":
        reason = (f"too many entries ({ctx.get('actual_length')}): the engine's limit is "
                  f"{ctx.get('max_length')}; split the rule or the pack")
    elif kind == "string_pattern_mismatch":
        reason = f"{error['input']!r} is not allowed here"
        allowed = _PATTERN_NAMES.get(ctx.get("pattern", ""), f"pattern {ctx.get('pattern')}")
    elif kind == "string_type" and isinstance(error["input"], (int, float)):
        reason = f"expected text, got the number {error['input']!r} (quote it: \"...\")"
    if "[key]" in error["loc"]:
        reason = f"field name {error['input']!r} is not allowed"
    rule_id = _rule_id(data, loc)
    if rule_id:
        reason += f" in rule '{rule_id}'"
    return InputError(reason, file=file, path=format_loc(loc), allowed=allowed)


def _rule_id(data: dict, loc: list) -> str | None:
    if len(loc) >= 2 and loc[0] == "rules" and isinstance(loc[1], int):
        rules = data.get("rules")
        if isinstance(rules, list) and loc[1] < len(rules) and isinstance(rules[loc[1]], dict):
            rule_id = rules[loc[1]].get("id")
            return str(rule_id) if rule_id is not None else f"#{loc[1] + 1}"
        return f"#{loc[1] + 1}"
    return None
