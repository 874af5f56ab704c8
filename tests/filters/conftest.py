from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-expected", action="store_true", help="rewrite fixtures' expected.txt")
