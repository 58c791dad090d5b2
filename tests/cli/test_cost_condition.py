"""QA 46 #5: `cost --mode buy --condition new|used`, and advise's bill-of-materials command reproduces the
advice's figures for a used pick (before: the command priced it new, 10 098 CHF dearer)."""

import shlex

import yaml

WORKLOAD = {"model": "llama-3.1-70b", "requests_per_day": 5000, "deployment": "on_premise", "budget": "capex",
            "site_country": "CH",
            "fine_tuning": {"frequency": "monthly", "method": "lora", "dataset_tokens": 100_000_000}}


def test_the_advice_bom_command_reproduces_a_used_pick(cli, tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text(yaml.safe_dump(WORKLOAD), encoding="utf-8")
    advice = cli("advise", str(path), "--format", "json")
    assert advice.code == 0, advice.err
    pick = advice.json()["recommendation"]
    assert (pick["gpu"], pick["count"], pick["offer"]) == ("a100-80gb-pcie", 2, "purchase:a100-80gb-pcie:used")
    text = cli("advise", str(path)).out
    command = "gpu-expert cost --gpu a100-80gb-pcie --count 2 --mode buy --months 36 --condition used"
    assert f"bill of materials: {command}" in text
    cost = cli(*shlex.split(command)[1:], "--format", "json")
    assert cost.code == 0, cost.err
    r = cost.json()
    # the advice's figures: 36 210 CHF up front, resale 11 406 CHF, 39 460 CHF over 36 months
    assert r["condition"] == "used"
    assert round(r["purchase_chf"]) == round(pick["upfront_chf"]) == 36_210
    assert round(r["resale_chf"]) == round(pick["resale_chf"]) == 11_406
    assert round(r["total_chf"]) == round(pick["tco_chf"]) == 39_460


def test_condition_new_is_the_default_and_used_prices_less(cli):
    args = ("cost", "--gpu", "a100-80gb-pcie", "--count", "2", "--mode", "buy", "--format", "json")
    default, new, used = cli(*args).json(), cli(*args, "--condition", "new").json(), cli(*args, "--condition", "used").json()
    assert default == new and new["condition"] == "new"
    # 48 304 CHF new against 36 210 CHF used (the GPUs, the rest of the system the same)
    assert (round(new["purchase_chf"]), round(used["purchase_chf"])) == (48_304, 36_210)
    assert "2× a100-80gb-pcie, buy, used, 36 months" in cli(*args[:-2], "--condition", "used").out


def test_condition_is_bad_input_without_a_price_or_a_purchase(cli):
    rent = cli("cost", "--gpu", "l40s", "--condition", "used")
    assert rent.code == 2 and rent.err.strip() == (
        "gpu-expert: error: field --condition: --condition used prices a purchase (allowed: with --mode buy)")
    missing = cli("cost", "--gpu", "l40s", "--mode", "buy", "--condition", "used")
    assert missing.code == 2 and missing.err.strip() == (
        "gpu-expert: error: field --condition: no used purchase price for l40s in the catalog (allowed: new)")
    assert "Traceback" not in rent.err + missing.err
