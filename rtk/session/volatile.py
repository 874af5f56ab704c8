"""Fingerprints of an output, with only what its tool is known to vary between identical runs
normalised: durations, clock times, object addresses, pytest's numbered temp dirs. A reader's
output (a file, a diff, a status) is fingerprinted byte for byte: there a changed number is a change.

The fingerprint is a 12-hex blake2b (as recall ids are): a call is a repeat only when its
fingerprint equals one the context was shown, so an edit that changes anything but these volatile
words is never called unchanged.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from re import Pattern

DURATION = r"\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds|µs|us|ns)\b"
CLOCK = r"\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b"
ADDRESS = r"\b0x[0-9a-fA-F]{6,16}\b"
PYTEST_TMP = r"pytest-of-[^/\s]+/pytest-\d+"
GO_TMP = r"/go-build\d+/"
RUNNERS = frozenset({"pytest", "cargo", "go", "jest", "vitest", "mocha", "node", "tsc", "mypy", "pyright",
                     "ruff", "eslint", "biome", "make", "gcc", "npm", "pyrun", "prettier", "jsbuild", "pip"})
_compiled: Pattern[bytes] | None = None


def _pattern() -> Pattern[bytes]:
    global _compiled
    if _compiled is None:
        import re

        _compiled = re.compile(f"{DURATION}|{CLOCK}|{ADDRESS}|{PYTEST_TMP}|{GO_TMP}".encode())
    return _compiled


def normalised(raw: bytes, filter_name: str) -> bytes:
    """The output as compared with earlier runs: a runner's volatile words replaced by `#`."""
    if filter_name not in RUNNERS:
        return raw
    return _pattern().sub(b"#", raw)


def fingerprint(data: bytes, extra: str = "") -> str:
    try:
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover
        from hashlib import blake2b
    digest = blake2b(data, digest_size=6)
    digest.update(b"\0" + extra.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def text_fingerprint(text: str) -> str:
    """An item's body (a failure block as the filter printed it), addresses and durations aside."""
    return fingerprint(_pattern().sub(b"#", text.encode("utf-8", "surrogatepass")))
