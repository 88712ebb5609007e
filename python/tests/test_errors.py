"""Bad input raises a clear exception and never writes a wrong result."""

import ctypes

import numpy as np
import pytest

import gpurotate
from reference import random_array, reference


ITEM_SIZES = "1, 2, 4, 8 or 16 bytes"


@pytest.mark.parametrize("dtype", [object, "U3", "S2", "M8[s]", "m8[s]", [("a", "u1"), ("b", "u1")], np.longdouble, np.clongdouble], ids=str)
def test_dtypes_that_are_not_numbers(dtype):
    # These cannot travel through DLPack: refused by name, not with the binding's signature.
    with pytest.raises(TypeError, match=ITEM_SIZES):
        gpurotate.apply(np.zeros((4, 5), dtype), "rot90")


@pytest.mark.parametrize(
    "code,bits,lanes", [(3, 64, 1), (1, 8, 4), (2, 32, 2), (17, 4, 1), (0, 24, 1)], ids=["handle", "u8x4", "f32x2", "float4", "int24"]
)
def test_dlpack_dtypes_that_are_not_whole_items(code, bits, lanes):
    # Through the module, as another framework's DLPack capsule would come: opaque handles, vector lanes and
    # items that are not 1, 2, 4, 8 or 16 bytes are refused by name.
    keep = []
    src = _capsule(keep, (4, 6), device_type=1, dtype=(code, bits, lanes))
    with pytest.raises(TypeError, match=ITEM_SIZES):
        gpurotate._gpurotate.transform(src, np.zeros((6, 4), np.uint8), [1], "hw", 0)


@pytest.mark.parametrize("dtype,channels", [(np.int64, 3), (np.float64, 4), (np.complex128, 2)])
def test_interleaved_pixels_wider_than_16_bytes(dtype, channels):
    x = np.zeros((4, 5, channels), dtype)
    with pytest.raises(ValueError, match="at most 16 bytes"):
        gpurotate.apply(x, "rot90", layout="hwc")
    # The same items as planes move.
    planes = np.ascontiguousarray(np.moveaxis(random_array((4, 5, channels), np.uint8).astype(dtype), 2, 0))
    np.testing.assert_array_equal(gpurotate.apply(planes, "rot90", layout="chw"), np.rot90(planes, k=-1, axes=(1, 2)))


def test_out_through_the_buffer_protocol():
    x = random_array((3, 4), np.uint8)
    with pytest.raises(ValueError, match="read-only"):
        gpurotate.apply(x, "rot90", out=memoryview(bytes(12)).cast("B", (4, 3)))
    target = bytearray(12)
    gpurotate.apply(x, "rot90", out=memoryview(target).cast("B", (4, 3)))
    np.testing.assert_array_equal(np.frombuffer(target, np.uint8).reshape(4, 3), np.rot90(x, k=-1))


NOT_TAKEN = [
    lambda x: x.T,
    lambda x: x[:, ::2],
    lambda x: x[::-1],
    lambda x: np.asfortranarray(x)[:, :5],
    lambda x: np.broadcast_to(x[:1], (6, 10)),
]
NOT_TAKEN_IDS = ["transposed", "column-step", "negative-stride", "fortran", "broadcast"]


@pytest.mark.parametrize("make", NOT_TAKEN, ids=NOT_TAKEN_IDS)
def test_strides_that_are_not_images_with_a_row_pitch(make):
    x = make(random_array((6, 10), np.uint8))
    assert not x.flags.c_contiguous
    with pytest.raises(ValueError, match="not C-contiguous, nor images with a row pitch.*copy=True"):
        gpurotate.apply(x, "rot90")
    # copy=True: one contiguous copy first, the same result.
    np.testing.assert_array_equal(gpurotate.apply(x, "rot90", copy=True), np.rot90(x, k=-1))


@pytest.mark.parametrize(
    "make,layout",
    [
        (lambda x: x[..., ::2], "nchw"),  # a column step
        (lambda x: x[::-1], "nchw"),  # samples reversed
        (lambda x: x[:, ::-1], "nchw"),  # planes reversed
        (lambda x: np.concatenate([x, x], axis=1)[:, ::3], "nchw"),  # planes evenly spaced, samples not in step
        (lambda x: np.moveaxis(x, 1, 3)[..., :2], "nhwc"),  # channels that are planes
    ],
    ids=["column-step", "samples-reversed", "planes-reversed", "uneven", "planar-as-nhwc"],
)
def test_batch_strides_not_taken(make, layout):
    x = make(random_array((3, 4, 6, 6), np.uint8))
    with pytest.raises(ValueError, match="row pitch"):
        gpurotate.apply(x, "rot90", layout=layout)
    np.testing.assert_array_equal(gpurotate.apply(x, "rot90", layout=layout, copy=True), reference(np.ascontiguousarray(x), "rot90", layout))


def test_channels_last_with_more_than_four_channels_is_refused():
    # Channels-last memory of 5 channels is no interleaved layout (1 to 4 channels): the copy option.
    x = np.moveaxis(random_array((2, 5, 5, 5), np.uint8), 3, 1)
    with pytest.raises(ValueError, match="row pitch"):
        gpurotate.apply(x, "rot90", layout="nchw")
    np.testing.assert_array_equal(gpurotate.apply(x, "rot90", layout="nchw", copy=True), reference(x, "rot90", "nchw"))


def test_mismatched_out():
    x = random_array((4, 6, 3), np.uint8)
    untouched = np.full((6, 4, 3), 7, np.uint8)
    cases = [
        (np.zeros((4, 6, 3), np.uint8), ValueError, "shape"),
        (np.zeros((6, 4, 3), np.uint16), TypeError, "dtype"),
        (np.zeros((6, 4, 3), np.float64), TypeError, "dtype"),
        (np.zeros((6, 4, 3), np.int8), TypeError, "dtype int8, the input uint8"),
        (np.zeros((4, 6, 3), np.uint8).transpose(1, 0, 2), ValueError, "C-contiguous"),
        (np.zeros((6, 4, 4), np.uint8)[:, :, :3], ValueError, "C-contiguous"),
    ]
    for out, error, message in cases:
        with pytest.raises(error, match=message):
            gpurotate.apply(x, "rot90", out=out)
    read_only = untouched.copy()
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        gpurotate.apply(x, "rot90", out=read_only)
    np.testing.assert_array_equal(read_only, untouched)


def test_out_overlapping_input():
    x = random_array((2, 3, 4, 4), np.uint8)
    before = x.copy()
    with pytest.raises(ValueError, match="shares memory"):
        gpurotate.apply(x, "rot90", layout="nchw", out=x)
    big = random_array((5, 1, 4, 4), np.uint8)
    with pytest.raises(ValueError, match="shares memory"):
        gpurotate.apply(big[1:], "flip-h", layout="nchw", out=big[:-1])
    np.testing.assert_array_equal(x, before)


def test_cuda_only_calls_with_host_arrays():
    x = random_array((4, 4), np.uint8)
    with pytest.raises(TypeError, match="GPU only"):
        gpurotate.apply_inplace(x, "rot180")
    with pytest.raises(ValueError, match="stream= is for CUDA arrays"):
        gpurotate.apply(x, "rot90", stream=0)


def test_bad_operations():
    x = random_array((4, 4), np.uint8)
    with pytest.raises(ValueError, match="unknown operation 'rot45'"):
        gpurotate.apply(x, "rot45")
    with pytest.raises(ValueError, match="0-7"):
        gpurotate.apply(x, 8)
    with pytest.raises(TypeError, match="an operation is"):
        gpurotate.apply(x, 1.5)
    with pytest.raises(TypeError, match="either ops"):
        gpurotate.apply(x)
    with pytest.raises(TypeError, match="either ops"):
        gpurotate.apply(x[None, None], "rot90", elements=[1])


def test_bad_layouts():
    with pytest.raises(ValueError, match="unknown layout"):
        gpurotate.apply(random_array((4, 4), np.uint8), "rot90", layout="whc")
    with pytest.raises(ValueError, match="needs a 3-D array"):
        gpurotate.apply(random_array((4, 4), np.uint8), "rot90", layout="hwc")
    with pytest.raises(ValueError, match="1 to 4 channels"):
        gpurotate.apply(random_array((4, 4, 5), np.uint8), "rot90", layout="hwc")
    with pytest.raises(ValueError, match="cannot infer"):
        gpurotate.apply(np.zeros(5, np.uint8), "rot90")


def test_bad_per_sample_elements():
    x = random_array((3, 2, 4, 4), np.uint8)
    with pytest.raises(ValueError, match="3 samples"):
        gpurotate.apply(x, elements=[1, 2], layout="nchw")
    with pytest.raises(ValueError, match="batch"):
        gpurotate.apply(x[0], elements=[1], layout="chw")
    with pytest.raises(ValueError, match="0-7"):
        gpurotate.apply(x, elements=[1, 2, 9], layout="nchw")
    with pytest.raises(TypeError, match="sequence"):
        gpurotate.apply(x, elements="rot90", layout="nchw")
    # One entry for a batch of three is a mistake, not one element for all (that is ops).
    with pytest.raises(ValueError, match="1 entry for a batch of 3"):
        gpurotate.apply(x, elements=[3], layout="nchw")
    with pytest.raises(ValueError, match="1 entry for a batch of 3"):
        gpurotate.apply(x, elements=np.array([3]), layout="nchw")
    # Codes past a C int get the range message, not the binding's signature.
    for code in (2**31, 2**32 + 1, 2**70, -(2**70)):
        with pytest.raises(ValueError, match="0-7"):
            gpurotate.apply(x, elements=[1, 2, code], layout="nchw")
    # Unordered containers have no sample order.
    with pytest.raises(TypeError, match="in order"):
        gpurotate.apply(x[:2], elements={1, 3}, layout="nchw")


def test_byte_order_and_argument_types():
    with pytest.raises(TypeError, match="other byte order"):
        gpurotate.apply(random_array((4, 5), np.uint16).astype(">u2"), "rot90")
    with pytest.raises(TypeError, match="other byte order"):  # through the buffer protocol
        gpurotate.apply(memoryview(random_array((4, 5), np.uint16).astype(">u2")), "rot90")
    with pytest.raises(TypeError, match="other byte order"):
        gpurotate.apply(random_array((4, 5), np.float32), "rot90", out=np.empty((5, 4), ">f4"))
    with pytest.raises(TypeError, match="out= is an array"):
        gpurotate.apply(random_array((4, 5), np.uint8), "rot90", out=3)
    with pytest.raises(TypeError, match="layout= is one of"):
        gpurotate.apply(random_array((4, 5), np.uint8), "rot90", layout=5)
    with pytest.raises(TypeError, match="other byte order"):
        gpurotate.apply(np.zeros((4, 5), ">c8"), "rot90")


def test_not_an_array():
    with pytest.raises(TypeError, match="NumPy array"):
        gpurotate.apply([[1, 2], [3, 4]], "rot90")
    with pytest.raises(TypeError, match="not bytes"):
        gpurotate.apply(b"abcd", "rot90")


def test_library_errors_become_gpurotate_exceptions():
    # A side of 2^31 pixels is refused by the library itself (its kernels index with int); np.empty maps
    # the 2 GiB without touching it.
    x = np.empty((1, 2**31), np.uint8)
    with pytest.raises(gpurotate.UsageError, match="2\\^31") as raised:
        gpurotate.apply(x, "flip-h")
    assert raised.value.code == 2
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, gpurotate.Error)
    assert issubclass(gpurotate.DeviceError, gpurotate.Error) and issubclass(gpurotate.Error, RuntimeError)


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", _DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


def _capsule(keep, shape, device_type, dtype=(1, 8, 1)):
    """A DLPack capsule of host memory that claims `device_type` (2: CUDA, for machines without a GPU) and
    DLPack's `dtype` (code, bits, lanes)."""
    buffer = np.zeros(64 + int(np.prod(shape)) * 16, np.uint8)
    dims = (ctypes.c_int64 * len(shape))(*shape)
    tensor = _DLManagedTensor()
    tensor.dl_tensor = _DLTensor(buffer.ctypes.data, _DLDevice(device_type, 0), len(shape), _DLDataType(*dtype), dims, None, 0)
    keep += [buffer, dims, tensor]
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new_capsule(ctypes.addressof(tensor), b"dltensor", None)


def _cuda_capsule(keep, shape):
    """A DLPack capsule that claims CUDA memory (it is host memory: only for machines without a GPU)."""
    return _capsule(keep, shape, device_type=2)


def test_cuda_array_without_a_usable_gpu_is_a_device_error():
    if gpurotate.cuda_available():
        pytest.skip("a GPU is usable here: the GPU tests cover CUDA arrays")
    keep = []
    src, dst = _cuda_capsule(keep, (4, 6)), _cuda_capsule(keep, (6, 4))
    with pytest.raises(gpurotate.DeviceError) as raised:
        gpurotate._gpurotate.transform(src, dst, [gpurotate.Orientation.rot90], "hw", 0)
    assert raised.value.code == 5
