"""gpurotate.transform_boxes and transform_points: geometric labels moved exactly with their image.

Pure NumPy (a torch or CuPy array goes through NumPy on the host and comes back on its device: labels are
a few numbers per image), so that these functions need no rebuild of the compiled module.

The convention, that of torchvision's BoundingBoxes and of COCO: coordinates are continuous, the image
spanning [0, W] x [0, H] with the pixels' edges at integers (pixel (i, j) covers [j, j + 1] x [i, i + 1]).
For an image W wide and H high, a point (x, y) goes to

    identity   (x, y)            flip-h      (W - x, y)
    rot90      (H - y, x)        flip-v      (x, H - y)
    rot180     (W - x, H - y)    transpose   (y, x)
    rot270     (y, W - x)        transverse  (H - y, W - x)

on a canvas of (H, W) swapped for rot90, rot270, transpose and transverse. Each element is therefore an
optional exchange of x and y followed by an optional mirror of each output axis: `_STEPS` below.
"""

from __future__ import annotations

import math
from typing import Any, Sequence, overload

import numpy as np

from . import _api
from ._api import Op, _Array

#: The box formats, as torchvision.tv_tensors.BoundingBoxFormat names them (any case is taken), with the
#: number of values a box has in each.
BOX_FORMATS = {"xyxy": 4, "xywh": 4, "cxcywh": 4, "xywhr": 5, "cxcywhr": 5, "xyxyxyxy": 8}

# Per element code (Orientation's order): (x and y exchanged, output x mirrored, output y mirrored).
_STEPS = (
    (False, False, False),  # identity
    (True, True, False),  # rot90: (H - y, x)
    (False, True, True),  # rot180: (W - x, H - y)
    (True, False, True),  # rot270: (y, W - x)
    (False, True, False),  # flip-h: (W - x, y)
    (False, False, True),  # flip-v: (x, H - y)
    (True, False, False),  # transpose: (y, x)
    (True, True, True),  # transverse: (H - y, W - x)
)

# Per element code: the rotated boxes' angle r (degrees, counter-clockwise as seen on the screen) goes to
# sign * r + offset. A direction (cos r, -sin r) in image coordinates (y down) maps as a vector; for the
# reflections, whose box starts at the mapped second corner (below), the width edge runs back, which
# gives torchvision's -r for flip-h and 180 - r for flip-v.
_ANGLES = ((1, 0), (1, -90), (1, 180), (1, 90), (-1, 0), (-1, 180), (-1, 90), (-1, -90))


def _canvas(canvas_size: Any) -> tuple[int, int]:
    try:
        height, width = canvas_size
        height, width = int(height), int(width)
    except (TypeError, ValueError):
        raise TypeError(f"canvas_size is (H, W), as torchvision writes it, not {canvas_size!r}") from None
    if height < 0 or width < 0:
        raise ValueError(f"canvas_size (H, W) = ({height}, {width}) has a negative side")
    return height, width


def _to_numpy(values: Any, role: str) -> tuple[np.ndarray, Any]:
    """(values as NumPy, a function that gives a NumPy result back as the input's kind)."""
    kind = _api._framework(values)
    if kind == "torch":
        torch = _api._module_of("torch")
        if values.requires_grad:
            raise TypeError(f"{role} requires grad: gpurotate records no autograd graph; pass {role}.detach()")
        plain = values.as_subclass(torch.Tensor) if type(values) is not torch.Tensor else values
        host = plain.resolve_neg().resolve_conj().cpu()
        dtype = host.dtype
        if dtype == torch.bfloat16:  # NumPy has no bfloat16
            host = host.float()
        array = host.numpy()

        def back(result: np.ndarray) -> Any:
            out = torch.from_numpy(np.ascontiguousarray(result))
            if dtype == torch.bfloat16 and out.dtype == torch.float32:
                out = out.to(torch.bfloat16)
            return out.to(values.device)

        return array, back
    if kind == "cupy":
        cupy = _api._module_of("cupy")
        device = values.device

        def back_cupy(result: np.ndarray) -> Any:
            with device:
                return cupy.asarray(result)

        return cupy.asnumpy(values), back_cupy
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{role} is an array of coordinates, not {type(values).__name__}")
    return np.asarray(values), lambda result: result


def _numbers(array: np.ndarray, role: str) -> None:
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{role} has dtype {array.dtype}: coordinates are integers or floats")


def _work(array: np.ndarray) -> np.ndarray:
    """Where the arithmetic is done: floats in their own dtype (one rounding a result, as torchvision's), integers
    in int64, where W - x cannot wrap; the result is cast back to the input's dtype."""
    return array.astype(np.int64) if array.dtype.kind in "iu" else array.copy()


def _points(x: np.ndarray, y: np.ndarray, code: int, height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of points under element `code`, on a canvas of (height, width): the per-element formulas."""
    exchange, mirror_x, mirror_y = _STEPS[code]
    x, y = np.array(x), np.array(y)  # copies: the caller writes the results back over the columns they came from
    if exchange:
        x, y, height, width = y, x, width, height
    return (width - x if mirror_x else x), (height - y if mirror_y else y)


def _angle(r: np.ndarray, code: int) -> np.ndarray:
    if code == 0:
        return r
    sign, offset = _ANGLES[code]
    r = sign * r + offset
    r = np.mod(r, 360)  # [0, 360) ...
    return np.where(r > 180, r - 360, r)  # ... to (-180, 180]


@overload
def transform_boxes(boxes: _Array, element: Op, canvas_size: Sequence[int], format: Any = ...) -> _Array: ...  # fmt: skip
@overload
def transform_boxes(boxes: Any, element: Op, canvas_size: Sequence[int], format: Any = ...) -> Any: ...  # fmt: skip
def transform_boxes(boxes: Any, element: Op, canvas_size: Sequence[int], format: Any = "xyxy") -> Any:
    """Bounding boxes moved with their image under `element` (a name, an Orientation member or a code 0-7).

    boxes: an array of shape (..., K): NumPy, PyTorch (CPU or CUDA) or CuPy, or anything np.asarray takes (a
        list). Comes back as the same kind (a list as NumPy), on the same device, in the same dtype.
    canvas_size: (H, W) of the image the boxes are on, as torchvision writes it; the result's canvas is
        (W, H) where `swaps_axes(element)`.
    format: torchvision's BoundingBoxFormat, by name in any case (or the enum member itself):
        "xyxy" (x1, y1, x2, y2; K = 4), "xywh" (x1, y1 the top left, w, h), "cxcywh" (centre, w, h),
        and the rotated "xywhr" (x1, y1 the first corner, w, h, r; K = 5), "cxcywhr" (centre, w, h, r) and
        "xyxyxyxy" (the 4 corners in order; K = 8). r is in degrees, counter-clockwise as seen on the
        screen: the width edge runs from (x1, y1) in the direction (cos r, -sin r), the height edge in the
        direction (sin r, cos r) (y grows downwards).

    Coordinates are continuous, the image spanning [0, W] x [0, H], the pixels' edges at integers (COCO's
    and torchvision's convention for boxes); a point (x, y) goes to (H - y, x) under rot90 (clockwise),
    (W - x, y) under flip-h, (y, x) under transpose, and so on (docs/python.md has the 8).

    Axis-aligned formats stay axis-aligned with the same size (w and h exchanged where the axes are): the
    corners mapped, then the least and greatest of each coordinate (for boxes with x1 <= x2 and y1 <= y2;
    others are mirrored edge for edge, as torchvision's flips do). Rotated formats keep w and h and turn
    the angle: r - 90 under rot90, r + 180 under rot180, r + 90 under rot270, and for the reflections, which
    reverse the corners' winding, the box torchvision's horizontal_flip/vertical_flip make: its first
    corner is the mapped second one and the angle -r (flip-h), 180 - r (flip-v), 90 - r (transpose) or
    -90 - r (transverse); xyxyxyxy corners come in the order (2, 1, 4, 3) of the mapped ones, which keeps
    the winding and equals the xywhr result's corners. Angles come back in (-180, 180] (the identity
    returns its input's values as they are).

    Exact: integer boxes stay integers and every integer result is exact (W - x is), so four rot90s give
    them back; floats get the one rounding of each such subtraction. The exception is the first corner of
    an xywhr box under a reflection (the mapped second corner, found by trigonometry), which is why integer
    xywhr boxes come back as float64.
    """
    code = int(_api.element(element))
    name = getattr(format, "value", format)  # a BoundingBoxFormat member
    if not isinstance(name, str) or name.lower() not in BOX_FORMATS:
        raise ValueError(f"format is one of {', '.join(BOX_FORMATS)} (any case), not {format!r}")
    name = name.lower()
    height, width = _canvas(canvas_size)
    array, back = _to_numpy(boxes, "boxes")
    _numbers(array, "boxes")
    size = BOX_FORMATS[name]
    if array.ndim == 0 or array.shape[-1] != size:
        raise ValueError(f"{name} boxes have shape (..., {size}), not {tuple(array.shape)}")
    dtype = np.dtype(np.float64) if name == "xywhr" and array.dtype.kind in "iu" else array.dtype
    b = _work(array.astype(dtype, copy=False))
    exchange, mirror_x, mirror_y = _STEPS[code]
    out_height, out_width = (width, height) if exchange else (height, width)
    if name in ("xyxy", "xywh", "cxcywh"):
        # Columns (x, y, then x, y or w, h) as the output axes see them.
        if exchange:
            b = b[..., [1, 0, 3, 2]]
        for mirror, extent, (first, second) in ((mirror_x, out_width, (0, 2)), (mirror_y, out_height, (1, 3))):
            if not mirror:
                continue
            if name == "xyxy":  # the two edges exchange: the least stays first
                b[..., [first, second]] = extent - b[..., [second, first]]
            elif name == "xywh":  # the corner's coordinate is the other edge's, mirrored
                b[..., first] = extent - (b[..., first] + b[..., second])
            else:  # cxcywh: the centre mirrors
                b[..., first] = extent - b[..., first]
    elif name == "cxcywhr":
        b[..., 0], b[..., 1] = _points(b[..., 0], b[..., 1], code, height, width)
        b[..., 4] = _angle(b[..., 4], code)
    elif name == "xywhr":
        x, y = b[..., 0], b[..., 1]
        if _ANGLES[code][0] < 0:  # a reflection: the box starts at the mapped second corner
            radians = b[..., 4].astype(np.float64) * math.pi / 180
            x = (x + b[..., 2] * np.cos(radians)).astype(dtype)
            y = (y - b[..., 2] * np.sin(radians)).astype(dtype)
        b[..., 0], b[..., 1] = _points(x, y, code, height, width)
        b[..., 4] = _angle(b[..., 4], code)
    else:  # xyxyxyxy
        b[..., 0::2], b[..., 1::2] = _points(b[..., 0::2], b[..., 1::2], code, height, width)
        if _ANGLES[code][0] < 0:  # a reflection reverses the winding: corners 2, 1, 4, 3 keep it
            b = b[..., [2, 3, 0, 1, 6, 7, 4, 5]]
    return back(b.astype(dtype, copy=False))


@overload
def transform_points(points: _Array, element: Op, canvas_size: Sequence[int]) -> _Array: ...  # fmt: skip
@overload
def transform_points(points: Any, element: Op, canvas_size: Sequence[int]) -> Any: ...  # fmt: skip
def transform_points(points: Any, element: Op, canvas_size: Sequence[int]) -> Any:
    """Points (keypoints) moved with their image under `element` (a name, an Orientation member or a code 0-7).

    points: an array of shape (..., 2), (x, y), or (..., 3), (x, y, visibility): NumPy, PyTorch (CPU or
        CUDA) or CuPy, or anything np.asarray takes. Comes back as the same kind, device and dtype.
    canvas_size: (H, W) of the image; the result's canvas is (W, H) where `swaps_axes(element)`.

    Continuous coordinates, the image spanning [0, W] x [0, H] (as transform_boxes): (x, y) goes to
    (H - y, x) under rot90 (clockwise), (W - x, y) under flip-h, (y, x) under transpose, and so on. A point
    at the centre of pixel (row i, column j) is (j + 0.5, i + 0.5) and lands at the centre of the pixel the
    image's value moves to. With a visibility column, which passes unchanged, a point whose visibility is 0
    and whose x and y are both 0 stays (0, 0): COCO's (and torchvision's references') "not labelled".
    Integers stay integers and are exact; floats get the one rounding of each W - x.
    """
    code = int(_api.element(element))
    height, width = _canvas(canvas_size)
    array, back = _to_numpy(points, "points")
    _numbers(array, "points")
    if array.ndim == 0 or array.shape[-1] not in (2, 3):
        raise ValueError(f"points have shape (..., 2) or (..., 3) with a visibility, not {tuple(array.shape)}")
    p = _work(array)
    x, y = _points(p[..., 0], p[..., 1], code, height, width)
    if p.shape[-1] == 3:
        unlabelled = (p[..., 2] == 0) & (p[..., 0] == 0) & (p[..., 1] == 0)
        x, y = np.where(unlabelled, 0, x), np.where(unlabelled, 0, y)
    p[..., 0], p[..., 1] = x, y
    return back(p.astype(array.dtype, copy=False))
