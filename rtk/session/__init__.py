"""Session memory: what the model was already shown in one conversation context need not be paid
for again (issue 39, docs/session.md).

It owns a context's identity (per host: Claude Code's session, and within it the main agent and
each subagent apart), its boundaries (compaction, /clear, resume: the hooks' own signals and the
transcript), and what the context was shown, as fingerprints and recall ids, never a second copy:
exact repeats, re-reads and deltas of a rerun's failures. The run path and the post path hand it
the lines they are about to print (`memory.Memory`); the hook path tells it about rewrites and
boundaries (`hook`). Standard library only; it imports `rtk.paths`, `rtk.config`, `rtk.redact` and
nothing of `run/`, `agent/`, `cli/` (they import it), trio, tiktoken, sqlite or click.
"""
