"""jq and curl: exact under the budget, an outline above it, curl's chatter dropped."""
from __future__ import annotations

import json
from collections.abc import Sequence

from rtk.filters.base import FilterContext, Stream
from rtk.filters.json import create
from rtk.filters.json.body import parse_values
from rtk.filters.json.filter import PassFilter
from rtk.filters.json.outline import outline, summary

DOC = {"name": "ms", "versions": {f"2.{i}.0": {"name": "ms", "version": f"2.{i}.0", "dist": {"shasum": "x" * 40}}
                                  for i in range(30)},
       "keywords": ["ms", "time", "convert"], "readme": "# ms\n" * 200}


def run(argv: Sequence[str], lines: Sequence[str], limits: dict[str, int] | None = None):  # type: ignore[no-untyped-def]
    filt = create(FilterContext(tuple(argv), True, limits or {}))
    out = [ln.text for line in lines for ln in filt.feed(line, Stream.STDOUT)]
    return filt, out + [ln.text for ln in filt.finish(0)]


def test_small_json_passes_exactly() -> None:
    lines = json.dumps({"a": 1, "b": [1, 2]}, indent=2).splitlines()
    filt, out = run(["jq", "."], lines)
    assert out == lines and not filt.elided


def test_big_json_becomes_an_outline_with_every_top_level_key() -> None:
    filt, out = run(["jq", "."], json.dumps(DOC, indent=2).splitlines())
    text = "\n".join(out)
    assert out[0].startswith("JSON outline (") and filt.elided
    for key in ("name: \"ms\"", "versions: {30 keys}", "keywords: [3 strings]", "readme: \"# ms"):
        assert key in text
    assert "2.0.0, 2.1.0" in text and "2.29.0" in text and "(1,000 chars)" in text


def test_outline_of_arrays_shows_first_and_last_items() -> None:
    lines = outline([{"v": i, "deps": None} for i in range(5)])
    assert lines[0] == "[5 objects]" and "  [0]: {2 keys}" in lines and "  [4]: {2 keys}" in lines
    assert "  ... 3 more, same keys" in lines
    assert summary([]) == "[]" and summary({}) == "{}"


def test_a_stream_of_values_and_not_json() -> None:
    assert parse_values('{"a":1}\n{"a":2}\n') == [{"a": 1}, {"a": 2}]
    assert parse_values("parse error: Invalid numeric literal at line 1") is None


def test_a_long_string_value_is_content_not_shape() -> None:
    lines = [json.dumps("x" * 10000)]
    filt, out = run(["jq", ".info.description"], lines)
    assert out == lines and not filt.elided


def test_raw_output_passes_through() -> None:
    filt, _ = run(["jq", "-r", ".info.summary"], ["Python HTTP for Humans."])
    assert isinstance(filt, PassFilter)


def test_curl_verbose_keeps_status_request_line_useful_headers_and_body() -> None:
    lines = ["  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current",
             "*   Trying 203.0.113.80:443...", "* TLSv1.3 (OUT), TLS handshake, Client hello (1):",
             "} [512 bytes data]", "> GET /ms/latest HTTP/2", "> Host: registry.npmjs.org", "> accept: */*", ">",
             "< HTTP/2 200 ", "< content-type: application/json", "< date: Tue, 01 Dec 2026 15:22:28 GMT",
             "< server: cloudflare", "<", "{ [847 bytes data]",
             "100   847  100   847    0     0   8182      0 --:--:-- --:--:-- --:--:--  8303",
             '{"name": "ms", "version": "2.1.3"}']
    _, out = run(["curl", "-v", "https://registry.npmjs.org/ms/latest"], lines)
    assert out == ["> GET /ms/latest HTTP/2", "< HTTP/2 200 ", "< content-type: application/json",
                   "< [2 more headers: date, server]", '{"name": "ms", "version": "2.1.3"}']


def test_curl_errors_and_a_meter_glued_to_the_body() -> None:
    filt, out = run(["curl", "-sf", "https://pypi.org/pypi/nosuch/json"],
                    ["curl: (22) The requested URL returned error: 404"])
    assert out == ["curl: (22) The requested URL returned error: 404"] and filt.failure_seen
    meter = "  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0"
    _, out = run(["curl", "https://x/y.json"], [meter + '{"a": 1}'])
    assert out == ['{"a": 1}']


def test_without_v_or_i_a_body_keeps_its_bullets_quotes_and_status_like_lines() -> None:
    lines = ["# Notes", "* first point", "> a quote", "< angle", "HTTP/1.1 200 is the status line", "", "end"]
    _, out = run(["curl", "-s", "https://example.org/README.md"], lines)
    assert out == lines


def test_curl_to_dev_null_still_says_what_was_transferred() -> None:
    meter = "100 93124  100 93124    0     0  3623k      0 --:--:-- --:--:-- --:--:-- 3637k"
    _, out = run(["curl", "-o", "/dev/null", "https://x"], [meter])
    assert out == [f"curl: transfer {meter}"]


def test_a_list_of_keys_is_printed_whole() -> None:
    names = [f"node_modules/package-number-{i}" for i in range(300)]  # 12 KB: over the exact budget
    filt, out = run(["jq", ".packages | keys", "package-lock.json"], json.dumps(names, indent=2).splitlines())
    assert out == json.dumps(names, indent=2).splitlines() and not filt.elided


def test_a_long_list_keeps_its_start_end_and_count() -> None:
    names = [f"node_modules/package-number-{i}" for i in range(3000)]
    filt, out = run(["jq", "keys"], json.dumps(names, indent=2).splitlines())
    assert out[1] == "[3,000 strings]" and out[2] == '  "node_modules/package-number-0"' and filt.elided
    assert out[-1] == '  "node_modules/package-number-2999"' and any(line.endswith(" more") for line in out)


def test_an_api_object_of_scalars_is_printed_whole() -> None:
    repo = {f"field_{i}_url": f"https://api.github.com/repos/o/r/{i}/{'x' * 30}" for i in range(80)}
    lines = json.dumps(repo, indent=2).splitlines()  # 7 KB whose outline would be as long
    filt, out = run(["curl", "-s", "https://api.github.com/repos/o/r"], lines)
    assert out == lines and not filt.elided


def test_the_outline_grows_with_the_document() -> None:
    def doc(n: int) -> list[str]:
        return json.dumps({"versions": {f"1.{i}.0": {"version": f"1.{i}.0", "deps": {"a": "^1"}}
                                        for i in range(n)}}, indent=2).splitlines()

    small = "\n".join(run(["jq", "."], doc(60))[1])
    large = "\n".join(run(["jq", "."], doc(3000))[1])
    assert small.startswith("JSON outline") and large.startswith("JSON outline")
    assert len(large) > 3 * len(small) and "1.199.0, ... 2,600 more, 1.2800.0" in large  # 400 keys named, not 80


def test_under_a_host_limit_the_outline_fits() -> None:
    big = {f"key{i}": {"value": "v" * 50, "n": i} for i in range(5000)}
    _, out = run(["jq", "."], json.dumps(big).splitlines(), {"output_max_chars": 30_000})
    assert sum(len(line) + 1 for line in out) < 30_000
