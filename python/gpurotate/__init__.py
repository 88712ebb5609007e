"""gpurotate: rotate, flip and transpose images and batches (the 8 elements of D4) in one pass, on NVIDIA
GPUs (PyTorch and CuPy CUDA arrays, on the caller's stream) and on the CPU (NumPy arrays, CPU tensors).

    import gpurotate
    y = gpurotate.apply(x, "rot90")              # CLOCKWISE: numpy.rot90(x, k=-1) on the H and W axes
    y = gpurotate.apply(x, ["rot90", "flip-h"])  # in order, composed: one pass (a transpose)
    y = gpurotate.apply(batch, elements=codes, layout="nchw")  # one element per sample, one launch

Any angle: gpurotate.rotate(x, 7.5) turns by 7.5 degrees CLOCKWISE (torchvision's rotate turns
counter-clockwise), interpolated (nearest, bilinear, bicubic) as OpenCV's warpAffine, the canvas grown to hold
the whole image (expand=False keeps the size); uint8, uint16 and float32.

Boxes and keypoints move with their image: gpurotate.transform_boxes(boxes, "rot90", canvas_size=(H, W),
format="xyxy") and gpurotate.transform_points(points, "rot90", (H, W)), in continuous pixel coordinates (the
image spans [0, W] x [0, H]), every torchvision box format.

Encoded images: gpurotate.transform_encoded(jpeg_bytes, "rot90") gives the bytes `gpurotate in.jpg --rot90 -o out.jpg`
writes (a lossless JPEG transform; a PNG kept in its stored format), by the CLI's own planner and run.

augment --random's draw: gpurotate.draw(seed, key, d) is the element `gpurotate augment --random N --seed SEED`
gives draw d of the input at relative path `key` (gpurotate.draws(seed, key, N) all N of them), from augment's own
code, for a loader that turns its samples itself.

PyTorch transforms (RandomD4, RandomRotate90, RandomFlip, RandomHorizontalFlip, RandomVerticalFlip,
RandomRotation) are in
gpurotate.torch, which imports torch.

augment in a Ray Data pipeline: gpurotate.ray.Augment, a map_batches step that gives the bytes `gpurotate augment
--random N --seed S` writes for the same files (docs/scale.md).
"""

from ._api import LAYOUTS, NAMES, apply, apply_inplace, compose, element, infer_layout, inverse, name, swaps_axes, then
from ._draw import draw, draws
from ._encoded import JPEG_EDGES, Session, transform_encoded, transform_encoded_many
from ._labels import BOX_FORMATS, transform_boxes, transform_points
from ._rotate import INTERPOLATIONS, rotate
from ._gpurotate import DeviceError, Error, Orientation, UsageError, __version__, built_with_cuda, cuda_available

__all__ = [
    "BOX_FORMATS",
    "LAYOUTS",
    "NAMES",
    "DeviceError",
    "Error",
    "INTERPOLATIONS",
    "JPEG_EDGES",
    "Orientation",
    "Session",
    "UsageError",
    "__version__",
    "apply",
    "apply_inplace",
    "built_with_cuda",
    "compose",
    "cuda_available",
    "draw",
    "draws",
    "element",
    "infer_layout",
    "inverse",
    "name",
    "rotate",
    "swaps_axes",
    "then",
    "transform_boxes",
    "transform_encoded",
    "transform_encoded_many",
    "transform_points",
]
