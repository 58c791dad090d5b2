"""The configurator: the cheapest GPU configuration that fits a workload (cloud offers, 004 packages,
purchases), ranked alternatives with plain-word reasons, the cost/latency Pareto front, a sensitivity
list, the documents' own pick, and multi-agent pools (homogeneous vs hybrid).

    from expert.configurator import search
    result = search(workload, catalog)          # -> SearchResult; never raises for impossible workloads

See docs/configurator.md.
"""

from expert.configurator.document import document_recommendation
from expert.configurator.models import (ConfiguredAlternative, ConfiguredChoice, DocumentView, ParetoPoint,
                                        SearchResult, Sensitivity)
from expert.configurator.configure import search

__all__ = ["search", "document_recommendation", "SearchResult", "ConfiguredChoice", "ConfiguredAlternative",
           "ParetoPoint", "Sensitivity", "DocumentView"]
