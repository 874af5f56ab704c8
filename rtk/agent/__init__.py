"""Everything that talks to an AI agent host: the rewrite engine (command -> rtk form, exit
0/1/2/3), the hosts' permission rules, one adapter per host, the `rtk hook` entry point with its
audit log, and `rtk init` (install/). Runs before every agent command: standard library only, may
import `rtk.shell`, the filter registry (declarations only), `config` and `paths`; never `rtk.run`,
trio, tiktoken, sqlite3, click, `re` or `typing` on the hook path.
"""
