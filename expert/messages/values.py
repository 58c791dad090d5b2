"""Words for the values rule texts fill in (`value.FIELD.VALUE`): «sensibel», not «sensitive».

The one translation table for vocabulary values (issue 14): per fact field, because one value can
need different words in different fields. English texts show the values as they are, except where
the file's spelling is not an English word (`non_sensitive` → "non-sensitive"). Ids (GPU, model,
package), precisions and numbers are never translated; a value not listed reads as it is.
"""

from __future__ import annotations

_ENGINES = {"vllm": "vLLM", "tensorrt-llm": "TensorRT-LLM", "sglang": "SGLang", "llama.cpp": "llama.cpp",
            "transformers": "Transformers"}

_DE: dict[str, dict[str, str]] = {
    # workload
    "model": {"generic": "generisch"},
    "data": {"sensitive": "sensibel", "non_sensitive": "nicht sensibel"},
    "sector": {"health": "Gesundheit", "finance": "Finanzen", "public": "öffentliche Verwaltung",
               "other": "andere"},
    "hosting": {"ch": "nur Schweiz", "eu": "EU", "any": "keine Vorgabe"},
    "fine_tuning": {"none": "keins", "weekly": "wöchentlich", "monthly": "monatlich",
                    "quarterly": "quartalsweise", "yearly": "jährlich"},
    "finetune_method": {"full": "vollständig", "lora": "LoRA", "qlora": "QLoRA"},
    "budget": {"opex": "Miete (Opex)", "capex": "Kauf (Capex)", "any": "beliebig"},
    "deployment": {"cloud": "Cloud", "on_premise": "eigenes Rechenzentrum", "any": "egal"},
    "engine": _ENGINES,
    # setup
    "ownership": {"rented": "gemietet", "owned": "gekauft"},
    "condition": {"new": "neu", "used": "gebraucht"},
    "usage_pattern": {"steady": "gleichmässig", "fluctuating": "schwankend"},
    "storage_type": {"nvme": "NVMe", "sata-ssd": "SATA-SSD", "hdd": "Festplatte (HDD)",
                     "network": "Netzwerkspeicher"},
    "interconnect": {"nvlink": "NVLink", "pcie": "PCIe", "pcie-bridge": "PCIe mit Brücke", "none": "keine"},
    "inference_engine": {**_ENGINES, "other": "andere"},
    "training_gpus": {"serving": "auf den Serving-GPUs", "separate": "auf eigenen GPUs"},
    "routing": {"round-robin": "reihum (Round-Robin)", "least-loaded": "an die am wenigsten belastete Replik",
                "random": "zufällig", "prefix-aware": "präfixbewusst", "session-affinity": "mit Sitzungsbindung"},
    # agent loops
    "kind": {"conversational": "Konversation", "analytical": "Analyse", "coding": "Programmier-Agent"},
    "kv_during_tools": {"gpu": "GPU", "cpu": "CPU", "drop": "verwerfen"},
    "reasoning_in_context": {"kept": "behalten", "stripped": "entfernt"},
    # derived facts and the choice
    "class": {"conversational": "Konversation", "analytical": "Analyse", "multimodal": "multimodal"},
    "reason": {"large-model": "grosses Modell", "latency": "Latenz", "finetuning": "Fine-Tuning",
               "fine-tuning": "Fine-Tuning", "low-latency": "niedrige Latenz"},
    "gpu_grade": {"datacenter": "Rechenzentrums-GPU", "workstation": "Workstation-GPU",
                  "consumer": "Consumer-GPU"},
    "source": {"purchase": "Kauf", "cloud": "Cloud", "package": "Paket"},
    # an offer's provider as the catalog names it (knowledge/offers.yaml), where the name holds words
    "provider": {"Hikube (as 000 describes the GPU)": "Hikube (wie 000 die GPU beschreibt)",
                 "various (000 market range)": "verschiedene (Marktspanne aus 000)",
                 "Akash Network (marketplace)": "Akash Network (Marktplatz)",
                 "Vast.ai (marketplace)": "Vast.ai (Marktplatz)",
                 "Verda (formerly DataCrunch)": "Verda (früher DataCrunch)"},
    # a rule's category (`gpu-expert explain`); severities are `severity.word.*` (report.py)
    "category": {"overprovisioning": "Überdimensionierung", "underprovisioning": "Unterdimensionierung",
                 "finetuning-underestimated": "unterschätztes Fine-Tuning",
                 "non-gpu-bottleneck": "Engpass ausserhalb der GPU", "data-sovereignty": "Datensouveränität",
                 "model-growth": "Modellwachstum", "unsuitable-gpu-class": "ungeeignete GPU-Klasse",
                 "interconnect": "GPU-Verbindung", "cost": "Kosten", "operations": "Betrieb",
                 "quantization": "Quantisierung", "classification": "Einordnung",
                 "recommendation": "Empfehlung"},
    # a yes/no fact (`true`/`false`) filled into a text
    "bool": {"true": "ja", "false": "nein"},
}

#: English words where the file's spelling is not one.
_EN: dict[str, dict[str, str]] = {
    "data": {"non_sensitive": "non-sensitive"},
    "engine": _ENGINES, "inference_engine": _ENGINES,   # the engines' own spelling: "vLLM", not "vllm"
    "deployment": {"on_premise": "on-premise"},
    "reason": {"large-model": "a large model", "finetuning": "fine-tuning"},
    "bool": {"true": "yes", "false": "no"},
}

MESSAGES: dict[str, tuple[str, str]] = {
    f"value.{field}.{value}": (_EN.get(field, {}).get(value, value), word)
    for field, words in _DE.items() for value, word in words.items()
}
"""`value.data.sensitive` → ("sensitive", "sensibel")."""
