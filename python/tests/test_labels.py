"""gpurotate.transform_boxes and transform_points against an independent reference written here (the per-element
point formulas, hand-written, and box corners built from them), against gpurotate.apply's own pixels, and against
torchvision and albumentations where they are installed (skipped where not)."""

import numpy as np
import pytest

import gpurotate
from reference import NAMES, random_array

# A non-square canvas of odd sides: (H, W).
H, W = 37, 61

# The reference: where a point (x, y) goes under each element on an image W wide and H high, continuous
# coordinates (the image spans [0, W] x [0, H]). Written per element, not derived from gpurotate.
POINT = {
    "identity": lambda x, y, w, h: (x, y),
    "rot90": lambda x, y, w, h: (h - y, x),
    "rot180": lambda x, y, w, h: (w - x, h - y),
    "rot270": lambda x, y, w, h: (y, w - x),
    "flip-h": lambda x, y, w, h: (w - x, y),
    "flip-v": lambda x, y, w, h: (x, h - y),
    "transpose": lambda x, y, w, h: (y, x),
    "transverse": lambda x, y, w, h: (h - y, w - x),
}
SWAPS = {"rot90", "rot270", "transpose", "transverse"}
REFLECTIONS = {"flip-h", "flip-v", "transpose", "transverse"}
AXIS_ALIGNED = ["xyxy", "xywh", "cxcywh"]
ROTATED = ["xywhr", "cxcywhr", "xyxyxyxy"]


def out_canvas(name, h=H, w=W):
    return (w, h) if name in SWAPS else (h, w)


# The formats' own definitions (torchvision.tv_tensors.BoundingBoxFormat), written here for the reference.
def to_xyxy(b, fmt):
    b = np.asarray(b, dtype=np.float64)
    if fmt == "xyxy":
        return b.copy()
    if fmt == "xywh":
        return np.stack([b[:, 0], b[:, 1], b[:, 0] + b[:, 2], b[:, 1] + b[:, 3]], axis=1)
    return np.stack([b[:, 0] - b[:, 2] / 2, b[:, 1] - b[:, 3] / 2, b[:, 0] + b[:, 2] / 2, b[:, 1] + b[:, 3] / 2], axis=1)


def corners(b, fmt):
    """The 4 corners (N, 4, 2) of rotated boxes, in torchvision's order: (x1, y1) first, then along the width
    edge, direction (cos r, -sin r) with r counter-clockwise on the screen, then along the height edge,
    direction (sin r, cos r)."""
    b = np.asarray(b, dtype=np.float64)
    if fmt == "xyxyxyxy":
        return b.reshape(-1, 4, 2)
    w, h, r = b[:, 2], b[:, 3], np.radians(b[:, 4])
    along_w = np.stack([w * np.cos(r), -w * np.sin(r)], axis=1)
    along_h = np.stack([h * np.sin(r), h * np.cos(r)], axis=1)
    first = b[:, :2] if fmt == "xywhr" else b[:, :2] - along_w / 2 - along_h / 2
    return np.stack([first, first + along_w, first + along_w + along_h, first + along_h], axis=1)


def boxes_for(fmt, dtype=np.float64):
    """A few boxes inside the canvas, of exactly representable values (integer where the dtype is)."""
    if fmt == "xyxy":
        b = [[3, 4, 20, 30], [10.5, 2.25, 40, 12], [0, 0, W, H], [59, 1, 61, 36]]
    elif fmt == "xywh":
        b = [[3, 4, 17, 26], [10.5, 2.25, 29.5, 9.75], [0, 0, W, H], [59, 1, 2, 35]]
    elif fmt == "cxcywh":
        b = [[11.5, 17, 17, 26], [25, 7, 12, 8], [30.5, 18.5, W, H], [60, 18.5, 2, 35], [30, 18, 20, 10]]
    elif fmt == "xywhr":
        b = [[20, 15, 8, 4, 30], [30, 20, 6, 10, -70.5], [10, 10, 5, 3, 0], [40, 30, 9, 2, 90], [5, 20, 4, 4, 180]]
    elif fmt == "cxcywhr":
        b = [[20, 15, 8, 4, 30], [30, 20, 6, 10, 120], [10, 10, 5, 3, 0], [40, 30, 9, 2, -90], [5, 20, 4, 4, 180]]
    else:  # xyxyxyxy: a rectangle turned by 30 degrees about its first corner (not exact), and exact ones
        b = corners([[20, 15, 8, 4, 30]], "xywhr").reshape(-1, 8).tolist() + [
            [10, 10, 15, 10, 15, 13, 10, 13],  # r = 0
            [40, 30, 40, 21, 42, 21, 42, 30],  # r = 90
            [30, 5, 33, 8, 31, 10, 28, 7],  # a square's diagonal turn: r = -45
        ]
    if np.issubdtype(dtype, np.integer):
        b = [row for row in b if all(float(v).is_integer() for v in row)]
    return np.array(b, dtype=dtype)


def reference_boxes(b, fmt, name):
    """The reference transform of boxes: the corners mapped by POINT, then (axis-aligned) their least and greatest
    coordinates, or (rotated) the mapped corners in their order, reflections starting at the second."""
    out_h, out_w = out_canvas(name)
    if fmt in AXIS_ALIGNED:
        x1, y1, x2, y2 = to_xyxy(b, fmt).T
        xs, ys = zip(*(POINT[name](x, y, W, H) for x, y in ((x1, y1), (x2, y1), (x2, y2), (x1, y2))))
        xs, ys = np.stack(xs), np.stack(ys)
        xyxy = np.stack([xs.min(0), ys.min(0), xs.max(0), ys.max(0)], axis=1)
        return xyxy, (out_h, out_w)
    c = corners(b, fmt)
    x, y = POINT[name](c[..., 0], c[..., 1], W, H)
    mapped = np.stack([x, y], axis=-1)
    if name in REFLECTIONS:
        mapped = mapped[:, [1, 0, 3, 2]]
    return mapped, (out_h, out_w)


def angle_difference(a, b):
    return (np.asarray(a, np.float64) - np.asarray(b, np.float64) + 180) % 360 - 180


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("fmt", AXIS_ALIGNED)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.uint16])
def test_axis_aligned_boxes_every_element(name, fmt, dtype):
    b = boxes_for(fmt, dtype)
    got = gpurotate.transform_boxes(b, name, (H, W), format=fmt)
    assert type(got) is np.ndarray and got.dtype == b.dtype and got.shape == b.shape
    want, (out_h, out_w) = reference_boxes(b, fmt, name)
    np.testing.assert_array_equal(to_xyxy(got, fmt), want)  # exact: every value here is representable
    # Same size, w and h exchanged where the axes are.
    if fmt != "xyxy":
        sizes = b[:, [3, 2]] if name in SWAPS else b[:, [2, 3]]
        np.testing.assert_array_equal(got[:, 2:], sizes)
    assert (want >= 0).all() and (want[:, [2, 3]] <= [out_w, out_h]).all()  # inside the new canvas


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("fmt", ROTATED)
def test_rotated_boxes_every_element(name, fmt):
    b = boxes_for(fmt)
    got = gpurotate.transform_boxes(b, name, (H, W), format=fmt.upper())
    assert got.dtype == b.dtype and got.shape == b.shape
    want, _ = reference_boxes(b, fmt, name)
    np.testing.assert_allclose(corners(got, fmt), want, atol=1e-9)
    if fmt != "xyxyxyxy":
        np.testing.assert_array_equal(got[:, 2:4], b[:, 2:4])  # w and h kept: the angle turns instead
        assert ((got[:, 4] > -180) & (got[:, 4] <= 180)).all() or name == "identity"
        if fmt == "cxcywhr":  # the centre moves as a point, exactly
            np.testing.assert_array_equal(np.stack(POINT[name](b[:, 0], b[:, 1], W, H), axis=1), got[:, :2])


def test_rotated_angles_per_element():
    b = np.array([[30.0, 20, 6, 4, 30]])
    angles = {name: gpurotate.transform_boxes(b, name, (H, W), "cxcywhr")[0, 4] for name in NAMES}
    # rot90 is clockwise on the screen: a counter-clockwise angle drops by 90. flip-h and flip-v as torchvision's.
    assert angles == {"identity": 30, "rot90": -60, "rot180": -150, "rot270": 120, "flip-h": -30, "flip-v": 150,
                      "transpose": 60, "transverse": -120}  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_exact_rotated_boxes_stay_exact(name):
    # Right angles and xyxyxyxy corners: no trigonometry in the result, so exact, integers included.
    for fmt in ("cxcywhr", "xyxyxyxy"):
        b = boxes_for(fmt, np.int64)
        got = gpurotate.transform_boxes(b, name, (H, W), fmt)
        assert got.dtype == np.int64
        want, _ = reference_boxes(b, fmt, name)
        np.testing.assert_allclose(corners(got, fmt), want, atol=1e-9)
    # xywhr: integer boxes come back as float64 (a reflection's first corner is the mapped second one).
    got = gpurotate.transform_boxes(np.array([[10, 10, 5, 3, 0]]), name, (H, W), "xywhr")
    assert got.dtype == np.float64


@pytest.mark.parametrize("fmt", AXIS_ALIGNED + ROTATED)
def test_four_quarter_turns_give_the_input_back(fmt):
    # Exactly, for integers and for floats with bits to spare (here quarters: W - (W - x) is x): a quarter turn
    # moves the first corner as a point and turns the angle by whole degrees, no trigonometry.
    for dtype in (np.float64, np.float32, np.int64):
        if fmt == "xywhr" and dtype == np.int64:
            continue
        b = boxes_for(fmt, dtype)
        b = b[np.all(b * 4 == np.round(b * 4), axis=1)]
        assert len(b)
        canvas, out = (H, W), b
        for _ in range(4):
            out = gpurotate.transform_boxes(out, "rot90", canvas, fmt)
            canvas = canvas[::-1]
        np.testing.assert_array_equal(out, b)
        assert out.dtype == b.dtype


@pytest.mark.parametrize("fmt", AXIS_ALIGNED + ROTATED)
def test_compositions_agree_with_then(fmt):
    b = boxes_for(fmt)
    for first in NAMES:
        middle = gpurotate.transform_boxes(b, first, (H, W), fmt)
        for second in NAMES:
            twice = gpurotate.transform_boxes(middle, second, out_canvas(first), fmt)
            once = gpurotate.transform_boxes(b, gpurotate.then(first, second), (H, W), fmt)
            if fmt in ROTATED:
                np.testing.assert_allclose(corners(twice, fmt), corners(once, fmt), atol=1e-9)
            else:
                np.testing.assert_array_equal(twice, once)


def test_box_formats_agree_with_each_other():
    xyxy = boxes_for("xyxy")
    as_xywh = np.concatenate([xyxy[:, :2], xyxy[:, 2:] - xyxy[:, :2]], axis=1)
    as_cxcywh = np.concatenate([(xyxy[:, :2] + xyxy[:, 2:]) / 2, xyxy[:, 2:] - xyxy[:, :2]], axis=1)
    xywhr = boxes_for("xywhr")
    as_polygons = corners(xywhr, "xywhr").reshape(-1, 8)
    for name in NAMES:
        want = gpurotate.transform_boxes(xyxy, name, (H, W))
        np.testing.assert_array_equal(to_xyxy(gpurotate.transform_boxes(as_xywh, name, (H, W), "xywh"), "xywh"), want)
        np.testing.assert_array_equal(to_xyxy(gpurotate.transform_boxes(as_cxcywh, name, (H, W), "cxcywh"), "cxcywh"), want)
        # The xywhr result's corners are the xyxyxyxy result, in order.
        polygons = gpurotate.transform_boxes(as_polygons, name, (H, W), "xyxyxyxy")
        np.testing.assert_allclose(corners(gpurotate.transform_boxes(xywhr, name, (H, W), "xywhr"), "xywhr").reshape(-1, 8), polygons, atol=1e-9)


def test_boxes_cover_the_pixels_the_image_moves():
    # A box over whole pixels, drawn as a mask, moves as gpurotate.apply moves the mask: the two conventions meet.
    b = np.array([[5, 3, 12, 30]])
    mask = np.zeros((H, W), np.uint8)
    mask[3:30, 5:12] = 1
    for name in NAMES:
        x1, y1, x2, y2 = gpurotate.transform_boxes(b, name, (H, W))[0]
        drawn = np.zeros(out_canvas(name), np.uint8)
        drawn[y1:y2, x1:x2] = 1
        np.testing.assert_array_equal(drawn, gpurotate.apply(mask, name), err_msg=name)


def test_points_follow_the_pixels_the_image_moves():
    # The centre of pixel (row i, column j) is (j + 0.5, i + 0.5): it lands at the centre of the pixel its value moves to.
    image = np.arange(H * W, dtype=np.int32).reshape(H, W)
    rows, cols = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
    centres = np.stack([cols.ravel() + 0.5, rows.ravel() + 0.5], axis=1)
    for name in NAMES:
        moved = gpurotate.apply(image, name)
        p = gpurotate.transform_points(centres, name, (H, W))
        np.testing.assert_array_equal(moved[(p[:, 1] - 0.5).astype(int), (p[:, 0] - 0.5).astype(int)], image.ravel(), err_msg=name)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int64, np.int16, np.uint8])
def test_points_every_element(name, dtype):
    p = random_array((3, 5, 2), np.uint8, seed=1) % np.array([W + 1, H + 1], np.uint8)  # on the canvas, edges included
    p = p.astype(dtype)
    got = gpurotate.transform_points(p, name, (H, W))
    assert type(got) is np.ndarray and got.dtype == p.dtype and got.shape == p.shape
    x, y = POINT[name](p[..., 0].astype(np.int64), p[..., 1].astype(np.int64), W, H)
    np.testing.assert_array_equal(got, np.stack([x, y], axis=-1))
    four = p
    canvas = (H, W)
    for _ in range(4):
        four = gpurotate.transform_points(four, "rot90", canvas)
        canvas = canvas[::-1]
    np.testing.assert_array_equal(four, p)


@pytest.mark.parametrize("name", NAMES)
def test_points_with_visibility(name):
    # COCO's triplets: a point with visibility 0 at (0, 0) is "not labelled" and stays (0, 0); the others move,
    # visibility 0 included where the point has coordinates, and the visibility column is kept.
    p = np.array([[3, 4, 2], [0, 0, 0], [0, 0, 1], [7, 9, 0], [0, 5, 0], [W, H, 1]], dtype=np.int32)
    got = gpurotate.transform_points(p, name, (H, W))
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got[:, 2], p[:, 2])
    np.testing.assert_array_equal(got[1], [0, 0, 0])
    for i in (0, 2, 3, 4, 5):
        np.testing.assert_array_equal(got[i, :2], POINT[name](p[i, 0], p[i, 1], W, H))
    np.testing.assert_array_equal(gpurotate.transform_points(p.astype(np.float32), name, (H, W)), got)


def test_array_likes_and_element_spellings():
    got = gpurotate.transform_boxes([[1, 2, 3, 4]], gpurotate.Orientation.rot90, [H, W])
    assert type(got) is np.ndarray
    for spelling in ("rot90", 1, gpurotate.Orientation.rot90):
        np.testing.assert_array_equal(gpurotate.transform_boxes([[1, 2, 3, 4]], spelling, (H, W)), got)
    assert gpurotate.transform_points([(1.5, 2.5)], "flip_h", (H, W)).tolist() == [[W - 1.5, 2.5]]
    assert gpurotate.transform_boxes(np.zeros((0, 4)), "rot90", (H, W)).shape == (0, 4)
    assert gpurotate.transform_boxes(np.zeros((2, 3, 5)), "rot90", (H, W), "xywhr").shape == (2, 3, 5)


def test_refusals():
    with pytest.raises(ValueError, match="xyxy, xywh"):
        gpurotate.transform_boxes([[1, 2, 3, 4]], "rot90", (H, W), format="yolo")
    with pytest.raises(ValueError, match=r"\(\.\.\., 5\)"):
        gpurotate.transform_boxes([[1, 2, 3, 4]], "rot90", (H, W), format="xywhr")
    with pytest.raises(ValueError, match=r"\(\.\.\., 2\)"):
        gpurotate.transform_points([[1, 2, 3, 4]], "rot90", (H, W))
    with pytest.raises(TypeError, match="canvas_size"):
        gpurotate.transform_points([[1, 2]], "rot90", H)
    with pytest.raises(TypeError, match="integers or floats"):
        gpurotate.transform_points(np.array([[1 + 1j, 2]]), "rot90", (H, W))
    with pytest.raises(TypeError, match="not str"):
        gpurotate.transform_points("1, 2", "rot90", (H, W))
    with pytest.raises(ValueError, match="element code 9"):
        gpurotate.transform_points([[1, 2]], 9, (H, W))


# --- PyTorch and torchvision ------------------------------------------------------------------------------


def test_torch_tensors_come_back_as_tensors():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    b = torch.tensor([[3, 4, 20, 30]], dtype=torch.int32)
    got = gpurotate.transform_boxes(b, "rot90", (H, W))
    assert isinstance(got, torch.Tensor) and got.dtype == torch.int32 and got.tolist() == [[7, 3, 33, 20]]
    p = torch.tensor([[1.5, 2.5]], dtype=torch.bfloat16)
    got = gpurotate.transform_points(p, "transpose", (H, W))
    assert isinstance(got, torch.Tensor) and got.dtype == torch.bfloat16 and got.tolist() == [[2.5, 1.5]]
    with pytest.raises(TypeError, match="requires grad"):
        gpurotate.transform_points(torch.zeros(1, 2, requires_grad=True), "rot90", (H, W))


def _tv():
    pytest.importorskip("torch", reason="PyTorch is not installed")
    return pytest.importorskip("torchvision.tv_tensors", reason="torchvision is not installed")


def _tv_boxes(tv, fmt, h=H, w=W):
    return tv.BoundingBoxes(boxes_for(fmt), format=fmt.upper(), canvas_size=(h, w))


@pytest.mark.parametrize("fmt", AXIS_ALIGNED + ROTATED)
def test_torchvision_flips_and_quarter_turns_on_boxes(fmt):
    tv = _tv()
    import torch
    import torchvision.transforms.v2.functional as F

    boxes = _tv_boxes(tv, fmt)
    theirs = {
        "flip-h": F.horizontal_flip(boxes),
        "flip-v": F.vertical_flip(boxes),
        "rot90": F.rotate(boxes, -90, expand=True),  # torchvision's angles are counter-clockwise
        "rot180": F.rotate(boxes, 180, expand=True),
        "rot270": F.rotate(boxes, 90, expand=True),
        "transpose": F.horizontal_flip(F.rotate(boxes, -90, expand=True)),
        "transverse": F.vertical_flip(F.rotate(boxes, -90, expand=True)),
    }
    for name, their in theirs.items():
        ours = gpurotate.transform_boxes(boxes.as_subclass(torch.Tensor), name, (H, W), fmt)
        assert tuple(their.canvas_size) == out_canvas(name), name
        their = their.as_subclass(torch.Tensor).double().numpy()
        ours = ours.double().numpy()
        if fmt in ("xywhr", "cxcywhr"):
            np.testing.assert_allclose(angle_difference(ours[:, 4], their[:, 4]), 0, atol=1e-4, err_msg=name)
            ours, their = ours[:, :4], their[:, :4]
        # rotate works through a float32 affine matrix: its cos(90) is not 0.
        np.testing.assert_allclose(ours, their, atol=1e-4, err_msg=name)


def test_torchvision_keypoints():
    tv = _tv()
    if not hasattr(tv, "KeyPoints"):
        pytest.skip("this torchvision has no KeyPoints (0.23 on)")
    import torch
    import torchvision.transforms.v2.functional as F

    p = np.array([[3.5, 4.5], [10, 20], [0, 0], [W, H]], dtype=np.float32)
    points = tv.KeyPoints(p, canvas_size=(H, W))
    # Quarter turns: torchvision rotates continuous coordinates about the canvas centre, as gpurotate does.
    for name, angle in (("rot90", -90), ("rot180", 180), ("rot270", 90)):
        their = F.rotate(points, angle, expand=True)
        assert tuple(their.canvas_size) == out_canvas(name)
        np.testing.assert_allclose(their.as_subclass(torch.Tensor).numpy(), gpurotate.transform_points(p, name, (H, W)), atol=1e-4)
    # Flips: torchvision's horizontal_flip_keypoints is x' = W - 1 - x, pixel indices (a pixel's centre at its
    # index), one pixel from the continuous W - x: ours on the pixel centre, less a half.
    for name, their in (("flip-h", F.horizontal_flip(points)), ("flip-v", F.vertical_flip(points))):
        np.testing.assert_array_equal(their.as_subclass(torch.Tensor).numpy(), gpurotate.transform_points(p + 0.5, name, (H, W)) - 0.5)


@pytest.mark.parametrize("fmt", AXIS_ALIGNED + ROTATED)
def test_modules_move_boxes_and_keypoints_with_the_image(fmt):
    tv = _tv()
    import torch

    from gpurotate.torch import RandomD4, RandomElements

    image = tv.Image(torch.from_numpy(random_array((3, H, W), np.uint8)))
    mask = tv.Mask(torch.from_numpy(random_array((H, W), np.uint8)))
    boxes = _tv_boxes(tv, fmt)
    extra = [tv.KeyPoints(torch.tensor([[3.5, 4.5], [10.0, 20.0]]), canvas_size=(H, W))] if hasattr(tv, "KeyPoints") else []
    for name in NAMES:
        out = RandomElements([name])(image, boxes, mask, *extra)
        assert [type(o) for o in out] == [type(i) for i in (image, boxes, mask, *extra)]
        out_image, out_boxes, out_mask = out[:3]
        np.testing.assert_array_equal(out_image.numpy(), gpurotate.apply(image.numpy(), name, layout="chw"))
        np.testing.assert_array_equal(out_mask.numpy(), gpurotate.apply(mask.numpy(), name))
        assert tuple(out_boxes.canvas_size) == out_canvas(name) == tuple(out_image.shape[-2:])
        assert out_boxes.format == boxes.format
        np.testing.assert_array_equal(out_boxes.numpy(), gpurotate.transform_boxes(boxes.numpy(), name, (H, W), fmt))
        if extra:
            assert tuple(out[3].canvas_size) == out_canvas(name)
            np.testing.assert_array_equal(out[3].numpy(), gpurotate.transform_points(extra[0].numpy(), name, (H, W)))
    # One draw a call: the image and the boxes get the same element, whichever is drawn.
    for seed in range(8):
        out_image, out_boxes = RandomD4(generator=torch.Generator().manual_seed(seed))(image, boxes)
        (code,) = RandomD4(generator=torch.Generator().manual_seed(seed)).draw(1)
        np.testing.assert_array_equal(out_image.numpy(), gpurotate.apply(image.numpy(), code, layout="chw"))
        np.testing.assert_array_equal(out_boxes.numpy(), gpurotate.transform_boxes(boxes.numpy(), code, (H, W), fmt))
    # Boxes alone: their own canvas.
    alone = RandomElements(["rot90"])(boxes)
    assert type(alone) is tv.BoundingBoxes and tuple(alone.canvas_size) == (W, H)


def test_modules_refuse_boxes_they_cannot_follow():
    tv = _tv()
    import torch

    from gpurotate.torch import RandomD4, RandomHorizontalFlip

    boxes = _tv_boxes(tv, "xyxy")
    batch = torch.zeros(4, 3, H, W, dtype=torch.uint8)
    with pytest.raises(ValueError, match="per_sample=False"):
        RandomD4()(batch, boxes)
    # One draw for the whole batch: the boxes follow it.
    out_batch, out_boxes = RandomHorizontalFlip(p=1.0, per_sample=False)(batch, boxes)
    np.testing.assert_array_equal(out_boxes.numpy(), gpurotate.transform_boxes(boxes.numpy(), "flip-h", (H, W)))
    # A batch of one draws one element.
    RandomD4()(batch[:1], boxes)
    with pytest.raises(ValueError, match="canvas_size"):
        RandomD4()(torch.zeros(3, H + 1, W, dtype=torch.uint8), boxes)
    with pytest.raises(TypeError, match="requires grad"):
        RandomD4()(tv.BoundingBoxes(torch.zeros(1, 4, requires_grad=True), format="XYXY", canvas_size=(H, W)))


def test_torchvision_pipelines_with_boxes():
    tv = _tv()
    v2 = pytest.importorskip("torchvision.transforms.v2", reason="torchvision is not installed")
    import torch

    from gpurotate.torch import RandomHorizontalFlip, RandomVerticalFlip

    image = tv.Image(torch.from_numpy(random_array((3, H, W), np.uint8)))
    boxes = _tv_boxes(tv, "xyxy")
    for ours, theirs in [(RandomHorizontalFlip(p=1.0), v2.RandomHorizontalFlip(p=1.0)), (RandomVerticalFlip(p=1.0), v2.RandomVerticalFlip(p=1.0))]:
        got = v2.Compose([ours, v2.CenterCrop(20)])(image, boxes)
        want = v2.Compose([theirs, v2.CenterCrop(20)])(image, boxes)
        for g, w in zip(got, want):
            assert type(g) is type(w)
            assert torch.equal(g.as_subclass(torch.Tensor), w.as_subclass(torch.Tensor))


# --- albumentations ---------------------------------------------------------------------------------------

# albumentations' D4 group elements as gpurotate's: its r90 turns counter-clockwise (numpy.rot90), gpurotate's rot90
# clockwise. Checked on the pixels below, not assumed.
ALBUMENTATIONS_D4 = {"e": "identity", "r90": "rot270", "r180": "rot180", "r270": "rot90", "v": "flip-v", "hvt": "transverse",
                     "h": "flip-h", "t": "transpose"}  # fmt: skip


def _albumentations_runs(A, transform, image, boxes, box_format, points):
    compose = A.Compose(
        [transform],
        bbox_params=A.BboxParams(format=box_format, label_fields=[]),
        keypoint_params=A.KeypointParams(format="xy", remove_invisible=False),
    )
    out = compose(image=image, bboxes=boxes, keypoints=points)
    return out["image"], np.asarray(out["bboxes"], np.float64), np.asarray(out["keypoints"], np.float64)


def _albumentations_cases():
    A = pytest.importorskip("albumentations", reason="albumentations is not installed")
    cases = []
    for group_element, name in ALBUMENTATIONS_D4.items():
        d4 = A.D4(p=1.0)
        d4.get_params = lambda group_element=group_element: {"group_element": group_element}  # this element, not a draw
        cases.append((f"D4 {group_element}", d4, name))
    cases += [("HorizontalFlip", A.HorizontalFlip(p=1.0), "flip-h"), ("VerticalFlip", A.VerticalFlip(p=1.0), "flip-v"),
              ("Transpose", A.Transpose(p=1.0), "transpose")]  # fmt: skip
    return A, cases


@pytest.mark.parametrize("box_format", ["pascal_voc", "coco", "yolo"])
def test_albumentations_boxes_and_keypoints(box_format):
    A, cases = _albumentations_cases()
    image = random_array((H, W, 3), np.uint8)
    xyxy = boxes_for("xyxy")
    if box_format == "pascal_voc":
        boxes, ours_format, scale = xyxy, "xyxy", np.array([1.0, 1, 1, 1])
    elif box_format == "coco":
        boxes, ours_format, scale = np.concatenate([xyxy[:, :2], xyxy[:, 2:] - xyxy[:, :2]], axis=1), "xywh", np.array([1.0, 1, 1, 1])
    else:  # yolo: normalised centre and size
        boxes = np.concatenate([(xyxy[:, :2] + xyxy[:, 2:]) / 2, xyxy[:, 2:] - xyxy[:, :2]], axis=1) / [W, H, W, H]
        ours_format, scale = "cxcywh", np.array([W, H, W, H], np.float64)
    points = np.array([[3.5, 4.5], [10, 20], [30, 2]], np.float64)
    for label, transform, name in cases:
        out_image, out_boxes, out_points = _albumentations_runs(A, transform, image, boxes, box_format, points)
        np.testing.assert_array_equal(out_image, gpurotate.apply(image, name), err_msg=label)  # the same element
        ours = gpurotate.transform_boxes(boxes * scale, name, (H, W), ours_format)
        if box_format == "yolo":
            out_h, out_w = out_canvas(name)
            ours = ours / [out_w, out_h, out_w, out_h]
        np.testing.assert_allclose(out_boxes[:, :4], ours, atol=1e-4, err_msg=label)  # albumentations works in float32
        # albumentations' keypoints are pixel indices (x' = W - 1 - x under a horizontal flip): ours on the pixel
        # centre, less a half.
        np.testing.assert_allclose(out_points[:, :2], gpurotate.transform_points(points + 0.5, name, (H, W)) - 0.5, atol=1e-4, err_msg=label)
