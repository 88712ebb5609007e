"""Random D4 augmentation for PyTorch, as torchvision-v2-style transforms (nn.Modules called on tensors).

    from gpurotate.torch import RandomD4
    augment = RandomD4()            # one of the 8 elements, uniformly, per sample
    batch = augment(batch)          # N x C x H x W, CPU or CUDA: one launch for the whole batch on the GPU

Tensors are [H, W], [C, H, W] (one image: one element) or [N, C, H, W] (a batch: one element per sample,
or one for all with per_sample=False, which is how torchvision v2 draws), of any dtype of 1, 2, 4, 8 or
16-byte items (bool, integers, float16, bfloat16, float32, float64, complex), whose bytes move as they are.
CUDA tensors run on the current stream of their device, CPU tensors on gpurotate's CPU backend (shared with
PyTorch through DLPack, no copy). Strides follow gpurotate.apply's one rule: crops, steps over samples and
channels_last tensors are taken as they are (a channels_last result for a channels_last input); other
strides raise ValueError before anything is drawn, unless the transform was made with copy=True (one
contiguous copy). Several tensors in one call (an image and its mask) get the same elements. The draws use
torch's random number generator (torch.manual_seed, or `generator=`), on the CPU; a DataLoader's workers
each get a copy of a `generator=` and so draw the same sequence, where torch's own generator is seeded per
worker: leave `generator=` out in worker processes, or reseed it in `worker_init_fn`. Non-square batches
never raise: where the candidates mix elements that swap height and width with ones that keep them, whether
a call swaps is drawn once for the batch (as torchvision v2 draws one decision per call) and each sample's
element within that kind, so each sample's element keeps its probabilities and the batch fits one tensor.

torchvision's names: RandomHorizontalFlip(p=0.5) and RandomVerticalFlip(p=0.5) as in
torchvision.transforms.v2 (drawn per sample by default; per_sample=False draws once per call as torchvision
does), and RandomFlip(p=0.5, horizontal=True, vertical=False) for both axes in one pass.

Needs only torch (not torchvision). torchvision's tv_tensors (Image, Mask, Video) come back as the same type.
BoundingBoxes (every format) and KeyPoints, which are coordinates rather than pixels, move with the image
(gpurotate.transform_boxes and transform_points, continuous pixel coordinates: the image spans [0, W] x [0, H])
and come back as the same type with their new canvas_size; they need one element for the call (one image, a
batch of one, a batch with per_sample=False, or no image at all), and a canvas_size equal to the images' (H, W).
No autograd: inputs that require grad raise TypeError, whatever is drawn.

RandomRotation(degrees, interpolation=NEAREST, expand=False, center=None, fill=0) is torchvision v2's, by any
angle (gpurotate.rotate: OpenCV's warpAffine bytes, uint8, uint16 and float32): one angle drawn per call, for
every input of the call; torchvision's angles are counter-clockwise, as its draws are here.
"""

from __future__ import annotations

import math
import sys
from typing import Optional, Sequence, Union

import torch

from . import _api, _labels, _rotate
from ._gpurotate import Orientation

__all__ = ["RandomElements", "RandomD4", "RandomRotate90", "RandomFlip", "RandomHorizontalFlip", "RandomVerticalFlip", "RandomRotation"]

_LAYOUTS = {2: "hw", 3: "chw", 4: "nchw"}
# Bytes of the items gpurotate moves (any dtype of these widths: bool, integers, floats, bfloat16, complex).
_ITEM_BYTES = (1, 2, 4, 8, 16)


class RandomElements(torch.nn.Module):
    """Applies an element of `elements` drawn at random (with `weights`, default uniform) to each sample.

    elements: the candidates (names, Orientation members or codes 0-7). per_sample: for [N, C, H, W]
    batches, one draw per sample (default) or one for the whole batch, as torchvision v2 draws (one
    decision per call). generator: a torch.Generator on the CPU for reproducible draws. copy: for inputs
    whose strides gpurotate cannot take as they are, one contiguous copy first instead of ValueError (the
    rule of gpurotate.apply: crops, steps over samples and channels_last tensors are taken as they are).

    Non-square batches: where the candidates mix elements that swap height and width (rot90, rot270,
    transpose, transverse) with ones that keep them, whether this call swaps is drawn once for the whole
    batch (its probability the swapping candidates' share of the weights, as torchvision v2 draws one
    decision per call), and each sample then draws its element among the candidates of that kind: every
    sample's element still has the asked probabilities, and the results fit one tensor, its sides swapped
    or not.

    forward(*inputs): images, masks, and torchvision's BoundingBoxes and KeyPoints, all given the same
    element (one draw a call): boxes and keypoints with the canvas_size they carry, which must be the
    images' (H, W), coming back with the result's canvas_size. They need one element for the call, so with
    a batch of more than one sample drawn per sample they raise ValueError (per_sample=False draws one).
    """

    def __init__(
        self,
        elements: Sequence[Union[str, int, Orientation]],
        weights: Optional[Sequence[float]] = None,
        per_sample: bool = True,
        generator: Optional[torch.Generator] = None,
        copy: bool = False,
    ) -> None:
        super().__init__()
        self.elements = [_api.element(e) for e in elements]
        self._codes = [int(e) for e in self.elements]
        if not self.elements:
            raise ValueError("no elements to draw from")
        weights = [1.0] * len(self.elements) if weights is None else [float(w) for w in weights]
        if len(weights) != len(self.elements) or not all(math.isfinite(w) and w >= 0 for w in weights) or sum(weights) <= 0:
            raise ValueError("weights: one finite, non-negative weight per element, not all zero")
        self.weights = torch.tensor(weights, dtype=torch.float64)
        self.per_sample = per_sample
        self.generator = generator
        self.copy = copy
        # The candidates by kind, for non-square batches: (codes, weights) of those that keep the axes, then of
        # those that swap them; a kind without weight is left out.
        swaps = [_api._gpurotate.swaps_axes(e) for e in self.elements]
        self._kinds = [
            ([c for c, s in zip(self._codes, swaps) if s == kind], torch.tensor([w for w, s in zip(weights, swaps) if s == kind], dtype=torch.float64))
            for kind in (False, True)
        ]
        self._kinds = [(codes, w) for codes, w in self._kinds if codes and float(w.sum()) > 0]

    def draw(self, count: int, square: bool = True) -> list[Orientation]:
        """`count` elements (what the next call would draw from the same generator state): independently for
        square samples, as for non-square batches (`square=False`: one draw of the kind, then each sample's)."""
        return [Orientation(code) for code in self._draw_codes(count, square)]

    def _draw_codes(self, count: int, square: bool = True) -> list[int]:
        # Plain ints: the fast form of gpurotate.apply's per-sample list.
        if square or count <= 1 or len(self._kinds) < 2:
            picks = torch.multinomial(self.weights, count, replacement=True, generator=self.generator)
            return [self._codes[i] for i in picks.tolist()]
        shares = torch.stack([w.sum() for _, w in self._kinds])
        codes, weights = self._kinds[int(torch.multinomial(shares, 1, generator=self.generator))]
        picks = torch.multinomial(weights, count, replacement=True, generator=self.generator)
        return [codes[i] for i in picks.tolist()]

    def forward(self, *inputs: torch.Tensor) -> Union[torch.Tensor, tuple[torch.Tensor, ...]]:
        if not inputs:
            raise TypeError("expected at least one tensor")
        kinds = [_label_kind(x) for x in inputs]  # None for pixels, else "boxes" or "points"
        for x, kind in zip(inputs, kinds):
            if kind is None:
                _check_tensor(x)
            else:
                _check_label(x)
        images = [x for x, kind in zip(inputs, kinds) if kind is None]
        first = images[0] if images else None
        batch = first is not None and first.dim() == 4 and self.per_sample
        samples = first.shape[0] if batch else 1
        for x in images:  # every input checked before the draw, so that a bad one fails whatever is drawn
            if batch and (x.dim() < 3 or x.shape[0] != samples):
                raise ValueError(f"a batch of {samples} samples ({list(first.shape)}) goes with tensors of {samples} "
                                 f"samples, [N, C, H, W] or masks [N, H, W], not {list(x.shape)}")
            if not self.copy and not x.is_contiguous():
                _check_strides(x, batch)
        if len(images) < len(inputs):
            _check_labels_fit(inputs, kinds, first, samples)
        codes = self._draw_codes(samples, square=first is None or first.shape[-1] == first.shape[-2])
        outputs = tuple(self._apply(x, codes, batch) if kind is None else _apply_label(x, kind, codes[0])
                        for x, kind in zip(inputs, kinds))
        return outputs[0] if len(outputs) == 1 else outputs

    def _apply(self, x: torch.Tensor, codes: list[int], batch: bool) -> torch.Tensor:
        if all(code == int(Orientation.identity) for code in codes):
            return x  # as torchvision's random flips do when they draw no flip
        tensor = x.as_subclass(torch.Tensor) if type(x) is not torch.Tensor else x
        if batch and tensor.dim() == 3:  # a batch's masks [N, H, W]: N single-channel planes
            out = _api.apply(tensor.unsqueeze(1), elements=codes, layout="nchw", copy=self.copy).squeeze(1)
        elif batch:
            out = _api.apply(tensor, elements=codes, layout="nchw", copy=self.copy)
        else:
            out = _api.apply(tensor, codes[0], layout=_LAYOUTS[tensor.dim()], copy=self.copy)
        return _like(out, x)

    def extra_repr(self) -> str:
        names = ", ".join(_api.NAMES[int(e)] for e in self.elements)
        return f"elements=[{names}], weights={self.weights.tolist()}, per_sample={self.per_sample}"


def _tv_tensors():
    """torchvision's tv_tensors where torchvision is imported (a tv_tensor input means it is), else None."""
    return sys.modules.get("torchvision.tv_tensors")


def _label_kind(x) -> Optional[str]:
    """"boxes" for tv_tensors.BoundingBoxes, "points" for tv_tensors.KeyPoints (torchvision 0.23 on), else None."""
    tv = _tv_tensors()
    if tv is None:
        return None
    if isinstance(x, tv.BoundingBoxes):
        return "boxes"
    if hasattr(tv, "KeyPoints") and isinstance(x, tv.KeyPoints):
        return "points"
    return None


def _check_label(x: torch.Tensor) -> None:
    if x.requires_grad:
        raise TypeError(f"an input ({type(x).__name__}) requires grad: gpurotate records no autograd graph; pass x.detach()")
    if x.dtype.is_complex or x.dtype == torch.bool:
        raise TypeError(f"{type(x).__name__} of dtype {x.dtype}: coordinates are integers or floats")


def _check_labels_fit(inputs: Sequence[torch.Tensor], kinds: Sequence[Optional[str]], first: Optional[torch.Tensor], samples: int) -> None:
    """ValueError, before any draw, where boxes or keypoints could not follow the images: per-sample draws over a
    batch (which sample's element would they take?) or a canvas_size other than the images' (H, W)."""
    names = sorted({type(x).__name__ for x, kind in zip(inputs, kinds) if kind is not None})
    if samples != 1:
        raise ValueError(f"{' and '.join(names)} need one element for the call, but a batch of {samples} samples draws one "
                         "per sample: make the transform with per_sample=False, or call it per sample")
    if first is None:
        return
    height, width = int(first.shape[-2]), int(first.shape[-1])
    for x, kind in zip(inputs, kinds):
        if kind is not None and tuple(int(n) for n in x.canvas_size) != (height, width):
            raise ValueError(f"{type(x).__name__} with canvas_size {tuple(x.canvas_size)} go with images of (H, W) = "
                             f"({height}, {width}): the canvas_size of the image they are on")


def _apply_label(x: torch.Tensor, kind: str, code: int) -> torch.Tensor:
    """Boxes or keypoints under element `code`, as their tv_tensor type with the canvas_size of the result."""
    if code == int(Orientation.identity):
        return x  # as for images
    canvas = tuple(int(n) for n in x.canvas_size)
    if kind == "boxes":
        out = _labels.transform_boxes(x, code, canvas, format=x.format.value)
    else:
        out = _labels.transform_points(x, code, canvas)
    if _api._gpurotate.swaps_axes(Orientation(code)):
        canvas = canvas[::-1]
    return _tv_tensors().wrap(out, like=x, canvas_size=canvas)


def _check_tensor(x) -> None:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"expected torch tensors, not {type(x).__name__} (gpurotate.apply takes NumPy arrays)")
    if x.dim() not in _LAYOUTS:
        raise ValueError(f"expected tensors of shape [H, W], [C, H, W] or [N, C, H, W], not {list(x.shape)}")
    _api._refuse_unreadable_tensor(x, "torch", "an input")  # dtypes DLPack cannot carry among them
    if x.element_size() not in _ITEM_BYTES:
        raise TypeError(f"an input has dtype {x.dtype}: gpurotate takes {_api.DTYPES_TEXT}")


def _check_strides(x: torch.Tensor, batch: bool) -> None:
    """ValueError, before any draw, for a tensor whose strides the transform would refuse (copy=False)."""
    tensor = x.as_subclass(torch.Tensor) if type(x) is not torch.Tensor else x
    if batch and tensor.dim() == 3:
        tensor, layout = tensor.unsqueeze(1), "nchw"
    else:
        layout = _LAYOUTS[tensor.dim()]
    _, layout, planar = _api._arrange(tensor, "torch", layout, copy=False)
    if planar is None:
        try:
            _api._gpurotate.check_array(tensor, layout)
        except ValueError as error:
            raise ValueError(f"{error} (or copy=True on the transform)") from None


def _like(out: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """`out` as the tv_tensor type of `x` (Image, Mask, Video), so that what follows in a v2 pipeline sees it."""
    tv = _tv_tensors()
    if tv is not None and isinstance(x, tv.TVTensor):
        return tv.wrap(out, like=x)
    return out


class RandomD4(RandomElements):
    """One of the 8 elements of D4 (4 rotations x mirrored or not), uniformly, per sample: the full
    symmetry group of the square, for data with no preferred orientation (aerial, microscopy, medical).
    Non-square batches: whether the sides swap is drawn once per call (RandomElements)."""

    def __init__(self, per_sample: bool = True, generator: Optional[torch.Generator] = None, copy: bool = False) -> None:
        super().__init__(range(8), per_sample=per_sample, generator=generator, copy=copy)


class RandomRotate90(RandomElements):
    """A rotation by 0, 90, 180 or 270 degrees, uniformly, per sample (as albumentations' RandomRotate90).
    Non-square batches: whether this call turns by a quarter (sides swapped) is drawn once for the batch,
    each sample then draws its rotation of that kind (RandomElements). quarter_turns=False draws only 0 and
    180 degrees, which keep the shape of non-square images."""

    def __init__(
        self, quarter_turns: bool = True, per_sample: bool = True, generator: Optional[torch.Generator] = None, copy: bool = False
    ) -> None:
        rotations = ["identity", "rot90", "rot180", "rot270"] if quarter_turns else ["identity", "rot180"]
        super().__init__(rotations, per_sample=per_sample, generator=generator, copy=copy)


def _probability(p: float) -> float:
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
        raise ValueError(f"p is a probability in [0, 1], not {p!r}")
    return float(p)


class RandomFlip(RandomElements):
    """Mirrors each enabled axis with probability `p`, independently, per sample: `horizontal` (left-right,
    torchvision's RandomHorizontalFlip(p)) and `vertical` (top-bottom, RandomVerticalFlip(p)); both in one
    pass (both drawn: a 180-degree rotation). RandomFlip(p=0.5) is RandomHorizontalFlip(p=0.5)."""

    def __init__(
        self,
        p: float = 0.5,
        horizontal: bool = True,
        vertical: bool = False,
        per_sample: bool = True,
        generator: Optional[torch.Generator] = None,
        copy: bool = False,
    ) -> None:
        p = _probability(p)
        if not isinstance(horizontal, bool) or not isinstance(vertical, bool):
            raise TypeError("horizontal and vertical say which axes flip (True or False); the probability is p=")
        h, v = (p if horizontal else 0.0), (p if vertical else 0.0)
        super().__init__(
            ["identity", "flip-h", "flip-v", "rot180"],
            weights=[(1 - h) * (1 - v), h * (1 - v), (1 - h) * v, h * v],
            per_sample=per_sample,
            generator=generator,
            copy=copy,
        )
        self.p, self.horizontal, self.vertical = p, horizontal, vertical

    def extra_repr(self) -> str:
        return f"p={self.p}, horizontal={self.horizontal}, vertical={self.vertical}, per_sample={self.per_sample}"


class RandomHorizontalFlip(RandomFlip):
    """torchvision.transforms.v2.RandomHorizontalFlip(p=0.5): left-right with probability p, per sample (or
    once per call, as torchvision draws, with per_sample=False)."""

    def __init__(self, p: float = 0.5, per_sample: bool = True, generator: Optional[torch.Generator] = None, copy: bool = False) -> None:
        super().__init__(p, horizontal=True, vertical=False, per_sample=per_sample, generator=generator, copy=copy)


class RandomVerticalFlip(RandomFlip):
    """torchvision.transforms.v2.RandomVerticalFlip(p=0.5): top-bottom with probability p, per sample (or
    once per call, as torchvision draws, with per_sample=False)."""

    def __init__(self, p: float = 0.5, per_sample: bool = True, generator: Optional[torch.Generator] = None, copy: bool = False) -> None:
        super().__init__(p, horizontal=False, vertical=True, per_sample=per_sample, generator=generator, copy=copy)



def _degree_range(degrees) -> tuple[float, float]:
    """torchvision's degrees: a number d (the range [-d, d], d >= 0) or a (min, max) pair."""
    if isinstance(degrees, (int, float)) and not isinstance(degrees, bool):
        if degrees < 0:
            raise ValueError("If degrees is a single number, it must be positive (non-negative).")
        low, high = -float(degrees), float(degrees)
    elif isinstance(degrees, Sequence) and not isinstance(degrees, (str, bytes)) and len(degrees) == 2:
        low, high = (_rotate._number(d, "degrees") for d in degrees)
    else:
        raise TypeError(f"degrees is a number d (the range [-d, d]) or a (min, max) pair, not {degrees!r}")
    if not (math.isfinite(low) and math.isfinite(high)) or low > high:
        raise ValueError(f"degrees: a finite range with min <= max, not ({low}, {high})")
    return low, high


def _fill_for(fill, x: torch.Tensor):
    """torchvision v2's fill: one for every input, or a dict from tv_tensor types (Image, Mask, ...) to fills;
    a type the dict does not name (nor a base of it) gets 0, as does None."""
    if not isinstance(fill, dict):
        return 0 if fill is None else fill
    if type(x) in fill:
        value = fill[type(x)]
    else:
        value = next((v for k, v in fill.items() if isinstance(k, type) and isinstance(x, k)), None)
    return 0 if value is None else value


class RandomRotation(torch.nn.Module):
    """torchvision.transforms.v2.RandomRotation under its names and defaults: turns by an angle drawn
    uniformly from `degrees`, one draw per call, the same angle for every input of the call.

    degrees: a number d (the range [-d, d]) or a (min, max) pair, in torchvision's degrees: COUNTER-clockwise
        (gpurotate.rotate's angles are clockwise: this transform turns by -angle there). Drawn as
        torchvision draws (torch.empty(1).uniform_(min, max)), so a seed gives torchvision's angles.
    interpolation: "nearest" (default, torchvision's), "bilinear" or "bicubic", or torchvision's
        InterpolationMode of those. Masks (tv_tensors.Mask) always use nearest.
    expand: False (default): the input's size, corners cut; True: the canvas grows to hold the whole image
        (gpurotate.rotate's formula, which may differ from torchvision's size by a pixel).
    center: None only: the rotation is about the image's centre ((W-1)/2, (H-1)/2); another centre raises
        NotImplementedError.
    fill: the uncovered pixels: a number, one per channel, or a dict from tv_tensor types to those
        (torchvision's {tv_tensors.Image: 127, tv_tensors.Mask: 0}); None is 0.
    generator: a torch.Generator on the CPU for reproducible draws. copy: strides gpurotate cannot take
        are copied first instead of raising ValueError (as in RandomElements).

    forward(*inputs): tensors [H, W], [C, H, W] or [N, C, H, W] (a batch: one angle for all) of uint8,
    uint16 or float32, CPU or CUDA (the current stream); tv_tensors come back as their type. The
    interpolated bytes are OpenCV's warpAffine's (gpurotate.rotate), not torchvision's grid_sample's.
    BoundingBoxes and KeyPoints follow only an exact multiple of 90 degrees (degrees=(a, a), a a multiple of
    90; with expand=False and non-square images, a multiple of 180), as gpurotate.transform_boxes moves
    them; under any other angle they raise NotImplementedError (labels under any angle are future work).
    No autograd: inputs that require grad raise TypeError.
    """

    def __init__(
        self,
        degrees,
        interpolation="nearest",
        expand: bool = False,
        center: Optional[Sequence[float]] = None,
        fill=0,
        generator: Optional[torch.Generator] = None,
        copy: bool = False,
    ) -> None:
        super().__init__()
        self.degrees = list(_degree_range(degrees))
        self.interpolation = _rotate.interpolation_name(interpolation)
        if center is not None:
            raise NotImplementedError(
                f"center={center!r}: gpurotate rotates about the image's centre ((W-1)/2, (H-1)/2) only; "
                "a rotation about another point is not implemented (leave center=None)")
        self.center = None
        if not isinstance(expand, bool):
            raise TypeError(f"expand is True or False, not {type(expand).__name__}")
        self.expand = expand
        if not isinstance(fill, dict):
            # A number or a sequence of numbers (the count is checked against each input's channels).
            _rotate._fill_values(fill, len(fill) if isinstance(fill, (list, tuple)) else 1)
        self.fill = fill
        self.generator = generator
        self.copy = copy

    def draw(self) -> float:
        """The next angle in torchvision's convention (degrees counter-clockwise), as the next call would draw it."""
        low, high = self.degrees
        return float(torch.empty(1).uniform_(low, high, generator=self.generator).item())

    def forward(self, *inputs: torch.Tensor) -> Union[torch.Tensor, tuple[torch.Tensor, ...]]:
        if not inputs:
            raise TypeError("expected at least one tensor")
        kinds = [_label_kind(x) for x in inputs]  # None for pixels, else "boxes" or "points"
        for x, kind in zip(inputs, kinds):  # every input checked before the draw
            if kind is None:
                _check_rotation_input(x)
                if not self.copy and not x.is_contiguous():
                    _check_strides(x, False)
            else:
                _check_label(x)
        images = [x for x, kind in zip(inputs, kinds) if kind is None]
        first = images[0] if images else None
        quarter = None  # the D4 element the labels follow
        if len(images) < len(inputs):
            _check_labels_fit(inputs, kinds, first, 1)
            quarter = self._label_element(first)
        angle = self.draw()
        if angle == 0:
            return inputs[0] if len(inputs) == 1 else tuple(inputs)  # nothing turns (0 degrees copies)
        outputs = tuple(self._rotate(x, -angle) if kind is None else _apply_label(x, kind, quarter) for x, kind in zip(inputs, kinds))
        return outputs[0] if len(outputs) == 1 else outputs

    def _label_element(self, first: Optional[torch.Tensor]) -> int:
        """The D4 element (code) of the one angle boxes and keypoints may follow: the range one multiple of 90,
        and the image's result that element's (expand, a square image, or a half turn)."""
        low, high = self.degrees
        if low != high or math.remainder(low, 90) != 0:
            raise NotImplementedError(
                f"BoundingBoxes and KeyPoints under a rotation by degrees=({low:g}, {high:g}): only an exact multiple of 90 "
                "(degrees=(a, a)) moves them for now; labels under any angle are future work (rotate the boxes' corners "
                "yourself, or use gpurotate.torch.RandomRotate90)")
        code = round(-low / 90) % 4  # clockwise quarter turns: identity, rot90, rot180, rot270
        if code % 2 == 1 and not self.expand and first is not None and first.shape[-1] != first.shape[-2]:
            raise ValueError(
                f"a quarter turn with expand=False cuts a non-square image ({first.shape[-2]}x{first.shape[-1]}): its boxes and "
                "keypoints would not follow a D4 element; pass expand=True")
        return code

    def _rotate(self, x: torch.Tensor, angle: float) -> torch.Tensor:
        tensor = x.as_subclass(torch.Tensor) if type(x) is not torch.Tensor else x
        tv = _tv_tensors()
        mask = tv is not None and isinstance(x, tv.Mask)
        out = _rotate.rotate(
            tensor,
            angle,
            interpolation="nearest" if mask else self.interpolation,
            expand=self.expand,
            fill=_fill_for(self.fill, x),
            layout=_LAYOUTS[tensor.dim()],
            copy=self.copy,
        )
        return _like(out, x)

    def extra_repr(self) -> str:
        return f"degrees={self.degrees}, interpolation={self.interpolation}, expand={self.expand}, fill={self.fill}"


_ROTATION_DTYPES = ("torch.uint8", "torch.uint16", "torch.float32")


def _check_rotation_input(x) -> None:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"expected torch tensors, not {type(x).__name__} (gpurotate.rotate takes NumPy arrays)")
    if x.dim() not in _LAYOUTS:
        raise ValueError(f"expected tensors of shape [H, W], [C, H, W] or [N, C, H, W], not {list(x.shape)}")
    _api._refuse_unreadable_tensor(x, "torch", "an input")
    if str(x.dtype) not in _ROTATION_DTYPES:
        raise TypeError(f"an input has dtype {x.dtype}: RandomRotation takes {_rotate.ROTATE_DTYPES_TEXT}")
