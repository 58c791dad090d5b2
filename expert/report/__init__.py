"""Reports of `advise` and `audit`: models, building, rendering, and how figures are written for
people (`numbers`, also used by the configurator's reasons and the chat's cards)."""
