"""The words of the rendered report (`report.*`, text and Markdown) and of `gpu-expert explain`
(`explain.*`), and the severity and value words both use (`severity.*`, `value.*`).
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "report.advice": ("Advice", "Empfehlung"),
    "report.audit": ("Audit", "Audit"),
    "report.sentence": ("Clarification", "Bedarfsklärung"),
    "report.memory": ("Memory", "Speicher"),
    "report.capacity": ("Capacity", "Kapazität"),
    "report.recommendation": ("Recommendation", "Empfehlung"),
    "report.alternatives": ("Alternatives", "Alternativen"),
    "report.quantised": ("Other precisions (the stated precision is kept)",
                         "Andere Präzisionen (die festgelegte Präzision bleibt)"),
    "report.findings": ("Findings", "Befunde"),
    "report.trace": ("Rules fired (in order)", "Ausgelöste Regeln (in Reihenfolge)"),
    "report.none": ("none", "keine"),
    "report.document": ("The documents recommend", "Die Dokumente empfehlen"),
    "report.sensitivity": ("Sensitivity", "Sensitivität"),
    "report.advice_label": ("Advice", "Rat"),
    "report.source": ("Source", "Quelle"),
    "report.month": ("month", "Monat"),
    "report.over": ("over", "über"),
    "report.months": ("months", "Monate"),
    "report.weights": ("weights", "Gewichte"),
    "report.kv": ("KV cache", "KV-Cache"),
    "report.overhead": ("overhead", "Overhead"),
    "report.total": ("total", "gesamt"),
    "report.finetune": ("fine-tuning", "Fine-Tuning"),
    "report.reserve": ("reserve", "Reserve"),
    "report.avg": ("average", "Mittel"),
    "report.peak": ("peak", "Spitze"),
    "report.conc": ("concurrent inferences (000 D3)", "gleichzeitige Inferenzen (000 D3)"),
    "report.gpus": ("GPUs needed", "GPUs nötig"),
    "report.headroom": ("headroom", "Reserve"),
    "report.p95": ("complete answer (p95)", "vollständige Antwort (P95)"),
    "report.agent": ("Agent loop", "Agentenschleife"),
    "report.agent.step": (
        "{steps} steps per task (p90 {p90}){branches}, {tokens} input tokens per step, {prefilled} of them prefilled "
        "(cache hit rate {hit}), TTFT {ttft} s (uncached {uncached} s), step {step} s",
        "{steps} Schritte je Aufgabe (P90 {p90}){branches}, {tokens} Eingabe-Tokens je Schritt, davon {prefilled} neu "
        "berechnet (Cache-Trefferquote {hit}), TTFT {ttft} s (ohne Cache {uncached} s), Schritt {step} s"),
    "report.agent.branches": (" in each of {n} branches at once", " in jedem von {n} gleichzeitigen Zweigen"),
    "report.agent.task": ("task {task} s mean, {p90} s at the p90 step count, tools {tools} of it",
                          "Aufgabe {task} s im Mittel, {p90} s bei P90-Schrittzahl, davon Werkzeuge {tools}"),
    "report.agent.sessions": (
        "{sessions} sessions at the peak (p95 {p95}), {on_gpu} with their KV on the GPUs, {per_session} GB KV per "
        "session beside {shared}, {total} GB in all at the mean, {p95_total} GB at the p95 (what the memory holds{held})",
        "{sessions} Sitzungen zur Spitzenzeit (P95 {p95}), {on_gpu} davon mit KV auf der GPU, {per_session} GB KV je "
        "Sitzung neben {shared}, {total} GB gesamt im Mittel, {p95_total} GB bei P95 (was der Speicher hält{held})"),
    "report.agent.held": (
        ": {replicas} × {per_replica} GB, the memory section's KV cache per replica",
        ": {replicas} × {per_replica} GB, der KV-Cache je Replikat des Speicherabschnitts"),
    "report.agent.held_copies": (
        ": {replicas} × {per_replica} GB, copies included; the memory section's KV cache counts each session and "
        "the shared prefix once",
        ": {replicas} × {per_replica} GB mit den Kopien; der KV-Cache des Speicherabschnitts zählt jede Sitzung und "
        "das gemeinsame Präfix einmal"),
    "report.agent.shared": ("{shared} GB of shared prefix per replica", "{shared} GB gemeinsamem Präfix je Replikat"),
    "report.agent.shared_copies": (
        "{shared} GB of shared prefix per replica ({once} GB once on each of its {n} GPUs)",
        "{shared} GB gemeinsamem Präfix je Replikat ({once} GB einmal auf jeder seiner {n} GPUs)"),
    "report.agent.targets": (
        "internal step {step} s complete ({internal}), final answer {final} s ({final_target})",
        "interner Schritt {step} s vollständig ({internal}), Schlussantwort {final} s ({final_target})"),
    "report.agent.targets_batch": (
        "internal step {step} s complete ({internal}); a batch: no final answer anyone waits for",
        "interner Schritt {step} s vollständig ({internal}); ein Batch: keine Schlussantwort, auf die "
        "jemand wartet"),
    "report.agent.target": ("target {value} s", "Ziel {value} s"),
    "report.agent.no_target": ("no target given", "kein Ziel angegeben"),
    "report.agent.retention": (
        "cached prefixes expire during tool waits: cache hit rate {lost} lower",
        "zwischengespeicherte Präfixe verfallen während der Werkzeugwartezeit: Cache-Trefferquote {lost} tiefer"),
    "report.agent.compute": (
        "one replica ({replica}) computes at most {top} LLM steps/s; at 000 D3's {util} % utilisation "
        "{carried} steps/s, so the peak of {peak} steps/s needs {needed} for compute; the pick has {replicas}{why}",
        "ein Replikat ({replica}) rechnet höchstens {top} LLM-Schritte/s; bei 000 D3s {util} % Auslastung "
        "{carried} Schritte/s, also braucht die Spitze von {peak} Schritten/s {needed} für die Rechenleistung; "
        "die Wahl hat {replicas}{why}"),
    "report.agent.compute.replicas": ("{n} replicas", "{n} Replikate"),
    "report.agent.compute.replicas.one": ("{n} replica", "{n} Replikat"),
    "report.agent.compute.more": (" (the rest for the sessions' memory, the latency targets or availability)",
                                  " (der Rest für den Speicher der Sitzungen, die Latenzziele oder die Verfügbarkeit)"),
    "report.agent.cost": ("{per_1000} per 1000 tasks ({per_task} CHF per task)",
                          "{per_1000} je 1000 Aufgaben ({per_task} CHF je Aufgabe)"),
    "report.domains": (
        "Highly available: {count} failure domains ({kind}) of {sizes} GPUs; one may fail and the peak is "
        "still served",
        "Hochverfügbar: {count} Ausfallbereiche ({kind}) mit {sizes} GPUs; einer darf ausfallen, die "
        "Spitzenlast bleibt bedient"),
    "report.domains.server": ("separate servers", "getrennte Server"),
    "report.domains.instance": ("separate cloud instances", "getrennte Cloud-Instanzen"),
    "report.attention.dp": (
        "Attention: data-parallel over the {tp} GPUs of a replica (each GPU holds its own sessions' MLA latent, "
        "experts sharded; SGLang --enable-dp-attention, vLLM data parallel with expert parallelism)",
        "Attention: datenparallel über die {tp} GPUs eines Replikats (jede GPU hält die MLA-Latents ihrer "
        "eigenen Sitzungen, Experten verteilt; SGLang --enable-dp-attention, vLLM Datenparallelität mit "
        "Expertenparallelität)"),
    "report.attention.tp": (
        "Attention: tensor-parallel (the MLA latent is held on each of the {tp} GPUs of a replica)",
        "Attention: tensorparallel (das MLA-Latent liegt auf jeder der {tp} GPUs eines Replikats)"),
    "report.system": (
        "Complete system ({chassis}, {power}): {upfront} up front, resale {resale} after {months} months; "
        "bill of materials: {bom}",
        "Komplettsystem ({chassis}, {power}): {upfront} im Voraus, Wiederverkauf {resale} nach {months} Monaten; "
        "Stückliste: {bom}"),
    "report.training": ("Fine-tuning plan", "Fine-Tuning-Plan"),
    "report.pool": ("Pool of agents", "Agenten-Pool"),
    "report.slo": ("Latency targets", "Latenzziele"),
    "report.ttft": ("first words (TTFT, p95, queueing included) within", "erste Wörter (TTFT, P95, mit Warteschlange) innert"),
    "report.tpot": ("time per output token within", "Zeit pro Ausgabe-Token innert"),
    "report.e2e": ("complete answer within", "vollständige Antwort innert"),
    "report.no_slo": ("none (not streamed, no target: sized for throughput)",
                      "keine (nicht gestreamt, kein Ziel: auf Durchsatz ausgelegt)"),
    "report.basis.rate": ("the given rate is the peak (no peak factor)", "die angegebene Rate ist die Spitze (kein Spitzenfaktor)"),
    "report.basis.rate × peak_to_average": ("the given rate × peak_to_average", "die angegebene Rate × peak_to_average"),
    "report.basis.daily volume × peak_to_average": ("daily volume / 86 400 s × peak_to_average",
                                                    "Tagesvolumen / 86 400 s × peak_to_average"),
    "report.basis.agent tasks × peak_to_average": (
        "tasks per day × steps / 86 400 s × peak_to_average", "Aufgaben pro Tag × Schritte / 86 400 s × peak_to_average"),
    "report.basis.agent batch": (
        "tasks per day × steps / 86 400 s; a batch nobody waits for has no peak factor unless peak_to_average is stated",
        "Aufgaben pro Tag × Schritte / 86 400 s; ein Batch, auf den niemand wartet, hat keinen Spitzenfaktor, "
        "ausser peak_to_average ist angegeben"),
    "report.basis.agent closed loop": (
        "the users' task rate at the fixed point of the configuration sized here (X = N / (R + Z), R its task "
        "time) × steps; alternatives, where shown, are checked at this peak, not at their own; the average is "
        "it / peak_to_average",
        "die Aufgabenrate der Nutzer im Fixpunkt der hier bemessenen Konfiguration (X = N / (R + Z), R ihre "
        "Aufgabenzeit) × Schritte; Alternativen, wo gezeigt, werden bei dieser Spitze geprüft, nicht bei ihrer "
        "eigenen; der Mittelwert ist sie / peak_to_average"),
    "report.factor": ("factor", "Faktor"),
    "report.tol": ("a target counts as met up to", "ein Ziel gilt als erfüllt bis"),
    "report.tol_above": ("above it", "darüber"),
    "report.first": ("first words", "erste Wörter"),
    "report.per_token": ("ms/token", "ms/Token"),
    "report.regime": ("at the peak of {rate} {unit} per replica, {batch} decoding",
                      "bei der Spitze von {rate} {unit} pro Replikat, {batch} im Decode"),
    "report.regime_idle": ("no volume given: one request at a time",
                           "kein Volumen angegeben: eine Anfrage nach der anderen"),
    "report.regime_pool": ("the slowest agent, at its peak of {rate} {unit} per replica, {batch} decoding",
                           "der langsamste Agent, bei seiner Spitze von {rate} {unit} pro Replikat, "
                           "{batch} im Decode"),
    "report.unit.req/s": ("req/s", "Anfragen/s"),
    "report.unit.steps/s": ("LLM steps/s", "LLM-Schritte/s"),
    "report.whole": ("complete answer", "vollständige Antwort"),
    "report.first.step": ("a step's first token", "erstes Token eines Schritts"),
    "report.whole.step": ("step complete", "Schritt vollständig"),
    "explain.when": ("Fires when", "Greift, wenn"),
    "explain.then": ("Derives", "Leitet ab"),
    "explain.explanation": ("Explanation", "Erklärung"),
    "explain.advice": ("Advice", "Rat"),
    "explain.source": ("Source", "Quelle"),
    "explain.category": ("category", "Kategorie"),
    "explain.severity": ("severity", "Schweregrad"),
    "explain.no": ("there is no", "es kein"),
    "explain.any": ("any of", "eines von"),
    "explain.finding": ("Reports a finding", "Meldet einen Befund"),
    "explain.and": ("and", "und"),
    "explain.unknown": ("unknown rule {rule}; similar: {similar} (all rules: gpu-expert rules)",
                        "unbekannte Regel {rule}; ähnlich: {similar} (alle Regeln: gpu-expert rules)"),
    "explain.op.exists": ("exists", "vorhanden"),
    "explain.op.matches": ("matches", "passt auf"),
    "explain.op.contains": ("contains", "enthält"),
    "report.package": ("package {id}", "Paket {id}"),
    "report.pool_head": ("pool {groups}", "Pool {groups}"),
    "report.priced_at": ("priced at {where}", "bepreist wie {where}"),
    "report.memory.per_copy": ("(per copy of the model: the setup runs {replicas} copies, tensor parallel {tp} each)",
                               "(je Kopie des Modells: das Setup betreibt {replicas} Kopien mit je Tensor-Parallel {tp})"),
    "report.memory.per_gpu": ("{label} {total} GB ({each} GB per GPU × {gpus})",
                              "{label} {total} GB ({each} GB je GPU × {gpus})"),
    "report.memory.copies": ("copies on several GPUs", "Kopien auf mehreren GPUs"),
    "report.audit_of": ("Audit of {gpu} ({held}).", "Audit von {gpu} ({held})."),
    "report.growth": ("Growth (the model expected in 12–18 months)", "Wachstum (das in 12–18 Monaten erwartete Modell)"),
    "report.growth.memory": ("A {params}B model on {where} (TP {tp}) would use {used} GB per GPU at the peak of "
                             "{usable} GB usable.",
                             "Ein {params}B-Modell auf {where} (TP {tp}) belegte bei der Spitze {used} GB pro GPU "
                             "von {usable} GB nutzbar."),
    "report.growth.no_fit": ("It does not fit: it needs larger or more GPUs, or a validated quantisation (000 M5).",
                             "Es passt nicht: es braucht grössere oder mehr GPUs oder eine validierte "
                             "Quantisierung (000 M5)."),
    "report.growth.serves": ("At the same load it would serve {rate} req/s within the latency targets against a "
                             "peak of {peak} req/s (load {load}).",
                             "Bei derselben Last bediente es {rate} Anfragen/s innerhalb der Latenzziele bei einer "
                             "Spitze von {peak} Anfragen/s (Last {load})."),
    "report.growth.measured": ("(The load is the measured {used} utilisation scaled by today's model's estimated "
                               "capacity over the grown model's.)",
                               "(Die Last ist die gemessene Auslastung von {used}, skaliert mit der geschätzten "
                               "Kapazität des heutigen Modells gegenüber der des gewachsenen.)"),
    "report.growth.latency": ("At the peak: first words {ttft} s (p95), {tpot} ms per token.",
                              "Bei der Spitze: erste Wörter {ttft} s (P95), {tpot} ms pro Token."),
    "report.setup": ("The setup against the optimum", "Das Setup gegenüber dem Optimum"),
    "report.setup_line": ("this setup", "dieses Setup"),
    "report.optimum_line": ("the optimum", "das Optimum"),
    "report.used": ("used per GPU at the peak", "belegt pro GPU bei der Spitze"),
    "report.usable": ("usable", "nutzbar"),
    "report.of": ("of", "von"),
    "report.at_targets": ("within the latency targets", "innerhalb der Latenzziele"),
    "report.serves": ("serves", "bedient"),
    "report.capacity.measured": ("measured: {measured}", "gemessen: {measured}"),
    "report.capacity.gap": ("measured mean utilisation {measured} against {estimated} estimated (the mean load over "
                            "what the setup serves): {factor}× apart, more than {limit}×; check the engine, its "
                            "batching and the stated volume. The optimum and its saving use the estimate.",
                            "gemessene mittlere Auslastung {measured} gegenüber {estimated} geschätzt (die mittlere "
                            "Last über das, was das Setup bedient): {factor}× auseinander, mehr als {limit}×; Engine, "
                            "Batching und das angegebene Volumen prüfen. Das Optimum und seine Einsparung beruhen auf "
                            "der Schätzung."),
    "report.capacity.none_measured": ("by the estimate it serves nothing within the latency targets at the stated "
                                      "load (the findings say why); measured: {measured}, and measurements win",
                                      "nach der Schätzung bedient es bei der angegebenen Last nichts innerhalb der "
                                      "Latenzziele (die Befunde sagen warum); gemessen: {measured}, und Messungen "
                                      "gehen vor"),
    "report.capacity.utilization": ("mean utilisation {share}", "mittlere Auslastung {share}"),
    "report.capacity.p95": ("p95 latency {seconds} s", "p95-Latenz {seconds} s"),
    "report.busiest": ("the busiest agent, {agent}, ", "der am stärksten belastete Agent, {agent}, "),
    "report.load": ("load", "Last"),
    "report.kernel": ("{kernel} kernels", "{kernel}-Kernel"),
    "report.kv_at": ("KV cache {precision}", "KV-Cache {precision}"),
    "report.meets.True": ("meets the latency targets at the peak", "erfüllt die Latenzziele bei der Spitze"),
    "report.meets.memory": ("does not fit: the model (or the pool's replicas) exceeds the GPUs' memory",
                            "passt nicht: das Modell (oder die Replikate des Pools) übersteigt den GPU-Speicher"),
    "report.meets.peak": ("by the estimate, does not serve the peak within the latency targets (the load under "
                          "Capacity)",
                          "bedient nach der Schätzung die Spitze nicht innerhalb der Latenzziele (die Last unter "
                          "Kapazität)"),
    "report.meets.False": ("does not fit, or misses the latency targets or the peak",
                          "passt nicht in den Speicher oder verfehlt die Latenzziele oder die Spitze"),
    "report.meets.availability": ("not highly available: when one server or instance fails, the rest do not "
                                  "hold the replicas the peak needs (high_availability)",
                                  "nicht hochverfügbar: fällt ein Server oder eine Instanz aus, halten die übrigen "
                                  "nicht die Replikate, die die Spitze braucht (high_availability)"),
    "report.meets.latency": ("misses the latency targets at the peak", "verfehlt die Latenzziele bei der Spitze"),
    "report.optimum.none": ("No configuration of the catalog fits this workload, so there is no optimum to compare with.",
                            "Keine Konfiguration des Katalogs passt zu dieser Arbeitslast: kein Optimum zum Vergleich."),
    "report.optimum.unpriced": ("The catalog has no price for {setup}, so no saving is stated; the optimum for the "
                                "same workload and targets is {gpu} at {precision}, {chf} a month.",
                                "Der Katalog hat keinen Preis für {setup}, daher wird keine Einsparung genannt; das "
                                "Optimum für dieselbe Arbeitslast und Ziele ist {gpu} in {precision}, {chf} pro "
                                "Monat."),
    "report.unpriced": ("not priced in the catalog", "im Katalog ohne Preis"),
    "report.optimum.same_missed": ("By the estimate no configuration serves the same workload within the same "
                                   "targets for less over {months} months, yet this setup misses them as measured: "
                                   "the estimate is too optimistic here (the findings say what to do).",
                                   "Laut Schätzung bedient keine Konfiguration dieselbe Arbeitslast innerhalb "
                                   "derselben Ziele über {months} Monate günstiger, doch dieses Setup verfehlt sie "
                                   "gemessen: die Schätzung ist hier zu optimistisch (die Befunde sagen, was zu tun ist)."),
    "report.optimum.same": ("This setup is the optimum: no configuration serves the same workload within the same "
                            "targets for less over {months} months.",
                            "Dieses Setup ist das Optimum: keine Konfiguration bedient dieselbe Arbeitslast innerhalb "
                            "derselben Ziele über {months} Monate günstiger."),
    "report.optimum.same_offer": ("This setup is the optimum configuration; at {where}, the optimum's offer, it "
                                  "costs {month} a month less ({share}).",
                                  "Dieses Setup ist die optimale Konfiguration; bei {where}, dem Angebot des Optimums, "
                                  "kostet es {month} pro Monat weniger ({share})."),
    "report.optimum.same_cost": ("The optimum for the same workload and targets, {gpu} at {precision}, costs the "
                                 "same as this setup, {chf} a month: {why}.",
                                 "Das Optimum für dieselbe Arbeitslast und Ziele, {gpu} in {precision}, kostet "
                                 "gleich viel wie dieses Setup, {chf} pro Monat: {why}."),
    "report.optimum.dearer": ("The optimum for the same workload and targets, {gpu}, costs {chf} a month, more than "
                              "this setup: {why}.",
                              "Das Optimum für dieselbe Arbeitslast und Ziele, {gpu}, kostet {chf} pro Monat, mehr als "
                              "dieses Setup: {why}."),
    "report.optimum.why.targets": ("this setup is cheaper, but the optimum is the cheapest that meets the targets "
                                   "at the peak",
                                   "dieses ist billiger, aber das Optimum ist das billigste, das die Ziele bei der "
                                   "Spitze erfüllt"),
    "report.optimum.why.vendor": ("the workload does not allow {vendor} GPUs (allow_non_nvidia; 000 D4, G12), so "
                                  "the search leaves {gpu} out",
                                  "die Arbeitslast lässt keine {vendor}-GPUs zu (allow_non_nvidia; 000 D4, G12), "
                                  "daher lässt die Suche {gpu} aus"),
    "report.optimum.why.grade": ("critical production excludes {grade} GPUs such as {gpu} (000 G10, G11; "
                                 "allow_consumer_gpus or critical: false admit them)",
                                 "kritische Produktion schliesst {grade}-GPUs wie {gpu} aus (000 G10, G11; "
                                 "allow_consumer_gpus oder critical: false lassen sie zu)"),
    "report.optimum.why.source.owned": ("the workload (deployment {deployment}, budget {budget}) rents, so owned "
                                        "hardware is not among the options (budget: capex or any compares "
                                        "purchases)",
                                        "die Arbeitslast (deployment {deployment}, budget {budget}) mietet, daher "
                                        "ist eigene Hardware keine Option (budget: capex oder any vergleicht Käufe)"),
    "report.optimum.why.source.rented": ("the workload (deployment {deployment}, budget {budget}) buys, so rented "
                                         "GPUs are not among the options",
                                         "die Arbeitslast (deployment {deployment}, budget {budget}) kauft, daher "
                                         "sind gemietete GPUs keine Option"),
    "report.optimum.why.options": ("the search does not consider this setup's {precision} at tensor parallelism "
                                   "{tp} for this workload (its precision choice or the model's heads)",
                                   "die Suche betrachtet {precision} mit Tensor-Parallelität {tp} für diese "
                                   "Arbeitslast nicht (ihre Präzisionswahl oder die Köpfe des Modells)"),
    "report.optimum.why.constraint": ("checked as the configurator checks every configuration, this setup's "
                                      "fails: {failed}",
                                      "geprüft wie der Konfigurator jede Konfiguration prüft, verfehlt dieses "
                                      "Setup: {failed}"),
    "report.optimum.why.growth_blocked": ("; and the optimum is sized for the expected {params} B model "
                                          "(growth_params_b), which this setup does not hold (Growth)",
                                          "; und das Optimum ist für das erwartete {params}-B-Modell "
                                          "(growth_params_b) ausgelegt, das dieses Setup nicht aufnimmt (Wachstum)"),
    "report.optimum.why.growth": (" (sized with the expected {params} B model of growth_params_b beside today's, as "
                                  "the configurator sizes every configuration; the capacity section is today's model)",
                                  " (ausgelegt mit dem erwarteten {params}-B-Modell aus growth_params_b neben dem "
                                  "heutigen, wie der Konfigurator jede Konfiguration auslegt; der Kapazitätsabschnitt "
                                  "gilt dem heutigen Modell)"),
    "report.optimum.why.costlier.team": ("with the fine-tuning runs and team time the configurator adds, this setup's "
                                         "configuration costs {diff} CHF more over {months} months",
                                         "mit den Fine-Tuning-Läufen und der Teamzeit, die der Konfigurator "
                                         "hinzurechnet, kostet die Konfiguration dieses Setups {diff} CHF mehr über "
                                         "{months} Monate"),
    "report.optimum.why.costlier.runs": ("with the fine-tuning runs the configurator adds (team time not counted: "
                                         "fine_tuning.team_waits), this setup's configuration costs {diff} CHF more "
                                         "over {months} months",
                                         "mit den Fine-Tuning-Läufen, die der Konfigurator hinzurechnet (Teamzeit "
                                         "nicht gezählt: fine_tuning.team_waits), kostet die Konfiguration dieses "
                                         "Setups {diff} CHF mehr über {months} Monate"),
    "report.optimum.why.costlier.none": ("at the configurator's prices this setup's configuration costs {diff} CHF "
                                         "more over {months} months",
                                         "zu den Preisen des Konfigurators kostet die Konfiguration dieses Setups "
                                         "{diff} CHF mehr über {months} Monate"),
    "report.optimum.why.near_tie": ("this setup's configuration is the cheaper by {saving} CHF over {months} months, "
                                    "within the near-tie band ({band} %), where fewer GPUs and the faster answer win",
                                    "die Konfiguration dieses Setups ist um {saving} CHF über {months} Monate "
                                    "günstiger, innerhalb des Gleichstandsbands ({band} %), in dem weniger GPUs und "
                                    "die schnellere Antwort gewinnen"),
    "report.optimum.why.other": ("the search picks the optimum over this setup's placement, which it does not "
                                 "check as one configuration (a pool of agents or a closed loop of users)",
                                 "die Suche wählt das Optimum statt der Platzierung dieses Setups, die sie nicht als "
                                 "eine Konfiguration prüft (ein Pool von Agenten oder eine geschlossene Schleife)"),
    "report.optimum.why.offer": ("this setup is priced at {offer}, an offer the workload does not admit (hosting, "
                                 "server location or a marketplace for critical production)",
                                 "dieses Setup ist zu {offer} bepreist, einem Angebot, das die Arbeitslast nicht "
                                 "zulässt (Hosting, Serverstandort oder ein Marktplatz für kritische Produktion)"),
    "report.optimum.why.ranked": ("the configurator ranks this setup's configuration after the optimum",
                                  "der Konfigurator reiht die Konfiguration dieses Setups nach dem Optimum ein"),
    "report.optimum.no_volume": ("The workload states no load (requests_per_day or requests_per_second; an agent's "
                                 "tasks_per_day or concurrent_users), so there is no optimum to size for it and no "
                                 "saving to state.",
                                 "Die Arbeitslast nennt keine Last (requests_per_day oder requests_per_second; bei "
                                 "einem Agenten tasks_per_day oder concurrent_users): kein Optimum, für das sie "
                                 "bemessen werden könnte, und keine Ersparnis."),
    "report.optimum.none_located": ("No configuration of the catalog {where} serves this workload, so there is no "
                                    "optimum to compare with and no saving to state.",
                                    "Keine Konfiguration des Katalogs {where} bedient diese Arbeitslast: kein "
                                    "Optimum zum Vergleich und keine Ersparnis."),
    "report.residency.ch": ("hosted in Switzerland, where this setup is,", "mit Hosting in der Schweiz, wo dieses Setup steht,"),
    "report.residency.eu": ("hosted in the EU/EEA or Switzerland, where this setup is,",
                            "mit Hosting in EU/EWR oder der Schweiz, wo dieses Setup steht,"),
    "report.residency.known": ("with a known server location", "mit bekanntem Serverstandort"),
    "report.optimum.dearer.available": (
        "The optimum for the same workload and targets, {gpu}, costs {chf} a month, more than this setup: "
        "high availability asks for the peak's replicas plus one over {domains} failure domains (separate "
        "servers or cloud instances), and this setup has one.",
        "Das Optimum für dieselbe Arbeitslast und Ziele, {gpu}, kostet {chf} pro Monat, mehr als dieses Setup: "
        "Hochverfügbarkeit verlangt die Replikate der Spitzenlast plus eines auf {domains} Ausfallbereichen "
        "(getrennte Server oder Cloud-Instanzen), und dieses Setup hat einen."),
    "report.optimum.saves": ("The optimum for the same workload and targets, {gpu} ({precision}, {chf} a month), "
                             "saves {month} a month ({share}), {horizon} over {months} months.",
                             "Das Optimum für dieselbe Arbeitslast und Ziele, {gpu} ({precision}, {chf} pro Monat), "
                             "spart {month} pro Monat ({share}), {horizon} über {months} Monate."),
    "configurator.purchase": ("purchase", "Kauf"),
    "configurator.purchase.new": ("purchase, new", "Kauf, neu"),
    "configurator.purchase.used": ("purchase, used", "Kauf, gebraucht"),
    "configurator.purchase.refurbished": ("purchase, refurbished", "Kauf, generalüberholt"),
    "severity.critical": ("✖ CRITICAL", "✖ KRITISCH"),
    "severity.warning": ("▲ WARNING", "▲ WARNUNG"),
    "severity.info": ("ℹ INFO", "ℹ INFO"),
    "severity.word.critical": ("critical", "kritisch"),
    "severity.word.warning": ("warning", "Warnung"),
    "severity.word.info": ("info", "Info"),
}
"""Key → (English, German)."""
