"""Issue 35: the advice never asserts a fact nobody gave. A setup that does not state its
provider's certifications (the chat's audit interview does not ask them) gets no "Provider without
ISO 27001" warning; one that states them, empty, still does (000 M4)."""

from __future__ import annotations

import expert

SETUP = {"gpu": "h100-sxm", "count": 2, "ownership": "rented",
         "hosting": {"country": "US", "provider_seat": "US"},
         "workload": {"model": "llama-3.1-8b", "requests_per_day": 20000, "data": "sensitive",
                      "sector": "health"}}


def rules(setup: dict) -> set[str]:
    return {f.rule_id for f in expert.audit(setup, "en").findings}


def test_certifications_not_stated_are_not_warned_about():
    assert "m4-provider-without-iso27001" not in rules(SETUP)


def test_certifications_stated_without_iso27001_are_warned_about():
    stated = {**SETUP, "hosting": {**SETUP["hosting"], "certifications": []}}
    assert "m4-provider-without-iso27001" in rules(stated)
