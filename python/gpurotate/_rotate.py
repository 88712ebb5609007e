"""gpurotate.rotate: rotation by any angle (the library's gpurotate::rotate), over the arrays, layouts, strides
and streams that gpurotate.apply takes. The module (_gpurotate.rotate) makes every check of the arrays; this
layer reads the angle, the interpolation and the fill, allocates the result and finds the stream."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Optional, Sequence, TypeVar, Union, overload

import numpy as np

from . import _api, _gpurotate

#: The interpolations `rotate` takes (OpenCV's INTER_NEAREST, INTER_LINEAR, INTER_CUBIC).
INTERPOLATIONS = ("nearest", "bilinear", "bicubic")

#: The dtypes `rotate` takes, as its TypeErrors say.
ROTATE_DTYPES_TEXT = "uint8, uint16 and float32 (the library's sample types: interpolation reads samples as numbers)"


def interpolation_name(interpolation: Any) -> str:
    """"nearest", "bilinear" or "bicubic" from that string (any case) or torchvision's InterpolationMode
    (NEAREST, BILINEAR, BICUBIC; its .value is the string). ValueError for another mode, TypeError for another type."""
    value = getattr(interpolation, "value", interpolation)  # InterpolationMode is an Enum of strings
    if not isinstance(value, str):
        raise TypeError(f"interpolation is one of {', '.join(INTERPOLATIONS)} (a string or torchvision's InterpolationMode), "
                        f"not {type(interpolation).__name__}")
    name = value.lower()
    if name not in INTERPOLATIONS:
        raise ValueError(f"interpolation '{value}' is not one of {', '.join(INTERPOLATIONS)}")
    return name


def _number(value: Any, what: str) -> float:
    if isinstance(value, (bool, np.bool_)) or isinstance(value, (str, bytes)):
        raise TypeError(f"{what} is a real number, not {type(value).__name__}")
    if getattr(value, "ndim", None) == 0 and hasattr(value, "item"):  # a 0-d array or tensor
        value = value.item()
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{what} is a real number, not {type(value).__name__}") from None


def _angles(angle: Any, layout: str, shape: Sequence[int]) -> list[float]:
    """One angle for all ([a]) or one per sample of a batch (a sequence, array or tensor of N)."""
    if isinstance(angle, (int, float, np.integer, np.floating)) and not isinstance(angle, (bool, np.bool_)):
        return [float(angle)]
    if getattr(angle, "ndim", None) == 0:
        return [_number(angle, "angle")]
    if hasattr(angle, "tolist"):  # NumPy, PyTorch (a CUDA tensor is read back: a synchronisation), CuPy
        if getattr(angle, "ndim", 1) != 1:
            raise ValueError(f"angle is one number, or one per sample (a 1-D sequence), not an array of shape {tuple(angle.shape)}")
        angle = angle.tolist()
    if isinstance(angle, (str, bytes, set, frozenset, dict)) or not isinstance(angle, Sequence):
        raise TypeError(f"angle is a number (degrees clockwise) or a sequence of one per sample, not {type(angle).__name__}")
    angles = [_number(a, "an angle") for a in angle]
    if layout not in ("nchw", "nhwc"):
        raise ValueError(f"one angle per sample needs a batch: layout 'nchw' or 'nhwc', not '{layout}'")
    if len(angles) == 1 and shape[0] != 1:  # the module takes a list of one as one angle for all
        raise ValueError(f"angle has 1 entry for a batch of {shape[0]} samples: one angle for all is a number")
    return angles


def _channels(shape: Sequence[int], layout: str) -> int:
    """The channels that fill= may give one value each: interleaved (hwc, nhwc) or planes (chw, nchw)."""
    return {"hw": 1, "hwc": shape[-1], "nhwc": shape[-1], "chw": shape[0], "nchw": shape[1]}[layout]


def _fill_values(fill: Any, channels: int) -> list[float]:
    """fill= as the module's list: one value for all channels, or one per channel (torchvision's fill)."""
    if fill is None:
        return [0.0]
    if hasattr(fill, "tolist") and getattr(fill, "ndim", 0) > 0:
        fill = fill.tolist()
    if isinstance(fill, (list, tuple)):
        values = [_number(v, "a fill value") for v in fill]
        if len(values) not in (1, channels):
            raise ValueError(f"fill has {len(values)} values for {channels} channels: one value for all, or one per channel")
        return values
    return [_number(fill, "fill")]


def _saturated(value: float, dtype: Any) -> Any:
    """A fill value in the sample type as the library stores it (cv::saturate_cast: rounded half to even,
    clamped for the integers)."""
    text = str(dtype)
    for name, top in (("uint8", 255), ("uint16", 65535)):
        if text.endswith(name):
            # cvRound's overflow: a value that is not finite or whose rounding leaves int32 is INT_MIN, so 0.
            rounded = round(value) if math.isfinite(value) else None
            return 0 if rounded is None or not -(2**31) <= rounded < 2**31 else min(max(rounded, 0), top)
    return float(np.float32(value))


def _fill_empty(result: Any, kind: str, layout: str, values: Sequence[float]) -> None:
    """Every pixel of the result of an input without pixels is uncovered: the fill, in the caller's layout."""
    channels = _channels(tuple(result.shape), layout)
    values = [_saturated(v, result.dtype) for v in (values * channels if len(values) == 1 else values)]
    axis = {"hw": None, "hwc": -1, "nhwc": -1, "chw": 0, "nchw": 1}[layout]
    for c in range(channels if axis is not None else 1):
        index = (Ellipsis,) if axis is None else ((Ellipsis, c) if axis == -1 else (slice(None),) * axis + (c,))
        if kind == "torch":
            result[index].fill_(values[c])
        else:
            result[index] = values[c]


def _refuse_dtype(x: Any, kind: str, role: str) -> None:
    """TypeError, before the module's, for what it cannot tell apart or name: NumPy dtypes of extensions
    (ml_dtypes' bfloat16 is a float to DLPack only by its bytes) and dtypes that are not numbers."""
    if isinstance(x, np.ndarray) and (x.dtype.isbuiltin == 2 or x.dtype.kind not in "biufc" or x.dtype.char in "gG"):
        raise TypeError(f"{role} has dtype {x.dtype}: rotate takes {ROTATE_DTYPES_TEXT}")
    _api._refuse_dtype_dlpack_cannot_carry(x, role)
    if kind == "torch" and (x.is_quantized or str(x.dtype).startswith("torch.bits")):
        raise TypeError(f"{role} has dtype {x.dtype}: rotate takes {ROTATE_DTYPES_TEXT}")


if TYPE_CHECKING:
    import torch

_Array = TypeVar("_Array", np.ndarray, "torch.Tensor")
Angle = Union[float, Sequence[float], Any]


@overload
def rotate(x: _Array, angle: Angle, *, interpolation: Any = ..., expand: bool = ..., fill: Any = ..., layout: Optional[str] = ...,
           out: None = ..., stream: Any = ..., copy: bool = ...) -> _Array: ...  # fmt: skip
@overload
def rotate(x: Any, angle: Angle, *, interpolation: Any = ..., expand: bool = ..., fill: Any = ..., layout: Optional[str] = ...,
           out: _Array, stream: Any = ..., copy: bool = ...) -> _Array: ...  # fmt: skip
@overload
def rotate(x: Any, angle: Angle, *, interpolation: Any = ..., expand: bool = ..., fill: Any = ..., layout: Optional[str] = ...,
           out: Any = ..., stream: Any = ..., copy: bool = ...) -> Any: ...  # fmt: skip
def rotate(
    x: Any,
    angle: Angle,
    *,
    interpolation: Any = "bilinear",
    expand: bool = True,
    fill: Any = 0,
    layout: Optional[str] = None,
    out: Any = None,
    stream: Any = None,
    copy: bool = False,
) -> Any:
    """Rotates an image, a planar image or a batch by any angle; returns the result.

    The bytes are OpenCV 4.6's `cv2.warpAffine(x, cv2.getRotationMatrix2D(((W-1)/2, (H-1)/2), -angle, 1),
    dsize, flags=INTER_NEAREST|INTER_LINEAR|INTER_CUBIC, borderMode=BORDER_CONSTANT, borderValue=fill)`
    (pixel-centre coordinates, the rotation about the image's centre), the same on the CPU and the GPU.

    x: a NumPy array, a PyTorch tensor (CPU or CUDA) or a CuPy array of uint8, uint16 or float32 (other
        dtypes raise TypeError: convert first). Other array objects are adopted as `apply` adopts them.
    angle: degrees CLOCKWISE, any finite number (ImageMagick's -rotate, the CLI's --rotate). NOTE:
        torchvision's rotate(img, angle) and RandomRotation turn counter-clockwise: its angle a is -a here.
        A batch (nchw, nhwc) takes one angle for all or a sequence, array or tensor of one per sample.
    interpolation: "nearest", "bilinear" (default) or "bicubic", or torchvision's InterpolationMode of those.
    expand: True (default): the canvas grows to hold the whole image, W' = ceil(W|cos| + H|sin| - 1e-6) and
        H' = ceil(W|sin| + H|cos| - 1e-6), the image's centre at the canvas's centre; False: the input's
        size, corners cut (torchvision's expand=False). Per-sample angles must give one size for the whole
        batch: expand=False, or angles whose canvases agree (ValueError otherwise).
    fill: the uncovered pixels: one number for every channel, or a sequence of one per channel (interleaved
        channels, or the planes of chw and nchw), in the samples' own units (255 is white in uint8, 1.0 in
        float32), rounded and clamped to the dtype as OpenCV's borderValue is. Default 0.
    layout: "hw", "hwc", "chw", "nchw" or "nhwc", or inferred from the shape as `apply` infers it.
    out: an array to write the result into (the dtype, device and shape of the result; strides as x's
        may be). Returned.
    stream: CUDA arrays only, as in `apply`: default the framework's current stream of x's device; the
        call returns without synchronising.
    copy: strides the library cannot take (as in `apply`): False raises ValueError, True copies first.

    On the GPU a batch (and a planar image's planes) runs in one launch, each sample with its own angle; on
    the CPU one call of the library per image or plane. Multiples of 90 degrees are computed as any angle is (warpAffine's bytes; with expand=True
    they are the D4 element's: apply(x, "rot90") for 90); `apply` is the exact and faster way to turn by them.
    """
    x, kind = _api._adopt(x)
    _refuse_dtype(x, kind, "x")
    _api._refuse_unreadable_tensor(x, kind, "x")
    shape = tuple(int(extent) for extent in x.shape)
    if layout is None:
        layout = _api.infer_layout(shape)
    elif type(layout) is not str or layout not in _api.LAYOUTS:
        raise (TypeError if type(layout) is not str else ValueError)(
            f"layout= is one of 'hw', 'hwc', 'chw', 'nchw', 'nhwc', not {layout!r}")
    if len(shape) != len(layout):
        raise ValueError(f"layout '{layout}' needs a {len(layout)}-D array, not shape {shape}")
    if not isinstance(expand, (bool, np.bool_)):
        raise TypeError(f"expand is True or False, not {type(expand).__name__}")
    angles = _angles(angle, layout, shape)
    method = interpolation_name(interpolation)
    values = _fill_values(fill, _channels(shape, layout))
    caller_layout = layout
    height_axis = {"hw": 0, "hwc": 0, "chw": 1, "nchw": 2, "nhwc": 1}[layout]
    no_pixels = shape[height_axis] == 0 or shape[height_axis + 1] == 0
    planar = None  # the caller's layout where x is worked as its channels-last view
    if not _api._is_c_contiguous(x, kind):
        x, layout, planar = _api._arrange(x, kind, layout, copy)
        shape = tuple(int(extent) for extent in x.shape)
    keep_size = not bool(expand)
    result_kind = kind
    if out is None:
        out = _api._empty(x, kind, _gpurotate.rotated_shape(shape, layout, angles, keep_size))
        result = out if planar is None else _api._permuted(out, kind, _api._CHANNELS_LAST[planar][2])
    else:  # the module checks out's dtype, device and shape against x's and the angles
        result, out, out_kind, out_extension_dtype = _api._check_out(out)
        result_kind = out_kind
        if out_extension_dtype is not None:
            raise TypeError(f"out has dtype {out_extension_dtype}: rotate takes {ROTATE_DTYPES_TEXT}")
        if planar is not None:
            out = _api._permuted(out, out_kind, _api._CHANNELS_LAST[planar][1])
    if not _api._on_cuda(x, kind):
        if stream is not None:
            raise ValueError("stream= is for CUDA arrays; x is in host memory")
        _gpurotate.rotate(x, out, angles, layout, method, keep_size, values, 0)
    else:
        _api._run_on_cuda(lambda handle: _gpurotate.rotate(x, out, angles, layout, method, keep_size, values, handle), x, kind, stream)
    if no_pixels and 0 not in tuple(result.shape):  # no pixels in, an expanded canvas out: all fill
        _fill_empty(result, result_kind, caller_layout, values)
    return result
