"""What becomes the rule engine's input facts: raw values from the inputs and the sizing core,
which the rules compare with the documents' thresholds.

- `vocabulary`: the typed, labelled fields a rule may test (docs/facts.md is generated from it);
- `input_facts`: the workload, setup, agent and choice facts;
- `inventory`: 000 R1's agent inventory (one `agent` fact per agent of a pool);
- `precision`, `near_tie`, `sizing_notes`: the facts beside the pick (quantised options, a near tie,
  where the pick departs from a document's shortcut).
"""
