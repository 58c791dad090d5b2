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
    "configurator.violation.tpot": (
        "TPOT {value} ms over the {target} ms target (misses it by {miss} ms)",
        "TPOT {value} ms über dem Ziel von {target} ms (verfehlt es um {miss} ms)"),
    "configurator.violation.latency": (
        "{what} {value} s over the {target} s target (misses it by {miss} s)",
        "{what} {value} s über dem Ziel von {target} s (verfehlt es um {miss} s)"),
    "configurator.violation.capacity": (
        "the peak load needs {needed} GPUs, has {count}",
        "die Spitzenlast braucht {needed} GPUs, vorhanden sind {count}"),
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
        "same cost, slower: p95 {latency} s instead of {best} s",
        "gleiche Kosten, langsamer: p95 {latency} s statt {best} s"),
    "configurator.why_not.tie": (
        "same cost; loses on the tie-break (fewer GPUs, then catalog order)",
        "gleiche Kosten; verliert bei der Gleichstandsregel (weniger GPUs, dann Katalogreihenfolge)"),
    "configurator.nothing_fits": ("nothing fits: {reason}", "nichts passt: {reason}"),
    "configurator.nothing_fits.none_admissible": ("no candidate is admissible", "kein Kandidat ist zulässig"),
    "configurator.nothing_fits.closest": (
        "nothing fits: the closest candidate, {closest}, {failed}",
        "nichts passt: der nächste Kandidat, {closest}, {failed}"),
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
    "configurator.sensitivity.same": ("{change}, the choice stays the same", "{change} bleibt die Wahl gleich"),
}
MESSAGES.update(SENSITIVITY)

# a pool of agents in plain lines (`expert.configurator.pool_view`, `pool_document`)
POOL: dict[str, tuple[str, str]] = {
    "configurator.pool.role.serve+train": ("serve+train", "Inferenz + Training"),
    "configurator.pool.role.inference": ("inference", "Inferenz"),
    "configurator.pool.role.train": ("train", "nur Training"),
    "configurator.pool.training_only": ("training only", "nur Training"),
    # the method word ends in a space or a hyphen: "full fine-tuning", "LoRA-Fine-Tuning"
    "configurator.pool.method.full": ("full ", "volles "),
    "configurator.pool.method.lora": ("lora ", "LoRA-"),
    "configurator.pool.method.qlora": ("qlora ", "QLoRA-"),
    "configurator.pool.freq.yearly": ("yearly", "jährlich"),
    "configurator.pool.freq.quarterly": ("quarterly", "vierteljährlich"),
    "configurator.pool.freq.monthly": ("monthly", "monatlich"),
    "configurator.pool.freq.weekly": ("weekly", "wöchentlich"),
    "configurator.pool.assumed": (" (assumed)", " (angenommen)"),
    "configurator.pool.idle": ("idle hours", "Leerlaufstunden"),
    "configurator.pool.around_the_clock": ("around the clock", "rund um die Uhr"),
    "configurator.pool.run": (
        "{name}: {method}fine-tuning {freq}, {tokens} M tokens{assumed}, {memory} GB per GPU, "
        "{hours} h per run on {count}× {gpu} ({where})",
        "{name}: {method}Fine-Tuning {freq}, {tokens} Mio. Tokens{assumed}, {memory} GB pro GPU, "
        "{hours} h pro Lauf auf {count}× {gpu} ({where})"),
    "configurator.pool.team.none": ("not counted (opt-in)", "nicht gezählt (Opt-in)"),
    "configurator.pool.costs": (
        "cost lines over {months} months: pool GPUs (000 T1) {gpu_chf} CHF + runs rented for their hours "
        "{runs_chf} CHF = TCO {tco_chf} CHF; team time {team}; ranked by TCO + team time = {objective_chf} CHF",
        "Kostenzeilen über {months} Monate: Pool-GPUs (000 T1) {gpu_chf} CHF + stundenweise gemietete Läufe "
        "{runs_chf} CHF = TCO {tco_chf} CHF; Teamzeit {team}; Rangfolge nach TCO + Teamzeit = {objective_chf} CHF"),
    "configurator.pool.document": (
        "000 R3/T3 hybrid {ng}× {l40s} + {nf}× {a100} ({l40s_key}, {a100_key}) costs {hybrid_chf} CHF, all-A100 "
        "{total}× {a100} {homo_chf} CHF over {months} months: the hybrid saves {saving_chf} CHF (000 T3 states "
        "57 572 CHF for its 2 + 2).",
        "Hybrider Pool nach 000 R3/T3 {ng}× {l40s} + {nf}× {a100} ({l40s_key}, {a100_key}) kostet {hybrid_chf} CHF, "
        "nur A100 {total}× {a100} {homo_chf} CHF über {months} Monate: der hybride spart {saving_chf} CHF "
        "(000 T3 nennt 57 572 CHF für seine 2 + 2)."),
    "configurator.pool.document.cheaper": (
        " The cheapest pool is {pool} at {best_chf} CHF: the {agents} agents' replicas need {need_gb} GB within "
        "{have_gb} GB usable on {gpus} GPUs ({mem} GB × 0.9 × 0.7 growth reserve each, 000 M5), the peak "
        "load fits, and the fine-tuned agents train on the pool's GPUs in their idle hours, so the document's "
        "{total} GPUs are more than these agents need.",
        " Der günstigste Pool ist {pool} für {best_chf} CHF: die Replikate der {agents} Agenten brauchen {need_gb} GB von "
        "{have_gb} GB nutzbar auf {gpus} GPUs (je {mem} GB × 0,9 × 0,7 Wachstumsreserve, 000 M5), die "
        "Spitzenlast passt, und die feinabgestimmten Agenten trainieren in den Leerlaufstunden des Pools; die "
        "{total} GPUs des Dokuments sind mehr, als diese Agenten brauchen."),
}
MESSAGES.update(POOL)

# the fine-tuning plan as the answer shows it (`expert.configurator.training_view`)
TRAINING: dict[str, tuple[str, str]] = {
    "configurator.training.quality.full": (
        "all weights trained; the reference quality", "alle Gewichte trainiert; die Referenzqualität"),
    "configurator.training.quality.lora": (
        "the documents say nothing on LoRA quality; the LoRA paper (arXiv:2106.09685) reports results on par with "
        "full fine-tuning on the tasks it tested: validate on your task",
        "die Dokumente sagen nichts zur LoRA-Qualität; das LoRA-Paper (arXiv:2106.09685) berichtet Ergebnisse auf "
        "dem Niveau des vollen Fine-Tunings für die getesteten Aufgaben: an der eigenen Aufgabe validieren"),
    "configurator.training.quality.qlora": (
        "4-bit base weights during training; the QLoRA paper (arXiv:2305.14314) matches 16-bit fine-tuning on its "
        "benchmarks: validate on your task",
        "4-Bit-Basisgewichte im Training; das QLoRA-Paper (arXiv:2305.14314) erreicht auf seinen Benchmarks "
        "16-Bit-Niveau: an der eigenen Aufgabe validieren"),
    "configurator.training.kind.serving-idle": ("serving GPUs at idle hours", "Serving-GPUs in Leerlaufstunden"),
    "configurator.training.kind.rented-per-run": ("rented for the run's hours", "für die Laufzeit gemietet"),
    "configurator.training.kind.dedicated": ("dedicated training GPUs", "eigene Trainings-GPUs"),
    "configurator.training.not_possible": ("{kind}: not possible: {reason}", "{kind}: nicht möglich: {reason}"),
    "configurator.training.nodes": (" ({nodes} nodes)", " ({nodes} Knoten)"),
    "configurator.training.option": (
        "{kind}: {where}, {sharding}, {memory} GB per GPU, {hours} h per run, {run_chf} CHF per run, "
        "{horizon_chf} CHF over {months} months",
        "{kind}: {where}, {sharding}, {memory} GB pro GPU, {hours} h pro Lauf, {run_chf} CHF pro Lauf, "
        "{horizon_chf} CHF über {months} Monate"),
    "configurator.training.nights": (
        "; {nights} night(s) of fine_tuning.idle_hours_per_day: the service pauses or runs reduced while the run "
        "holds the GPUs (checkpoint and resume each night; 0 idle hours turns this off)",
        "; {nights} Nacht/Nächte mit fine_tuning.idle_hours_per_day: der Dienst pausiert oder läuft reduziert, "
        "solange der Lauf die GPUs belegt (Checkpoint und Fortsetzung jede Nacht; 0 Leerlaufstunden schaltet das ab)"),
    "configurator.training.billed": ("; billed {hours} h", "; abgerechnet {hours} h"),
    "configurator.training.needs": ("; needs {fabric}", "; braucht {fabric}"),
}
MESSAGES.update(TRAINING)

TRAINING_PLAN: dict[str, tuple[str, str]] = {
    "configurator.training.job": (
        "job: {method}fine-tuning of {params}B on {tokens} M tokens × {epochs} epochs, {runs} runs a year; "
        "dataset {dataset}",
        "Auftrag: {method}Fine-Tuning von {params}B auf {tokens} Mio. Tokens × {epochs} Epochen, {runs} Läufe pro "
        "Jahr; Datensatz {dataset}"),
    "configurator.training.dataset.given": ("given", "angegeben"),
    "configurator.training.dataset.assumed": (
        "ASSUMED, not given: 100 M tokens (band 10-415 M; 415 M is what 000 M2's 48 h on one A100 implies for 13B "
        "LoRA); set fine_tuning.dataset_tokens",
        "ANGENOMMEN (nicht angegeben): 100 Mio. Tokens, Band 10-415 Mio. (415 Mio. ergeben sich aus 000 M2: 48 h "
        "auf einer A100 für 13B LoRA); fine_tuning.dataset_tokens angeben"),
    "configurator.training.compare": ("methods side by side ({why}): {rows}", "Methoden im Vergleich ({why}): {rows}"),
    "configurator.training.compare.multi": (
        "full fine-tuning needs more than one node of {gpu}", "volles Fine-Tuning braucht mehr als einen Knoten {gpu}"),
    "configurator.training.compare.far": (
        "full fine-tuning costs more than twice LoRA", "volles Fine-Tuning kostet mehr als das Doppelte von LoRA"),
    "configurator.training.compare.none": (
        "full fine-tuning has no GPUs that run it", "für volles Fine-Tuning gibt es keine GPUs"),
    "configurator.training.name.full": ("full", "voll"),
    "configurator.training.name.lora": ("lora", "LoRA"),
    "configurator.training.name.qlora": ("qlora", "QLoRA"),
    "configurator.training.row": (
        "{name}: {gpus}× {gpu}, {memory} GB/GPU, {hours} h, {chf} CHF per run{source}",
        "{name}: {gpus}× {gpu}, {memory} GB/GPU, {hours} h, {chf} CHF pro Lauf{source}"),
    "configurator.training.row.none": ("{name}: no plan", "{name}: kein Plan"),
    "configurator.training.team.none": (
        "not counted (opt-in: fine_tuning.team_waits)", "nicht gezählt (Opt-in: fine_tuning.team_waits)"),
    "configurator.training.costs": (
        "cost lines over {months} months: serving GPUs (000 T1) {gpu_chf} CHF + fine-tuning GPUs {train_chf} CHF = "
        "TCO {tco_chf} CHF; team time waiting on runs (000 M2) {team}; ranked by TCO + team time = {objective_chf} CHF",
        "Kostenzeilen über {months} Monate: Serving-GPUs (000 T1) {gpu_chf} CHF + Fine-Tuning-GPUs {train_chf} CHF = "
        "TCO {tco_chf} CHF; Teamzeit beim Warten (000 M2) {team}; Rangfolge nach TCO + Teamzeit = {objective_chf} CHF"),
}
MESSAGES.update(TRAINING_PLAN)
