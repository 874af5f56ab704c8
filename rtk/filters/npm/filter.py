"""npm, pnpm, yarn and bun: installs summarised, scripts served by the filter of the tool they run.

`npm install|ci|add|remove|update` (and the pnpm/yarn/bun equivalents): see pm.py.
`npm test`, `npm run build`, `pnpm lint`, `yarn test`, `bun run x`: the script's command line is
read from package.json (scripts.py) and each tool of the chain is served by its own filter
(vitest, jest, mocha, eslint, prettier, biome, tsc, the JS builds, node; anything else: the
generic filter), switching when the package manager's banner (`> vitest run`, `$ eslint .`) or
the next tool's first line (` RUN  v4.1.12`, `Checking formatting...`) shows the next command
started (each banner starts a fresh filter; in a workspaces run a `[@scope/pkg]` line heads each
package's part). Dropped (noise): the lifecycle banners (`> pkg@1.0.0 test`), the failure footers the
package manager adds after a failing script (`npm error Lifecycle script ...`, `error Command
failed with exit code 1.`, ` ELIFECYCLE  Test failed.`), `yarn run v1.22.22`, `Done in 1.2s.`,
and the install progress pnpm prints when it checks dependencies before a script.
"""
from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterable, Mapping

from rtk.filters.base import BaseFilter, Filter, FilterContext, Line, Stream, strip_ansi
from rtk.filters.npm import route
from rtk.filters.npm.pm import NOISE as INSTALL_NOISE
from rtk.filters.npm.pm import PackageManagerOutput
from rtk.filters.npm.recursive import RECURSIVE_FLAGS, Packages
from rtk.filters.npm.scripts import script_command

INSTALL_VERBS = frozenset({"install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal",
                           "isntall", "add", "ci", "clean-install", "ic", "install-clean", "uninstall", "un",
                           "unlink", "remove", "rm", "r", "update", "up", "upgrade", "udpate", "prune",
                           "dedupe", "ddp", "link", "ln"})
BANNER_HEAD = re.compile(r"^> \S+@\S* [\w:.-]+(?: \S.*)?$")  # `> pathe@2.0.3 test` (+ pnpm's path)
BANNER_COMMAND = re.compile(r"^(?:> |\$ )(?P<command>\S.*)$")
_FOOTER_PATTERNS = (
    (r"^npm (?:error|ERR!) (?:Lifecycle script|code \d+$|path |workspace |location |command (?:failed|sh -c)|"
     r"errno |Exit status|Failed at the|This is probably not a problem|A complete log of this run)"),
    r"^error Command failed with exit code \d+\.$", r"^info Visit https://yarnpkg\.com/en/docs/cli/run",
    r"^yarn run v\d", r"^Done in [\d.]+m?s\.$", r"^error: script \"[^\"]+\" exited with code \d+",
    r"^\s*\[?ELIFECYCLE\]?\s+(?:Test|Command) failed\. See above", r"^\s*ELIFECYCLE\s+Test failed",
    r"^\s*ERR_PNPM_RECURSIVE_RUN_FIRST_FAIL", r"^npm warn Unknown (?:env|project|user) config",
)
FOOTER = re.compile("|".join(_FOOTER_PATTERNS))
WORKSPACE_FLAGS = frozenset({"--workspaces", "--ws", "-ws", "-w", "--workspace", "-r", "--recursive", "--filter",
                             "-F", "workspaces", "workspace"})
ADDED_LIST = re.compile(r"^(?:[+-] (?:@[\w.-]+/)?[\w.-]+ \d\S*(?: \(.*\))?|(?:dev|optional|peer)?[dD]ependencies:)$")
INSTALL_OUTPUT = "install"  # the inner filter for the package manager's own lines
_NOTHING: tuple[Line, ...] = ()


class ScriptFilter(BaseFilter):
    """A package manager run: install output, or a script served by its tools' filters."""

    def __init__(self, ctx: FilterContext, planned: list[tuple[str, tuple[str, ...]]], install: bool) -> None:
        super().__init__(ctx)
        self._planned = [name for name, _ in planned]  # the filter of each command of the chain, when known
        self._argv = {name: words for name, words in reversed(planned)}  # the first command of each tool
        self._inner: Filter | None = None
        self._inner_name = ""
        self._after_banner = False
        self._finished: list[Filter] = []
        self._install_only = install
        self._workspaces = any(word in WORKSPACE_FLAGS or word.startswith(("--workspace=", "--filter="))
                               for word in ctx.argv)
        self._package = ""
        self._packages = Packages(self._package_filter) if _recursive(ctx.argv) else None
        if install or planned:
            self._switch_to(INSTALL_OUTPUT if install else planned[0][0])

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        if self._install_only:
            return self._inner_feed(line, stream)
        text = strip_ansi(line).rstrip()
        if self._packages is not None and (lines := self._packages.feed(text, stream)) is not None:
            return lines
        if self._after_banner and (command := BANNER_COMMAND.match(text)) is not None:
            self._after_banner = False
            return self._banner_command(command["command"])
        self._after_banner = False
        if BANNER_HEAD.match(text):
            self._after_banner = True
            self._package = text[2:].split(" ", 1)[0]
            return _NOTHING
        if text.startswith("$ ") and self._dollar_banner(text[2:]):
            return self._banner_command(text[2:])
        if FOOTER.search(text) or INSTALL_NOISE.search(text):
            return _NOTHING
        out = self._maybe_switch(text)
        out.extend(self._inner_feed(line, stream))
        return out

    def _banner_command(self, command: str) -> list[Line]:
        """The script's command: its first tool's filter serves what follows (a fresh one: each
        banner is a new run). A nested script (`pnpm lint && vitest run`) names no tool yet: its
        own banner will. Across workspaces each package's output is headed by its name."""
        commands = route.commands_for(command)
        name, words = commands[0] if commands and commands[0][0] != "npm" else (INSTALL_OUTPUT, ())
        if words:
            self._argv[name] = words
        out = self._close_inner(1 if self._inner is not None and self._inner.failure_seen else 0)
        self._inner_name = ""
        if self._workspaces and self._package and name != INSTALL_OUTPUT:
            out.append(Line(f"[{self._package}]"))
        out.extend(self._switch_to(name))
        return out

    def _dollar_banner(self, command: str) -> bool:
        """`$ jest` (yarn, bun, pnpm 12) starts a script; a test printing `$ ls` does not: before
        any tool ran, or naming a tool rtk serves, it is a banner."""
        if self._inner_name in ("", INSTALL_OUTPUT):
            return True
        names = route.filters_for(command)
        return bool(names) and names[0] not in ("generic", "")

    def _maybe_switch(self, text: str) -> list[Line]:
        started = route.output_starts(text)
        if started is None or started == self._inner_name:
            return []
        if self._planned and started not in self._planned and self._inner_name not in ("", "generic"):
            return []  # another tool's look-alike line inside this tool's output
        return self._switch_to(started)

    def _switch_to(self, name: str) -> list[Line]:
        if name == self._inner_name:
            return []
        out = self._close_inner(0)
        ctx = self.ctx.replace(argv=self._argv[name]) if name in self._argv else self.ctx
        if name == INSTALL_OUTPUT:
            self._inner = InstallFilter(ctx, brief=not self._install_only)
        else:
            self._inner = _load(name or "generic", ctx)
        self._inner_name = name
        return out

    def _close_inner(self, exit_code: int) -> list[Line]:
        inner, self._inner = self._inner, None
        if inner is None:
            return []
        self._finished.append(inner)
        return list(inner.finish(exit_code))

    def _inner_feed(self, line: str, stream: Stream) -> Iterable[Line]:
        if self._inner is None:
            if not line.strip():
                return _NOTHING
            self._switch_to(INSTALL_OUTPUT)
        assert self._inner is not None
        return self._inner.feed(line, stream)

    def _package_filter(self, command: str) -> Filter:
        """The filter for one package's script in a recursive run."""
        commands = route.commands_for(command)
        name, words = commands[0] if commands else ("generic", ())
        if name == "npm":
            return InstallFilter(self.ctx, brief=True)
        return _load(name, self.ctx.replace(argv=words))

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._close_inner(exit_code)
        finished = list(self._finished)
        if self._packages is not None:
            out.extend(self._packages.finish())
            finished.extend(self._packages.finished)
        self.failure_seen = any(f.failure_seen for f in finished)
        self.elided = any(f.elided for f in finished)
        return out

    def progress(self) -> Mapping[str, int]:
        return self._inner.progress() if self._inner is not None else {}


class InstallFilter(BaseFilter):
    """The package manager's own output (an install, or what it prints around a script). Around a
    script (`brief`), the list of packages an automatic install added is left out."""

    def __init__(self, ctx: FilterContext, brief: bool = False) -> None:
        super().__init__(ctx)
        self._output = PackageManagerOutput()
        self._brief = brief

    def feed(self, line: str, stream: Stream) -> Iterable[Line]:
        text = strip_ansi(line).rstrip()
        if self._brief and ADDED_LIST.match(text):
            return _NOTHING
        return self._output.feed(text, stream)

    def finish(self, exit_code: int) -> Iterable[Line]:
        out = self._output.summary()
        self.failure_seen, self.elided = self._output.failure_seen, self._output.elided
        return out


def _recursive(argv: tuple[str, ...]) -> bool:
    """`pnpm -r ...`, `pnpm --filter x ...`: lines come prefixed with their package."""
    return bool(argv) and os.path.basename(argv[0]) == "pnpm" and any(w in RECURSIVE_FLAGS for w in argv)


def _load(name: str, ctx: FilterContext) -> Filter:
    from rtk.filters.registry import load

    return load(name, ctx)


def plan(argv: list[str], cwd: str) -> tuple[list[tuple[str, tuple[str, ...]]], bool]:
    """The filter and words of each command of a script's chain (empty when unknown), and whether
    this is an install."""
    manager = os.path.basename(argv[0]) if argv else ""
    verb = next((w for w in argv[1:] if not w.startswith("-")), "")
    if manager == "yarn" and not verb:
        return [], True  # a bare `yarn` installs
    if verb in INSTALL_VERBS:
        return [], True
    command = script_command(argv, cwd)
    if command is None:
        direct = route.tool_filter(shlex.join(argv[1:])) if manager in ("pnpm", "yarn", "bun") else ""
        return ([(direct, tuple(argv[1:]))] if direct not in ("", "generic", "npm") else []), False
    return [(n, words) for n, words in route.commands_for(command) if n != "npm"], False


def create(ctx: FilterContext) -> ScriptFilter:
    argv = list(ctx.argv)
    try:
        cwd = os.getcwd()
    except OSError:
        cwd = "."
    planned, install = plan(argv, cwd)
    return ScriptFilter(ctx.replace(), planned, install)
