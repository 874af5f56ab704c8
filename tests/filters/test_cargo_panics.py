"""Failing tests across several test binaries: a panic shown once, every failing test still named."""
from __future__ import annotations

from pathlib import Path

from rtk.filters.base import FilterContext, Stream
from rtk.filters.cargo import create

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "cargo"


def run(case: str, command: str, exit_code: int) -> list[str]:
    filt = create(FilterContext(tuple(command.split())))
    printed = [line.text for text in (FIXTURES / case / "raw.txt").read_text().splitlines()
               for line in filt.feed(text, Stream.STDOUT)]
    return printed + [line.text for line in filt.finish(exit_code)]


def test_a_binary_failing_like_an_earlier_one_is_one_line() -> None:
    printed = run("regex_test_nofailfast_same_panic", "cargo test --no-fail-fast", 101)
    assert printed.count("---- api::expand10 stdout ----") == 1  # 5 binaries fail it the same way
    assert printed.count("failures: the same 8 tests as in tests/test_backtrack.rs, with the same panics") == 4
    assert printed.count("failures: the same 9 tests as in tests/test_backtrack_bytes.rs, with the same panics") == 2
    reruns = [text for text in printed if text.startswith("error: test failed, to rerun pass `--test ")]
    assert len(reruns) == 8  # every binary is still named with its rerun command
    first = printed.index("error: test failed, to rerun pass `--test backtrack`")
    assert printed[first - 1] == "same panic as api::expand10 in all 8 failing tests"
    assert printed[first - 2].startswith("failures: api::expand10, api::expand7, ")


def test_a_user_frame_is_one_line_and_std_frames_are_counted() -> None:
    printed = run("regex_test_nofailfast_same_panic", "cargo test --no-fail-fast", 101)
    assert "   5: regex::expand::expand_str at ./src/expand.rs:41:41" in printed
    assert "   ... 7 more backtrace frames (std, core, test harness)" in printed
    assert not any("/rustc/" in text for text in printed)


def test_a_binary_with_other_panics_is_shown_whole() -> None:
    printed = run("regex_test_nofailfast_same_panic", "cargo test --no-fail-fast", 101)
    assert printed.count("---- api::expand3 stdout ----") == 1
    assert printed[-1] == "cargo test: 7780 passed, 67 failed, 1 ignored (10 suites, 2.03s)"


def test_cargo_run_cuts_a_panics_backtrace_to_the_programs_frames() -> None:
    printed = run("crossbeam_run_thread_panic_backtrace", "cargo run --example matching", 101)
    assert printed[0] == "Running `target/debug/examples/matching`"
    assert printed.count("   5: matching::main::{{closure}} at ./examples/matching.rs:58:49") == 2
    assert "   4: matching::main at ./examples/matching.rs:71:6" in printed
    assert "   ... 5 more backtrace frames (std, core, dependencies)" in printed
    assert not any("/rustc/" in text or "RUST_BACKTRACE=full" in text for text in printed)


def test_a_passing_doc_test_runs_compile_fail_errors_are_one_line() -> None:
    printed = run("oncecell_test_nocapture_pass", "cargo test -- --nocapture", 0)
    assert not any(text.startswith(("error[", "error: aborting")) for text in printed)
    assert ("passing doc-tests printed 4 expected compile errors (compile_fail examples): E0277 src/lib.rs:1359:7,"
            " E0277 src/lib.rs:1367:7, E0597 src/race.rs:258:11, E0277 src/race.rs:394:7") in printed
    assert "kaboom" in printed and "42" in printed  # what the tests printed stays
    assert "thread 'sync::lazy_poisoning' panicked at tests/it.rs:594:44:" in printed  # no thread id
    assert printed[-1] == "cargo test: 103 passed, 0 failed, 1 ignored (3 suites, 14.76s, 6 warnings)"


def test_a_failing_doc_test_run_prints_the_errors_it_held() -> None:
    from rtk.filters.cargo.diagnostic import Diagnostic
    from rtk.filters.cargo.doctests import DocTestErrors

    held = DocTestErrors()
    held.running = True
    diag = Diagnostic.start("error[E0277]: `*mut ()` cannot be sent between threads safely")
    assert diag is not None
    assert held.hold(diag, ["error[E0277]: `*mut ()` cannot be sent between threads safely",
                            "   --> src/lib.rs:9:7"]) == []
    assert held.hold_line("error: aborting due to 1 previous error")
    assert held.result(passed=False) == ([
        "error[E0277]: `*mut ()` cannot be sent between threads safely", "   --> src/lib.rs:9:7",
        "error: aborting due to 1 previous error"], False)
    assert not held.running and not held.hold_line("error: aborting due to 1 previous error")


def test_show_output_keeps_what_passing_tests_printed_but_not_their_names() -> None:
    filt = create(FilterContext(("cargo", "test", "--test", "it", "--", "--show-output")))
    raw = (FIXTURES / "oncecell_test_show_output" / "raw.txt").read_text().splitlines()
    printed = [line.text for text in raw for line in filt.feed(text, Stream.STDOUT)]
    assert not filt.failure_seen, "a passing test's output is not a failure"
    assert printed[printed.index("---- unsync::aliasing_in_get stdout ----") + 1] == "42"
    assert "    race::once_bool_set" not in printed and "successes:" not in printed
    end = [line.text for line in filt.finish(0)]
    assert end[-1] == "cargo test: 56 passed, 0 failed, 0 ignored (1 suite, 13.45s, 6 warnings)"


def test_doc_test_errors_stream_again_past_the_hold_limit() -> None:
    from rtk.filters.cargo.diagnostic import Diagnostic
    from rtk.filters.cargo.doctests import MAX_HELD, DocTestErrors

    held = DocTestErrors()
    held.running = True
    diag = Diagnostic.start("error[E0599]: no method named `x` found")
    assert diag is not None
    block = ["error[E0599]: no method named `x` found", "  --> src/lib.rs:1:1"]
    printed = [line for _ in range(MAX_HELD // 2) for line in held.hold(diag, block)]
    assert printed == block * (MAX_HELD // 2)  # released at the limit, all of it in order
    assert held.hold(diag, block) == block and held.result(passed=True) == ([], False)


def test_quiet_binaries_are_named_by_their_rerun_target() -> None:
    printed = run("regex_test_q_nofailfast", "cargo test -q --no-fail-fast", 101)
    assert printed.count("failures: the same 8 tests as in `--test backtrack`, with the same panics") == 4
    assert printed.count("---- api::expand10 stdout ----") == 1


def test_a_full_backtrace_keeps_the_users_frames_without_addresses_or_hashes() -> None:
    printed = run("regex_test_backtrace_full", "cargo test --test default -- api::expand1", 101)
    assert "  22: regex::expand::expand_str at /tmp/w/c22/proj/regex-1.7.1/src/expand.rs:41:41" in printed
    assert not any("0x" in text or "core[" in text or "start_thread" in text for text in printed)
    assert "   ... 46 more backtrace frames (std, core, test harness)" in printed
