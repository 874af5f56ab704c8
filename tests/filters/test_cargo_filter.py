"""The cargo filter line by line: streaming, grouping, streams, flags. Inputs are real captures."""
from __future__ import annotations

from pathlib import Path

import pytest

from rtk.filters.base import FilterContext, Line, Stream
from rtk.filters.cargo import create
from rtk.filters.cargo.filter import CargoFilter
from rtk.filters.cargo.lines import is_quiet, subcommand

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "cargo"


def raw_lines(case: str) -> list[str]:
    return (FIXTURES / case / "raw.txt").read_text().splitlines()


def make(command: str) -> CargoFilter:
    return create(FilterContext(tuple(command.split())))


def feed_all(filt: CargoFilter, lines: list[str], stream: Stream = Stream.STDERR) -> list[list[Line]]:
    """What the filter printed after each line."""
    return [list(filt.feed(line, stream)) for line in lines]


def texts(batches: list[list[Line]]) -> list[str]:
    return [line.text for batch in batches for line in batch]


def test_a_diagnostic_is_printed_when_its_block_ends_not_at_exit() -> None:
    lines = raw_lines("build_type_error")
    filt = make("cargo build")
    batches = feed_all(filt, lines)
    blank = lines.index("", 1)  # the blank line closing the first error
    assert not any(batches[:blank]), "nothing may be printed while the block is still open"
    printed = texts(batches[:blank + 1])
    assert printed[0] == "error[E0308]: mismatched types"
    assert "  --> src/parse.rs:22:21" in printed
    assert any("expected `String`, found `&str`" in text for text in printed)


def test_the_next_diagnostic_header_also_ends_a_block() -> None:
    lines = raw_lines("check_errors_nightly")
    filt = make("cargo +nightly check")
    first_error = next(i for i, text in enumerate(lines) if text.startswith("error[E0277]"))
    feed_all(filt, lines[:first_error + 3])  # header, location, gutter: still open
    out = list(filt.feed("error[E0560]: struct `Item` has no field named `price`", Stream.STDERR))
    assert out and out[0].text.startswith("error[E0277]")


def test_code_frame_becomes_one_line_per_label() -> None:
    filt = make("cargo build")
    printed = texts(feed_all(filt, raw_lines("build_borrow_error")))
    assert not any("|" in text and "-->" not in text and " | " not in text for text in printed)
    assert "  10:21 - immutable borrow occurs here" in printed  # a secondary label: line:col
    assert "  ^ value used here after move" in printed  # the primary label: the `-->` line says where
    assert "  38 | let moved = names.clone();" in printed  # the suggestion's new line, once
    assert not any("let first = out.first();" in text for text in printed)  # source lines go
    assert filt.elided  # the source lines went


def test_labels_below_connectors_keep_their_own_column() -> None:
    printed = texts(feed_all(make("cargo build"), raw_lines("build_type_error")))
    note = printed.index("note: the method call chain might not have had the expected associated types")
    assert printed[note + 1:note + 5] == [
        "  --> src/lib.rs:21:18",
        "  ^ `Iterator::Item` changed to `u32` here",
        "  21:11 - `Iterator::Item` is `&Item` here",
        "  21:5 - this expression has type `&[Item]`",
    ]


def test_spans_over_several_lines_give_start_and_end_line() -> None:
    printed = texts(feed_all(make("cargo build"), raw_lines("build_multiline_span")))
    assert "  45-49 - `if` and `else` have incompatible types" in printed
    assert "  46:9 - expected because of this" in printed
    assert "  55-58 ^ expected `usize`, found `Filter<Iter<'_, Item>, {closure@...}>`" in printed


def test_adjacent_markers_and_unlabelled_carets() -> None:
    printed = texts(feed_all(make("cargo +nightly check"), raw_lines("check_errors_nightly")))
    assert "  ^ the trait `From<ParseIntError>` is not implemented for `String`" in printed
    assert "  20:24 - this can't be annotated with `?` because it has type `Result<_, ParseIntError>`" in printed
    call = printed.index("error[E0061]: this method takes 1 argument but 2 arguments were supplied")
    assert printed[call + 1:call + 3] == ["  --> src/lib.rs:37:28", "  37:35 - unexpected argument #2 of type `{integer}`"]
    assert "  37 + names.sort_by(|a, b| b.cmp(a));" in printed and not any(" - " in t and "b.cmp(a, 1)" in t for t in printed)


def test_repeated_lints_are_grouped_with_every_location() -> None:
    filt = make("cargo build")
    lines = raw_lines("build_warnings")
    batches = feed_all(filt, lines)
    generated = next(i for i, text in enumerate(lines) if "generated 11 warnings" in text)
    assert "src/parse.rs:9:9 `seen`" not in texts(batches[:generated])
    group = texts([batches[generated]])
    heading = group.index("warning: unused variable: `seen` [unused_variables]: src/parse.rs:9:9")
    assert group[heading + 1:heading + 4] == [
        "warning: unused variable: `width` [unused_variables]: src/parse.rs:24:9",
        "warning: unused variable: `prefix` [unused_variables]: src/parse.rs:48:9",
        "warning: unused variable: `rounding` [unused_variables]: src/lib.rs:45:9"]
    assert texts(batches).count("warning: unused variable: `count`") == 1
    assert [line.text for line in filt.finish(0)] == ["cargo build: ok (1 crate, 11 warnings, 0.76s)"]


def test_the_same_lint_at_the_same_place_in_two_targets_is_listed_once() -> None:
    filt = make("cargo test")
    printed = texts(feed_all(filt, raw_lines("semver_test_pass"))) + texts([list(filt.finish(0))])
    grouped = printed.index("    tests/util/mod.rs")  # seven places in one file: grouped under it
    assert printed[grouped + 1] == "      L6:16 L11:16 L16:16 L21:16 L26:16 L31:16 L36:16"
    assert sum(text.count("L6:16") + text.count("tests/util/mod.rs:6:16") for text in printed) == 1


def test_each_line_stays_on_the_stream_cargo_used() -> None:
    filt = make("cargo test")
    out: list[Line] = []
    for text in raw_lines("test_compile_error")[:9]:  # Compiling + a warning block: stderr
        out.extend(filt.feed(text, Stream.STDERR))
    tests = raw_lines("test_fail_assert")
    end = next(i for i, text in enumerate(tests) if text.startswith("test result:"))
    for text in tests[2:end + 1]:  # the first test binary's output: stdout
        out.extend(filt.feed(text, Stream.STDOUT))
    out.extend(filt.finish(101))
    by_text = {line.text: line.stream for line in out}
    folded = next(text for text in by_text if text.startswith("warning: unused variable: `unused_probe`"))
    assert by_text[folded] == Stream.STDERR  # under `cargo test` a warning is one counted line
    assert by_text["---- tests::discount_rounds_down stdout ----"] == Stream.STDOUT
    assert by_text["  left: 900"] == Stream.STDOUT
    assert out[-1].text.startswith("cargo test: 4 passed, 2 failed") and out[-1].stream == Stream.STDOUT


def test_failing_tests_set_failure_seen_and_sum_every_binary() -> None:
    filt = make("cargo test --no-fail-fast")
    printed = texts(feed_all(filt, raw_lines("test_fail_assert"), Stream.STDOUT))
    assert filt.failure_seen
    assert "failures: tests::discount_rounds_down, tests::low_stock_sorted" in printed
    assert "panicked at src/lib.rs:72:9:" in printed  # the thread name and id are the header's
    assert not any(text.startswith(("test ", "running ", "   Compiling")) for text in printed)
    summary = [line.text for line in filt.finish(101)]
    assert summary == ["cargo test: 8 passed, 3 failed, 1 ignored (4 suites, 0.30s)"]


def test_backtrace_keeps_only_the_users_frames() -> None:
    filt = make("cargo test --lib")
    printed = texts(feed_all(filt, raw_lines("test_backtrace"), Stream.STDOUT))
    assert "   6: inventory::parse::tests::parses_two_lines at ./src/parse.rs:34:27" in printed
    assert not any("core::panicking" in text or "/rustc/" in text for text in printed)
    assert "   ... 8 more backtrace frames (std, core, test harness)" in printed
    assert filt.elided and filt.failure_seen


def test_cargo_run_passes_the_programs_output_untouched() -> None:
    filt = make("cargo run")
    lines = raw_lines("run_panic")
    printed = texts(feed_all(filt, lines))
    running = next(i for i, text in enumerate(lines) if text.strip().startswith("Running `"))
    # the `Running` line names the binary; then the program's output, blank line and thread id included
    assert printed == [lines[running].strip(), *lines[running + 1:]]
    assert list(filt.finish(101)) == [] and filt.failure_seen
    colored = make("cargo run")
    feed_all(colored, ["    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.45s",
                       "     Running `target/debug/x`"])
    assert list(colored.feed("\x1b[31mred\x1b[0m  ", Stream.STDOUT)) == [Line("\x1b[31mred\x1b[0m  ", Stream.STDOUT)]


def test_successful_build_is_one_line_and_no_failure() -> None:
    filt = make("cargo --locked build")
    assert texts(feed_all(filt, raw_lines("ws_locked_build_ok"))) == []
    assert [line.text for line in filt.finish(0)] == ["cargo build: ok (8 crates, 0 warnings, 0.75s)"]
    assert not filt.failure_seen and not filt.elided


def test_ansi_colour_output_is_parsed_like_plain() -> None:
    plain, colour = make("cargo build"), make("cargo build --color=always")
    lines = raw_lines("ws_build_warnings_color")
    coloured_out = texts(feed_all(colour, lines)) + [line.text for line in colour.finish(0)]
    assert "\x1b" in "".join(lines) and "\x1b" not in "".join(coloured_out)
    assert coloured_out[-1] == "cargo build: ok (8 crates, 5 warnings, 1.41s)"
    assert texts(feed_all(plain, [line for line in lines if "\x1b" not in line])) == []


def test_unknown_cargo_errors_pass_through() -> None:
    filt = make("cargo test")
    printed = texts(feed_all(filt, raw_lines("test_network_error")))
    assert "error: failed to get `serde` as a dependency of package `semver v1.0.14 (/tmp/cw/semver)`" in printed
    assert "  [6] Could not resolve hostname (Could not resolve host: index.crates.io)" in printed
    assert filt.failure_seen


@pytest.mark.parametrize(("command", "expected"), [
    ("cargo build", "build"), ("cargo +nightly -q b", "build"), ("cargo --color always t", "test"),
    ("cargo -Z unstable-options check", "check"), ("cargo nextest run", "nextest"), ("cargo", ""),
])
def test_subcommand_behind_toolchain_and_global_options(command: str, expected: str) -> None:
    assert subcommand(tuple(command.split())) == expected


def test_verbose_rustc_invocations_are_not_the_program() -> None:
    filt = make("cargo run -v -- --limit 1")
    printed = texts(feed_all(filt, raw_lines("run_verbose")))
    assert not any("--crate-name" in text for text in printed)
    assert printed[0] == "warning: unused variable: `verbose`"
    assert printed[-6:] == ['args: ["--limit", "1"]', "items: 3", "value: 256 cents", "low: nut",
                            "low: washer", "report written to stdout"]


def test_without_recall_nothing_is_elided() -> None:
    filt = create(FilterContext(("cargo", "test", "--lib"), recall_enabled=False))
    printed = texts(feed_all(filt, raw_lines("test_backtrace"), Stream.STDOUT))
    assert "   0: __rustc::rust_begin_unwind" in printed and not filt.elided
    build = create(FilterContext(("cargo", "build"), recall_enabled=False))
    printed = texts(feed_all(build, raw_lines("build_borrow_error")))
    assert "32 |     let mut names: Vec<String> = items" in printed and not build.elided


# Captured from `cargo clippy` (rustc 1.95) on `pub fn f() { println!("a"); return; }`.
NEEDLESS_RETURN = """\
warning: unneeded `return` statement
 --> src/lib.rs:3:5
  |
3 |     return;
  |     ^^^^^^
  |
  = help: for further information visit https://rust-lang.github.io/rust-clippy/rust-1.95.0/index.html#needless_return
  = note: `#[warn(clippy::needless_return)]` on by default
help: remove `return`
  |
2 -     println!("a");
3 -     return;
2 +     println!("a");
  |
"""


def test_a_suggestion_keeps_new_lines_and_lines_removed_without_replacement() -> None:
    filt = make("cargo clippy")
    printed = texts([*feed_all(filt, NEEDLESS_RETURN.splitlines()), list(filt.finish(0))])
    assert printed[-4:-1] == ["help: remove `return`", '  2 + println!("a");', "  3 - return;"]
    assert not any("rust-clippy" in text for text in printed)  # the lint is named by `#[warn(...)]`


def test_a_passing_cargo_test_says_each_lint_once_at_the_end_with_every_message_and_place() -> None:
    filt = make("cargo test")
    printed = texts(feed_all(filt, raw_lines("crossbeam_channel_test_many_binaries")))
    assert not any(text.startswith("warning") for text in printed), "held until the run is known to pass"
    end = texts([list(filt.finish(0))])
    assert end[:6] == [
        ("warning [mismatched_lifetime_syntaxes] x2: hiding a lifetime that's elided elsewhere is confusing"
        " (tests/mpsc.rs:111:17, tests/mpsc.rs:115:21)"),
        "warning [dropping_copy_types] x8:",  # eight places in one file: grouped under its path
        "  calls to `std::mem::drop` with a value that implements `Copy` does nothing:",
        "    tests/select_macro.rs",
        "      L1216:27 L1219:27 L1223:27 L1228:30 L1231:30 L1235:30 L1240:30 L1241:27",
        ("warning [unexpected_cfgs] x2: unexpected `cfg` condition name: `crossbeam_sanitize`"
        " (tests/tick.rs:133:11, tests/tick.rs:258:11)")]
    assert end[6].startswith("cargo test: 457 passed, 0 failed, 0 ignored (16 suites, ")


def test_a_failing_cargo_test_prints_its_held_warnings_with_their_places() -> None:
    filt = make("cargo test")
    printed = texts(feed_all(filt, raw_lines("crossbeam_channel_test_many_binaries")))
    printed += texts([list(filt.finish(101))])
    assert "warning: unexpected `cfg` condition name: `crossbeam_sanitize` [unexpected_cfgs] (x2):" \
        " tests/tick.rs:133:11, tests/tick.rs:258:11" in printed


def test_the_same_panic_in_many_tests_is_shown_once_and_the_other_tests_named() -> None:
    filt = make("cargo test")
    lines = raw_lines("memchr_same_panic_many_tests")
    printed = texts(feed_all(filt, lines, Stream.STDOUT)) + texts([list(filt.finish(101))])
    failing = [text.strip() for text in lines[lines.index("failures:", 200) + 1:] if text.startswith("    ")]
    assert len(failing) == 16
    headers = [text for text in printed if text.startswith("---- ")]
    assert headers == [f"---- {failing[0]} stdout ----"]
    same = next(text for text in printed if text.startswith("same panic as "))
    assert same == f"same panic as {failing[0]} in all 16 failing tests"  # the list just above names them
    assert printed[printed.index(same) - 1] == f"failures: {', '.join(failing)}"
    assert "(the same panic 3 more times)" in printed  # quickcheck shrinking: one panic, counted
    assert filt.elided and filt.failure_seen


def test_cargo_run_quiet_passes_the_program_from_its_first_line_on() -> None:
    filt = make("cargo run -q --example fibonacci")
    lines = raw_lines("crossbeam_run_quiet_warning")
    printed = texts(feed_all(filt, lines, Stream.STDOUT)) + texts([list(filt.finish(0))])
    first = lines.index("0")  # no `Running` line under -q: the program starts after rustc's warning
    assert printed[0] == "warning: unused variable: `limit`"
    assert printed[printed.index("0"):] == lines[first:]
    assert is_quiet(("cargo", "-q", "run")) and is_quiet(("cargo", "run", "-vq"))
    assert not is_quiet(("cargo", "run", "--", "-q")) and not is_quiet(("cargo", "run", "--release"))
