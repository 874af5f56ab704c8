"""Issue 32's matrix with the real hosts: every host (Claude Code newest and 2.1.197, Copilot CLI,
OpenCode, Codex, Gemini CLI) in its default mode runs the same script of commands twice against the
fake model, once with no hook and once with rtk installed by `rtk init`. Per host and command (a
cell): the hooked run gets exactly the outcome (ran / denied) the bare run gets, and where the
command ran the model read rtk's filtered form of the whole output, not the host's preview. A
failing `pytest` is allowed by a user rule in each host; a `git commit` is allowed by nothing.

One session per host and run (the fake model asks for one command a turn), all sessions in parallel
(separate HOMEs and ports), once per test session; each cell is its own test, so a failure names the
host, the command and what the model read. Hosts that are not installed skip with the reason
(hosts.INSTALL says how to get them). `RTK_MATRIX_WORKERS` caps the parallel sessions,
`RTK_MATRIX_DUMP=dir` writes every text the model read, `RTK_MATRIX_HOSTS=a,b` picks hosts.

Where a host's own shell cannot produce a command's output (Gemini 0.61's `diff.external=` with
git 2.39), the cell checks the outcome, then skips saying so: there is nothing for rtk to condense."""

from __future__ import annotations

import os
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.e2e import hosts as host_lib
from tests.e2e.matrix_cells import (
    CELLS,
    COMMIT,
    PYTEST,
    Cell,
    Reference,
    broken_by_host,
    outcome,
    problems,
    reference,
)
from tests.e2e.matrix_project import build

pytestmark = [
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
    pytest.mark.timeout(900),
    # one worker runs every cell: the module-scoped matrix (14 host sessions) is then played once,
    # not once per worker at the same time (twice the load, and hosts timing out under it)
    pytest.mark.xdist_group("host-matrix"),
]
HOSTS = [h for h in host_lib.hosts() if h.name in os.environ.get("RTK_MATRIX_HOSTS", h.name).split(",")]
RUNS = ("bare", "hooked")


@dataclass
class Matrix:
    """Every session's outcome (or the error that ended it), the references, the wall time."""

    references: dict[str, Reference]
    sessions: dict[tuple[str, str], host_lib.Session | BaseException] = field(default_factory=dict)
    seconds: float = 0.0
    base: Path | None = None  # the sessions' roots are base / "<host>-<run>"

    def session(self, host: str, run: str) -> host_lib.Session:
        found = self.sessions[(host, run)]
        if isinstance(found, BaseException):
            pytest.fail(f"{host}: the {run} session failed: {found}")
        return found

    def table(self) -> str:
        """host x cell: the bare and hooked outcomes, for the test log."""
        rows = [f"host matrix: {len(self.sessions)} sessions in {self.seconds:.0f} s"]
        for host in HOSTS:
            pair = [self.sessions.get((host.name, run)) for run in RUNS]
            if not all(isinstance(s, host_lib.Session) for s in pair):
                errors = [repr(s)[:300] for s in pair if isinstance(s, BaseException)]
                rows.append(f"  {host.name}: {host.missing() or '; '.join(errors)}")
                continue
            cells = []
            for i, cell in enumerate(CELLS):
                texts = [s.results[i] if i < len(s.results) else None for s in pair]  # type: ignore[union-attr]
                cells.append(f"{cell.command.split(' ')[0]}:{'/'.join(outcome(t)[0] for t in texts)}")
            times = "/".join(f"{s.seconds:.0f}s" for s in pair)  # type: ignore[union-attr]
            rows.append(f"  {host.name} {host_lib.version(host.binary)} ({times}): {' '.join(cells)}")
        return "\n".join(rows)


def _host_saved_short(matrix: Matrix, host: str, ref: Reference) -> str:
    """OpenCode 1.18.33 can save a long output with a part missing (chunks that arrive while it
    writes the first part to its file are dropped): which facts its saved files lack, "" if none."""
    data = matrix.base / f"{host}-hooked" / "data" if matrix.base else None
    if host != "opencode" or data is None or not data.is_dir():
        return ""
    for saved in data.rglob("tool_*"):
        text = saved.read_text(errors="replace")
        kept = [fact for fact in ref.facts if fact in text]
        if kept and len(kept) < len(ref.facts):
            lost = [fact for fact in ref.facts if fact not in text]
            return f"{saved.name} lacks {len(lost)} of {len(ref.facts)} facts, e.g. {lost[:2]}"
    return ""


def _session_audit(matrix: Matrix, host: str) -> list[list[str]]:
    found = matrix.sessions.get((host, "hooked"))
    return found.audit if isinstance(found, host_lib.Session) else []


def _session(host: host_lib.Host, source: Path, root: Path, hook: bool) -> host_lib.Session | BaseException:
    try:
        work = host_lib.copy_project(source, root)
        return host.session(root, work, [cell.command for cell in CELLS], hook)
    except BaseException as error:  # noqa: BLE001 - reported by the cells of that host
        return error


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> Matrix:
    jobs = [(host, run) for run in RUNS for host in HOSTS if not host.missing()]
    if not jobs:
        return Matrix({})  # every cell skips with its host's reason
    base = tmp_path_factory.mktemp("matrix")
    source = base / "project"
    build(source)
    ref_root = base / "reference"
    work = host_lib.copy_project(source, ref_root)
    env = host_lib.hermetic_env(ref_root)
    found = Matrix({cell.name: reference(cell, work, env) for cell in CELLS}, base=base)
    workers = int(os.environ.get("RTK_MATRIX_WORKERS") or min(len(jobs) or 1, 2 * (os.cpu_count() or 1)))
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(workers, 1)) as pool:
        futures = {
            (host.name, run): pool.submit(_session, host, source, base / f"{host.name}-{run}", run == "hooked")
            for host, run in jobs
        }
        found.sessions = {key: future.result() for key, future in futures.items()}
    found.seconds = time.monotonic() - start
    print(found.table())
    if dump := os.environ.get("RTK_MATRIX_DUMP"):
        _dump(found, Path(dump))
    return found


def _dump(matrix: Matrix, target: Path) -> None:
    """Every text the model read, one file a host, run and cell (RTK_MATRIX_DUMP=dir), and the
    audit lines: for reading a failure in full."""
    target.mkdir(parents=True, exist_ok=True)
    for (host, run), session in matrix.sessions.items():
        if isinstance(session, BaseException):
            (target / f"{host}-{run}.error").write_text(repr(session))
            continue
        for i, text in enumerate(session.results):
            (target / f"{host}-{run}-{i}.txt").write_text(text)
        (target / f"{host}-{run}.audit").write_text("\n".join(" | ".join(f) for f in session.audit))


def _texts(matrix: Matrix, host: str, index: int) -> tuple[str | None, str | None]:
    bare, hooked = (matrix.session(host, run) for run in RUNS)
    return tuple(s.results[index] if index < len(s.results) else None for s in (bare, hooked))  # type: ignore[return-value]


@pytest.mark.parametrize("cell", CELLS, ids=[cell.name for cell in CELLS])
@pytest.mark.parametrize("host", HOSTS, ids=[host.name for host in HOSTS])
def test_cell(matrix: Matrix, host: host_lib.Host, cell: Cell) -> None:
    if reason := host.missing():
        pytest.skip(reason)
    index = CELLS.index(cell)
    bare, hooked = _texts(matrix, host.name, index)
    if cell is PYTEST:  # the premise: the user's rule lets it run with no hook
        assert outcome(bare) == "ran", f"{host.name} did not run the allowed pytest: {str(bare)[:600]}"
    if cell is COMMIT:
        commits = [matrix.session(host.name, run).commits for run in RUNS]
        assert commits[0] == commits[1], f"commits: {commits[0]} with no hook, {commits[1]} with the hook"
    ref = matrix.references[cell.name]
    if broken := broken_by_host(ref, bare):
        assert outcome(bare) == outcome(hooked), f"outcome: {outcome(bare)} with no hook, {outcome(hooked)} with it"
        pytest.skip(f"{host.name} cannot run `{cell.command}` itself (no hook): {broken}")
    found = problems(cell, ref, bare, hooked)
    if found and host.cut and host.cut[0] in (hooked or "") and len(ref.rtk) > host.cut[1]:
        pytest.xfail(f"{host.name} cut rtk's {len(ref.rtk)}-char form of `{cell.command}` at ~{host.cut[1]} chars: "
                     "rtk does not fold to this host's cut yet (rtk/filters/budget.py knows Claude's and Codex's)")
    if found and host.lossy_cut and host.lossy_cut in (hooked or "") and outcome(bare) == outcome(hooked):
        pytest.skip(f"{host.name} cut `{cell.command}`'s output itself and keeps no file of the whole: rtk leaves "
                    "the host's text (it never summarises a part as the whole); the same outcome")
    if found and host.unfiltered and outcome(bare) == outcome(hooked):
        pytest.skip(f"{host.name}: the same outcome ({outcome(bare)}), the host's own output: {host.unfiltered}")
    if found and (short := _host_saved_short(matrix, host.name, ref)):
        pytest.skip(f"{host.name}'s own saved output lacks part of `{cell.command}` ({short}): rtk filtered "
                    "what the host saved, which is all the host itself could show")
    if found and [cell.command] in [fields[1:2] for fields in _session_audit(matrix, host.name)
                                     if fields[:1] == ["post:partial"]]:
        pytest.skip(f"{host.name} saved `{cell.command}`'s output only in part before its after-hook ran "
                    "(OpenCode 1.18.33 finishes writing the file later): rtk kept the host's own text "
                    "rather than summarise a part as the whole")
    assert not found, (
        f"{host.name} `{cell.command}`: " + "; ".join(found)
        + f"\n-- the model read with the hook ({len(hooked or '')} chars):\n{(hooked or '')[:1500]}"
        + f"\n-- and with no hook ({len(bare or '')} chars):\n{(bare or '')[:600]}"
    )
