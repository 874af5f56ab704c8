"""The human-facing verbs: one module per verb, each parsing its options and printing results.

`group.py` holds the click group and attaches every verb; `rewrite.py` is a hot path (run by hooks
before every agent command) and does not use click. Verbs may import any subsystem; no subsystem
imports this package. This `__init__` imports nothing, so `rtk rewrite` stays cheap.
"""
