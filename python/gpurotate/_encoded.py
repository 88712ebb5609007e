"""Encoded images in and out: the bytes of a JPEG, PNG, WebP ... file turned as the CLI turns the file
(`gpurotate in.jpg --rot90 -o out.jpg`), by the same planner and run: a JPEG to a JPEG losslessly (its DCT
coefficients moved, jpegtran's bytes), a PNG kept in its stored format, the metadata as docs/fidelity.md says."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, Optional

from . import _gpurotate
from ._gpurotate import UsageError
from ._api import compose

JPEG_EDGES = ("reencode", "trim", "keep", "error")


def _buffer(data: Any, role: str) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"{role} is an encoded image as bytes (or bytearray, memoryview), not {type(data).__name__}")


def _run(inputs: list[bytes], ops: Any, format: Optional[str], jpeg_edge: str, quality: Optional[int], strip: bool, device: str) -> list[bytes]:
    if device != "cpu":
        raise ValueError(f"device '{device}': transform_encoded runs on the CPU (device='cpu')")
    if quality is not None and (isinstance(quality, bool) or not isinstance(quality, int)):
        raise TypeError(f"quality is an int from 1 to 100 or None, not {type(quality).__name__}")
    if quality is not None and not 1 <= quality <= 100:
        raise UsageError(f"quality {quality}: expected 1 to 100, or None to keep a JPEG lossless")
    element = int(compose(ops))
    format_text = "" if format is None else format.lstrip(".")
    results = _gpurotate.transform_encoded(inputs, element, format_text, jpeg_edge, 0 if quality is None else quality, bool(strip))
    for _, said in results:
        for text in said:
            warnings.warn(f"gpurotate: {text}", UserWarning, stacklevel=3)
    return [data for data, _ in results]


def transform_encoded(
    data: bytes,
    ops: Any,
    *,
    format: Optional[str] = None,
    jpeg_edge: str = "reencode",
    quality: Optional[int] = None,
    strip: bool = False,
    device: str = "cpu",
) -> bytes:
    """The encoded image `data` turned by `ops` (one element or a list, composed, as `apply` takes them): the
    bytes that ``gpurotate IN --OP... -o OUT`` writes to OUT, by the CLI's own planner and run.

    A JPEG to a JPEG is a lossless transform of its DCT coefficients (jpegtran's bytes) unless `quality` is
    given (then re-encoded at it) or `jpeg_edge` says otherwise for a size that is not a multiple of the
    block: "reencode" (the default: decode and encode again), "trim" (jpegtran -trim), "keep" (the partial
    edge blocks left in place) or "error". A PNG keeps its stored format (palette, bit depth). format: the
    output's format as an extension ("png", "jpg", "webp", ...); None: the input's own. strip: --strip (no
    metadata beyond what the pixels need); otherwise every format that can hold the metadata keeps it.

    Warnings the CLI prints come as Python UserWarnings. Failures raise gpurotate.Error with the CLI's
    message, `code` its exit status: 3 (gpurotate.Error) for bytes that are no image or a damaged one, 2
    (UsageError) for an unknown format or option, 4 for a format that cannot hold the pixels. The GIL is
    released while the image is converted."""
    return _run([_buffer(data, "data")], ops, format, jpeg_edge, quality, strip, device)[0]


def transform_encoded_many(
    inputs: Sequence[bytes],
    ops: Any,
    *,
    format: Optional[str] = None,
    jpeg_edge: str = "reencode",
    quality: Optional[int] = None,
    strip: bool = False,
    device: str = "cpu",
) -> list[bytes]:
    """`transform_encoded` of each of `inputs` (a list of bytes), the same `ops` and options for all, in one
    call that releases the GIL once: a list of bytes in the same order. The first image that fails raises,
    its message naming it as bytes[i]."""
    return _run([_buffer(data, f"inputs[{i}]") for i, data in enumerate(inputs)], ops, format, jpeg_edge, quality, strip, device)
