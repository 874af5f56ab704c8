"""Running a command: spawn (pipes or a pty), the fast path for short commands, the trio session,
signals, the line splitter, the pipeline rules every filter gets (hold, never larger, crash
fallback, raw tail, recall hint), the live status line, exit codes, and `rtk pipe` replay.

May import `rtk.filters` (registry, base), `rtk.track.accounting` (cheap hand-off), `recall`,
`config` and `paths`; never the agent, gain or cli packages. trio is imported only by `session`.
"""
