"""The independent reference: each element as NumPy's own rot90 / flip / swapaxes on the height and width
axes of a layout. Never gpurotate's code."""

import numpy as np

# Height and width axes of each layout.
HW_AXES = {"hw": (0, 1), "hwc": (0, 1), "chw": (1, 2), "nchw": (2, 3), "nhwc": (1, 2)}
# The 8 elements in the order of gpurotate::Orientation, as NumPy operations on (height, width) axes.
# gpurotate's rot90 is clockwise: numpy.rot90 with k=-1.
NUMPY_OPS = {
    "identity": lambda x, h, w: x,
    "rot90": lambda x, h, w: np.rot90(x, k=-1, axes=(h, w)),
    "rot180": lambda x, h, w: np.rot90(x, k=2, axes=(h, w)),
    "rot270": lambda x, h, w: np.rot90(x, k=1, axes=(h, w)),
    "flip-h": lambda x, h, w: np.flip(x, axis=w),
    "flip-v": lambda x, h, w: np.flip(x, axis=h),
    "transpose": lambda x, h, w: np.swapaxes(x, h, w),
    "transverse": lambda x, h, w: np.rot90(np.swapaxes(x, h, w), k=2, axes=(h, w)),
}
NAMES = list(NUMPY_OPS)
DTYPES = [np.uint8, np.uint16, np.float32]


def reference(x, name, layout):
    h, w = HW_AXES[layout]
    return np.ascontiguousarray(NUMPY_OPS[name](np.asarray(x), h, w))


def reference_per_sample(x, names, layout):
    """Each sample of a batch (axis 0) with its own element."""
    sample_layout = {"nchw": "chw", "nhwc": "hwc"}[layout]
    return np.stack([reference(x[i], names[i], sample_layout) for i in range(len(names))])


def random_array(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.floating):
        return rng.standard_normal(shape).astype(dtype)
    return rng.integers(0, np.iinfo(dtype).max, size=shape, endpoint=True, dtype=dtype)


# One shape per layout and case: odd and prime sides, 1xN and Nx1, every channel count.
SHAPES = {
    "hw": [(5, 7), (1, 9), (9, 1), (33, 31)],
    "hwc": [(5, 7, 1), (7, 5, 2), (3, 11, 3), (13, 3, 4), (1, 6, 3)],
    "chw": [(3, 5, 7), (1, 1, 9), (5, 9, 1), (2, 31, 33)],
    "nchw": [(2, 3, 5, 7), (4, 1, 9, 9), (3, 2, 1, 8)],
    "nhwc": [(2, 5, 7, 3), (3, 9, 9, 4), (2, 8, 1, 1)],
}


# PyTorch's dtypes that DLPack carries, by item size (those this torch has: uint16 and up from torch 2.3).
TORCH_DTYPE_NAMES = [
    "bool", "int8", "uint8", "int16", "uint16", "float16", "bfloat16", "int32", "uint32", "float32",
    "int64", "uint64", "float64", "complex64", "complex128",
]  # fmt: skip


def torch_dtypes(torch):
    return [getattr(torch, name) for name in TORCH_DTYPE_NAMES if hasattr(torch, name)]


def torch_bit_patterns(torch, shape, dtype, seed=0):
    """Random bytes as a CPU tensor of `dtype` (every bit pattern: NaNs with payloads, infinities,
    subnormals), -0.0 first for floats; bool: 0 and 1."""
    if dtype == torch.bool:
        return torch.from_numpy(random_array(shape, np.uint8, seed) % 2 == 1)
    itemsize = torch.empty((), dtype=dtype).element_size()
    x = torch.from_numpy(random_array((*shape[:-1], shape[-1] * itemsize), np.uint8, seed)).view(dtype)
    if dtype.is_floating_point:
        x.view(-1)[0] = -0.0
    return x


def torch_bits(torch, t):
    """A tensor's bytes as NumPy integers of the item's width (complex: of each part, a trailing axis of 2),
    for bit-exact comparisons through NumPy's reference."""
    t = t.detach().cpu().contiguous()
    if t.is_complex():
        t = torch.view_as_real(t)
    if t.dtype == torch.bool:
        return t.view(torch.uint8).numpy()
    return t.view({1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]).numpy()
