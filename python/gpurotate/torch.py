"""Random D4 augmentation for PyTorch, as torchvision-v2-style transforms (nn.Modules called on tensors).

    from gpurotate.torch import RandomD4
    augment = RandomD4()            # one of the 8 elements, uniformly, per sample
    batch = augment(batch)          # N x C x H x W, CPU or CUDA: one launch for the whole batch on the GPU

Tensors are [H, W], [C, H, W] (one image: one element) or [N, C, H, W] (a batch: one element per sample,
or one for all with per_sample=False), of uint8, uint16 or float32. CUDA tensors run on the current
stream of their device, CPU tensors on gpurotate's CPU backend (shared with PyTorch through DLPack, no
copy). A non-contiguous input is made contiguous first (one copy). Several tensors in one call (an image
and its mask) get the same elements. The draws use torch's random number generator (torch.manual_seed, or
`generator=`), on the CPU; a DataLoader's workers each get a copy of a `generator=` and so draw the same
sequence, where torch's own generator is seeded per worker: leave `generator=` out in worker processes, or
reseed it in `worker_init_fn`. Non-square batches with per-sample draws that mix elements which swap height
and width with ones that keep them raise ValueError (the results would not fit one tensor): use square
crops, `per_sample=False`, or RandomFlip / RandomRotate90(quarter_turns=False).

Needs only torch (not torchvision). torchvision's tv_tensors (Image, Mask, Video) come back as the same type;
BoundingBoxes and KeyPoints, which are coordinates rather than pixels, raise TypeError. No autograd: inputs
that require grad raise TypeError, whatever is drawn.
"""

from __future__ import annotations

import math
import sys
from typing import Optional, Sequence, Union

import torch

from . import _api
from ._gpurotate import Orientation

__all__ = ["RandomElements", "RandomD4", "RandomRotate90", "RandomFlip"]

_LAYOUTS = {2: "hw", 3: "chw", 4: "nchw"}
# torch.uint16 exists from torch 2.3 on.
_DTYPES = tuple(d for d in (torch.uint8, getattr(torch, "uint16", None), torch.float32) if d is not None)


class RandomElements(torch.nn.Module):
    """Applies an element of `elements` drawn at random (with `weights`, default uniform) to each sample.

    elements: the candidates (names, Orientation members or codes 0-7). per_sample: for [N, C, H, W]
    batches, one draw per sample (default) or one for the whole batch. generator: a torch.Generator on the
    CPU for reproducible draws.
    """

    def __init__(
        self,
        elements: Sequence[Union[str, int, Orientation]],
        weights: Optional[Sequence[float]] = None,
        per_sample: bool = True,
        generator: Optional[torch.Generator] = None,
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

    def draw(self, count: int) -> list[Orientation]:
        """`count` elements drawn independently (what the next call would draw from the same generator state)."""
        return [Orientation(code) for code in self._draw_codes(count)]

    def _draw_codes(self, count: int) -> list[int]:
        # Plain ints: the fast form of gpurotate.apply's per-sample list.
        picks = torch.multinomial(self.weights, count, replacement=True, generator=self.generator)
        return [self._codes[i] for i in picks.tolist()]

    def forward(self, *inputs: torch.Tensor):
        if not inputs:
            raise TypeError("expected at least one tensor")
        first = inputs[0]
        _check_tensor(first)
        batch = first.dim() == 4 and self.per_sample
        samples = first.shape[0] if batch else 1
        for x in inputs:  # every input checked before the draw, so that a bad one fails whatever is drawn
            _check_tensor(x)
            if batch and (x.dim() < 3 or x.shape[0] != samples):
                raise ValueError(f"a batch of {samples} samples ({list(first.shape)}) goes with tensors of {samples} "
                                 f"samples, [N, C, H, W] or masks [N, H, W], not {list(x.shape)}")
        codes = self._draw_codes(samples)
        outputs = tuple(self._apply(x, codes, batch) for x in inputs)
        return outputs[0] if len(outputs) == 1 else outputs

    def _apply(self, x: torch.Tensor, codes: list[int], batch: bool) -> torch.Tensor:
        if all(code == int(Orientation.identity) for code in codes):
            return x  # as torchvision's random flips do when they draw no flip
        tensor = x.as_subclass(torch.Tensor) if type(x) is not torch.Tensor else x
        if batch and tensor.dim() == 3:  # a batch's masks [N, H, W]: N single-channel planes
            out = _api.apply(tensor.contiguous().unsqueeze(1), elements=codes, layout="nchw").squeeze(1)
        elif batch:
            out = _api.apply(tensor.contiguous(), elements=codes, layout="nchw")
        else:
            out = _api.apply(tensor.contiguous(), codes[0], layout=_LAYOUTS[tensor.dim()])
        return _like(out, x)

    def extra_repr(self) -> str:
        names = ", ".join(_api.NAMES[int(e)] for e in self.elements)
        return f"elements=[{names}], weights={self.weights.tolist()}, per_sample={self.per_sample}"


def _tv_tensors():
    """torchvision's tv_tensors where torchvision is imported (a tv_tensor input means it is), else None."""
    return sys.modules.get("torchvision.tv_tensors")


def _check_tensor(x) -> None:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"expected torch tensors, not {type(x).__name__} (gpurotate.apply takes NumPy arrays)")
    tv = _tv_tensors()
    if tv is not None and isinstance(x, tuple(getattr(tv, n) for n in ("BoundingBoxes", "KeyPoints") if hasattr(tv, n))):
        raise TypeError(f"{type(x).__name__} are coordinates, not pixels: gpurotate's transforms move images and masks only")
    if x.dim() not in _LAYOUTS:
        raise ValueError(f"expected tensors of shape [H, W], [C, H, W] or [N, C, H, W], not {list(x.shape)}")
    if x.dtype not in _DTYPES:
        raise TypeError(f"a tensor of {x.dtype}: gpurotate takes uint8, uint16 or float32")
    _api._refuse_unreadable_tensor(x, "torch", "an input")


def _like(out: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """`out` as the tv_tensor type of `x` (Image, Mask, Video), so that what follows in a v2 pipeline sees it."""
    tv = _tv_tensors()
    if tv is not None and isinstance(x, tv.TVTensor):
        return tv.wrap(out, like=x)
    return out


class RandomD4(RandomElements):
    """One of the 8 elements of D4 (4 rotations x mirrored or not), uniformly, per sample: the full
    symmetry group of the square, for data with no preferred orientation (aerial, microscopy, medical)."""

    def __init__(self, per_sample: bool = True, generator: Optional[torch.Generator] = None) -> None:
        super().__init__(range(8), per_sample=per_sample, generator=generator)


class RandomRotate90(RandomElements):
    """A rotation by 0, 90, 180 or 270 degrees, uniformly, per sample (as albumentations' RandomRotate90).
    quarter_turns=False draws only 0 and 180 degrees, which keep the shape of non-square images."""

    def __init__(self, quarter_turns: bool = True, per_sample: bool = True, generator: Optional[torch.Generator] = None) -> None:
        rotations = ["identity", "rot90", "rot180", "rot270"] if quarter_turns else ["identity", "rot180"]
        super().__init__(rotations, per_sample=per_sample, generator=generator)


class RandomFlip(RandomElements):
    """Mirrors left-right with probability `horizontal` and top-bottom with probability `vertical`,
    independently (both: a 180-degree rotation), per sample: torchvision's RandomHorizontalFlip and
    RandomVerticalFlip in one pass."""

    def __init__(
        self,
        horizontal: float = 0.5,
        vertical: float = 0.0,
        per_sample: bool = True,
        generator: Optional[torch.Generator] = None,
    ) -> None:
        if not (0.0 <= horizontal <= 1.0 and 0.0 <= vertical <= 1.0):
            raise ValueError("horizontal and vertical are probabilities in [0, 1]")
        h, v = horizontal, vertical
        super().__init__(
            ["identity", "flip-h", "flip-v", "rot180"],
            weights=[(1 - h) * (1 - v), h * (1 - v), (1 - h) * v, h * v],
            per_sample=per_sample,
            generator=generator,
        )
