"""The configurator's pool and fine-tuning plan lines (`expert.configurator.pool_view`, `pool_document`,
`training_view`): `configurator.pool.*`, `configurator.training.*`, filled with numbers already formatted
for the language (`expert.report.numbers`)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {}
"""Every key → (English, German)."""

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
    "configurator.pool.where.idle": ("idle hours", "Leerlaufstunden"),
    "configurator.pool.where.around": ("around the clock", "rund um die Uhr"),
    "configurator.pool.where.rented": ("rented for the run's hours", "für die Stunden des Laufs gemietet"),
    "configurator.pool.where.none": ("does not fit", "passt nicht"),
    "configurator.pool.nights": (
        "; {nights} nights of degraded service per run ({per_month} a month): the serving engine stops on these "
        "GPUs while the run holds them, {chf} CHF of serving capacity per run at their own cost",
        "; {nights} Nächte mit eingeschränktem Dienst pro Lauf ({per_month} pro Monat): die Serving-Engine steht "
        "auf diesen GPUs, solange der Lauf sie belegt, {chf} CHF Serving-Kapazität pro Lauf zu ihren eigenen Kosten"),
    "configurator.pool.rented.saving": (
        "; {provider}, {chf} CHF per run: the pool's idle nights would not save the minimum per night against it",
        "; {provider}, {chf} CHF pro Lauf: die Leerlaufnächte des Pools sparen dagegen nicht das Minimum pro Nacht"),
    "configurator.pool.rented.memory": (
        "; {provider}, {chf} CHF per run: the job does not fit the pool's GPUs",
        "; {provider}, {chf} CHF pro Lauf: der Job passt nicht auf die GPUs des Pools"),
    "configurator.pool.rented.time": (
        "; {provider}, {chf} CHF per run: on the pool's GPUs a run would outlast its period",
        "; {provider}, {chf} CHF pro Lauf: auf den GPUs des Pools dauerte ein Lauf länger als sein Intervall"),
    "configurator.pool.checkpoint": ("; checkpoint {size} GB", "; Checkpoint {size} GB"),
    "configurator.pool.degraded": (
        "degraded service over {months} months: {per_month} nights a month while the pool's serving GPUs train, "
        "{chf} CHF of serving capacity at their own cost (not in the TCO: it decides where the runs go)",
        "eingeschränkter Dienst über {months} Monate: {per_month} Nächte pro Monat, in denen die Serving-GPUs des "
        "Pools trainieren, {chf} CHF Serving-Kapazität zu ihren eigenen Kosten (nicht in der TCO: sie entscheidet, "
        "wo die Läufe laufen)"),
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
        "{have_gb} GB usable on {gpus} GPUs (what the serving engine holds of {mem} GB each; models under 20B keep 000 M5's 30 % reserve on their weights), the peak "
        "load fits{training}, so the document's {total} GPUs are more than these agents need.",
        " Der günstigste Pool ist {pool} für {best_chf} CHF: die Replikate der {agents} Agenten brauchen {need_gb} GB von "
        "{have_gb} GB nutzbar auf {gpus} GPUs (was die Serving-Engine von je {mem} GB hält; Modelle unter 20B behalten die 30 % Reserve von 000 M5 auf ihren Gewichten), die "
        "Spitzenlast passt{training}; die {total} GPUs des Dokuments sind mehr, als diese Agenten brauchen."),
    # where the fine-tuned agents' runs go (`pool_runs.py`), inside the sentence above
    "configurator.pool.document.training.idle": (
        ", and the fine-tuned agents train on the pool's GPUs in their idle hours",
        ", und die feinabgestimmten Agenten trainieren in den Leerlaufstunden des Pools"),
    "configurator.pool.document.training.rented": (
        ", and the fine-tuned agents' runs are rented for their hours",
        ", und die Läufe der feinabgestimmten Agenten werden für ihre Stunden gemietet"),
    "configurator.pool.document.training.mixed": (
        ", and the fine-tuned agents train in the pool's idle hours or on GPUs rented for their hours",
        ", und die feinabgestimmten Agenten trainieren in den Leerlaufstunden des Pools oder auf stundenweise "
        "gemieteten GPUs"),
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
    "configurator.training.sharding.fsdp-node": ("sharded over the node's GPUs (FSDP)",
                                                 "über die GPUs des Knotens verteilt (FSDP)"),
    "configurator.training.sharding.fsdp-multinode": ("sharded over the nodes' GPUs (FSDP)",
                                                      "über die GPUs der Knoten verteilt (FSDP)"),
    "configurator.training.sharding.fsdp-offload": ("with CPU offload (FSDP)", "mit CPU-Offload (FSDP)"),
    "configurator.training.not_possible": ("{kind}: not possible: {reason}", "{kind}: nicht möglich: {reason}"),
    "configurator.training.nodes": (" ({nodes} nodes)", " ({nodes} Knoten)"),
    "configurator.training.option": (
        "{kind}: {where}{sharding}, {memory} GB per GPU, {hours} h per run, {run_chf} CHF per run, "
        "{horizon_chf} CHF over {months} months",
        "{kind}: {where}{sharding}, {memory} GB pro GPU, {hours} h pro Lauf, {run_chf} CHF pro Lauf, "
        "{horizon_chf} CHF über {months} Monate"),
    "configurator.training.nights": (
        "; {nights} of degraded service per run ({per_month} a month) within fine_tuning.idle_hours_per_day: the "
        "serving engine stops on these GPUs while the run holds them (checkpoint and resume each night; 0 idle "
        "hours turns this off), priced as the serving capacity lost at the GPUs' own cost: {chf} CHF per run",
        "; {nights} mit eingeschränktem Dienst pro Lauf ({per_month} pro Monat) innerhalb "
        "fine_tuning.idle_hours_per_day: die Serving-Engine steht auf diesen GPUs, solange der Lauf sie belegt "
        "(Checkpoint und Fortsetzung jede Nacht; 0 Leerlaufstunden schaltet das ab), bewertet als verlorene "
        "Serving-Kapazität zu den eigenen Kosten der GPUs: {chf} CHF pro Lauf"),
    "configurator.training.idle.saves": (
        "; saves {saving} CHF per run against {other} after that, more than the minimum {minimum} CHF ({nights} × "
        "{per_night} CHF per night)",
        "; spart danach {saving} CHF pro Lauf gegenüber {other}, mehr als das Minimum von {minimum} CHF ({nights} × "
        "{per_night} CHF pro Nacht)"),
    "configurator.training.idle.declined": (
        "; not used: saves {saving} CHF per run against {other} after that, not more than the minimum {minimum} CHF "
        "({nights} × {per_night} CHF per night of degraded service)",
        "; nicht genutzt: spart danach {saving} CHF pro Lauf gegenüber {other}, nicht mehr als das Minimum von "
        "{minimum} CHF ({nights} × {per_night} CHF pro Nacht mit eingeschränktem Dienst)"),
    "configurator.training.idle.dearer": (
        "; not used: with their degraded service they cost {saving} CHF per run more than {other}",
        "; nicht genutzt: mit dem eingeschränkten Dienst kosten sie {saving} CHF pro Lauf mehr als {other}"),
    "configurator.training.instance_ram": (
        " (the instance has {ram} GB per node)", " (die Instanz hat {ram} GB pro Knoten)"),
    "configurator.training.instance_ram.unknown": (
        " (the instance's host RAM is unknown to the catalog: check that it holds this)",
        " (der Hauptspeicher der Instanz ist im Katalog unbekannt: prüfen, dass er das fasst)"),
    "configurator.training.billed": ("; billed {hours} h", "; abgerechnet {hours} h"),
    "configurator.training.host_ram": (
        "; CPU offload: {host} GB of optimizer state in host RAM per node",
        "; CPU-Offload: {host} GB Optimiererzustand im Hauptspeicher pro Knoten"),
    "configurator.training.server_ram": (
        " (the serving server has {ram} GB by 000 M3's 1:4 rule)",
        " (der Server hat nach der 1:4-Regel von 000 M3 {ram} GB)"),
    "configurator.training.server_ram.stated": (
        " (the server has {ram} GB, as the setup states)", " (der Server hat {ram} GB, laut Setup)"),
    "configurator.training.needs": ("; needs {fabric}", "; braucht {fabric}"),
}
MESSAGES.update(TRAINING)

TRAINING_PLAN: dict[str, tuple[str, str]] = {
    "configurator.training.job": (
        "job: {method}fine-tuning of {params}B on {tokens} M tokens × {epochs}, {runs} a year; dataset {dataset}",
        "Auftrag: {method}Fine-Tuning von {params}B auf {tokens} Mio. Tokens × {epochs}, {runs} pro Jahr; "
        "Datensatz {dataset}"),
    "configurator.training.epochs.one": ("{n} epoch", "{n} Epoche"),
    "configurator.training.epochs.other": ("{n} epochs", "{n} Epochen"),
    "configurator.training.runs.one": ("{n} run", "{n} Lauf"),
    "configurator.training.nights.one": ("{n} night", "{n} Nacht"),
    "configurator.training.nights.other": ("{n} nights", "{n} Nächte"),
    "configurator.training.runs.other": ("{n} runs", "{n} Läufe"),
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
    "configurator.training.degraded": (
        "degraded service over {months} months: {per_month} nights a month while the serving GPUs train, "
        "{chf} CHF of serving capacity at their own cost (not in the TCO: it decides where the runs go)",
        "eingeschränkter Dienst über {months} Monate: {per_month} Nächte pro Monat, in denen die Serving-GPUs "
        "trainieren, {chf} CHF Serving-Kapazität zu ihren eigenen Kosten (nicht in der TCO: sie entscheidet, "
        "wo die Läufe laufen)"),
    "configurator.training.checkpoint": (
        "checkpoints: {size} GB each ({what}); {kept} kept = {storage} GB of storage, not priced: the catalog "
        "holds no dated, cited storage price",
        "Checkpoints: je {size} GB ({what}); {kept} behalten = {storage} GB Speicher, nicht bepreist: der "
        "Katalog enthält keinen datierten, belegten Speicherpreis"),
    "configurator.training.checkpoint.full": (
        "16-bit weights + fp32 master weights and Adam moments, {bytes} B per parameter; gradients are not saved",
        "16-Bit-Gewichte + fp32-Mastergewichte und Adam-Momente, {bytes} B pro Parameter; Gradienten werden nicht "
        "gespeichert"),
    "configurator.training.checkpoint.adapter": (
        "the adapters' {trainable} M parameters with their optimizer state, {bytes} B each; the base model is not saved",
        "die {trainable} Mio. Adapter-Parameter mit ihrem Optimiererzustand, je {bytes} B; das Basismodell wird nicht "
        "gespeichert"),
}
MESSAGES.update(TRAINING_PLAN)

# a pool search's own lines (`expert.configurator.agents`) and a training source that is missing
# (`expert.configurator.training_plan`)
POOL_SEARCH: dict[str, tuple[str, str]] = {
    "configurator.pool.nothing_fits": (
        "nothing fits: no pool of admissible GPUs serves and trains every agent",
        "nichts passt: kein Pool zulässiger GPUs bedient und trainiert alle Agenten"),
    "configurator.pool.compare": (
        "best homogeneous pool {homo} costs {homo_chf} CHF, best hybrid {hybrid} {hybrid_chf} CHF over {months} "
        "months ({saver} {diff_chf} CHF; the hybrid needs more complex orchestration, 000 T3)",
        "bester homogener Pool {homo} kostet {homo_chf} CHF, bester hybrider {hybrid} {hybrid_chf} CHF über "
        "{months} Monate ({saver} {diff_chf} CHF; der hybride braucht aufwendigere Orchestrierung, 000 T3)"),
    "configurator.pool.hybrid_saves": ("hybrid saves", "der hybride spart"),
    "configurator.pool.homogeneous_saves": ("homogeneous saves", "der homogene spart"),
    "configurator.pool.costlier": (
        "{kind} pool {pool} costs {diff_chf} CHF more over {months} months",
        "{kind} Pool {pool} kostet {diff_chf} CHF mehr über {months} Monate"),
    "configurator.pool.tie": (
        "{kind} pool {pool}: same cost, loses on the tie-break (fewer GPUs, kind, catalog order)",
        "{kind} Pool {pool}: gleiche Kosten, verliert bei der Gleichstandsregel"),
    "configurator.pool.kind.homogeneous": ("homogeneous", "Homogener"),
    "configurator.pool.kind.hybrid-split": ("hybrid-split", "Hybrider (aufgeteilter)"),
    "configurator.pool.kind.hybrid-train-only": ("hybrid-train-only", "Hybrider (nur Training getrennt)"),
    "configurator.training.missing.on_premise": (
        "deployment on_premise: no cloud GPUs for the run", "Betrieb on_premise: keine Cloud-GPUs für den Lauf"),
    "configurator.training.missing.no_price": (
        "no offer with a published hourly price for hosting '{hosting}'",
        "kein Angebot mit veröffentlichtem Stundenpreis für Hosting '{hosting}'"),
    "configurator.training.missing.none": (
        "no admissible GPU source fits the run", "keine zulässige GPU-Quelle passt für den Lauf"),
}
MESSAGES.update(POOL_SEARCH)

# why the serving GPUs' idle hours cannot hold the run (`expert.configurator.training_plan`); the German
# sentence gets decimal commas after filling in
IDLE: dict[str, tuple[str, str]] = {
    "configurator.training.idle.memory": (
        "needs {memory} GB per GPU on {count}× {gpu}, has {usable}",
        "braucht {memory} GB pro GPU auf {count}× {gpu}, verfügbar sind {usable}"),
    "configurator.training.idle.host_ram": (
        "CPU offload needs {host} GB of host RAM; {count}× {gpu} come with {ram} GB by 000 M3's 1:4 rule",
        "der CPU-Offload braucht {host} GB Hauptspeicher; {count}× {gpu} haben nach der 1:4-Regel von 000 M3 {ram} GB"),
    "configurator.training.idle.host_ram.stated": (
        "CPU offload needs {host} GB of host RAM; the server of {count}× {gpu} has {ram} GB, as the setup states",
        "der CPU-Offload braucht {host} GB Hauptspeicher; der Server mit {count}× {gpu} hat laut Setup {ram} GB"),
    "configurator.training.idle.too_long": (
        "{hours} h at {per_day} idle h/day take {nights} nights, more than half the period ({days} days)",
        "{hours} h bei {per_day} Leerlaufstunden pro Tag brauchen {nights} Nächte, mehr als das halbe Intervall "
        "({days} Tage)"),
}
MESSAGES.update(IDLE)

# an audited setup's fine-tuning plan (`expert.flows.audit_tuning`, issue 33 item 2)
AUDIT_TUNING: dict[str, tuple[str, str]] = {
    "report.tuning.runs_on.serving": (
        "; the setup runs them on its serving GPUs (training_gpus: serving)",
        "; das Setup führt sie auf seinen Serving-GPUs aus (training_gpus: serving)"),
    "report.tuning.runs_on.separate": (
        "; the setup runs them on separate GPUs (training_gpus: separate)",
        "; das Setup führt sie auf separaten GPUs aus (training_gpus: separate)"),
    "report.tuning.layout": (
        "on this setup's {gpus}: {shard}, {memory} GB per GPU of {usable} GB a run can use ({fits}); CPU offload: "
        "{offload}; {hours}",
        "auf den {gpus} dieses Setups: {shard}, {memory} GB pro GPU von {usable} GB, die ein Lauf nutzen kann "
        "({fits}); CPU-Offload: {offload}; {hours}"),
    "report.tuning.untimed": ("not timed: the run does not fit here", "nicht berechnet: der Lauf passt hier nicht"),
    "report.tuning.hours": ("{hours} h per run", "{hours} h pro Lauf"),
    "report.tuning.one_gpu": ("one GPU", "eine GPU"),
    "report.tuning.fsdp": ("sharded over {n} GPUs (FSDP)", "über {n} GPUs verteilt (FSDP)"),
    "report.tuning.memory.fits": ("fits", "passt"),
    "report.tuning.memory.short": ("does not fit", "passt nicht"),
    "report.tuning.offload.no": ("no", "nein"),
    "report.tuning.offload.not_either": ("no, the run does not fit with it either", "nein, auch damit passt der Lauf nicht"),
    "report.tuning.offload.yes": (
        "yes, {host} GB of optimizer state in host RAM per node against the server's {ram} GB ({basis}): {verdict}",
        "ja, {host} GB Optimiererzustand im Hauptspeicher pro Knoten gegenüber {ram} GB des Servers ({basis}): "
        "{verdict}"),
    "report.tuning.ram.stated": ("as the setup states", "laut Setup"),
    "report.tuning.ram.m3": (
        "the setup states no ram_gb: 000 M3's 1:4 rule, 4 × {vram} GB of GPU memory",
        "das Setup nennt kein ram_gb: 1:4-Regel von 000 M3, 4 × {vram} GB GPU-Speicher"),
    "report.tuning.ram.within": ("within it", "passt"),
    "report.tuning.ram.exceeds": (
        "EXCEEDS it, the run does not fit this server", "ÜBERSTEIGT ihn, der Lauf passt nicht auf diesen Server"),
}
MESSAGES.update(AUDIT_TUNING)
