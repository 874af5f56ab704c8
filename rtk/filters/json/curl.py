"""curl: the response an agent reads, without the transfer's chatter.

Dropped: the progress meter (its two header lines and every redraw, also when 2>&1 glued it to
the body), `-v` connection/TLS lines (`* ...`, kept when they report an error), request headers
(`> ...`, the request line itself stays), `{ [5 bytes data]` markers, and response headers an
agent does not act on (their names are listed on one line). Kept: every status line, the
headers in KEEP_HEADERS, curl's own errors (`curl: (22) ...`), and the body: JSON through the
same budget and outline as jq, anything else as printed.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from rtk.filters.base import BaseFilter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.json.body import JsonBody

KEEP_HEADERS = ("content-type", "content-length", "content-encoding", "content-disposition",
                "location", "link", "www-authenticate", "retry-after", "allow", "set-cookie", "etag",
                "last-modified", "x-ratelimit", "ratelimit", "x-rate-limit", "deprecation", "sunset",
                "warning", "x-error", "proxy-authenticate")
STATUS_RE = re.compile(r"^HTTP/[\d.]+ \d{3}")
METER_HEAD = ("  % Total", "                                 Dload")
METER_RE = re.compile(
    r"^\s*\d{1,3}\s+[\d.]+[kMGTP]?\s+\d{1,3}\s+[\d.]+[kMGTP]?\s+\d{1,3}\s+[\d.]+[kMGTP]?\s+"
    r"[\d.]+[kMGTP]?\s+[\d.]+[kMGTP]?\s+(?:--:--:--|[\d:]+)\s+(?:--:--:--|[\d:]+)\s+(?:--:--:--|[\d:]+)\s+"
    r"[\d.]+[kMGTP]?")
DATA_RE = re.compile(r"^[{}] \[\d+ bytes data\]$")
VERBOSE_ERROR_RE = re.compile(r"(?i)error|fail|could not|couldn't|refused|timed out|not resolve|problem")
BUDGET = 4096


class CurlFilter(BaseFilter):
    lossless = True

    def __init__(self, ctx: FilterContext) -> None:
        super().__init__(ctx)
        self.verbose, self.include = _modes(ctx.argv[1:])
        self.body = JsonBody(ctx.limit("json_max_chars", BUDGET), ctx.limit("output_max_chars", 0) or None)
        self.in_headers = False
        self.dropped: list[str] = []
        self.json: bool | None = None  # decided by the body's first character
        self.last_meter = ""  # printed at the end when nothing else was (`-o file`)
        self.printed = False

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line)
        meter = METER_RE.match(text)
        if meter is not None:
            self.last_meter = text[:meter.end()].strip()
            text = text[meter.end():]
            if not text:
                return ()
        out = self._classify(line, text, stream)
        self.printed |= bool(out)
        return out

    def _classify(self, line: str, text: str, stream: Stream) -> Iterable[Line]:
        if text.startswith(METER_HEAD):
            return ()
        if text.startswith("curl: ("):
            self.failure_seen = True
            return (Line(text, stream),)
        if self.verbose:
            out = self._verbose(text, stream)
            if out is not None:
                return out
        if self.include and (STATUS_RE.match(text) or self.in_headers):
            return self._header(text, stream, "")
        return self._body(line, text, stream)

    def _verbose(self, text: str, stream: Stream) -> Iterable[Line] | None:
        """`-v` lines (`* ...`, `> ...`, `< ...`, `{ [5 bytes data]`), or None for the body."""
        if DATA_RE.match(text):
            return ()
        if text.startswith(("* ", "*  ")):
            return (Line(text, stream),) if VERBOSE_ERROR_RE.search(text) else ()
        if text.startswith(("> ", ">")) and (text.startswith("> ") or text == ">"):
            return self._request(text, stream)
        if text.startswith("< ") or text == "<":
            return self._header(text[2:], stream, "< ")
        return None

    def _request(self, text: str, stream: Stream) -> Iterable[Line]:
        request_line = re.match(r"^> [A-Z]+ \S+ HTTP/", text)
        return (Line(text, stream),) if request_line else ()

    def _header(self, text: str, stream: Stream, prefix: str) -> list[Line]:
        if STATUS_RE.match(text):
            self.in_headers = True
            return [*self._dropped_line(prefix, stream), Line(prefix + text, stream)]
        if not text.strip():
            self.in_headers = False
            return self._dropped_line(prefix, stream)
        name = text.split(":", 1)[0].strip().lower()
        if name.startswith(KEEP_HEADERS):
            return [Line(prefix + text, stream)]
        self.dropped.append(name)
        return []

    def _dropped_line(self, prefix: str, stream: Stream) -> list[Line]:
        if not self.dropped:
            return []
        names, self.dropped = self.dropped, []
        return [Line(f"{prefix}[{len(names)} more headers: {', '.join(names)}]", stream)]

    def _body(self, line: str, text: str, stream: Stream) -> Iterable[Line]:
        if self.json is None:
            if not text.strip():
                return (Line(line, stream),)
            self.json = text.lstrip()[:1] in ("{", "[")
        return self.body.add(text, stream) if self.json else (Line(line, stream),)

    def finish(self, exit_code: int) -> Iterable[Line]:
        lines, self.elided = self.body.close()
        out = [*self._dropped_line("", Stream.STDOUT), *lines]
        if not out and not self.printed and self.last_meter:
            out.append(Line(f"curl: transfer {self.last_meter}", Stream.STDERR))
        return out


def _modes(args: list[str] | tuple[str, ...]) -> tuple[bool, bool]:
    """(verbose, headers on stdout): only then do `* `/`> `/`< ` and status lines belong to curl;
    otherwise they are the body's own (a Markdown list, a quote)."""
    verbose = include = False
    for i, arg in enumerate(args):
        if arg in ("-v", "--verbose") or arg.startswith("--trace"):
            verbose = True
        elif arg in ("-i", "--include", "-I", "--head") or arg in ("-D", "--dump-header") and args[i + 1:i + 2] == ["-"]:
            include = True
        elif arg.startswith("-") and not arg.startswith("--"):
            verbose |= "v" in arg[1:]
            include |= "i" in arg[1:] or "I" in arg[1:]
    return verbose, include


def create_curl(ctx: FilterContext) -> BaseFilter:
    return CurlFilter(ctx)
