"""Rule patterns of each host as plain string matchers: Claude's `Bash(...)`, Cursor's `Shell(...)`,
Gemini's `run_shell_command(...)` prefixes.

A pattern turns into a `Pattern`: a test over one command form (a string) and the `head` its every
match starts with (the text before its first wildcard). The head lets a caller ask "could this
rule match a command of which only the first characters are known?" (a command with `$VAR` in
it): that is how a deny rule keeps covering what the lexer cannot read. Globs are matched without
`re` (importing it costs ~6 ms before every agent command). `parse_claude` and friends return None
for a malformed pattern, which the caller reports and ignores.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

STAR = "\x00*"  # a wildcard token in a glob's token list
MAX_GLOBSTARS = 4


class Pattern:
    """`test(form)` and the text `head` every matching form starts with ("" when anything goes)."""

    __slots__ = ("head", "kind", "test")

    def __init__(self, kind: str, head: str, test: Callable[[str], bool]) -> None:
        self.kind, self.head, self.test = kind, head, test

    def could_match(self, known: str) -> bool:
        """Whether some command whose text starts with `known` could match."""
        return self.head.startswith(known) or known.startswith(self.head)


def everything() -> Pattern:
    return Pattern("everything", "", lambda form: True)


def collapse(text: str) -> str:
    """Runs of spaces and tabs as one space (Claude's normalisation for prefix and wildcard rules)."""
    return " ".join(part for part in text.replace("\t", " ").split(" ") if part) if text else text


def word_prefix(prefix: str) -> Callable[[str], bool]:
    """`form == prefix` or `form` starts with `prefix` and a space."""
    size = len(prefix)
    return lambda form: form.startswith(prefix) and (len(form) == size or form[size] == " ")


def parse_claude(content: str) -> Pattern | None:
    """Claude Code's `Bash(content)`: `X:*` prefix, an unescaped `*` a wildcard, else exact."""
    text = content.strip()
    if not text:
        return None
    if text.endswith(":*"):
        prefix = collapse(text[:-2])
        if not prefix or ":*" in prefix:
            return None
        return Pattern("prefix", prefix, word_prefix(prefix))
    if ":*" in text:
        return None
    tokens = _glob_tokens(text)
    if STAR not in tokens and "/**/" not in tokens:
        exact = text
        return Pattern("exact", exact, lambda form: form == exact)
    return _wildcard(tokens)


def parse_cursor(content: str) -> Pattern | None:
    """Cursor's `Shell(base)`: the command base at a word boundary; `*` (or `**`) a glob."""
    text = collapse(content.strip())
    if not text:
        return None
    if text.strip("*") == "":
        return everything()
    if "*" not in text:
        return Pattern("prefix", text, word_prefix(text))
    return _wildcard([STAR if ch == "*" else ch for ch in text.replace("**", "*")])


def parse_prefix(content: str) -> Pattern | None:
    """Gemini's `run_shell_command(prefix)`: the command starts with prefix at a word boundary."""
    text = content.strip()
    if not text:
        return everything()
    return Pattern("prefix", text, gemini_prefix(text))


def gemini_prefix(prefix: str) -> Callable[[str], bool]:
    """Gemini matches `"command":"PREFIX` then white space, `"` or `\\"` in the JSON text: the
    command itself, or the prefix then a quote or a white-space character JSON does not escape."""
    size = len(prefix)

    def test(form: str) -> bool:
        if not form.startswith(prefix):
            return False
        if len(form) == size:
            return True
        nxt = form[size]
        return nxt == '"' or (nxt.isspace() and ord(nxt) >= 0x20)
    return test


def gemini_regex(regex: str, fold: bool = False) -> Pattern:
    """A policy's `commandRegex`: Gemini searches `"command":"<regex>` in the JSON of the tool's
    arguments, so the regex must match at the start of the JSON-escaped command. Its head is ""
    (any command could match); an invalid regex matches everything (it may be a deny). `fold`:
    case-insensitive, for deny rules tried on case-folded forms."""
    import re  # only when a Gemini policy file has a commandRegex rule

    from rtk import quickjson

    try:
        compiled = re.compile(regex, re.IGNORECASE if fold else 0)
    except re.error:
        return everything()
    return Pattern("regex", "", lambda form: compiled.match(quickjson.dumps(form)[1:-1]) is not None)


def _glob_tokens(text: str) -> list[str]:
    """Claude's wildcard syntax: `\\*` a literal star, `\\\\` a backslash, `*` a wildcard and `/**/`
    any number of directories; white space collapsed as Claude does."""
    tokens: list[str] = []
    i, text = 0, collapse(text)
    while i < len(text):
        ch = text[i]
        if ch == "\\" and text[i + 1:i + 2] in ("*", "\\"):
            tokens.append(text[i + 1])
            i += 2
        elif text.startswith("/**/", i):
            tokens.append("/**/")
            i += 4
        elif ch == "*":
            tokens.append(STAR)
            i += 1
        else:
            tokens.append(ch)
            i += 1
    return tokens


def _wildcard(tokens: list[str]) -> Pattern:
    """A glob; a single trailing ` *` also matches nothing at all (`ls *` matches `ls`)."""
    alternatives = _expand_globstars(tokens)
    if tokens.count(STAR) == 1 and tokens[-2:] == [" ", STAR]:
        alternatives.append(tokens[:-2])
    head = "".join(_literal_head(tokens))
    return Pattern("wildcard", head,
                   lambda form: any(_glob_match(alt, collapse(form)) for alt in alternatives))


def _literal_head(tokens: list[str]) -> list[str]:
    out = []
    for tok in tokens:
        if tok in (STAR, "/**/"):
            break
        out.append(tok)
    return out


def _expand_globstars(tokens: list[str]) -> list[list[str]]:
    """`/**/` is `/` or `/*/`: each alternative holds only characters and STAR."""
    alternatives: list[list[str]] = [[]]
    for tok in tokens:
        if tok == "/**/" and len(alternatives) < 2 ** MAX_GLOBSTARS:
            alternatives = [alt + more for alt in alternatives for more in (["/"], ["/", STAR, "/"])]
        elif tok == "/**/":
            alternatives = [alt + ["/", STAR, "/"] for alt in alternatives]
        else:
            alternatives = [alt + [tok] for alt in alternatives]
    return alternatives


def _glob_match(tokens: list[str], text: str) -> bool:
    """Full match of characters and STARs (`.*`, dot matching newline), iterative with one
    backtrack point: linear in practice, never recursive."""
    parts = "".join(tokens).split(STAR)
    if len(parts) == 1:
        return text == parts[0]
    first, last, middle = parts[0], parts[-1], parts[1:-1]
    if len(text) < len(first) + len(last) or not text.startswith(first) or not text.endswith(last):
        return False
    pos, end = len(first), len(text) - len(last)
    for part in middle:
        found = text.find(part, pos, end)
        if found < 0:
            return False
        pos = found + len(part)
    return True
