"""`Band.of` (issue 21: the fine-tuning planner builds hundreds of bands per advice) makes what
`Band(low=..., high=...)` makes, or raises what it raises: equal, the same dump, repr, hash, fields set
and field types, for floats, ints, signed zeros, infinities, NaN, negative and reversed pairs."""

from __future__ import annotations

import math
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from expert.catalog.models import Band

numbers = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 10**6),
                    st.sampled_from([0.0, -0.0, 1.5, math.inf, True]))


def _outcome(make):
    try:
        return make()
    except ValidationError as exc:
        return [str(exc), exc.errors(include_url=False, include_context=False)]


@settings(max_examples=500, deadline=None)
@given(low=numbers, high=numbers)
def test_band_of_equals_the_validated_band(low, high):
    fast, slow = _outcome(lambda: Band.of(low, high)), _outcome(lambda: Band(low=low, high=high))
    if isinstance(slow, list):
        assert fast == slow
        return
    assert repr(fast) == repr(slow) and fast.model_dump() == slow.model_dump()
    assert fast.model_dump_json() == slow.model_dump_json() and hash(fast) == hash(slow)
    assert fast.model_fields_set == slow.model_fields_set and list(vars(fast)) == list(vars(slow))
    assert [type(v) for v in vars(fast).values()] == [type(v) for v in vars(slow).values()]
    assert fast.__pydantic_extra__ == slow.__pydantic_extra__ and fast.__pydantic_private__ == slow.__pydantic_private__
    if not math.isnan(slow.low) and not math.isnan(slow.high):
        assert fast == slow and pickle.loads(pickle.dumps(fast)) == slow


@pytest.mark.parametrize("factor", [0.0, 0.5, 3, 2.0])
def test_scaled_equals_the_validated_band(factor):
    band = Band(low=1.25, high=7.5)
    validated = Band(low=band.low * factor, high=band.high * factor)
    assert band.scaled(factor) == validated and band.scaled(factor).model_dump_json() == validated.model_dump_json()
    with pytest.raises(ValidationError):
        band.scaled(-1.0)
