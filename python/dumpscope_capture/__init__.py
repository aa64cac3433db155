"""dumpscope_capture: capture a PyTorch model's buffers, step by step, for dumpscope.

    from dumpscope_capture import Capture
    cap = Capture("runs/a", mode="full")      # "full" | "hash" | "auto" (with reference=)
    cap.watch(model)
    ... each step: forward, backward, optimizer.step(), then cap.step(step, loss=loss)
    cap.close()

The guide is docs/capture.md; the fingerprint and the log are docs/reference/fingerprint.md.
"""

from .capture import Capture, default_rank
from .errors import CaptureError, LogError
from .fingerprint import fingerprint, fingerprint_hex
from .logfile import LOG_NAME, LogReader

__all__ = ["Capture", "CaptureError", "LogError", "LogReader", "LOG_NAME", "default_rank",
           "fingerprint", "fingerprint_hex"]
__version__ = "1"
