"""The landers (docs/acquisition.md, "Niches and landers"): one module per design."""
