"""How each torch element type is written: its safetensors name, its name in the log, and the
view of the tensor whose bytes and shape both hold.

The log describes exactly what the safetensors file holds, so that a reader can check one against
the other: a type with a safetensors name is written as itself; a complex tensor as its real
part's type with a trailing dimension of 2 (real, imaginary: the same bytes); any other type
(float8 "fnuz" variants, sub-byte types, ...) as its raw bytes, ``U8`` with a trailing dimension
of its element size. The file's ``__metadata__`` keeps the torch type of those last two.
"""

import torch

# torch attribute name -> (safetensors name, log name). Types a given torch lacks are skipped:
# the unsigned 16/32/64-bit types are torch 2.3+, the float8 types 2.1+, float8_e8m0fnu 2.7+.
_NAMES = [
    ("float16", "F16", "f16"),
    ("bfloat16", "BF16", "bf16"),
    ("float32", "F32", "f32"),
    ("float64", "F64", "f64"),
    ("int8", "I8", "i8"),
    ("uint8", "U8", "u8"),
    ("int16", "I16", "i16"),
    ("int32", "I32", "i32"),
    ("int64", "I64", "i64"),
    ("uint16", "U16", "u16"),
    ("uint32", "U32", "u32"),
    ("uint64", "U64", "u64"),
    ("bool", "BOOL", "bool"),
    ("float8_e4m3fn", "F8_E4M3", "f8_e4m3"),
    ("float8_e5m2", "F8_E5M2", "f8_e5m2"),
    ("float8_e8m0fnu", "F8_E8M0", "f8_e8m0"),
]

NAMES = {}
for _attr, _st, _log in _NAMES:
    _dt = getattr(torch, _attr, None)
    if isinstance(_dt, torch.dtype):
        NAMES[_dt] = (_st, _log)

# A complex type's parts: complex32 (chalf) exists from torch 1.11 on, not in every build's ops.
_COMPLEX = {}
for _attr, _part in (("complex32", torch.float16), ("complex64", torch.float32),
                     ("complex128", torch.float64)):
    _dt = getattr(torch, _attr, None)
    if isinstance(_dt, torch.dtype):
        _COMPLEX[_dt] = _part

LOG_NAME_OF_SAFETENSORS = {st: log for st, log in NAMES.values()}


def capturable(t):
    """Whether t has bytes in C order that the capture can read: a dense (strided) tensor with
    storage, not quantized (a quantized tensor's bytes are not its values)."""
    return (
        isinstance(t, torch.Tensor)
        and t.layout == torch.strided
        and t.device.type != "meta"
        and not t.is_quantized
    )


def _as_bytes(t):
    t = t.contiguous()
    if t.dim() == 0:
        t = t.reshape(1)
    return t.view(torch.uint8).reshape(tuple(t.shape) + (t.element_size(),))


def file_view(t):
    """t as it is written: the same bytes in C order, in a type with a safetensors name."""
    if t.dtype in NAMES:
        return t
    part = _COMPLEX.get(t.dtype)
    if part is not None:
        try:
            return torch.view_as_real(t)
        except RuntimeError:  # a complex type whose view_as_real this torch lacks
            return _as_bytes(t).view(part).reshape(tuple(t.shape) + (2,))
    return _as_bytes(t)


def names_of(view):
    """(safetensors name, log name) of a tensor file_view returned."""
    return NAMES[view.dtype]


def torch_name(dtype):
    return str(dtype).replace("torch.", "")
