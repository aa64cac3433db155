"""The capture's errors: each names the file (and the line) it is about."""


class CaptureError(Exception):
    """Something the capture refuses: a bad reference, a step numbered wrong, a run directory
    that already holds a capture."""


class LogError(CaptureError):
    """A fingerprint log that cannot be read as the spec says, or disagrees with this run."""

    def __init__(self, path, line, what):
        self.path, self.line, self.what = str(path), line, what
        where = "%s:%d" % (self.path, line) if line else self.path
        super().__init__("%s: %s" % (where, what))
