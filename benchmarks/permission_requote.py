"""Re-quote table: denied commands written the ways bash reads identically; how many does the hook
answer `allow` (or rewrite, which the host's deny rule no longer recognises)?"""
import json
import os
import tempfile

home = tempfile.mkdtemp()
os.environ["HOME"] = home
os.makedirs(home + "/.claude"); os.makedirs(home + "/.cursor"); os.makedirs(home + "/work")
with open(home + "/.claude/settings.json", "w") as settings:
    json.dump({"permissions": {"allow": ["Bash(git:*)", "Bash(cargo:*)"],
                               "deny": ["Bash(git push:*)", "Bash(git push --force)", "Bash(git commit:*)",
                                        "Bash(cargo publish:*)"]}}, settings)
with open(home + "/.cursor/cli-config.json", "w") as settings:
    json.dump({"permissions": {"allow": ["Shell(git)", "Shell(cargo)"],
                               "deny": ["Shell(git push)", "Shell(git commit)", "Shell(cargo publish)"]}}, settings)
try:
    from rtk.agent.hooks import respond
    from rtk.agent.hosts import HOSTS
except ImportError:
    from rtk.hook_hosts import HOSTS
    from rtk.hooks import respond

BASES = [["git", "push"], ["git", "push", "--force"], ["git", "push", "origin", "main"], ["git", "commit", "-m", "wip"],
         ["cargo", "publish"]]
def styles(word):
    h = max(1, len(word) // 2)
    return [f"'{word}'", f'"{word}"', f"{word[:h]}''{word[h:]}", "".join("\\" + c for c in word),
            "$'" + word + "'", f"{word[:h]}\\\n{word[h:]}", f'{word[:h]}"{word[h:]}"',
            "$'" + "".join(f"\\x{ord(c):02x}" for c in word) + "'"]
SUFFIX = ["", " 2>&1", " >/dev/null", " 2>/dev/null"]
PREFIX = ["", "git status && ", "cd . ; "]
commands = []
for base in BASES:
    for i, word in enumerate(base):
        for style in styles(word):
            words = base[:i] + [style] + base[i + 1:]
            for suffix in SUFFIX:
                for prefix in PREFIX:
                    commands.append(prefix + " ".join(words) + suffix)
    for suffix in SUFFIX:   # plain, with redirections only
        for prefix in PREFIX:
            commands.append(prefix + " ".join(base) + suffix)
def kind(answer):
    if not answer: return "none"
    inner = answer.get("hookSpecificOutput", answer)
    d = inner.get("permissionDecision") or answer.get("permission")
    return d if d in ("allow", "ask") else "rewrite"
for host in ("claude", "cursor"):
    counts = {}
    for c in commands:
        payload = HOSTS[host].sample(c, home + "/work")
        k = kind(respond(HOSTS[host], payload).answer)
        counts[k] = counts.get(k, 0) + 1
    print(host, len(commands), counts)
