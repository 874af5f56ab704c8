"""tree: every name at its depth, without the box-drawing art, and tree's closing count.

`├── `, `│   `, `└── ` (and the ASCII `|-- ` forms) become indentation of one space per level,
directories get a trailing `/`, and the `N directories, M files` line is kept verbatim. A tree
longer than the limit (`tree_max_lines`, default 500) keeps its first and last lines and counts
the middle per directory, with recall. `-J` (JSON), `-X` (XML), `-H` (HTML) and `--du`-style
outputs rtk does not parse pass through exactly.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

SERVES = Serves("tree", "tree [options] [dirs]", (Words(("tree",)),))


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.tree.filter import create as build

    return build(ctx)
