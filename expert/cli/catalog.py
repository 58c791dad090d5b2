"""`gpu-expert catalog gpus|models|packages|offers`: list the built-in (and merged) catalog;
`gpu-expert catalog import-model CONFIG`: print the models.yaml entry a Hugging Face config.json makes."""

from __future__ import annotations

from expert.cli.options import FORMATS_TEXT_JSON, catalog_from, common_parent
from expert.report.numbers import grouped


def register(commands) -> None:
    """Add the `catalog` command."""
    parser = commands.add_parser("catalog", parents=[common_parent()],
                                 help="list GPUs, models, on-premise packages or cloud offers")
    parser.add_argument("table", choices=("gpus", "models", "packages", "offers", "import-model"))
    parser.add_argument("config", nargs="?", metavar="CONFIG",
                        help="import-model: a config.json, its folder, or a Hugging Face id in the local cache")
    parser.add_argument("--format", choices=FORMATS_TEXT_JSON, default="text")
    parser.set_defaults(run=run)


def run(args) -> int:
    """Print one catalog table, or the entry `import-model` makes."""
    from expert._plumbing.fileio import dumps_json

    if args.table == "import-model":
        return _import_model(args)
    catalog = catalog_from(args)
    entries = list(getattr(catalog, args.table).values())
    if args.format == "json":
        dump = [entry.model_dump(mode="json") for entry in entries]
        if args.table == "packages":       # each package with its bill of materials and model stack
            from expert.cli.catalog_packages import details
            dump = [{**d, **details(catalog, entry)} for d, entry in zip(dump, entries)]
        print(dumps_json(dump), end="")
        return 0
    print(_TEXT[args.table](catalog, entries))
    return 0


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(x)) for x in column) for column in zip(header, *rows)]
    lines = ["  ".join(str(cell).ljust(width) for cell, width in zip(line, widths)).rstrip()
             for line in [header, ["-" * w for w in widths], *rows]]
    return "\n".join(lines)


def _gpus(catalog, entries) -> str:
    rows = [[g.id, g.name, f"{g.memory_gb:g} GB {g.memory_type}", f"{g.bandwidth_gbs:g}",
             f"{g.fp16_tflops:g}", f"{g.tdp_w:g}", g.interconnect.kind, g.grade] for g in entries]
    return _table(["id", "name", "memory", "GB/s", "FP16 TF", "TDP W", "link", "grade"], rows)


def _models(catalog, entries) -> str:
    rows = [[m.id, m.name, f"{m.params_b:g}", str(m.layers), f"{m.heads}/{m.kv_heads}",
             str(m.max_context), f"{m.experts}x" if m.is_moe else "dense"] for m in entries]
    return _table(["id", "name", "params B", "layers", "heads/kv", "max ctx", "type"], rows)


def _packages(catalog, entries) -> str:
    from expert.cli.catalog_packages import text

    rows = []
    for p in entries:
        price = "not priced"
        if p.hardware_net:
            a = p.hardware_net.amount
            price = f"{grouped(a.low)}-{grouped(a.high)} {p.hardware_net.currency}"
        rows.append([p.id, p.name, f"{p.count}x {p.gpu}", f"{p.total_vram_gb:g} GB", p.interconnect,
                     p.chassis or "-", price])
    table = _table(["id", "name", "GPUs", "VRAM", "link", "chassis", "hardware net (complete system)"], rows)
    return "\n\n".join([table, *(text(catalog, p) for p in entries)])


def _offers(catalog, entries) -> str:
    rows = []
    for o in entries:
        a = o.monthly.amount
        low, high = catalog.to_chf(a.low, o.monthly.currency), catalog.to_chf(a.high, o.monthly.currency)
        chf = grouped(low) if low == high else f"{grouped(low)}-{grouped(high)}"
        rows.append([o.id, o.provider, o.gpu, o.country or "-", chf + " CHF/month",
                     o.kind, o.monthly.date])
    return _table(["id", "provider", "gpu", "country", "per GPU", "kind", "date"], rows)


_TEXT = {"gpus": _gpus, "models": _models, "packages": _packages, "offers": _offers}


def _import_model(args) -> int:
    """Print the models.yaml entry of a config.json (text: YAML under `models:`; json: the entry)."""
    from expert._plumbing.fileio import dumps_json
    from expert.catalog.hf_config import config_path, load_config_model
    from expert.errors import InputError

    if not args.config:
        raise InputError("give the config.json to import", path="CONFIG",
                         allowed="a config.json, its folder, or a cached Hugging Face id")
    found = config_path(args.config)
    if found is None:
        raise InputError("no config.json there (nor a cached Hugging Face id of that name)", file=args.config,
                         path="CONFIG")
    entry = load_config_model(found, "CONFIG").model_dump(mode="json", exclude_defaults=True)
    if args.format == "json":
        print(dumps_json(entry), end="")
        return 0
    import yaml

    print(yaml.safe_dump({"models": [entry]}, sort_keys=False, allow_unicode=True, width=100), end="")
    return 0
