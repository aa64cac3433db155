"""The fingerprint log (docs/reference/fingerprint.md): one JSON line per step, appended.

The writer opens the file once, for append; each line goes out in one ``os.write`` (the file is
unbuffered, so a line is on its way to the disk when the call returns), and the file is
fsynced at close. The reader checks what the spec asks of a log and keeps, per step, only where
its line is, so that a long reference run costs its index, not its contents.
"""

import json
import os

from .errors import LogError

LOG_NAME = "dumpscope-fingerprints.jsonl"
FORMAT = "dumpscope-fingerprints"
VERSION = 1
FINGERPRINT = "dsfp1"


def _dumps(obj):
    return json.dumps(obj, separators=(",", ":"))


class LogWriter:
    def __init__(self, path, header):
        self.path = str(path)
        # O_EXCL: the caller has checked that no log is there; one appearing since is refused
        # by the OS rather than appended to.
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
        self._fd = os.open(self.path, flags, 0o644)
        self.lines = 0
        self.write(header)

    def write(self, obj):
        """Appends obj as one line; returns its line number (1 is the header)."""
        data = (_dumps(obj) + "\n").encode("utf-8")
        view = memoryview(data)
        while view:  # one write for a regular file; the loop only guards a short one
            view = view[os.write(self._fd, view) :]
        self.lines += 1
        return self.lines

    def close(self):
        if self._fd is not None:
            os.fsync(self._fd)
            os.close(self._fd)
            self._fd = None


def _is_fingerprint(v):
    return isinstance(v, str) and len(v) == 16 and all(c in "0123456789abcdef" for c in v)


def _is_count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _buffer_problem(i, b, seen):
    """What is wrong with buffer i of a step, or None."""
    if not (isinstance(b, list) and len(b) == 5 and isinstance(b[0], str)):
        return "buffer %d is not [name, dtype, shape, fingerprint, inputs]" % i
    name, dtype, shape, fp, inputs = b
    if name in seen:
        return "buffer %d: the name %r appears twice in the step" % (i, name)
    if not isinstance(dtype, str):
        return "buffer %d (%s): the dtype is not a string" % (i, name)
    if not (isinstance(shape, list) and all(_is_count(d) for d in shape)):
        return "buffer %d (%s): the shape is not a list of non-negative integers" % (i, name)
    if not _is_fingerprint(fp):
        return "buffer %d (%s): the fingerprint %r is not 16 lowercase hex digits" % (i, name, fp)
    if inputs is not None and not (
        isinstance(inputs, list) and all(_is_count(j) and j < i for j in inputs)
    ):
        return "buffer %d (%s): inputs must be null or indices of earlier buffers" % (i, name)
    return None


def _check_buffers(path, line, buffers):
    if not isinstance(buffers, list):
        raise LogError(path, line, '"buffers" is not a list')
    seen = set()
    for i, b in enumerate(buffers):
        problem = _buffer_problem(i, b, seen)
        if problem:
            raise LogError(path, line, problem)
        seen.add(b[0])


class LogReader:
    """A whole fingerprint log, checked line by line; ``step(n)`` reads one step back."""

    def __init__(self, path):
        self.path = str(path)
        self.steps = {}  # step -> (line number, byte offset, byte length)
        try:
            f = open(self.path, "rb")
        except FileNotFoundError:
            raise LogError(self.path, 0, "no fingerprint log here (is the reference run "
                           "captured, and with this rank?)") from None
        with f:
            offset = 0
            for number, raw in enumerate(f, start=1):
                if not raw.endswith(b"\n"):
                    raise LogError(self.path, number, "the last line is cut short (no newline): "
                                   "the run was stopped mid-write")
                obj = self._parse(number, raw)
                if number == 1:
                    self._check_header(obj)
                    self.header = obj
                else:
                    self._check_step(number, obj, offset, len(raw))
                offset += len(raw)
        if offset == 0:
            raise LogError(self.path, 1, "the log is empty: no header line")

    def _parse(self, number, raw):
        try:
            obj = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise LogError(self.path, number, "not a JSON line (%s)" % e) from None
        if not isinstance(obj, dict):
            raise LogError(self.path, number, "not a JSON object")
        return obj

    def _check_header(self, h):
        if h.get("format") != FORMAT or h.get("version") != VERSION:
            raise LogError(self.path, 1, "not a %s version %d header: %s"
                           % (FORMAT, VERSION, _dumps(h)[:200]))
        if h.get("fingerprint") != FINGERPRINT:
            raise LogError(self.path, 1, "fingerprint %r, this reader knows %r"
                           % (h.get("fingerprint"), FINGERPRINT))

    def _check_step(self, number, obj, offset, length):
        step = obj.get("step")
        if not _is_count(step):
            raise LogError(self.path, number, '"step" is not a non-negative integer')
        if step in self.steps:
            raise LogError(self.path, number, "step %d was already written at line %d"
                           % (step, self.steps[step][0]))
        f = obj.get("file")
        if f is not None and not isinstance(f, str):
            raise LogError(self.path, number, '"file" is neither a string nor null')
        _check_buffers(self.path, number, obj.get("buffers"))
        self.steps[step] = (number, offset, length)

    def step(self, n):
        """(line number, the step's object), or None when the log has no step n."""
        where = self.steps.get(n)
        if where is None:
            return None
        number, offset, length = where
        with open(self.path, "rb") as f:
            f.seek(offset)
            raw = f.read(length)
        return number, self._parse(number, raw)
