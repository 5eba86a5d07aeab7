"""Third-party evaluation sets for bench/eval_safety.py: loaders only, no data copies
(except small_subset.json, see small.py)."""
