"""A folded output's left-out runs name the files in them (rtk.filters.path_outline)."""
from __future__ import annotations

import pytest

from rtk.filters.budget import Fold
from rtk.filters.path_outline import PathOutline, leading_path


@pytest.mark.parametrize(("line", "path"), [
    ("lib/email/policy.py (+21 -21, 7 hunks not shown)", "lib/email/policy.py"),
    ("src/a.py:12:3: E501 line too long", "src/a.py"),
    ("./cmd/root.go", "./cmd/root.go"),
    ("vendor/codecs (+1 -1, not shown)", "vendor/codecs"),
    ("README.md", "README.md"),
    ("+    def f(self):", ""), ("@@ -1,2 +1,3 @@", ""), ("  indented.py", ""), ("... 20 hunks not shown", ""),
    ("1.2.3", ""), ("https://example.com/x.json", ""), ("", ""),
])
def test_the_path_a_line_starts_with(line: str, path: str) -> None:
    assert leading_path(line) == path


def test_a_folded_diff_names_every_file_of_its_left_out_middle() -> None:
    lines = []
    for n in range(60):
        lines.append(f"pkg/module_{n}.py (+40 -40)")
        lines += [f"-    old_line_{n}_{k} = self.value_{k}" for k in range(40)]
    fold = Fold(9_000, PathOutline())
    for text in lines:
        fold.add(text)
    out = "\n".join(text for text, _ in fold.close("[full output: rtk recall x]"))
    assert len(out) <= 9_000
    assert all(f"pkg/module_{n}.py" in out for n in range(60)), out
    assert "files in them: " in out
