"""`rtk verify [--filter NAME] [--require-all]`: run every TOML filter's inline tests.

Also checks that each filter is deterministic and never prints more than it read, and reports
files that failed to load. Prints one table row per filter; exit 1 when anything failed.
"""
from __future__ import annotations

import click

VERIFY_EPILOG = """\b
Examples:
  rtk verify                 # every filter's inline tests, determinism, never larger
  rtk verify --filter make
\b
Exit codes: 0 everything passed; 1 a test, a check or a filter file failed; 2 usage error."""


@click.command(name="verify", epilog=VERIFY_EPILOG)
@click.option("--filter", "only", metavar="NAME", help="Verify only this filter.")
@click.option("--require-all", is_flag=True, help="Fail when a filter has no inline tests.")
@click.pass_context
def verify_cmd(ctx: click.Context, only: str | None, require_all: bool) -> None:
    """Run the TOML filters' inline tests (built-in, user, trusted project)."""
    from rtk.filters.base import plural
    from rtk.filters.declarative.report import verify

    report = verify(only)
    failed = report.failed
    width = max([len(spec.name) for spec, _ in report.rows] + [6])
    click.echo(f"{'FILTER':<{width}}  {'SOURCE':<8}  {'TESTS':>5}  RESULT")
    for spec, outcomes in report.rows:
        tests = [o for o in outcomes if not o.test.startswith(("deterministic:", "never larger:"))]
        bad = [o for o in outcomes if not o.passed]
        untested = not spec.tests
        failed = failed or (require_all and untested)
        result = "FAIL" if bad else ("no tests" if untested else "ok")
        click.echo(f"{spec.name:<{width}}  {spec.source:<8}  {sum(o.passed for o in tests):>2}/{len(tests):<2}  {result}")
        for outcome in bad:
            click.echo(f"    {outcome.test}: {outcome.detail}")
    for line in report.errors:
        click.echo(line, err=True)
    for line in report.notes:
        click.echo(f"rtk: note: {line}", err=True)
    total = sum(len(o) for _, o in report.rows)
    passed = sum(x.passed for _, o in report.rows for x in o)
    click.echo(f"{passed}/{total} checks passed, {plural(len(report.rows), 'filter')}"
               + (f", {plural(len(report.errors), 'load error')}" if report.errors else ""))
    ctx.exit(1 if failed else 0)
