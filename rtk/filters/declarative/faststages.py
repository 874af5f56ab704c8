"""The stateful stages of a kept line written out as code, for the generated feed (fastfeed.py).

A stage's `feed` costs a Python call, a list or tuple for its answer and a loop over it in the
caller, per line and per stage: on grouped output (shellcheck, yamllint, markdownlint) that was
most of the engine's time. Here each stage is a few statements on a local variable that hand
what the stage prints to the code of the next stage (`Emit`), ending in the output list. The
stages' scalar state lives in locals for the length of a call: `loads` reads it from the stage
objects at the start, `stores` writes it back at the end (in a `finally`), so the plain path
(stages.py, the reference) and the generated one can take turns on the same state. Collapse
(rare, its state a run of lines) keeps its own `feed`.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from .fast import Names, finder, one_test_expr
from .pipeline import RulePipeline
from .stages import CarryPrefix, Collapse, Grouper, HeadingRepeater, Window, _Bucket

Emit = Callable[[str], list[str]]  # an expression holding a printed text -> the code that prints it


class StageCode:
    """The code of one pipeline's stage chain, and the state it keeps in locals; `direct`
    (the one-line feed, where a load and a store per call would cost more than they save):
    the state's names stand for the attributes themselves (`attributes` rewrites the code)."""

    def __init__(self, pipeline: RulePipeline, names: Names, out: str, *, direct: bool = False) -> None:
        self.pipeline, self.names, self.out, self.direct = pipeline, names, out, direct
        self.loads: list[str] = []
        self.stores: list[str] = []
        self._held: dict[str, str] = {}
        self._fresh = 0
        self._windows: dict[str, str] = {}  # a variable -> one already holding its 4,096-character window

    def state(self, local: str, holder: object, attribute: str) -> None:
        """`local` holds `holder.attribute` while the generated function runs."""
        if local in self._held:
            return
        owner = self.names.add(holder, "owner")
        self._held[local] = f"{owner}.{attribute}"
        if not self.direct:
            self.loads.append(f"{local} = {owner}.{attribute}")
            self.stores.append(f"{owner}.{attribute} = {local}")

    def attributes(self, code: list[str]) -> list[str]:
        """`code` with each state name as its attribute, when `direct` (else as it is)."""
        if not self.direct or not self._held:
            return code
        names = re.compile(r"(?<![.\w])(" + "|".join(sorted(self._held, key=len, reverse=True)) + r")\b")
        return [names.sub(lambda found: self._held[found.group(1)], line) for line in code]

    def var(self, hint: str) -> str:
        self._fresh += 1
        return f"{hint}_{self._fresh}"

    def chain(self, expr: str) -> list[str]:
        """The code for one kept text: the cut, then every stage, then the output list."""
        rules, names = self.pipeline.rules, self.names
        text = self.var("cut")
        code = [f"{text} = {expr}"]
        if expr == "text":
            self._windows[text] = "probe"  # the line's window, made before the rules (fastfeed._body)
        if rules.truncate_at is not None:
            self._windows.pop(text, None)  # the Rust rtk's cut: N characters, "..." included
            limit, keep = names.add(rules.truncate_at, "limit"), names.add(max(rules.truncate_at - 3, 0), "keep")
            code += [f"if len({text}) > {limit}:", f'    {text} = {text}[:{keep}] + "..."',
                     "    pipeline.truncated = True"]
        return code + self._stages(list(self.pipeline.stages))(text)

    def _same(self, var: str, expr: str) -> None:
        """`var` is assigned `expr`: when that is a variable with a known window, so has `var`."""
        if expr in self._windows:
            self._windows[var] = self._windows[expr]

    def _probe(self, var: str) -> str:
        """What the stages' regexes look at: the first 4,096 characters (a copy only past
        them), or the variable that already holds them."""
        return self._windows.get(var) or f"({var} if len({var}) <= 4096 else {var}[:4096])"

    def _stages(self, stages: list[object]) -> Emit:
        if not stages:
            return self._printed
        first, rest = stages[0], self._stages(stages[1:])
        writer = {CarryPrefix: self._carry, Collapse: self._collapse, Grouper: self._group,
                  HeadingRepeater: self._headings, Window: self._window}[type(first)]
        return lambda expr: writer(first, expr, rest)  # type: ignore[operator]

    def _printed(self, expr: str) -> list[str]:
        code = []
        if self.pipeline.rules.on_empty is not None:
            self.state("printed", self.pipeline, "printed")  # (a local: one attribute load less a line)
            code.append(f"if not printed and {expr}.strip(): printed = True")
        return code + [self.out.format(expr)]

    def _window(self, window: Window, expr: str, down: Emit) -> list[str]:
        """Window.feed: the first `streamed` lines go on, the tail window holds the later ones."""
        self.state("window_seen", window, "seen")
        code = ["window_seen += 1", f"if window_seen <= {self.names.add(window.streamed, 'streamed')}:"]
        code += _indent(down(expr))
        if window.tail is not None:
            code += [f"elif window_seen > {self.names.add(window.hold_from, 'hold_from')}:",
                     f"    {self.names.add(window.held.append, 'hold')}({expr})"]
        return code

    def _collapse(self, collapse: Collapse, expr: str, down: Emit) -> list[str]:
        each = self.var("run")
        return [f"for {each} in {self.names.add(collapse.feed, 'stage')}({expr}):"] + _indent(down(each))

    def _headings(self, headings: HeadingRepeater, expr: str, down: Emit) -> list[str]:
        """HeadingRepeater.feed: a heading line is remembered; every `every` lines under it it
        is printed again, `(continued)`, before the line."""
        self.state("heading_current", headings, "current")
        self.state("heading_under", headings, "under")
        names, text = self.names, self.var("under")
        self._same(text, expr)
        test = one_test_expr(headings.pattern, self._probe(text), names)
        return [f"{text} = {expr}", f"if {test}:", f"    heading_current = {text}", "    heading_under = 0",
                *_indent(down(text)), "elif heading_current is None:", *_indent(down(text)), "else:",
                "    heading_under += 1", f"    if heading_under > {names.add(headings.every, 'every')}:",
                "        heading_under = 1", *_indent(down('heading_current + " (continued)"'), 2),
                *_indent(down(text), 2), "    else:", *_indent(down(text), 2)]

    def _carry(self, carry: CarryPrefix, expr: str, down: Emit) -> list[str]:
        """CarryPrefix.feed: a heading waits for the lines under it; each gets it in front, and
        a heading nothing took is printed as it came before whatever follows."""
        self.state("carry_heading", carry, "heading")
        self.state("carry_used", carry, "used")
        names, text, probe = self.names, self.var("carried"), self.var("carry_probe")
        flush = ["if carry_heading is not None and not carry_used:", *_indent(down("carry_heading"))]
        self._same(text, expr)
        return [f"{text} = {expr}", f"{probe} = {self._probe(text)}",
                f"if {one_test_expr(carry.spec.pattern, probe, names)}:", *_indent(flush),
                f"    carry_heading, carry_used = {text}, False",
                f"elif carry_heading is not None and {one_test_expr(carry.spec.to, probe, names)}:",
                "    carry_used = True", *_indent(down(f'carry_heading + " " + {text}.lstrip()')),
                "else:", *_indent(flush), "    carry_heading = None", *_indent(down(text))]

    def _group(self, group: Grouper, expr: str, down: Emit) -> list[str]:
        """Grouper.feed: a grouped line goes to its key's bucket (head list, then tail window);
        an ungrouped one streams before the first group and is held after it."""
        self.state("group_held", group, "held")
        names, text, found = self.names, self.var("grouped"), self.var("found")
        self._same(text, expr)
        buckets, after = names.add(group.buckets, "buckets"), names.add(group.after, "after")
        key = _key_and_item(group, text)
        ungrouped = [f"if not {buckets} or len({after}) >= {names.add(group.HOLD_CAP, 'hold_cap')}:",
                     *_indent(down(text)), "else:", f"    {after}.append({text})"]
        return [f"{text} = {expr}",
                f"{found} = {names.add(finder(group.spec.pattern), 'search')}({self._probe(text)})",
                f"if {found} is None:", *_indent(ungrouped), "else:", f"    {key.format(found)}",
                f"    bucket = {buckets}.get(key)",
                (f"    if group_held >= {names.add(group.BUDGET, 'budget')} or bucket is None and "
                 f"len({buckets}) >= {names.add(group.spec.max_groups, 'max_groups')}:"),
                *_indent(ungrouped, 2), "    else:", "        if bucket is None:",
                f"            bucket = {buckets}[key] = {names.add(_Bucket, 'Bucket')}({names.add(group.tail_items, 'tail')})",
                "        bucket.count += 1", f"        group_held += len({text}) + 16",
                f"        if len(bucket.head) < {names.add(group.head_items, 'head')}:",
                '            bucket.head.append(item or "")', "        else:", '            bucket.tail.append(item or "")']


def _key_and_item(group: Grouper, text: str) -> str:
    """The statement taking a grouped line's key and item out of its match (`{}`): `groups()`
    when those two are the pattern's only groups (~90 ns here), else `group` by number (~170);
    by name it was ~320, each name looked up on every line."""
    key, item, count = group._key_index, group._item_index, group.spec.pattern.groups
    if not group._has_item:
        return f"key, item = {{}}.group({key}), {text}"
    if count == 2:
        return "key, item = {}.groups()" if key == 1 else "item, key = {}.groups()"
    return f"key, item = {{}}.group({key}, {item})"


def _indent(code: list[str], depth: int = 1) -> list[str]:
    return ["    " * depth + line for line in code]
