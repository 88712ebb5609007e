"""gpurotate.apply and its helpers: op names, layouts, output allocation and the caller's CUDA stream.

Every check of an array (dtype, strides, shapes, devices) is made once, in the C++ module; this layer
chooses the layout, allocates the result with the input's own framework and finds the stream.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Iterable, Optional, Sequence, TypeVar, Union, overload

import numpy as np

from . import _gpurotate
from ._gpurotate import Orientation

#: The CLI names of the 8 elements, in the order of the C++ enum (their codes 0-7).
NAMES = tuple(_gpurotate.name(Orientation(code)) for code in range(8))
#: The layouts `apply` takes.
LAYOUTS = ("hw", "hwc", "chw", "nchw", "nhwc")

Op = Union[str, int, Orientation]
Ops = Union[Op, Sequence[Op]]


def element(op: Op) -> Orientation:
    """One element from a CLI name ("rot90", "flip-h"; "flip_h" too), an `Orientation` or its code 0-7."""
    if isinstance(op, Orientation):
        return op
    if isinstance(op, str):
        return _gpurotate.parse(op.replace("_", "-"))
    if isinstance(op, (int, np.integer)) and not isinstance(op, bool):
        if 0 <= int(op) < 8:
            return Orientation(int(op))
        raise ValueError(f"element code {int(op)} is not one of 0-7 ({', '.join(NAMES)})")
    raise TypeError(f"an operation is a name ({', '.join(NAMES)}), an Orientation or a code 0-7, not {type(op).__name__}")


_element = element  # for the functions below, whose argument is named `element` as the module's is


def then(first: Op, second: Op) -> Orientation:
    """The single element equal to applying `first`, then `second`: names, Orientation members or codes 0-7,
    as `apply` takes them (then("rot90", "flip-h") is Orientation.transpose)."""
    return _gpurotate.then(_element(first), _element(second))


def inverse(element: Op) -> Orientation:
    """The element that undoes `element` (a name, an Orientation member or a code 0-7): inverse("rot90") is
    Orientation.rot270."""
    return _gpurotate.inverse(_element(element))


def swaps_axes(element: Op) -> bool:
    """Whether `element` (a name, an Orientation member or a code 0-7) exchanges height and width."""
    return _gpurotate.swaps_axes(_element(element))


def name(element: Op) -> str:
    """The CLI name of `element` (an Orientation member, a code 0-7 or a name, "flip_h" too): identity, rot90,
    rot180, rot270, flip-h, flip-v, transpose, transverse."""
    return _gpurotate.name(_element(element))


def compose(ops: Ops) -> Orientation:
    """The one element equal to applying `ops` in order: compose(["rot90", "flip-h"]) is Orientation.transpose."""
    if getattr(ops, "ndim", None) == 0 and hasattr(ops, "item"):  # a 0-d tensor or array: one code
        ops = ops.item()
    if isinstance(ops, (str, bytes)) or not isinstance(ops, Iterable):
        return element(ops)
    result = Orientation.identity
    for op in ops:
        result = _gpurotate.then(result, element(op))
    return result


def infer_layout(shape: Sequence[int]) -> str:
    """The layout `apply` assumes when none is given, from the shape alone (never the framework).

    2-D: "hw". 3-D: "hwc" when the last axis has 1-4 entries (channels), else "chw". 4-D: "nhwc" when the
    last axis has 1-4 entries, else "nchw". An image at most 4 pixels wide is therefore read as
    channels-last: pass layout= in library code, where the data's layout is known.
    """
    ndim = len(shape)
    if ndim == 2:
        return "hw"
    if ndim in (3, 4):
        channels_last = 1 <= shape[-1] <= 4
        if ndim == 3:
            return "hwc" if channels_last else "chw"
        return "nhwc" if channels_last else "nchw"
    raise ValueError(f"cannot infer a layout for a {ndim}-D array (shape {tuple(shape)}): 2-D to 4-D, or pass layout=")


def _module_of(name: str) -> Any:
    # A framework that is not imported yet cannot have made the array: no import, no cost.
    return sys.modules.get(name)


def _framework(x: Any) -> str:
    torch = _module_of("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        return "torch"
    cupy = _module_of("cupy")
    if cupy is not None and isinstance(x, cupy.ndarray):
        return "cupy"
    if isinstance(x, np.ndarray):
        return "numpy"
    return "other"


#: What `apply` takes, as its TypeErrors say.
DTYPES_TEXT = (
    "items of 1, 2, 4, 8 or 16 bytes (bool, int8 to int64, uint8 to uint64, float16, float32, float64, "
    "complex64, complex128, PyTorch's bfloat16, and the NumPy dtypes of extensions such as ml_dtypes: bfloat16, "
    "float8_*, int4), moved as they are"
)

#: The unsigned word of each item size (16 bytes: complex128, whose bytes the module moves without reading them).
_WORDS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64, 16: np.complex128}


def _as_words(array: Any, role: str) -> tuple[Any, Optional[np.dtype]]:
    """A NumPy array of a dtype that an extension registered (ml_dtypes' bfloat16, float8_*, int4, ...:
    dtype.isbuiltin == 2), which DLPack has no code for (float8_e5m2 even claims kind "f"), as the unsigned
    integers of its item size: a view of the same bytes, which the transform moves as they are. Returns (the
    view, the dtype to give the result back as), or (array, None) for every other array."""
    if not isinstance(array, np.ndarray) or array.dtype.isbuiltin != 2:
        return array, None
    dtype = array.dtype
    if dtype.hasobject or dtype.itemsize not in _WORDS:
        raise TypeError(f"{role} has dtype {dtype} ({dtype.itemsize}-byte items): gpurotate takes {DTYPES_TEXT}")
    return array.view(_WORDS[dtype.itemsize]), dtype


def _refuse_dtype_dlpack_cannot_carry(array: Any, role: str) -> None:
    """NumPy dtypes DLPack cannot carry, which the module would refuse with nanobind's signature, or read wrong:
    those that are not numbers (object, strings, dates, records), long double (no DLPack code) and the other
    byte order (">u2" on x86). The module names the numeric dtypes it refuses itself."""
    if not isinstance(array, np.ndarray):
        return
    if array.dtype.kind not in "biufc" or array.dtype.char in "gG":  # g, G: long double, its complex
        raise TypeError(f"{role} has dtype {array.dtype}: gpurotate takes {DTYPES_TEXT}")
    if not array.dtype.isnative:
        raise TypeError(
            f"{role} has dtype {array.dtype.str}, in the other byte order: gpurotate takes numbers in this machine's "
            "order (a.astype(a.dtype.newbyteorder('=')))"
        )


def _adopt(x: Any) -> tuple[Any, str]:
    """The array as NumPy, PyTorch or CuPy (a view, never a copy), and which."""
    kind = _framework(x)
    if kind != "other":
        return x, kind
    if isinstance(x, (bytes, str)):  # the buffer protocol would make them a 0-D array of strings
        raise TypeError(f"expected an array (NumPy, PyTorch, CuPy), not {type(x).__name__}: decode image files first")
    if hasattr(x, "__cuda_array_interface__") or (
        hasattr(x, "__dlpack_device__") and x.__dlpack_device__()[0] not in (1, 3)
    ):
        try:
            import cupy
        except ImportError:
            raise TypeError(
                f"{type(x).__name__} is a CUDA array of neither PyTorch nor CuPy: install CuPy (which wraps it "
                "without a copy) or pass a torch or cupy array"
            ) from None
        return cupy.asarray(x) if hasattr(x, "__cuda_array_interface__") else cupy.from_dlpack(x), "cupy"
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        return np.from_dlpack(x), "numpy"
    if hasattr(x, "__array_interface__"):
        return np.asarray(x), "numpy"
    try:
        memoryview(x)
    except TypeError:
        raise TypeError(
            f"expected a NumPy array, a PyTorch tensor, a CuPy array or an object with __dlpack__, "
            f"__cuda_array_interface__ or the buffer protocol, not {type(x).__name__}"
        ) from None
    return np.asarray(x), "numpy"


def _on_cuda(x: Any, kind: str) -> bool:
    if kind == "torch":
        return x.device.type == "cuda"
    return kind == "cupy"


def _empty(x: Any, kind: str, shape: Sequence[int]) -> Any:
    if kind == "torch":
        return _module_of("torch").empty(tuple(shape), dtype=x.dtype, device=x.device)
    if kind == "cupy":
        cupy = _module_of("cupy")
        with x.device:
            return cupy.empty(tuple(shape), dtype=x.dtype)
    return np.empty(tuple(shape), dtype=x.dtype)


def _stream_handle(stream: Any) -> int:
    if isinstance(stream, int):
        return stream
    for attribute in ("cuda_stream", "ptr"):  # torch.cuda.Stream, cupy.cuda.Stream
        if hasattr(stream, attribute):
            return int(getattr(stream, attribute))
    raise TypeError(f"stream= is a cudaStream_t as an int, a torch.cuda.Stream or a cupy.cuda.Stream, not {type(stream).__name__}")


def _torch_current_stream(torch: Any, index: int) -> int:
    """torch's current stream on device `index` as a cudaStream_t. torch.cuda.current_stream() builds a
    Stream object for that (5 us a call on the H100 machine, a tenth of a random-D4 call's host time);
    torch's own raw-stream query, where this torch has it, does not."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return raw(index) if raw is not None else torch.cuda.current_stream(index).cuda_stream


def _run_on_cuda(call: Any, x: Any, kind: str, stream: Any) -> None:
    """`call(stream_handle)` with the array's device current (the library launches on the current device):
    `stream` where given, else the framework's current stream on that device."""
    if kind == "torch":
        torch = _module_of("torch")
        index = x.device.index
        # Switching devices costs a few microseconds a call: only where the array is not on the current one.
        if index == torch.cuda.current_device():
            call(_stream_handle(stream) if stream is not None else _torch_current_stream(torch, index))
            return
        with torch.cuda.device(index):
            call(_stream_handle(stream) if stream is not None else _torch_current_stream(torch, index))
    else:
        cupy = _module_of("cupy")
        with x.device:
            call(_stream_handle(stream) if stream is not None else cupy.cuda.get_current_stream().ptr)


def _refuse_unreadable_tensor(x: Any, kind: str, role: str) -> None:
    """Tensors gpurotate cannot take as their values: autograd's, lazy negations and conjugations (whose
    bytes are not their values: the transform would drop the sign), devices other than CPU and CUDA, and
    dtypes DLPack cannot carry (quantized, torch.bits*)."""
    if kind != "torch":
        return
    if x.requires_grad:
        raise TypeError(f"{role} requires grad: gpurotate records no autograd graph; pass x.detach()")
    if x.is_neg() or x.is_conj():
        raise TypeError(f"{role} is a lazy negation or conjugation view: pass x.resolve_neg().resolve_conj()")
    if x.device.type not in ("cpu", "cuda"):
        raise TypeError(f"{role} is on {x.device}: gpurotate takes CPU and CUDA tensors")
    if x.is_quantized or str(x.dtype).startswith("torch.bits"):  # no DLPack code: the binding's signature would say it
        raise TypeError(f"{role} has dtype {x.dtype}: gpurotate takes {DTYPES_TEXT}")


def _element_codes(elements: Any) -> list[int]:
    """Codes 0-7 (the module checks their range): plain ints pass as they are, since this list is on every
    training step's path."""
    if type(elements) is list and list(map(type, elements)).count(int) == len(elements):
        return elements  # the common case, checked at C speed and passed on without a copy
    if hasattr(elements, "tolist"):  # NumPy, PyTorch (a CUDA tensor is read back: a synchronisation), CuPy
        elements = elements.tolist()
    if isinstance(elements, (str, bytes, set, frozenset, dict)) or not isinstance(elements, Iterable):
        raise TypeError("elements= is a sequence of one element per sample, in order (codes 0-7, names or Orientation)")
    return [e if type(e) is int else int(element(e)) for e in elements]


def _checking_codes(codes: list[int], call: Any, *args: Any) -> Any:
    """call(*args), a call into the module with `codes`. The module checks codes' range, but one that does not fit
    64 bits fails its signature first (a TypeError that lists the signature): said here, after that failure, so
    that the calls that succeed pay nothing."""
    try:
        return call(*args)
    except TypeError:
        for code in codes:
            if type(code) is int and not 0 <= code <= 7:
                raise ValueError(f"element code {code} is not one of 0-7 (identity, rot90, rot180, rot270, flip-h, "
                                 "flip-v, transpose, transverse)") from None
        raise


# Planar layouts whose channels-last memory (a channels_last tensor, numpy.moveaxis of an HWC image) is the
# interleaved layout of a permuted view: (that layout, the permutation to it, the permutation back).
_CHANNELS_LAST = {"nchw": ("nhwc", (0, 2, 3, 1), (0, 3, 1, 2)), "chw": ("hwc", (1, 2, 0), (2, 0, 1))}


def _is_c_contiguous(x: Any, kind: str) -> bool:
    return bool(x.is_contiguous()) if kind == "torch" else bool(x.flags.c_contiguous)


def _permuted(x: Any, kind: str, axes: Sequence[int]) -> Any:
    return x.permute(*axes) if kind == "torch" else x.transpose(axes)


def _contiguous(x: Any, kind: str) -> Any:
    if kind == "torch":
        return x.contiguous()
    if kind == "cupy":
        return _module_of("cupy").ascontiguousarray(x)
    return np.ascontiguousarray(x)


def _taken_as_is(x: Any, layout: str) -> bool:
    try:
        _gpurotate.check_array(x, layout)
    except (TypeError, ValueError):
        return False
    return True


def _arrange(x: Any, kind: str, layout: str, copy: bool) -> tuple[Any, str, Optional[str]]:
    """An input that is not C-contiguous, as the module will take it: (array, layout, the caller's planar
    layout where the array is its channels-last view, else None). The one rule: as it is where its strides
    are images with a row pitch (a crop, a step over samples); a planar layout whose memory is channels-last
    as the interleaved layout of a permuted view; else a contiguous copy where `copy`, or as it is, for the
    module to refuse with its message."""
    if _taken_as_is(x, layout):
        return x, layout, None
    if layout in _CHANNELS_LAST:
        interleaved, forward, _ = _CHANNELS_LAST[layout]
        view = _permuted(x, kind, forward)
        if _taken_as_is(view, interleaved):
            return view, interleaved, layout
    if copy:
        return _contiguous(x, kind), layout, None
    return x, layout, None


def _check_out(out: Any) -> tuple[Any, Any, str, Optional[np.dtype]]:
    """out= as an array of a framework (a buffer or DLPack object as NumPy or CuPy, a view), its checks made:
    (that array, the array the module writes: its words where `_as_words` says, its kind, the dtype those words
    stand for or None)."""
    out_kind = _framework(out)
    if out_kind == "other" and isinstance(out, (int, float, complex, str, bytes, list, tuple, dict, set)):
        raise TypeError(f"out= is an array of the input's kind (NumPy, PyTorch, CuPy), not {type(out).__name__}")
    if out_kind == "other":  # a buffer or DLPack object: as NumPy (or CuPy), a view, so its checks apply
        out, out_kind = _adopt(out)
    _refuse_unreadable_tensor(out, out_kind, "out")
    written, extension_dtype = _as_words(out, "out")
    _refuse_dtype_dlpack_cannot_carry(written, "out")
    if isinstance(out, np.ndarray) and not out.flags.writeable:
        raise ValueError("out is read-only")
    return out, written, out_kind, extension_dtype


if TYPE_CHECKING:
    import torch

#: The frameworks whose arrays come back as their own kind (the result is allocated by x's framework).
_Array = TypeVar("_Array", np.ndarray, "torch.Tensor")


# The type a checker sees: x's own kind back (NumPy, PyTorch), or out='s; anything else (a buffer, CuPy) as Any.
@overload
def apply(x: _Array, ops: Optional[Ops] = ..., *, elements: Any = ..., layout: Optional[str] = ..., out: None = ...,
          stream: Any = ..., copy: bool = ...) -> _Array: ...  # fmt: skip
@overload
def apply(x: Any, ops: Optional[Ops] = ..., *, elements: Any = ..., layout: Optional[str] = ..., out: _Array,
          stream: Any = ..., copy: bool = ...) -> _Array: ...  # fmt: skip
@overload
def apply(x: Any, ops: Optional[Ops] = ..., *, elements: Any = ..., layout: Optional[str] = ..., out: Any = ...,
          stream: Any = ..., copy: bool = ...) -> Any: ...  # fmt: skip
def apply(
    x: Any,
    ops: Optional[Ops] = None,
    *,
    elements: Any = None,
    layout: Optional[str] = None,
    out: Any = None,
    stream: Any = None,
    copy: bool = False,
) -> Any:
    """Applies D4 elements to an image, a planar image or a batch, in one pass; returns the result.

    x: a NumPy array, a PyTorch tensor (CPU or CUDA) or a CuPy array, of any dtype of 1, 2, 4, 8 or 16-byte
        items (bool, int8 to int64, uint8 to uint64, float16, bfloat16, float32, float64, complex64,
        complex128): the bytes move as they are, so the result is bit-identical to numpy.rot90 and friends
        (NaN payloads, -0.0 included). Interleaved pixels (hwc, nhwc) are at most 16 bytes: 8-byte items
        with up to 2 channels. NumPy arrays of ml_dtypes' types (bfloat16, float8_*, int4, ...) move as
        words of their item size and come back in their dtype. Objects with __dlpack__, the buffer protocol
        or __cuda_array_interface__ (through CuPy) are taken without a copy too.
    ops: one operation or a sequence applied in order and composed into one element (one pass): names as
        the CLI spells them (identity rot90 rot180 rot270 flip-h flip-v transpose transverse), Orientation
        members or codes 0-7. "rot90" is CLOCKWISE: gpurotate "rot90" == numpy.rot90(x, k=-1) on the
        height and width axes, while numpy.rot90(x) and torch.rot90(x) turn counter-clockwise ("rot270").
    elements: instead of ops, one element per sample of a batch (layout nchw or nhwc): a sequence, array or
        tensor of N codes 0-7 (Orientation's order), names or Orientation members. The GPU does the
        whole batch in one launch. Samples that are not square must all swap height and width or all
        keep them (else ValueError): the results must fit one array.
    layout: "hw", "hwc" (C = 1-4 interleaved channels), "chw" (planes), "nchw" (a batch of planes) or
        "nhwc". Always wins; without it, `infer_layout(x.shape)` decides.
    out: an array to write the result into: same dtype and device, the result's shape, not overlapping x,
        its strides as x's may be (below; never copied). Returned.
    stream: CUDA arrays only: the stream to enqueue on (an int cudaStream_t, torch.cuda.Stream or
        cupy.cuda.Stream). Default: the framework's current stream on x's device
        (torch.cuda.current_stream(), cupy.cuda.get_current_stream()). The call returns without
        synchronising, as a framework's own kernels do.
    copy: what to do with strides the library cannot take (below): False (default) raises ValueError,
        True makes one contiguous copy first.

    Strides, one rule: x is taken as it is, without a copy, wherever its memory is images with a row pitch:
    C-contiguous, a crop of a larger array (x[:, 8:200, 8:200]), a step over samples or planes (x[::2]),
    and a planar layout (chw, nchw) whose memory is channels-last (a channels_last tensor), which is worked
    as hwc/nhwc and returned in the same memory order. Anything else (transposed, reversed, a column step,
    broadcast) raises ValueError, or is copied first with copy=True.

    CPU arrays run on the CPU backend (every core) and return when done. Without CUDA in this build, a
    CUDA array raises gpurotate.DeviceError.
    """
    if (ops is None) == (elements is None):
        raise TypeError("pass either ops (one element for all) or elements= (one per sample), not both or neither")
    x, kind = _adopt(x)
    x_dtype = getattr(x, "dtype", None)
    x, x_extension_dtype = _as_words(x, "x")
    _refuse_dtype_dlpack_cannot_carry(x, "x")
    _refuse_unreadable_tensor(x, kind, "x")
    shape = tuple(int(extent) for extent in x.shape)
    if layout is None:
        layout = infer_layout(shape)
    elif type(layout) is not str:
        raise TypeError(f"layout= is one of 'hw', 'hwc', 'chw', 'nchw', 'nhwc', not {type(layout).__name__}")
    codes = [int(compose(ops))] if elements is None else _element_codes(elements)
    if elements is not None:
        if layout not in ("nchw", "nhwc"):
            raise ValueError(f"elements= needs a batch: layout 'nchw' or 'nhwc', not '{layout}'")
        if len(codes) == 1 and len(shape) == 4 and shape[0] != 1:  # the module takes a list of one as one element for all
            raise ValueError(f"elements= has 1 entry for a batch of {shape[0]} samples: one element for all is ops")
    planar = None  # the caller's layout where x is worked as its channels-last view
    if not _is_c_contiguous(x, kind):
        x, layout, planar = _arrange(x, kind, layout, copy)
        shape = tuple(int(extent) for extent in x.shape)
    if out is None:
        out = _empty(x, kind, _checking_codes(codes, _gpurotate.output_shape, shape, layout, codes))
        result = out if planar is None else _permuted(out, kind, _CHANNELS_LAST[planar][2])
        if x_extension_dtype is not None:  # the words' bytes, as the input's dtype
            result = result.view(x_extension_dtype)
    else:  # the module checks out's shape against x's and the elements
        result, out, out_kind, out_extension_dtype = _check_out(out)
        # Two views of one word type are not one dtype: said here, by the dtypes' own names. (`is None`, since
        # NumPy reads a comparison of a dtype with None as one with float64.)
        if (x_extension_dtype is not None or out_extension_dtype is not None) and (
            x_extension_dtype is None or out_extension_dtype is None or x_extension_dtype != out_extension_dtype
        ):
            raise TypeError(f"out has dtype {result.dtype}, the input {x_dtype}: another dtype (gpurotate converts no samples)")
        if planar is not None:
            out = _permuted(out, out_kind, _CHANNELS_LAST[planar][1])
    if not _on_cuda(x, kind):
        if stream is not None:
            raise ValueError("stream= is for CUDA arrays; x is in host memory")
        _checking_codes(codes, _gpurotate.transform, x, out, codes, layout, 0)
        return result
    _checking_codes(codes, _run_on_cuda, lambda handle: _gpurotate.transform(x, out, codes, layout, handle), x, kind, stream)
    return result


def apply_inplace(x: _Array, op: Ops, *, layout: Optional[str] = None, stream: Any = None) -> _Array:
    """Applies an involution (identity, rot180, flip-h, flip-v, transpose, transverse) to a CUDA array in
    place and returns it: for batches with no room for a second copy. GPU only (TypeError for a host
    array); transpose and transverse need square images; rot90 and rot270 raise gpurotate.UsageError (one
    pass cannot turn an image in place). One launch per image or plane, on the stream as in `apply`.
    """
    x, kind = _adopt(x)
    _refuse_unreadable_tensor(x, kind, "x")
    layout = infer_layout(tuple(x.shape)) if layout is None else layout
    code = compose(op)
    view, _ = _as_words(x, "x")
    if not _is_c_contiguous(x, kind):  # the strides rule of `apply`, less the copy (the result is x's memory)
        view, layout, _ = _arrange(view, kind, layout, copy=False)
    if not _on_cuda(x, kind):
        # The module says so as well; here the message comes before any stream is looked up.
        _gpurotate.transform_in_place(view, code, layout, 0)
        return x
    _run_on_cuda(lambda handle: _gpurotate.transform_in_place(view, code, layout, handle), x, kind, stream)
    return x
