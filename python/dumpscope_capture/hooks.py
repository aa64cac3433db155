"""The hooks on a watched module: every module's forward output, every parameter's gradient.

What each torch offers is detected, never assumed from a version number:
- forward hooks see keyword arguments with ``with_kwargs=True`` (torch 2.0+); before that a
  module's keyword tensors are invisible, so its inputs are known only when every parameter of
  its ``forward`` was bound positionally;
- a parameter's gradient is read after it is accumulated into ``.grad``:
  ``register_post_accumulate_grad_hook`` (torch 2.1+), else a hook on the parameter's
  ``AccumulateGrad`` node, which runs right after that node updates ``.grad``.
Hooks return None: they never replace an output or a gradient.
"""

import inspect
import weakref

import torch

from .dtypes import capturable

_FORWARD_HOOK = inspect.signature(torch.nn.Module.register_forward_hook)
FORWARD_KWARGS = "with_kwargs" in _FORWARD_HOOK.parameters
POST_ACCUMULATE = hasattr(torch.Tensor, "register_post_accumulate_grad_hook")


def flatten_output(obj, prefix=""):
    """(suffix, tensor) for each tensor in a module's output: '' for a tensor, '0', '1'... for
    a tuple or list, the key for a dict, the field for a named tuple; nested joined by dots."""
    if isinstance(obj, torch.Tensor):
        return [(prefix, obj)] if capturable(obj) else []
    if isinstance(obj, dict):
        items = [(str(k), v) for k, v in obj.items()]
    elif isinstance(obj, tuple) and hasattr(obj, "_fields"):
        items = list(zip(obj._fields, obj))
    elif isinstance(obj, (list, tuple)):
        items = [(str(i), v) for i, v in enumerate(obj)]
    else:
        return []
    out = []
    for k, v in items:
        out.extend(flatten_output(v, prefix + "." + k if prefix else k))
    return out


def tensors_in(obj, out):
    """Appends every tensor inside obj (arguments: tensors, sequences, dicts) to out."""
    if isinstance(obj, torch.Tensor):
        out.append(obj)
    elif isinstance(obj, dict):
        for v in obj.values():
            tensors_in(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            tensors_in(v, out)
    return out


def _positional_params(module):
    """How many positional arguments bind every parameter of module.forward, or None when a
    keyword could still reach it (keyword-only parameters, **kwargs, no signature)."""
    try:
        params = inspect.signature(module.forward).parameters.values()
    except (TypeError, ValueError):
        return None
    n = 0
    for p in params:
        if p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD):
            return None
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            n += 1
    return n


class ModuleState:
    """What the hooks of one module know: its name, whether its output can have a known
    dataflow (a leaf module), and the inputs resolved before each call still running."""

    def __init__(self, name, module):
        self.name = name
        self.leaf = next(module.children(), None) is None
        self.positional = None if FORWARD_KWARGS else _positional_params(module)
        self.pending = []


def watch_module(module, names, sink):
    """Registers the forward hooks of module and all its submodules; names(qualified) gives a
    buffer name. sink has resolve(tensors) -> indices or None, and output(state, output, inputs).
    Returns the handles."""
    handles = []
    for qual, m in module.named_modules():
        state = ModuleState(names(qual), m)
        if state.leaf:
            handles.append(_pre_hook(m, state, sink))
        handles.append(_post_hook(m, state, sink))
    return handles


def _pre_hook(m, state, sink):
    # The inputs are resolved before the forward runs: an in-place module (ReLU(inplace=True))
    # changes its input's version, and its input was, when read, the earlier buffer.
    def resolve(args, kwargs):
        if kwargs is None and (state.positional is None or len(args) < state.positional):
            return None
        tensors = tensors_in(args, [])
        if kwargs:
            tensors_in(kwargs, tensors)
        return sink.resolve(tensors)

    if FORWARD_KWARGS:
        def pre(_m, args, kwargs):
            state.pending.append(resolve(args, kwargs) if sink.active else None)

        return m.register_forward_pre_hook(pre, with_kwargs=True)

    def pre_positional(_m, args):
        state.pending.append(resolve(args, None) if sink.active else None)

    return m.register_forward_pre_hook(pre_positional)


def _post_hook(m, state, sink):
    def post(_m, _args, *rest):
        output = rest[-1]  # (output) or, with_kwargs, (kwargs, output)
        inputs = state.pending.pop() if state.leaf and state.pending else None
        if sink.active:
            sink.output(state, output, inputs)

    if FORWARD_KWARGS:
        return m.register_forward_hook(post, with_kwargs=True)
    return m.register_forward_hook(post)


class _NodeHandle:
    """Keeps a parameter's AccumulateGrad node (and so its hook) alive until removed."""

    def __init__(self, node, handle):
        self.node, self.handle = node, handle

    def remove(self):
        self.handle.remove()
        self.node = None


def watch_grad(param, name, on_grad):
    """Calls on_grad(name, param.grad) each time backward has accumulated into param.grad."""
    ref = weakref.ref(param)

    def fire():
        p = ref()
        if p is not None and p.grad is not None:
            on_grad(name, p.grad)

    if POST_ACCUMULATE:
        return param.register_post_accumulate_grad_hook(lambda _p: fire())
    with torch.enable_grad():
        node = param.expand_as(param).grad_fn.next_functions[0][0]
    return _NodeHandle(node, node.register_hook(lambda _gi, _go: fire()))
