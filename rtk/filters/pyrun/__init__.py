"""pyrun: a Python program's own output, its tracebacks shortened; `python -m unittest` results.

Keeps everything the program printed except inside a traceback, where each frame becomes one
line (`path:line in func: code`), the frames in library code (site-packages, the standard
library, `<frozen ...>`) are counted except the innermost one that raised, carets are dropped,
and every exception line and chain separator (`The above exception was the direct cause ...`)
is kept. `unittest`: every FAIL/ERROR block with its test id, traceback and assertion message,
`Ran N tests`, `OK`/`FAILED (...)`; the dots and `... ok` lines are dropped (skips counted), also
for runners built on unittest (`manage.py test`, `setup.py test`, runtests.py).
`python script.py` (and flask, django-admin, alembic, celery, uvicorn, gunicorn, scrapy) is
served when run through rtk but never routed by a hook (a REPL or an
interactive script must reach the agent as it is); `python -m unittest` is routed.
"""
from __future__ import annotations

from rtk.filters.serves import Serves, Words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.filters.base import Filter, FilterContext

PYTHONS = ("python", "python3") + tuple(f"python3.{minor}" for minor in range(8, 16))
# Python CLIs that die with a traceback on bad input or a broken app; served, never routed
PYTHON_CLIS = ("flask", "django-admin", "alembic", "celery", "uvicorn", "gunicorn", "scrapy")

SERVES = Serves(
    "pyrun",
    "python script.py | python -m module (tracebacks), python -m unittest",
    (Words(("unittest",)), Words(PYTHONS, rewrite=False), Words(PYTHON_CLIS, rewrite=False)),
    priority=200,
)


def create(ctx: FilterContext) -> Filter:
    from rtk.filters.pyrun.filter import PyrunFilter

    return PyrunFilter(ctx)
