"""The Python API: `Expert` (advise, audit) and the functions behind `estimate` and `cost`.

```python
import expert
report = expert.advise({"model": "llama-3.1-8b", "requests_per_day": 20000})
report = expert.audit(setup_dict)
result = expert.estimate(model="llama-3.1-8b", gpu="l40s", count=1, precision="fp16", batch=8)
```
Each returns a pydantic model whose `.model_dump(mode="json")` is the CLI's JSON output.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from expert.catalog import Catalog, load_catalog
from expert.errors import InputError
from expert.sizing.engine_names import ENGINES

if TYPE_CHECKING:
    from expert.report.models import Report

# Each command imports only its own part of the pipeline (`estimate` needs no rule engine, no
# configurator and no workload or setup model); `Expert.preload` prepares all of it, for the chat,
# off its UI thread.


class Expert:
    """The expert system bound to one catalog and one set of rule packs."""

    def __init__(self, catalog: Catalog | None = None, rules_dirs: Iterable[str | Path] = (),
                 catalog_dirs: Iterable[str | Path] = ()) -> None:
        self.catalog = catalog or load_catalog(tuple(Path(d) for d in catalog_dirs))
        self.rules_dirs = tuple(rules_dirs)

    def preload(self) -> None:
        """Import the advice and audit pipeline, compile the rule packs and register them with the
        engine now, so that the first answer pays for none of it (the chat does this in a thread)."""
        import expert.flows.advice  # noqa: F401
        import expert.flows.audit  # noqa: F401
        import expert.report.build  # noqa: F401
        from expert.engine import evaluate, register
        from expert.engine.rule_base import rule_base

        base = register(rule_base(self.rules_dirs))  # with the smaller bases an advice evaluates
        evaluate(base, [])   # no facts: fires nothing kept; the engine's first session

    def advise(self, workload: Any, lang: str = "en", *, sensitivity: bool = True) -> Report:
        """Recommend GPUs for a workload (dict in the file format, or a `Workload`).

        `sensitivity=False` skips the "which single change would change the choice" sub-searches
        (about half the time), e.g. to show an answer first and the sensitivity a moment later."""
        from expert.flows.advice import advise as advise_workload
        from expert.inputs.load import load_workload_data

        return advise_workload(load_workload_data(workload, None, self.catalog), self.catalog,
                               self.rules_dirs, lang, sensitivity=sensitivity)

    def audit(self, setup: Any, lang: str = "en") -> Report:
        """Audit an existing setup (dict in the file format, or a `Setup`)."""
        from expert.flows.audit import audit as audit_setup
        from expert.inputs.load import load_setup_data

        return audit_setup(load_setup_data(setup, None, self.catalog), self.catalog, self.rules_dirs, lang)

    def recommended_setups(self, report: Report, workload: Any) -> list[dict]:
        """The advice's recommended configuration as setup files to audit (advise, then audit): one for
        a single model, one per serving group of a pool of agents; [] when nothing fits."""
        from expert.configurator.operating import setups_from_advice
        from expert.inputs.load import load_workload_data

        return setups_from_advice(report, load_workload_data(workload, None, self.catalog), self.catalog)


def advise(workload: Any, lang: str = "en", **kwargs) -> Report:
    """`Expert(**kwargs).advise(workload, lang)`."""
    return Expert(**kwargs).advise(workload, lang)


def audit(setup: Any, lang: str = "en", **kwargs) -> Report:
    """`Expert(**kwargs).audit(setup, lang)`."""
    return Expert(**kwargs).audit(setup, lang)


def estimate(model: str | None = None, gpu: str = "l40s", params_b: float | None = None, *,
             catalog: Catalog | None = None, **options):
    """Memory and speed of a model on a GPU configuration (see `gpu-expert estimate`)."""
    return run_estimate(catalog or load_catalog(), model=model, params_b=params_b, gpu=gpu, **options)


def run_estimate(catalog: Catalog, *, model: str | None, params_b: float | None, gpu: str, count: int = 1,
                 precision: str | None = None, mode: str = "inference", batch: int = 1,
                 prompt_tokens: int | None = None, output_tokens: int | None = None,
                 context_tokens: int | None = None, engine: str = "vllm", tensor_parallel: int | None = None,
                 kv_precision: str | None = None, rate_rps: float | None = None, attention: str | None = None,
                 prompt_cv: float = 0.0, recv_interval: int = 1):
    """Resolve ids, check the configuration and run the sizing core's `estimate`.

    `count` GPUs form count / `tensor_parallel` replicas (TP: the smallest degree that fits unless given).
    `attention` (MLA models): "tp" or "dp" (data-parallel attention, SGLang and vLLM over more than one
    GPU); by default TP attention, which every engine runs, stated in the result (`memory.attention`).
    `prompt_cv`: how much the prompts' lengths vary (std / mean; 0: all `prompt_tokens` long).
    `recv_interval`: SGLang's `--scheduler-recv-interval` (1: every step; above 1 only with SGLang, in a closed
    loop: `load.receive_wait_s`).
    """
    llm = catalog.resolve_model(model, params_b, path="--model")
    card = catalog.gpu(gpu, path="--gpu")
    if context_tokens is not None and context_tokens > llm.max_context:
        raise InputError(f"{context_tokens} tokens exceed {llm.id}'s maximum context", path="--context-tokens",
                         allowed=f"up to {llm.max_context}")
    _check_request(llm, prompt_tokens, output_tokens, context_tokens)
    stated = precision is not None
    if precision is None:  # serving: the model's native format (weight_format); training: 16-bit
        from expert.sizing.weight_format import default_precision
        precision = default_precision(llm) if mode == "inference" else "fp16"
    if mode == "full" and precision not in ("fp32", "bf16", "fp16"):
        raise InputError(f"full fine-tuning trains in 16-bit mixed precision, not {precision}",
                         path="--precision", allowed="fp32, bf16, fp16 (or use --mode lora/qlora)")
    from expert.sizing.kernels import fp8_served
    if precision == "fp8" and stated and not fp8_served(card):
        raise InputError(f"{card.id} has no native FP8 and no FP8 Marlin kernel", path="--precision",
                         allowed="fp32, bf16, fp16, int8, int4")
    if engine not in ENGINES:
        raise InputError(f"unknown engine '{engine}'", path="--engine", allowed=", ".join(ENGINES))
    if tensor_parallel is not None and (tensor_parallel < 1 or count % tensor_parallel):
        raise InputError(f"--tp {tensor_parallel} does not divide --count {count}", path="--tp",
                         allowed=f"a divisor of {count} (count = TP × replicas)")
    from expert.sizing.parallel import tp_refusal
    if tensor_parallel is not None and (refusal := tp_refusal(llm, tensor_parallel)):
        raise InputError(refusal[0], path="--tp", allowed=refusal[1])
    if kv_precision == "fp8" and not fp8_served(card):  # stored in FP8, computed in 16 bits (kernels.fp8_served)
        raise InputError(f"{card.id} has no FP8 for the KV cache", path="--kv-cache-precision",
                         allowed="fp32, bf16, fp16")
    if attention == "dp":
        from expert.sizing.dp_attention import DP_ATTENTION_ENGINES, dp_attention_possible
        if not dp_attention_possible(llm, tensor_parallel or 2, engine):
            raise InputError(f"data-parallel attention needs an MLA model, SGLang or vLLM and --tp of 2 or more "
                             f"({llm.id}, {engine}, tp {tensor_parallel})", path="--attention",
                             allowed=f"tp; dp with an MLA model, --tp >= 2 and --engine {' or '.join(DP_ATTENTION_ENGINES)}")
        if tensor_parallel is None:
            raise InputError("data-parallel attention spreads the sessions over a replica's GPUs: give --tp",
                             path="--attention", allowed="dp with --tp >= 2")
    if recv_interval > 1 and engine != "sglang":
        raise InputError(f"a receive interval is SGLang's --scheduler-recv-interval, not {engine}'s",
                         path="--recv-interval", allowed="1, or --engine sglang")
    if recv_interval > 1 and rate_rps is not None:
        raise InputError("the receive interval's wait is modelled for a closed loop (--batch in flight), "
                         "not for arrivals at --rate", path="--recv-interval", allowed="1 with --rate")
    from expert.sizing.combined import estimate as core_estimate

    return core_estimate(llm, card, count, precision, mode, batch, prompt_tokens, output_tokens, context_tokens,
                         tensor_parallel, kv_precision=kv_precision, engine=engine, rate_rps=rate_rps,
                         attention=attention or "tp", prompt_cv=prompt_cv, recv_interval=recv_interval)


def _check_request(llm, prompt_tokens: int | None, output_tokens: int | None, context_tokens: int | None) -> None:
    """InputError when a request (prompt + output, the sizing core's defaults where not given) exceeds
    the model's maximum context or the stated --context-tokens: the workload file's rules."""
    from expert.inputs.request_fit import beyond_model_context, context_too_small
    from expert.sizing.constants import resolve

    defaults = resolve(None)
    prompt = int(defaults.default_prompt_tokens.value) if prompt_tokens is None else prompt_tokens
    output = int(defaults.default_output_tokens.value) if output_tokens is None else output_tokens
    if refusal := beyond_model_context(prompt, output, llm.id, llm.max_context):
        raise InputError(refusal[0], path="--prompt-tokens" if prompt_tokens else "--output-tokens",
                         allowed=refusal[1])
    if context_tokens is not None and (refusal := context_too_small(prompt, output, context_tokens)):
        raise InputError(refusal, path="--context-tokens", allowed="a context of at least prompt + output")


def run_cost(catalog: Catalog, *, gpu: str, count: int = 1, months: int | None = None, mode: str = "rent",
             utilization: float | None = None, offer: str | None = None,
             condition: str | None = None) -> dict[str, Any]:
    """The `cost` JSON: CONTRACT fields first, then the offer used and T4's stated break-even. `condition`
    (buy only): "new" or "used" GPUs; None: new where the catalog prices them, else used (QA 46 #5)."""
    from expert.catalog.pricing import default_purchase, pick_offer
    from expert.report.build import rounded
    from expert.sizing.tco import cost

    card = catalog.gpu(gpu, path="--gpu")
    chosen = pick_offer(catalog, card.id, offer)
    purchase = _purchase_price(catalog, card.id, mode, condition) if condition else default_purchase(catalog, card.id)
    if mode == "rent" and chosen is None:
        raise InputError(f"no rental offer for {card.id} in the catalog", path="--gpu",
                         allowed=", ".join(sorted({o.gpu for o in catalog.offers.values()})))
    if mode == "buy" and purchase is None:
        raise InputError(f"no purchase price for {card.id} in the catalog", path="--gpu",
                         allowed=", ".join(sorted({p.gpu for p in catalog.tariffs.purchase})))
    host = power = system = None
    if mode == "buy":                      # every purchase is complete systems (expert.catalog.bom)
        system = catalog.purchase(card.id, count, purchase.condition)
        if system is None:
            raise InputError(f"no complete systems take {count} × {card.id}", path="--count",
                             allowed="multiples of 8 for SXM/OAM modules (HGX), any count for PCIe cards")
        from expert.catalog.bom import host_chf
        host, power = host_chf(system.lines), system.power_w
    result = cost(card, mode, count, months, chosen, purchase, catalog.to_chf, host=host, power_w=power)
    data = {key: getattr(result, key) for key in (
        "gpu", "count", "months", "mode", "monthly_rent_chf", "purchase_chf", "energy_chf", "infrastructure_chf",
        "resale_chf", "total_chf", "break_even_months", "cost_per_month_chf")}
    data["condition"] = purchase.condition if mode == "buy" else None
    data["offer"] = chosen.id if chosen else None
    data["provider"] = chosen.provider if chosen else None
    data["country"] = chosen.country if chosen else None
    data["break_even_full_months"] = result.break_even_full_months
    if system is not None:
        data["chassis"] = system.chassis.id
        data["systems"] = len(system.parts)
        data["host_chf"] = host.mid
        data["system_power_w"] = power
        data["bill_of_materials"] = [
            {"item": x.item, "description": x.description, "quantity": x.quantity,
             "unit_price": x.unit.model_dump(mode="json"), "total_chf": x.total_chf.model_dump(),
             "quote_needed": x.quote_needed} for x in system.lines]
    stated = _t4_stated(chosen)
    data["document_break_even_months"] = stated
    data["break_even_residual_months"] = (None if stated is None or result.break_even_months is None
                                          else result.break_even_months - stated)
    if utilization is not None:
        hours = catalog.tariffs.hours_per_month.value.mid * count
        data["utilization"] = utilization
        data["cost_per_busy_hour_chf"] = result.cost_per_month_chf / (hours * utilization)
    data["bands"] = {k: v.model_dump() for k, v in result.bands.items()}
    return rounded(data, 2)


def _purchase_price(catalog: Catalog, gpu: str, mode: str, condition: str):
    """The purchase price of one `gpu` in the stated `condition`; bad input where the mode rents or the
    catalog prices no such GPU (the conditions it prices are named)."""
    if mode != "buy":
        raise InputError(f"--condition {condition} prices a purchase", path="--condition", allowed="with --mode buy")
    entry = catalog.purchase_price(gpu, condition)
    if entry is None:
        priced = sorted({p.condition for p in catalog.tariffs.purchase if p.gpu == gpu})
        raise InputError(f"no {condition} purchase price for {gpu} in the catalog", path="--condition",
                         allowed=", ".join(priced) or "none: the catalog prices no purchase of this GPU")
    return entry


def _t4_stated(offer) -> float | None:
    for check in getattr(offer, "claim_checks", []) or []:
        if check.claim.startswith("T4"):
            return check.stated
    return None
