"""Skips for the GPU tests: they report *skipped*, with the reason, never *passed*, where no CUDA device,
no PyTorch / CuPy, or no CUDA backend in this build is there to run them; and the CLI, for the tests that
compare the package with it."""

import os
import pathlib
import shutil
import subprocess

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


def _cli_path():
    """The gpurotate executable these tests compare the package with: $GPUROTATE_CLI, else the one in the build
    tree the package was imported from (build/python/gpurotate -> build/gpurotate), else the one on PATH."""
    if os.environ.get("GPUROTATE_CLI"):
        return os.environ["GPUROTATE_CLI"]
    beside = pathlib.Path(gpurotate.__file__).resolve().parents[2] / "gpurotate"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("gpurotate")


@pytest.fixture(scope="session")
def cli():
    """Runs the gpurotate CLI: cli(*args) -> CompletedProcess (bytes out); skips where there is none."""
    path = _cli_path()
    if not path:
        pytest.skip("no gpurotate executable (set GPUROTATE_CLI, or build the CLI beside the package)")

    def run(*args, input=None, check=True):
        result = subprocess.run([path, *map(str, args)], input=input, capture_output=True, timeout=120)
        if check and result.returncode != 0:
            raise AssertionError(f"gpurotate {' '.join(map(str, args))}: exit {result.returncode}\n{result.stderr.decode(errors='replace')}")
        return result

    return run
