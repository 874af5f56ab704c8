"""Kilo CLI (7.7, an OpenCode fork): the OpenCode plugin, loaded from Kilo's own config folders,
runs `rtk hook kilo` from `tool.execute.after` with OpenCode's payload (read from Kilo's code),
so every bash result takes the post path as OpenCode's does (hosts/opencode.py). Standard library
only (the hook path).
"""
from __future__ import annotations

from rtk.agent.hosts import opencode
from rtk.agent.hosts.base import EVERY, Host, no_call, no_rewrite

HOST = Host("kilo", None, no_call, opencode.sample, no_rewrite, finished=opencode.finished,
            post_scope=EVERY)
