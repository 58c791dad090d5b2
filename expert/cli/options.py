"""Argument types that reject impossible values with a clear message (argparse exits with 2)."""

from __future__ import annotations

import argparse
import math


def _number(text: str, kind=float):
    try:
        value = kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a {'whole ' if kind is int else ''}number") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"'{text}' is not a finite number")
    return value


def bounded(kind, low, high, *, low_inclusive=False):
    """An argparse type accepting numbers in (low, high] (or [low, high])."""

    def check(text: str):
        value = _number(text, kind)
        too_low = value < low if low_inclusive else value <= low
        if too_low or value > high:
            bracket = "[" if low_inclusive else "("
            raise argparse.ArgumentTypeError(f"{value} is out of range {bracket}{low}, {high}]")
        return value

    return check


PARAMS_B = bounded(float, 0, 2000)
COUNT = bounded(int, 0, 4096)
TOKENS = bounded(int, 0, 10_000_000)
BATCH = bounded(int, 0, 100_000)
MONTHS = bounded(int, 0, 240)
FRACTION = bounded(float, 0, 1)

FORMATS_TEXT_JSON = ("text", "json")
FORMATS_REPORT = ("text", "markdown", "json")
PRECISIONS = ("fp32", "bf16", "fp16", "fp8", "int8", "int4", "mxfp4")  # catalog.models.WeightFormat
LANGS = ("en", "de")


def common_parent() -> argparse.ArgumentParser:
    """Options every command accepts: an organisation's own catalog and rule directories."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument("--catalog-dir", action="append", default=[], metavar="DIR",
                        help="an organisation's catalog files, merged over the built-in catalog "
                             "(entries with the same id replace built-in ones)")
    parent.add_argument("--rules-dir", action="append", default=[], metavar="DIR",
                        help="an organisation's rule packs, added to the built-in ones")
    return parent


def catalog_from(args):
    """The catalog for these arguments (built-in merged with --catalog-dir)."""
    from pathlib import Path

    from expert.catalog import load_catalog

    return load_catalog(tuple(Path(d) for d in getattr(args, "catalog_dir", [])))
