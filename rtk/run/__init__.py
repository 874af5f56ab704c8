"""Running a command: spawn (pipes or a pty), the child's process group and job control, the fast
path for short commands, the trio session, signals, the line splitter, the pipeline rules every
filter gets (hold, never larger, crash fallback, raw tail, recall hint, the invalid-UTF-8
marker), the live status line, exit codes, and `rtk pipe` replay.

May import `rtk.filters` (registry, base), `rtk.track.accounting` (cheap hand-off), `recall`,
`config`, `paths` and `rtk.shell.words`; never the gain or cli packages, and the agent package
only in `replay` (`rtk pipe --cmd` peels a command line with the hooks' own wrapper table, so it
classifies exactly what a hook hands to `rtk`). trio is imported only by `session`.
"""
