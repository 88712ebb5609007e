"""gpurotate.transform_encoded against the CLI: for every element, a JPEG's bytes (lossless where the CLI is
lossless, under each --jpeg-edge, at a --quality) and a PNG's (8- and 16-bit, a text chunk kept or --strip'ed)
are the bytes `gpurotate IN --OP -o OUT` writes, and the CLI's failures are the package's, message and code."""

import pathlib
import threading
import time

import numpy as np
import pytest

import gpurotate
from image_files import cli_output_bytes, png_bytes

SAMPLES = pathlib.Path(__file__).resolve().parents[2] / "samples"
ELEMENTS = [gpurotate.name(gpurotate.Orientation(code)) for code in range(8)]


_cli_bytes = cli_output_bytes


def _flags(op):
    return [] if op == "identity" else [f"--{op}"]


@pytest.fixture(scope="module")
def aligned_jpeg(cli, tmp_path_factory):
    """A 64 x 48 JPEG (whole MCUs: every element lossless), encoded by the CLI from a PNG."""
    folder = tmp_path_factory.mktemp("jpeg")
    rng = np.random.default_rng(5)
    (folder / "in.png").write_bytes(png_bytes(rng.integers(0, 256, size=(48, 64, 3), dtype=np.uint8)))
    cli(folder / "in.png", "-o", folder / "in.jpg")
    return (folder / "in.jpg").read_bytes()


@pytest.mark.parametrize("op", ELEMENTS)
def test_jpeg_is_the_clis(cli, tmp_path, op, aligned_jpeg):
    rocket = (SAMPLES / "rocket.jpg").read_bytes()  # 640 x 427: partial edge blocks
    for data in (aligned_jpeg, rocket):
        assert gpurotate.transform_encoded(data, op) == _cli_bytes(cli, tmp_path, data, "in.jpg", "out.jpg", *_flags(op))
        for edge in ("trim", "keep"):
            ours = gpurotate.transform_encoded(data, op, jpeg_edge=edge)
            assert ours == _cli_bytes(cli, tmp_path, data, "in.jpg", "out.jpg", *_flags(op), "--jpeg-edge", edge), edge
    ours = gpurotate.transform_encoded(rocket, op, quality=80)
    assert ours == _cli_bytes(cli, tmp_path, rocket, "in.jpg", "out.jpg", *_flags(op), "--quality", "80")
    ours = gpurotate.transform_encoded(rocket, op, format="png")
    assert ours == _cli_bytes(cli, tmp_path, rocket, "in.jpg", "out.png", *_flags(op))


def test_a_lossless_turn_keeps_the_coefficients(aligned_jpeg):
    # Four quarter turns of a JPEG of whole MCUs give its bytes back only if none re-encodes; the CLI says
    # no more than that, byte for byte, in test_jpeg_is_the_clis.
    data = aligned_jpeg
    for _ in range(4):
        data = gpurotate.transform_encoded(data, "rot90", jpeg_edge="error")
    assert gpurotate.transform_encoded(data, "identity") == gpurotate.transform_encoded(aligned_jpeg, "identity")


@pytest.mark.parametrize("op", ELEMENTS)
def test_png_is_the_clis(cli, tmp_path, op):
    rng = np.random.default_rng(1)
    inputs = [
        (SAMPLES / "coffee.png").read_bytes(),
        (SAMPLES / "coffee-16bit.png").read_bytes(),
        png_bytes(rng.integers(0, 256, size=(5, 7, 4), dtype=np.uint8), text=("Comment", "kept")),
        png_bytes(rng.integers(0, 256, size=(3, 9), dtype=np.uint8)),
    ]
    for data in inputs:
        assert gpurotate.transform_encoded(data, op) == _cli_bytes(cli, tmp_path, data, "in.png", "out.png", *_flags(op))
    text = inputs[2]
    assert b"Comment" in gpurotate.transform_encoded(text, op)
    stripped = gpurotate.transform_encoded(text, op, strip=True)
    assert b"Comment" not in stripped
    assert stripped == _cli_bytes(cli, tmp_path, text, "in.png", "out.png", *_flags(op), "--strip")
    ours = gpurotate.transform_encoded(inputs[0], op, format="jpg", quality=90)
    assert ours == _cli_bytes(cli, tmp_path, inputs[0], "in.png", "out.jpg", *_flags(op), "--quality", "90")


def test_standard_output_is_the_same(cli):
    data = (SAMPLES / "rocket.jpg").read_bytes()
    assert gpurotate.transform_encoded(data, ["rot90", "flip-h"]) == cli("-", "--rot90", "--flip-h", "-o", "jpg:-", input=data).stdout
    png = (SAMPLES / "coffee.png").read_bytes()
    assert gpurotate.transform_encoded(png, "rot270", format=".PNG") == cli("-", "--rot270", "-o", "-", input=png).stdout


def test_ops_as_apply_takes_them():
    data = (SAMPLES / "coffee.png").read_bytes()
    composed = gpurotate.transform_encoded(data, "transpose")
    assert gpurotate.transform_encoded(data, ["rot90", "flip-h"]) == composed
    assert gpurotate.transform_encoded(data, gpurotate.Orientation.transpose) == composed
    assert gpurotate.transform_encoded(bytearray(data), 6) == composed
    assert gpurotate.transform_encoded(memoryview(data), "transpose") == composed


def test_many_is_each_in_turn(aligned_jpeg):
    inputs = [(SAMPLES / "coffee.png").read_bytes(), (SAMPLES / "rocket.jpg").read_bytes(), aligned_jpeg]
    for op in ("rot90", ["flip-v", "rot180"]):
        assert gpurotate.transform_encoded_many(inputs, op) == [gpurotate.transform_encoded(d, op) for d in inputs]
    assert gpurotate.transform_encoded_many([], "rot90") == []


def _cli_error(cli, tmp_path, data, name, *flags):
    (tmp_path / name).write_bytes(data)
    result = cli(tmp_path / name, *flags, "-o", tmp_path / ("out" + pathlib.Path(name).suffix), "--overwrite", check=False)
    return result.returncode, result.stderr.decode()


FAILURES = [
    (b"garbage", "in.png", {}, []),
    ((SAMPLES / "coffee.png").read_bytes()[:300], "in.png", {}, []),
    (b"", "in.png", {}, []),
    ((SAMPLES / "rocket.jpg").read_bytes(), "in.jpg", {"jpeg_edge": "error"}, ["--jpeg-edge", "error"]),
]


@pytest.mark.parametrize("data, name, kwargs, flags", FAILURES, ids=["not an image", "truncated", "empty", "jpeg-edge error"])
def test_failures_are_the_clis(cli, tmp_path, data, name, kwargs, flags):
    with pytest.raises(gpurotate.Error) as raised:
        gpurotate.transform_encoded(data, "rot90", **kwargs)
    status, stderr = _cli_error(cli, tmp_path, data, name, "--rot90", *flags)
    assert raised.value.code == status and status in (3, 4)
    path = str(tmp_path / name)
    assert str(raised.value).replace("'bytes'", f"'{path}'") in stderr, (str(raised.value), stderr)


def test_usage_errors():
    data = (SAMPLES / "coffee.png").read_bytes()
    with pytest.raises(gpurotate.UsageError) as raised:
        gpurotate.transform_encoded(data, "rot90", format="xyz")
    assert raised.value.code == 2
    with pytest.raises(gpurotate.UsageError, match="jpeg_edge 'lossless'"):
        gpurotate.transform_encoded(data, "rot90", jpeg_edge="lossless")
    with pytest.raises(gpurotate.UsageError, match="quality 101"):
        gpurotate.transform_encoded(data, "rot90", quality=101)
    with pytest.raises(gpurotate.UsageError, match="quality 0"):  # not taken for "no quality"
        gpurotate.transform_encoded(data, "rot90", quality=0)
    with pytest.raises(TypeError):
        gpurotate.transform_encoded("not bytes", "rot90")
    with pytest.raises(ValueError):
        gpurotate.transform_encoded(data, "rot91")
    with pytest.raises(ValueError, match="device 'gpu'"):
        gpurotate.transform_encoded(data, "rot90", device="gpu")


def test_many_names_the_image_that_fails():
    good = (SAMPLES / "coffee.png").read_bytes()
    with pytest.raises(gpurotate.Error, match=r"'bytes\[1\]'"):
        gpurotate.transform_encoded_many([good, b"garbage", good], "rot90")


def test_the_gil_is_released():
    rng = np.random.default_rng(2)
    big = png_bytes(rng.integers(0, 256, size=(1200, 1600, 3), dtype=np.uint8))
    inputs = [big] * 4
    started = time.perf_counter()
    gpurotate.transform_encoded_many(inputs, "rot90")
    alone = time.perf_counter() - started
    # While a thread converts, this one runs: the longest pause between its steps is a small part of the call.
    worker = threading.Thread(target=gpurotate.transform_encoded_many, args=(inputs, "rot90"))
    steps = []
    worker.start()
    while worker.is_alive():
        steps.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    gaps = np.diff(steps) if len(steps) > 1 else [alone]
    assert len(steps) > 10 and max(gaps) < alone / 2, (alone, len(steps), max(gaps))


# ---- gpurotate.Session: the GPU's resources opened once; the CLI's bytes (which are the CPU backend's).

requires_gpu = pytest.mark.skipif(not gpurotate.cuda_available(), reason="no CUDA device")


@pytest.fixture(scope="module")
def session():
    return gpurotate.Session("cuda:0")


@requires_gpu
@pytest.mark.parametrize("op", ELEMENTS)
def test_a_session_gives_the_clis_bytes(cli, tmp_path, op, aligned_jpeg, session):
    assert session.transform_encoded(aligned_jpeg, op) == _cli_bytes(cli, tmp_path, aligned_jpeg, "in.jpg", "out.jpg", *_flags(op))
    rng = np.random.default_rng(11)
    png = png_bytes(rng.integers(0, 65536, size=(37, 53, 3), dtype=np.uint16))
    assert session.transform_encoded(png, op) == _cli_bytes(cli, tmp_path, png, "in.png", "out.png", *_flags(op))
    assert session.transform_encoded(aligned_jpeg, op, quality=90) == _cli_bytes(cli, tmp_path, aligned_jpeg, "in.jpg", "q.jpg",
                                                                                 *_flags(op), "--quality", "90")


@requires_gpu
def test_a_device_names_this_processs_session(aligned_jpeg, session):
    # device="cuda" opens one Session per process and device, kept for the next call; it gives a session's bytes.
    first = gpurotate.transform_encoded(aligned_jpeg, "rot90", device="cuda")
    assert gpurotate.transform_encoded_many([aligned_jpeg, aligned_jpeg], "rot90", device="cuda:0") == [first, first]
    assert first == session.transform_encoded(aligned_jpeg, "rot90")
    assert session.device == "cuda:0" and "cuda:0" in repr(session)


@requires_gpu
def test_a_session_fails_as_the_cli(session):
    with pytest.raises(gpurotate.Error) as failed:
        session.transform_encoded(b"\xff\xd8\xff\xe0 damaged", "rot90")
    assert failed.value.code == 3 and "bytes" in str(failed.value)
    with pytest.raises(gpurotate.Error) as failed:  # and is usable after a failure
        session.transform_encoded_many([b"not an image"], "rot90")
    assert failed.value.code == 3


def test_a_session_without_a_gpu_says_why():
    with pytest.raises(ValueError, match="'cpu', 'cuda', 'cuda:N'"):
        gpurotate.Session("gpu")
    with pytest.raises(ValueError, match="gpu_memory"):
        gpurotate.Session("cuda", gpu_memory=-1)
    if gpurotate.cuda_available():
        with pytest.raises(gpurotate.DeviceError):
            gpurotate.Session(1000)  # no such device
    else:
        with pytest.raises(gpurotate.DeviceError):
            gpurotate.Session()
        with pytest.raises(gpurotate.DeviceError):
            gpurotate.transform_encoded(b"x", "rot90", device="cuda")
