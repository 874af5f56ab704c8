"""Filters: what rtk keeps of a command's output, one package per tool, and the registry.

Owns the Filter protocol and the helpers every filter shares (`base.py`), the matcher data types
a filter declares what it serves with (`serves.py`), the launchers looked through before matching
(`launchers.py`), the registry that collects every package's declaration (`registry.py`), and
one package per filter (`git/`, `pytest/`, ...): its `__init__.py` holds `SERVES` and
`create(ctx)` and imports nothing but `serves`; the parsing lives beside it. Filters are sans-I/O
and import nothing of rtk outside `rtk.filters`; this package imports nothing at all, so the hook
path can read the declarations cheaply.
"""
