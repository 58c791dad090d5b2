"""The configurator: the cheapest GPU configuration that fits a workload (cloud offers, 004 packages,
purchases), ranked alternatives with plain-word reasons, the cost/latency Pareto front, a sensitivity
list, the documents' own pick, and multi-agent pools (homogeneous vs hybrid).

    from expert.configurator import search
    result = search(workload, catalog)          # -> SearchResult; never raises for impossible workloads

See docs/configurator.md.
"""

from __future__ import annotations

from expert._plumbing.lazy import lazy_exports

_EXPORTS = {
    **dict.fromkeys(('document_recommendation',), 'document'),
    **dict.fromkeys(('ConfiguredAlternative', 'ConfiguredChoice', 'DocumentView', 'ParetoPoint', 'SearchResult',
                     'Sensitivity'), 'models'),
    **dict.fromkeys(('search',), 'configure'),
}

__all__ = ["search", "document_recommendation", "SearchResult", "ConfiguredChoice", "ConfiguredAlternative",
           "ParetoPoint", "Sensitivity", "DocumentView"]

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
