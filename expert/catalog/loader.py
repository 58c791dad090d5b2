"""Loading the catalog from YAML, validated against the shipped JSON Schemas and pydantic models.

Precedence with `--catalog-dir`: the built-in catalog is read first; each extra directory may hold
any of the same files (`gpus.yaml`, `models.yaml`, `packages.yaml`, `offers.yaml`, `tariffs.yaml`).
An entry whose `id` already exists replaces the built-in entry whole; a new id is added. In
`tariffs.yaml`, each top-level key given replaces the built-in one; purchase prices replace per
(gpu, condition). Later directories win over earlier ones.
"""


from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, TypeVar

from pydantic import BaseModel, ConfigDict, create_model

from expert.catalog.billing import billing_path, training_billing
from expert.catalog.bom import (Purchase, chassis_for, merged_lines, parts_mid_chf, purchase_parts, system_lines, system_power_w,
                                total_chf, with_bom_price)
from expert.catalog.generic import generic_model
from expert.catalog.references import check_file
from expert.catalog.suggest import suggest_models
from expert.catalog.models import Chassis, Gpu, LlmModel, Offer, Package, PurchasePrice, Tariffs
from expert.errors import InputError, UnknownIdError
from expert._plumbing.paths import knowledge_dir, schema_path


class GpusFile(BaseModel):
    """`gpus.yaml`: a list of GPU variants."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    gpus: list[Gpu]


class ModelsFile(BaseModel):
    """`models.yaml`: a list of model architectures."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    models: list[LlmModel]


class PackagesFile(BaseModel):
    """`packages.yaml`: the on-premise packages of document 004."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    chassis: list[Chassis] = []
    packages: list[Package]


class OffersFile(BaseModel):
    """`offers.yaml`: cloud offers and market ranges."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    offers: list[Offer]


class TariffsFile(BaseModel):
    """`tariffs.yaml`: the cost assumptions."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    tariffs: Tariffs


# An organisation's tariffs.yaml may give any subset of the keys; each given key replaces the built-in one.
TariffsOverride = create_model(
    "TariffsOverride", __config__=ConfigDict(extra="forbid", defer_build=True),
    **{name: (field.annotation | None, None) for name, field in Tariffs.model_fields.items()})


class TariffsOverrideFile(BaseModel):
    """`tariffs.yaml` in a `--catalog-dir`: any subset of the tariff keys."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    tariffs: TariffsOverride  # type: ignore[valid-type]


FILES: dict[str, tuple[str, type[BaseModel]]] = {
    "gpus": ("gpus.yaml", GpusFile),
    "models": ("models.yaml", ModelsFile),
    "packages": ("packages.yaml", PackagesFile),
    "offers": ("offers.yaml", OffersFile),
    "tariffs": ("tariffs.yaml", TariffsFile),
}

T = TypeVar("T")


@dataclass(frozen=True)
class Catalog:
    """The merged catalog with id and alias lookups."""

    gpus: dict[str, Gpu]
    models: dict[str, LlmModel]
    packages: dict[str, Package]
    offers: dict[str, Offer]
    tariffs: Tariffs
    chassis: dict[str, Chassis] = field(default_factory=dict)
    _aliases: dict[str, dict[str, str]] = field(default_factory=dict, repr=False)
    # Values derived from this catalog (`memo`); not an init field, so a copy starts empty.
    _memo: dict[str, object] = field(default_factory=dict, init=False, repr=False, compare=False)

    def memo(self, key: str, build: Callable[[], T]) -> T:
        """A value derived from this (immutable) catalog, built on first use and kept with it.

        The cache lives and dies with the catalog object, so it can never answer for another catalog
        (a cache keyed on `id(catalog)` can, once a freed catalog's id is reused)."""
        if key not in self._memo:
            self._memo[key] = build()
        return self._memo[key]  # type: ignore[return-value]

    def gpu(self, key: str, *, file: str | None = None, path: str | None = None) -> Gpu:
        """A GPU by id or alias (case-insensitive), else UnknownIdError."""
        return self.gpus[self._resolve("gpu", key, self.gpus, file, path)]

    def model(self, key: str, *, file: str | None = None, path: str | None = None) -> LlmModel:
        """A model by id or alias (case-insensitive); else one read from a Hugging Face config.json (a path,
        a folder, a cached Hugging Face id: `hf_config`); else UnknownIdError with family suggestions."""
        if key in self.models or str(key).strip().lower() in self._aliases.get("model", {}):
            return self.models[self._resolve("model", key, self.models, file, path)]
        from expert.catalog.hf_config import config_path, load_config_model

        found = config_path(str(key))
        if found is not None:
            return load_config_model(found, path or "model")
        raise UnknownIdError("model", str(key), list(self.models), file=file, path=path,
                             close=suggest_models(str(key), self.models))

    def resolve_model(self, model: str | None, params_b: float | None, *, path: str = "model") -> LlmModel:
        """The model a workload names: a catalog model by id or alias, else the generic dense
        architecture of `params_b` (`expert.catalog.generic`); InputError when both are missing."""
        if model is not None:
            return self.model(model, path=path)
        if params_b is None:
            raise InputError("give a model id or params_b", path=path)
        return generic_model(params_b)

    def package(self, key: str) -> Package:
        """An on-premise package by id ('1'..'4', 'N1'..'N4'), case-insensitive."""
        return self.packages[self._resolve("package", key, self.packages, None, None)]

    def purchase_price(self, gpu_id: str, condition: str = "new") -> PurchasePrice | None:
        """The purchase price of one GPU, or None when the catalog has none."""
        for entry in self.tariffs.purchase:
            if entry.gpu == gpu_id and entry.condition == condition:
                return entry
        return None

    def system(self, gpu_id: str, count: int, condition: str = "new"):
        """(chassis, bill-of-materials lines) of buying `count` × the GPU as a complete system, or None
        when there is no purchase price or no chassis takes that count (`expert.catalog.bom`)."""
        entry = self.purchase_price(gpu_id, condition)
        gpu = self.gpus[gpu_id]
        chassis = chassis_for(self.chassis, gpu, count)
        if entry is None or chassis is None:
            return None
        return chassis, system_lines(chassis, gpu, count, entry.price, self.to_chf)

    def purchase(self, gpu_id: str, count: int, condition: str = "new") -> Purchase | None:
        """Buying `count` × the GPU as complete systems — one, or several beyond one server
        (`expert.catalog.bom.purchase_parts`) — or None."""
        entry = self.purchase_price(gpu_id, condition)
        gpu = self.gpus[gpu_id]
        parts = purchase_parts(self.chassis, gpu, count)
        if entry is None or parts is None:
            return None
        lines = merged_lines([system_lines(c, gpu, n, entry.price, self.to_chf) for c, n in parts])
        return Purchase(parts, lines, sum(system_power_w(c, gpu, n) for c, n in parts))

    def several_systems(self, gpu_id: str, count: int, condition: str = "new") -> tuple[float, float, str] | None:
        """(midpoint CHF price, power W, label) of buying `count` × the GPU as complete systems (the
        numbers of `purchase`, in plain floats: `bom.parts_mid_chf`), or None; kept with the catalog,
        and built for every purchase tariff up to `PREBUILT_COUNTS` when the catalog is read, so the
        compiled cache holds them and a search prices scale-out counts by a look-up."""
        table = self.memo("bom.several_systems", dict)
        key = (gpu_id, count, condition)
        if key not in table:
            entry = self.purchase_price(gpu_id, condition)
            gpu = self.gpus[gpu_id]
            parts = purchase_parts(self.chassis, gpu, count)
            if entry is None or parts is None:
                table[key] = None
            else:
                power = sum(system_power_w(c, gpu, n) for c, n in parts)
                table[key] = (parts_mid_chf(parts, gpu, entry.price, self.to_chf), power,
                              Purchase(parts, [], power).label)
        return table[key]

    def purchasable(self, gpu_id: str, condition: str = "new") -> dict[int, tuple[float, float, str]]:
        """The counts of `PREBUILT_COUNTS` at which the GPU can be bought as complete systems, each with
        its `several_systems` value (a count absent: `several_systems` gives None). A catalog fact, not
        the result of an advice: kept with the catalog and built for every purchase tariff when the
        catalog is read (in the compiled cache with it), so the configurator's sources
        (`candidates.all_sources`) take a purchase tariff's counts from one table instead of a
        `several_systems` call per count."""
        table = self.memo("bom.purchasable", dict)
        key = (gpu_id, condition)
        hit = table.get(key)
        if hit is None:
            hit = table[key] = {count: found for count in PREBUILT_COUNTS
                                if (found := self.several_systems(gpu_id, count, condition)) is not None}
        return hit

    def system_price_chf(self, gpu_id: str, count: int, condition: str = "new") -> float | None:
        """Midpoint CHF price of the complete system (GPUs + chassis lines), or None."""
        found = self.system(gpu_id, count, condition)
        return None if found is None else total_chf(found[1]).mid

    def offers_for(self, gpu_id: str) -> list[Offer]:
        """Every offer for one GPU, in catalog order."""
        return [offer for offer in self.offers.values() if offer.gpu == gpu_id]

    def to_chf(self, amount: float, currency: str) -> float:
        """Convert an amount into CHF at the catalog's dated rate."""
        if currency == "CHF":
            return amount
        return amount * self.tariffs.fx[currency].chf_per_unit

    def _resolve(self, kind, key, table, file, path) -> str:
        if key in table:
            return key
        found = self._aliases.get(kind, {}).get(str(key).strip().lower())
        if found is None:
            raise UnknownIdError(kind, str(key), list(table), file=file, path=path)
        return found


def _read(directory: Path, kind: str, *, required: bool):
    from expert._plumbing.fileio import load_mapping
    from expert.inputs.validation import validate_model, validate_schema

    filename, file_model = FILES[kind]
    path = directory / filename
    if not path.exists():
        if required:
            raise InputError("catalog file is missing", file=str(path))
        return None
    name, data = load_mapping(path)
    if kind == "tariffs" and not required:  # an override: any subset of keys
        return validate_model(TariffsOverrideFile, data, name)
    validate_schema(f"catalog-{kind}", data, name)
    loaded = validate_model(file_model, data, name)
    unique_ids(loaded, name)
    return loaded


def unique_ids(loaded: BaseModel, file: str) -> None:
    """Refuse an id given twice in one file (the later entry would silently replace the earlier)."""
    for key in type(loaded).model_fields:
        entries = getattr(loaded, key)
        seen: set[str] = set()
        for index, entry in enumerate(entries if isinstance(entries, list) else []):
            if entry.id in seen:
                raise InputError(f"duplicate id '{entry.id}'", file=file, path=f"{key}[{index}].id",
                                 allowed="each id once per file")
            seen.add(entry.id)


def _merge_entries(base: dict, extra: list) -> dict:
    merged = dict(base)
    for entry in extra:
        merged[entry.id] = entry
    return merged


def _merge_tariffs(base: Tariffs, override, raw_keys: set[str], file: str) -> Tariffs:
    data = base.model_dump()
    new = override.model_dump()
    for key in raw_keys - {"purchase"}:
        data[key] = new[key]
    if "purchase" in raw_keys:
        index = {(p["gpu"], p["condition"]): p for p in data["purchase"]}
        for p in new["purchase"]:
            index[(p["gpu"], p["condition"])] = p
        data["purchase"] = list(index.values())
    from expert.inputs.validation import validate_model

    return validate_model(Tariffs, data, file)  # the checks across keys (hours_per_month > 0)


def _build_aliases(catalog_tables: dict[str, dict]) -> dict[str, dict[str, str]]:
    aliases: dict[str, dict[str, str]] = {}
    for kind, table in catalog_tables.items():
        names: dict[str, str] = {}
        for entry_id, entry in table.items():
            names[entry_id.lower()] = entry_id
            for alias in getattr(entry, "aliases", []):
                names.setdefault(alias.lower(), entry_id)
        aliases[kind] = names
    return aliases


def load_catalog(extra_dirs: tuple[Path, ...] = ()) -> Catalog:
    """The built-in catalog merged with organisation directories: built once per process and
    directory tuple, and kept between processes in the compiled cache (`expert._plumbing.compiled`), keyed
    on the content of every file it is read from."""
    return _load(tuple(Path(d).resolve() for d in extra_dirs))


def source_files(extra_dirs: tuple[Path, ...]) -> list[Path]:
    """Every file the catalog of these directories is built from (present or not), schemas included,
    and each directory itself (one that is gone must be refused, not served from the cache)."""
    names = [filename for filename, _ in FILES.values()]
    return ([knowledge_dir() / name for name in names] + [billing_path()]
            + [schema_path(f"catalog-{kind}") for kind in FILES]
            + [path for directory in extra_dirs for path in (directory, *(directory / name for name in names))])


@lru_cache(maxsize=8)
def _load(extra_dirs: tuple[Path, ...]) -> Catalog:
    from expert._plumbing.compiled import cached

    return cached("catalog", source_files(extra_dirs), lambda: with_derived(build_catalog(extra_dirs)), Catalog)


def with_derived(catalog: Catalog) -> Catalog:
    """The catalog with what every advice derives from it first (`memo`): the sizing defaults of its
    tariffs and their cache key, and the billing rules of GPUs rented per run (`billing.py`). Built
    here, they are pickled with the catalog in the compiled cache, so a process reads them instead of
    building them (≈ 0.6 and 0.5 ms). The configurator's sources stay out: unpickling them would
    import the configurator into every command."""
    from expert.sizing.constants import Assumptions

    _ = Assumptions.of_catalog(catalog).key
    training_billing(catalog)
    return catalog


def build_catalog(extra_dirs: tuple[Path, ...]) -> Catalog:
    """The catalog read, validated and merged from the YAML files (no cache)."""
    base = knowledge_dir()
    read: list[tuple[str, BaseModel, str]] = []   # (kind, file model, path): each file's references checked
    for kind in ("gpus", "models", "packages", "offers", "tariffs"):
        read.append((kind, _read(base, kind, required=True), str(base / FILES[kind][0])))
    tables = {kind: {e.id: e for e in getattr(loaded, kind)} for kind, loaded, _ in read if kind != "tariffs"}
    tariffs = read[-1][1].tariffs
    for directory in extra_dirs:
        if not directory.is_dir():
            raise InputError("catalog directory not found", file=str(directory))
        for kind in ("gpus", "models", "packages", "offers"):
            loaded = _read(directory, kind, required=False)
            if loaded is not None:
                tables[kind] = _merge_entries(tables[kind], getattr(loaded, kind))
                read.append((kind, loaded, str(directory / FILES[kind][0])))
        loaded = _read(directory, "tariffs", required=False)
        if loaded is not None:
            read.append(("tariffs", loaded, str(directory / "tariffs.yaml")))
            keys = {k for k in loaded.tariffs.model_fields_set if getattr(loaded.tariffs, k) is not None}
            tariffs = _merge_tariffs(tariffs, loaded.tariffs, keys, str(directory / "tariffs.yaml"))
    chassis = {c.id: c for c in _read(base, "packages", required=True).chassis}
    for directory in extra_dirs:
        loaded = _read(directory, "packages", required=False)
        if loaded is not None:
            chassis = _merge_entries(chassis, loaded.chassis)
    for kind, loaded, file in read:   # each file names the GPUs and chassis the merged catalog has (QA 46 #6)
        check_file(kind, loaded, file, tables["gpus"], chassis)
    fx = Catalog({}, {}, {}, {}, tariffs).to_chf
    packages = {k: with_bom_price(p, chassis, tables["gpus"], fx) for k, p in tables["packages"].items()}
    catalog = Catalog(tables["gpus"], tables["models"], packages, tables["offers"], tariffs, chassis)
    object.__setattr__(catalog, "_aliases", _build_aliases(
        {"gpu": catalog.gpus, "model": catalog.models, "package": catalog.packages}))
    for entry in tariffs.purchase:
        catalog.purchasable(entry.gpu, entry.condition)   # prices every count of PREBUILT_COUNTS
    return catalog


PREBUILT_COUNTS = range(1, 65)
"""Counts priced when the catalog is built: one server's 1-8 and the configurator's scale-out counts
(`configurator.candidates.SCALE_OUT_COUNTS`, 9-16 and whole servers up to 64)."""
