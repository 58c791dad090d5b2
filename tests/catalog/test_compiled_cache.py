"""The compiled cache of the catalog and the rule packs (expert._plumbing.compiled, issue 21): what comes back
from it equals what the YAML gives; any change of a source file, built-in or `--catalog-dir`, is
read again; an unwritable or disabled cache directory changes nothing but speed; the package
directory is never written."""

from __future__ import annotations

import hashlib
import os
import pickle
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from expert._plumbing import compiled
from expert.catalog import loader
from expert.engine.rule_base import _rule_base, _parsed, rule_base
from expert._plumbing.paths import knowledge_dir
from expert.facts.vocabulary import ADVICE_KINDS

ROOT = Path(__file__).resolve().parents[2]
OFFER = """offers:
  - id: acme-l40s
    provider: Acme
    kind: organisation
    gpu: l40s
    country: CH
    monthly: {amount: AMOUNT, currency: CHF, date: 2026-12, basis: per GPU-month, source: Acme, confidence: high}
    sources: {default: Acme procurement}
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache directory of this test, and the per-process caches emptied around it."""
    directory = tmp_path / "cache"
    monkeypatch.setenv(compiled.ENV, str(directory))
    loader._load.cache_clear()
    _rule_base.cache_clear()
    _parsed.cache_clear()
    yield directory
    loader._load.cache_clear()
    _rule_base.cache_clear()
    _parsed.cache_clear()


def _fresh_process_load(extra=()):
    loader._load.cache_clear()  # what a new process sees: only the files in the cache directory
    return loader.load_catalog(tuple(extra))


def test_cached_catalog_equals_the_freshly_parsed_one(cache, monkeypatch):
    first = loader.load_catalog()
    assert [p.name.split("-")[0] for p in cache.iterdir()] == ["catalog"]
    build = loader.build_catalog
    monkeypatch.setattr(loader, "build_catalog", lambda dirs: pytest.fail("read the YAML despite the cache"))
    again = _fresh_process_load()
    assert again is not first                       # unpickled, not the same object
    fresh = build(())
    assert again == fresh
    assert again._aliases == fresh._aliases         # id and alias lookups come back too
    assert again.gpu("H100") == fresh.gpu("H100")
    # only what the catalog derives from its own files while it is built (the bought systems' prices
    # beyond one server, `Catalog.several_systems`, and the counts each purchase tariff has a system for,
    # `Catalog.purchasable`) and what every advice derives from it first
    # (`loader.with_derived`: the sizing defaults with the catalog's tariffs and their key, the billing
    # rules of GPUs rented per run) is stored with it; nothing a search memoised
    assert set(again._memo) == {"bom.several_systems", "bom.purchasable", "sizing.assumptions",
                                "training.billing"}
    loader.with_derived(fresh)
    assert again._memo == fresh._memo
    assert again._memo["sizing.assumptions"].key == fresh._memo["sizing.assumptions"].key


def test_cached_rule_base_equals_the_compiled_one(cache, monkeypatch):
    rule_base()
    monkeypatch.setattr("expert.engine.rule_base._parsed", lambda extra: pytest.fail("parsed the packs despite the cache"))
    _rule_base.cache_clear()
    again = rule_base()
    monkeypatch.undo()
    from expert.engine import prepare

    fresh = prepare(list(_parsed(())))
    assert again.name == fresh.name                 # the content hash of the compiled ruleset
    assert dict(again.definition) == dict(fresh.definition)
    assert again.packs == fresh.packs
    # the smaller bases an advice evaluates are made with the base and come back with it from the cache
    assert set(again.parts) == {"document-pick", "reachable:" + ",".join(sorted(ADVICE_KINDS))}
    assert again.parts["document-pick"] == fresh.only("document-pick")
    assert again.reachable(ADVICE_KINDS) == fresh.reachable(ADVICE_KINDS)


def test_a_changed_builtin_catalog_file_is_read_again(cache, tmp_path, monkeypatch):
    knowledge = tmp_path / "knowledge"
    shutil.copytree(knowledge_dir(), knowledge)
    monkeypatch.setattr(loader, "knowledge_dir", lambda: knowledge)
    assert _fresh_process_load().gpu("l40s").memory_gb == 48
    gpus = knowledge / "gpus.yaml"
    text = gpus.read_text(encoding="utf-8")
    block = text[text.index("id: l40s"):]
    block = block[:block.index("memory_gb:")]
    at = text.index(block) + len(block)
    line_end = text.index("\n", at)
    gpus.write_text(text[:at] + "memory_gb: 96" + text[line_end:], encoding="utf-8")
    assert _fresh_process_load().gpu("l40s").memory_gb == 96
    assert len(list(cache.glob("catalog-*.pickle"))) == 2


def test_a_changed_billing_file_is_read_again(cache, tmp_path, monkeypatch):
    # the billing rules of rented runs are kept with the catalog: its cache key covers their file
    from expert.catalog import billing

    knowledge = tmp_path / "knowledge"
    shutil.copytree(knowledge_dir(), knowledge)
    monkeypatch.setattr(loader, "knowledge_dir", lambda: knowledge)
    monkeypatch.setattr(billing, "knowledge_dir", lambda: knowledge)
    assert billing.training_billing(_fresh_process_load())["RunPod"]["granularity_s"] == 1
    path = knowledge / billing.BILLING_FILE
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["providers"]["RunPod"]["granularity_s"] = 60
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    assert billing.training_billing(_fresh_process_load())["RunPod"]["granularity_s"] == 60
    assert len(list(cache.glob("catalog-*.pickle"))) == 2


def test_a_changed_catalog_dir_is_read_again(cache, tmp_path):
    org = tmp_path / "org"
    org.mkdir()
    assert "acme-l40s" not in _fresh_process_load([org]).offers     # empty directory: built-in only
    (org / "offers.yaml").write_text(OFFER.replace("AMOUNT", "640"), encoding="utf-8")
    assert _fresh_process_load([org]).offers["acme-l40s"].monthly.amount.low == 640   # a file added
    (org / "offers.yaml").write_text(OFFER.replace("AMOUNT", "590"), encoding="utf-8")
    assert _fresh_process_load([org]).offers["acme-l40s"].monthly.amount.low == 590   # a file changed
    (org / "offers.yaml").unlink()
    assert "acme-l40s" not in _fresh_process_load([org]).offers     # a file removed


def test_a_catalog_dir_that_is_gone_is_refused_though_its_empty_self_was_cached(cache, tmp_path):
    from expert.errors import InputError

    org = tmp_path / "org"
    org.mkdir()
    assert _fresh_process_load([org]) == loader.build_catalog(())    # cached: the built-in catalog
    org.rmdir()
    with pytest.raises(InputError, match="catalog directory not found"):
        _fresh_process_load([org])


def test_a_bad_catalog_dir_is_refused_every_time_and_never_stored(cache, tmp_path):
    from expert.errors import InputError

    (tmp_path / "gpus.yaml").write_text("gpus: [{id: x}]\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(InputError):
            _fresh_process_load([tmp_path])
    assert not list(cache.glob("catalog-*.pickle"))


def _run_cli(env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "expert", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in (compiled.ENV, "XDG_CACHE_HOME")}
    return {**env, "PYTHONDONTWRITEBYTECODE": "1", **extra}


def test_catalog_dir_change_is_seen_by_the_next_process(tmp_path):
    org = tmp_path / "org"
    org.mkdir()
    env = _env(GPU_EXPERT_CACHE_DIR=str(tmp_path / "cache"))
    (org / "offers.yaml").write_text(OFFER.replace("AMOUNT", "640"), encoding="utf-8")
    first = _run_cli(env, "catalog", "offers", "--catalog-dir", str(org))
    (org / "offers.yaml").write_text(OFFER.replace("AMOUNT", "590"), encoding="utf-8")
    second = _run_cli(env, "catalog", "offers", "--catalog-dir", str(org))
    line = [next(x for x in r.stdout.splitlines() if x.startswith("acme-l40s")) for r in (first, second)]
    assert "640 CHF/month" in line[0] and "590 CHF/month" in line[1]
    assert len(list((tmp_path / "cache").glob("catalog-*.pickle"))) == 2


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() == 0, reason="root writes read-only directories")
def test_an_unwritable_cache_directory_still_works(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    got = _run_cli(_env(GPU_EXPERT_CACHE_DIR=str(locked / "gpu-expert")), "catalog", "gpus")
    assert got.returncode == 0 and "h100-sxm" in got.stdout and got.stderr == ""
    assert list(locked.iterdir()) == []


def test_a_cache_directory_refusing_writes_still_works(cache, monkeypatch):
    # what a read-only directory does for a user who is not root (root writes anyway: simulated here)
    cache.mkdir()

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(compiled.tempfile, "mkstemp", refuse)
    assert _fresh_process_load() == loader.build_catalog(())
    assert rule_base().rules                    # the rules too
    assert list(cache.iterdir()) == []


def test_a_cache_path_that_cannot_be_a_directory_still_works(tmp_path, cache):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    os.environ[compiled.ENV] = str(blocker / "gpu-expert")   # mkdir fails under a plain file (root too)
    got = _fresh_process_load()
    assert got == loader.build_catalog(()) and blocker.read_text() == "not a directory"


def test_disabled_cache_writes_nothing(tmp_path, cache, monkeypatch):
    monkeypatch.setenv(compiled.ENV, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert compiled.cache_dir() is None
    assert _fresh_process_load() == loader.build_catalog(())
    assert not (tmp_path / "xdg").exists()


def test_a_damaged_cache_file_is_a_miss(cache):
    loader.load_catalog()
    for path in cache.glob("catalog-*.pickle"):
        path.write_bytes(b"not a pickle")
    assert _fresh_process_load() == loader.build_catalog(())


def test_a_flipped_bit_anywhere_is_a_miss_never_a_different_answer(cache):
    # before the digest, one flipped bit in a stored float gave the L40S 5.7e7 GB/s on every later run
    expected = loader.build_catalog(())
    loader.load_catalog()
    [path] = cache.glob("catalog-*.pickle")
    good = path.read_bytes()
    rng = random.Random(29)
    header = len(compiled.TAG) + 32
    positions = [0, len(compiled.TAG), header - 1] + rng.sample(range(header, len(good)), 5)
    for position in positions:
        damaged = bytearray(good)
        damaged[position] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(damaged))
        assert _fresh_process_load() == expected, position
        assert path.read_bytes() == good   # the miss rebuilt the entry and wrote it again


def test_a_cache_file_of_another_type_or_format_is_a_miss(cache):
    # a valid pickle, with a valid digest, of something that is not a Catalog; and a bare pickle as
    # the format before the digest wrote it: both read from the YAML again, never an internal error
    loader.load_catalog()
    [path] = cache.glob("catalog-*.pickle")
    for data in (compiled.TAG + hashlib.sha256(pickle.dumps({"gpus": {}})).digest() + pickle.dumps({"gpus": {}}),
                 pickle.dumps(loader.build_catalog(()))):
        path.write_bytes(data)
        assert _fresh_process_load() == loader.build_catalog(())
    rules = [*cache.glob("rules-*.pickle")] or (rule_base(), [*cache.glob("rules-*.pickle")])[1]
    rules[0].write_bytes(compiled.TAG + hashlib.sha256(pickle.dumps(3)).digest() + pickle.dumps(3))
    _rule_base.cache_clear()
    assert rule_base().rules


def test_default_location_is_the_user_cache_and_the_package_stays_untouched(tmp_path):
    def listing():  # Python's own bytecode aside: other test workers may write it meanwhile
        return sorted(str(p.relative_to(ROOT)) for d in ("expert", "knowledge", "rules") for p in (ROOT / d).rglob("*")
                      if "__pycache__" not in p.parts)

    before = listing()
    got = _run_cli(_env(XDG_CACHE_HOME=str(tmp_path / "xdg")), "advise", "examples/rag-agent.yaml")
    assert got.returncode == 0, got.stderr
    written = sorted(p.name.split("-")[0] for p in (tmp_path / "xdg" / "gpu-expert").iterdir())
    assert written == ["catalog", "rules"]
    assert listing() == before


PACK = """pack: acme-pack
description: test
rules:
  - id: acme-rule
    title: {en: "TITLE", de: "T"}
    category: operations
    severity: info
    source: {document: "000", section: "S"}
    when:
      - fact: workload
        as: w
    explanation: {en: "E", de: "E"}
    advice: {en: "A", de: "A"}
"""


def _new_process():
    """What a new process sees of the rules: only the files in the cache directory."""
    _rule_base.cache_clear()
    _parsed.cache_clear()


def test_a_changed_rules_dir_is_read_again(cache, tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "acme.yaml").write_text(PACK.replace("TITLE", "first"), encoding="utf-8")
    assert rule_base([rules]).rules["acme-rule"].rule.title.en == "first"
    (rules / "acme.yaml").write_text(PACK.replace("TITLE", "second"), encoding="utf-8")
    _new_process()
    assert rule_base([rules]).rules["acme-rule"].rule.title.en == "second"
    (rules / "acme.yaml").unlink()
    _new_process()
    assert "acme-rule" not in rule_base([rules]).rules
    assert len(list(cache.glob("rules-*.pickle"))) == 3
