"""The two flows that run the pipeline end to end, below the public API (`expert.api`):

- `advice`: a workload → configurator search → sizing of the choice → facts → rules → report;
- `audit`: a setup as measured → sizing of its workload → facts → rules → findings, with `audit_pool`
  for a pool of agents on shared GPUs and `audit_figures` for the figures both add.
"""
