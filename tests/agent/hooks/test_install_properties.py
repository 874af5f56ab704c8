"""Property: for any user hook document, rtk's install then uninstall gives back the user's
document (keys, order, their hooks; a `version` the file format needs is kept), and a second
install changes nothing."""
from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rtk.agent.install.edits import AGENTS, add_hook, hook_commands, missing_events, remove_hook

words = st.text(st.characters(codec="utf-8"), min_size=1, max_size=12)
user_commands = words.filter(lambda w: "rtk" not in w)
nested_entry = st.fixed_dictionaries({
    "matcher": st.sampled_from(["Bash", "*", "Edit", "run_shell_command", "Shell"]),
    "hooks": st.lists(st.fixed_dictionaries({"type": st.sampled_from(["command", "prompt"]),
                                             "command": user_commands}), min_size=1, max_size=3)})
flat_entry = st.one_of(
    st.fixed_dictionaries({"command": user_commands, "matcher": st.sampled_from(["Shell", "Read"])}),
    st.fixed_dictionaries({"type": st.just("prompt"), "prompt": words}),
    st.fixed_dictionaries({"type": st.just("command"), "command": user_commands, "timeoutSec": st.integers(1, 60)}))
EVENTS = ["PreToolUse", "PostToolUse", "preToolUse", "postToolUse", "BeforeTool", "Stop"]


def documents(entry: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    hooks = st.dictionaries(st.sampled_from(EVENTS), st.lists(entry, min_size=1, max_size=4), min_size=1)
    others = st.dictionaries(words.filter(lambda k: k != "hooks"), st.one_of(words, st.integers()), max_size=3)
    return st.tuples(others, hooks).map(lambda pair: {**pair[0], "hooks": pair[1]})


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(list(AGENTS)), st.data())
def test_install_then_uninstall_gives_the_users_document_back(name: str, data: st.DataObject) -> None:
    agent = AGENTS[name]
    doc = data.draw(documents(nested_entry if agent.nested else flat_entry))
    original = copy.deepcopy(doc)
    assert add_hook(doc, agent, f"rtk hook {name}") in ("added", "updated")
    assert len(hook_commands(doc, agent)) == len(agent.events) and missing_events(doc, agent) == []
    installed = copy.deepcopy(doc)
    assert add_hook(doc, agent, f"rtk hook {name}") == "present" and doc == installed
    assert remove_hook(doc, agent)
    for key in agent.preamble:  # Cursor's and Copilot's `"version": 1`, which their files need, stays
        if key not in original:
            assert doc.pop(key) == agent.preamble[key]
    assert doc == original and list(doc) == list(original)
    assert {event: list(entries) for event, entries in doc["hooks"].items()} == original["hooks"]
