"""The configurator's comparison of the documents' pick with the cost optimum
(`expert.configurator.document`): `configurator.compare.*`, filled with numbers already formatted
for the language (`expert.report.numbers`)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # issue 30: why a current MoE may differ from the documents' size guidance (configurator/moe_note.py)
    "configurator.compare.moe": (
        "the documents' sizes (U1-U4, D1) mean dense models at 16 bits; {model} is a mixture of experts: "
        "it holds {total} B parameters ({weights} GB at {precision}) but reads only {active} B per generated "
        "token, where a dense {total} B model at 16 bits would hold {dense} GB and read all of it",
        "die Grössen der Dokumente (U1-U4, D1) meinen dichte Modelle in 16 Bit; {model} ist ein "
        "Mixture-of-Experts-Modell: es hält {total} Mrd. Parameter ({weights} GB in {precision}), liest pro "
        "erzeugtem Token aber nur {active} Mrd., wo ein dichtes Modell mit {total} Mrd. Parametern in 16 Bit "
        "{dense} GB hielte und ganz läse"),
    "configurator.compare.agrees": (
        "the cost optimum ({best}) agrees with the documents",
        "das Kostenoptimum ({best}) stimmt mit den Dokumenten überein"),
    "configurator.compare.none_fits": (
        "the documents pick {name}, but no {name} configuration fits this workload here; "
        "the cost optimum is {best} at {best_chf} CHF",
        "die Dokumente wählen {name}, aber keine {name}-Konfiguration passt hier; das Kostenoptimum "
        "ist {best} für {best_chf} CHF"),
    "configurator.compare.no_precision": (
        "the documents pick {name}, but {name} GPUs do not run {precision}, the precision the workload "
        "states; the cost optimum is {best} at {best_chf} CHF",
        "die Dokumente wählen {name}, aber {name}-GPUs betreiben {precision} nicht, die Präzision, die der "
        "Workload festlegt; das Kostenoptimum ist {best} für {best_chf} CHF"),
    "configurator.compare.closest": (
        "{comparison}; the closest, {closest}: {miss}",
        "{comparison}; die nächste, {closest}: {miss}"),
    "configurator.compare.one_suffices": (
        "the documents call for several {name}; one suffices: {best} at {best_chf} CHF over {months} months",
        "die Dokumente sehen mehrere {name} vor; eine genügt: {best} für {best_chf} CHF über {months} Monate"),
    "configurator.compare.costlier": (
        "the documents pick {name} ({theirs}, {theirs_chf} CHF over {months} months); "
        "the cost optimum is {best} at {best_chf} CHF, {diff_chf} CHF less",
        "die Dokumente wählen {name} ({theirs}, {theirs_chf} CHF über {months} Monate); "
        "das Kostenoptimum ist {best} für {best_chf} CHF, {diff_chf} CHF weniger"),
    "configurator.compare.costlier_tie": (
        "the documents pick {name} ({theirs}, {theirs_chf} CHF over {months} months); "
        "the recommendation is {best} at {best_chf} CHF, {diff_chf} CHF more, within the near-tie band",
        "die Dokumente wählen {name} ({theirs}, {theirs_chf} CHF über {months} Monate); "
        "die Empfehlung ist {best} für {best_chf} CHF, {diff_chf} CHF mehr, innerhalb des Gleichstandsbands"),
    # why a cheaper GPU suffices: the optimum's own latencies at the peak against the targets
    "configurator.compare.meets": (
        "{count}× {gpu} meets the targets at the peak of {peak} {unit}: {parts}",
        "{count}× {gpu} erfüllt die Ziele bei der Spitze von {peak} {unit}: {parts}"),
    "configurator.compare.meets.ttft": ("TTFT {value} s ≤ {target} s", "TTFT {value} s ≤ {target} s"),
    "configurator.compare.meets.tpot": ("TPOT {value} ms ≤ {target} ms", "TPOT {value} ms ≤ {target} ms"),
    "configurator.compare.meets.e2e": ("end to end {value} s ≤ {target} s", "Ende zu Ende {value} s ≤ {target} s"),
    # a value above its target but inside the estimate's tolerance (inputs/slo.py SLO_TOLERANCE): said so
    "configurator.compare.within.ttft": ("TTFT {value} s, within {pct} % of {target} s",
                                         "TTFT {value} s, innerhalb {pct} % von {target} s"),
    "configurator.compare.within.tpot": ("TPOT {value} ms, within {pct} % of {target} ms",
                                         "TPOT {value} ms, innerhalb {pct} % von {target} ms"),
    "configurator.compare.within.e2e": ("end to end {value} s, within {pct} % of {target} s",
                                        "Ende zu Ende {value} s, innerhalb {pct} % von {target} s"),
    # why the documents' family needs more GPUs: one replica's capacity against the peak
    "configurator.compare.physical": (
        "one {tp}{gpu} replica ({precision}) serves about {one} req/s within the latency targets at {util} % "
        "utilisation (prefill {prefill} s per request, TPOT {tpot} ms at batch 1), the peak is {peak} req/s",
        "ein {tp}{gpu}-Replikat ({precision}) bedient etwa {one} Anfragen/s innerhalb der Latenzziele bei "
        "{util} % Auslastung (Prefill {prefill} s je Anfrage, TPOT {tpot} ms bei Batch 1), die Spitze beträgt "
        "{peak} Anfragen/s"),
}
"""Every key → (English, German)."""

# why a candidate fails or loses (`expert.configurator.explain`); numbers come formatted
WHY_NOT: dict[str, tuple[str, str]] = {
    "configurator.violation.memory.growth": (
        "the grown model needs {growth} GB, has {usable} usable",
        "das gewachsene Modell braucht {growth} GB, verfügbar sind {usable}"),
    "configurator.violation.memory.reserve": (
        "weights take {weights} GB, more than the {limit} GB left after the {reserve} % growth reserve (000 M5)",
        "die Gewichte belegen {weights} GB, mehr als die {limit} GB nach {reserve} % Wachstumsreserve (000 M5)"),
    "configurator.violation.memory": (
        "needs {need} GB, has {usable}",
        "braucht {need} GB, verfügbar sind {usable}"),
    "configurator.violation.memory.replica": (
        "one TP {tp} replica needs {need} GB, has {usable}",
        "ein TP-{tp}-Replikat braucht {need} GB, verfügbar sind {usable}"),
    "configurator.violation.memory.gpu": (
        "one GPU (TP 1) needs {need} GB, has {usable}",
        "eine GPU (TP 1) braucht {need} GB, verfügbar sind {usable}"),
    "configurator.violation.tpot": (
        "TPOT {value} ms over the {target} ms target (misses it by {miss} ms)",
        "TPOT {value} ms über dem Ziel von {target} ms (verfehlt es um {miss} ms)"),
    "configurator.violation.latency": (
        "{what} {value} s over the {target} s target (misses it by {miss} s)",
        "{what} {value} s über dem Ziel von {target} s (verfehlt es um {miss} s)"),
    "configurator.violation.capacity": (
        "the peak load needs {needed} GPUs, has {count}",
        "die Spitzenlast braucht {needed} GPUs, vorhanden sind {count}"),
    "configurator.violation.capacity_unknown": (
        "the peak load needs more than its {count} GPUs, and no replica count the search tries serves it "
        "within the targets",
        "die Spitzenlast braucht mehr als die {count} GPUs, und keine Zahl von Replikaten, die die Suche "
        "prüft, bedient sie innerhalb der Ziele"),
    "configurator.violation.availability": (
        "high availability needs {needed} replicas (the peak's plus one) over at least two servers or "
        "instances, has {replicas}",
        "Hochverfügbarkeit braucht {needed} Replikate (die der Spitzenlast plus eines) auf mindestens zwei "
        "Servern oder Instanzen, vorhanden sind {replicas}"),
    "configurator.violation.ft_plan": (
        "no GPUs for the fine-tuning run: on these GPUs {reason}, and no rented or dedicated GPUs are admissible",
        "keine GPUs für den Fine-Tuning-Lauf: auf diesen GPUs {reason}, und keine gemieteten oder eigenen "
        "Trainings-GPUs sind zulässig"),
    "configurator.violation.ft_plan.no_fit": ("it does not fit", "passt er nicht"),
    "configurator.violation.budget": (
        "costs {cost} CHF, over the {limit} CHF budget limit",
        "kostet {cost} CHF, über der Budgetgrenze von {limit} CHF"),
    "configurator.why_not.costlier": (
        "costs {diff} CHF more over {months} months{extra}",
        "kostet {diff} CHF mehr über {months} Monate{extra}"),
    "configurator.why_not.of_which": (" (of which {parts})", " (davon {parts})"),
    "configurator.why_not.training": ("fine-tuning GPUs {amount} CHF", "Fine-Tuning-GPUs {amount} CHF"),
    "configurator.why_not.team": (
        "team time waiting on fine-tuning {amount} CHF", "Teamzeit für das Warten auf Fine-Tuning {amount} CHF"),
    "configurator.why_not.quantised": (
        "same cost, but quantised to {precision} instead of {best}",
        "gleiche Kosten, aber auf {precision} statt {best} quantisiert"),
    "configurator.why_not.slower": (
        "same cost, slower: complete answer {latency} s instead of {best} s (p95)",
        "gleiche Kosten, langsamer: vollständige Antwort {latency} s statt {best} s (P95)"),
    "configurator.why_not.near_tie": (
        "the cheapest by {saving} CHF over {months} months, within the near-tie band: the pick needs fewer "
        "GPUs or answers faster",
        "die günstigste um {saving} CHF über {months} Monate, innerhalb des Gleichstandsbands: die Empfehlung "
        "braucht weniger GPUs oder antwortet schneller"),
    "configurator.near_tie.pick": (
        "a near tie: {extra} CHF ({share} %) more over {months} months than the cheapest, {cheapest} — within "
        "the {band} % band where {gains} win",
        "ein knapper Gleichstand: {extra} CHF ({share} %) mehr über {months} Monate als die günstigste, "
        "{cheapest} — innerhalb des {band}-%-Bands, in dem {gains} gewinnen"),
    "configurator.near_tie.fewer": ("fewer GPUs ({count} instead of {cheapest})",
                                    "weniger GPUs ({count} statt {cheapest})"),
    "configurator.near_tie.faster": ("the faster answer ({latency} s instead of {cheapest} s complete)",
                                     "die schnellere Antwort ({latency} s statt {cheapest} s vollständig)"),
    "configurator.why_not.tie": (
        "same cost; loses on the tie-break (fewer GPUs, then catalog order)",
        "gleiche Kosten; verliert bei der Gleichstandsregel (weniger GPUs, dann Katalogreihenfolge)"),
    "configurator.nothing_fits": ("nothing fits: {reason}", "nichts passt: {reason}"),
    "configurator.nothing_fits.none_admissible": ("no candidate is admissible", "kein Kandidat ist zulässig"),
    "configurator.nothing_fits.closest": (
        "nothing fits: the closest candidate, {closest}, {failed}",
        "nichts passt: der nächste Kandidat, {closest}, {failed}"),
    "configurator.nothing_fits.count_limit": (
        "nothing fits within the search's limit of {limit} GPUs (an own limit of the search, not a document's): "
        "the peak needs about {needed} × {gpu} ({replicas} replicas of TP {tp}; at the limit: {closest})",
        "nichts passt innerhalb der Grenze der Suche von {limit} GPUs (eine eigene Grenze der Suche, nicht eine "
        "der Dokumente): die Spitze braucht etwa {needed} × {gpu} ({replicas} Replikate mit TP {tp}; an der "
        "Grenze: {closest})"),
    "configurator.nothing_fits.multi_node": (
        "; one 8-GPU node of {gpu} cannot hold the model, and serving across nodes (tensor or pipeline "
        "parallelism over more than one node) is not modelled",
        "; ein 8-GPU-Knoten mit {gpu} fasst das Modell nicht, und der Betrieb über mehrere Knoten (Tensor- oder "
        "Pipeline-Parallelität über mehr als einen Knoten) wird nicht modelliert"),
}
MESSAGES.update(WHY_NOT)

# which single change of input changes the choice (`expert.configurator.sensitivity`)
SENSITIVITY: dict[str, tuple[str, str]] = {
    "configurator.sensitivity.freq.none": ("no", "keinem"),
    "configurator.sensitivity.freq.yearly": ("yearly", "jährlichem"),
    "configurator.sensitivity.freq.quarterly": ("quarterly", "vierteljährlichem"),
    "configurator.sensitivity.freq.monthly": ("monthly", "monatlichem"),
    "configurator.sensitivity.freq.weekly": ("weekly", "wöchentlichem"),
    "configurator.sensitivity.fine_tuning": (
        "with {new} instead of {old} fine-tuning", "mit {new} statt {old} Fine-Tuning"),
    "configurator.sensitivity.latency_target": (
        "with a {value} s latency target", "mit einem Latenzziel von {value} s"),
    "configurator.sensitivity.latency_instead": (
        "with a {value} s instead of {old} s latency target", "mit {value} s statt {old} s Latenzziel"),
    "configurator.sensitivity.requests": ("with twice the requests", "mit doppelt so vielen Anfragen"),
    "configurator.sensitivity.tasks": ("with twice the tasks", "mit doppelt so vielen Aufgaben"),
    "configurator.sensitivity.horizon": ("over {new} instead of {old} months", "über {new} statt {old} Monate"),
    "configurator.sensitivity.budget.opex": ("renting (opex)", "Miete (Opex)"),
    "configurator.sensitivity.budget.capex": ("buying (capex)", "Kauf (Capex)"),
    "configurator.sensitivity.budget": ("with {new} instead of {old}", "mit {new} statt {old}"),
    "configurator.sensitivity.hosting": (
        "with hosting '{new}' instead of '{old}'", "mit Hosting '{new}' statt '{old}'"),
    "configurator.sensitivity.int4.allow": ("allowing INT4", "mit erlaubtem INT4"),
    "configurator.sensitivity.int4.forbid": ("without INT4", "ohne INT4"),
    "configurator.sensitivity.nothing_fits": ("{change}, nothing fits", "{change} passt nichts"),
    "configurator.sensitivity.fits": (
        "{change}, {choice} fits ({chf} CHF over {months} months)",
        "{change} passt {choice} ({chf} CHF über {months} Monate)"),
    "configurator.sensitivity.cheapest": (
        "{change}, {choice} becomes cheapest ({chf} CHF over {months} months)",
        "{change} wird {choice} am günstigsten ({chf} CHF über {months} Monate)"),
    "configurator.sensitivity.near_tie": (
        "{change}, {choice} becomes the pick ({chf} CHF over {months} months), a near tie with the cheapest, "
        "{cheapest}",
        "{change} wird {choice} die Wahl ({chf} CHF über {months} Monate), ein knapper Gleichstand mit der "
        "günstigsten, {cheapest}"),
    "configurator.sensitivity.stays_precision": (
        "{change}, the pick stays: {choice}, {chf} CHF over {months} months (the same GPUs, another precision)",
        "{change} bleibt die Wahl: {choice}, {chf} CHF über {months} Monate (dieselben GPUs, eine andere "
        "Präzision)"),
    "configurator.sensitivity.same": ("{change}, the choice stays the same", "{change} bleibt die Wahl gleich"),
}
MESSAGES.update(SENSITIVITY)

# no source at all, and what LoRA would take instead (`expert.configurator.configure`)
SEARCH: dict[str, tuple[str, str]] = {
    "configurator.no_source": (
        "no admissible source ({kinds}) for hosting '{hosting}' and these GPU grades",
        "keine zulässige Quelle ({kinds}) für Hosting '{hosting}' und diese GPU-Klassen"),
    "configurator.lora_instead": (
        ". With LoRA instead of full fine-tuning: {where} over {months} months (runs: {runs})",
        ". Mit LoRA statt vollem Fine-Tuning: {where} über {months} Monate (Läufe: {runs})"),
}
MESSAGES.update(SEARCH)

# the quality cost of a quantised choice (`expert.configurator.quantised`)
QUALITY: dict[str, tuple[str, str]] = {
    "configurator.quality.fp8": (
        "FP8 with dynamic scaling (Transformer Engine, 000 G3): close to 16-bit quality; validate",
        "FP8 mit dynamischer Skalierung (Transformer Engine, 000 G3): nahe an 16-Bit-Qualität; validieren"),
    "configurator.quality.int8": (
        "INT8: usually < 3 % quality loss (000 Q2)", "INT8: meist < 3 % Qualitätsverlust (000 Q2)"),
    "configurator.quality.int4": (
        "INT4: 5-8 % quality loss depending on the task; needs case-by-case validation (000 Q2)",
        "INT4: 5-8 % Qualitätsverlust je nach Aufgabe; Einzelfallvalidierung nötig (000 Q2)"),
}
MESSAGES.update(QUALITY)
MESSAGES.update({
    # a stated precision is kept; a quantised option beside it (`expert.configurator.quantised`)
    "configurator.quantised.saves": (
        "the workload states {stated}, which the pick keeps; in {precision} this costs {saving} CHF less "
        "over {months} months ({note}); allow it with {how}",
        "der Workload legt {stated} fest, und die Wahl behält es; in {precision} kostet dies {saving} CHF "
        "weniger über {months} Monate ({note}); mit {how} erlaubt"),
    "configurator.quantised.fits": (
        "nothing fits in {stated} as the workload states; in {precision} this fits ({note}); allow it with "
        "{how}",
        "in {stated}, wie der Workload es festlegt, passt nichts; in {precision} passt dies ({note}); mit "
        "{how} erlaubt"),
})
