"""gpurotate.rotate (rotation by any angle) and gpurotate.torch.RandomRotation.

The independent reference is OpenCV 4's cv2.warpAffine with getRotationMatrix2D about ((W-1)/2, (H-1)/2) by
-angle (the definition in docs/cli.md, "Any angle"): uint8 byte for byte, uint16 within 1 and float32 within
1e-5 relative, where cv2 4.x is importable (OpenCV 5 interpolates in float: those comparisons are skipped
there). Without it: what is exact whatever the implementation (0 degrees, the size formula, quarter and half
turns against numpy.rot90), the fill, layouts, strides, out= and the errors. The GPU cases (CUDA tensors, CuPy)
require the CPU's bytes and skip without a device; the PyTorch cases skip without torch."""

import math

import numpy as np
import pytest

import gpurotate
from reference import random_array

try:
    import cv2
except ImportError:  # pragma: no cover - depends on the machine
    cv2 = None

CV2_4 = cv2 is not None and str(getattr(cv2, "__version__", "")).startswith("4.")
needs_cv2_4 = pytest.mark.skipif(not CV2_4, reason="needs OpenCV 4.x (cv2) as the reference: "
                                 + ("not installed" if cv2 is None else f"cv2 {cv2.__version__} is not 4.x"))
INTERPOLATIONS = ["nearest", "bilinear", "bicubic"]


def expanded_size(width, height, angle):
    """W' = ceil(W|cos| + H|sin| - 1e-6), H' = ceil(W|sin| + H|cos| - 1e-6), cos and sin of the angle in radians."""
    c, s = abs(math.cos(math.radians(angle))), abs(math.sin(math.radians(angle)))
    return math.ceil(width * c + height * s - 1e-6), math.ceil(width * s + height * c - 1e-6)


def cv_rotate(x, angle, interpolation="bilinear", expand=True, fill=0):
    """The reference: one image (H, W) or (H, W, C) through cv2.warpAffine."""
    height, width = x.shape[:2]
    m = cv2.getRotationMatrix2D(((width - 1) / 2, (height - 1) / 2), -angle, 1.0)
    size = (width, height)
    if expand:
        c, s = abs(m[0, 0]), abs(m[0, 1])
        size = (math.ceil(width * c + height * s - 1e-6), math.ceil(width * s + height * c - 1e-6))
        m[0, 2] += (size[0] - width) / 2
        m[1, 2] += (size[1] - height) / 2
    flags = {"nearest": cv2.INTER_NEAREST, "bilinear": cv2.INTER_LINEAR, "bicubic": cv2.INTER_CUBIC}[interpolation]
    values = list(fill) if isinstance(fill, (list, tuple)) else [fill] * 4
    border = tuple(float(v) for v in (values + [0] * 4)[:4])
    out = cv2.warpAffine(x, m, size, flags=flags, borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    return out.reshape(out.shape[:2] + x.shape[2:])  # cv2 drops a channel axis of 1


def assert_close_to_opencv(got, want, dtype):
    assert got.shape == want.shape and got.dtype == want.dtype
    if dtype == np.uint8:
        np.testing.assert_array_equal(got, want)
    elif dtype == np.uint16:
        assert int(np.abs(got.astype(np.int64) - want.astype(np.int64)).max(initial=0)) <= 1
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


# ---- against OpenCV 4 ----

ANGLES = [0.5, 7.5, 30, 45, 90, 135, -60, 200, 1000.25]
SIZES = [(17, 29), (29, 17), (1, 1), (2, 3), (8, 8)]


@needs_cv2_4
@pytest.mark.parametrize("interpolation", INTERPOLATIONS)
@pytest.mark.parametrize("expand", [True, False])
@pytest.mark.parametrize("channels", [0, 1, 2, 3, 4])
def test_uint8_is_opencv_byte_for_byte(interpolation, expand, channels):
    for size in SIZES:
        shape = size if channels == 0 else size + (channels,)
        x = random_array(shape, np.uint8, seed=sum(shape))
        fill = 0 if channels in (0, 1) else [10 * c + 5 for c in range(channels)]
        for angle in ANGLES:
            got = gpurotate.rotate(x, angle, interpolation=interpolation, expand=expand, fill=fill,
                                   layout="hw" if channels == 0 else "hwc")
            np.testing.assert_array_equal(got, cv_rotate(x, angle, interpolation, expand, fill),
                                          err_msg=f"{shape} {angle} degrees {interpolation} expand={expand}")


@needs_cv2_4
@pytest.mark.parametrize("dtype", [np.uint16, np.float32])
@pytest.mark.parametrize("interpolation", INTERPOLATIONS)
def test_uint16_and_float32_follow_opencv(dtype, interpolation):
    for shape in [(17, 29), (23, 19, 3)]:
        x = random_array(shape, dtype, seed=3)
        for angle in [7.5, 30, -135]:
            for expand in (True, False):
                got = gpurotate.rotate(x, angle, interpolation=interpolation, expand=expand, fill=0.5 if dtype == np.float32 else 300)
                want = cv_rotate(x, angle, interpolation, expand, 0.5 if dtype == np.float32 else 300)
                assert_close_to_opencv(got, want, dtype)


@needs_cv2_4
def test_batches_and_planes_are_opencv_per_image():
    x = random_array((3, 21, 16, 3), np.uint8, seed=5)
    angles = [10.0, -33.0, 77.5]
    got = gpurotate.rotate(x, angles, expand=False, fill=[1, 2, 3], layout="nhwc")
    want = np.stack([cv_rotate(x[i], a, "bilinear", False, [1, 2, 3]) for i, a in enumerate(angles)])
    np.testing.assert_array_equal(got, want)
    # Planes (nchw): each plane its own image, its fill the channel's.
    planar = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
    got = gpurotate.rotate(planar, angles, expand=False, fill=[1, 2, 3], layout="nchw", interpolation="bicubic")
    want = np.stack([np.stack([cv_rotate(planar[i, c], a, "bicubic", False, c + 1) for c in range(3)]) for i, a in enumerate(angles)])
    np.testing.assert_array_equal(got, want)
    # One angle for the whole batch, expanded.
    got = gpurotate.rotate(x, 20, layout="nhwc")
    np.testing.assert_array_equal(got, np.stack([cv_rotate(x[i], 20) for i in range(3)]))


# ---- exact without OpenCV ----

DTYPES = [np.uint8, np.uint16, np.float32]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("interpolation", INTERPOLATIONS)
def test_zero_degrees_is_the_input(dtype, interpolation):
    for shape in [(5, 7), (9, 4, 3), (1, 1)]:
        x = random_array(shape, dtype, seed=1)
        for expand in (True, False):
            for angle in (0, 0.0, 360, -720):
                np.testing.assert_array_equal(gpurotate.rotate(x, angle, interpolation=interpolation, expand=expand), x)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("interpolation", INTERPOLATIONS)
def test_quarter_and_half_turns_expanded_are_numpy_rot90(dtype, interpolation):
    """warpAffine at a multiple of 90 on the expanded canvas maps every pixel centre onto one (the cosine's
    6e-17 vanishes in the 1/32-pixel coordinates): numpy.rot90, clockwise, whatever the sides' parity; with
    any fill for nearest, bilinear and the integer types. One exception, OpenCV's as well (checked against
    cv2 where it is there): float32 bicubic with a fill other than 0, whose pixels within 2 of the border mix
    the fill in at a weight of about 1e-8 (a few ulps off numpy.rot90's values)."""
    for shape in [(5, 7), (6, 9), (8, 8, 3), (1, 4), (4, 1, 2)]:
        x = random_array(shape, dtype, seed=2)
        for angle, k in [(90, -1), (-90, 1), (270, 1), (450, -1), (180, 2), (-180, 2)]:
            want = np.rot90(x, k=k)
            got = gpurotate.rotate(x, angle, interpolation=interpolation)
            np.testing.assert_array_equal(got, want, err_msg=f"{shape} {angle} degrees")
            # The D4 transform, exact and faster, gives the same.
            np.testing.assert_array_equal(got, gpurotate.apply(x, {-1: "rot90", 1: "rot270", 2: "rot180"}[k]))
            filled = gpurotate.rotate(x, angle, interpolation=interpolation, fill=7)
            if dtype == np.float32 and interpolation == "bicubic":
                np.testing.assert_allclose(filled, want, rtol=2e-6, atol=1e-6)
                if CV2_4:
                    np.testing.assert_array_equal(filled, cv_rotate(x, angle, interpolation, True, 7))
            else:
                np.testing.assert_array_equal(filled, want, err_msg=f"{shape} {angle} degrees, fill 7")


@pytest.mark.parametrize("interpolation", INTERPOLATIONS)
def test_kept_size_half_turn_and_square_quarter_turn_are_numpy_rot90(interpolation):
    for shape in [(5, 7), (6, 9), (4, 4, 3)]:
        x = random_array(shape, np.uint8, seed=4)
        np.testing.assert_array_equal(gpurotate.rotate(x, 180, interpolation=interpolation, expand=False), np.rot90(x, 2))
    for shape in [(5, 5), (8, 8, 2)]:
        x = random_array(shape, np.uint8, seed=4)
        np.testing.assert_array_equal(gpurotate.rotate(x, 90, interpolation=interpolation, expand=False), np.rot90(x, -1))


def test_kept_size_quarter_turn_of_a_non_square_image_is_a_centred_crop():
    """With expand=False a 90-degree turn of a W x H image keeps W x H: the centred crop of the turned image,
    the uncovered rows or columns filled. Where H - W is even the crop is whole pixels, numpy's exactly."""
    x = random_array((5, 9), np.uint8, seed=6)  # H=5, W=9: the turned image is 9 high, 5 wide
    got = gpurotate.rotate(x, 90, interpolation="nearest", expand=False, fill=255)
    want = np.full((5, 9), 255, np.uint8)
    want[:, 2:7] = np.rot90(x, -1)[2:7, :]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape", [(5, 7), (9, 3, 3), (1, 1), (7, 1)])
def test_nearest_half_turn_of_odd_sizes_is_numpy_rot180(shape):
    x = random_array(shape, np.float32, seed=8)
    for expand in (True, False):
        np.testing.assert_array_equal(gpurotate.rotate(x, 180, interpolation="nearest", expand=expand), np.rot90(x, 2))


@pytest.mark.parametrize("angle", [0.5, 7.5, 30, 45, 60, 89.9, 90, 135, -60, 1000, 12345.678])
def test_the_expanded_size_formula(angle):
    for height, width in [(17, 29), (29, 17), (1, 1), (100, 3)]:
        x = np.zeros((height, width), np.uint8)
        out_width, out_height = expanded_size(width, height, angle)
        assert gpurotate.rotate(x, angle).shape == (out_height, out_width)
        assert gpurotate.rotate(x, angle, expand=False).shape == (height, width)
        assert gpurotate._gpurotate.rotated_shape([2, 3, height, width], "nchw", [angle], False) == [2, 3, out_height, out_width]


def test_fill_per_channel_and_saturation():
    x = np.full((10, 10, 3), 100, np.uint8)
    y = gpurotate.rotate(x, 45, fill=[1, 2, 3])
    np.testing.assert_array_equal(y[0, 0], [1, 2, 3])  # a corner of the grown canvas: uncovered
    assert (y[y.shape[0] // 2, y.shape[1] // 2] == 100).all()
    # As OpenCV's borderValue: rounded half to even, clamped to the type.
    np.testing.assert_array_equal(gpurotate.rotate(x, 45, fill=[300, -5, 2.5])[0, 0], [255, 0, 2])
    np.testing.assert_array_equal(gpurotate.rotate(x, 45, fill=7)[0, 0], [7, 7, 7])
    np.testing.assert_array_equal(gpurotate.rotate(x, 45, fill=(9,))[0, 0], [9, 9, 9])
    np.testing.assert_array_equal(gpurotate.rotate(x, 45, fill=np.array([4, 5, 6]))[0, 0], [4, 5, 6])
    f = gpurotate.rotate(np.ones((6, 6), np.float32), 30, fill=0.25)
    assert f[0, 0] == np.float32(0.25)
    planes = gpurotate.rotate(np.zeros((2, 6, 6), np.uint16), 30, fill=[1000, 2000], layout="chw")
    assert planes[0, 0, 0] == 1000 and planes[1, 0, 0] == 2000


def test_an_image_without_pixels_on_a_grown_canvas_is_all_fill():
    y = gpurotate.rotate(np.zeros((0, 4, 3), np.uint8), 30, fill=[1, 2, 3])
    assert y.shape == (2, 4, 3)  # W' = ceil(4 cos 30), H' = ceil(4 sin 30)
    assert (y == np.array([1, 2, 3], np.uint8)).all()
    assert gpurotate.rotate(np.zeros((0, 4), np.uint8), 30, expand=False).shape == (0, 4)
    assert gpurotate.rotate(np.zeros((0, 2, 5, 5), np.float32), 30, layout="nchw").shape == (0, 2, 7, 7)


@pytest.mark.parametrize("layout,shape", [("chw", (3, 11, 8)), ("nchw", (2, 3, 11, 8)), ("nhwc", (2, 11, 8, 3))])
def test_layouts_are_per_image(layout, shape):
    x = random_array(shape, np.uint8, seed=9)
    y = gpurotate.rotate(x, 33, layout=layout, fill=[5, 6, 7], interpolation="bicubic")
    if layout == "chw":
        want = np.stack([gpurotate.rotate(x[c], 33, fill=5 + c, interpolation="bicubic") for c in range(3)])
    elif layout == "nchw":
        want = np.stack([np.stack([gpurotate.rotate(x[n, c], 33, fill=5 + c, interpolation="bicubic") for c in range(3)]) for n in range(2)])
    else:
        want = np.stack([gpurotate.rotate(x[n], 33, fill=[5, 6, 7], interpolation="bicubic", layout="hwc") for n in range(2)])
    np.testing.assert_array_equal(y, want)
    # Interleaved and planar agree, channel for channel.
    if layout == "nhwc":
        planar = gpurotate.rotate(np.ascontiguousarray(x.transpose(0, 3, 1, 2)), 33, layout="nchw", fill=[5, 6, 7], interpolation="bicubic")
        np.testing.assert_array_equal(planar.transpose(0, 2, 3, 1), y)


def test_per_sample_angles():
    x = random_array((4, 9, 9), np.float32, seed=10)[:, None]  # (4, 1, 9, 9)
    angles = [0, 15, -40, 90]
    y = gpurotate.rotate(x, angles, layout="nchw", expand=False)
    for i, a in enumerate(angles):
        np.testing.assert_array_equal(y[i, 0], gpurotate.rotate(x[i, 0], a, expand=False))
    # As an array, a tuple, and expanded where every canvas is one size (90 and 0 of a square image; -45 and 45).
    np.testing.assert_array_equal(gpurotate.rotate(x, np.array(angles, np.float64), layout="nchw", expand=False), y)
    assert gpurotate.rotate(x, (0, 90, 180, -90), layout="nchw").shape == (4, 1, 9, 9)
    assert gpurotate.rotate(x, [45, -45, 135, 225], layout="nchw").shape == (4, 1, 13, 13)
    with pytest.raises(ValueError, match="different sizes"):
        gpurotate.rotate(x, angles, layout="nchw")


def test_strides_and_out():
    base = random_array((20, 30, 3), np.uint8, seed=11)
    crop = base[2:15, 3:25]
    np.testing.assert_array_equal(gpurotate.rotate(crop, 20), gpurotate.rotate(np.ascontiguousarray(crop), 20))
    # A planar image whose memory is channels-last: worked as hwc, returned in the same memory order.
    planar = np.moveaxis(base, 2, 0)
    y = gpurotate.rotate(planar, 20, layout="chw", fill=[1, 2, 3])
    np.testing.assert_array_equal(y, gpurotate.rotate(np.ascontiguousarray(planar), 20, layout="chw", fill=[1, 2, 3]))
    assert y.strides[0] == 1
    stepped = base[:, ::2]
    with pytest.raises(ValueError, match="copy=True"):
        gpurotate.rotate(stepped, 20)
    np.testing.assert_array_equal(gpurotate.rotate(stepped, 20, copy=True), gpurotate.rotate(np.ascontiguousarray(stepped), 20))
    out = np.empty((20, 30, 3), np.uint8)
    assert gpurotate.rotate(base, 10, expand=False, out=out) is out
    np.testing.assert_array_equal(out, gpurotate.rotate(base, 10, expand=False))
    big = np.zeros((40, 50, 3), np.uint8)
    gpurotate.rotate(base, 10, expand=False, out=big[5:25, 5:35])  # out= may be a crop
    np.testing.assert_array_equal(big[5:25, 5:35], out)
    with pytest.raises(ValueError, match="shape"):
        gpurotate.rotate(base, 10, out=np.empty((20, 30, 3), np.uint8))  # expanded: another size
    with pytest.raises(TypeError, match="dtype"):
        gpurotate.rotate(base, 10, expand=False, out=np.empty((20, 30, 3), np.uint16))
    with pytest.raises(ValueError, match="shares memory"):
        gpurotate.rotate(base, 180, expand=False, out=base)


def test_interpolation_names():
    import enum

    class Mode(enum.Enum):  # torchvision's InterpolationMode: an Enum whose values are the names
        NEAREST = "nearest"
        BICUBIC = "bicubic"
        NEAREST_EXACT = "nearest-exact"

    x = random_array((9, 9), np.uint8, seed=12)
    np.testing.assert_array_equal(gpurotate.rotate(x, 30, interpolation=Mode.NEAREST), gpurotate.rotate(x, 30, interpolation="nearest"))
    np.testing.assert_array_equal(gpurotate.rotate(x, 30, interpolation="BICUBIC"), gpurotate.rotate(x, 30, interpolation=Mode.BICUBIC))
    with pytest.raises(ValueError, match="nearest, bilinear, bicubic"):
        gpurotate.rotate(x, 30, interpolation=Mode.NEAREST_EXACT)
    with pytest.raises(ValueError, match="nearest, bilinear, bicubic"):
        gpurotate.rotate(x, 30, interpolation="lanczos")
    with pytest.raises(TypeError):
        gpurotate.rotate(x, 30, interpolation=2)
    assert gpurotate.INTERPOLATIONS == ("nearest", "bilinear", "bicubic")


def test_errors():
    x = np.zeros((6, 8), np.uint8)
    for dtype in (np.int64, np.int16, np.float64, np.float16, np.bool_, np.uint32):
        with pytest.raises(TypeError, match="uint8, uint16 and float32"):
            gpurotate.rotate(x.astype(dtype), 10)
    with pytest.raises(TypeError, match="uint8, uint16 and float32"):
        gpurotate.rotate(x.astype("U1"), 10)
    for angle in (float("nan"), float("inf")):
        with pytest.raises(gpurotate.UsageError, match="finite"):
            gpurotate.rotate(x, angle)
        with pytest.raises(ValueError):  # UsageError is a ValueError
            gpurotate.rotate(x, angle, expand=False)
    with pytest.raises(gpurotate.UsageError):
        gpurotate.rotate(np.zeros((2, 1, 4, 4), np.uint8), [1, float("nan")], layout="nchw")
    for angle in (True, "30", None, {1: 2}):
        with pytest.raises(TypeError):
            gpurotate.rotate(x, angle)
    with pytest.raises(ValueError, match="batch"):
        gpurotate.rotate(x, [10, 20])  # one image, two angles
    with pytest.raises(ValueError, match="3 entries for a batch of 2"):
        gpurotate.rotate(np.zeros((2, 4, 4, 3), np.uint8), [1, 2, 3])
    with pytest.raises(ValueError, match="1 entry for a batch of 2"):
        gpurotate.rotate(np.zeros((2, 4, 4, 3), np.uint8), [1])
    with pytest.raises(ValueError, match="fill has 2 values for 3 channels"):
        gpurotate.rotate(np.zeros((4, 4, 3), np.uint8), 10, fill=[1, 2])
    with pytest.raises(TypeError):
        gpurotate.rotate(x, 10, fill="white")
    with pytest.raises(ValueError, match="layout"):
        gpurotate.rotate(x, 10, layout="hwc")
    with pytest.raises(ValueError):
        gpurotate.rotate(x, 10, layout="xy")
    with pytest.raises(ValueError, match="1 to 4 channels"):
        gpurotate.rotate(np.zeros((4, 4, 5), np.uint8), 10, layout="hwc")
    with pytest.raises(ValueError, match="stream"):
        gpurotate.rotate(x, 10, stream=1)
    with pytest.raises(TypeError):
        gpurotate.rotate(x, 10, expand="yes")


def test_extension_dtypes_are_refused():
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is not installed")
    with pytest.raises(TypeError, match="uint8, uint16 and float32"):
        gpurotate.rotate(np.zeros((4, 4), ml_dtypes.bfloat16), 10)


# ---- PyTorch (CPU; CUDA below) ----


@pytest.fixture
def torch_cpu():
    return pytest.importorskip("torch", reason="PyTorch is not installed")


def test_torch_cpu_tensors_are_numpy_bytes(torch_cpu):
    torch = torch_cpu
    x = random_array((2, 3, 13, 10), np.uint8, seed=13)
    y = gpurotate.rotate(torch.from_numpy(x), 25, fill=[1, 2, 3], layout="nchw")
    assert isinstance(y, torch.Tensor) and y.dtype == torch.uint8
    np.testing.assert_array_equal(y.numpy(), gpurotate.rotate(x, 25, fill=[1, 2, 3], layout="nchw"))
    # channels_last: worked as nhwc, returned channels_last.
    t = torch.from_numpy(x).contiguous(memory_format=torch.channels_last)
    z = gpurotate.rotate(t, 25, fill=[1, 2, 3], layout="nchw")
    assert z.is_contiguous(memory_format=torch.channels_last)
    np.testing.assert_array_equal(z.numpy(), y.numpy())
    # Per-sample angles as a tensor.
    np.testing.assert_array_equal(gpurotate.rotate(torch.from_numpy(x), torch.tensor([10.0, 20.0]), layout="nchw", expand=False).numpy(),
                                  gpurotate.rotate(x, [10, 20], layout="nchw", expand=False))
    with pytest.raises(TypeError, match="uint8, uint16 and float32"):
        gpurotate.rotate(torch.zeros(4, 4, dtype=torch.int64), 10)
    with pytest.raises(TypeError, match="uint8, uint16 and float32"):
        gpurotate.rotate(torch.zeros(4, 4, dtype=torch.bfloat16), 10)
    with pytest.raises(TypeError, match="grad"):
        gpurotate.rotate(torch.zeros(4, 4, requires_grad=True), 10)


def test_random_rotation_draws_as_torchvision_and_turns_clockwise_by_minus_that(torch_cpu):
    torch = torch_cpu
    from gpurotate.torch import RandomRotation

    x = torch.from_numpy(random_array((3, 20, 14), np.uint8, seed=14))
    for kwargs in [{}, {"interpolation": "bilinear", "expand": True, "fill": [1, 2, 3]}, {"interpolation": "bicubic", "fill": 9}]:
        transform = RandomRotation((-40, 25), generator=torch.Generator().manual_seed(7), **kwargs)
        angle = RandomRotation((-40, 25), generator=torch.Generator().manual_seed(7)).draw()
        assert -40 <= angle <= 25
        # torchvision's draw: torch.empty(1).uniform_(min, max) from the same generator state.
        assert angle == torch.empty(1).uniform_(-40, 25, generator=torch.Generator().manual_seed(7)).item()
        y = transform(x)
        want = gpurotate.rotate(x.numpy(), -angle, layout="chw", interpolation=kwargs.get("interpolation", "nearest"),
                                expand=kwargs.get("expand", False), fill=kwargs.get("fill", 0))
        np.testing.assert_array_equal(y.numpy(), want)
    # One draw per call, the same angle for every input; a number d is [-d, d].
    transform = RandomRotation(30, generator=torch.Generator().manual_seed(1))
    assert transform.degrees == [-30.0, 30.0]
    a, b = transform(x, x[:1].clone())
    np.testing.assert_array_equal(a.numpy()[:1], b.numpy())
    # A batch: one angle for all its samples.
    batch = torch.from_numpy(random_array((4, 2, 9, 9), np.float32, seed=15))
    angle = RandomRotation(30, generator=torch.Generator().manual_seed(2)).draw()
    y = RandomRotation(30, generator=torch.Generator().manual_seed(2))(batch)
    np.testing.assert_array_equal(y.numpy(), gpurotate.rotate(batch.numpy(), -angle, layout="nchw", interpolation="nearest", expand=False))


def test_random_rotation_arguments(torch_cpu):
    from gpurotate.torch import RandomRotation

    with pytest.raises(NotImplementedError, match="centre"):
        RandomRotation(10, center=(3, 4))
    with pytest.raises(ValueError):
        RandomRotation(-10)
    with pytest.raises(ValueError):
        RandomRotation((20, 10))
    with pytest.raises(TypeError):
        RandomRotation("10")
    with pytest.raises(ValueError):
        RandomRotation(10, interpolation="nearest-exact")
    assert RandomRotation(10).interpolation == "nearest"  # torchvision's default
    torch = torch_cpu
    with pytest.raises(TypeError, match="uint8, uint16 and float32"):
        RandomRotation(10)(torch.zeros(5, 5, dtype=torch.int64))
    with pytest.raises(ValueError, match="fill has 3 values for 1 channels"):
        RandomRotation((10, 10), fill=[1, 2, 3])(torch.zeros(1, 5, 5))
    assert RandomRotation((0, 0))(torch.zeros(5, 5)).shape == (5, 5)
    assert "degrees=[-10.0, 10.0]" in repr(RandomRotation(10))


def test_random_rotation_with_torchvision(torch_cpu):
    torch = torch_cpu
    pytest.importorskip("torchvision", reason="torchvision is not installed")
    from torchvision import tv_tensors
    from torchvision.transforms import InterpolationMode

    from gpurotate.torch import RandomRotation

    image = tv_tensors.Image(torch.from_numpy(random_array((3, 12, 16), np.uint8, seed=16)))
    mask = tv_tensors.Mask(torch.from_numpy(random_array((1, 12, 16), np.uint8, seed=17)))
    transform = RandomRotation((10, 30), interpolation=InterpolationMode.BILINEAR, fill={tv_tensors.Image: 127, tv_tensors.Mask: 0},
                               generator=torch.Generator().manual_seed(4))
    angle = RandomRotation((10, 30), generator=torch.Generator().manual_seed(4)).draw()
    out_image, out_mask = transform(image, mask)
    assert type(out_image) is tv_tensors.Image and type(out_mask) is tv_tensors.Mask
    np.testing.assert_array_equal(out_image.numpy(), gpurotate.rotate(image.numpy(), -angle, layout="chw", expand=False, fill=127))
    # Masks: nearest, whatever the transform's interpolation.
    np.testing.assert_array_equal(out_mask.numpy(), gpurotate.rotate(mask.numpy(), -angle, layout="chw", expand=False, interpolation="nearest"))
    # Boxes follow an exact quarter turn (torchvision's 90 is counter-clockwise: gpurotate's rot270).
    boxes = tv_tensors.BoundingBoxes(torch.tensor([[1.0, 2.0, 5.0, 4.0]]), format="XYXY", canvas_size=(12, 16))
    out_image, out_boxes = RandomRotation((90, 90), expand=True)(image, boxes)
    np.testing.assert_array_equal(out_image.numpy(), np.rot90(image.numpy(), 1, axes=(1, 2)))
    assert tuple(out_boxes.canvas_size) == (16, 12)
    np.testing.assert_array_equal(out_boxes.numpy(), gpurotate.transform_boxes(boxes.numpy(), "rot270", (12, 16), format="xyxy"))
    with pytest.raises(NotImplementedError, match="multiple of 90"):
        RandomRotation(10)(image, boxes)
    with pytest.raises(ValueError, match="expand=True"):
        RandomRotation((90, 90))(image, boxes)  # non-square, kept size: not a D4 element
    same, same_boxes = RandomRotation((180, 180))(image, boxes)
    np.testing.assert_array_equal(same.numpy(), np.rot90(image.numpy(), 2, axes=(1, 2)))


def test_the_direction_is_torchvisions_negated(torch_cpu):
    """torchvision's rotate(img, a) turns counter-clockwise: gpurotate.rotate(img, -a) is the same turn. Nearest
    neighbours agree on all but the pixels whose centres fall near a rounding boundary (torchvision samples in
    float through grid_sample, OpenCV in 1/32 pixel); quarter turns agree everywhere. (Expanded canvases may
    differ by a pixel: torchvision rounds the canvas its own way.)"""
    torch = torch_cpu
    pytest.importorskip("torchvision", reason="torchvision is not installed")
    from torchvision.transforms import InterpolationMode
    from torchvision.transforms.v2 import functional as F

    image = torch.from_numpy(random_array((3, 41, 57), np.uint8, seed=22))
    for angle in (30, -12.5, 90, 135, -90):
        theirs = F.rotate(image, angle, interpolation=InterpolationMode.NEAREST, expand=False)
        ours = gpurotate.rotate(image, -angle, interpolation="nearest", expand=False, layout="chw")
        agree = (theirs == ours).float().mean().item()
        assert agree == 1.0 if angle % 90 == 0 else agree > 0.97, (angle, agree)


# ---- CUDA: the CPU's bytes ----


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_torch_cuda_gives_the_cpu_bytes(torch_cuda, dtype):
    torch = torch_cuda
    for layout, shape in [("hw", (37, 53)), ("hwc", (31, 29, 3)), ("nchw", (3, 2, 40, 24)), ("nhwc", (2, 17, 23, 4))]:
        x = random_array(shape, dtype, seed=18)
        fill = [5] * shape[-1] if layout in ("hwc", "nhwc") else 5
        for interpolation in INTERPOLATIONS:
            for angle in (7.5, -100):
                for expand in (True, False):
                    want = gpurotate.rotate(x, angle, interpolation=interpolation, expand=expand, fill=fill, layout=layout)
                    t = torch.from_numpy(x.view(np.uint8)).cuda().view(getattr(torch, np.dtype(dtype).name)).reshape(shape)
                    got = gpurotate.rotate(t, angle, interpolation=interpolation, expand=expand, fill=fill, layout=layout)
                    assert got.device == t.device
                    np.testing.assert_array_equal(got.cpu().view(torch.uint8).numpy().view(dtype).reshape(want.shape), want)
    # Per-sample angles, a stream of the caller's.
    x = random_array((4, 3, 32, 32), np.uint8, seed=19)
    angles = [0, 10, -20, 33]
    want = gpurotate.rotate(x, angles, layout="nchw", expand=False)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        got = gpurotate.rotate(torch.from_numpy(x).cuda(), angles, layout="nchw", expand=False)
    stream.synchronize()
    np.testing.assert_array_equal(got.cpu().numpy(), want)
    x_cuda = torch.from_numpy(x).cuda()
    torch.cuda.synchronize()  # x_cuda written on the current stream; the rotation goes on `stream`
    got = gpurotate.rotate(x_cuda, angles, layout="nchw", expand=False, stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(got.cpu().numpy(), want)


@pytest.mark.gpu
def test_random_rotation_on_cuda(torch_cuda):
    torch = torch_cuda
    from gpurotate.torch import RandomRotation

    x = torch.from_numpy(random_array((2, 3, 24, 20), np.uint8, seed=20))
    want = RandomRotation(45, interpolation="bilinear", generator=torch.Generator().manual_seed(3))(x)
    got = RandomRotation(45, interpolation="bilinear", generator=torch.Generator().manual_seed(3))(x.cuda())
    assert got.device.type == "cuda"
    np.testing.assert_array_equal(got.cpu().numpy(), want.numpy())


@pytest.mark.gpu
@pytest.mark.parametrize("dtype", DTYPES)
def test_cupy_gives_the_cpu_bytes(cupy, dtype):
    x = random_array((2, 29, 31, 3), dtype, seed=21)
    for interpolation in INTERPOLATIONS:
        want = gpurotate.rotate(x, [15, -15], interpolation=interpolation, fill=[1, 2, 3], layout="nhwc")
        got = gpurotate.rotate(cupy.asarray(x), [15, -15], interpolation=interpolation, fill=[1, 2, 3], layout="nhwc")
        assert isinstance(got, cupy.ndarray)
        np.testing.assert_array_equal(cupy.asnumpy(got), want)
