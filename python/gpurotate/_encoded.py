"""Encoded images in and out: the bytes of a JPEG, PNG, WebP ... file turned as the CLI turns the file
(`gpurotate in.jpg --rot90 -o out.jpg`), by the same planner and run: a JPEG to a JPEG losslessly (its DCT
coefficients moved, jpegtran's bytes), a PNG kept in its stored format, the metadata as docs/fidelity.md says."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Sequence
from typing import Any, Optional

from . import _gpurotate
from ._gpurotate import UsageError
from ._api import compose
from ._rotate import _number, interpolation_name

JPEG_EDGES = ("reencode", "trim", "keep", "error")


def _buffer(data: Any, role: str) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise TypeError(f"{role} is an encoded image as bytes (or bytearray, memoryview), not {type(data).__name__}")


def _device_index(device: Any) -> int:
    """The CUDA device `device` names: "cuda" (0), "cuda:N", an int N or a torch.device of those."""
    if isinstance(device, int) and not isinstance(device, bool):
        index = device
    else:
        text = str(device)
        if text == "cuda":
            index = 0
        elif text.startswith("cuda:") and text[5:].isdigit():
            index = int(text[5:])
        else:
            raise ValueError(f"device {device!r}: 'cpu', 'cuda', 'cuda:N' or a gpurotate.Session")
    if index < 0:
        raise ValueError(f"device {device!r}: a CUDA device's index is 0 or more")
    return index


class Session:
    """A GPU's resources for encoded images, opened once and kept: CUDA's start-up (0.2-0.3 s, paid here, not
    by each call), a stream and its buffers, and a JPEG scan coder, as one worker of `augment --device cuda`
    holds them. For a worker that converts many images (a Ray actor, a data loader's process): make one per
    process and pass it as `device=`, or call its methods. One conversion runs at a time on a session; the
    GIL is released while it runs. Raises gpurotate.DeviceError where the GPU does not start (no GPU, no such
    device, a build without CUDA).

    device: "cuda" (device 0), "cuda:N" or N. gpu_memory: bytes of device memory the session may hold (None:
    no limit of its own), as augment's --gpu-memory."""

    def __init__(self, device: Any = "cuda", *, gpu_memory: Optional[int] = None) -> None:
        if gpu_memory is not None and (isinstance(gpu_memory, bool) or not isinstance(gpu_memory, int) or gpu_memory < 0):
            raise ValueError(f"gpu_memory is a number of bytes (0 or more) or None, not {gpu_memory!r}")
        self._native = _gpurotate.EncodedSession(_device_index(device), 0 if gpu_memory is None else gpu_memory)

    @property
    def device(self) -> str:
        return f"cuda:{self._native.device}"

    def __repr__(self) -> str:
        native = getattr(self, "_native", None)  # None where the constructor failed
        return f"gpurotate.Session(device='cuda:{native.device}')" if native is not None else "gpurotate.Session(not started)"

    def transform_encoded(self, data: bytes, ops: Any, **options: Any) -> bytes:
        """gpurotate.transform_encoded(data, ops, device=self, **options)."""
        return transform_encoded(data, ops, device=self, **options)

    def transform_encoded_many(self, inputs: Sequence[bytes], ops: Any, **options: Any) -> list[bytes]:
        """gpurotate.transform_encoded_many(inputs, ops, device=self, **options)."""
        return transform_encoded_many(inputs, ops, device=self, **options)


_default_sessions: dict[int, Session] = {}
_default_sessions_lock = threading.Lock()


def _session_of(device: Any) -> Optional[Session]:
    """None for the CPU; else the Session given, or this process's own for the device named (made once)."""
    if isinstance(device, Session):
        return device
    if device == "cpu":
        return None
    index = _device_index(device)
    with _default_sessions_lock:
        if index not in _default_sessions:
            _default_sessions[index] = Session(index)
        return _default_sessions[index]


def _background(fill: Any) -> str:
    """fill= as the CLI's --background text: None (no --background), its text ("#rgb", "#rrggbb", "white",
    "black") or an (r, g, b) of 0-255 ints."""
    if fill is None:
        return ""
    if isinstance(fill, str):
        if not fill:
            raise UsageError("fill '': expected #rgb, #rrggbb, white, black, an (r, g, b) of 0-255, or None")
        return fill
    if isinstance(fill, (tuple, list)) and len(fill) == 3 and all(isinstance(v, int) and not isinstance(v, bool) for v in fill):
        if not all(0 <= v <= 255 for v in fill):
            raise UsageError(f"fill {tuple(fill)}: an (r, g, b) has values from 0 to 255")
        return "#{:02x}{:02x}{:02x}".format(*fill)
    raise TypeError(f"fill is the CLI's --background colour (#rgb, #rrggbb, white, black), an (r, g, b) of 0-255 ints or None, not {fill!r}")


def _interpolation(interpolation: Any) -> str:
    try:
        return interpolation_name(interpolation)
    except ValueError as error:
        raise UsageError(str(error)) from None  # the CLI's --interpolate refusal: a usage error (code 2)


def _run(inputs: list[bytes], ops: Any, format: Optional[str], jpeg_edge: str, quality: Optional[int], strip: bool, device: Any,
         angle: Any = 0.0, interpolation: Any = "bilinear", expand: bool = True, fill: Any = None) -> list[bytes]:
    if quality is not None and (isinstance(quality, bool) or not isinstance(quality, int)):
        raise TypeError(f"quality is an int from 1 to 100 or None, not {type(quality).__name__}")
    if quality is not None and not 1 <= quality <= 100:
        raise UsageError(f"quality {quality}: expected 1 to 100, or None to keep a JPEG lossless")
    degrees = _number(angle, "angle")  # TypeError for text; the module refuses nan and inf (UsageError), as the CLI's --rotate
    element = int(compose(ops))
    format_text = "" if format is None else format.lstrip(".")
    session = _session_of(device)
    results = _gpurotate.transform_encoded(inputs, element, format_text, jpeg_edge, 0 if quality is None else quality, bool(strip),
                                           None if session is None else session._native, degrees, _interpolation(interpolation),
                                           not expand, _background(fill))
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
    device: Any = "cpu",
    angle: float = 0.0,
    interpolation: Any = "bilinear",
    expand: bool = True,
    fill: Any = None,
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
    released while the image is converted.

    device: "cpu" (default); "cuda", "cuda:N" or N for that GPU through this process's own gpurotate.Session
    for it (made at the first call: CUDA's start-up); or a gpurotate.Session. The GPU gives the CPU's bytes
    (lossless JPEG scans coded on it, pixels turned by its kernels).

    angle: degrees clockwise after `ops`, as ``--rotate DEG`` after the ops' flags (gpurotate.rotate's
    names): a whole number of quarter turns (90, -270, 450) is the D4 element (lossless for a JPEG); another
    angle is interpolated (docs/cli.md, "Any angle"), and a JPEG is then re-encoded at the input's quality
    (unless `quality` is given), said as a warning. interpolation: "nearest", "bilinear" (default) or
    "bicubic" (--interpolate); expand: False for --keep-size (the input's size, corners cut); fill: the
    uncovered corners' colour, the CLI's --background ("#rgb", "#rrggbb", "white", "black" or an (r, g, b)
    of 0-255; None: 0 in every channel, transparent where there is alpha). As with --background, an output
    that cannot hold alpha gets it composed over that colour. An angle that is text raises TypeError, nan
    or inf UsageError (as the CLI's ``--rotate nan``)."""
    return _run([_buffer(data, "data")], ops, format, jpeg_edge, quality, strip, device, angle, interpolation, expand, fill)[0]


def transform_encoded_many(
    inputs: Sequence[bytes],
    ops: Any,
    *,
    format: Optional[str] = None,
    jpeg_edge: str = "reencode",
    quality: Optional[int] = None,
    strip: bool = False,
    device: Any = "cpu",
    angle: float = 0.0,
    interpolation: Any = "bilinear",
    expand: bool = True,
    fill: Any = None,
) -> list[bytes]:
    """`transform_encoded` of each of `inputs` (a list of bytes), the same `ops` and options for all, in one
    call that releases the GIL once: a list of bytes in the same order. The first image that fails raises,
    its message naming it as bytes[i]."""
    return _run([_buffer(data, f"inputs[{i}]") for i, data in enumerate(inputs)], ops, format, jpeg_edge, quality, strip, device,
                angle, interpolation, expand, fill)
