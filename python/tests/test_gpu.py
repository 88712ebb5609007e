"""CUDA arrays (PyTorch and CuPy): every element against NumPy, batches and per-sample elements (the grouped
launch), the caller's stream, out=, in place. Skipped with the reason where there is no GPU, no PyTorch or
CuPy, or no CUDA backend in this build."""

import numpy as np
import pytest

import gpurotate
from reference import DTYPES, NAMES, random_array, reference, reference_per_sample, torch_bit_patterns, torch_bits, torch_dtypes

pytestmark = pytest.mark.gpu

# Small odd shapes and some large enough for the vectorized kernels' full tiles.
GPU_CASES = [
    ("hw", (5, 7)),
    ("hw", (1, 9)),
    ("hw", (257, 129)),
    ("hwc", (7, 5, 3)),
    ("hwc", (129, 67, 4)),
    ("hwc", (33, 31, 2)),
    ("chw", (3, 65, 33)),
    ("nchw", (4, 3, 64, 64)),
    ("nchw", (3, 2, 31, 97)),
    ("nhwc", (3, 33, 31, 3)),
]
CASE_IDS = [f"{l}-{'x'.join(map(str, s))}" for l, s in GPU_CASES]


def _torch_dtype(torch, dtype):
    return {np.uint8: torch.uint8, np.uint16: torch.uint16, np.float32: torch.float32}[dtype]


def _to_torch_cuda(torch, x):
    # Through a byte view: PyTorch's uint16 supports few operations, copies among them.
    t = torch.from_numpy(np.ascontiguousarray(x).view(np.uint8)).cuda()
    return t.view(_torch_dtype(torch, x.dtype.type)).reshape(x.shape)


def _bytes_back(t):
    import torch

    dtype = {torch.uint16: np.uint16, torch.float32: np.float32, torch.uint8: np.uint8}[t.dtype]
    # Back through a byte view, for uint16 as on the way in.
    return t.cpu().contiguous().view(torch.uint8).numpy().view(dtype).reshape(tuple(t.shape))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout,shape", GPU_CASES, ids=CASE_IDS)
@pytest.mark.parametrize("name", NAMES)
def test_torch_cuda_every_element(torch_cuda, name, layout, shape, dtype):
    x = random_array(shape, dtype)
    y = gpurotate.apply(_to_torch_cuda(torch_cuda, x), name, layout=layout)
    assert y.is_cuda
    torch_cuda.cuda.synchronize()
    np.testing.assert_array_equal(_bytes_back(y), reference(x, name, layout))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout,shape", [("nchw", (8, 3, 33, 33)), ("nhwc", (8, 16, 16, 3)), ("nchw", (16, 1, 64, 64))])
def test_torch_cuda_per_sample(torch_cuda, layout, shape, dtype):
    x = random_array(shape, dtype)
    codes = [i % 8 for i in range(shape[0])]
    y = gpurotate.apply(_to_torch_cuda(torch_cuda, x), elements=torch_cuda.tensor(codes), layout=layout)
    torch_cuda.cuda.synchronize()
    np.testing.assert_array_equal(_bytes_back(y), reference_per_sample(x, [NAMES[c] for c in codes], layout))


def test_torch_cuda_per_sample_non_square(torch_cuda):
    x = random_array((4, 3, 20, 36), np.uint8)
    names = ["rot90", "transpose", "rot270", "transverse"]
    y = gpurotate.apply(_to_torch_cuda(torch_cuda, x), elements=names, layout="nchw")
    assert tuple(y.shape) == (4, 3, 36, 20)
    np.testing.assert_array_equal(_bytes_back(y), reference_per_sample(x, names, "nchw"))


def test_torch_cuda_more_planes_than_one_launch(torch_cuda):
    x = random_array((70000, 1, 2, 3), np.uint8)
    y = gpurotate.apply(_to_torch_cuda(torch_cuda, x), "rot90", layout="nchw")
    np.testing.assert_array_equal(_bytes_back(y), reference(x, "rot90", "nchw"))


def _delayed_fill(torch, x, value):
    # Keeps the current stream busy, then writes x: work on any other stream would see the old x.
    torch.cuda._sleep(20_000_000)
    x.fill_(value)


def test_torch_current_stream_is_used(torch_cuda):
    torch = torch_cuda
    x = torch.zeros((512, 768), dtype=torch.uint8, device="cuda")
    torch.cuda.synchronize()
    stream = torch.cuda.Stream()  # PyTorch's streams do not synchronise with the legacy default stream
    with torch.cuda.stream(stream):
        _delayed_fill(torch, x, 7)
        y = gpurotate.apply(x, "rot90")
    stream.synchronize()
    assert tuple(y.shape) == (768, 512) and bool((y == 7).all())


def test_torch_explicit_stream(torch_cuda):
    torch = torch_cuda
    x = torch.zeros((512, 768), dtype=torch.uint8, device="cuda")
    out = torch.empty((512, 768), dtype=torch.uint8, device="cuda")
    torch.cuda.synchronize()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        _delayed_fill(torch, x, 9)
    gpurotate.apply(x, "flip-h", out=out, stream=stream)  # the current stream is the default one here
    stream.synchronize()
    assert bool((out == 9).all())


def test_torch_cuda_out_and_bad_out(torch_cuda):
    torch = torch_cuda
    x = random_array((2, 3, 16, 24), np.float32)
    xt = _to_torch_cuda(torch, x)
    out = torch.empty((2, 3, 24, 16), dtype=torch.float32, device="cuda")
    assert gpurotate.apply(xt, "transverse", layout="nchw", out=out) is out
    np.testing.assert_array_equal(_bytes_back(out), reference(x, "transverse", "nchw"))
    with pytest.raises(ValueError, match="same device"):
        gpurotate.apply(xt, "transverse", layout="nchw", out=torch.empty((2, 3, 24, 16), dtype=torch.float32))
    with pytest.raises(ValueError, match="C-contiguous"):
        gpurotate.apply(xt.permute(0, 2, 3, 1), "rot90", layout="nhwc")
    with pytest.raises(TypeError, match="another dtype"):
        gpurotate.apply(xt, "transverse", layout="nchw", out=out.half())


@pytest.mark.parametrize("name", NAMES)
def test_torch_cuda_every_dtype(torch_cuda, name):
    # Every dtype of torch's moves its bits on the GPU, as on the CPU: against NumPy on the integer view.
    torch = torch_cuda
    for dtype in torch_dtypes(torch):
        itemsize = torch.empty((), dtype=dtype).element_size()
        cases = [("hw", (257, 129)), ("nchw", (3, 2, 31, 97)), ("chw", (3, 64, 64))]
        cases += [("nhwc", (2, 33, 31, c)) for c in (1, 2, 3, 4) if c * itemsize <= 16]
        for layout, shape in cases:
            x = torch_bit_patterns(torch, shape, dtype)
            y = gpurotate.apply(x.cuda(), name, layout=layout)
            assert y.is_cuda and y.dtype == dtype
            np.testing.assert_array_equal(torch_bits(torch, y), reference(torch_bits(torch, x), name, layout), err_msg=f"{dtype} {layout}")


def _channels_last(t):
    import torch

    return t.contiguous(memory_format=torch.channels_last)


STRIDED = [
    ("crop", "nchw", lambda t: t[:, :, 3:40, 5:60]),
    ("every-other-sample", "nchw", lambda t: t[::2]),  # samples not in step with planes: a launch per plane
    ("some-planes", "nchw", lambda t: t[:, 1:3, 2:50]),
    ("channels-last", "nchw", lambda t: _channels_last(t[:, :3])),
    ("nhwc-crop", "nhwc", lambda t: t.permute(0, 2, 3, 1).contiguous()[:, 4:44, 1:61]),
]


@pytest.mark.parametrize("what,layout,make", STRIDED, ids=[c[0] for c in STRIDED])
def test_torch_cuda_strides_taken_as_they_are(torch_cuda, what, layout, make):
    torch = torch_cuda
    base = torch_bit_patterns(torch, (6, 4, 48, 64), torch.float32)
    x = make(base.cuda())
    assert not x.is_contiguous()
    cpu = x.cpu()
    for name in ("rot90", "flip-v", "transpose"):
        y = gpurotate.apply(x, name, layout=layout)
        np.testing.assert_array_equal(torch_bits(torch, y), torch_bits(torch, gpurotate.apply(cpu, name, layout=layout)))
    square = x.shape[-2] == x.shape[-1] if layout == "nchw" else x.shape[1] == x.shape[2]
    codes = [i % 8 for i in range(x.shape[0])] if square else [(0, 2, 4, 5)[i % 4] for i in range(x.shape[0])]
    y = gpurotate.apply(x, elements=codes, layout=layout)
    np.testing.assert_array_equal(torch_bits(torch, y), torch_bits(torch, gpurotate.apply(cpu, elements=codes, layout=layout)))


def test_torch_cuda_out_crop_and_in_place_crop(torch_cuda):
    torch = torch_cuda
    x = random_array((3, 2, 20, 30), np.float32)
    canvas = torch.zeros((3, 2, 40, 40), dtype=torch.float32, device="cuda")
    out = canvas[:, :, 5:35, 7:27]
    assert gpurotate.apply(_to_torch_cuda(torch, x), "rot90", layout="nchw", out=out) is out
    np.testing.assert_array_equal(_bytes_back(out), reference(x, "rot90", "nchw"))
    out.zero_()
    assert not bool(canvas.any())  # nothing written outside the crop
    square = random_array((4, 3, 32, 32), np.uint8)
    big = _to_torch_cuda(torch, random_array((4, 3, 40, 40), np.uint8))
    big[:, :, 4:36, 8:40] = _to_torch_cuda(torch, square)
    before = big.clone()
    crop = big[:, :, 4:36, 8:40]
    assert gpurotate.apply_inplace(crop, "transverse", layout="nchw") is crop
    np.testing.assert_array_equal(_bytes_back(crop), reference(square, "transverse", "nchw"))
    big[:, :, 4:36, 8:40] = before[:, :, 4:36, 8:40]
    assert torch.equal(big, before)


@pytest.mark.parametrize("name", ["identity", "rot180", "flip-h", "flip-v", "transpose", "transverse"])
def test_torch_cuda_in_place(torch_cuda, name):
    x = random_array((3, 2, 40, 40), np.uint16)
    xt = _to_torch_cuda(torch_cuda, x)
    assert gpurotate.apply_inplace(xt, name, layout="nchw") is xt
    torch_cuda.cuda.synchronize()
    np.testing.assert_array_equal(_bytes_back(xt), reference(x, name, "nchw"))


def test_torch_cuda_in_place_refusals(torch_cuda):
    xt = _to_torch_cuda(torch_cuda, random_array((4, 6), np.uint8))
    with pytest.raises(gpurotate.UsageError, match="not its own inverse"):
        gpurotate.apply_inplace(xt, "rot90")
    with pytest.raises(gpurotate.UsageError, match="square"):
        gpurotate.apply_inplace(xt, "transpose")


def test_torch_second_device(torch_cuda):
    if torch_cuda.cuda.device_count() < 2:
        pytest.skip("one CUDA device: the device guard's case needs two")
    x = random_array((3, 40, 56), np.uint8)
    xt = torch_cuda.from_numpy(x).to("cuda:1")
    y = gpurotate.apply(xt, "rot90", layout="chw")
    assert y.device == xt.device
    np.testing.assert_array_equal(y.cpu().numpy(), reference(x, "rot90", "chw"))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout,shape", GPU_CASES[::3], ids=CASE_IDS[::3])
@pytest.mark.parametrize("name", NAMES)
def test_cupy_every_element(cupy, name, layout, shape, dtype):
    x = random_array(shape, dtype)
    y = gpurotate.apply(cupy.asarray(x), name, layout=layout)
    assert isinstance(y, cupy.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(y), reference(x, name, layout))


def test_cupy_per_sample_stream_and_foreign_arrays(cupy):
    x = random_array((8, 3, 32, 32), np.uint8)
    codes = np.arange(8)
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        y = gpurotate.apply(cupy.asarray(x), elements=codes, layout="nchw")
    stream.synchronize()
    np.testing.assert_array_equal(cupy.asnumpy(y), reference_per_sample(x, [NAMES[c] for c in codes], "nchw"))

    class Foreign:  # only __cuda_array_interface__, as Numba's device arrays
        def __init__(self, array):
            self.__cuda_array_interface__ = array.__cuda_array_interface__
            self.keep = array

    y = gpurotate.apply(Foreign(cupy.asarray(x[0])), "rot270", layout="chw")
    np.testing.assert_array_equal(cupy.asnumpy(y), reference(x[0], "rot270", "chw"))


def test_cuda_tensor_in_a_build_without_cuda(torch):
    if gpurotate.built_with_cuda() or not torch.cuda.is_available():
        pytest.skip("needs a CUDA device and a gpurotate built without CUDA")
    with pytest.raises(gpurotate.DeviceError, match="without CUDA"):
        gpurotate.apply(torch.zeros((4, 4), dtype=torch.uint8, device="cuda"), "rot90")
