"""The chat's "skipped: assumed …" values are the workload schema's defaults.

`expert.interview.workload_describe.DEFAULTS` is written out (the chat must start without pydantic); this
test reads the pydantic models and fails when the two drift apart.
"""

from __future__ import annotations

from expert.interview.workload_describe import DEFAULTS
from expert.inputs.workload import FineTuning, Workload


def test_defaults_shown_in_the_chat_are_the_schema_defaults():
    fields = Workload.model_fields
    for name, shown in DEFAULTS.items():
        if name == "context_tokens":  # the schema leaves it None: prompt + output tokens
            assert fields[name].default is None
            expected = fields["prompt_tokens"].default + fields["output_tokens"].default
        elif name == "fine_tuning_method":
            expected = FineTuning.model_fields["method"].default
        else:
            expected = fields[name].default
        assert shown == expected, name


def test_the_chat_modules_start_without_pydantic():
    import subprocess
    import sys

    code = ("import sys, tui.app; bad = [m for m in ('pydantic', 'expert.inputs.workload', 'durable') "
            "if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
