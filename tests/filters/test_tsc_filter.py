"""The tsc filter line by line: streaming per file, watch cycles, message chains, passthrough.

Inputs are the real captures under fixtures/tsc/ (fed one line at a time, as the runner does),
so these tests check *when* lines come out as well as what the golden files already pin down.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from rtk.filters.base import FilterContext, Line, Stream, strip_ansi
from rtk.filters.registry import classify
from rtk.filters.tsc import create
from rtk.filters.tsc.filter import TscFilter
from rtk.run.splitter import LineSplitter

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "tsc"


def raw_lines(case: str) -> list[str]:
    splitter = LineSplitter()
    lines = splitter.feed((FIXTURES / case / "raw.txt").read_bytes())
    return lines + splitter.flush()


def texts(lines: list[Line]) -> list[str]:
    return [line.text for line in lines]


def run(lines: list[str], exit_code: int = 2, argv: tuple[str, ...] = ("tsc",)) -> tuple[TscFilter, list[str]]:
    filt = create(FilterContext(argv))
    out: list[Line] = []
    for line in lines:
        out.extend(filt.feed(line, Stream.STDOUT))
    out.extend(filt.finish(exit_code))
    return filt, texts(out)


def feed_each(filt: TscFilter, lines: list[str]) -> list[list[str]]:
    """What each fed line released, in order."""
    return [texts(list(filt.feed(line, Stream.STDOUT))) for line in lines]


# --- streaming ---------------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["rxjs_plain", "rxjs_pretty"])
def test_a_files_group_is_printed_when_the_errors_move_on_to_the_next_file(case: str) -> None:
    lines = raw_lines(case)
    take = next(i for i, line in enumerate(lines) if "src/internal/operators/take.ts" in strip_ansi(line))
    released = feed_each(create(FilterContext(("tsc",))), lines[:take + 1])
    before, at_take = [t for chunk in released[:take] for t in chunk], released[take]
    assert "src/internal/operators/reduce.ts" not in before  # reduce.ts still open before take.ts
    assert at_take[0] == "src/internal/operators/reduce.ts"
    assert any(t.startswith("  L68:14 TS2739 ") for t in at_take)
    assert not any("take.ts" in t for t in at_take)


def test_earlier_files_are_out_long_before_the_end() -> None:
    lines = raw_lines("zod_es5_500_errors_plain")
    filt = create(FilterContext(("tsc",)))
    released = [t for chunk in feed_each(filt, lines[: len(lines) // 2]) for t in chunk]
    assert "src/v3/types.ts" in released
    assert "tsc:" not in " ".join(released)  # the summary waits for the end


# --- watch mode --------------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["watch_plain", "watch_tty_pretty"])
def test_each_watch_cycle_is_summarised_when_its_found_line_arrives(case: str) -> None:
    lines = raw_lines(case)
    filt = create(FilterContext(("tsc", "--watch")))
    released = feed_each(filt, lines)
    summaries = [(i, t) for i, chunk in enumerate(released) for t in chunk if t.startswith("tsc: ")]
    assert [t for _, t in summaries] == [
        "tsc: no errors; Found 0 errors. Watching for file changes.",
        "tsc: 2 errors in 2 files (TS2345 x1, TS2551 x1); Found 2 errors. Watching for file changes.",
        "tsc: 4 errors in 3 files (TS2322 x1, TS2356 x1, TS2345 x1, TS2551 x1); Found 4 errors. Watching for file changes.",
        "tsc: 2 errors in 1 file (TS2322 x1, TS2356 x1); Found 2 errors. Watching for file changes.",
        "tsc: no errors; Found 0 errors. Watching for file changes.",
    ]
    for index, _ in summaries:
        assert "Watching for file changes." in strip_ansi(lines[index])
    assert texts(list(filt.finish(130))) == ["tsc: watch stopped (exit 130)"]
    assert filt.failure_seen


def test_ts7_watch_cycles_end_at_the_timestamped_line_not_at_the_found_table() -> None:
    """TS 7 prints `Found 3 errors in 3 files.` and the Errors/Files table in every watch cycle too."""
    lines = raw_lines("ts7_watch_tty_pretty")
    filt = create(FilterContext(("npx", "tsc", "--watch", "--noEmit")))
    released = feed_each(filt, lines)
    summaries = [(i, t) for i, chunk in enumerate(released) for t in chunk if t.startswith("tsc: ")]
    assert [t.split(" (")[0] for _, t in summaries] == [
        "tsc: 1 error in 1 file", "tsc: 3 errors in 3 files", "tsc: 3 errors in 3 files",
        "tsc: 5 errors in 4 files", "tsc: 3 errors in 2 files", "tsc: 3 errors in 2 files", "tsc: 1 error in 1 file",
    ]
    for index, text in summaries:
        assert text.endswith(" Watching for file changes.")  # tsc's own closing words
        assert strip_ansi(lines[index]).startswith("[") and "Watching for file changes." in lines[index]
    out = [t for chunk in released for t in chunk]
    assert not any(t.startswith(("Found ", "Errors  Files")) or t.endswith(".ts:304") for t in out)
    assert texts(list(filt.finish(130))) == ["tsc: watch stopped (exit 130)"]


def test_zero_padded_ts7_timestamps_are_watch_status_lines() -> None:
    _, out = run(raw_lines("ts7_watch_plain"), 130, ("npx", "tsc", "--watch"))
    assert not any("AM" in t or "Starting" in t or "File change" in t for t in out)
    assert out.count("tsc: 1 error in 1 file (TS2345 x1); Found 1 error. Watching for file changes.") == 2


def test_a_watch_compile_names_what_the_last_one_printed_without_repeating_it() -> None:
    _, out = run(raw_lines("watch_plain"), 130)
    assert out.count("src/internal/operators/map.ts") == out.count("src/internal/operators/filter.ts") == 1
    assert ("unchanged since the last compile: src/internal/operators/map.ts:57:54 TS2345, "
            "src/internal/operators/take.ts:60:26 TS2551") in out
    assert out[out.index("src/internal/operators/filter.ts") + 4].startswith("tsc: 4 errors in 3 files")


@pytest.mark.parametrize("case", ["refs_watch_plain", "ts7_refs_watch_plain"])
def test_a_diagnostic_present_in_every_compile_prints_once(case: str) -> None:
    _, out = run(raw_lines(case), 130)
    assert out.count("  L22:19 TS7010 'walk', which lacks return-type annotation, implicitly has an 'any' return type.") == 1
    assert sum(t.startswith("unchanged since the last compile: global.d.ts:22:19 TS7010") for t in out) == 4


# --- what a diagnostic keeps -------------------------------------------------------------------

def test_a_message_chain_is_kept_whole_and_in_order() -> None:
    _, out = run(raw_lines("rxjs_plain"))
    start = out.index("  L67:71 TS2769 No overload matches this call.")
    chain = out[start + 1:start + 8]
    assert [len(t) - len(t.lstrip()) for t in chain] == [4, 6, 4, 6, 8, 10, 12]
    assert chain[0].strip().startswith("Overload 1 of 3, '(accumulator: (acc: number")
    assert chain[-1].strip() == "Type 'string' is not assignable to type 'number'."


def test_pretty_drops_code_frames_and_keeps_related_information() -> None:
    _, out = run(raw_lines("rxjs_pretty"))
    assert "    src/internal/Subscriber.ts:67:3: 'next' is declared here." in out
    assert not any("~~~" in t or "subscriber.nxt(value)" in t for t in out)
    assert not any("Errors  Files" in t or t.startswith("Found ") for t in out)


def test_ts7_related_information_keeps_location_and_message_and_drops_its_frame() -> None:
    """TS 7 writes `  src/x.ts:67:3 - message` on one line, then the frame; TS 5 the message after the frame."""
    _, out = run(raw_lines("ts7_rxjs_pretty"))
    assert "    src/internal/Subscriber.ts:67:3: 'next' is declared here." in out
    start = out.index("  L67:78 TS2769 No overload matches this call.")
    assert out[start + 6:start + 9] == [
        "    src/internal/operators/reduce.ts:7:17: The last overload is declared here.",
        ("    src/internal/operators/reduce.ts:59:17: The call would have succeeded against this implementation, "
         "but implementation signatures of overloads are not externally visible."),
        ("  L68:14 TS2739 Type '{ next: () => void; }' is missing the following properties from type "
         "'Observer<string>': error, complete"),
    ]
    assert not any("~~~" in t or "next(value: T): void" in t for t in out)


@pytest.mark.parametrize("version", ["", "ts7_"])
def test_pretty_and_plain_report_the_same_errors(version: str) -> None:
    _, plain = run(raw_lines(f"{version}rxjs_plain"))
    _, pretty = run(raw_lines(f"{version}rxjs_pretty"))
    assert [t for t in plain if t in pretty] == plain


@pytest.mark.parametrize("case", ["rxjs_pretty", "ts7_rxjs_pretty", "ts7_build_pretty_app_errors"])
def test_pretty_output_without_colours_is_read_the_same_way(case: str) -> None:
    _, coloured = run(raw_lines(case))
    _, stripped = run([strip_ansi(line) for line in raw_lines(case)])
    assert stripped == coloured


def test_errors_without_a_file_keep_their_text_and_chain() -> None:
    filt, out = run(raw_lines("missing_type_libraries_pretty"))
    assert out == [
        "error TS2688: Cannot find type definition file for 'jest'.",
        "  The file is in the program because:",
        "    Entry point of type library 'jest' specified in compilerOptions",
        "error TS2688: Cannot find type definition file for 'mocha'.",
        "  The file is in the program because:",
        "    Entry point of type library 'mocha' specified in compilerOptions",
        "tsc: 2 errors (TS2688 x2)",
    ]
    assert filt.failure_seen and not filt.elided


def test_identical_errors_share_a_line_and_repeats_elsewhere_point_back() -> None:
    _, out = run(raw_lines("build_verbose_missing_node_types"))
    assert out[:3] == [
        "Building project '/tmp/p/mono/packages/immer/tsconfig.json'...",
        "packages/immer/src/core/proxy.ts",
        ("  L275:6, L282:3 TS2580 Cannot find name 'process'. Do you need to install type definitions "
         "for node? Try `npm i --save-dev @types/node`."),
    ]
    assert "  L121:9, L142:9, L170:9, L217:9 TS2580 same message as packages/immer/src/core/proxy.ts:275:6" in out
    assert out[-1] == "tsc: 15 errors in 8 files (TS2580 x15)"


@pytest.mark.parametrize("case", ["build_verbose_missing_node_types", "ts7_build_verbose_missing_node_types"])
def test_build_progress_lines_are_dropped(case: str) -> None:
    _, out = run(raw_lines(case))
    assert not any("out of date" in t or t.startswith("    * ") for t in out)
    building = [t for t in out if t.startswith("Building project ")]
    assert building and all(out[out.index(t) + 1].endswith(".ts") for t in building)


@pytest.mark.parametrize("case", ["refs_build_verbose", "ts7_refs_build_verbose"])
def test_each_built_project_with_errors_names_its_files_again(case: str) -> None:
    _, out = run(raw_lines(case))
    projects = [i for i, t in enumerate(out) if t.startswith("Building project ")]
    assert len(projects) == 2
    assert out[projects[0] + 1] == out[projects[1] + 1] == "refs/global.d.ts"


def test_a_clean_ts7_build_is_one_line() -> None:
    filt, out = run(raw_lines("ts7_build_verbose_clean"), 0, ("npx", "tsc", "-b", "--verbose"))
    assert out == ["tsc: no errors"]
    assert not filt.failure_seen and not filt.elided


def test_a_long_group_names_its_file_again() -> None:
    lines = [f"src/big.ts({n},5): error TS2304: Cannot find name 'name{n}'." for n in range(1, 101)]
    _, out = run(lines)
    headers = [i for i, t in enumerate(out) if t.startswith("src/big.ts")]
    assert out[headers[0]] == "src/big.ts" and out[headers[1]] == "src/big.ts (continued)"
    assert len(headers) == 3 and all(b - a == 41 for a, b in itertools.pairwise(headers))
    assert len(out) == 100 + 3 + 1


def test_summary_counts_codes_most_frequent_first() -> None:
    _, out = run(raw_lines("zod_es5_500_errors_plain"))
    assert out[-1] == ("tsc: 507 errors in 56 files (TS2550 x126, TS2583 x113, TS7006 x76, TS2585 x73, "
                       "TS2339 x62, +10 more codes)")


# --- clean runs, other tools' output, scripts --------------------------------------------------

def test_a_clean_compile_says_so() -> None:
    filt, out = run([], 0)
    assert out == ["tsc: no errors"]
    assert not filt.failure_seen


def test_output_of_another_tool_passes_through_unchanged() -> None:
    lines = raw_lines("npm_run_check_types_eslint_fails")
    filt, out = run(lines, 1, ("npm", "run", "check-types"))
    assert out == [strip_ansi(line).rstrip() for line in lines]
    assert not filt.failure_seen and not filt.elided


def test_the_script_banner_and_footer_go_when_tsc_output_follows() -> None:
    filt, out = run(raw_lines("pnpm_typecheck_zod"), 2, ("pnpm", "run", "typecheck"))
    assert out[0] == "src/v3/ZodError.ts"
    assert not any(t.startswith(">") or "ELIFECYCLE" in t for t in out)
    assert filt.failure_seen


def test_a_banner_of_a_script_that_is_only_tsc_means_a_clean_compile() -> None:
    banner = ["", "> app@1.0.0 typecheck", "> tsc --noEmit", ""]
    assert run(banner, 0, ("npm", "run", "typecheck"))[1] == ["tsc: no errors"]
    other = ["", "> app@1.0.0 typecheck", "> vue-tsc --noEmit && eslint .", ""]
    assert run(other, 0, ("npm", "run", "typecheck"))[1] == other


def test_unknown_lines_between_errors_keep_their_place() -> None:
    lines = raw_lines("rxjs_plain")[:2] + ["some tool said this"] + raw_lines("rxjs_plain")[2:4]
    _, out = run(lines)
    assert out[:5] == [
        "src/internal/operators/debounceTime.ts",
        "  L83:26 TS18047 'lastTime' is possibly 'null'.",
        "src/internal/operators/filter.ts",
        "  L64:9 TS2322 Type 'number' is not assignable to type 'string'.",
        "some tool said this",
    ]


@pytest.mark.parametrize(("case", "version"), [("no_project_help", "5.9.3"), ("ts7_no_project_help", "7.0.2")])
def test_tsc_help_instead_of_a_compile_is_cut_to_its_first_section(case: str, version: str) -> None:
    filt, out = run(raw_lines(case), 1)
    assert out[:3] == [f"Version {version}", f"tsc: The TypeScript Compiler - Version {version}", "COMMON COMMANDS"]
    assert out[-2].startswith("... ") and "COMMAND LINE FLAGS" in out[-2]
    assert out[-1].startswith("tsc: no tsconfig.json found")
    assert filt.elided and filt.failure_seen


def test_help_asked_for_is_left_alone() -> None:
    lines = raw_lines("no_project_help")
    filt, out = run(lines, 0, ("tsc", "--help"))
    assert out == [strip_ansi(line).rstrip() for line in lines]
    assert not filt.elided


def test_progress_counts_errors() -> None:
    filt, _ = run(raw_lines("rxjs_plain"))
    assert filt.progress() == {"errors": 12}


# --- which commands are served -----------------------------------------------------------------

@pytest.mark.parametrize("command", [
    "tsc", "tsc -p tsconfig.json --noEmit", "npx tsc", "npx -p typescript tsc", "pnpm tsc", "pnpm exec tsc",
    "pnpm dlx tsc", "npm exec tsc", "npm exec -- tsc", "yarn tsc", "bunx tsc", "node_modules/.bin/tsc",
    "./node_modules/.bin/tsc -b", "npm run tsc", "npm run typecheck", "pnpm run type-check",
    "yarn run check-types", "pnpm typecheck", "yarn check-types", "npm run typecheck -- --watch",
])
def test_tsc_commands_are_served_by_the_tsc_filter(command: str) -> None:
    match = classify(command.split())
    assert match is not None and match.filter == "tsc"


@pytest.mark.parametrize("command", ["npm typecheck", "npm run lint", "npx eslint .", "tscx", "yarn build"])
def test_other_commands_are_not(command: str) -> None:
    match = classify(command.split())
    assert match is None or match.filter != "tsc"


def test_a_timestamped_line_of_another_tool_is_not_taken_for_a_watch_status() -> None:
    lines = ["12:30:45 - server listening on :8080", "[10:02:03 AM] ready"]
    filt, out = run(lines, 0, ("npm", "run", "typecheck"))
    assert out == lines and not filt.failure_seen
