"""How a configuration is named in the chat's cards: where it comes from, and its memory as a sum."""

from __future__ import annotations

from typing import TYPE_CHECKING

from expert.messages import has, provider_name, t
from expert.report.numbers import dec

if TYPE_CHECKING:  # types only: the report models load with the pipeline
    from expert.report.models import Choice


def where(choice: Choice, lang: str) -> str:
    """Where a configuration comes from, in `lang`: the provider, `package 4` / `Paket 4`, or
    `purchase` / `Kauf` (never an offer id such as `purchase:b200:new`)."""
    if choice.package:
        return t("chat.package", lang, id=choice.package)
    if choice.provider:
        return provider_name(choice.provider, lang)
    if choice.source == "purchase" and choice.offer and choice.offer.count(":") == 2:  # purchase:<gpu>:<condition>
        bought = f"configurator.purchase.{choice.offer.rsplit(':', 1)[1]}"
        if has(bought):
            return t(bought, lang)
    key = f"chat.source.{choice.source}"
    return t(key, lang) if has(key) else choice.source


def memory_sum(memory, lang: str) -> str:
    """`weights 8.0 + KV 0.3 + overhead 2 × 6.2 = 20.7 GB`: a sum that adds up. The report's
    overhead is per GPU; a model split over N GPUs carries it N times (and may replicate KV
    heads), so the part beyond weights and KV is shown as N × per GPU, or as its total."""
    rest = memory.total_gb - memory.weights_gb - memory.kv_cache_gb
    over = memory.overhead_gb
    n = round(rest / over) if over > 0 else 0
    if n > 1 and abs(rest - n * over) < 0.05:
        shown = t("chat.per_gpu_times", lang, n=n, gb=dec(over, lang))
    else:
        shown = dec(rest, lang)
    return (f"{t('chat.memory', lang)}: {t('chat.weights', lang)} {dec(memory.weights_gb, lang)} + KV "
            f"{dec(memory.kv_cache_gb, lang)} + {t('chat.overhead', lang)} {shown} = "
            f"{dec(memory.total_gb, lang)} GB")
