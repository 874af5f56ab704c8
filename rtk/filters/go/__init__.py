"""go: `go test`, `go build`, `go vet`, `go install` (and `go run` through rtk) as go prints them.

Keeps: every failing test (`--- FAIL: name`) with its output (the first 50 lines and every
`x_test.go:N:` line; the rest counted and recallable; a passing test's output is
dropped, under `-v` too: it is held until the test's result is known), panics with the frames in
the user's code (runtime and testing frames counted), every `FAIL pkg` line, build and vet
diagnostics under their `# package` header (a message repeated on many lines of one file is
listed once with its locations), and one summary of the package lines with exact counts
(`go test: 9 ok, 2 FAIL, 5 without tests`). Drops: `=== RUN/PAUSE/CONT/NAME`, `--- PASS`,
`PASS`, `ok` and `?` package lines (counted). Never adds flags: parses what go printed.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves(
    "go",
    "go test|build|vet|install [packages], go run (not routed by hooks)",
    (Words(("go",), ("test", "build", "vet", "install")),
     Words(("go",), ("run",), rewrite=False)),  # a program's own output, maybe interactive: never routed
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.go.filter import GoFilter

    return GoFilter(ctx)
