"""prettier and biome on real captures (express 5 lib/ and examples/)."""
from __future__ import annotations

from rtk.filters.base import FilterContext
from rtk.filters.biome import create as biome
from rtk.filters.prettier import create as prettier
from tests.filters.line_replay import raw_lines, replay


def test_prettier_lists_files_errors_and_one_summary() -> None:
    filt = prettier(FilterContext(("prettier", "--check", ".")))
    out = replay(filt, raw_lines("prettier", "express_check_fail"))
    assert out[0] == "lib/application.js" and "examples/mvc/db.js" in out
    assert any(line.startswith("error: examples/ejs/views/footer.html: SyntaxError: Unexpected closing tag") for line in out)
    assert not any(line.startswith(("[error] >", "[warn]", "Checking")) for line in out)
    assert out[-1] == "prettier: 59 files need formatting (prettier --write fixes them), 1 error"
    assert filt.failure_seen


def test_prettier_all_good_is_kept_verbatim() -> None:
    out = replay(prettier(FilterContext(("prettier", "-c", "test"))), raw_lines("prettier", "pathe_check_pass_tests"), 0)
    assert out == ["prettier: All matched files use Prettier code style!"]


def test_biome_groups_a_rule_and_message_with_every_position() -> None:
    filt = biome(FilterContext(("biome", "lint", "lib")))
    out = replay(filt, raw_lines("biome", "express_lint"))
    assert ("  error lint/correctness/noInnerDeclarations: This var should be declared at the root of the enclosing"
            " function. (x7): L197:5 L324:10 L498:8 L550:5 L559:7 L562:7 L602:5") in out
    assert out[-1] == ("biome: Diagnostics not shown: 90; Checked 6 files in 20ms. No fixes applied; Found 42 errors; "
                       "Found 53 warnings; Found 15 infos")
    assert not any("│" in line for line in out) and filt.elided and filt.failure_seen


def test_biome_format_names_each_file() -> None:
    out = replay(biome(FilterContext(("biome", "format", "lib"))), raw_lines("biome", "express_format"))
    assert out[:2] == ["lib/application.js", "  error: needs formatting"] and len(out) == 13
