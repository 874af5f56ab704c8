"""OpenCode: a small plugin file instead of a hook entry.

OpenCode 1.18 loads every `{plugin,plugins}/*.{ts,js}` of its config directory
(`$XDG_CONFIG_HOME/opencode`, default `~/.config/opencode`; a project's `.opencode`). rtk's plugin
answers `tool.execute.after` for the bash tool: OpenCode has run the command under its own rules,
the plugin hands the output to `rtk hook opencode` and puts rtk's answer in its place
(spec/post-path.md). It is plain JavaScript with no dependency (importing `@opencode-ai/plugin`
would make OpenCode install it from npm), runs rtk synchronously with a timeout, never throws (a
throwing plugin fails the tool call) and never prints: whatever goes wrong, the model reads
OpenCode's own output.

The file is rtk's alone: it is recognised by its first line, replaced when rtk changes, deleted on
uninstall. A file of the same name that rtk did not write is never touched.

Kilo CLI (7.7, an OpenCode fork) loads the same plugins from `$XDG_CONFIG_HOME/kilo` and a
project's `.kilo`, with the same `tool.execute.after` (read from its own code): the same file,
running `rtk hook kilo`.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

PLUGIN_NAME = "rtk.js"
GLOBAL_DIR = "opencode/plugins"
LOCAL_PATH = ".opencode/plugins/" + PLUGIN_NAME
# rtk's plugin starts with MARKER_START (1.x went on "`rtk init --uninstall ...`", still rtk's)
MARKER_START = "// written by `rtk init`; "
MARKER = MARKER_START + "`rtk uninstall -g --agent opencode` (in a project: without -g) removes this file"
GLOBAL_DIRS = {"opencode": GLOBAL_DIR, "kilo": "kilo/plugins"}  # under XDG_CONFIG_HOME
LOCAL_PATHS = {"opencode": LOCAL_PATH, "kilo": ".kilo/plugins/" + PLUGIN_NAME}
TIMEOUT_MS = 30_000
_PROGRAM_LINE = "const RTK = "

PLUGIN_JS = """{marker}
// OpenCode runs each bash command under its own rules; after it ran, rtk condenses the output the
// model reads (`rtk hook opencode` answers {{"output": "..."}} to replace it, nothing to keep it).
// Any failure (no rtk, a timeout, a bad answer) keeps OpenCode's output: this plugin never throws.
import {{ spawnSync }} from "node:child_process"

{program_line}{program}
const TIMEOUT_MS = {timeout}

export const RtkPlugin = async (ctx) => {{
  const cwd = ctx && typeof ctx.directory === "string" ? ctx.directory : process.cwd()
  return {{
    "tool.execute.after": async (input, output) => {{
      try {{
        if (!input || input.tool !== "bash" || !output || typeof output.output !== "string") return
        const payload = JSON.stringify({{
          hook_event_name: "tool.execute.after",
          tool: input.tool,
          args: input.args,
          cwd,
          exit: output.metadata && output.metadata.exit,
          output: output.output,
        }})
        const run = spawnSync(RTK[0], [...RTK.slice(1), "hook", "{host}"], {{
          input: payload,
          encoding: "utf8",
          timeout: TIMEOUT_MS,
          maxBuffer: 256 * 1024 * 1024,
          stdio: ["pipe", "pipe", "ignore"],
          windowsHide: true,
        }})
        if (run.error || run.status !== 0 || typeof run.stdout !== "string" || !run.stdout.trim()) return
        const answer = JSON.parse(run.stdout)
        if (answer && typeof answer.output === "string") output.output = answer.output
      }} catch (error) {{
        // keep OpenCode's own output
      }}
    }},
  }}
}}
"""


def global_file(home: Path, app: str = "opencode") -> Path:
    """The plugin in the app's global config directory (XDG_CONFIG_HOME when set, as OpenCode
    and Kilo read it)."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    config = Path(base) if base and os.path.isabs(base) else home / ".config"
    return config / GLOBAL_DIRS[app] / PLUGIN_NAME


def plugin_source(program: list[str], app: str = "opencode") -> bytes:
    """The plugin running `PROGRAM... hook APP` (a JSON array is a JavaScript literal)."""
    marker = f"{MARKER_START}`rtk uninstall -g --agent {app}` (in a project: without -g) removes this file"
    return PLUGIN_JS.format(marker=marker, program_line=_PROGRAM_LINE, program=json.dumps(program),
                            timeout=TIMEOUT_MS, host=app).encode()


def upstream_plugin(plugin: Path) -> Path | None:
    """The Rust rtk's plugin beside ours (`plugins/rtk.ts`, rewriting commands before they run),
    if installed: rtk leaves it alone and says so."""
    other = plugin.with_name("rtk.ts")
    try:
        return other if b"rtk hook opencode" in other.read_bytes() else None
    except OSError:
        return None


def is_ours(data: bytes | None) -> bool:
    return data is not None and data.startswith(MARKER_START.encode())


def plugin_program(data: bytes) -> list[str] | None:
    """The program an rtk plugin runs, as written in it (None when unreadable)."""
    for line in data.decode("utf-8", "replace").splitlines():
        if line.startswith(_PROGRAM_LINE):
            try:
                program = json.loads(line[len(_PROGRAM_LINE):])
            except ValueError:
                return None
            ok = isinstance(program, list) and program and all(isinstance(w, str) for w in program)
            return program if ok else None
    return None
