"""`rtk make` for real: a generated C project with a warning and an error, real make and cc."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import rtk_executable

CC = shutil.which("cc") or shutil.which("gcc")
pytestmark = pytest.mark.skipif(shutil.which("make") is None or CC is None, reason="make or a C compiler is not installed")

MAKEFILE = "CFLAGS = -Wall -O2\nall: good.o bad.o\n%.o: %.c\n\t$(CC) $(CFLAGS) -c -o $@ $<\n"
GOOD_C = "int good(int x) {\n    int unused = 3;\n    return x + 1;\n}\n"
BAD_C = "int bad(const char *s) {\n    return s->length;\n}\n"


def test_make_keeps_the_warning_the_error_and_the_make_line(tmp_path: Path) -> None:
    for name, text in {"Makefile": MAKEFILE, "good.c": GOOD_C, "bad.c": BAD_C}.items():
        (tmp_path / name).write_text(text)
    plain = subprocess.run(["make", "-k", f"CC={CC}"], cwd=tmp_path, capture_output=True, text=True, check=False)
    for target in ("good.o", "bad.o"):
        (tmp_path / target).unlink(missing_ok=True)
    through = subprocess.run([*rtk_executable(), "make", "-k", f"CC={CC}"], cwd=tmp_path, capture_output=True,
                             text=True, check=False, timeout=300)
    assert through.returncode == plain.returncode == 2
    out = through.stdout + through.stderr
    assert "good.c:2:9: warning: unused variable" in out
    assert "bad.c:2:13: error:" in out
    assert "make: *** [Makefile:4: bad.o] Error 1" in out
    assert f"{CC} -Wall -O2 -c" not in out
    assert "build: 1 errors, 2 warnings (2 command lines not shown)" in out  # bad.c also warns -Wreturn-type
