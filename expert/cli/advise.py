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
    from expert.inputs import load_workload

    catalog = catalog_from(args)
    workload = load_workload(args.file, catalog)
    report = Expert(catalog=catalog, rules_dirs=args.rules_dir).advise(workload, lang=args.lang)
    _emit(report, args.format)
    return 0


def run_audit(args) -> int:
    """Audit a setup file; exit 1 when --fail-on is reached."""
    from expert.api import Expert
    from expert.inputs import load_setup

    catalog = catalog_from(args)
    setup = load_setup(args.file, catalog)
    report = Expert(catalog=catalog, rules_dirs=args.rules_dir).audit(setup, lang=args.lang)
    _emit(report, args.format)
    if args.fail_on is not None:
        threshold = SEVERITY_ORDER[args.fail_on]
        if any(SEVERITY_ORDER[f.severity] >= threshold for f in report.findings):
            return 1
    return 0
