"""The program index lets a run import only the filter packages that can serve its program,
with the answer every package would give."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.filters import program_index, registry
from rtk.filters.serves import Serves, Words


def full_classify(argv: list[str]) -> registry.Match | None:
    """What asking every package gives (the registry before the index)."""
    serves = registry.all_serves()
    for candidate in registry.launchers.candidates(list(argv)):
        for entry in serves:
            if (match := entry.match(candidate)) is not None:
                return match
    return None


PROGRAMS = sorted({p for s in registry.all_serves() for m in s.matchers for p in getattr(m, "program", ())})
WORDS = sorted({w for s in registry.all_serves() for m in s.matchers for pos in getattr(m, "positions", ())
                for w in pos}) + ["-x", "--watch", "-n", "5", "--", "run", "exec", "test"]
LAUNCHERS = ["npx", "pnpm", "uv", "python", "python3", "env", "sudo", "time"]
argvs = st.builds(lambda pre, prog, rest: [*pre, prog, *rest],
                  st.lists(st.sampled_from(LAUNCHERS), max_size=2),
                  st.sampled_from(PROGRAMS) | st.text(min_size=1, max_size=5),
                  st.lists(st.sampled_from(WORDS), max_size=4))


@settings(max_examples=1500, deadline=None)
@given(argvs)
def test_classify_through_the_index_is_classify_over_every_package(argv: list[str]) -> None:
    assert registry.classify(argv) == full_classify(argv)


def test_every_filter_is_found_by_name() -> None:
    for serves in registry.all_serves():
        assert registry.lookup(serves.name) == serves


def test_a_changed_package_rebuilds_the_index(tmp_path: Path) -> None:
    filters = tmp_path / "filters"
    (filters / "alpha").mkdir(parents=True)
    init = filters / "alpha" / "__init__.py"
    init.write_text("x = 1\n")
    calls: list[int] = []

    def compute() -> program_index.ProgramIndex:
        calls.append(1)
        return program_index.ProgramIndex({"alpha": ["alpha"]}, [], {"alpha": "alpha"})

    first = program_index.cached(str(filters), ["alpha"], compute)
    again = program_index.cached(str(filters), ["alpha"], compute)
    assert first.programs == again.programs == {"alpha": ["alpha"]} and len(calls) == 1
    init.write_text("x = 22\n")  # another size: another stamp
    program_index.cached(str(filters), ["alpha"], compute)
    assert len(calls) == 2


def test_without_a_writable_place_the_index_is_computed_each_time(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    filters = tmp_path / "ro"
    (filters / "beta").mkdir(parents=True)
    (filters / "beta" / "__init__.py").write_text("")
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")  # even root cannot make a directory under a file
    monkeypatch.setattr(program_index, "_places", lambda d: [os.path.join(str(blocker), "index.marshal")])
    calls: list[int] = []

    def compute() -> program_index.ProgramIndex:
        calls.append(1)
        return program_index.ProgramIndex({}, ["beta"], {})

    assert program_index.cached(str(filters), ["beta"], compute).always == ["beta"]
    assert program_index.cached(str(filters), ["beta"], compute).always == ["beta"] and len(calls) == 2


def test_a_package_without_program_shapes_is_always_imported() -> None:
    class Shape:  # a matcher that does not say which programs it takes
        def matches(self, words: list[str]) -> bool:
            return True

    index = program_index.build({"odd": [Serves("odd", "x", (Shape(),))],  # type: ignore[arg-type]
                                 "plain": [Serves("plain", "y", (Words(("tool",)),))]}, {"dyn"})
    assert index.always == ["dyn", "odd"] and index.programs == {"tool": ["plain"]}
    assert index.packages_for({"tool"}) == {"dyn", "odd", "plain"} and index.names["plain"] == "plain"


def test_each_filter_name_is_declared_by_one_package() -> None:
    """What lets `load` take the Serves `classify` chose under a name: looked up, that name
    finds the same one (a second package declaring it would make the answers differ)."""
    declared: dict[str, list[str]] = {}
    for package in registry._package_names():
        for serves in registry._declared_by(package):
            declared.setdefault(serves.name, []).append(package)
    assert {name: packages for name, packages in declared.items() if len(packages) > 1} == {}


@settings(max_examples=300, deadline=None)
@given(argvs)
def test_the_filter_classify_chose_is_the_one_its_name_looks_up(argv: list[str]) -> None:
    match = registry.classify(argv)
    if match is None:
        assert registry._chosen == {}  # nothing stale from an earlier argv
        return
    (name, chosen), = registry._chosen.items()
    found = registry.lookup(match.filter)
    assert found is not None and name == match.filter
    # (declarative shapes are rebuilt per merge: equal, not the same objects)
    assert (chosen.name, chosen.summary, chosen.module, chosen.priority, chosen.source) == \
        (found.name, found.summary, found.module, found.priority, found.source)
