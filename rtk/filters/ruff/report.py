"""Findings as ruff's concise lines (`path:line:col: CODE message`), and the closing count by rule.

Every location keeps ruff's own `path:line:col`, the string an agent or editor jumps to. ruff
sorts its findings by file, so a file's findings are printed as soon as ruff moves on to the
next file. Findings of one file without a code frame that share code and message share one line
listing their locations; with frames, a message repeated word for word in the same file is
printed once and later ones say `(same)`, and a rule's `help:` is printed at its first finding.
"""
from __future__ import annotations

from collections import Counter

from rtk.filters.ruff.lines import Finding

TOP_RULES = 10
PER_LINE = 20


class Report:
    def __init__(self) -> None:
        self.path: str | None = None
        self.findings: list[Finding] = []
        self.rules: Counter[str] = Counter()
        self.files = 0
        self.total = 0

    def add(self, finding: Finding) -> list[str]:
        out = self.flush() if finding.path != self.path else []
        self.path = finding.path
        self.findings.append(finding)
        return out

    def flush(self) -> list[str]:
        if not self.findings:
            return []
        out = self._render(self.findings)
        self.files += 1
        self.total += len(self.findings)
        self.findings = []
        self.path = None
        return out

    def _render(self, findings: list[Finding]) -> list[str]:
        out: list[str] = []
        seen: set[tuple[str, str]] = set()
        helped: set[str] = set()
        for group in _merge(findings):
            f = group[0]
            self.rules[f.code] += len(group)
            where = " ".join(f"{g.path}:{g.line}:{g.col}" for g in group)
            out.extend(self._finding(f, where, (f.code, f.message) in seen, f.code in helped))
            seen.add((f.code, f.message))
            helped.add(f.code)
        return out

    @staticmethod
    def _finding(f: Finding, where: str, repeated: bool, helped: bool) -> list[str]:
        out = [f"{where}: {f.code} {'(same)' if repeated else f.message}"]
        if f.source:
            out.append(f"    | {f.source}")
        if f.help and not helped:
            out.append(f"    help: {f.help}")
        return out

    def summary(self) -> str:
        if not self.total:
            return ""
        top = ", ".join(f"{code} x{n:,}" for code, n in self.rules.most_common(TOP_RULES))
        more = len(self.rules) - TOP_RULES
        tail = f", +{more} more rules" if more > 0 else ""
        noun = "finding" if self.total == 1 else "findings"
        files = "file" if self.files == 1 else "files"
        return f"ruff: {self.total:,} {noun} in {self.files:,} {files} ({top}{tail})"


def _merge(findings: list[Finding]) -> list[list[Finding]]:
    """Findings without a code frame and with the same code and message share one line (in the
    order of the first); a finding with its marked source line stays on its own."""
    groups: dict[tuple[str, str], list[Finding]] = {}
    order: list[list[Finding]] = []
    for f in findings:
        key = (f.code, f.message)
        if f.source or key not in groups or len(groups[key]) >= PER_LINE:
            order.append([f])
            if not f.source:
                groups[key] = order[-1]
            continue
        groups[key].append(f)
    return order
