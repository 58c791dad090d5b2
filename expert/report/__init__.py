"""Reports of `advise` and `audit`: models, building, rendering."""
