"""What `rtk verify`, `rtk filters` and `rtk trust` report about the TOML filters, as data.

The CLI modules print; this module gathers: every filter of every source with its load errors,
the verify outcomes, and which filter would serve a command line and why.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from rtk.filters import declarative, launchers
from rtk.filters.declarative.catalog import Catalog, load_all, parse_text, read_bytes
from rtk.filters.declarative.checks import Outcome, check_properties, run_test
from rtk.filters.declarative.definition import FilterDef
from rtk.filters.serves import Serves, Words

SHOWN_CHOICES = 8  # of a position's allowed words, before "and N more"


@dataclass
class VerifyReport:
    rows: list[tuple[FilterDef, list[Outcome]]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.errors) or any(not o.passed for _, outs in self.rows for o in outs)


def catalog_here() -> Catalog:
    return load_all(declarative.all_files(declarative.project_root()))


def verify(only: str | None = None) -> VerifyReport:
    """Inline tests, determinism and never-larger for every filter (or the one named `only`)."""
    found = catalog_here()
    report = VerifyReport(errors=list(found.errors), notes=list(found.orphans))
    report.notes += [f"{path}: project filters {state}, not verified (see `rtk trust`)"
                     for path, state in found.untrusted]
    for spec in found.filters:
        if only is None or spec.name == only:
            report.rows.append((spec, [run_test(spec, t) for t in spec.tests] + check_properties(spec)))
    if only is not None and not report.rows:
        report.errors.append(f"rtk: no TOML filter named {only!r}")
    return report


def describe_file(path: str) -> list[str]:
    """One line per filter of a (possibly untrusted) file: what trusting it would enable."""
    content = read_bytes(path)
    if content is None:
        return ["  (cannot read the file)"]
    found = parse_text("project", path, content)
    lines = [f"  {spec.name}: {', '.join(declarative.describe(m) for m in spec.matchers)}"
             f"{'' if spec.rewrite else ' (never routed by hooks)'}" for spec in found.filters]
    return lines + [f"  {error}" for error in found.errors]


def untrusted_filters() -> list[tuple[str, str, str]]:
    """(name, why, what it serves) of each filter in this project's files that are not trusted."""
    from rtk.filters.declarative import trust

    rows = []
    for path in declarative.project_files(declarative.project_root()):
        content = read_bytes(path)
        state = trust.status(path, content) if content is not None else trust.MISSING
        if content is None or state == trust.TRUSTED:
            continue
        for spec in parse_text("project", path, content).filters:
            rows.append((spec.name, f"project, {state}", ", ".join(declarative.describe(m) for m in spec.matchers)))
    return rows


def command_words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def explain(command: str) -> list[str]:
    """Which filter `rtk COMMAND` would run, and why, as lines to print."""
    from rtk.filters.registry import all_serves

    words = command_words(command)
    if not words:
        return ["rtk: an empty command line"]
    return _first_match(words, all_serves()) or [
        (f"{command}: no dedicated filter; the generic filter runs (ANSI, progress redraws, "
         "repeated and blank lines collapsed)")] + _untrusted_matches(words)


def _first_match(words: list[str], serves: list[Serves]) -> list[str] | None:
    for candidate in launchers.candidates(words):
        for entry in serves:
            for shape in entry.matchers:
                if shape.matches(candidate):
                    return _matched(entry, shape, candidate, words) + _untrusted_matches(words)
    return None


def _untrusted_matches(words: list[str]) -> list[str]:
    """Project filters that would serve the command if their files were trusted."""
    from rtk.filters.declarative import trust

    notes = []
    for path in declarative.project_files(declarative.project_root()):
        content = read_bytes(path)
        if content is None or trust.status(path, content) == trust.TRUSTED:
            continue
        for spec in parse_text("project", path, content).filters:
            if any(declarative.matcher(m).matches(c) for m in spec.matchers for c in launchers.candidates(words)):
                notes.append(f"note: project filter {spec.name} in {path} would serve it once trusted (`rtk trust`)")
    return notes


def _matched(entry: Serves, shape: object, candidate: list[str], words: list[str]) -> list[str]:
    name, source = entry.name, entry.source
    lines = [f"filter: {name} ({source})"]
    if source != "built-in" or entry.module == declarative.MODULE:
        info = declarative.entry_for(name)
        if info is not None:
            lines.append(f"file: {info['path']}")
    lines.append(f"matched: {_shape_text(shape, candidate)}")
    if candidate != words:
        lines.append(f"on: {' '.join(candidate)} (launcher peeled from: {' '.join(words)})")
    if not getattr(shape, "rewrite", True):
        lines.append("hooks: never routed (rewrite = false); runs only when typed as `rtk ...`")
    return lines


def _shape_text(shape: object, candidate: list[str]) -> str:
    if isinstance(shape, Words):
        return _words_text(shape, candidate)
    if isinstance(shape, declarative.CommandRegex):
        return f"match_command /{shape.regex}/"
    if isinstance(shape, declarative.WordPattern):
        words = ["|".join(sorted(shape.program)), *("|".join(sorted(p)) for p in shape.positions)]
        return "match " + " ".join(words + (["*"] if shape.open_end else []))
    return repr(shape)


def _words_text(shape: Words, candidate: list[str]) -> str:
    """`npm test`, said as the shape that took it: the program, then what each position allows."""
    taken, i = [candidate[0]], 1
    for _ in shape.positions:
        i = shape.skip(candidate, i) if shape.skip_options else i
        taken.append(candidate[i])
        i += 1
    parts = [f"the program {' or '.join(sorted(shape.program))}"]
    for allowed in shape.positions:
        choices = sorted(allowed)
        more = f" and {len(choices) - SHOWN_CHOICES} more" if len(choices) > SHOWN_CHOICES else ""
        parts.append(f"one of {', '.join(choices[:SHOWN_CHOICES])}{more}" if len(choices) > 1 else choices[0])
    skipped = " (options in between are skipped)" if shape.positions and shape.skip_options else ""
    return f"`{' '.join(taken)}`: {', then '.join(parts)}{skipped}; anything may follow"
