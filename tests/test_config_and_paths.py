"""A broken, pathological or unreachable config never stops a command (one `rtk:` line, defaults);
rtk's data directories are 0700 and its files 0600 whatever the umask."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from rtk import config, paths
from tests.conftest import rtk_executable


def rtk(*args: str, env: dict[str, str] | None = None, umask: int | None = None
        ) -> subprocess.CompletedProcess[bytes]:
    def set_umask() -> None:
        if umask is not None:
            os.umask(umask)

    return subprocess.run([*rtk_executable(), *args], capture_output=True, timeout=60, check=False,
                          env={**os.environ, **(env or {})}, preexec_fn=set_umask, stdin=subprocess.DEVNULL)


def write_config(home: Path, text: str | bytes) -> Path:
    path = home / "config" / "rtk" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


@pytest.mark.parametrize("text", [
    "x = " + "[" * 500 + "]" * 500,                      # tomllib recurses: RecursionError
    "[tracking]\nenabled = " + "{a = " * 400 + "1" + "}" * 400,
    b"[tracking]\nenabled = \xff\n",                     # not UTF-8
    "[tracking\nenabled = maybe\n",                      # not TOML
])
def test_a_pathological_config_is_one_line_and_the_command_runs(hermetic_rtk: Path, text: str) -> None:
    path = write_config(hermetic_rtk, text)
    result = rtk("echo", "still runs")
    assert result.returncode == 0 and result.stdout == b"still runs\n"
    assert result.stderr.count(b"\n") == 1 and result.stderr.startswith(b"rtk: ")
    assert str(path).encode() in result.stderr and b"Traceback" not in result.stderr


def test_a_huge_config_is_refused_without_reading_it_all(hermetic_rtk: Path) -> None:
    write_config(hermetic_rtk, "# padding\n" * (config.MAX_CONFIG_BYTES // 10 + 10))
    config.reset_cache()
    cfg = config.load(report=False)
    assert cfg.problems and "larger than" in cfg.problems[0] and cfg.tracking_enabled


def test_a_directory_where_the_config_should_be(hermetic_rtk: Path) -> None:
    (hermetic_rtk / "config" / "rtk" / "config.toml").mkdir(parents=True)
    result = rtk("echo", "ok")
    assert result.returncode == 0 and result.stdout == b"ok\n"
    assert result.stderr.count(b"\n") == 1 and result.stderr.startswith(b"rtk: cannot read")


def test_a_read_only_config_directory(hermetic_rtk: Path) -> None:
    path = write_config(hermetic_rtk, "[tracking]\nenabled = true\n")
    path.parent.chmod(0o555)
    try:
        result = rtk("echo", "ok")
        assert result.returncode == 0 and result.stdout == b"ok\n" and result.stderr == b""
        shown = rtk("config")
        assert shown.returncode == 0 and b"Traceback" not in shown.stderr
    finally:
        path.parent.chmod(0o755)


def test_an_unreadable_config_directory(hermetic_rtk: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads any directory: an unreadable one cannot be made here")
    path = write_config(hermetic_rtk, "[tracking]\nenabled = true\n")
    path.parent.chmod(0)
    try:
        result = rtk("echo", "ok")
        assert result.returncode == 0 and result.stdout == b"ok\n"
        assert result.stderr.count(b"\n") == 1 and result.stderr.startswith(b"rtk: ")
    finally:
        path.parent.chmod(0o755)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("umask", [0o000, 0o022, 0o077])
def test_data_directories_and_files_are_private_whatever_the_umask(hermetic_rtk: Path, umask: int) -> None:
    code = "import sys; sys.stdout.buffer.write(b'bytes that are not UTF-8: \\xff\\n'); sys.exit(1)"
    result = rtk("python3", "-c", code, umask=umask, env={"RTK_TRACK": "0"})
    assert result.returncode == 1 and b"rtk recall" in result.stdout
    data = hermetic_rtk / "data"
    created = [p for p in [data, *data.rglob("*")]]
    assert any(p.suffix in (".gz", ".raw") for p in created), "nothing was kept for recall"
    for path in created:
        assert mode(path) == (0o700 if path.is_dir() else 0o600), f"{path}: {oct(mode(path))}"


def test_private_dir_narrows_an_existing_rtk_directory(hermetic_rtk: Path) -> None:
    data = Path(paths.data_dir_path())
    data.mkdir(parents=True, mode=0o755)
    data.chmod(0o755)
    paths.private_dir(paths.recall_dir())
    assert mode(data) == 0o700 and mode(data / "recall") == 0o700


def test_private_dir_leaves_a_directory_outside_rtk_alone(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    paths.private_dir_path(str(shared))
    assert mode(shared) == 0o755


def test_open_private_is_0600_under_a_umask_that_removes_owner_bits(tmp_path: Path) -> None:
    old = os.umask(0o277)
    try:
        fd = paths.open_private(tmp_path / "f", os.O_WRONLY | os.O_TRUNC)
        os.close(fd)
    finally:
        os.umask(old)
    assert mode(tmp_path / "f") == 0o600


def test_a_config_is_parsed_once_then_read_from_the_parse_cache(hermetic_rtk: Path) -> None:
    probe = ("import sys\nfrom rtk import config\ncfg = config.load(report=False)\n"
             "print('tomllib' in sys.modules, cfg.get('recall', 'max_entries'), len(cfg.ignored))")
    write_config(hermetic_rtk, "[recall]\nmax_entries = 7\n[nope]\nx = 1\n")
    runs = [subprocess.run([sys.executable, "-c", probe], capture_output=True,
                           text=True, check=True, env=os.environ).stdout.split() for _ in range(2)]
    assert runs == [["True", "7", "1"], ["False", "7", "1"]]  # same values and ignored keys, no tomllib
    write_config(hermetic_rtk, "[recall]\nmax_entries = 9\n")  # another text: parsed again
    again = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                           env=os.environ).stdout.split()
    assert again == ["True", "9", "0"]
