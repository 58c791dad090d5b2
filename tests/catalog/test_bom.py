"""Bills of materials (issue 13): every purchase is a complete system, priced as the sum of its lines.

Hand computations use the catalog's own dated prices (knowledge/packages.yaml, tariffs.yaml) and the
USD rate 0.7785 CHF (ECB 2026-05-08, tariffs.yaml).
"""

from __future__ import annotations

import pytest

from expert.catalog.bom import chassis_for, m3_cpu_cores, m3_ram_gb, system_power_w, total_chf
from expert.catalog.loader import load_catalog

USD = 0.7785


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def test_package_n1_is_the_sum_of_its_lines(catalog):
    # N1 = 1 × RTX PRO 6000 (8 000-9 200 USD) in the workstation:
    #   GPU 6 228.0-7 162.2; board/case/cooler 952-1 401.3; CPU 32 cores × 40.5-94.9 = 1 296-3 036.8;
    #   RAM 4 × 96 = 384 GB × 3.80-9.83 = 1 459.2-3 774.72; NVMe 203-467; PSU 352-467; no NIC (one GPU)
    #   low = 6 228 + 952 + 1 296 + 1 459.2 + 203 + 352 = 10 490.2
    #   high = 7 162.2 + 1 401.3 + 3 036.8 + 3 774.72 + 467 + 467 = 16 309.02
    net = catalog.package("N1").hardware_net
    assert net.currency == "CHF"
    assert net.amount.low == pytest.approx(10490.2)
    assert net.amount.high == pytest.approx(16309.02)
    assert "complete system" in net.basis


def test_every_package_price_is_the_sum_of_its_bill_of_materials(catalog):
    from expert.catalog.bom import package_lines

    for package in catalog.packages.values():
        lines = package_lines(package, catalog.chassis, catalog.gpus, catalog.to_chf)
        assert lines[0].item == "gpu" and lines[0].quantity == package.count
        band = total_chf(lines)
        assert package.hardware_net.amount.low == pytest.approx(band.low)
        assert package.hardware_net.amount.high == pytest.approx(band.high)
        items = {line.item for line in lines}
        assert {"gpu", "cpu", "ram", "nvme"} <= items                      # 000 M3's minimums are priced
        assert ("nic" in items) == (package.count > 1)                     # 25/100 Gbps only for multi-GPU


def test_every_line_is_dated_and_sourced(catalog):
    for chassis in catalog.chassis.values():
        for line in chassis.lines:
            p = line.price
            assert p.date and p.source and p.confidence, (chassis.id, line.description)
            if line.quote_needed:
                assert p.confidence == "low"


@pytest.mark.parametrize("gpu,count,expected", [
    ("rtx-pro-6000", 1, "workstation"), ("rtx-pro-6000", 2, "workstation"), ("rtx-pro-6000", 4, "server-4gpu"),
    ("l40s", 1, "server-4gpu"),            # passive data-centre card: server airflow, never the tower
    ("a100-80gb-pcie", 6, "server-8gpu"), ("h100-sxm", 8, "hgx-8"),
    ("h100-sxm", 4, None), ("a100-80gb-sxm", 2, None),   # SXM only as a complete 8-GPU HGX system
])
def test_chassis_class_by_gpu_and_count(catalog, gpu, count, expected):
    found = chassis_for(catalog.chassis, catalog.gpus[gpu], count)
    assert (found.id if found else None) == expected


def test_m3_minimums_scale_the_lines(catalog):
    # 000 M3: A100 80 GB → 320 GB RAM; 32 cores for one GPU, 64 for several
    assert m3_ram_gb(catalog.gpus["a100-80gb-pcie"], 1) == 320
    assert (m3_cpu_cores(1), m3_cpu_cores(2)) == (32, 64)
    chassis, lines = catalog.system("a100-80gb-pcie", 4, "used")
    ram = next(line for line in lines if line.item == "ram")
    assert ram.quantity == 1280
    assert [line.description for line in lines if line.item == "nic"] == ["100 GbE network card (4 GPUs, 000 M3)"]


def test_server_power_and_site_limits(catalog):
    # 8 × H100 SXM (700 W) + HGX rest 3 300-4 600 W (mid 3 950) = 9 550 W: the ~10 kW of an 8×H100 server
    hgx = catalog.chassis["hgx-8"]
    assert system_power_w(hgx, catalog.gpus["h100-sxm"], 8) == pytest.approx(9550)
    # 2 × RTX PRO 6000 (600 W) + workstation rest mid 300 W = 1 500 W: fits a 230 V / 10 A outlet (2.3 kW)
    ws = catalog.chassis["workstation"]
    power = system_power_w(ws, catalog.gpus["rtx-pro-6000"], 2)
    assert power == pytest.approx(1500) and power < 2300
    assert "liquid" in hgx.site


def test_docs_prices_list_every_line_with_source_and_date(catalog):
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "prices.md").read_text(encoding="utf-8")
    for chassis in catalog.chassis.values():
        assert f"`{chassis.id}`" in docs
        for line in chassis.lines:
            row = next((r for r in docs.splitlines() if r.startswith(f"| {line.item} | {line.description}")), None)
            assert row is not None, (chassis.id, line.description)
            assert line.price.date in row and line.price.source.split(" ")[0] in row
    for package in catalog.packages.values():
        assert f"| {package.id} | {package.name} | `{package.chassis}` |" in docs


def test_parts_mid_chf_equals_the_bill_of_materials_to_the_last_bit():
    """The search's float path prices every purchase count as the merged bill of materials does:
    the same number exactly (==, not approx), for every purchase tariff and counts 1-64."""
    from expert.catalog import load_catalog
    from expert.catalog.bom import parts_mid_chf, purchase_parts, total_chf

    catalog = load_catalog()
    checked = 0
    for entry in catalog.tariffs.purchase:
        gpu = catalog.gpus[entry.gpu]
        for count in range(1, 65):
            bought = catalog.purchase(entry.gpu, count, entry.condition)
            if bought is None:
                continue
            parts = purchase_parts(catalog.chassis, gpu, count)
            assert parts_mid_chf(parts, gpu, entry.price, catalog.to_chf) == total_chf(bought.lines).mid
            if count <= 8:   # one system: also its own, unmerged lines (`Catalog.system`)
                assert parts_mid_chf(parts, gpu, entry.price, catalog.to_chf) == \
                    total_chf(catalog.system(entry.gpu, count, entry.condition)[1]).mid
            checked += 1
    assert checked > 100   # every purchase tariff has dozens of counts (1-8, then several systems)
