"""How an audited setup serves its workload: the tensor parallelism assumed where the setup states none
(the smallest degree that holds the peak's sequences, then the one that serves the most within the latency
targets, as an operator tunes it), and the token-level serving check at that degree (`serving_facts`: the
configurator's operating point for this GPU, count and TP, `configurator.operating`)."""

from __future__ import annotations

from typing import Any

from expert.catalog.models import Gpu
from expert.inputs.setup_file import Setup


def choose_tp(setup: Setup, model, gpu, precision, context, kvp, engine, peak: int) -> int:
    """The setup's tensor parallelism when it states one, else the smallest degree whose replicas
    together hold the peak's sequences, else the smallest that holds one sequence."""
    from expert.sizing.memory import choose_tensor_parallel, max_sequences
    from expert.sizing.parallel import TP_DEGREES, engine_tp_degrees

    if "tensor_parallel" in setup.model_fields_set:
        return setup.tensor_parallel if setup.count % setup.tensor_parallel == 0 else 1
    for tp in (d for d in TP_DEGREES if d <= setup.count and setup.count % d == 0 and d in engine_tp_degrees(model)):
        if max_sequences(model, gpu, tp, tp, precision, context, kvp, engine=engine) * (setup.count // tp) >= peak:
            return tp
    return choose_tensor_parallel(model, gpu, setup.count, precision, context, 1, kvp, engine=engine)


def serving_tp(setup: Setup, w, model, gpu: Gpu, fitting: int) -> tuple[int, dict[str, Any] | None]:
    """(TP, its `serving_facts`) for an unstated TP, as an operator tunes it: of the degrees from `fitting`
    (the smallest that holds the peak's sequences, `choose_tp`) up, the one that serves the most requests
    within the latency targets (the smaller on a tie); (`fitting`, None) when the setup states its TP or
    the workload states no load (the caller's own serving check then applies)."""
    from expert.sizing.parallel import TP_DEGREES, engine_tp_degrees

    if w.average_rps <= 0 or "tensor_parallel" in setup.model_fields_set:
        return fitting, None
    checked = {tp: serving_facts(setup, w, model, gpu, tp)
               for tp in TP_DEGREES if fitting <= tp <= setup.count and setup.count % tp == 0
               and tp in engine_tp_degrees(model)}
    best, most = fitting, 0.0
    for tp, facts in checked.items():  # ascending: a larger degree must serve more to win
        served = facts.get("serving_capacity_rps") or 0.0
        if served > most * 1.000001:
            best, most = tp, served
    return best, checked.get(best)


def serving_facts(setup: Setup, w, model, gpu: Gpu, tp: int, agent=None) -> dict[str, Any]:
    """The token-level serving check of the setup at its workload's peak (`configurator.operating`):
    the same operating point and latency targets as the configurator's, for this GPU, count and TP, on the
    engine as deployed (`setup_assumptions`).
    For an agent loop `w` is its per-step equivalent and `agent` its demand (`agent_demand`), as the
    configurator sizes them."""
    if w.average_rps <= 0:
        return {}
    return _operating(setup, w, model, gpu, tp, agent, setup_assumptions(setup))


def current_release_facts(setup: Setup, w, model, gpu: Gpu, tp: int, served: dict[str, Any],
                          agent=None) -> dict[str, Any]:
    """What a current release of the setup's engine serves at the same TP (`serving_capacity_current_rps`),
    where the deployed version waits for its host on every decode step (`engine_versions.synchronous`) and
    `served` (its `serving_facts`) has a capacity; {} otherwise."""
    from expert.sizing.engine_versions import synchronous

    if not synchronous(setup.serving_engine, setup.engine_version) or "serving_capacity_rps" not in served:
        return {}
    return {"serving_capacity_current_rps": _operating(setup, w, model, gpu, tp, agent, None).get(
        "serving_capacity_rps")}


def _operating(setup: Setup, w, model, gpu: Gpu, tp: int, agent, assumptions) -> dict[str, Any]:
    """`configurator.operating.operating_facts` of the setup at TP `tp` under `assumptions` (None: the core's)."""
    from expert.configurator.operating import operating_facts

    precision = getattr(setup, "precision", None) or w.precision
    return operating_facts(w, model, gpu, setup.count, tp, precision, setup.interconnect, assumptions,
                           setup.serving_engine, agent)


def setup_assumptions(setup: Setup, a=None):
    """The sizing constants of the setup's engine as deployed (`engine_version`: vLLM < 0.12 waits for its host
    on every decode step, `engine_versions.version_assumptions`); `a` (default: the core's) otherwise."""
    from expert.sizing.constants import resolve
    from expert.sizing.engine_versions import version_assumptions

    return version_assumptions(setup.serving_engine, setup.engine_version, resolve(a))
