"""Random D4 augmentation for PyTorch, as torchvision-v2-style transforms (nn.Modules called on tensors).

    from gpurotate.torch import RandomD4
    augment = RandomD4()            # one of the 8 elements, uniformly, per sample
    batch = augment(batch)          # N x C x H x W, CPU or CUDA: one launch for the whole batch on the GPU

Tensors are [H, W], [C, H, W] (one image: one element) or [N, C, H, W] (a batch: one element per sample,
or one for all with per_sample=False), of uint8, uint16 or float32. CUDA tensors run on the current
stream of their device, CPU tensors on gpurotate's CPU backend (shared with PyTorch through DLPack, no
copy). A non-contiguous input is made contiguous first (one copy). Several tensors in one call (an image
and its mask) get the same elements. The draws use torch's random number generator (torch.manual_seed, or
`generator=`), on the CPU. Non-square batches with per-sample draws that mix elements which swap height
and width with ones that keep them raise ValueError (the results would not fit one tensor): use square
crops, `per_sample=False`, or RandomFlip / RandomRotate90(quarter_turns=False).

Needs only torch (not torchvision). No autograd: inputs that require grad raise TypeError.
"""

from __future__ import annotations

from typing import Optional, Sequence, Union

import torch

from . import _api
from ._gpurotate import Orientation

__all__ = ["RandomElements", "RandomD4", "RandomRotate90", "RandomFlip"]

_LAYOUTS = {2: "hw", 3: "chw", 4: "nchw"}


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
        if len(weights) != len(self.elements) or min(weights) < 0 or sum(weights) <= 0:
            raise ValueError("weights: one non-negative weight per element, not all zero")
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
        if not isinstance(first, torch.Tensor) or first.dim() not in _LAYOUTS:
            raise ValueError("expected tensors of shape [H, W], [C, H, W] or [N, C, H, W]")
        batch = first.dim() == 4 and self.per_sample
        codes = self._draw_codes(first.shape[0] if batch else 1)
        outputs = tuple(self._apply(x, codes, batch) for x in inputs)
        return outputs[0] if len(outputs) == 1 else outputs

    def _apply(self, x: torch.Tensor, codes: list[int], batch: bool) -> torch.Tensor:
        if not isinstance(x, torch.Tensor) or x.dim() not in _LAYOUTS:
            raise ValueError("expected tensors of shape [H, W], [C, H, W] or [N, C, H, W]")
        if all(code == int(Orientation.identity) for code in codes):
            return x  # as torchvision's random flips do when they draw no flip
        layout = _LAYOUTS[x.dim()]
        x = x.contiguous()
        if batch:
            return _api.apply(x, elements=codes, layout=layout)
        return _api.apply(x, codes[0], layout=layout)

    def extra_repr(self) -> str:
        names = ", ".join(_api.NAMES[int(e)] for e in self.elements)
        return f"elements=[{names}], weights={self.weights.tolist()}, per_sample={self.per_sample}"


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
