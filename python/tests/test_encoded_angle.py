"""gpurotate.transform_encoded(..., angle=) against the CLI: the bytes `gpurotate IN --OP --rotate DEG
[--interpolate I] [--keep-size] [--background C] -o OUT` writes, for every element, a few angles, each
interpolation, expanded and kept, to PNG and JPEG; a whole number of quarter turns is the lossless element; the
CLI's refusals of an angle are the package's."""

import math
import struct
import zlib
import warnings

import numpy as np
import pytest

import gpurotate
from image_files import cli_output_bytes, png_bytes

ELEMENTS = [gpurotate.name(gpurotate.Orientation(code)) for code in range(8)]
ANGLES = [7.5, -30.0, 135.25]


def _flags(op):
    return [] if op == "identity" else [f"--{op}"]


@pytest.fixture(scope="module")
def inputs(cli, tmp_path_factory):
    """Small images of odd sizes: an RGB PNG, an RGBA PNG, a grey PNG and a JPEG (made by the CLI, 8x8 blocks
    partial on both axes)."""
    folder = tmp_path_factory.mktemp("encoded-angle")
    rng = np.random.default_rng(17)
    images = {
        "rgb.png": png_bytes(rng.integers(0, 256, size=(19, 29, 3), dtype=np.uint8)),
        "rgba.png": png_bytes(rng.integers(0, 256, size=(13, 11, 4), dtype=np.uint8)),
        "grey.png": png_bytes(rng.integers(0, 256, size=(9, 14), dtype=np.uint8)),
    }
    (folder / "src.png").write_bytes(png_bytes(rng.integers(0, 256, size=(21, 35, 3), dtype=np.uint8)))
    cli(folder / "src.png", "--quality", "87", "-o", folder / "in.jpg")
    images["in.jpg"] = (folder / "in.jpg").read_bytes()
    return images


_cli_bytes = cli_output_bytes


def _ours(data, op, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the re-encoding's warning has its own test
        return gpurotate.transform_encoded(data, op, **options)


@pytest.mark.parametrize("op", ELEMENTS)
def test_every_element_and_angle_is_the_clis(cli, tmp_path, op, inputs):
    for angle in ANGLES + [90.0, -270.0]:
        for name, data in inputs.items():
            flags = [*_flags(op), f"--rotate={angle!r}"]
            assert _ours(data, op, angle=angle) == _cli_bytes(cli, tmp_path, data, name, "out" + name[-4:], *flags), (name, angle)
        # A JPEG to a PNG too: the decoded pixels rotated.
        assert _ours(inputs["in.jpg"], op, angle=angle, format="png") == _cli_bytes(cli, tmp_path, inputs["in.jpg"], "in.jpg", "out.png",
                                                                                      *_flags(op), f"--rotate={angle!r}")


@pytest.mark.parametrize("interpolation", ["nearest", "bilinear", "bicubic"])
@pytest.mark.parametrize("expand", [True, False], ids=["expand", "keep"])
def test_each_interpolation_expanded_and_kept_is_the_clis(cli, tmp_path, interpolation, expand, inputs):
    for op, angle in (("identity", 7.5), ("rot90", -30.0), ("transverse", 135.25)):
        for name, data in inputs.items():
            flags = [*_flags(op), f"--rotate={angle!r}", "--interpolate", interpolation, *([] if expand else ["--keep-size"])]
            ours = _ours(data, op, angle=angle, interpolation=interpolation, expand=expand)
            assert ours == _cli_bytes(cli, tmp_path, data, name, "out" + name[-4:], *flags), (op, angle, name)


def test_a_fill_is_the_clis_background(cli, tmp_path, inputs):
    for name, data in inputs.items():
        for fill, text in (("#369", "#369"), ((200, 10, 255), "#c80aff"), ("white", "white")):
            flags = ["--rotate", "20", "--background", text]
            assert _ours(data, [], angle=20, fill=fill) == _cli_bytes(cli, tmp_path, data, name, "out" + name[-4:], *flags), (name, fill)
    # None is no --background: 0 in every channel, transparent where there is alpha.
    assert _ours(inputs["rgba.png"], [], angle=20) == _cli_bytes(cli, tmp_path, inputs["rgba.png"], "in.png", "out.png", "--rotate", "20")


def test_a_quarter_turn_angle_is_the_lossless_element(inputs):
    jpeg = inputs["in.jpg"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a lossless turn says nothing
        for op, angle, same in (("identity", 90, "rot90"), ("identity", 450, "rot90"), ("flip-h", -270, ["flip-h", "rot90"]), ("rot90", 0, "rot90")):
            assert gpurotate.transform_encoded(jpeg, op, angle=angle, jpeg_edge="trim") == gpurotate.transform_encoded(jpeg, same, jpeg_edge="trim")


def test_a_rotated_jpeg_is_reencoded_with_a_warning(inputs):
    with pytest.warns(UserWarning, match="JPEG re-encoded at the input's quality, not transformed losslessly: it is rotated by 7.5 degrees"):
        gpurotate.transform_encoded(inputs["in.jpg"], "rot90", angle=7.5)
    with pytest.warns(UserWarning, match="re-encoded at quality 70"):
        gpurotate.transform_encoded(inputs["in.jpg"], "rot90", angle=7.5, quality=70)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a PNG is written from the rotated pixels as always: nothing to say
        gpurotate.transform_encoded(inputs["rgb.png"], "rot90", angle=7.5)


def test_many_and_a_session_method_take_the_angle(inputs):
    data = [inputs["rgb.png"], inputs["grey.png"]]
    each = [gpurotate.transform_encoded(d, "flip-v", angle=-12.5, interpolation="bicubic", expand=False) for d in data]
    assert gpurotate.transform_encoded_many(data, "flip-v", angle=-12.5, interpolation="bicubic", expand=False) == each


@pytest.mark.parametrize("angle", [math.nan, math.inf, -math.inf])
def test_an_angle_that_is_not_finite_is_the_clis_usage_error(cli, tmp_path, inputs, angle):
    with pytest.raises(gpurotate.UsageError, match="expected a finite number of degrees") as raised:
        gpurotate.transform_encoded(inputs["rgb.png"], "rot90", angle=angle)
    (tmp_path / "in.png").write_bytes(inputs["rgb.png"])
    refused = cli(tmp_path / "in.png", f"--rotate={angle}", "-o", tmp_path / "out.png", check=False)
    assert raised.value.code == refused.returncode == 2
    assert not (tmp_path / "out.png").exists()


@pytest.mark.parametrize("angle", ["7.5", b"7", None, [7.5], True])
def test_an_angle_that_is_no_number_is_a_type_error(inputs, angle):
    with pytest.raises(TypeError, match="angle is a real number"):
        gpurotate.transform_encoded(inputs["rgb.png"], "rot90", angle=angle)


def test_refusals_of_the_other_options(inputs):
    data = inputs["rgb.png"]
    with pytest.raises(gpurotate.UsageError, match="interpolation 'cubic'"):
        gpurotate.transform_encoded(data, [], angle=5, interpolation="cubic")
    with pytest.raises(gpurotate.UsageError, match="--background red: expected #rgb"):
        gpurotate.transform_encoded(data, [], angle=5, fill="red")
    with pytest.raises(gpurotate.UsageError, match="0 to 255"):
        gpurotate.transform_encoded(data, [], angle=5, fill=(0, 0, 256))
    with pytest.raises(TypeError, match="fill is the CLI's --background"):
        gpurotate.transform_encoded(data, [], angle=5, fill=0.5)
    with pytest.raises(gpurotate.UsageError, match="jpeg_edge=\"error\" refuses"):
        gpurotate.transform_encoded(inputs["in.jpg"], [], angle=5, jpeg_edge="error")


def test_a_canvas_over_the_pixel_limit_is_refused_from_the_header_as_the_cli_refuses_it(cli, tmp_path):
    """A PNG whose IHDR declares 30000 x 30000 (under the default limit of 2^30 pixels) and whose data end at
    once: turned by 45 degrees its canvas, 42427 x 42427 by the issue's formula, is over the limit, and that is the
    refusal, not the truncated body's (which --keep-size, needing no larger canvas, reaches)."""
    header = struct.pack(">IIBBBBB", 30000, 30000, 8, 2, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + header + struct.pack(">I", zlib.crc32(b"IHDR" + header))
    side = math.ceil(30000 * 2 * math.cos(math.radians(45)) - 1e-6)
    with pytest.raises(gpurotate.Error, match=f"rotated would be {side}x{side}, over --max-pixels 1073741824") as raised:
        gpurotate.transform_encoded(data, [], angle=45)
    (tmp_path / "in.png").write_bytes(data)
    refused = cli(tmp_path / "in.png", "--rotate", "45", "-o", tmp_path / "out.png", check=False)
    assert raised.value.code == refused.returncode == 3
    assert f"rotated would be {side}x{side}" in refused.stderr.decode()
    with pytest.raises(gpurotate.Error, match="cannot decode"):
        gpurotate.transform_encoded(data, [], angle=45, expand=False)
