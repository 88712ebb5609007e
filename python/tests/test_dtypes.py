"""Every dtype of 1, 2, 4, 8 and 16-byte items moves as it is: bit-identical to NumPy's rot90 / flip /
swapaxes, checked on the bytes, with values any conversion would change (NaN payloads, signalling NaNs, -0.0,
subnormals, bool). PyTorch's dtypes (bfloat16 among them) are in test_torch.py and test_gpu.py."""

import numpy as np
import pytest

import gpurotate
from reference import NAMES, reference, reference_per_sample

# bool, the integers, the floats and the complex types NumPy has, by item size.
ALL_DTYPES = [
    np.bool_, np.int8, np.uint8,
    np.int16, np.uint16, np.float16,
    np.int32, np.uint32, np.float32,
    np.int64, np.uint64, np.float64, np.complex64,
    np.complex128,
]  # fmt: skip
IDS = [np.dtype(d).name for d in ALL_DTYPES]


def bit_patterns(shape, dtype, seed=0):
    """Random bytes as `dtype` (every bit pattern: NaNs with payloads, infinities, subnormals), with the
    values a conversion would change written in: -0.0, a quiet NaN with a payload, a signalling NaN. bool:
    0 and 1 (NumPy's only bools)."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    x = rng.integers(0, 256, size=int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8).view(dtype).reshape(shape)
    if dtype.kind in "fc" and x.size >= 3:
        real = np.dtype(f"f{dtype.itemsize // 2}").type if dtype.kind == "c" else dtype.type  # a complex's parts
        bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}[np.dtype(real).itemsize]
        width = np.dtype(real).itemsize * 8
        mantissa = {16: 10, 32: 23, 64: 52}[width]
        exponent_all_ones = ((1 << (width - 1 - mantissa)) - 1) << mantissa
        special = np.array([1 << (width - 1), exponent_all_ones | (1 << (mantissa - 1)) | 0x2A, exponent_all_ones | 1], bits)
        flat = x.reshape(-1).view(real) if dtype.kind == "c" else x.reshape(-1)
        flat[:3] = special.view(real)
    return x


def assert_same_bits(y, expected):
    assert y.dtype == expected.dtype and y.shape == expected.shape
    assert np.ascontiguousarray(y).tobytes() == np.ascontiguousarray(expected).tobytes()


def test_the_patterns_hold_what_a_conversion_would_change():
    x = bit_patterns((4, 5), np.float32)
    assert np.signbit(x.reshape(-1)[0]) and x.reshape(-1)[0] == 0
    assert np.isnan(x.reshape(-1)[1]) and x.reshape(-1)[1:2].view(np.uint32)[0] & 0x3F == 0x2A
    assert np.isnan(x.reshape(-1)[2]) and x.reshape(-1)[2:3].view(np.uint32)[0] == 0x7F800001  # signalling


def _interleaved_channels(dtype):
    """The channel counts an interleaved layout takes for `dtype`: pixels of at most 16 bytes."""
    return [c for c in (1, 2, 3, 4) if c * np.dtype(dtype).itemsize <= 16]


def _cases(dtype):
    cases = [("hw", (5, 7)), ("hw", (1, 9)), ("chw", (3, 5, 7)), ("nchw", (2, 3, 7, 5))]
    cases += [("hwc", (7, 5, c)) for c in _interleaved_channels(dtype)]
    cases += [("nhwc", (2, 5, 3, c)) for c in _interleaved_channels(dtype)]
    return cases


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=IDS)
@pytest.mark.parametrize("name", NAMES)
def test_every_dtype_moves_its_bits(name, dtype):
    for layout, shape in _cases(dtype):
        x = bit_patterns(shape, dtype)
        assert_same_bits(gpurotate.apply(x, name, layout=layout), reference(x, name, layout))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=IDS)
def test_every_dtype_per_sample_and_out(dtype):
    x = bit_patterns((8, 2, 6, 6), dtype)
    codes = list(range(8))
    assert_same_bits(gpurotate.apply(x, elements=codes, layout="nchw"), reference_per_sample(x, NAMES, "nchw"))
    out = np.empty((2, 9, 5), dtype)
    image = bit_patterns((2, 5, 9), dtype, seed=1)
    assert gpurotate.apply(image, "transverse", layout="chw", out=out) is out
    assert_same_bits(out, reference(image, "transverse", "chw"))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=IDS)
def test_every_dtype_large_enough_for_tiles_and_threads(dtype):
    # Large enough for the CPU backend's blocked kernels and its threads.
    x = bit_patterns((3, 301, 257), dtype)
    for name in ("rot90", "transpose", "flip-h"):
        assert_same_bits(gpurotate.apply(x, name, layout="chw"), reference(x, name, "chw"))


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_wide_items_in_planes_of_any_channel_count(dtype):
    # 8 and 16-byte items with 3 or more channels are planar (chw, nchw): any channel count moves.
    x = bit_patterns((2, 6, 5, 7), dtype)
    assert_same_bits(gpurotate.apply(x, "rot270", layout="nchw"), reference(x, "rot270", "nchw"))


def test_an_int64_segmentation_mask_with_its_image():
    image = bit_patterns((4, 3, 8, 8), np.uint8)
    mask = np.arange(4 * 8 * 8, dtype=np.int64).reshape(4, 8, 8) * 10**12  # values past 32 bits
    codes = [1, 4, 6, 3]
    assert_same_bits(gpurotate.apply(mask[:, None], elements=codes, layout="nchw")[:, 0],
                     reference_per_sample(mask[:, None], [NAMES[c] for c in codes], "nchw")[:, 0])  # fmt: skip
    assert_same_bits(gpurotate.apply(image, elements=codes, layout="nchw"), reference_per_sample(image, [NAMES[c] for c in codes], "nchw"))
