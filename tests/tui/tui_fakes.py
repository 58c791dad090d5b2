"""A hand-built stand-in for `expert.api.Expert`, for deterministic UI snapshots.

Behaviour tests use the real pipeline; snapshots use `FakeAdvisor` so they change only when the UI
changes, not when a rule, a price or a formula does. Its choices mimic the real ones: an 8B model
for pure inference fits an L40S; 70B, monthly fine-tuning or a latency under 0.5 s need an H100 NVL.
"""

from __future__ import annotations

from expert.report.models import (Alternative, CapacitySummary, Choice, Finding, FiredRule,
                                  MemorySummary, Report, Source)

_DE = {"Inference fits one GPU": "Inferenz passt auf eine GPU"}


def _choice(gpu: str, monthly: float, horizon: int = 36, **kw) -> dict:
    return dict(gpu=gpu, count=1, source="cloud", provider="example-cloud", country="CH",
                precision="fp16", interconnect="pcie", monthly_cost_chf=monthly,
                tco_chf=monthly * horizon, horizon_months=horizon, fits=True, headroom=0.42,
                latency_p95_s=0.8, memory_per_gpu_gb=21.3, usable_per_gpu_gb=43.2) | kw


def _finding(rule_id: str, severity: str, title: str, category: str = "cost",
             section: str = "D3") -> Finding:
    return Finding(rule_id=rule_id, category=category, severity=severity, title=title,
                   explanation=f"{title}: 20 000 requests per day need 0.7 concurrent inferences.",
                   advice="Start with one GPU and measure.", source=Source(document="000",
                                                                          section=section),
                   facts={"workload.requests_per_day": 20000})


class FakeAdvisor:
    """Same methods as `tui.advisor.Advisor`; reports built by hand."""

    loaded = True
    """Like a loaded `Advisor`: the chat computes on the UI thread and holds the screen."""

    def load(self) -> None:
        pass

    def advise(self, workload: dict, lang: str, sensitivity: bool = True) -> Report:
        from expert.errors import InputError

        if workload.get("horizon_months", 36) < 1:
            raise InputError("0 is less than the minimum of 1", path="horizon_months")
        big = (workload.get("params_b") or 8) >= 30 or "70b" in str(workload.get("model", ""))
        ft = workload.get("fine_tuning", "none")
        freq = ft.get("frequency") if isinstance(ft, dict) else ft
        fast = workload.get("latency_target_s", 2.0) < 0.5
        h100 = big or fast or freq in ("monthly", "weekly")
        rec = _choice("h100-nvl", 3100.0) if h100 else _choice("l40s", 1450.0)
        alts = [Alternative(**_choice("a100-80gb-pcie", 2300.0), why_not="slower than needed"),
                Alternative(**_choice("l40s", 1, source="package", package="2", provider=None,
                                      monthly_cost_chf=180.0, tco_chf=24480.0, upfront_chf=18000.0,
                                      resale_chf=0.0),
                            why_not="buying pays off only after 16 months")]
        findings = [_finding("use-case-chat", "info", _DE.get("Inference fits one GPU", "")
                             if lang == "de" else "Inference fits one GPU", "overprovisioning")]
        if h100:
            findings.append(_finding("h100-justified", "warning", "H100 justified",
                                     "unsuitable-gpu-class", "P2"))
        fired = [FiredRule(rule_id="classify-use-case", matched={"w": {"kind": "workload",
                                                                        "requests_per_day": 20000}},
                           derived=[{"kind": "use_case", "class": "chat"}]),
                 FiredRule(rule_id="use-case-chat", matched={"u": {"kind": "use_case", "class": "chat"}},
                           derived=[])]
        if h100:
            fired.append(FiredRule(rule_id="h100-justified", matched={"u": {"kind": "use_case",
                                                                             "class": "chat"}},
                                   derived=[{"kind": "h100_justified", "value": True}]))
        return Report(kind="advice", lang=lang, clarification=str(workload),
                      memory=MemorySummary(weights_gb=16.1, kv_cache_gb=2.1, overhead_gb=3.1,
                                           total_gb=21.3, reserve_ratio=0.51),
                      capacity=CapacitySummary(average_rps=0.23, peak_rps=0.69, inference_time_s=1.0,
                                               concurrent_inferences=0.7, gpus_needed=1),
                      recommendation=Choice(**rec), alternatives=alts, findings=findings,
                      fired_rules=fired)

    def audit(self, setup: dict, lang: str) -> Report:
        util = (setup.get("utilization") or {}).get("mean", 0.5)
        findings = [_finding("hosting-ch", "critical", "Sensitive data hosted abroad",
                             "data-sovereignty", "F4"),
                    _finding("storage-slow", "info", "Storage is fast enough", "non-gpu-bottleneck")]
        if util < 0.4:
            findings.insert(1, _finding("low-utilization", "warning", "GPUs mostly idle",
                                        "overprovisioning", "F1"))
        return Report(kind="audit", lang=lang, clarification=f"{setup.get('count', 1)}× {setup['gpu']}",
                      findings=findings, fired_rules=[])
