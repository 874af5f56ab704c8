"""jq and curl: JSON under the budget exactly as printed; above it a faithful outline.

A JSON document (or jq's stream of values) up to `json_max_chars` (default 4096 characters)
passes through exactly. A larger one becomes an outline: every key of the top levels with its
type, array lengths with their first items, short scalars verbatim and long strings cut with
their length; the raw document goes to recall. Output that is not JSON (`jq -r`, HTML from
curl) passes through. For curl, progress meters, TLS and connection chatter of `-v`, request
headers and the `[N bytes data]` lines go; status lines, the request line and the response
headers an agent acts on (content-type, location, link, retry-after, rate limits, set-cookie,
...) stay, with the names of the headers left out; curl's errors stay verbatim.
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
