#!/usr/bin/env python3
"""What session memory costs per call, with 1,000 entries in the context's memory (the store's
caps: 1,000 commands shown, 1,000 failure blocks per tool, 1,000 logged calls).

Usage: session_memory.py [--runs N]. In this process, in a temporary data dir: the run and post
paths' `Memory.raw` + `Memory.apply` on real outputs of this checkout (`git log` ~4 KB, a first
sight, and a repeat; a pytest-shaped failing output ~6 KB, a delta), the pre hook's note and
`rtk X`'s lookup of its agent, and a Read tool re-read of a 20 KB file; then, in fresh
interpreters, what importing the memory costs (it loads `re` for the volatile words).
Prints the median and p95 in milliseconds per call.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
ENTRIES = 1000


def fill(context_key: str) -> None:
    from rtk.session import store

    with store.Locked(context_key) as state:
        for i in range(ENTRIES):
            store.remember(state, f"cmd|/p|cmd{i}", i, time.time(), f"{i:012x}", f"{i:012x}",
                           tuple(f"tests/t.py::test_{i}_{j}" for j in range(3)))
            store.log(state, i, time.time(), "first", f"pytest tests/t{i}.py", 4000, 4000)
        state["items"]["pytest|" + ROOT] = {f"{i:012x}": (i, time.time()) for i in range(ENTRIES)}
        state["calls"] = ENTRIES


def timed(action, runs: int) -> list[float]:  # type: ignore[no-untyped-def]
    samples = []
    for i in range(runs):
        start = time.perf_counter()
        action(i)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def memory_call(context, argv: list[str], name: str, raw: bytes):  # type: ignore[no-untyped-def]
    from rtk.session.memory import Memory

    def call(i: int) -> None:
        memory = Memory(context, argv, name, cwd=ROOT)
        memory.raw(raw)
        memory.apply([(line, 1) for line in raw.decode().splitlines()], "0123456789ab", False, 1)
    return call


def pytest_output(i: int) -> bytes:
    blocks = []
    for n in range(6):
        blocks += [f"FAILED tests/test_calc.py::test_case_{n}",
                   *(f"E       AssertionError: expected {n} got {n + 1} at 0x7f00{i:08x}" for _ in range(12))]
    return ("\n".join(blocks) + f"\npytest: 6 failed, 120 passed in {i}.5s\n").encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    runs = parser.parse_args().runs
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="rtk-session-bench-")
    from rtk.session import hook, identity

    context = identity.Context("claude", "bench-session")
    fill(context.key)
    log = subprocess.run(["git", "-C", ROOT, "log", "-n", "40", "--stat"], capture_output=True, check=True).stdout[:4096]
    results = {
        "git log, first sight (new key each call)": timed(
            lambda i: memory_call(context, ["git", "log", f"-{i}"], "git", log)(i), runs),
        "git log, exact repeat": timed(memory_call(context, ["git", "log"], "git", log), runs),
        "pytest rerun, delta (6 failures)": timed(
            lambda i: memory_call(context, ["pytest", "-q"], "pytest", pytest_output(i))(i), runs),
        "pre hook note + rtk X's lookup": timed(lambda i: (
            identity.note_rewrite(context, [["pytest", "-q"]]),
            identity.from_run(["pytest", "-q"], {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": "bench-session"})),
            runs),
        "Read tool re-read, 20 KB": timed(lambda i: hook.reread(_read_payload(), context), runs),
    }
    for label, samples in results.items():
        samples.sort()
        print(f"{label:<44} median {statistics.median(samples):6.2f} ms   p95 {samples[int(len(samples) * .95)]:6.2f} ms")
    for module in ("rtk.session.memory", "rtk.session.hook"):
        print(f"import {module:<37} {_import_ms(module):6.2f} ms (fresh interpreter, after rtk.paths; incl. re)")
    on, off = _hook_process(log, max(20, runs // 10))
    print(f"`rtk hook claude`, git log post path: memory on {on:6.2f} ms, off {off:6.2f} ms (median wall, "
          "runs alternating)")
    return 0


def _hook_process(log: bytes, runs: int) -> tuple[float, float]:
    """The whole hook process on a git log PostToolUse payload, memory on (a repeat, 1,000 entries)
    and off (RTK_SESSION_MEMORY=0), alternating."""
    import json

    payload = json.dumps({"session_id": "bench-session", "cwd": ROOT, "hook_event_name": "PostToolUse",
                          "tool_name": "Bash", "tool_input": {"command": "git log -n 40 --stat"},
                          "tool_response": {"stdout": log.decode(), "stderr": "", "interrupted": False,
                                            "isImage": False}}).encode()
    rtk = [os.path.join(os.path.dirname(sys.executable), "rtk"), "hook", "claude"]  # bin/rtk, as installed
    times: dict[str, list[float]] = {"on": [], "off": []}
    for _ in range(runs):
        for case in ("on", "off"):
            env = dict(os.environ, RTK_TRACK="0", RTK_SESSION_MEMORY="1" if case == "on" else "0")
            env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: compiled once, not on every call
            start = time.perf_counter()
            subprocess.run(rtk, input=payload, capture_output=True, env=env, check=True, cwd=ROOT)
            times[case].append((time.perf_counter() - start) * 1000)
    return statistics.median(times["on"]), statistics.median(times["off"])


def _read_payload() -> dict[str, object]:
    path = os.path.join(ROOT, "rtk", "run", "pipeline.py")
    with open(path) as handle:
        content = handle.read()[:20000]
    return {"tool_response": {"type": "text", "file": {"filePath": path, "content": content, "numLines": 400,
                                                       "startLine": 1, "totalLines": 400}}}


def _import_ms(module: str) -> float:
    code = (f"import time, rtk.paths; t = time.perf_counter(); import {module}, rtk.session.volatile as v; "
            "v._pattern(); print((time.perf_counter() - t) * 1000)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # .pyc as installed
    times = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                                  check=True, env=env).stdout) for _ in range(9)]
    return statistics.median(times)


if __name__ == "__main__":
    sys.exit(main())
