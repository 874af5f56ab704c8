"""What npm, pnpm, yarn and bun print when they install, add, remove or update packages.

Kept: the result lines (`added 60 packages in 4s`, `up to date, audited 61 packages`, pnpm's
`Packages: +77` and `+ express 4.21.2`, yarn's `success Saved 85 new dependencies.` and its direct
dependencies, bun's `installed express@4.21.2` and `75 packages installed`), the audit verdict
(`found 0 vulnerabilities`, `7 vulnerabilities (2 moderate, 5 high)` and its `npm audit fix`
hint), every warning about peer dependencies (npm's ERESOLVE blocks in one line each, see
peers.py), every error in full with its hint (`npm error`,
`ERR_PNPM_*` blocks, yarn `error`, bun `error:`); deprecations grouped by package on one line each
(`deprecated: glob@7.2.3, 8.1.0: Glob versions prior to v9 are no longer supported`) and
install scripts that were not run, on one line with their package names.
Dropped (noise): progress (`Progress: resolved ...`, `[1/4] Resolving packages...`, `+++++`),
store paths, funding and `npm notice` update nags, yarn's full dependency tree (`info All dependencies` and its `├─` lines:
counted), `npm ci`'s usage text after its error (elided), timing and `http fetch` lines.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from rtk.filters.base import Line, Stream
from rtk.filters.npm.peers import START, PeerConflict

_NOISE_PATTERNS = (
    r"^Progress: resolved \d+", r"^Packages are (?:hard linked|copied|cloned)", r"^\s+Content-addressable store is at:",
    r"^\s+Virtual store is at:", r"^[+-]{3,}\s*$", r"^\? Verifying lockfile", r"^✓ Lockfile passes supply-chain",
    r"^Lockfile is up to date, resolution step is skipped", r"^\[\d/\d\] ", r"^info No lockfile found\.",
    r"^success Saved lockfile\.", r"^info Visit https://yarnpkg\.com/", r"^\d+ packages? (?:is|are) looking for funding",
    r"^\s+run `npm fund` for details",
    r"^(?:bun (?:add|install|remove|update) v\d|Resolving dependencies$|Resolved, downloaded and extracted \[\d+\]|Saved lockfile$)", r"^npm (?:http fetch|timing|sill|verb) ",
    r"^(?:yarn (?:install|add|remove|upgrade|run) v\d)", r"^➤ YN0000: (?:┌|└|│)", r"^npm notice\b",
    r"^npm (?:warn|error) install-scripts\s*$", r"^Downloading \S+ \d",
)
NOISE = re.compile("|".join(_NOISE_PATTERNS))
DEPRECATED = re.compile(r"^(?:npm warn|npm WARN|warning|\s*WARN)\s+(?:deprecated )?(?:\S+ > )*(?P<pkg>(?:@[^@\s/]+/)?[^@\s:]+)"
                        r"@(?P<version>[^:\s]+): (?P<message>.*)$")
DEPRECATED_HINT = re.compile(r"\bdeprecated\b|\bno longer supported\b|\bunsupported\b", re.IGNORECASE)
SCRIPTS_HEAD = re.compile(r"^npm warn install-scripts \d+ packages? (?:has|have) install scripts not yet covered")
SCRIPTS_ITEM = re.compile(r"^npm warn install-scripts\s+(?P<pkg>\S+@\S+) \(")
SCRIPTS_TAIL = re.compile(r"^npm warn install-scripts Run `(?P<hint>[^`]+)`")
YARN_ALL = re.compile(r"^info All dependencies\s*$")
TREE_ITEM = re.compile(r"^[├└│]─ ")
AVAILABLE = re.compile(r" \([\w.+-]+ is available\)$")  # pnpm: `+ vitest 4.1.12 (5.1.2 is available)`
USAGE = re.compile(r"^npm error (?:Usage:|Options:|aliases:|Run \"npm help)")
LOCK_SYNC = re.compile(r"^npm (?:error|ERR!) (?P<kind>Missing|Invalid): ")  # `npm ci`: which lock entries are wrong
LOCK_SAMPLE = 10  # of each kind; the rest are counted
ERRORISH = re.compile(r"^(?:npm (?:error|ERR!)|error\b|Error: ERR_PNPM|ERR_PNPM|\s+ERR_PNPM|error:|\s*×|➤ YN0001)")
_NOTHING: tuple[Line, ...] = ()


class PackageManagerOutput:
    """The package-manager part of a run: fed lines, returns what to print; summary at the end."""

    def __init__(self) -> None:
        self.failure_seen = False
        self.elided = False
        self._deprecations: dict[tuple[str, str], list[str]] = {}
        self._scripts: list[str] = []
        self._scripts_hint = ""
        self._tree = 0
        self._in_tree = False
        self._in_usage = False
        self._usage_next = False
        self._peer: PeerConflict | None = None
        self._said = False
        self._lock_lines: dict[str, int] = {}  # `Missing:` / `Invalid:` lines seen, by kind

    def feed(self, text: str, stream: Stream) -> Iterable[Line]:
        if (sync := LOCK_SYNC.match(text)) is not None:
            return self._lock_line(sync["kind"], text, stream)
        if self._lock_lines:
            return [*self._lock_counts(stream), *self._feed(text, stream)]
        return self._feed(text, stream)

    def _lock_line(self, kind: str, text: str, stream: Stream) -> Iterable[Line]:
        """`npm ci` on an out-of-sync lock file: the first lines of each kind, the rest counted."""
        self.failure_seen = True
        seen = self._lock_lines[kind] = self._lock_lines.get(kind, 0) + 1
        if seen <= LOCK_SAMPLE:
            return (Line(text, stream),)
        self.elided = True
        return _NOTHING

    def _lock_counts(self, stream: Stream = Stream.STDOUT) -> list[Line]:
        counts, self._lock_lines = self._lock_lines, {}
        return [Line(f"npm error ... {seen - LOCK_SAMPLE:,} more \"{kind}:\" lines ({seen:,} in all)", stream)
                for kind, seen in counts.items() if seen > LOCK_SAMPLE]

    def _feed(self, text: str, stream: Stream) -> Iterable[Line]:
        if self._in_tree and TREE_ITEM.match(text):
            self._tree += 1
            return _NOTHING
        self._in_tree = False
        if not text.strip() or NOISE.search(text):
            return _NOTHING
        if YARN_ALL.match(text):
            self._in_tree = True
            return _NOTHING
        if self._install_scripts(text):
            return _NOTHING
        if self._peer is not None or START.match(text):
            return self._peer_line(text, stream)
        if (dep := DEPRECATED.match(text)) is not None and DEPRECATED_HINT.search(text):
            key = (dep["pkg"], dep["message"].strip())
            self._deprecations.setdefault(key, []).append(dep["version"])
            return _NOTHING
        return self._error_or_other(text, stream)

    def _peer_line(self, text: str, stream: Stream) -> list[Line]:
        """An ERESOLVE block: a warning becomes one line, an error is kept and explained."""
        if self._peer is not None and self._peer.read(text):
            error = self._peer.error
            return [Line(text, stream)] if error and text.strip() not in ("npm error", "npm ERR!") else []
        out = self._close_peer(stream)
        if (start := START.match(text)) is not None:
            self._peer = PeerConflict(start["level"])
            self._peer.read(text)
            self.failure_seen = self.failure_seen or self._peer.error
            out.extend([Line(text, stream)] if self._peer.error else [])
            return out
        out.extend(self._error_or_other(text, stream))
        return out

    def _close_peer(self, stream: Stream = Stream.STDOUT) -> list[Line]:
        peer, self._peer = self._peer, None
        if peer is None:
            return []
        if not peer.error:
            self.elided = True
        return [Line(peer.explained(), stream)]

    def _install_scripts(self, text: str) -> bool:
        if SCRIPTS_HEAD.match(text):
            return True
        if (item := SCRIPTS_ITEM.match(text)) is not None:
            self._scripts.append(item["pkg"])
            return True
        if (tail := SCRIPTS_TAIL.match(text)) is not None:
            self._scripts_hint = tail["hint"]
            return True
        return False

    def _error_or_other(self, text: str, stream: Stream) -> Iterable[Line]:
        if text.startswith("npm error") and USAGE.match(text):
            self._in_usage = True
        if self._in_usage and text.startswith("npm error"):
            if "A complete log of this run" in text:
                self._in_usage = False
                return (Line(text, stream),)
            self.elided = True
            return _NOTHING
        if ERRORISH.match(text):
            self.failure_seen = True
        if text == "npm error code EUSAGE":
            self._usage_next = True  # the usage text follows the message's paragraph
        elif self._usage_next and text.strip() in ("npm error", "npm ERR!") and self._said:
            self._in_usage = True
            return _NOTHING
        elif self._usage_next and text.startswith("npm error "):
            self._said = True
        if (available := AVAILABLE.search(text)) is not None:
            text = text[:available.start()]
        if text.strip() in ("npm error", "npm ERR!"):
            return _NOTHING  # the blank separators inside an error block
        return (Line(text, stream),)

    def summary(self) -> list[Line]:
        out = [*self._lock_counts(), *self._close_peer()]
        for (pkg, message), versions in self._deprecations.items():
            out.append(Line(f"deprecated: {pkg}@{', '.join(dict.fromkeys(versions))}: {message}"))
        if self._scripts:
            hint = f" (run `{self._scripts_hint}`)" if self._scripts_hint else ""
            out.append(Line(f"install scripts not run: {', '.join(self._scripts)}{hint}"))
        if self._tree:
            self.elided = True
            out.append(Line(f"({self._tree:,} dependencies in yarn's full list not shown)"))
        return out
