"""The shapes of go's output lines."""
from __future__ import annotations

import re

PKG_OK = re.compile(r"^ok\s+(?P<pkg>\S+)\s+(?P<rest>.*)$")
PKG_NO_TESTS = re.compile(r"^\?\s+(?P<pkg>\S+)\s+\[no test files\]$")
PKG_FAIL = re.compile(r"^FAIL\s+(?P<pkg>\S+)(?:\s+(?P<rest>.*))?$")
EVENT = re.compile(r"^=== (?:RUN|PAUSE|CONT|NAME)\s+(?P<test>\S+)")
RESULT = re.compile(r"^(?P<indent>\s*)--- (?P<kind>PASS|FAIL|SKIP): (?P<test>\S+)(?: \(.*\))?$")
SECTION = re.compile(r"^# (?P<pkg>\S+)")
DIAG = re.compile(r"^(?:vet: )?(?P<file>[^\s:][^:]*\.go):(?P<line>\d+)(?::(?P<col>\d+))?: (?P<msg>.*)$")
PANIC = re.compile(r"^(?:panic: |fatal error: )")
GOROUTINE = re.compile(r"^goroutine \d+ \[")
FRAME_FILE = re.compile(r"^\t(?P<file>\S+\.(?:go|s)):(?P<line>\d+)(?: \+0x[0-9a-f]+)?$")
TEST_LOCATION = re.compile(r"^\s+(?:\S+_test\.go:\d+:|Error Trace:|Error:|Test:|Messages:)")
DOWNLOADING = re.compile(r"^go: (?:downloading|finding|extracting) ")
BENCHMARK = re.compile(r"^(?:Benchmark\S*\s+\d+\s+.*/op|goos: |goarch: |pkg: |cpu: |coverage: )")
LONE = frozenset({"PASS", "FAIL", "ok"})


def stdlib_function(func: str) -> bool:
    """A frame's function from the standard library: its import path's first element has no dot."""
    name = func.removeprefix("created by ")
    if name.startswith(("panic(", "main.")):
        return name.startswith("panic(")
    if "/" in name:
        return "." not in name.split("/", 1)[0]
    return name.split(".", 1)[0] in STDLIB_ROOTS


STDLIB_ROOTS = frozenset({
    "runtime", "testing", "reflect", "sync", "fmt", "os", "io", "bufio", "bytes", "strings",
    "strconv", "sort", "errors", "time", "net", "encoding", "context", "syscall", "math",
    "internal", "unicode", "regexp", "text", "html", "log", "path", "flag", "crypto", "go",
})
