"""`gpu-expert advise FILE` and `gpu-expert audit FILE`: the report in text, Markdown or JSON."""

from __future__ import annotations

import sys

from expert.cli.options import FORMATS_REPORT, LANGS, catalog_from, common_parent

SEVERITY_ORDER = {"info": 0, "warning": 1, "critical": 2}


def register(commands) -> None:
    """Add the `advise` and `audit` commands."""
    advise = commands.add_parser("advise", parents=[common_parent()],
                                 help="recommend GPUs for a workload file")
    advise.add_argument("file", metavar="FILE|-")
    advise.add_argument("--format", choices=FORMATS_REPORT, default="text")
    advise.add_argument("--lang", choices=LANGS, default="en")
    advise.add_argument("--setup-out", metavar="FILE", default=None,
                        help="also write the recommendation as a setup file for `audit` (a pool of agents: "
                             "one file per serving group, FILE then FILE-2, ...)")
    advise.set_defaults(run=run_advise)

    audit = commands.add_parser("audit", parents=[common_parent()],
                                help="audit an existing setup file for the classic mistakes")
    audit.add_argument("file", metavar="FILE|-")
    audit.add_argument("--format", choices=FORMATS_REPORT, default="text")
    audit.add_argument("--lang", choices=LANGS, default="en")
    audit.add_argument("--fail-on", choices=tuple(SEVERITY_ORDER), default=None,
                       help="exit 1 when a finding of this severity or higher is present")
    audit.set_defaults(run=run_audit)


def _emit(report, fmt: str) -> None:
    from expert.report.render import render

    sys.stdout.write(render(report, fmt))


def run_advise(args) -> int:
    """Advise on a workload file."""
    from expert.api import Expert
    from expert.inputs.load import load_workload

    catalog = catalog_from(args)
    workload = load_workload(args.file, catalog)
    expert = Expert(catalog=catalog, rules_dirs=args.rules_dir)
    report = expert.advise(workload, lang=args.lang)
    _emit(report, args.format)
    if args.setup_out:
        write_setups(expert.recommended_setups(report, workload), args.setup_out)
    return 0


def write_setups(setups: list[dict], target: str) -> None:
    """Write each setup as YAML: the first to `target`, the next to `target` with -2, -3 before its suffix;
    says on stderr what it wrote (nothing when no configuration fits)."""
    from pathlib import Path

    import yaml

    from expert.errors import InputError

    path = Path(target)
    for n, setup in enumerate(setups, start=1):
        out = path if n == 1 else path.with_name(f"{path.stem}-{n}{path.suffix}")
        try:
            out.write_text(yaml.safe_dump(setup, sort_keys=False, allow_unicode=True), encoding="utf-8")
        except OSError as error:
            raise InputError(f"cannot write the setup: {error.strerror}", file=str(out)) from None
        sys.stderr.write(f"setup written to {out}\n")
    if not setups:
        sys.stderr.write("no setup written: no configuration fits\n")


def run_audit(args) -> int:
    """Audit a setup file; exit 1 when --fail-on is reached."""
    from expert.api import Expert
    from expert.inputs.load import load_setup

    catalog = catalog_from(args)
    setup = load_setup(args.file, catalog)
    report = Expert(catalog=catalog, rules_dirs=args.rules_dir).audit(setup, lang=args.lang)
    _emit(report, args.format)
    if args.fail_on is not None:
        threshold = SEVERITY_ORDER[args.fail_on]
        if any(SEVERITY_ORDER[f.severity] >= threshold for f in report.findings):
            return 1
    return 0
