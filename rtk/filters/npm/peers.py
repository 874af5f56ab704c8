"""npm's ERESOLVE blocks: a peer-dependency conflict said in one line.

`npm warn ERESOLVE overriding peer dependency` (an install with --force or --legacy-peer-deps
carries on) prints 15 lines per conflict; one line keeps who wants what and what was found:
`peer conflict (overridden): react-dom@18.3.1 wants react@"^18.3.1", found react@17.0.2`. An
`npm error ERESOLVE` block (the install stopped) is kept in full, and the same line is added
after it, so the conflict is explained as well as reported.
"""
from __future__ import annotations

import re

START = re.compile(r"^npm (?P<level>warn|error|WARN|ERR!) (?:code )?ERESOLVE\b")
BODY = re.compile(r"^npm (?:warn|error|WARN|ERR!)(?:\s*$| (?:While resolving:|Found:|node_modules/|\s+\S+@\"|"
                  r"Could not resolve dependency:|peer |Conflicting peer dependency:|\s+\d+ more \(|\s+node_modules/|"
                  r"Fix the upstream|ERESOLVE|\s+(?:(?:peer|dev|optional) )?\S*@.* from ))")
FOUND = re.compile(r" Found: (?P<pkg>\S+)")
WANTS = re.compile(r" peer (?P<want>\S+(?: \|\| \S+)*) from (?P<by>\S+)")
RESOLVING = re.compile(r" While resolving: (?P<pkg>\S+)")


class PeerConflict:
    """One ERESOLVE block being read."""

    def __init__(self, level: str) -> None:
        self.error = level in ("error", "ERR!")
        self.found = ""
        self.wants = ""
        self.by = ""
        self.resolving = ""

    def read(self, text: str) -> bool:
        """Whether `text` belongs to this block (it is then taken in)."""
        if START.match(text) and (self.found or self.wants):
            return False  # the next conflict's block
        if not BODY.match(text) and not START.match(text):
            return False
        if (found := FOUND.search(text)) is not None and not self.found:
            self.found = found["pkg"]
        if (wants := WANTS.search(text)) is not None and not self.wants:
            self.wants, self.by = wants["want"], wants["by"]
        if (resolving := RESOLVING.search(text)) is not None:
            self.resolving = resolving["pkg"]
        return True

    def explained(self) -> str:
        who = self.by or self.resolving or "a package"
        wanted = f" wants {self.wants}" if self.wants else ""
        found = f", found {self.found}" if self.found else ""
        state = "" if self.error else " (overridden)"
        return f"peer conflict{state}: {who}{wanted}{found}"
