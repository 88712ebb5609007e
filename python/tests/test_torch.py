"""gpurotate.torch: the random transforms on CPU tensors (and CUDA tensors where there is a GPU), their
draws reproduced and checked against NumPy. Skipped where PyTorch is not installed."""

import subprocess
import sys
import warnings

import numpy as np
import pytest

import gpurotate
from reference import NAMES, random_array, reference, reference_per_sample, torch_bit_patterns, torch_bits, torch_dtypes

pytest.importorskip("torch", reason="PyTorch is not installed")
import torch  # noqa: E402

from gpurotate.torch import (  # noqa: E402
    RandomD4,
    RandomElements,
    RandomFlip,
    RandomHorizontalFlip,
    RandomRotate90,
    RandomVerticalFlip,
)


def _names(codes):
    return [NAMES[int(c)] for c in codes]


def _check_per_sample(transform_type, x, device, **kwargs):
    y = transform_type(generator=torch.Generator().manual_seed(3), **kwargs)(x.to(device))
    square = x.shape[-1] == x.shape[-2]
    codes = transform_type(generator=torch.Generator().manual_seed(3), **kwargs).draw(x.shape[0], square=square)
    assert y.device.type == device
    np.testing.assert_array_equal(y.cpu().numpy(), reference_per_sample(x.numpy(), _names(codes), "nchw"))


@pytest.mark.parametrize("dtype", [torch.uint8, torch.float32])
def test_random_d4_per_sample_cpu(dtype):
    x = torch.from_numpy(random_array((16, 3, 12, 12), np.uint8)).to(dtype)
    _check_per_sample(RandomD4, x, "cpu")


@pytest.mark.gpu
def test_random_d4_per_sample_cuda(torch_cuda):
    x = torch.from_numpy(random_array((64, 3, 32, 32), np.uint8))
    _check_per_sample(RandomD4, x, "cuda")
    _check_per_sample(RandomRotate90, x, "cuda")
    _check_per_sample(RandomFlip, x, "cuda", p=0.5, horizontal=True, vertical=True)
    _check_per_sample(RandomD4, torch.from_numpy(random_array((64, 3, 24, 40), np.uint8)), "cuda")


def test_one_element_for_a_whole_batch_or_an_image():
    x = torch.from_numpy(random_array((4, 2, 6, 6), np.uint8))
    y = RandomD4(per_sample=False, generator=torch.Generator().manual_seed(1))(x)
    (code,) = RandomD4(generator=torch.Generator().manual_seed(1)).draw(1)
    np.testing.assert_array_equal(y.numpy(), reference(x.numpy(), NAMES[int(code)], "nchw"))
    image = x[0]
    y = RandomD4(generator=torch.Generator().manual_seed(5))(image)
    (code,) = RandomD4(generator=torch.Generator().manual_seed(5)).draw(1)
    np.testing.assert_array_equal(y.numpy(), reference(image.numpy(), NAMES[int(code)], "chw"))


def test_all_elements_are_drawn():
    codes = RandomD4(generator=torch.Generator().manual_seed(0)).draw(400)
    assert sorted(set(int(c) for c in codes)) == list(range(8))
    assert set(RandomRotate90(generator=torch.Generator().manual_seed(0)).draw(200)) == {
        gpurotate.element(n) for n in ("identity", "rot90", "rot180", "rot270")
    }


def test_random_flip_probabilities():
    x = torch.from_numpy(random_array((3, 2, 5, 7), np.uint8))
    np.testing.assert_array_equal(RandomFlip(p=1.0)(x).numpy(), reference(x.numpy(), "flip-h", "nchw"))
    np.testing.assert_array_equal(RandomFlip(1.0, horizontal=False, vertical=True)(x).numpy(), reference(x.numpy(), "flip-v", "nchw"))
    np.testing.assert_array_equal(RandomFlip(1.0, vertical=True)(x).numpy(), reference(x.numpy(), "rot180", "nchw"))
    np.testing.assert_array_equal(RandomHorizontalFlip(p=1.0)(x).numpy(), reference(x.numpy(), "flip-h", "nchw"))
    np.testing.assert_array_equal(RandomVerticalFlip(p=1)(x).numpy(), reference(x.numpy(), "flip-v", "nchw"))
    assert RandomFlip(p=0.0)(x) is x  # no flip drawn: the input itself, as torchvision does
    assert RandomHorizontalFlip(0.0)(x) is x and RandomVerticalFlip(0.0)(x) is x
    for bad in (1.5, -0.1, float("nan"), True, "0.5"):
        with pytest.raises(ValueError, match="probability"):
            RandomFlip(p=bad)
    with pytest.raises(TypeError, match="p="):
        RandomFlip(horizontal=0.5)  # the probability was horizontal= before torchvision's p=
    assert "p=0.25" in repr(RandomVerticalFlip(0.25))


def test_torchvision_names_and_defaults():
    # RandomFlip(p=0.5) works (it was a TypeError); the defaults are torchvision's: p=0.5.
    for transform in (RandomFlip(), RandomFlip(p=0.5), RandomHorizontalFlip(), RandomVerticalFlip()):
        assert transform.p == 0.5
    assert RandomFlip().horizontal and not RandomFlip().vertical
    weights = RandomFlip(p=0.3).weights.tolist()  # identity, flip-h, flip-v, rot180
    assert weights == pytest.approx([0.7, 0.3, 0.0, 0.0])
    assert RandomFlip(p=0.3, vertical=True).weights.tolist() == pytest.approx([0.49, 0.21, 0.21, 0.09])
    assert RandomVerticalFlip(p=0.3).weights.tolist() == pytest.approx([0.7, 0.0, 0.3, 0.0])


def test_flip_frequencies():
    x = torch.arange(2 * 3, dtype=torch.uint8).reshape(1, 1, 2, 3).repeat(4000, 1, 1, 1)
    y = RandomHorizontalFlip(p=0.25, generator=torch.Generator().manual_seed(0))(x)
    flipped = (y[:, 0, 0, 0] == 2).double().mean().item()
    assert abs(flipped - 0.25) < 0.03  # 4000 draws: 4.5 standard deviations


def test_non_square_batches():
    # Elements that swap the sides mixed with ones that keep them: the kind is drawn once per call for the
    # whole batch (as torchvision v2 draws one decision per call), each sample's element within it.
    x = torch.from_numpy(random_array((32, 3, 4, 6), np.uint8))
    shapes = set()
    for seed in range(16):
        y = RandomD4(generator=torch.Generator().manual_seed(seed))(x)
        codes = RandomD4(generator=torch.Generator().manual_seed(seed)).draw(32, square=False)
        np.testing.assert_array_equal(y.numpy(), reference_per_sample(x.numpy(), _names(codes), "nchw"))
        assert len({gpurotate.swaps_axes(c) for c in codes}) == 1
        shapes.add(tuple(y.shape))
    assert shapes == {(32, 3, 4, 6), (32, 3, 6, 4)}
    # Masks [N, H, W] with their images.
    mask = x[:, 0].clone()
    for seed in range(4):
        image_out, mask_out = RandomRotate90(generator=torch.Generator().manual_seed(seed))(x, mask)
        assert torch.equal(image_out[:, 0], mask_out)
    assert RandomRotate90(quarter_turns=False)(x).shape == x.shape
    assert RandomD4(per_sample=False)(x).shape in ((32, 3, 4, 6), (32, 3, 6, 4))


def test_non_square_draws_keep_each_samples_probabilities():
    # The two-step draw for non-square batches: every sample's element still uniform over the candidates.
    # The samples of one call share the kind, so the test counts one sample a call (independent draws).
    transform = RandomD4(generator=torch.Generator().manual_seed(0))
    counts = np.zeros(8)
    for call in range(4000):
        counts[int(transform.draw(16, square=False)[call % 16])] += 1
    expected = counts.sum() / 8
    chi_square = float(((counts - expected) ** 2 / expected).sum())
    assert chi_square < 24.3  # 7 degrees of freedom, p = 0.001
    rotations = RandomRotate90(generator=torch.Generator().manual_seed(1)).draw(4000, square=False)
    assert {int(c) for c in rotations} <= {0, 2} or {int(c) for c in rotations} <= {1, 3}  # one kind per call


def test_same_elements_for_every_input():
    image = torch.from_numpy(random_array((8, 3, 10, 10), np.uint8))
    mask = image[:, :1].clone()
    out_image, out_mask = RandomD4()(image, mask)
    assert torch.equal(out_image[:, :1], out_mask)


def test_a_batch_with_masks_of_n_by_h_by_w():
    image = torch.from_numpy(random_array((6, 3, 8, 8), np.uint8))
    mask = image[:, 0].clone()  # [N, H, W]
    out_image, out_mask = RandomD4(generator=torch.Generator().manual_seed(5))(image, mask)
    assert out_mask.shape == (6, 8, 8)
    assert torch.equal(out_image[:, 0], out_mask)
    with pytest.raises(ValueError, match="6 samples"):
        RandomD4()(image, mask[:4])


def test_strides_follow_applys_rule():
    # channels_last batches and crops are taken as they are (a channels_last result), other strides raise
    # before anything is drawn, unless the transform copies (copy=True): the rule of gpurotate.apply.
    x = torch.from_numpy(random_array((4, 3, 8, 8), np.float32)).to(memory_format=torch.channels_last)
    y = RandomElements(["transpose"])(x)
    assert y.is_contiguous(memory_format=torch.channels_last)
    np.testing.assert_array_equal(y.contiguous().numpy(), reference(x.contiguous().numpy(), "transpose", "nchw"))
    crop = torch.from_numpy(random_array((4, 3, 12, 12), np.uint8))[::2, :, 2:10, 1:9]
    np.testing.assert_array_equal(RandomElements(["rot90"])(crop).numpy(), reference(crop.numpy(), "rot90", "nchw"))
    plane = torch.from_numpy(random_array((5, 9), np.uint8))
    np.testing.assert_array_equal(RandomElements(["rot90"])(plane).numpy(), reference(plane.numpy(), "rot90", "hw"))
    transposed = torch.from_numpy(random_array((9, 5), np.uint8)).t()
    for seed in range(8):  # refused whatever is drawn, identity included
        with pytest.raises(ValueError, match="copy=True"):
            RandomD4(generator=torch.Generator().manual_seed(seed))(transposed)
    with pytest.raises(ValueError, match="copy=True"):
        gpurotate.apply(transposed, "rot90")
    np.testing.assert_array_equal(RandomElements(["rot90"], copy=True)(transposed).numpy(), reference(transposed.numpy(), "rot90", "hw"))
    np.testing.assert_array_equal(gpurotate.apply(transposed, "rot90", copy=True).numpy(), reference(transposed.numpy(), "rot90", "hw"))


TORCH_DTYPES = torch_dtypes(torch)


def _torch_bit_patterns(shape, dtype, seed=0):
    return torch_bit_patterns(torch, shape, dtype, seed)


def _bits(t):
    return torch_bits(torch, t)


@pytest.mark.parametrize("dtype", TORCH_DTYPES, ids=str)
@pytest.mark.parametrize("name", NAMES)
def test_every_torch_dtype_against_numpy_bits(name, dtype):
    for layout, shape in [("hw", (5, 7)), ("chw", (2, 5, 7)), ("nchw", (3, 2, 6, 5))]:
        x = _torch_bit_patterns(shape, dtype)
        y = gpurotate.apply(x, name, layout=layout)
        assert y.dtype == dtype and isinstance(y, torch.Tensor)
        np.testing.assert_array_equal(_bits(y), reference(_bits(x), name, layout))


@pytest.mark.parametrize("dtype", TORCH_DTYPES, ids=str)
def test_every_torch_dtype_against_torch(dtype):
    # torch's own rot90 / flip / transpose as the reference, compared on the bits.
    x = _torch_bit_patterns((4, 2, 6, 6), dtype)
    torch_ops = {
        "rot90": lambda t: torch.rot90(t, -1, (2, 3)),
        "rot270": lambda t: torch.rot90(t, 1, (2, 3)),
        "flip-h": lambda t: torch.flip(t, (3,)),
        "flip-v": lambda t: torch.flip(t, (2,)),
        "transpose": lambda t: t.transpose(2, 3),
    }
    for name, op in torch_ops.items():
        try:
            expected = op(x)
        except (RuntimeError, NotImplementedError):  # torch's kernels for some dtypes (uint16 ...) are missing
            expected = None
        if expected is not None:
            assert _bits(gpurotate.apply(x, name, layout="nchw")).tobytes() == _bits(expected).tobytes()
    codes = RandomD4(generator=torch.Generator().manual_seed(2)).draw(4)
    y = RandomD4(generator=torch.Generator().manual_seed(2))(x)
    np.testing.assert_array_equal(_bits(y), reference_per_sample(_bits(x), _names(codes), "nchw"))


def test_an_int64_mask_with_its_image():
    image = torch.from_numpy(random_array((6, 3, 8, 8), np.uint8))
    mask = torch.arange(6 * 8 * 8, dtype=torch.int64).reshape(6, 8, 8) * 10**12
    codes = RandomD4(generator=torch.Generator().manual_seed(7)).draw(6)
    out_image, out_mask = RandomD4(generator=torch.Generator().manual_seed(7))(image, mask)
    np.testing.assert_array_equal(out_mask.numpy(), reference_per_sample(mask.numpy()[:, None], _names(codes), "nchw")[:, 0])
    np.testing.assert_array_equal(out_image.numpy(), reference_per_sample(image.numpy(), _names(codes), "nchw"))


def _quantized(shape):
    """A quantized tensor (a dtype DLPack cannot carry); torch deprecates making them."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return torch.quantize_per_tensor(torch.zeros(shape), 0.1, 0, torch.quint8)


def test_refusals():
    with pytest.raises(TypeError, match="requires grad"):
        gpurotate.apply(torch.zeros((2, 2), requires_grad=True), "rot90")
    with pytest.raises(ValueError, match="shape"):
        RandomD4()(torch.zeros(5))
    with pytest.raises(TypeError, match="1, 2, 4, 8 or 16 bytes"):
        RandomElements(["rot90"])(_quantized((2, 3, 3)))
    with pytest.raises(TypeError, match="1, 2, 4, 8 or 16 bytes"):
        gpurotate.apply(_quantized((2, 3, 3)), "rot90")
    with pytest.raises(ValueError, match="weights"):
        RandomElements(["rot90", "flip-h"], weights=[1.0])
    with pytest.raises(ValueError, match="weights"):
        RandomElements(["rot90", "flip-h"], weights=[float("nan"), 1.0])
    with pytest.raises(TypeError, match="torch tensors"):
        RandomD4()(random_array((3, 4, 4), np.uint8))
    # Refused whatever is drawn: an identity draw returns its input unchanged, after the checks.
    for seed in range(12):
        generator = torch.Generator().manual_seed(seed)
        with pytest.raises(TypeError, match="requires grad"):
            RandomD4(generator=generator)(torch.zeros((3, 4, 4), requires_grad=True))
        with pytest.raises(TypeError, match="1, 2, 4, 8 or 16 bytes"):
            RandomFlip(generator=generator)(_quantized((3, 4, 4)))
    # A lazy negation's bytes are not its values: the sign would be dropped.
    with pytest.raises(TypeError, match="negation"):
        gpurotate.apply(torch.ones((2, 3))._neg_view(), "rot90")
    # A 0-d tensor is one element code.
    x = torch.from_numpy(random_array((3, 5), np.uint8))
    np.testing.assert_array_equal(gpurotate.apply(x, torch.tensor(1)).numpy(), reference(x.numpy(), "rot90", "hw"))


def test_composes_as_a_module():
    x = torch.from_numpy(random_array((2, 1, 6, 6), np.uint8))
    pipeline = torch.nn.Sequential(RandomElements(["rot90"]), RandomElements(["flip-h"]))
    np.testing.assert_array_equal(pipeline(x).numpy(), reference(x.numpy(), "transpose", "nchw"))
    assert "rot90" in repr(pipeline)


def test_torchvision_v2_compose():
    v2 = pytest.importorskip("torchvision.transforms.v2", reason="torchvision is not installed")
    x = torch.from_numpy(random_array((3, 6, 6), np.uint8))
    y = v2.Compose([RandomElements(["rot180"]), v2.ToDtype(torch.float32, scale=True)])(x)
    assert y.dtype == torch.float32 and y.shape == (3, 6, 6)


@pytest.mark.parametrize("dtype", [torch.uint8, torch.float32, torch.int64, torch.bool, torch.bfloat16], ids=str)
def test_flips_against_torchvision_v2(dtype):
    # The torchvision-named transforms against torchvision's own: the same outputs at p=0 and p=1, and at
    # p=0.5 one decision per call with per_sample=False (as torchvision draws), one per sample by default.
    v2 = pytest.importorskip("torchvision.transforms.v2", reason="torchvision is not installed")
    x = _torch_bit_patterns((6, 3, 5, 7), dtype)
    pairs = [(RandomHorizontalFlip, v2.RandomHorizontalFlip), (RandomVerticalFlip, v2.RandomVerticalFlip)]
    for ours, theirs in pairs:
        for p in (0.0, 1.0):
            np.testing.assert_array_equal(_bits(ours(p=p)(x)), _bits(theirs(p=p)(x)))
            np.testing.assert_array_equal(_bits(ours(p)(x[0])), _bits(theirs(p)(x[0])))
        flipped, kept = _bits(theirs(p=1.0)(x)), _bits(x)
        outcomes = set()
        for seed in range(12):
            y = _bits(ours(p=0.5, per_sample=False, generator=torch.Generator().manual_seed(seed))(x))
            assert np.array_equal(y, flipped) or np.array_equal(y, kept)
            outcomes.add(np.array_equal(y, flipped))
            y = _bits(ours(p=0.5, generator=torch.Generator().manual_seed(seed))(x))
            assert all(np.array_equal(y[i], flipped[i]) or np.array_equal(y[i], kept[i]) for i in range(len(y)))
        assert outcomes == {True, False}


def test_torchvision_v2_pipelines_with_images_and_masks():
    tv = pytest.importorskip("torchvision.tv_tensors", reason="torchvision is not installed")
    v2 = pytest.importorskip("torchvision.transforms.v2", reason="torchvision is not installed")
    image = tv.Image(torch.from_numpy(random_array((3, 10, 14), np.uint8)))
    mask = tv.Mask(torch.from_numpy(random_array((10, 14), np.uint8)).to(torch.int64))
    for ours, theirs in [(RandomHorizontalFlip(p=1.0), v2.RandomHorizontalFlip(p=1.0)), (RandomVerticalFlip(p=1.0), v2.RandomVerticalFlip(p=1.0))]:
        got_image, got_mask = v2.Compose([ours, v2.CenterCrop(8)])(image, mask)
        want_image, want_mask = v2.Compose([theirs, v2.CenterCrop(8)])(image, mask)
        assert type(got_image) is tv.Image and type(got_mask) is tv.Mask and got_mask.dtype == torch.int64
        assert torch.equal(got_image.as_subclass(torch.Tensor), want_image.as_subclass(torch.Tensor))
        assert torch.equal(got_mask.as_subclass(torch.Tensor), want_mask.as_subclass(torch.Tensor))
    # A 90-degree turn of a non-square image, then torchvision's transforms of the swapped sides.
    turned_image, turned_mask = v2.Compose([RandomElements(["rot90"]), v2.CenterCrop((12, 8))])(image, mask)
    assert turned_image.shape == (3, 12, 8) and turned_mask.shape == (12, 8)


def test_tv_tensors_keep_their_type_and_boxes_follow_the_image():
    tv = pytest.importorskip("torchvision.tv_tensors", reason="torchvision is not installed")
    v2 = pytest.importorskip("torchvision.transforms.v2", reason="torchvision is not installed")
    image = tv.Image(torch.from_numpy(random_array((3, 16, 16), np.uint8)))
    mask = tv.Mask(image[0].clone())
    for seed in range(6):  # identity draws and the others alike
        out_image, out_mask = RandomD4(generator=torch.Generator().manual_seed(seed))(image, mask)
        assert type(out_image) is tv.Image and type(out_mask) is tv.Mask
        assert torch.equal(out_image[0].as_subclass(torch.Tensor), out_mask.as_subclass(torch.Tensor))
        # What follows in a v2 pipeline treats them as one image and its mask.
        cropped_image, cropped_mask = v2.Compose([RandomD4(generator=torch.Generator().manual_seed(seed)), v2.RandomCrop(8)])(image, mask)
        assert cropped_image.shape == (3, 8, 8) and cropped_mask.shape == (8, 8)
    # Boxes move with the image (test_labels.py checks every element and format).
    boxes = tv.BoundingBoxes([[1, 2, 5, 9]], format="XYXY", canvas_size=(16, 16))
    out_image, out_boxes = RandomD4(generator=torch.Generator().manual_seed(0))(image, boxes)
    assert type(out_boxes) is tv.BoundingBoxes and out_boxes.format == boxes.format


def test_importable_without_torchvision():
    code = "import sys; sys.modules['torchvision'] = None; import gpurotate.torch; print(gpurotate.torch.RandomD4())"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "RandomD4" in result.stdout
