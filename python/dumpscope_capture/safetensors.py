"""A minimal safetensors writer: an 8-byte little-endian header length, the header's JSON (each
tensor's dtype, shape and data_offsets, in the order given, so the file's key order is the
capture order), then the tensors' bytes back to back.

Written atomically: to a temporary name beside the target, flushed and fsynced, then renamed over
it, and the directory fsynced, so a reader sees either no file or the whole file.
"""

import ctypes
import json
import os
import struct

from .dtypes import names_of

# The header is padded with spaces to this alignment, as the format's own writer does, so that
# each tensor's data starts 8-byte aligned when its offset is.
_ALIGN = 8


def _host_bytes(t):
    """A memoryview on the bytes of t (a CPU tensor) in C order, and the tensor that owns them."""
    t = t.detach()
    if t.device.type != "cpu":
        t = t.cpu()
    t = t.contiguous()
    n = t.numel() * t.element_size()
    if n == 0:
        return memoryview(b""), t
    return memoryview((ctypes.c_char * n).from_address(t.data_ptr())).cast("B"), t


def write(path, tensors, metadata=None):
    """Writes tensors, a list of (name, tensor as dtypes.file_view gives it), to path."""
    header = {}
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in metadata.items()}
    offset = 0
    for name, t in tensors:
        n = t.numel() * t.element_size()
        header[name] = {
            "dtype": names_of(t)[0],
            "shape": list(t.shape),
            "data_offsets": [offset, offset + n],
        }
        offset += n
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-(8 + len(text)) % _ALIGN)
    path = str(path)
    tmp = "%s.tmp-%d" % (path, os.getpid())
    try:
        with open(tmp, "wb") as f:
            f.write(struct.pack("<Q", len(text)))
            f.write(text)
            for _, t in tensors:
                view, owner = _host_bytes(t)
                f.write(view)
                del view, owner
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    fsync_dir(os.path.dirname(path) or ".")


def fsync_dir(d):
    try:
        fd = os.open(d, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on a directory; the rename itself is atomic
    finally:
        os.close(fd)

