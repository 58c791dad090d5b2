"""The base of every report part: a pydantic model that refuses unknown fields.

It sits below `models.py` and the part modules (`training.py`), so they import it without a cycle.
"""


from pydantic import BaseModel, ConfigDict


class ReportPart(BaseModel):
    """Base for report parts: no unknown fields."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
