"""QA 46 #6: an own catalog file naming an unknown GPU fails `validate` as it fails at use, with the file,
the field path and the close matches (before: validate passed it; use named neither path nor field)."""

OFFER = """offers:
- id: team-l40s
  provider: TeamCloud
  kind: provider-catalog
  gpu: {gpu}
  country: CH
  provider_seat: CH
  monthly:
    amount: {{low: 500, high: 500}}
    basis: per GPU-month
    currency: CHF
    date: 2026-11
    source: 'https://example.com/contract'
    confidence: high
  sources: {{default: 'https://example.com/contract'}}
"""


def _catalog(tmp_path, gpu):
    (tmp_path / "offers.yaml").write_text(OFFER.format(gpu=gpu), encoding="utf-8")
    return tmp_path / "offers.yaml"


def test_validate_and_use_refuse_an_offer_of_an_unknown_gpu_alike(cli, tmp_path):
    path = _catalog(tmp_path, "l40z")
    line = f"gpu-expert: error: {path}: field offers[0].gpu: unknown gpu 'l40z' (allowed: did you mean l40s, l4)"
    checked = cli("validate", str(path))
    assert checked.code == 2 and checked.err.strip() == line and "valid" not in checked.out
    used = cli("cost", "--gpu", "l40s", "--offer", "team-l40s", "--catalog-dir", str(tmp_path))
    assert used.code == 2 and used.err.strip() == line and "Traceback" not in used.err


def test_a_known_gpu_passes_both(cli, tmp_path):
    path = _catalog(tmp_path, "l40s")
    assert cli("validate", str(path)).out.strip() == f"{path}: valid catalog file (offers)"
    used = cli("cost", "--gpu", "l40s", "--offer", "team-l40s", "--catalog-dir", str(tmp_path), "--format", "json")
    assert used.code == 0 and used.json()["monthly_rent_chf"] == 500   # 500 CHF per GPU-month, as stated
