"""One filter as the engine runs it: its matchers, its rule sets and its inline tests."""
from __future__ import annotations

from dataclasses import dataclass

from .matchers import MatcherData, matchers_for
from .rules import Rules, check_rule_fields, compile_rules
from .schema import FILTER_FIELDS, REQUIRED, RULE_FIELDS, TEST_FIELDS, SpecError, check_strings, check_table


@dataclass(frozen=True)
class InlineTest:
    name: str
    input: str
    expected: str
    exit_code: int = 0


@dataclass(frozen=True)
class FilterDef:
    name: str
    source: str                      # "built-in", "user" or "project"
    path: str
    description: str
    matchers: tuple[MatcherData, ...]  # ("w", ...) / ("r", ...), see the package __init__
    filter_stderr: bool
    pass_through_args: tuple[str, ...]
    rules: Rules
    failure: Rules | None
    tests: tuple[InlineTest, ...]
    priority: int = 100
    handles_failure: bool = False    # has on_failure: its output explains a non-zero exit

    @property
    def rewrite(self) -> bool:
        return any(bool(m[-1]) for m in self.matchers)

    def passes_through(self, args: tuple[str, ...] | list[str]) -> bool:
        """`pass_through_if_args`: an invocation shape the filter must not touch."""
        return any(_names_option(arg, option) for arg in args for option in self.pass_through_args)


def _names_option(arg: str, option: str) -> bool:
    if arg == option or arg.startswith(option + "="):
        return True
    return len(option) == 2 and option.startswith("-") and not arg.startswith("--") \
        and arg.startswith("-") and option[1] in arg[1:]


def build_filter(name: str, table: object, tests: object, source: str, path: str) -> FilterDef:
    """Check and compile one `[filters.NAME]` table and its `[[tests.NAME]]`; SpecError if bad."""
    where = f"filters.{name}"
    checked = check_table(table, FILTER_FIELDS, where)
    failure = checked.get("on_failure")
    merged = None
    if failure is not None:
        check_rule_fields(failure, f"{where}.on_failure")  # type: ignore[arg-type]
        own = {k: v for k, v in checked.items() if k in RULE_FIELDS}
        merged = {**own, **failure}  # type: ignore[dict-item]
        if merged == own:
            merged = None  # same rules either way: nothing to hold back for
    return FilterDef(
        name=name,
        source=source,
        path=path,
        description=str(checked.get("description", "")),
        matchers=tuple(matchers_for(checked, where)),
        filter_stderr=bool(checked.get("filter_stderr", False)),
        pass_through_args=tuple(check_strings(checked.get("pass_through_if_args", []),
                                              f"{where}.pass_through_if_args")),
        rules=compile_rules(checked, where),
        failure=compile_rules(merged, f"{where}.on_failure") if merged is not None else None,
        tests=_tests(name, tests),
        priority=int(checked.get("priority", 100)),  # type: ignore[call-overload]
        handles_failure=failure is not None,
    )


def _tests(name: str, tests: object) -> tuple[InlineTest, ...]:
    if tests is None:
        return ()
    if not isinstance(tests, list):
        raise SpecError(f"tests.{name}: expected an array of tables ([[tests.{name}]])")
    found = []
    for i, test in enumerate(tests):
        checked = check_table(test, TEST_FIELDS, f"tests.{name}[{i}]", REQUIRED["test"])
        found.append(InlineTest(str(checked.get("name", f"test {i + 1}")), str(checked["input"]),
                                str(checked["expected"]), int(checked.get("exit_code", 0))))  # type: ignore[call-overload]
    return tuple(found)
