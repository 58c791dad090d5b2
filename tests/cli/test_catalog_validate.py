"""`gpu-expert catalog` and `gpu-expert validate`."""

CONTRACT_GPUS = ["l4", "a10", "l40s", "a100-40gb-pcie", "a100-40gb-sxm", "a100-80gb-pcie", "a100-80gb-sxm",
                 "h100-pcie", "h100-sxm", "h100-nvl", "h200", "b200", "rtx-4090", "rtx-a5000", "rtx-a6000",
                 "rtx-pro-6000", "rtx-pro-6000-server", "mi300x", "gaudi2", "gaudi3"]


def test_catalog_gpus_json_has_contract_ids(cli):
    ids = [gpu["id"] for gpu in cli("catalog", "gpus", "--format", "json").json()]
    assert set(CONTRACT_GPUS) <= set(ids)


def test_catalog_packages_text(cli):
    out = cli("catalog", "packages").out
    for package in ("1", "2", "3", "4", "N1", "N2", "N3", "N4"):
        assert f"\n{package} " in out


def test_catalog_packages_show_the_bill_of_materials(cli):
    out = cli("catalog", "packages").out
    n1 = out[out.index("Package N1:"):out.index("Package N2:")]
    for item in ("gpu", "chassis", "cpu", "ram", "nvme", "psu"):
        assert f"\n  {item} " in n1
    # N1: 10 490-16 309 CHF = the sum of its lines (hand sum in tests/catalog/test_bom.py)
    assert "hardware net = sum of the lines: 10 490-16 309 CHF" in n1
    assert "quote needed" in out and "model stack" in n1 and "llama-3.1-70b" in n1
    data = {p["id"]: p for p in cli("catalog", "packages", "--format", "json").json()}
    assert data["4"]["chassis"] == "hgx-8" and data["4"]["bill_of_materials"][1]["item"] == "baseboard"
    assert [c["name"] for c in data["N1"]["extra_costs"]] == ["build", "setup", "commissioning", "operation"]


def test_catalog_offers_in_chf(cli):
    out = cli("catalog", "offers").out
    assert "hikube-l40s" in out and "693 CHF/month" in out  # derived from T2/T3 (knowledge/offers.yaml)


def test_validate_reports_each_file(cli, tmp_path):
    good = tmp_path / "w.yaml"
    good.write_text("model: llama-3.1-8b\nrequests_per_day: 1000\n")
    setup = tmp_path / "s.yaml"
    setup.write_text("gpu: l40s\ncount: 1\n")
    result = cli("validate", str(good), str(setup))
    assert result.code == 0
    assert "valid workload" in result.out and "valid setup" in result.out


def test_validate_builtin_catalog_files(cli):
    from expert._plumbing.paths import knowledge_dir

    files = [str(knowledge_dir() / name) for name in ("gpus.yaml", "models.yaml", "packages.yaml",
                                                       "offers.yaml", "tariffs.yaml")]
    result = cli("validate", *files)
    assert result.code == 0, result.err
    assert result.out.count("valid catalog file") == 5
