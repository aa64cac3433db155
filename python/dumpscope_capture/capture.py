"""The Capture: hooks on a model, one fingerprint log per run and rank, full tensors where asked.

    cap = Capture("runs/a", mode="full")          # "full" | "hash" | "auto"
    cap.watch(model)
    for step in range(n):
        ...forward, backward, optimizer.step()...
        cap.step(step, loss=loss)
    cap.close()

docs/capture.md is the guide; docs/reference/fingerprint.md the formats.
"""

import contextlib
import glob
import os
import warnings

import torch

from . import hooks, safetensors
from .errors import CaptureError, LogError
from .fingerprint import DEFAULT_CHUNK_BYTES, to_hex
from .logfile import FINGERPRINT, FORMAT, LOG_NAME, VERSION, LogReader, LogWriter
from .records import StepRecords

WRITER = "dumpscope_capture 1 torch %s" % torch.__version__
MODES = ("full", "hash", "auto")
_DEFAULT = object()


def default_rank():
    """torch.distributed's rank when a process group is initialised, else None."""
    dist = getattr(torch, "distributed", None)
    if dist is not None and dist.is_available() and dist.is_initialized():
        return dist.get_rank()
    return None


def step_file(step):
    return "step_%d.safetensors" % step


def _reference_log(reference, rank):
    ref = str(reference)
    if os.path.isfile(ref):
        return ref
    if rank is not None:
        return os.path.join(ref, "rank%d" % rank, LOG_NAME)
    path = os.path.join(ref, LOG_NAME)
    ranked = sorted(glob.glob(os.path.join(glob.escape(ref), "rank*", LOG_NAME)))
    if not os.path.exists(path) and ranked:
        raise LogError(path, 0, "no fingerprint log here, but the reference has ranks (%s): "
                       "pass rank= to compare with one" % ranked[0])
    return path


class Capture:
    """Captures a model's buffers, step by step, into run_dir.

    mode: "full" writes every step's tensors (step_<N>.safetensors) and the log; "hash" the log
    alone; "auto" the log, and a step's tensors when its fingerprints differ from reference's.
    rank: the run's rank (default: torch.distributed's, when initialised); files go under
    rank<R>/. steps: the steps whose tensors may be written (full, auto); max_full_steps: in
    auto, how many divergent steps are written in full (None: all). overwrite: replace a
    capture already in the directory. chunk_bytes: the fingerprint's piece size on the device.
    """

    def __init__(self, run_dir, mode="full", reference=None, rank=_DEFAULT, steps=None,
                 max_full_steps=1, overwrite=False, chunk_bytes=DEFAULT_CHUNK_BYTES):
        if mode not in MODES:
            raise ValueError("mode must be one of %s, not %r" % (", ".join(MODES), mode))
        if (mode == "auto") != (reference is not None):
            raise ValueError("mode='auto' needs reference= (the run to compare with), "
                             "and only mode='auto' takes one")
        if steps is not None and mode == "hash":
            raise ValueError("steps= chooses the steps written in full: mode 'full' or 'auto'")
        self.mode = mode
        self.rank = default_rank() if rank is _DEFAULT else rank
        if self.rank is not None and (not isinstance(self.rank, int) or self.rank < 0):
            raise ValueError("rank must be a non-negative integer or None, not %r" % (self.rank,))
        self.steps = None if steps is None else frozenset(int(s) for s in steps)
        self.max_full_steps = max_full_steps
        self.dir = str(run_dir)
        if self.rank is not None:
            self.dir = os.path.join(self.dir, "rank%d" % self.rank)
        self.log_path = os.path.join(self.dir, LOG_NAME)
        # The reference is read before anything is written: a bad one leaves no capture behind.
        self._reference = LogReader(_reference_log(reference, self.rank)) if reference else None
        os.makedirs(self.dir, exist_ok=True)
        self._clear_previous(overwrite)
        self._log = LogWriter(self.log_path, {
            "format": FORMAT, "version": VERSION, "fingerprint": FINGERPRINT,
            "mode": mode, "rank": self.rank, "writer": WRITER})
        self._records = StepRecords(chunk_bytes)
        self._written = {}  # step -> its line in the log
        self._last = None
        self._expected = None  # the number the next step() is expected to carry
        self._full_steps = 0
        self._handles = []
        self._watched = set()
        self._paused = 0
        self._closed = False

    # -- setup ---------------------------------------------------------------------------

    def _clear_previous(self, overwrite):
        previous = [self.log_path] if os.path.lexists(self.log_path) else []
        previous += sorted(glob.glob(os.path.join(glob.escape(self.dir), "step_*.safetensors")))
        if previous and not overwrite:
            raise CaptureError("%s: a capture is already here; choose another directory, or pass "
                               "overwrite=True to replace it" % previous[0])
        for path in previous:
            os.unlink(path)

    def watch(self, module, prefix=None, grads=True):
        """Hooks every module's forward output and (grads=True) every parameter's gradient.

        Names are the qualified names (layers.0.attn, layers.0.attn.q_proj.weight.grad),
        under prefix when given; the watched module's own output is named prefix, or its class
        name (TinyTransformer) when there is none.
        """
        self._check_open()
        if id(module) in self._watched:
            raise ValueError("watch(): this %s is already watched (its hooks would fire twice)"
                             % type(module).__name__)
        self._watched.add(id(module))
        root = prefix if prefix else type(module).__name__

        def name(qual):
            if not qual:
                return root
            return prefix + "." + qual if prefix else qual

        self._handles += hooks.watch_module(module, name, self)
        if grads:
            for qual, p in module.named_parameters():
                if p.requires_grad:
                    self._handles.append(hooks.watch_grad(p, name(qual) + ".grad", self._on_grad))
        return self

    # -- what the hooks call -------------------------------------------------------------

    @property
    def active(self):
        return not self._closed and not self._paused

    def _keep_copies(self):
        if self.mode == "hash":
            return False
        if self.mode == "auto" and self.max_full_steps is not None \
                and self._full_steps >= self.max_full_steps:
            return False
        return self.steps is None or self._expected is None or self._expected in self.steps

    def resolve(self, tensors):
        indices = set()
        for t in tensors:
            i = self._records.index_of(t)
            if i is None:
                return None
            indices.add(i)
        return sorted(indices)

    def output(self, state, output, inputs):
        items = hooks.flatten_output(output)
        if not items:
            return
        base = self._records.call_name(state.name)
        for suffix, t in items:
            i = self._records.add(base + "." + suffix if suffix else base, t,
                                  inputs if state.leaf else None, self._keep_copies())
            self._records.produced(t, i)

    def _on_grad(self, name, grad):
        if self.active and hooks.capturable(grad):
            self._records.add(name, grad, None, self._keep_copies())

    def record(self, name, tensor):
        """Captures tensor now, under name, with unknown inputs: a buffer produced outside any
        module (a residual sum, the batch). A module that later takes it as an input has it as
        a known input."""
        self._check_open()
        if not hooks.capturable(tensor):
            raise TypeError("record(%r): not a dense tensor: %r" % (name, type(tensor)))
        if self.active:
            index = self._records.add(name, tensor, None, self._keep_copies())
            self._records.produced(tensor, index)

    @contextlib.contextmanager
    def paused(self):
        """Nothing is captured inside: an evaluation pass between two training steps."""
        self._paused += 1
        try:
            yield self
        finally:
            self._paused -= 1

    def begin_step(self, step):
        """Says which step the next buffers belong to, when steps are not numbered one after
        the other: with steps= (or in auto), whether to keep copies depends on it."""
        self._expected = step

    # -- the step ------------------------------------------------------------------------

    def step(self, step, **tensors):
        """Writes the step: its log line and, by the mode, its tensors. Keyword tensors are
        captured now, after the hooks' buffers, with unknown inputs (loss=loss). Returns the
        safetensors file written, or None."""
        self._check_open()
        try:
            self._check_step(step)
            for key, t in tensors.items():
                if not hooks.capturable(t):
                    raise TypeError("step(%d, %s=...): not a dense tensor: %r"
                                    % (step, key, type(t)))
            for key, t in tensors.items():
                self._records.add(key, t, None, self._keep_copies())
            records = self._records.records
            fps = self._read_fingerprints(records)
            full = self._decide_full(step, records, fps)
            file = None
            if full:
                self._write_tensors(step, records)
                file = step_file(step)
                self._full_steps += 1
            buffers = [[r.name, r.dtype, r.shape, fp, r.inputs] for r, fp in zip(records, fps)]
            self._written[step] = self._log.write({"step": step, "file": file, "buffers": buffers})
            self._last = step
            self._expected = step + 1
            return os.path.join(self.dir, file) if file else None
        finally:
            self._records.clear()

    def _check_step(self, step):
        if not isinstance(step, int) or isinstance(step, bool) or step < 0:
            raise ValueError("step must be a non-negative integer, not %r" % (step,))
        if step in self._written:
            raise LogError(self.log_path, self._written[step],
                           "step %d was already written here" % step)
        if self._last is not None and step < self._last:
            raise LogError(self.log_path, self._written[self._last],
                           "step %d after step %d: steps must increase" % (step, self._last))

    @staticmethod
    def _read_fingerprints(records):
        # One stack and one copy to the host per device: the step's only synchronisation.
        by_device = {}
        for i, r in enumerate(records):
            by_device.setdefault(r.fp.device, []).append(i)
        fps = [None] * len(records)
        for indices in by_device.values():
            values = torch.stack([records[i].fp for i in indices]).cpu().tolist()
            for i, v in zip(indices, values):
                fps[i] = to_hex(v)
        return fps

    def _decide_full(self, step, records, fps):
        if self.mode == "hash":
            return False
        if self.mode == "full":
            if self.steps is not None and step not in self.steps:
                return False
            if any(r.copy is None for r in records):
                raise CaptureError(
                    "%s: step %d is in steps= but its tensors were not kept: the capture "
                    "expected step %s; number the steps one after the other, or call "
                    "cap.begin_step(%d) before its forward"
                    % (self.log_path, step, self._expected, step))
            return True
        return self._differs_from_reference(step, records, fps) and \
            (self.steps is None or step in self.steps) and all(r.copy is not None for r in records)

    def _differs_from_reference(self, step, records, fps):
        found = self._reference.step(step)
        if found is None:
            return False
        line, ref = found
        theirs = ref["buffers"]
        for i in range(max(len(theirs), len(records))):
            a = theirs[i][0] if i < len(theirs) else None
            b = records[i].name if i < len(records) else None
            if a != b:
                what = ("step %d, buffer %d: the reference has %s, this run %s: the reference is a "
                        "capture of another model (or of this one called differently)"
                        % (step, i, _said(a), _said(b)))
                raise LogError(self._reference.path, line, what)
        return any(t[1] != r.dtype or t[2] != r.shape or t[3] != fp
                   for t, r, fp in zip(theirs, records, fps))

    def _write_tensors(self, step, records):
        pinned = any(r.copy is not None and r.copy.is_pinned() for r in records)
        if pinned and torch.cuda.is_available():
            torch.cuda.synchronize()  # the pinned copies were queued without waiting
        metadata = {"dumpscope.step": step, "dumpscope.writer": WRITER}
        for r in records:
            if r.torch_dtype:
                metadata["dumpscope.torch_dtype." + r.name] = r.torch_dtype
        safetensors.write(os.path.join(self.dir, step_file(step)),
                          [(r.name, r.copy) for r in records], metadata)

    # -- the end -------------------------------------------------------------------------

    def _check_open(self):
        if self._closed:
            raise CaptureError("%s: the capture is closed" % self.log_path)

    def close(self):
        """Removes every hook and closes the log (fsynced). Buffers captured since the last
        step() are dropped, with a warning."""
        if self._closed:
            return
        self._closed = True
        for h in self._handles:
            h.remove()
        self._handles = []
        if len(self._records):
            warnings.warn("%s: %d buffers captured after the last step() were not written"
                          % (self.log_path, len(self._records)), stacklevel=2)
            self._records.clear()
        self._log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _said(name):
    return "nothing more" if name is None else repr(name)
