"""`gpu-expert cost` at the document's Swiss provider reproduces 000 T2, T3 and reports T4's residuals."""

import pytest


def total(cli, gpu, count=1, months=36):
    result = cli("cost", "--gpu", gpu, "--count", str(count), "--months", str(months), "--format", "json")
    assert result.code == 0, result.err
    return result.json()


@pytest.mark.parametrize("l40s, a100, h100", [
    ("l40s", "a100-80gb-pcie", "h100-nvl"),      # the variants the provider rents
    ("l40s", "a100-80gb-sxm", "h100-sxm"),       # the variants whose figures 000 quotes
])
def test_000_T2_l40s_48_and_61_percent_below(cli, l40s, a100, h100):
    cost_l, cost_a, cost_h = (total(cli, g)["total_chf"] for g in (l40s, a100, h100))
    # T2: L40S TCO is 48 % below the A100 and 61 % below the H100 over 36 months (within 1 pp)
    assert 1 - cost_l / cost_a == pytest.approx(0.48, abs=0.01)
    assert 1 - cost_l / cost_h == pytest.approx(0.61, abs=0.01)


def test_000_T3_hybrid_saving_57572(cli):
    # T3: 2× L40S + 2× A100 80 GB vs 4× A100 80 GB over 36 months saves 57 572 CHF (within 2 %)
    all_a100 = total(cli, "a100-80gb-sxm", 4)["total_chf"]
    hybrid = total(cli, "l40s", 2)["total_chf"] + total(cli, "a100-80gb-sxm", 2)["total_chf"]
    assert all_a100 - hybrid == pytest.approx(57_572, rel=0.02)


@pytest.mark.parametrize("gpu, stated", [("l40s", 11), ("A100", 10), ("H100", 15)])
def test_000_T4_break_even_with_residual(cli, gpu, stated):
    data = total(cli, gpu)
    assert data["document_break_even_months"] == stated
    # derived rents 693.27 / 1 380.01 / 1 811.45 CHF: 8 000/693.27 = 11.54, 15 000/1 380.01 = 10.87,
    # 30 000/1 811.45 = 16.56 months
    assert data["break_even_residual_months"] == pytest.approx(data["break_even_months"] - stated)
    assert 0 < data["break_even_residual_months"] < 2


def test_000_T1_energy_l40s_36_months(cli):
    # 0.35 kW × 1.5 × 730 h × 36 × 0.18 CHF/kWh = 2 483.46 CHF
    assert total(cli, "l40s")["energy_chf"] == pytest.approx(2483.46, abs=0.01)


def test_buy_includes_resale_band(cli):
    data = cli("cost", "--gpu", "h100-sxm", "--count", "8", "--mode", "buy", "--format", "json").json()
    # a complete HGX system: 8 × 30 000 CHF (000 T4) + the host lines (docs/prices.md §5);
    # resale T5 35 % (30-40 %) after 36 months minus 10 % (5-15 %) selling costs = 31.5 % of the price
    assert data["chassis"] == "hgx-8"
    assert data["purchase_chf"] == pytest.approx(240000 + data["host_chf"])
    assert data["resale_chf"] == pytest.approx(0.315 * data["purchase_chf"])
    band = data["bands"]["resale_chf"]
    assert (band["low"], band["high"]) == pytest.approx((0.30 * 0.85 * data["purchase_chf"],
                                                         0.40 * 0.95 * data["purchase_chf"]))


def test_sxm_is_bought_only_as_complete_hgx_systems(cli):
    for count in (4, 12):
        result = cli("cost", "--gpu", "h100-sxm", "--count", str(count), "--mode", "buy")
        assert result.code == 2 and f"no complete systems take {count} × h100-sxm" in result.err


def test_several_systems_are_priced_as_the_sum_of_complete_systems(cli):
    one = cli("cost", "--gpu", "h100-sxm", "--count", "8", "--mode", "buy", "--format", "json").json()
    two = cli("cost", "--gpu", "h100-sxm", "--count", "16", "--mode", "buy", "--format", "json").json()
    # two full HGX systems: twice one system's price and power, every bill-of-materials line doubled
    assert (two["systems"], two["chassis"]) == (2, "hgx-8") and one["systems"] == 1
    assert two["purchase_chf"] == pytest.approx(2 * one["purchase_chf"])
    assert two["system_power_w"] == pytest.approx(2 * one["system_power_w"])
    assert [x["quantity"] for x in two["bill_of_materials"]] == [2 * x["quantity"] for x in one["bill_of_materials"]]
    # 12 PCIe cards: one 8-GPU server and one 4-GPU server
    pcie = cli("cost", "--gpu", "l40s", "--count", "12", "--mode", "buy", "--format", "json").json()
    eight = cli("cost", "--gpu", "l40s", "--count", "8", "--mode", "buy", "--format", "json").json()
    four = cli("cost", "--gpu", "l40s", "--count", "4", "--mode", "buy", "--format", "json").json()
    assert pcie["systems"] == 2 and pcie["purchase_chf"] == pytest.approx(eight["purchase_chf"] + four["purchase_chf"])


def test_cost_text(cli):
    result = cli("cost", "--gpu", "l40s")
    assert "hikube-l40s" in result.out and "000 T4 states" in result.out


def test_cost_text_in_german_holds_the_json_figures(cli):
    """`--lang de` writes the same figures with German labels and decimal marks; the JSON keeps its keys."""
    args = ("cost", "--gpu", "h100-sxm", "--count", "8", "--mode", "buy", "--utilization", "0.4")
    data = cli(*args, "--format", "json").json()
    de = cli(*args, "--lang", "de").out
    months = f"{data['break_even_months']:.1f}".replace(".", ",")
    assert f"Break-even        {months} Monatsmieten" in de
    assert "Kaufpreis" in de and "Restwert" in de and "40 % Auslastung" in de
    assert "months" not in de and "purchase" not in de
    assert cli(*args, "--lang", "de", "--format", "json").json() == data
