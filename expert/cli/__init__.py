"""The `gpu-expert` command line: one module per command group, wired in `main`."""
