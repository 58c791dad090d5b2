"""Cache keys that are the inputs themselves: `@inputs` makes a class a frozen dataclass whose instances
key a cache, so that what a cached step reads and what its cache compares are one object.

A step whose result is cached takes one such object (plus the values of its own call: a GPU, a
precision, a TP degree) and reads nothing else of the workload; its cache compares keys with the
dataclass's own equality, field by field, so a field added to the inputs is part of the key without
anyone listing it again. The hash only has to agree with that equality: it is computed once per
object, from every field, `Assumptions` (a dict inside) by their value key, a catalog entry (a frozen
pydantic model with lists inside) by its id, any other unhashable value by its type alone; two keys
that hash alike are still told apart by the full comparison.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from pydantic import BaseModel

from expert.sizing.constants import Assumptions


def inputs(cls):
    """`@dataclass(frozen=True)` with the hash of this module (its docstring)."""
    cls = dataclass(frozen=True)(cls)
    cls.__hash__ = _hash
    return cls


def _hash(self) -> int:
    h = self.__dict__.get("_hash")
    if h is None:
        h = hash(tuple([_hashable(getattr(self, f.name)) for f in fields(self)]))
        object.__setattr__(self, "_hash", h)
    return h


def _hashable(value):
    """`value`, or what stands for it in the hash where it cannot be hashed itself."""
    if isinstance(value, Assumptions):
        return value.key
    if isinstance(value, BaseModel):
        return getattr(value, "id", type(value))
    try:
        hash(value)
    except TypeError:
        return type(value)
    return value
