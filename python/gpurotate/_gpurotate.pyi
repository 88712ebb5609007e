"""
gpurotate's C++ library: the D4 group and its transforms on CPU and CUDA arrays (use the gpurotate package).
"""

from collections.abc import Sequence
import enum
from typing import Annotated

from numpy.typing import NDArray

from gpurotate import (
    DeviceError as DeviceError,
    Error as Error,
    UsageError as UsageError
)


__version__: str


class Orientation(enum.IntEnum):
    """
    The 8 elements of D4, as the C++ enum gpurotate::Orientation (same values, same order).

    rot90 is CLOCKWISE (ImageMagick's -rotate 90), the opposite of numpy.rot90(k=1) and torch.rot90.
    """

    identity = 0
    """no change"""

    rot90 = 1
    """90 degrees clockwise (numpy.rot90(x, k=-1))"""

    rot180 = 2
    """180 degrees"""

    rot270 = 3
    """90 degrees counter-clockwise (numpy.rot90(x, k=1))"""

    flip_h = 4
    """mirror left-right: the width axis reversed"""

    flip_v = 5
    """mirror top-bottom: the height axis reversed"""

    transpose = 6
    """mirror across the main diagonal: out[y, x] = in[x, y]"""

    transverse = 7
    """mirror across the anti-diagonal"""

def then(first: Orientation, second: Orientation) -> Orientation:
    """The single element equal to applying `first`, then `second`."""

def inverse(element: Orientation) -> Orientation:
    """The element that undoes `element`."""

def swaps_axes(element: Orientation) -> bool:
    """Whether `element` exchanges height and width."""

def name(element: Orientation) -> str:
    """
    The CLI name of `element`: identity, rot90, rot180, rot270, flip-h, flip-v, transpose, transverse.
    """

def parse(name: str) -> Orientation:
    """
    The element with this CLI name (flip-h, ...); ValueError for any other text.
    """

def built_with_cuda() -> bool:
    """Whether this build has the CUDA backend."""

def cuda_available() -> bool:
    """Whether this build has the CUDA backend and a usable GPU is present."""

def output_shape(shape: Sequence[int], layout: str, elements: Sequence[int]) -> list[int]:
    """
    The shape of the result for an input of `shape` in `layout` (hw, hwc, chw, nchw, nhwc): one element code
    (0-7, Orientation's values) for all, or one per sample of a batch layout. Raises ValueError where the shape does not fit the layout
    or per-sample elements would give non-square samples different shapes.
    """

def transform(src: Annotated[NDArray, dict(writable=False)], dst: NDArray, elements: Sequence[int], layout: str, stream: int = 0) -> None:
    """
    Writes `elements` (codes 0-7) applied to `src` into `dst` (arrays of one dtype of 1, 2, 4, 8 or 16-byte items,
    moved as they are, on one device; `dst` of output_shape's shape, not overlapping `src`; both images with a
    row pitch: C-contiguous, a crop of one, or see check_array). One element for all,
    or one per sample of a batch. CPU arrays: the CPU backend, returning when done. CUDA arrays: one
    launch per 65535 images (the grouped launch for per-sample elements) on `stream` (a cudaStream_t as
    an int) on the current device, returning without synchronising.
    """

def check_array(array: Annotated[NDArray, dict(writable=False)], layout: str) -> None:
    """
    Raises the ValueError or TypeError that `transform` would for `array` (its dtype, channel count and
    strides) in `layout`; returns None where `transform` takes it as it is, without a copy.
    """

def rotated_shape(shape: Sequence[int], layout: str, degrees: Sequence[float], keep_size: bool) -> list[int]:
    """
    The shape of `rotate`'s result for an input of `shape` in `layout`: one angle (degrees clockwise) for all,
    or one per sample of a batch layout. The input's size with keep_size, else the library's rotated_extent:
    W' = ceil(W|cos| + H|sin| - 1e-6), H' = ceil(W|sin| + H|cos| - 1e-6). Raises ValueError where per-sample
    angles give different sizes, gpurotate.UsageError for an angle that is not finite.
    """

def rotate(src: Annotated[NDArray, dict(writable=False)], dst: NDArray, degrees: Sequence[float], layout: str, interpolation: str, keep_size: bool, fill: Sequence[float], stream: int = 0) -> None:
    """
    Writes `src` rotated by `degrees` (clockwise; one angle for all, or one per sample of a batch layout) into
    `dst` (of rotated_shape's shape, the same dtype: uint8, uint16 or float32, on the same device, not
    overlapping; strides as transform takes them): OpenCV 4.6's warpAffine about ((W-1)/2, (H-1)/2), bit for bit
    on the CPU and the GPU alike. interpolation: nearest, bilinear or bicubic. fill: the uncovered pixels, one
    value for all channels or one per channel (interleaved channels, or the planes of chw and nchw). One call
    per image or plane: CPU arrays on the CPU backend, returning when done; CUDA arrays on `stream` (a
    cudaStream_t as an int) on the current device, returning without synchronising. An input without pixels
    leaves `dst` as it is.
    """

def transform_in_place(array: NDArray, element: Orientation, layout: str, stream: int = 0) -> None:
    """
    Applies an involution (not rot90 or rot270) to a CUDA array in place, one launch per image or plane
    on `stream`; square images only for transpose and transverse.
    """

def draws(seed: int, key: str, count: int, ops: str, weights: str, p_flip_h: float, p_flip_v: float, with_replacement: bool, degrees: float) -> list[tuple[Orientation, float]]:
    """
    augment --random COUNT's draws of the input at `key` (its path relative to the folder given) under `seed`:
    (element, angle) for draws 0 to COUNT-1, angle 0 where degrees is 0. ops and weights: augment's --ops and
    --weights text (weights empty: all 1); the rest as augment's options. Raises gpurotate.UsageError with
    augment's message for what augment refuses.
    """

def draw(seed: int, key: str, draw: int, ops: str, weights: str, p_flip_h: float, p_flip_v: float, with_replacement: bool, degrees: float) -> tuple[Orientation, float]:
    """
    Draw `draw` alone of `draws`: (element, angle), the same as draws(..., COUNT)[draw] for any COUNT above draw.
    """

def augment_outputs(path: str, relative: str, ops: str, weights: str, p_flip_h: float, p_flip_v: float, with_replacement: bool, random: int, seed: int, format: str, name_template: str, degrees: float = 0.0) -> list[tuple[Orientation, str, int, float]]:
    """
    augment's outputs for the input at `path` (`relative` below the folder given): (element, path below OUTDIR, draw,
    angle) for each, draw -1 without --random, angle 0 without --degrees. ops, weights: augment's --ops and --weights
    text; random: --random's N, 0 for every element of ops; format: --format, empty for same; name_template: --name,
    empty for augment's default; degrees: --degrees MAX (0: none).
    Raises gpurotate.UsageError with augment's message for what augment refuses.
    """

def augment_reads(path: str) -> bool:
    """
    Whether augment reads a file named `path` (its extension, any case, names a format this program reads).
    """

class EncodedSession:
    """
    A GPU's resources for transform_encoded, opened once: CUDA's start-up, a stream and its buffers,
    a JPEG scan coder. Raises gpurotate.DeviceError where the GPU does not start.
    """

    def __init__(self, device: int, gpu_memory: int) -> None: ...

    @property
    def device(self) -> int: ...

def transform_encoded(inputs: Sequence[bytes], element: int, format: str, jpeg_edge: str, quality: int, strip: bool, session: EncodedSession | None = None, degrees: float = 0.0, interpolation: str = 'bilinear', keep_size: bool = False, background: str = '') -> list[tuple[bytes, list[str]]]:
    """
    Each encoded image of `inputs` (bytes) turned by `element` (a code 0-7) as `gpurotate IN --OP -o OUT` writes it:
    (the output's bytes, its warnings). format: an extension (png, jpg, ...), empty for the input's own; jpeg_edge:
    reencode, trim, keep or error; quality: 1-100, 0 for none (a JPEG then stays lossless); strip: --strip.
    The GIL is released while they are converted, one after another; the first failure raises gpurotate.Error
    with the CLI's message, its `code` the CLI's exit status. session: an EncodedSession to convert on its GPU,
    or None for the CPU. degrees, interpolation, keep_size, background: --rotate DEG after the element,
    --interpolate, --keep-size, --background (empty: none).
    """
