"""`gpurotate augment --random`'s draw, in Python: which element (and, with --degrees, which angle) augment gives
an input, computed by augment's own C++ functions (src/augment/random_draw.hpp), so that a data loader that
turns its samples itself gives them what `augment --random --seed S` of the same files writes, bit for bit."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, Optional, Union

from . import _gpurotate
from ._api import element
from ._gpurotate import Orientation

Ops = Union[str, "Orientation", int, Any]
Weights = Union[str, Mapping[Any, float], Any]
Draw = Union[Orientation, tuple[Orientation, float]]


def _ops_text(ops: Any, p_flip_h: float, p_flip_v: float) -> str:
    if ops is None:
        # augment without --ops: every element but identity, or identity alone where a flip is asked for (its
        # flips alone); augment --p-flip-h 0 without --ops, a flip asked for with probability 0, is ops="identity".
        return "identity" if p_flip_h > 0 or p_flip_v > 0 else "all"
    if isinstance(ops, str):
        return ops  # augment's --ops text: "rot90,flip-h", "all"
    if isinstance(ops, (Orientation, int)):
        ops = [ops]
    return ",".join(op if op == "all" else _gpurotate.name(element(op)) for op in ops)


def _number(value: Any) -> str:
    if isinstance(value, bool):
        raise TypeError("a weight is a number, not a bool")
    return repr(float(value))  # the shortest decimal that reads back as it, for augment's parser


def _weights_text(weights: Any) -> str:
    if weights is None:
        return ""  # all 1
    if isinstance(weights, str):
        return weights  # augment's --weights text: "rot90=2,flip-h=1" or "2,1,..."
    if isinstance(weights, Mapping):
        return ",".join(f"{_gpurotate.name(element(op))}={_number(w)}" for op, w in weights.items())
    return ",".join(_number(w) for w in weights)


def _key_text(key: Any) -> str:
    key = os.fspath(key)
    if not isinstance(key, str):
        raise TypeError(f"key is the input's relative path as a str, not {type(key).__name__}")
    return key.replace(os.sep, "/") if os.sep != "/" else key


def _result(pair: tuple[Orientation, float], degrees: float) -> Draw:
    return pair if degrees > 0 else pair[0]


def draws(
    seed: int,
    key: Union[str, "os.PathLike[str]"],
    count: int,
    *,
    ops: Optional[Ops] = None,
    weights: Optional[Weights] = None,
    p_flip_h: float = 0.0,
    p_flip_v: float = 0.0,
    degrees: float = 0.0,
    with_replacement: bool = False,
) -> list[Draw]:
    """The `count` elements that ``gpurotate augment --random COUNT --seed SEED`` gives the input at `key`, in
    draw order (draw 0 first): the manifest's "element" of each of its records, whose "draw" is the index.

    key: the input's path relative to the folder given to augment ("cats/001.jpg"; a file given by name:
    its file name), as the manifest's output mirrors it. ops: augment's --ops (its text, "rot90,flip-h" or
    "all", or a list of names, Orientations or codes); None is augment's default: "all", or "identity" where a
    flip probability is above 0 (the flips alone). weights: --weights (its text, a list of one number per op,
    or a dict {op: weight}); None: all 1. p_flip_h, p_flip_v: --p-flip-h, --p-flip-v. with_replacement:
    --with-replacement; without it (augment's default) an input's draws are distinct elements.

    degrees > 0 (--degrees MAX): (element, angle) pairs, the angle the manifest's "angle". Raises
    gpurotate.UsageError, with augment's message, for what augment refuses (more distinct draws than the
    model can give, a weight below 0, ...)."""
    ops_text = _ops_text(ops, p_flip_h, p_flip_v)
    pairs = _gpurotate.draws(seed, _key_text(key), count, ops_text, _weights_text(weights), p_flip_h, p_flip_v, with_replacement, degrees)
    return [_result(pair, degrees) for pair in pairs]


def draw(
    seed: int,
    key: Union[str, "os.PathLike[str]"],
    draw: int = 0,
    *,
    ops: Optional[Ops] = None,
    weights: Optional[Weights] = None,
    p_flip_h: float = 0.0,
    p_flip_v: float = 0.0,
    degrees: float = 0.0,
    with_replacement: bool = False,
) -> Draw:
    """The element of draw `draw` (0, 1, ...) that ``gpurotate augment --random N --seed SEED`` gives the
    input at `key`, for any N above `draw`: ``draws(seed, key, N, ...)[draw]``, as the arguments of `draws`.

    Without replacement (augment's default) a draw is an element the draws before it did not give, and it
    depends on those draws only, never on N: draw(seed, key, 1) is the same for --random 2 and --random 5,
    and `draw` must be below the number of distinct elements the model can give. with_replacement=True
    (--with-replacement): each draw on its own, any index. Draw 0 is the same either way. degrees > 0: an
    (element, angle) pair."""
    ops_text = _ops_text(ops, p_flip_h, p_flip_v)
    pair = _gpurotate.draw(seed, _key_text(key), draw, ops_text, _weights_text(weights), p_flip_h, p_flip_v, with_replacement, degrees)
    return _result(pair, degrees)
