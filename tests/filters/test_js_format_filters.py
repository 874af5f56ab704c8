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
    places = " ".join(f"lib/application.js:{at}" for at in ("197:5", "324:10", "498:8", "550:5", "559:7", "562:7", "602:5"))
    assert ("error lint/correctness/noInnerDeclarations: This var should be declared at the root of the enclosing"
            f" function. (x7): {places}") in out
    assert "lib/application.js" not in out  # every diagnostic has a place, so no file heading
    assert out[-1] == ("biome: Diagnostics not shown: 90; Checked 6 files in 20ms. No fixes applied; Found 42 errors; "
                       "Found 53 warnings; Found 15 infos")
    assert not any("│" in line for line in out) and filt.elided and filt.failure_seen


def test_biome_format_names_each_file() -> None:
    out = replay(biome(FilterContext(("biome", "format", "lib"))), raw_lines("biome", "express_format"))
    files = ["application", "express", "request", "response", "utils", "view"]
    assert out[:-1] == [line for name in files for line in (f"lib/{name}.js", "error: needs formatting")]
    assert out[-1] == "biome: Checked 6 files in 8ms. No fixes applied; Found 6 errors"
