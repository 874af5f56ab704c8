"""What the left-out middle of a long file holds: its definitions and headings, with line numbers.

An agent reads a file to change it; when the middle is left out it needs to know which
`sed -n A,Bp` to run. So the middle's lines are scanned as they pass (nothing is kept but the
matches) for what names a place in the file: Python/JS/TS/Go/Rust/C/C++/Java/Kotlin/C#/Ruby/PHP/
shell definitions, classes and functions; Markdown and reStructuredText headings; TOML/INI
sections; YAML top-level keys; Makefile targets; JSON keys that open an object or array. The
language comes from the file name; a name rtk does not know gets the patterns that rarely match
by accident (def/class/function/fn/func lines and Markdown headings). When the outline is longer
than its room, nested entries go first (methods before classes, `###` before `#`), then every
other top-level entry, with a count of what was left out.
"""
from __future__ import annotations

import posixpath
import re

MAX_ENTRIES = 20_000  # past this, nested entries are no longer recorded (memory stays bounded)
ENTRY_CHARS = 100     # an entry's text is cut here

_PY = (r"(?:async\s+def|def|class)\s+\w",)
_JS = ((r"(?:export\s+(?:default\s+)?)?(?:declare\s+)?(?:(?:async\s+)?function\b|(?:abstract\s+)?class\s+\w"
       r"|interface\s+\w|type\s+\w+\s*(?:<[^=]*>)?\s*=|enum\s+\w|namespace\s+\w|module\s+['\"\w])"),
       r"(?:export\s+)?(?:const|let|var)\s+[\w$]+\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>)",
       r"(?:module\.)?exports(?:\.[\w$]+)?\s*=|[\w$]+\.prototype\.[\w$]+\s*=",
       (r"(?:(?:public|private|protected|static|async|get|set|readonly|override|abstract)\s+)*"
       r"(?!(?:if|for|while|switch|catch|return|function|else|do|with|new|typeof)\b)[\w$#]+\s*(?:<[^>]*>)?\([^;]*\)\s*(?::\s*[^;{]+)?\{\s*$"),
       r"(?:describe|it|test|suite)\s*\(\s*['\"`]")
_GO = (r"func\s", r"type\s+\w", r"(?:var|const)\s*\(")
_RUST = ((r"(?:pub(?:\([^)]*\))?\s+)?(?:(?:async|unsafe|const|extern(?:\s+\"\w+\")?|default)\s+)*"
         r"(?:fn|struct|enum|trait|impl|mod|union|type|macro_rules!)[\s<!]"), r"#\[(?:test|cfg\(test\))\]")
_C = ((r"(?!(?:if|else|for|while|switch|return|do|case|goto|sizeof|typedef\s+\w+\s+\w+;)\b)"
      r"[A-Za-z_][\w \t*&:<>,~]*?\b~?\w+\s*\([^;]*$"),
      r"(?:typedef\s+)?(?:struct|union|enum|class|namespace)\b[^;]*(?:\{\s*)?$", r"#\s*define\s+\w+\(")
_JAVA = ((r"(?:@\w+\s+)*(?:(?:public|private|protected|internal|static|final|abstract|sealed|open|data|"
         r"inner|override|suspend|synchronized|native|default|partial|virtual|async|readonly)\s+)*"
         r"(?:class|interface|enum|record|object|struct|@interface|fun)\s+\w"),
         (r"(?:(?:public|private|protected|internal|static|final|abstract|synchronized|native|default|"
         r"override|virtual|async)\s+)+[\w<>\[\]?,. ]+\s+\w+\s*\("))
_RUBY = (r"(?:def|class|module)\s", r"(?:describe|context|it)\s+['\"]")
_PHP = (r"(?:(?:public|private|protected|static|final|abstract)\s+)*(?:function|class|interface|trait|enum)\s+\w",)
_SHELL = (r"(?:function\s+)?[\w.:-]+\s*\(\)\s*\{?", r"function\s+[\w.:-]+")
_MARKDOWN = (r"#{1,6}\s+\S",)
_TOML = (r"\[\[?[^\]]+\]\]?\s*(?:[#;].*)?$",)
_YAML = (r"(?!-)[\w\"'./-][^:#]*:(?:\s|$)", r"---\s*$")
_MAKE = (r"[\w./%$(){}-]+(?:\s+[\w./%$(){}-]+)*\s*::?(?!=)", r"(?:define|ifeq|ifdef|include)\s")
_JSON = (r"\"(?:[^\"\\]|\\.)+\"\s*:\s*[\[{]",)
_SQL = (r"(?i)(?:create|alter)\s+(?:or\s+replace\s+)?(?:table|view|function|procedure|index|trigger|type)\b",)
_CSS = (r"@media|@supports|@keyframes|[^\s{}/*][^{};]*\{\s*$",)
_ANY = (r"(?:export\s+)?(?:async\s+)?(?:def|class|function|fn|func)\s+\w", r"#{1,6}\s+\S")

LANGUAGES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("py", "pyi", "pyx"), _PY),
    **dict.fromkeys(("js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "vue", "svelte"), _JS),
    "go": _GO, "rs": _RUST,
    **dict.fromkeys(("c", "h", "cc", "cpp", "cxx", "hpp", "hh", "hxx", "m", "mm"), _C),
    **dict.fromkeys(("java", "kt", "kts", "scala", "cs", "swift", "groovy", "dart"), _JAVA),
    **dict.fromkeys(("rb", "rake", "gemspec"), _RUBY), "php": _PHP,
    **dict.fromkeys(("sh", "bash", "zsh", "ksh"), _SHELL),
    **dict.fromkeys(("md", "markdown", "mdx", "rst", "txt", "adoc"), _MARKDOWN),
    **dict.fromkeys(("toml", "ini", "cfg", "conf", "properties", "desktop", "service", "editorconfig"), _TOML),
    **dict.fromkeys(("yaml", "yml"), _YAML), **dict.fromkeys(("mk", "make"), _MAKE),
    **dict.fromkeys(("json", "jsonc", "json5", "ipynb"), _JSON), "sql": _SQL,
    **dict.fromkeys(("css", "scss", "sass", "less"), _CSS),
    "log": (),
}
NAMES = {"makefile": _MAKE, "gnumakefile": _MAKE, "gemfile": _RUBY, "rakefile": _RUBY, "vagrantfile": _RUBY,
         "dockerfile": (r"FROM\s",), "pipfile": _TOML, "setup.cfg": _TOML, ".gitconfig": _TOML}
SETEXT = re.compile(r"^(?:=+|-+|~+|\^+|\*+)\s*$")  # a heading's underline (Markdown, reST)


def patterns_for(name: str | None) -> tuple[str, ...]:
    """The entry patterns for a file name (a path is fine); None or unknown: _ANY."""
    if not name:
        return _ANY
    base = posixpath.basename(name).lower()
    if base in NAMES:
        return NAMES[base]
    stem, dot, ext = base.rpartition(".")
    if dot and ext in LANGUAGES:
        return LANGUAGES[ext]
    if base.startswith("dockerfile") or stem.startswith("dockerfile"):
        return NAMES["dockerfile"]
    return _ANY


class Outline:
    """Fed every line (`see`) as it passes; `render` lists the entries of a range of lines."""

    def __init__(self, name: str | None) -> None:
        patterns = patterns_for(name)
        self.regex = re.compile("|".join(f"(?:{p})" for p in patterns)) if patterns else None
        self.setext = patterns in (_MARKDOWN, _ANY)
        self.entries: list[tuple[int, int, str]] = []  # (line number, depth, text)
        self.previous = ""
        self.deepest = 1 << 30  # entries deeper than this are no longer recorded

    def see(self, number: int, text: str) -> None:
        previous, self.previous = self.previous, text
        if self.regex is None:
            return
        stripped = text.lstrip()
        if self.setext and previous.strip() and stripped and SETEXT.match(text) and len(text.strip()) >= 3 \
                and not previous.startswith((" ", "\t", "#")):
            self._record(number - 1, 1 if text.lstrip()[0] == "=" else 2, previous)
        elif stripped and self.regex.match(stripped):
            self._record(number, _depth(text, stripped), text)

    def _record(self, number: int, depth: int, text: str) -> None:
        if depth > self.deepest:
            return
        self.entries.append((number, depth, text.strip()[:ENTRY_CHARS]))
        if len(self.entries) > MAX_ENTRIES:  # keep the shallower ones
            self.deepest = max(d for _, d, _ in self.entries) - 1
            self.entries = [e for e in self.entries if e[1] <= self.deepest]

    def render(self, first: int, last: int, max_chars: int) -> list[str]:
        """The entries of lines first..last that fit in `max_chars`, with a heading line."""
        return render_entries(self.entries, first, last, max_chars)


def render_entries(all_entries: list[tuple[int, int, str]], first: int, last: int, max_chars: int,
                   what: str = "definitions/headings") -> list[str]:
    """(line number, depth, text) entries of lines first..last within `max_chars`: the shallow
    ones first, deeper ones while they fit, thinned evenly when even the top level does not."""
    entries = [e for e in all_entries if first <= e[0] <= last]
    if not entries or max_chars <= 0:
        return []
    depths = sorted({d for _, d, _ in entries})
    chosen = [e for e in entries if e[1] == depths[0]]
    for depth in depths[1:]:
        wider = [e for e in entries if e[1] <= depth]
        if _size(wider, depths) > max_chars:
            chosen = _partly(chosen, [e for e in entries if e[1] == depth], depths, max_chars)
            break
        chosen = wider
    chosen = _thinned(chosen, depths, max_chars)
    left_out = len(entries) - len(chosen)
    more = f"; {left_out:,} more, nested or between, left out" if left_out else ""
    head = f"  in lines {first:,}-{last:,} ({len(entries):,} {what}{more}):"
    return [head, *(_entry(e, depths) for e in chosen)]


def _depth(text: str, stripped: str) -> int:
    if stripped.startswith("#") and not stripped.startswith(("#[", "#define", "# define")):
        return len(stripped) - len(stripped.lstrip("#")) - 1  # a Markdown heading's level
    indent = text[:len(text) - len(stripped)]
    return len(indent.replace("\t", "    "))


def _entry(entry: tuple[int, int, str], depths: list[int]) -> str:
    number, depth, text = entry
    return f"{'  ' * (depths.index(depth) + 2)}{number}: {text}"


def _size(entries: list[tuple[int, int, str]], depths: list[int]) -> int:
    return sum(len(_entry(e, depths)) + 1 for e in entries)


def _partly(chosen: list[tuple[int, int, str]], deeper: list[tuple[int, int, str]], depths: list[int],
            max_chars: int) -> list[tuple[int, int, str]]:
    """The entries of one more level that fit beside `chosen`, spread evenly over the range."""
    room = max_chars - _size(chosen, depths)
    if room <= 0 or not deeper:
        return chosen
    extra = _thinned(deeper, depths, room)
    return sorted(chosen + extra)


def _thinned(entries: list[tuple[int, int, str]], depths: list[int], max_chars: int) -> list[tuple[int, int, str]]:
    """Every k-th entry, evenly over the range, when even the top level is over the room."""
    size = _size(entries, depths)
    if size <= max_chars:
        return entries
    keep = max(1, len(entries) * max_chars // size - 1)
    step = len(entries) / keep
    return [entries[int(i * step)] for i in range(keep)]
