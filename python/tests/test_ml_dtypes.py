"""NumPy arrays of ml_dtypes' dtypes (bfloat16, the float8 and float4/6 kinds, int4, int2, ...), which DLPack has
no code for: moved bit for bit, each checked against NumPy's own rot90 / flip / swapaxes on a view of the same
bytes as unsigned integers of the item's size."""

import numpy as np
import pytest

import gpurotate
from reference import NAMES, reference, reference_per_sample

ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is not installed (pip install ml_dtypes)")

# Every dtype this ml_dtypes has, by name (older releases lack the newer float8, float6, float4 and int2 kinds).
ML_DTYPE_NAMES = [
    "bfloat16", "float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz",
    "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn",
    "int2", "int4", "uint2", "uint4",
]  # fmt: skip
ML_DTYPES = [np.dtype(getattr(ml_dtypes, n)) for n in ML_DTYPE_NAMES if hasattr(ml_dtypes, n)]
IDS = [d.name for d in ML_DTYPES]
WORDS = {1: np.uint8, 2: np.uint16}


def random_bytes_as(shape, dtype, seed=0):
    """Every byte pattern, as `dtype` (NaNs, infinities, the bits a sub-byte type leaves unused)."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, size=int(np.prod(shape)) * dtype.itemsize, dtype=np.uint8).view(dtype).reshape(shape)


def words(a):
    """The same bytes as unsigned integers of the item's size: what NumPy's reference moves."""
    return a.view(WORDS[a.dtype.itemsize])


def assert_same_bytes(y, x_dtype, expected_words):
    assert y.dtype == x_dtype and y.shape == expected_words.shape
    assert np.ascontiguousarray(words(y)).tobytes() == np.ascontiguousarray(expected_words).tobytes()


def test_the_item_sizes():
    # int4 holds one value a byte in ml_dtypes (not two): a 1-byte item like uint8.
    sizes = {d.name: d.itemsize for d in ML_DTYPES}
    assert sizes["bfloat16"] == 2 and sizes["int4"] == 1 and sizes["float8_e5m2"] == 1
    assert set(sizes.values()) <= {1, 2}


@pytest.mark.parametrize("dtype", ML_DTYPES, ids=IDS)
@pytest.mark.parametrize("name", NAMES)
def test_every_ml_dtype_moves_its_bits(name, dtype):
    cases = [("hw", (5, 7)), ("hw", (1, 9)), ("hw", (9, 1)), ("chw", (3, 5, 7)), ("nchw", (2, 3, 7, 5))]
    cases += [("hwc", (7, 5, c)) for c in (1, 2, 3, 4)] + [("nhwc", (2, 5, 3, c)) for c in (1, 3, 4)]
    for layout, shape in cases:
        x = random_bytes_as(shape, dtype)
        assert_same_bytes(gpurotate.apply(x, name, layout=layout), dtype, reference(words(x), name, layout))


@pytest.mark.parametrize("dtype", ML_DTYPES, ids=IDS)
def test_per_sample_out_and_strides(dtype):
    x = random_bytes_as((8, 2, 6, 6), dtype, seed=1)
    assert_same_bytes(gpurotate.apply(x, elements=list(range(8)), layout="nchw"), dtype, reference_per_sample(words(x), NAMES, "nchw"))
    # out= of the same dtype: written, and returned as it is.
    image = random_bytes_as((5, 7, 3), dtype, seed=2)
    out = np.zeros((7, 5, 3), dtype)
    assert gpurotate.apply(image, "rot90", out=out) is out
    assert_same_bytes(out, dtype, reference(words(image), "rot90", "hwc"))
    # A crop, taken without a copy; a planar view of channels-last memory; a transposed array with copy=True.
    big = random_bytes_as((3, 11, 13), dtype, seed=3)
    assert_same_bytes(gpurotate.apply(big[:, 2:9, 1:12], "transverse", layout="chw"), dtype,
                      reference(words(big)[:, 2:9, 1:12], "transverse", "chw"))  # fmt: skip
    planar = np.moveaxis(random_bytes_as((6, 4, 3), dtype, seed=4), 2, 0)
    assert_same_bytes(gpurotate.apply(planar, "rot270", layout="chw"), dtype, reference(words(planar), "rot270", "chw"))
    transposed = random_bytes_as((6, 4), dtype, seed=5).T
    with pytest.raises(ValueError):
        gpurotate.apply(transposed, "flip-h")
    assert_same_bytes(gpurotate.apply(transposed, "flip-h", copy=True), dtype, reference(words(transposed), "flip-h", "hw"))


def test_refusals_name_the_dtypes():
    bf16 = random_bytes_as((4, 6), np.dtype(ml_dtypes.bfloat16))
    e5m2 = random_bytes_as((4, 6), np.dtype(ml_dtypes.float8_e5m2))
    # out of another dtype, of the same item size or not, either way round: a TypeError naming both.
    for x, out, says in [
        (bf16, np.zeros((6, 4), np.float16), "out has dtype float16, the input bfloat16"),
        (bf16, np.zeros((6, 4), np.uint16), "out has dtype uint16, the input bfloat16"),
        (np.zeros((4, 6), np.uint16), np.zeros((6, 4), ml_dtypes.bfloat16), "out has dtype bfloat16, the input uint16"),
        (e5m2, np.zeros((6, 4), ml_dtypes.float8_e4m3fn), "out has dtype float8_e4m3fn, the input float8_e5m2"),
        (e5m2, np.zeros((6, 4), ml_dtypes.bfloat16), "out has dtype bfloat16, the input float8_e5m2"),
    ]:
        before = out.copy()
        with pytest.raises(TypeError, match=says):
            gpurotate.apply(x, "rot90", out=out)
        assert out.tobytes() == before.tobytes()
    # Interleaved pixels wider than 16 bytes: a ValueError, as for any dtype.
    with pytest.raises(ValueError, match="channels"):
        gpurotate.apply(random_bytes_as((4, 5, 9), np.dtype(ml_dtypes.bfloat16)), "rot90", layout="hwc")
    # In place is for CUDA arrays: a host array of these dtypes is told so, not given the binding's signature.
    with pytest.raises(TypeError, match="GPU only"):
        gpurotate.apply_inplace(bf16, "rot180")
