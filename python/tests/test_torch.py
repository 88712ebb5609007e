"""gpurotate.torch: the random transforms on CPU tensors (and CUDA tensors where there is a GPU), their
draws reproduced and checked against NumPy. Skipped where PyTorch is not installed."""

import subprocess
import sys

import numpy as np
import pytest

import gpurotate
from reference import NAMES, random_array, reference, reference_per_sample

pytest.importorskip("torch", reason="PyTorch is not installed")
import torch  # noqa: E402

from gpurotate.torch import RandomD4, RandomElements, RandomFlip, RandomRotate90  # noqa: E402


def _names(codes):
    return [NAMES[int(c)] for c in codes]


def _check_per_sample(transform_type, x, device, **kwargs):
    y = transform_type(generator=torch.Generator().manual_seed(3), **kwargs)(x.to(device))
    codes = transform_type(generator=torch.Generator().manual_seed(3), **kwargs).draw(x.shape[0])
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
    _check_per_sample(RandomFlip, x, "cuda", horizontal=0.5, vertical=0.5)


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
    np.testing.assert_array_equal(RandomFlip(horizontal=1.0)(x).numpy(), reference(x.numpy(), "flip-h", "nchw"))
    np.testing.assert_array_equal(RandomFlip(horizontal=0.0, vertical=1.0)(x).numpy(), reference(x.numpy(), "flip-v", "nchw"))
    np.testing.assert_array_equal(RandomFlip(1.0, 1.0)(x).numpy(), reference(x.numpy(), "rot180", "nchw"))
    assert RandomFlip(horizontal=0.0)(x) is x  # no flip drawn: the input itself, as torchvision does
    with pytest.raises(ValueError):
        RandomFlip(horizontal=1.5)


def test_non_square_batches():
    x = torch.from_numpy(random_array((32, 3, 4, 6), np.uint8))
    with pytest.raises(ValueError, match="non-square"):
        RandomD4(generator=torch.Generator().manual_seed(0))(x)
    y = RandomRotate90(quarter_turns=False)(x)
    assert y.shape == x.shape
    assert RandomD4(per_sample=False)(x).shape in ((32, 3, 4, 6), (32, 3, 6, 4))


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


def test_non_contiguous_and_hw_tensors():
    x = torch.from_numpy(random_array((4, 3, 8, 8), np.float32)).to(memory_format=torch.channels_last)
    y = RandomElements(["transpose"])(x)
    np.testing.assert_array_equal(y.numpy(), reference(x.contiguous().numpy(), "transpose", "nchw"))
    plane = torch.from_numpy(random_array((5, 9), np.uint8))
    np.testing.assert_array_equal(RandomElements(["rot90"])(plane).numpy(), reference(plane.numpy(), "rot90", "hw"))


def test_refusals():
    with pytest.raises(TypeError, match="requires grad"):
        gpurotate.apply(torch.zeros((2, 2), requires_grad=True), "rot90")
    with pytest.raises(ValueError, match="shape"):
        RandomD4()(torch.zeros(5))
    with pytest.raises(TypeError, match="uint8, uint16 or float32"):
        RandomElements(["rot90"])(torch.zeros((2, 3, 3), dtype=torch.float64))
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
        with pytest.raises(TypeError, match="uint8, uint16 or float32"):
            RandomFlip(generator=generator)(torch.zeros((3, 4, 4), dtype=torch.float64))
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


def test_tv_tensors_keep_their_type_and_boxes_are_refused():
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
    boxes = tv.BoundingBoxes([[1, 2, 5, 9]], format="XYXY", canvas_size=(16, 16))
    with pytest.raises(TypeError, match="coordinates"):
        RandomD4()(image, boxes)


def test_importable_without_torchvision():
    code = "import sys; sys.modules['torchvision'] = None; import gpurotate.torch; print(gpurotate.torch.RandomD4())"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "RandomD4" in result.stdout
