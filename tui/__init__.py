"""The Textual chat app of `gpu-expert chat`.

- `app`: `GpuExpertApp` and `run_app` (called by `expert.cli.chat`).
- `session`: the interview/audit state, saving, loading and autosave (no Textual).
- `commands`: slash commands and free-text what-if edits (no Textual).
- `advisor`: lazy access to the advice pipeline (`expert.api`), loaded after the first screen.
- `costs`: cumulative rent-versus-buy series and the Unicode bar chart (no Textual).
- `widgets`, `screens`: one small widget per bubble kind; the chat, help, cost and resume screens.
"""
