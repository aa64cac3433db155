"""One step's captured buffers, in capture order: each one's name, element type, shape,
fingerprint (still on its device) and inputs, and, when the step may be written in full, a copy
of its bytes taken when it was captured.

The tensors themselves are not kept: only a weak reference to each output, with its version
counter, so that a later module's input can be recognised as that output (the same object, not
modified in place since) without holding the tensor, or the autograd graph behind it, alive.
"""

import threading
import weakref

import torch

from .dtypes import file_view, names_of, torch_name
from .fingerprint import fingerprint


class Record:
    __slots__ = ("name", "dtype", "shape", "fp", "inputs", "copy", "torch_dtype")

    def __init__(self, name, dtype, shape, fp, inputs, copy, torch_dtype):
        self.name, self.dtype, self.shape, self.fp = name, dtype, shape, fp
        self.inputs, self.copy, self.torch_dtype = inputs, copy, torch_dtype


def _version(t):
    try:
        return t._version
    except (AttributeError, RuntimeError):  # inference tensors keep no version counter
        return None


def host_copy(view):
    """A CPU copy of view's bytes in C order, taken now (a later in-place change of the tensor
    does not reach it). From a CUDA tensor the copy goes to pinned memory without waiting; the
    step synchronises once before it writes."""
    if view.device.type == "cpu":
        return view.clone(memory_format=torch.contiguous_format)
    if view.device.type == "cuda":
        dst = torch.empty(view.shape, dtype=view.dtype, pin_memory=True)
        dst.copy_(view, non_blocking=True)
        return dst
    return view.to("cpu", copy=True).contiguous()


class StepRecords:
    def __init__(self, chunk_bytes):
        self.chunk_bytes = chunk_bytes
        self.records = []
        self._calls = {}  # module name -> its calls this step
        self._taken = set()  # the names given this step
        self._produced = {}  # id(tensor) -> (weak reference, version, index)
        self._lock = threading.Lock()

    def __len__(self):
        return len(self.records)

    def clear(self):
        with self._lock:
            self.records = []
            self._calls = {}
            self._taken = set()
            self._produced = {}

    def call_name(self, name):
        """name the first time this step, then name#2, name#3...: a module called again."""
        with self._lock:
            n = self._calls.get(name, 0) + 1
            self._calls[name] = n
        return name if n == 1 else "%s#%d" % (name, n)

    def index_of(self, t):
        """The index of the buffer t is, if t is a captured buffer of this step unchanged since."""
        entry = self._produced.get(id(t))
        if entry is None or entry[0]() is not t or entry[1] != _version(t):
            return None
        return entry[2]

    def add(self, name, t, inputs, keep_copy, producer=True):
        """Captures t now: its fingerprint queued on its device, a copy if asked."""
        with torch.no_grad():
            t = t.detach()
            view = file_view(t)
            fp = fingerprint(view, self.chunk_bytes)
            copy = host_copy(view) if keep_copy else None
        tdtype = None if view.dtype == t.dtype else torch_name(t.dtype)
        with self._lock:
            unique = name
            k = 2
            while unique in self._taken:  # a name captured again this step: suffixed
                unique = "%s#%d" % (name, k)
                k += 1
            self._taken.add(unique)
            index = len(self.records)
            self.records.append(
                Record(unique, names_of(view)[1], list(view.shape), fp, inputs, copy, tdtype)
            )
        return index

    def produced(self, original, index):
        """Remembers original (the tensor object a module returned) as buffer index."""
        self._produced[id(original)] = (weakref.ref(original), _version(original), index)
