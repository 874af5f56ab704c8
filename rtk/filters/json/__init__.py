"""jq and curl: JSON as it was asked for; above a size, an outline that keeps its values.

Printed exactly: a document up to `json_max_chars` (default 4096 characters); a flat list of
names or numbers (`jq keys`, `jq '.versions | keys'`) up to 32 KB, since each item is what was
asked for; and a document up to 8 KB whose outline would not be clearly smaller (an API object
of scalars). Anything larger becomes an outline (outline.py) drawn at the most detailed level
that fits a room growing with the document (3/4 of a small one, 6,000 chars plus a 16th of a
large one, 4-16 KB; under a host's char limit, less than it): every top-level key, scalars as
values, arrays with their counts and samples of their first and last items, a long list one item
per line from both ends with the count between; the raw document goes to recall. Output that
is not JSON (`jq -r`, HTML from curl) passes through. For curl, progress meters, TLS and
connection chatter of `-v`, request headers and the `[N bytes data]` lines go; status lines,
the request line and the response headers an agent acts on (content-type, location, link,
retry-after, rate limits, set-cookie, ...) stay, with the names of the headers left out; curl's
errors stay verbatim.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves("json", "jq [options] filter [files], curl [options] URL (JSON bodies, headers)",
                (Words(("jq", "curl")),))


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.json.filter import create as build

    return build(ctx)
