"""Rewrite tests run with HOME and the working directory in tmp_path: no real settings file is read."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _home_in_tmp(isolated_home: Path) -> Path:
    return isolated_home


Writer = Callable[..., Path]


@pytest.fixture
def settings(tmp_path: Path) -> Writer:
    """settings(relpath, data, base="home"|"project"): write a JSON (or raw text) settings file."""

    def write(relpath: str, data: object, base: str = "home") -> Path:
        path = tmp_path / base / relpath
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        return path

    return write


def claude_rules(allow: list[str] = (), ask: list[str] = (), deny: list[str] = ()) -> dict:  # type: ignore[assignment]
    return {"permissions": {"allow": list(allow), "ask": list(ask), "deny": list(deny)}}
