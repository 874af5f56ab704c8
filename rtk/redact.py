"""Credentials out of what rtk stores: history.db's command text, hook-audit.log, recall entries.

A command line often carries a secret (`curl -H 'Authorization: Bearer ...'`, `git -c
http.extraHeader=...`, `https://user:pass@host`, `--password=...`, `GITHUB_TOKEN=... make`), and
rtk keeps command lines for 90 days. What is stored has the secret replaced by `***`; what runs is
never touched (this is applied at record time only). Redacted: sensitive HTTP headers (as the value
of -H/--header, attached, or a word of its own), `http.*extraHeader=`, the password of a URL's
`user:pass@`, the value of `--password=`/`--token=`-style options (attached or the next word),
`curl -u user:pass`, assignments such as `*_TOKEN=`, `*_KEY=`, `*_SECRET=`, `*PASSWORD=`, and
tokens with a well-known prefix (`ghp_`, `glpat-`, `xoxb-`, `sk-`, `AKIA`...) anywhere.

Standard library only, no `re`: the hook path calls it on the audit line, the run path on every
recorded argv.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

MASK = "***"
HEADER_OPTIONS = frozenset({"-H", "--header", "--proxy-header", "-header"})
USER_OPTIONS = frozenset({"-u", "--user", "--proxy-user", "-U"})
HEADER_NAMES = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
                          "api-key", "apikey", "private-token", "x-auth-token", "x-access-token",
                          "x-goog-api-key", "x-amz-security-token", "x-vault-token", "x-csrf-token"})
HEADER_FRAGMENTS = ("token", "secret", "password", "passwd", "api-key", "apikey", "auth", "cookie",
                    "credential", "session", "signature")
AUTH_SCHEMES = frozenset({"bearer", "basic", "digest", "token", "negotiate", "ntlm", "aws4-hmac-sha256"})
OPTION_SUFFIXES = ("password", "passwd", "passphrase", "secret", "token", "api-key", "apikey",
                   "access-key", "secret-key", "private-key", "auth-key", "credentials", "credential",
                   "cookie")
OPTION_NAMES = frozenset({"pass", "pw", "auth", "bearer", "basic-auth"})
NAME_SUFFIXES = ("_TOKEN", "_KEY", "_SECRET", "PASSWORD", "PASSWD", "_PASS", "_PWD", "_CREDENTIALS",
                 "_AUTH", "_COOKIE", "_APIKEY", "SECRET_KEY", "ACCESS_KEY")
NAME_EXACT = frozenset({"TOKEN", "SECRET", "PASSWORD", "PASSWD", "APIKEY", "API_KEY", "PASS", "AUTH"})
TOKEN_PREFIXES = ("ghp_", "gho_", "ghs_", "ghu_", "ghr_", "github_pat_", "glpat-", "xoxb-", "xoxp-",
                  "xoxa-", "xapp-", "sk-ant-", "sk-proj-", "sk_live_", "rk_live_", "AKIA", "ASIA",
                  "AIza", "npm_", "pypi-", "hf_", "dop_v1_", "shpat_")
TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
TOKEN_MIN = 16  # characters after the prefix: `sk-` alone, `AKIA` in a word, are not secrets


def argv(words: Sequence[str]) -> list[str]:
    """The words with every credential replaced by `***` (a new list; the input is untouched)."""
    out: list[str] = []
    previous = ""
    for word in words:
        out.append(word_after(previous, word))
        previous = word
    return out


def word_after(previous: str, word: str) -> str:
    """One word, redacted in the light of the word before it (`-H VALUE`, `--password VALUE`)."""
    if previous in HEADER_OPTIONS:
        return header(word)
    if previous.startswith("-") and "=" not in previous and _secret_option(previous) and \
            not word.startswith("-"):
        return MASK
    if previous in USER_OPTIONS and ":" in word:
        return word.split(":", 1)[0] + ":" + MASK
    return word_alone(word)


def word_alone(word: str) -> str:
    """A word redacted on its own: `--opt=secret`, `NAME=secret`, `-HAuthorization: x`, a header
    word, a URL's password, a token with a known prefix."""
    if word.startswith("-"):
        word = _option(word)
    elif "=" in word:
        word = _assignment(word)
    elif ":" in word:
        word = header(word)
    if "@" in word and "://" in word:
        word = urls(word)
    return tokens(word)


def _option(word: str) -> str:
    if word.startswith("-H") and len(word) > 2 and word[2] != "=" and ":" in word:
        return "-H" + header(word[2:])
    eq = word.find("=")
    if eq > 0:
        name = word[:eq]
        if name in HEADER_OPTIONS:
            return word[:eq + 1] + header(word[eq + 1:])
        if _secret_option(name):
            return word[:eq + 1] + MASK
        if name in USER_OPTIONS and ":" in word[eq + 1:]:
            return word[:eq + 1] + word[eq + 1:].split(":", 1)[0] + ":" + MASK
        return word[:eq + 1] + word_alone(word[eq + 1:])
    return word


def _secret_option(name: str) -> bool:
    bare = name.lstrip("-").lower().replace("_", "-")
    return bare in OPTION_NAMES or bare.endswith(OPTION_SUFFIXES)


def _assignment(word: str) -> str:
    """`NAME=value` (a shell assignment, `--build-arg X=y`) or `a.b.key=value` (`git -c`)."""
    eq = word.find("=")
    key, value = word[:eq], word[eq + 1:]
    if key.lower().endswith("extraheader"):  # `http.<url>.extraHeader` too
        return word[:eq + 1] + header(value)
    if not key or not NAME_CHARS.issuperset(key):
        return word
    if _secret_name(key):
        return word[:eq + 1] + MASK if value else word
    return word[:eq + 1] + word_alone(value) if value else word


def _secret_name(key: str) -> bool:
    name = key.rsplit(".", 1)[-1].upper().replace("-", "_")
    return name in NAME_EXACT or name.endswith(NAME_SUFFIXES) or name.endswith(("PASSWORD", "TOKEN"))


def header(text: str) -> str:
    """`Name: value`: the value masked when the name is a credential's (a scheme word kept)."""
    colon = text.find(":")
    if colon <= 0:
        return text
    name = text[:colon].strip()
    lowered = name.lower()
    if not name or not NAME_CHARS.issuperset(name) or not (
            lowered in HEADER_NAMES or any(part in lowered for part in HEADER_FRAGMENTS)):
        return text
    value = text[colon + 1:]
    if not value.strip():
        return text
    lead = value[:len(value) - len(value.lstrip())]
    first, _, rest = value.strip().partition(" ")
    if first.lower() in AUTH_SCHEMES and rest.strip():
        return f"{text[:colon + 1]}{lead}{first} {MASK}"
    return f"{text[:colon + 1]}{lead}{MASK}"


def urls(text: str) -> str:
    """Every `scheme://user:password@host` with the password masked (a token as the user, too)."""
    out, pos = [], 0
    while (at := text.find("://", pos)) >= 0:
        start = at + 3
        end = start
        while end < len(text) and text[end] not in "/?# \t\n'\"@":
            end += 1
        if end < len(text) and text[end] == "@":
            userinfo = text[start:end]
            user, colon, password = userinfo.partition(":")
            if colon and password:
                userinfo = f"{user}:{MASK}"
            elif tokens(user) != user or len(user) >= 32:
                userinfo = MASK
            out.append(text[pos:start] + userinfo)
            pos = end
        else:
            out.append(text[pos:start])
            pos = start
    out.append(text[pos:])
    return "".join(out)


def tokens(text: str) -> str:
    """Tokens with a well-known prefix masked (the prefix kept, so the kind stays readable)."""
    if not any(prefix in text for prefix in TOKEN_PREFIXES):
        return text
    for prefix in TOKEN_PREFIXES:
        start = text.find(prefix)
        while start >= 0:
            end = start + len(prefix)
            while end < len(text) and text[end] in TOKEN_CHARS:
                end += 1
            boundary = start == 0 or text[start - 1] not in TOKEN_CHARS
            if boundary and end - start - len(prefix) >= TOKEN_MIN:
                text = text[:start + len(prefix)] + MASK + text[end:]
                end = start + len(prefix) + len(MASK)
            start = text.find(prefix, end)
    return text


def _requote(word: str, quote_word: Callable[[str], str]) -> str:
    """The word as shell text; the mask itself left bare (`TOKEN=***` reads better in a log)."""
    quoted = quote_word(word.replace(MASK, "MASK"))
    return quoted.replace("MASK", MASK) if quoted == word.replace(MASK, "MASK") else quote_word(word)


def command_text(text: str) -> str:
    """A shell command line with its credentials masked: each word redacted as in `argv` (a
    changed word re-quoted in place), then what is inside `$(...)` likewise."""
    if not text:
        return text
    from rtk.shell.parse import parse
    from rtk.shell.quote import quote_word

    script = parse(text)
    edits: list[tuple[int, int, str]] = []
    for command in script.commands():
        previous = ""
        for word in command.words:
            new = word_after(previous, word.value)
            if new != word.value:
                edits.append((word.start, word.end, _requote(new, quote_word)))
            previous = word.value
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    for inner in script.substitutions:
        if inner and (clean := command_text(inner)) != inner:
            text = text.replace(inner, clean, 1)
    return text
