"""The configurator's comparison of the documents' pick with the cost optimum
(`expert.configurator.document`): `configurator.compare.*`, filled with numbers already formatted
for the language (`expert.numbers`)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "configurator.compare.agrees": (
        "the cost optimum ({best}) agrees with the documents",
        "das Kostenoptimum ({best}) stimmt mit den Dokumenten überein"),
    "configurator.compare.none_fits": (
        "the documents pick {name}, but no {name} configuration fits this workload here; "
        "the cost optimum is {best} at {best_chf} CHF",
        "die Dokumente wählen {name}, aber keine {name}-Konfiguration passt hier; das Kostenoptimum "
        "ist {best} für {best_chf} CHF"),
    "configurator.compare.closest": (
        "{comparison}; the closest, {closest}: {miss}",
        "{comparison}; die nächste, {closest}: {miss}"),
    "configurator.compare.costlier": (
        "the documents pick {name} ({theirs}, {theirs_chf} CHF over {months} months); "
        "the cost optimum is {best} at {best_chf} CHF, {diff_chf} CHF less",
        "die Dokumente wählen {name} ({theirs}, {theirs_chf} CHF über {months} Monate); "
        "das Kostenoptimum ist {best} für {best_chf} CHF, {diff_chf} CHF weniger"),
    # why a cheaper GPU suffices: the optimum's own latencies at the peak against the targets
    "configurator.compare.meets": (
        "{count}× {gpu} meets the targets at the peak of {peak} req/s: {parts}",
        "{count}× {gpu} erfüllt die Ziele bei der Spitze von {peak} Anfragen/s: {parts}"),
    "configurator.compare.meets.ttft": ("TTFT {value} s ≤ {target} s", "TTFT {value} s ≤ {target} s"),
    "configurator.compare.meets.tpot": ("TPOT {value} ms ≤ {target} ms", "TPOT {value} ms ≤ {target} ms"),
    "configurator.compare.meets.e2e": ("end to end {value} s ≤ {target} s", "Ende zu Ende {value} s ≤ {target} s"),
    # why the documents' family needs more GPUs: one replica's capacity against the peak
    "configurator.compare.physical": (
        "one {tp}{gpu} replica ({precision}) serves about {one} req/s within the latency targets at {util} % "
        "utilisation (prefill {prefill} s per request, TPOT {tpot} ms at batch 1), the peak is {peak} req/s",
        "ein {tp}{gpu}-Replikat ({precision}) bedient etwa {one} Anfragen/s innerhalb der Latenzziele bei "
        "{util} % Auslastung (Prefill {prefill} s je Anfrage, TPOT {tpot} ms bei Batch 1), die Spitze beträgt "
        "{peak} Anfragen/s"),
}
"""Every key → (English, German)."""
