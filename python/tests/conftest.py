"""Skips for the GPU tests: they report *skipped*, with the reason, never *passed*, where no CUDA device,
no PyTorch / CuPy, or no CUDA backend in this build is there to run them."""

import pytest

import gpurotate


def _require_cuda_build():
    if not gpurotate.built_with_cuda():
        pytest.skip("this gpurotate was built without CUDA")


@pytest.fixture(scope="session")
def torch():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    return torch


@pytest.fixture(scope="session")
def torch_cuda(torch):
    if not torch.cuda.is_available():
        pytest.skip("PyTorch sees no CUDA device")
    _require_cuda_build()
    return torch


@pytest.fixture(scope="session")
def cupy():
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("CuPy sees no CUDA device")
    except cupy.cuda.runtime.CUDARuntimeError as error:
        pytest.skip(f"CuPy sees no CUDA device ({error})")
    _require_cuda_build()
    return cupy
