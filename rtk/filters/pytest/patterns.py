"""The shapes of pytest's terminal output (src/_pytest/terminal.py, _pytest/_code/code.py).

Every pattern runs on a line with its ANSI codes already removed and no newline.
"""
from __future__ import annotations

import re

# `==== FAILURES ====`, `==== 3 failed, 1 passed in 0.12s ====`; the title may be empty.
SECTION_RE = re.compile(r"^={2,}(?: (.*?))? ={2,}$|^={8,}$")
# `!!!!! Interrupted: 1 error during collection !!!!!`, `!!! stopping after 1 failures !!!`
BANNER_RE = re.compile(r"^!{2,} (.*?) !{2,}$")
# `______ test_name[param] ______` (a failure header), not the `_ _ _ _` entry separator.
HEADER_RE = re.compile(r"^_{2,} (.*?) _+$|^_ (.*?) _+$")  # a long title: `_ ERROR at setup of X __`
ENTRY_SEP_RE = re.compile(r"^(?:_ )+_?$")
DURATIONS_RE = re.compile(r"^slowest (?:\d+ )?durations$")
# A plugin's terminal summary after the failures, under a rule of dashes (not a `===` section).
PLUGIN_RULE_RE = re.compile(r"^-{10,} (?:benchmark\b|coverage: ).* -{10,}$")
CAPTURE_RE = re.compile(r"^-{2,} ((?:Captured|captured) .*?) -{2,}$")

PROGRESS_CHARS = ".FEsxXR"
_COUNTER = r" *(?:\[ *\d+(?:%|/\d+)\])?$"
BARE_PROGRESS_RE = re.compile(r"^([.FEsxXR]+)" + _COUNTER)
FILE_PROGRESS_RE = re.compile(r"^(\S+) ([.FEsxXR]+)" + _COUNTER)
# -v / -vv: `tests/test_a.py::test_b[1] PASSED   [ 40%]` and xdist's `[gw0] [ 40%] PASSED id`.
VERBOSE_WORD_RE = re.compile(r" (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?= |$)")
# -v with subtests: the id alone (`tests/test_a.py::TestA::test_b `) before the result line.
VERBOSE_BARE_RE = re.compile(r"^\S[^ ]*::\S.* $")
XDIST_RE = re.compile(r"^\[gw\d+\] (?:\[ *\d+(?:%|/\d+)\] )?(PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S.*?)\s*$")

# The stats line: `3 failed, 1 passed, 2 warnings in 0.12s (0:00:00)` or `no tests ran in 0.01s`.
STATS_RE = re.compile(
    r"^((?:\d+ [a-z]+(?: [a-z]+)?, )*\d+ [a-z]+(?: [a-z]+)?|no tests ran) in (\d+(?:\.\d+)?s(?: \([\d:]+\))?)$"
)
COUNT_RE = re.compile(r"(\d+) ([a-z]+(?: [a-z]+)?)")

# A traceback location: `tests/test_a.py:12: AssertionError`, `src/m.py:3: in helper`, `x.py:4: `.
LOCATION_RE = re.compile(r"^([^\s:>][^:]*?):(\d+):(?: (.*))?$")
# --tb=native: `  File "/abs/tests/test_a.py", line 12, in test_b`
NATIVE_FILE_RE = re.compile(r'^\s+File "([^"]+)", line (\d+)(?:, in (.*))?$')
PLUMBING_RE = re.compile(r"[/\\](?:_pytest|pluggy)[/\\]|[/\\]importlib[/\\]__init__\.py$")
GROUP_START = "+ Exception Group Traceback (most recent call last):"
NATIVE_START = "Traceback (most recent call last):"
CHAIN_LINES = frozenset({
    "The above exception was the direct cause of the following exception:",
    "During handling of the above exception, another exception occurred:",
})
DOCTEST_SOURCE_RE = re.compile(r"^\d{3,} ")
DEF_RE = re.compile(r"^\s*(?:async\s+)?def (\w+)\(")
LOCALS_RE = re.compile(r"^(?:\.\d+|[A-Za-z_][\w.]*) +=(?: |$)")  # `.0 =`: a comprehension's iterator
CARET_RE = re.compile(r"^\s*[\^~]+\s*$")
NATIVE_HINT_RE = re.compile(r"^\s*(?:\? [ ^+\-?]*|Use -v to get (?:more|the full) diff"
                            r"|Omitting \d+ identical items, use -vv to show)$")
RERUN_HINT = " in diff, use -v to show"  # the end of pytest's `Skipping N identical ... characters` note
# Lines pytest prints in an ERRORS/FAILURES block that say nothing the agent needs.
BLOCK_NOISE = frozenset({"Traceback:", "Hint: make sure your test modules/packages have valid Python names.",
                         "use 'pytest --fixtures [testpath]' for help on them."})

# The short test summary: `FAILED id - message`, `ERROR id`, `SKIPPED [2] file:12: reason`.
SHORT_RE = re.compile(r"^(?:SUB)?(FAILED|ERROR|PASSED|SKIPPED|XFAIL|XPASS)(\(.*?\))? (.*)$")

SKIP_RE = re.compile(r"^SKIPPED \[(\d+)\] (.+?):(\d+): (.*)$")

# Session header and collection lines; dropped wherever they appear before the run.
HEADER_PREFIXES = (
    "platform ", "cachedir:", "rootdir:", "configfile:", "inifile:", "testpaths:", "plugins:",
    "collecting", "collected ", "hypothesis profile", "Using --randomly-seed", "benchmark:",
    "created: ", "scheduling tests via", "bringing up nodes", "using: ", "Test order randomisation",
)
XDIST_HEADER_RE = re.compile(r"^(?:\d+ workers? \[\d+ items?\]|\[gw\d+\] |gw\d+ (?:\[\d+\]|I|ok|C)\b)")

WARN_COUNT_RE = re.compile(r"^(\S.*): (\d+) warnings?$")
WARN_PLACE_RE = re.compile(r"^(\S.*?:\d+): ([A-Za-z_][\w.]*: .*)$")
WARN_CATEGORY_RE = re.compile(r":\d+: ([A-Za-z_][\w.]*?(?:Warning|Error|Exception)?): ")


def progress_of(line: str) -> tuple[str, str] | None:
    """Progress of the default and -q modes, `tests/test_a.py ..F.s  [ 40%]` or `....F [ 40%]`:
    (file or "", result characters). This runs on most lines of a run, hence two anchored patterns
    that never backtrack instead of one with an optional file part."""
    m = BARE_PROGRESS_RE.match(line) if line[:1] in PROGRESS_CHARS else None
    if m is None and (m := FILE_PROGRESS_RE.match(line)) is None:
        return None
    return (m.group(1), m.group(2)) if m.lastindex == 2 else ("", m.group(1))


def stats_of(title: str) -> re.Match[str] | None:
    """The stats match of a `===` title or of a bare -q line, else None."""
    return STATS_RE.match(title) if " in " in title else None


def failure_head(line: str) -> bool:
    """A line of the filtered output that opens a failure (`FAILED id`, `ERROR at setup of id`,
    `ERROR collecting path`): a host's failure window lists these first."""
    return line.startswith(("FAILED ", "ERROR "))


# `<function search at 0x7f0fbe1e6fc0>`: an object's address in a repr, different on every run
# (noise to a reader, and it would make the same failure print differently each time)
ADDRESS_RE = re.compile(r" at 0x[0-9a-fA-F]{6,}(?=>)")
