"""The fingerprint ``dsfp1`` of a tensor, computed with torch on the tensor's own device.

docs/reference/fingerprint.md defines it over the tensor's bytes in C order: a sum modulo 2**64
of position-mixed 64-bit words, then one final mix. Here every step is an element-wise int64
operation (int64 arithmetic wraps modulo 2**64 on every torch device), a logical right shift is
an arithmetic shift and a mask, and the sum is one ``torch.sum``. The bytes are walked in pieces
of at most ``chunk_bytes``, so the extra memory is a few pieces' worth whatever the tensor's size,
and nothing leaves the device: the result is a 0-d int64 tensor there, read back only when the
caller decides (one synchronisation for a whole step).
"""

import sys

import torch

MASK64 = (1 << 64) - 1
G = 0x9E3779B97F4A7C15
C0 = 0x632BE59BD9B4E019
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB

# The default bound on one piece's bytes: 8 MiB of data makes about four int64 temporaries of
# the same size while it is mixed.
DEFAULT_CHUNK_BYTES = 8 << 20

if sys.byteorder != "little":  # the spec reads elements little-endian as stored
    raise ImportError("dumpscope_capture: the fingerprint needs a little-endian machine")


def _signed(v):
    """v modulo 2**64 as the int64 with the same bits (torch scalars must fit int64)."""
    v &= MASK64
    return v - (1 << 64) if v >= 1 << 63 else v


_G, _C0, _M1, _M2 = _signed(G), _signed(C0), _signed(M1), _signed(M2)

# Per device: i*G + C0 for the first words of a piece, so that a piece's keys are one add.
_key_cache = {}


def _keys(start, n, device):
    base = _key_cache.get(device)
    if base is None or base.numel() < n:
        size = max(n, DEFAULT_CHUNK_BYTES // 8)
        base = torch.arange(size, dtype=torch.int64, device=device)
        base.mul_(_G).add_(_C0)
        _key_cache[device] = base
    return base[:n] + _signed(start * G)


_HAVE_SHIFT_OUT = hasattr(torch, "bitwise_right_shift")


def _shift_xor_(z, s, tmp):
    # z ^= z >>> s, the logical shift being an arithmetic one with the sign bits masked off.
    if _HAVE_SHIFT_OUT:
        torch.bitwise_right_shift(z, s, out=tmp)
    else:
        tmp.copy_(z >> s)
    tmp.bitwise_and_((1 << (64 - s)) - 1)
    z.bitwise_xor_(tmp)


def _mix_(z):
    """mix() of the spec, in place on an int64 tensor."""
    tmp = torch.empty_like(z)
    _shift_xor_(z, 30, tmp)
    z.mul_(_M1)
    _shift_xor_(z, 27, tmp)
    z.mul_(_M2)
    _shift_xor_(z, 31, tmp)
    return z


def _pieces(t, max_elems):
    """Contiguous tensors whose bytes, concatenated, are t's bytes in C order; each of at most
    max_elems elements, and views of t (no copy) wherever t is itself contiguous."""
    if t.numel() == 0:
        return
    if t.is_contiguous():
        # as_strided, not reshape: a one-element tensor counts as contiguous whatever its
        # stride, and the byte view needs a unit one.
        flat = t.as_strided((t.numel(),), (1,))
        for s in range(0, flat.numel(), max_elems):
            yield flat[s : s + max_elems]
    elif t.numel() <= max_elems:
        yield t.contiguous().reshape(-1)
    else:
        inner = t.numel() // t.shape[0]
        step = max_elems // inner
        if step <= 1:
            for i in range(t.shape[0]):
                yield from _pieces(t[i], max_elems)
        else:
            for i in range(0, t.shape[0], step):
                yield from _pieces(t[i : i + step], max_elems)


def _word_sum(b, start):
    """Σ mix(w_i ^ (i·G + C0)) over the words of b (uint8, a multiple of 8 bytes), the first
    word's index being start."""
    if b.storage_offset() % 8:
        b = b.clone()  # int64 views need an 8-byte aligned start
    w = b.view(torch.int64)
    z = torch.bitwise_xor(w, _keys(start, w.numel(), w.device))
    return _mix_(z).sum()


def fingerprint(t, chunk_bytes=DEFAULT_CHUNK_BYTES):
    """dsfp1 of t's bytes in C order, as a 0-d int64 tensor on t's device (not synchronised).

    t is any strided tensor whose element type torch can view as bytes; it is never modified.
    """
    with torch.no_grad():
        t = t.detach()
        device = t.device
        length = t.numel() * t.element_size()
        total = torch.zeros((), dtype=torch.int64, device=device)
        max_elems = max(1, (chunk_bytes // 8 * 8) // t.element_size())
        word = 0
        carry = None  # the bytes of a piece past its last whole word: fewer than 8
        for piece in _pieces(t, max_elems):
            b = piece.view(torch.uint8)
            if carry is not None:
                b = torch.cat([carry, b])
            whole = b.numel() // 8 * 8
            if whole:
                total += _word_sum(b[:whole], word)
                word += whole // 8
            carry = b[whole:] if whole < b.numel() else None
        if carry is not None:
            padded = torch.zeros(8, dtype=torch.uint8, device=device)
            padded[: carry.numel()] = carry
            total += _word_sum(padded, word)
        return _mix_(total + _signed((length + 1) * G))


def to_hex(value):
    """A fingerprint read back from the device (a Python int, maybe negative) as the log writes
    it: 16 lowercase hexadecimal digits."""
    return "%016x" % (int(value) & MASK64)


def fingerprint_hex(t, chunk_bytes=DEFAULT_CHUNK_BYTES):
    """dsfp1 of t as 16 hex digits (synchronises: for one tensor at a time, tests and tools)."""
    from .dtypes import file_view

    return to_hex(fingerprint(file_view(t), chunk_bytes).item())
