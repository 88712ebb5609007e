"""gpurotate.apply on the CPU: every element, layout and dtype against NumPy's rot90 / flip / swapaxes."""

import itertools
import subprocess
import sys

import numpy as np
import pytest

import gpurotate
from reference import DTYPES, NAMES, SHAPES, random_array, reference, reference_per_sample

CASES = [(layout, shape) for layout, shapes in SHAPES.items() for shape in shapes]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout,shape", CASES, ids=[f"{l}-{'x'.join(map(str, s))}" for l, s in CASES])
@pytest.mark.parametrize("name", NAMES)
def test_every_element_layout_dtype(name, layout, shape, dtype):
    x = random_array(shape, dtype)
    y = gpurotate.apply(x, name, layout=layout)
    expected = reference(x, name, layout)
    assert y.dtype == x.dtype and y.shape == expected.shape
    np.testing.assert_array_equal(y, expected)


def test_rot90_is_clockwise():
    x = np.arange(6, dtype=np.uint8).reshape(2, 3)  # [[0 1 2], [3 4 5]]
    assert gpurotate.apply(x, "rot90").tolist() == [[3, 0], [4, 1], [5, 2]]
    np.testing.assert_array_equal(gpurotate.apply(x, "rot90"), np.rot90(x, k=-1))
    # numpy.rot90(k=1), like torch.rot90, turns counter-clockwise: gpurotate's rot270.
    np.testing.assert_array_equal(gpurotate.apply(x, "rot270"), np.rot90(x, k=1))


@pytest.mark.parametrize("first,second", list(itertools.product(NAMES, NAMES)))
def test_sequences_compose_in_order(first, second):
    x = random_array((5, 7, 3), np.uint8)
    expected = reference(reference(x, first, "hwc"), second, "hwc")
    np.testing.assert_array_equal(gpurotate.apply(x, [first, second]), expected)


def test_compose_names_codes_and_members():
    assert gpurotate.compose(["rot90", "flip-h"]) == gpurotate.Orientation.transpose
    assert gpurotate.compose(["flip-h", "rot90"]) == gpurotate.Orientation.transverse
    assert gpurotate.compose([1, gpurotate.Orientation.rot90, "rot180"]) == gpurotate.Orientation.identity
    assert gpurotate.compose("flip_h") == gpurotate.Orientation.flip_h
    assert gpurotate.compose([]) == gpurotate.Orientation.identity
    assert [int(gpurotate.element(n)) for n in NAMES] == list(range(8))
    assert list(gpurotate.NAMES) == NAMES


def test_group_helpers():
    O = gpurotate.Orientation
    for o in O:
        assert gpurotate.then(o, gpurotate.inverse(o)) == O.identity
        assert gpurotate.swaps_axes(o) == (o in (O.rot90, O.rot270, O.transpose, O.transverse))
        assert gpurotate.element(gpurotate.name(o)) == o


def test_group_helpers_take_what_apply_takes():
    # Every spelling apply takes (a CLI name, with "_" too, a code, a NumPy integer, a member), checked by its
    # action on an array through NumPy's reference: then(a, b) acts as a then b, inverse(a) undoes a.
    x = random_array((3, 5), np.uint8)
    O = gpurotate.Orientation
    for first, second in itertools.product(NAMES, NAMES):
        expected = reference(reference(x, first, "hw"), second, "hw")
        for a, b in [(first, second), (first.replace("-", "_"), NAMES.index(second)), (np.int64(NAMES.index(first)), O(NAMES.index(second)))]:
            composed = gpurotate.then(a, b)
            assert type(composed) is O
            np.testing.assert_array_equal(reference(x, gpurotate.name(composed), "hw"), expected)
        for a in (first, first.replace("-", "_"), NAMES.index(first), O(NAMES.index(first))):
            np.testing.assert_array_equal(reference(reference(x, first, "hw"), gpurotate.name(gpurotate.inverse(a)), "hw"), x)
            assert gpurotate.swaps_axes(a) == (reference(x, first, "hw").shape != x.shape)
            assert gpurotate.name(a) == first
    assert gpurotate.inverse(element=O.rot90) == O.rot270  # the keyword as the module names it
    with pytest.raises(ValueError, match="unknown operation 'rot45'"):
        gpurotate.then("rot45", "rot90")
    with pytest.raises(ValueError, match="0-7"):
        gpurotate.inverse(8)
    with pytest.raises(TypeError, match="an operation is"):
        gpurotate.inverse(1.5)


@pytest.mark.parametrize("layout,shape", [("nchw", (6, 3, 9, 9)), ("nhwc", (6, 9, 9, 4)), ("nchw", (8, 2, 5, 5))])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_per_sample_elements(layout, shape, dtype):
    x = random_array(shape, dtype)
    codes = [i % 8 for i in range(shape[0])]
    y = gpurotate.apply(x, elements=codes, layout=layout)
    np.testing.assert_array_equal(y, reference_per_sample(x, [NAMES[c] for c in codes], layout))


def test_per_sample_element_forms():
    x = random_array((4, 2, 6, 6), np.float32)
    names = ["rot90", "flip-v", "identity", "transverse"]
    expected = reference_per_sample(x, names, "nchw")
    for elements in (names, [1, 5, 0, 7], np.array([1, 5, 0, 7]), [gpurotate.element(n) for n in names]):
        np.testing.assert_array_equal(gpurotate.apply(x, elements=elements, layout="nchw"), expected)


def test_per_sample_non_square_needs_one_kind_of_element():
    x = random_array((3, 2, 4, 6), np.uint8)
    swapping = ["rot90", "transpose", "rot270"]
    y = gpurotate.apply(x, elements=swapping, layout="nchw")
    assert y.shape == (3, 2, 6, 4)
    np.testing.assert_array_equal(y, reference_per_sample(x, swapping, "nchw"))
    keeping = ["flip-h", "rot180", "identity"]
    np.testing.assert_array_equal(gpurotate.apply(x, elements=keeping, layout="nchw"), reference_per_sample(x, keeping, "nchw"))
    with pytest.raises(ValueError, match="non-square"):
        gpurotate.apply(x, elements=["rot90", "flip-h", "identity"], layout="nchw")


def test_large_batch_spreads_over_cores_and_beyond_one_launch():
    # More planes than one GPU launch takes (65535) and than cores: the CPU's parallel path.
    x = random_array((70000, 1, 2, 3), np.uint8)
    np.testing.assert_array_equal(gpurotate.apply(x, "rot90", layout="nchw"), reference(x, "rot90", "nchw"))
    codes = np.array([0, 2, 4, 5])[np.arange(70000) % 4]  # the four that keep a 2x3 sample's shape
    y = gpurotate.apply(x, elements=codes, layout="nchw")
    np.testing.assert_array_equal(y, reference_per_sample(x, [NAMES[c] for c in codes], "nchw"))


def test_out_is_written_and_returned():
    x = random_array((5, 7, 3), np.uint16)
    out = np.zeros((7, 5, 3), np.uint16)
    assert gpurotate.apply(x, "transpose", out=out) is out
    np.testing.assert_array_equal(out, reference(x, "transpose", "hwc"))


TAKEN_AS_IS = [
    ("hw", lambda x: x[0, 0, 2:7, 3:12]),  # a crop: rows at a pitch
    ("hw", lambda x: x[0, 0, ::2]),  # every other row
    ("hwc", lambda x: np.moveaxis(x[0], 0, 2)[:, :, :3].copy()[1:6, 2:9]),  # a crop of an interleaved image
    ("chw", lambda x: x[0, ::2, 1:9, 2:11]),  # every other plane, cropped
    ("nchw", lambda x: x[::2, :, 1:9, 2:11]),  # every other sample, cropped
    ("nchw", lambda x: x[1:, 1:3]),  # some planes of some samples: samples in step with planes
    ("nhwc", lambda x: np.ascontiguousarray(np.moveaxis(x, 1, 3))[::3, 2:10, 1:12]),
]


@pytest.mark.parametrize("layout,make", TAKEN_AS_IS, ids=[f"{l}-{i}" for i, (l, _) in enumerate(TAKEN_AS_IS)])
@pytest.mark.parametrize("name", ["rot90", "transverse", "flip-h"])
def test_strides_with_a_row_pitch_are_taken_as_they_are(layout, make, name):
    x = make(random_array((5, 4, 12, 13), np.float32))
    assert not x.flags.c_contiguous
    np.testing.assert_array_equal(gpurotate.apply(x, name, layout=layout), reference(x, name, layout))
    if layout in ("nchw", "nhwc"):
        codes = [i % 8 for i in range(x.shape[0])] if x.shape[-2 if layout == "nhwc" else -1] == x.shape[-3 if layout == "nhwc" else -2] else None
        codes = codes or [1] * x.shape[0]
        np.testing.assert_array_equal(gpurotate.apply(x, elements=codes, layout=layout),
                                      reference_per_sample(x, [NAMES[c] for c in codes], layout))  # fmt: skip


def test_out_may_be_a_crop():
    x = random_array((5, 7, 3), np.uint16)
    canvas = np.zeros((20, 20, 3), np.uint16)
    out = canvas[4:11, 6:11]
    assert gpurotate.apply(x, "rot90", out=out) is out
    np.testing.assert_array_equal(canvas[4:11, 6:11], reference(x, "rot90", "hwc"))
    canvas[4:11, 6:11] = 0
    assert not canvas.any()  # nothing written outside the crop


def test_channels_last_memory_is_taken_as_it_is():
    # An NCHW-shaped array with NHWC memory (a channels_last tensor, numpy.moveaxis of NHWC): worked as nhwc,
    # no copy, and the result has the input's memory order.
    nhwc = random_array((3, 6, 9, 3), np.uint8)
    x = np.moveaxis(nhwc, 3, 1)
    for name in NAMES:
        y = gpurotate.apply(x, name, layout="nchw")
        np.testing.assert_array_equal(y, reference(x, name, "nchw"))
        assert np.moveaxis(y, 1, 3).flags.c_contiguous
    out = np.moveaxis(np.zeros((3, 9, 6, 3), np.uint8), 3, 1)
    assert gpurotate.apply(x, "transpose", layout="nchw", out=out) is out
    np.testing.assert_array_equal(out, reference(x, "transpose", "nchw"))
    codes = [1, 1, 3]
    np.testing.assert_array_equal(gpurotate.apply(x, elements=codes, layout="nchw"), reference_per_sample(x, ["rot90", "rot90", "rot270"], "nchw"))
    image = np.moveaxis(random_array((7, 5, 4), np.float32), 2, 0)  # CHW shape, HWC memory
    np.testing.assert_array_equal(gpurotate.apply(image, "rot270"), reference(image, "rot270", "chw"))


def test_layout_inference():
    assert gpurotate.infer_layout((4, 5)) == "hw"
    assert gpurotate.infer_layout((4, 5, 3)) == "hwc"
    assert gpurotate.infer_layout((3, 224, 224)) == "chw"
    assert gpurotate.infer_layout((8, 224, 224, 3)) == "nhwc"
    assert gpurotate.infer_layout((8, 3, 224, 224)) == "nchw"
    with pytest.raises(ValueError):
        gpurotate.infer_layout((2, 3, 4, 5, 6))
    x = random_array((3, 8, 9), np.uint8)
    np.testing.assert_array_equal(gpurotate.apply(x, "rot90"), reference(x, "rot90", "chw"))
    # An explicit layout wins over the rule, which reads a 4x4x3 array as 4x4 pixels of 3 channels.
    small = random_array((4, 4, 3), np.uint8)
    np.testing.assert_array_equal(gpurotate.apply(small, "rot90", layout="chw"), reference(small, "rot90", "chw"))
    np.testing.assert_array_equal(gpurotate.apply(small, "rot90"), reference(small, "rot90", "hwc"))


def test_read_only_input_and_buffer_protocol():
    x = random_array((6, 4), np.float32)
    x.flags.writeable = False
    np.testing.assert_array_equal(gpurotate.apply(x, "rot180"), reference(x, "rot180", "hw"))
    view = memoryview(random_array((3, 5), np.uint8))
    y = gpurotate.apply(view, "flip-v")
    assert isinstance(y, np.ndarray)
    np.testing.assert_array_equal(y, reference(np.asarray(view), "flip-v", "hw"))


def test_empty_arrays():
    x = np.zeros((0, 3, 4, 5), np.uint8)
    assert gpurotate.apply(x, "rot90", layout="nchw").shape == (0, 3, 5, 4)
    assert gpurotate.apply(x, elements=[], layout="nchw").shape == (0, 3, 4, 5)
    assert gpurotate.apply(np.zeros((0, 7), np.uint8), "rot90").shape == (7, 0)


def test_torch_cpu_tensors():
    torch = pytest.importorskip("torch")
    x = torch.from_numpy(random_array((2, 3, 5, 7), np.uint8))
    y = gpurotate.apply(x, "rot90", layout="nchw")
    assert isinstance(y, torch.Tensor) and y.device.type == "cpu"
    np.testing.assert_array_equal(y.numpy(), reference(x.numpy(), "rot90", "nchw"))
    y = gpurotate.apply(x, elements=torch.tensor([1, 3]), layout="nchw")
    np.testing.assert_array_equal(y.numpy(), reference_per_sample(x.numpy(), ["rot90", "rot270"], "nchw"))


def test_versions_and_backends():
    assert gpurotate.__version__.count(".") == 2
    assert isinstance(gpurotate.built_with_cuda(), bool)
    assert not gpurotate.cuda_available() or gpurotate.built_with_cuda()


def test_import_does_not_import_frameworks():
    code = "import sys, gpurotate; print(sorted(m for m in ('torch', 'cupy', 'torchvision') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_calls_from_many_threads_at_once():
    # Large arrays split over the CPU backend's pool; one caller has it, the others start threads of their own.
    from concurrent.futures import ThreadPoolExecutor

    arrays = [random_array((1500, 1000, 3), np.uint8), random_array((700, 900), np.float32)]

    def check(i):
        x, name = arrays[i % 2], NAMES[i % len(NAMES)]
        np.testing.assert_array_equal(gpurotate.apply(x, name), reference(x, name, "hwc" if x.ndim == 3 else "hw"))
        return True

    with ThreadPoolExecutor(max_workers=6) as pool:
        assert all(pool.map(check, range(36)))


def test_a_forked_child_after_the_pool_started():
    if sys.platform != "linux":
        pytest.skip("fork start method")
    code = """
import multiprocessing as mp, numpy as np, gpurotate
x = np.arange(3000 * 2000, dtype=np.uint32).reshape(3000, 2000) % 251
gpurotate.apply(x.astype(np.uint8), "rot90")  # the pool is started
def child(q):
    y = x.astype(np.uint8)
    q.put(bool((gpurotate.apply(y, "transpose") == y.T).all()))
ctx = mp.get_context("fork")
q = ctx.Queue()
p = ctx.Process(target=child, args=(q,))
p.start()
print(q.get(timeout=60))
p.join(60)
print(p.exitcode)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "0"]


def test_daemon_threads_inside_calls_at_exit():
    # A daemon thread in a call when the interpreter finalizes: it used to abort the process (exit 134).
    code = """
import threading, time, numpy as np, gpurotate
small, large = np.zeros((64, 64, 3), np.uint8), np.zeros((1500, 2000, 3), np.uint8)
def spin(x):
    while True:
        gpurotate.apply(x, "rot90")
for x in (small, small, large, large):
    threading.Thread(target=spin, args=(x,), daemon=True).start()
time.sleep(0.2)
"""
    for _ in range(3):
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
