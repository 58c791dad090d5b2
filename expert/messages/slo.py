"""Where each latency target comes from (`expert.inputs.slo`), in English and German.

`slo.source.*` name a target's source; `slo.cite.*` are the citations they fill in ({mlperf},
{reading}, {short_bound}); {u1} and {g5} are the document's German words, quoted as written.
"""

MESSAGES: dict[str, tuple[str, str]] = {
    "slo.source.ttft_target": ("workload: ttft_target_s", "Workload: ttft_target_s"),
    "slo.source.tpot_target": ("workload: tpot_target_ms", "Workload: tpot_target_ms"),
    "slo.source.latency_first_words": (
        "workload: latency_target_s (streamed: the first words)",
        "Workload: latency_target_s (gestreamt: die ersten Wörter)"),
    "slo.source.latency_complete": (
        "workload: latency_target_s (not streamed: the complete answer)",
        "Workload: latency_target_s (nicht gestreamt: die vollständige Antwort)"),
    "slo.source.default_ttft": (
        "default for a streamed answer: {u1}, read as TTFT ({mlperf})",
        "Vorgabe für eine gestreamte Antwort: {u1}, als TTFT gelesen ({mlperf})"),
    "slo.source.interactive_tpot": (
        "default for a TTFT target of 0.5 s or less: {g5}; {mlperf}",
        "Vorgabe für ein TTFT-Ziel von 0,5 s oder weniger: {g5}; {mlperf}"),
    "slo.source.reading_tpot": ("default for a streamed answer: {reading}",
                                "Vorgabe für eine gestreamte Antwort: {reading}"),
    "slo.source.agent_task_share": (
        "agent: each step's share of task_latency_target_s, ({task} s − {steps} × {tool} s of tools) / {steps} "
        "steps = {share} s",
        "Agent: Anteil jedes Schritts an task_latency_target_s, ({task} s − {steps} × {tool} s Werkzeuge) / "
        "{steps} Schritte = {share} s"),
    "slo.source.agent_final_first_words": (
        "agent: final_latency_target_s (streamed: the final answer's first words)",
        "Agent: final_latency_target_s (gestreamt: die ersten Wörter der Schlussantwort)"),
    "slo.source.agent_final_complete": (
        "agent: final_latency_target_s (not streamed: the final answer complete)",
        "Agent: final_latency_target_s (nicht gestreamt: die vollständige Schlussantwort)"),
    "slo.source.agent_step": (
        "agent: step_latency_target_s (an internal step complete: no one reads it as it streams)",
        "Agent: step_latency_target_s (ein interner Schritt vollständig: niemand liest ihn beim Streamen)"),
    "slo.source.none": (
        "none: not streamed and no latency target given (analytical or batch work, sized for throughput)",
        "keines: nicht gestreamt und kein Latenzziel angegeben (Analyse- oder Stapelarbeit, auf Durchsatz "
        "dimensioniert)"),
    "slo.source.short_given": (
        "workload: latency_target_s; a short answer ({tokens} ≤ {limit} tokens) is used complete ({short_bound})",
        "Workload: latency_target_s; eine kurze Antwort ({tokens} ≤ {limit} Tokens) wird vollständig "
        "gelesen ({short_bound})"),
    "slo.source.short_default": (
        "default: {u1}, for the complete answer: a short answer ({tokens} ≤ {limit} tokens) is used complete "
        "({short_bound})",
        "Vorgabe: {u1}, für die vollständige Antwort: eine kurze Antwort ({tokens} ≤ {limit} Tokens) wird "
        "vollständig gelesen ({short_bound})"),
    "slo.cite.mlperf": (
        "MLPerf Inference datacenter rules (mlcommons/inference_policies@ac93e89 inference_rules.adoc): "
        "Llama-2-70B conversational TTFT 2 s / TPOT 200 ms, interactive 450 ms / 40 ms",
        "MLPerf-Inference-Regeln für Rechenzentren (mlcommons/inference_policies@ac93e89 inference_rules.adoc): "
        "Llama-2-70B im Dialog TTFT 2 s / TPOT 200 ms, interaktiv 450 ms / 40 ms"),
    "slo.cite.reading": (
        "reading speed: 300 words/min (Brysbaert 2019, doi:10.1016/j.jml.2019.104047: most adults 175-300) "
        "at 0.75 words/token = 6.7 tokens/s, i.e. 150 ms; {mlperf}",
        "Lesetempo: 300 Wörter/min (Brysbaert 2019, doi:10.1016/j.jml.2019.104047: die meisten Erwachsenen "
        "175-300) bei 0,75 Wörtern/Token = 6,7 Tokens/s, also 150 ms; {mlperf}"),
    "slo.cite.short": (
        "own bound: a label, a routing decision, a tool call or one sentence; 32 tokens are about 24 words, "
        "under 5 s of reading at 300 words/min (Brysbaert 2019)",
        "eigene Grenze: ein Label, ein Routing-Entscheid, ein Tool-Aufruf oder ein Satz; 32 Tokens sind etwa "
        "24 Wörter, unter 5 s Lesezeit bei 300 Wörtern/min (Brysbaert 2019)"),
}
