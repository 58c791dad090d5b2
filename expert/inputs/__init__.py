"""What a user hands the expert, read and checked before anything is sized.

- `workload`: the workload file (input of `advise`), with its optional `agent:` block (`agent_block`)
  and a pool's per-agent views (`pools`);
- `setup_file`: the setup file (input of `audit`), an existing deployment as measured;
- `slo`: the latency targets a workload states, and the load to size for;
- `request_fit`: whether one request fits the stated context and the model's maximum (workload and `estimate`);
- `load`, `validation`: reading a file, its JSON Schema and model validation, one clear `InputError`;
- `schemas`: the JSON Schemas of every file a user writes or reads (`python -m expert.inputs.schemas`).
"""
