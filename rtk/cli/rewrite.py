"""`rtk rewrite [--explain] [--host NAME] CMD...`: the rewrite engine's shell interface.

stdout is the rewrite without a trailing newline (exit 0 or 3) or nothing (exit 1 or 2), as the
Rust rtk's scripts expect. The host defaults to claude: its settings are the ones the spec's
examples are stated with. Standard library only, no click.
"""
from __future__ import annotations

import sys

from rtk.agent.rewrite import DISABLED_REASON, decide

HOSTS = ("claude", "cursor", "gemini", "codex", "copilot", "none")
USAGE = f"usage: rtk rewrite [--explain] [--host {'|'.join(HOSTS)}] [--] COMMAND..."


def main(args: list[str]) -> int:
    explain, host, rest = False, "claude", list(args)
    while rest and rest[0].startswith("--"):
        opt = rest.pop(0)
        if opt == "--":
            break
        if opt == "--explain":
            explain = True
        elif opt == "--help":
            print(USAGE)
            return 0
        elif opt == "--host" and rest:
            host = rest.pop(0)
        elif opt.startswith("--host="):
            host = opt.split("=", 1)[1]
        else:
            rest.insert(0, opt)
            break
    if host not in HOSTS:
        print(f"rtk: unknown host {host!r} (expected one of {', '.join(HOSTS)})", file=sys.stderr)
        return 1
    decision = decide(" ".join(rest), None if host == "none" else host)
    if explain:
        for reason in decision.reasons:
            print(reason)
        print(f"exit {decision.code}" + (f": {decision.command}" if decision.command else ""))
        return decision.code
    if any(reason.startswith(DISABLED_REASON) for reason in decision.reasons):
        print(f"rtk: not rewritten: {DISABLED_REASON}", file=sys.stderr)
    sys.stdout.write(decision.command)
    sys.stdout.flush()
    return decision.code
