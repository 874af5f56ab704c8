"""The post path's filter: a command the host already ran goes through the run path's own pipeline
(filter choice, hold and never larger, crash fallback, raw tail, recall, accounting), fed with
what the host captured instead of a child's pipes.

`rtk hook <host>` calls `filter_finished` (the hook entry point passes it in, so that `rtk.agent`
never imports the runner). The text is the host's merged stdout and stderr; when the host cut
it and saved the whole output to a file, the file is read instead (a regular file only, up to
MAX_SAVED bytes). The answer is the filtered text only when it is smaller than the command's
whole output (under Claude Code it also fits Claude's 30,000-char limit: the pipeline's host
budget); otherwise None and the host keeps its output. A failure of any kind is None too: the
post path never costs the agent an output. No trio, tiktoken or click is imported here.
"""
from __future__ import annotations

import os
import stat
import sys
import time

from rtk import config
from rtk.filters.base import Stream
from rtk.filters.budget import host_limit
from rtk.run.pipeline import Writer, build_pipeline

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rtk.agent.hosts.base import Finished

READ_SIZE = 256 * 1024
MAX_SAVED = 256 * 1024 * 1024  # a saved output past this is left to the host


class TextWriter(Writer):
    """The pipeline's writer, keeping what it prints instead of writing it to a descriptor."""

    def __init__(self, on_printed: object = None) -> None:
        super().__init__(on_printed)  # type: ignore[arg-type]
        self.chunks: list[bytes] = []

    def write_bytes(self, data: bytes, stream: Stream) -> None:
        self.printed_bytes += len(data)
        if self._on_printed:
            self._on_printed(data)
        self.chunks.append(data)

    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", "replace")


def filter_finished(host: str, done: Finished, argv: list[str]) -> str | None:
    """The routed command's filtered output, or None to keep the host's (fails open)."""
    try:
        return _filter(host, done, argv)
    except Exception as exc:  # noqa: BLE001 - the host's own output is always a safe answer
        print(f"rtk: hook {host}: post filter failed ({type(exc).__name__}: {exc}); output kept",
              file=sys.stderr)
        return None


def _filter(host: str, done: Finished, argv: list[str]) -> str | None:
    started, t0 = time.time(), time.monotonic()
    if done.cwd and os.path.isdir(done.cwd):
        os.chdir(done.cwd)  # filters resolve paths (package.json, the file read) from there
    if done.preview_limit:  # the pipeline keeps what it prints within the host's preview limit
        os.environ.setdefault("CLAUDECODE", "1")
    cfg = config.load()
    from rtk.run.runner import choose_filter

    name = choose_filter(argv, None, cfg)
    if name == "passthrough":
        return None
    chunks = _saved_chunks(done.saved) if done.saved else None
    if chunks is not None and done.saved_tail:
        chunks = _completed(chunks, done.saved_tail.encode("utf-8", "surrogatepass"))
        if chunks is None:
            done.partial = True
            return None  # the file is short of what the host showed: no summary of a part as the whole
    read_saved = chunks is not None  # the host cut its text: the model would read only that
    if chunks is None:
        chunks = [done.text.encode("utf-8", "surrogatepass")]
    from rtk.track import accounting

    accountant = accounting.start(argv, name)
    writer = TextWriter(accountant.printed if accountant else None)
    from rtk.session.start import for_post

    memory = for_post(getattr(done, "context", None), argv, name, cfg)
    pipeline = build_pipeline(argv, name, cfg, writer, accountant.raw if accountant else None, hold_seconds=None,
                              char_limit=host_limit(os.environ, cfg.limits), maps=bool(done.preview_limit),
                              memory=memory)
    for chunk in chunks:
        pipeline.feed(chunk, Stream.STDOUT)
    outcome = pipeline.finish(done.exit_code)
    body = writer.text().rstrip("\n")
    replaced = len(body.encode("utf-8", "surrogatepass")) < pipeline.raw_bytes and body != done.text.rstrip("\n")
    if accountant is not None and not replaced:
        accountant.discard()  # the host shows its own output: rtk saved nothing, and printed nothing
    elif accountant is not None:
        accountant.finish(accounting.RunRecord(
            argv=argv, filter=name, exit_code=done.exit_code, wall_ms=int((time.monotonic() - t0) * 1000),
            cwd=os.getcwd(), started=started, raw_bytes=pipeline.raw_bytes, printed_bytes=writer.printed_bytes,
            recall_id=outcome.recall_id, filter_error=outcome.filter_error,
            via=f"post:{host}", preview_limit=done.preview_limit,
            baseline_text=done.text if read_saved and not done.preview_limit else None))
    return body if replaced else None


def _completed(chunks: list[bytes], tail: bytes) -> list[bytes] | None:
    """The saved output when it ends with the end the host showed, else None. A file short of its
    last writes is not joined with that end: repetitive output (a rename across a diff) finds its
    last bytes again further on, and a wrong join would pass a part for the whole."""
    data = b"".join(chunks)
    return chunks if data.rstrip().endswith(tail.rstrip()) else None


def _saved_chunks(path: str) -> list[bytes] | None:
    """The whole output the host saved, when `path` is a regular file of a sane size."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_SAVED:
            return None
        chunks = []
        while chunk := os.read(fd, READ_SIZE):
            chunks.append(chunk)
        return chunks
    finally:
        os.close(fd)
