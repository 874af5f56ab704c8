"""What cargo's own lines look like: status words, test harness lines, end-of-crate messages."""
from __future__ import annotations

import re

STATUS_WORDS = ["Compiling", "Checking", "Downloading", "Downloaded", "Fresh", "Blocking", "Locking", "Updating", "Adding", "Removing", "Unpacking", "Documenting", "Packaging", "Verifying", "Archiving", "Dirty", "Building", "Finished", "Running", "Doc-tests", "Scraping", "Generated", "Installing", "Installed", "Replacing", "Starting"]
# cargo right-aligns its status word so that it ends in column 12.
STATUS_RE = re.compile(r"^ *(" + "|".join(STATUS_WORDS) + r")(?: (.*))?$")
STATUS_COLUMN = 12
COMPILED_WORDS = frozenset({"Compiling", "Checking"})
FINISHED_TIME_RE = re.compile(r" in ((?:\d+m )?[\d.]+s)$")
PROGRAM_RE = re.compile(r"^`(.*)`$")
SUITE_TARGET_RE = re.compile(r" \([^()]*\)$")

RUNNING_TESTS_RE = re.compile(r"^running \d+ tests?$")
TEST_LINE_RE = re.compile(r"^test (.+?) \.\.\. (ok|FAILED|ignored.*|bench:.*)$")
QUIET_FAILED_RE = re.compile(r"^\S.* --- FAILED$")
QUIET_PROGRESS_RE = re.compile(r"^[.iF]+(?: \d+/\d+)?$")
BLOCK_HEADER_RE = re.compile(r"^---- (.+) (?:stdout|stderr) ----$")
DOCTEST_TIMING_RE = re.compile(r"^all doctests ran in [\d.]+s")
NEXTEST_PASS_RE = re.compile(r"^\s+(?:PASS|SKIP) \[")
NEXTEST_FAIL_RE = re.compile(r"^\s+(?:FAIL|TIMEOUT|SIGSEGV|SIGABRT) \[")

GENERATED_RE = re.compile(r"^warning: `[^`]+` \(.+\) generated \d+ warnings?")
CARGO_FAILURE_RE = re.compile(
    r"^error: (?:could not compile|test failed, to rerun|doctest failed, to rerun|\d+ targets failed)"
)
# `thread 'a::b' (12345) panicked at`: the thread id changes on every run
PANIC_THREAD_ID_RE = re.compile(r"^(thread '.*?') \(\d+\) panicked at ")
QUIET_FLAGS_RE = re.compile(r"^-[qv]+$")  # `-q`, `-vq`: flags that take no value
RERUN_RE = re.compile(r"to rerun pass `([^`]+)`")
CARGO_NOISE = (
    "warning: build failed, waiting for other jobs to finish...",
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
    "Some errors have detailed explanations:",
    "For more information about an error, try `rustc --explain",
    "For more information about this error, try `rustc --explain",
)

SUBCOMMAND_ALIASES = {"b": "build", "c": "check", "t": "test", "r": "run"}
OPTS_WITH_VALUE = frozenset({"--color", "-Z", "--config", "-C", "--explain"})


def status(text: str) -> tuple[str, str] | None:
    """`('Compiling', 'foo v1.0 (...)')` for a cargo status line, else None."""
    match = STATUS_RE.match(text)
    if match is None or match.end(1) != STATUS_COLUMN:
        return None
    return match.group(1), match.group(2) or ""


def suite_name(word: str, rest: str) -> str:
    """The test binary a `Running tests/api.rs (target/debug/deps/api-1f2e)` or `Doc-tests
    regex` line starts: `tests/api.rs`, `Doc-tests regex`, `unittests src/lib.rs`."""
    if word == "Doc-tests":
        return f"Doc-tests {rest}"
    return SUITE_TARGET_RE.sub("", rest).strip("`")


def is_noise(text: str) -> bool:
    return text.startswith(CARGO_NOISE) or bool(
        RUNNING_TESTS_RE.match(text) or TEST_LINE_RE.match(text) or QUIET_FAILED_RE.match(text)
        or QUIET_PROGRESS_RE.match(text) or DOCTEST_TIMING_RE.match(text)
        or NEXTEST_PASS_RE.match(text)
    )


def subcommand(argv: tuple[str, ...]) -> str:
    """`build`, `test`, `nextest`, ... from `cargo [+toolchain] [global options] SUB ...`."""
    i = 1
    if i < len(argv) and argv[i].startswith("+"):
        i += 1
    while i < len(argv) and argv[i].startswith("-"):
        i += 2 if argv[i] in OPTS_WITH_VALUE else 1
    word = argv[i] if i < len(argv) else ""
    return SUBCOMMAND_ALIASES.get(word, word)


def is_quiet(argv: tuple[str, ...]) -> bool:
    """`-q`/`--quiet` given to cargo (not to the program, after `--`)."""
    own = argv[:argv.index("--")] if "--" in argv else argv
    return any(word == "--quiet" or (QUIET_FLAGS_RE.match(word) is not None and "q" in word) for word in own[1:])
