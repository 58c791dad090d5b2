"""The plugin checks a scenario's `expect:` block before its snapshot, as a team runs it (subprocess,
no conftest.py): a violated line fails even under --snapshot-update, an `xfail_reason` turns the
violations into xfail, and expectations that hold let the snapshot decide."""

from __future__ import annotations

from team_helpers import run_pytest

WORKLOAD = "workload: {model: llama-3.1-8b, requests_per_day: 20000, latency_target_s: 5, output_tokens: 120}\n"


def test_expectations_are_checked_before_the_snapshot(tmp_path):
    (tmp_path / "holds.scenario.yaml").write_text(
        WORKLOAD + "expect: {fires: [u1-conversational-inference-l40s], gpu_family: [l40s], count: {max: 1}}\n")
    (tmp_path / "broken.scenario.yaml").write_text(
        WORKLOAD + "expect: {fires: [m2-l40s-frequent-finetuning], gpu_family: [h100]}\n")
    (tmp_path / "known.scenario.yaml").write_text(
        WORKLOAD + "expect: {gpu_family: [h100], xfail_reason: \"a known departure\"}\n")
    run = run_pytest(tmp_path, "--snapshot-update")
    assert run.passed == {"holds"} and run.failed == {"broken"}, run.output[-3000:]
    assert "broken.scenario.yaml: the outcome violates its expect: block" in run.output
    assert "expect.fires: 'm2-l40s-frequent-finetuning' did not fire" in run.output
    assert "expect.gpu_family: recommended 1× l40s (family l40s), expected one of h100" in run.output
    assert "XFAIL" in run.output and "a known departure" in run.output
    # the broken scenario's snapshot was not written: --snapshot-update cannot approve it
    assert not (tmp_path / "__snapshots__" / "broken.scenario").exists()
    assert (tmp_path / "__snapshots__" / "holds.scenario").exists()
