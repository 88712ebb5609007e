#!/usr/bin/env bash
# One command from a fresh Debian 12, Ubuntu 22.04 or Ubuntu 24.04 machine to a working gpurotate:
#   scripts/bootstrap.sh demo   installs what is missing, builds, rotates a sample image
#   scripts/bootstrap.sh test   installs what is missing, builds, runs the test suite, then the same
#                               suite under ASan+UBSan and TSan, and a bounded fuzzing run
# Extra CMake arguments can be passed in GPUROTATE_CMAKE_ARGS (e.g. -DGPUROTATE_WITH_CUDA=OFF).
set -euo pipefail

usage="usage: scripts/bootstrap.sh demo|test
  demo  install what is missing (Debian's or Ubuntu's packages), build build/gpurotate, rotate a sample image
  test  the same, then the test suite, the Python package's tests, the suite under ASan+UBSan and TSan,
        and a bounded fuzzing run (what CI runs)
Extra CMake arguments: GPUROTATE_CMAKE_ARGS='-DGPUROTATE_WITH_CUDA=OFF ...'"
case "${1:-demo}:$#" in
  -h:*|--help:*) echo "$usage"; exit 0 ;;
  demo:[01]|test:1) mode="${1:-demo}" ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."

# Debian's or Ubuntu's packages: build tools, the header-only libraries, the label formats' parsers (JSON,
# XML, YAML), libspng and zlib (PNG),
# libjpeg-turbo (JPEG), OpenCV (optional codecs, test reference) and ImageMagick (the independent comparison
# test). The CUDA Toolkit is found in /usr/local/cuda if present. The names differ by system
# (/etc/os-release): Debian's libjpeg is libjpeg62-turbo (libjpeg ABI 62), Ubuntu's libjpeg-turbo8 (ABI 80),
# and each has its own clang with its own runtime package for the sanitizers and libFuzzer.
os_id=debian os_version=12
if [ -r /etc/os-release ]; then
  # shellcheck disable=SC1091
  os_id=$(. /etc/os-release && echo "${ID:-debian}") os_version=$(. /etc/os-release && echo "${VERSION_ID:-12}")
fi
case "$os_id:$os_version" in
  ubuntu:22.04) libjpeg_dev=libjpeg-turbo8-dev clang_runtime=libclang-common-14-dev ;;
  ubuntu:*) libjpeg_dev=libjpeg-turbo8-dev clang_runtime=libclang-rt-18-dev ;;  # 24.04: clang 18
  *) libjpeg_dev=libjpeg62-turbo-dev clang_runtime=libclang-rt-14-dev ;;       # Debian 12: clang 14
esac
packages=(cmake ninja-build g++ pkg-config libstb-dev libcli11-dev doctest-dev nlohmann-json3-dev libtinyxml2-dev libyaml-cpp-dev zlib1g-dev libspng-dev libturbojpeg0-dev "$libjpeg_dev" libopencv-dev libtiff-dev libwebp-dev libarchive-dev libtiff-tools imagemagick)
# The test command also builds the sanitizer presets (ASan with clang and its libFuzzer runtime),
# compares JPEG transforms with jpegtran (libjpeg-turbo-progs) and --auto-orient with exiftran, and PNG
# outputs on the PNG conformance suite (PngSuite: libsixel-examples ships 174 of its 175 files, the corrupt
# ones included).
# -i's tests set an ACL (acl's setfacl) and deliver a signal inside a write (strace).
# And the Python package's tests: Python's headers, and venv for the system's own python3, which takes no
# pip installs (PEP 668); man reads the installed man pages.
[ "$mode" = test ] && packages+=(clang "$clang_runtime" libjpeg-turbo-progs exiftran libsixel-examples python3-dev python3-venv man-db acl strace)
missing=()
if command -v dpkg-query >/dev/null; then
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
fi
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if ! { timeout 300 $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 900 $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; then
    # Offline machines (a GPU node without a package mirror) can still build with headers found through
    # CMAKE_PREFIX_PATH; CMake says exactly what is missing if anything required is.
    echo "bootstrap: warning: could not install ${missing[*]}; building with what is present" >&2
  fi
fi

# The test command also runs the Python package's tests (python/tests, pytest) against a module built in
# this same tree (GPUROTATE_BUILD_PYTHON): nanobind and the bindings compile in about 10 s and link the library
# already built here, so there is no second CUDA compile. pytest, numpy and nanobind go into a venv of this
# tree's (build/python-env), never into the user's own Python: it sees the system's packages (numpy, torch
# where they are installed), and pip adds only what is missing, from PyPI.
python_args=()
python_tests=no
python=python3
has_python_modules() { "$1" -c "import pytest, numpy, nanobind" 2>/dev/null; }
if [ "$mode" = test ] && command -v python3 >/dev/null; then
  venv="$PWD/build/python-env"
  if [ -x "$venv/bin/python" ] && has_python_modules "$venv/bin/python"; then
    python="$venv/bin/python"  # made by an earlier run
  else
    echo "bootstrap: a venv for the Python tests in $venv (pytest, numpy and nanobind from pip where the system has none)"
    rm -rf "$venv"
    if python3 -m venv --system-site-packages "$venv" && { has_python_modules "$venv/bin/python" ||
        "$venv/bin/python" -m pip install --quiet pytest numpy nanobind ml_dtypes; }; then
      python="$venv/bin/python"
    else
      python="$venv/bin/python"
      echo "bootstrap: warning: could not make the venv or install pytest, numpy and nanobind into it with pip" >&2
    fi
  fi
  # ml_dtypes (bfloat16, float8, int4 NumPy arrays) for the tests of those dtypes alone, which skip without it.
  # Into this tree's venv only (a venv made by an earlier run may lack it), never into the user's Python.
  if ! "$python" -c "import ml_dtypes" 2>/dev/null &&
      ! { [ "$python" = "$venv/bin/python" ] && "$python" -m pip install --quiet ml_dtypes 2>/dev/null; }; then
    echo "bootstrap: warning: no ml_dtypes (pip install ml_dtypes): the Python tests of its dtypes are skipped" >&2
  fi
  # ray[data] and pyarrow for gpurotate.ray's pipeline tests (a local Ray cluster), which skip without them;
  # into this tree's venv only. The venv's NumPy is kept (the other tests run with it), and with NumPy 1.x
  # (Debian 12's 1.24) pyarrow stays below 22, which requires NumPy 2 (pyarrow 26 refuses 1.24 on import).
  if ! "$python" -c "import ray.data, pyarrow" 2>/dev/null; then
    numpy_version=$("$python" -c "import numpy; print(numpy.__version__)" 2>/dev/null || true)
    ray_packages=("ray[data]")
    [ -n "$numpy_version" ] && ray_packages+=("numpy==$numpy_version")
    case "$numpy_version" in 1.*) ray_packages+=("pyarrow<22") ;; esac
    if ! { [ "$python" = "$venv/bin/python" ] && "$python" -m pip install --quiet "${ray_packages[@]}" 2>/dev/null &&
        "$python" -c "import ray.data, pyarrow" 2>/dev/null; }; then
      echo "bootstrap: warning: no ray[data] and pyarrow (pip install 'ray[data]'): the Python tests of gpurotate.ray are skipped" >&2
    fi
  fi
  if "$python" -c "import nanobind, numpy, pytest, sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" 2>/dev/null; then
    python_args=(-DGPUROTATE_BUILD_PYTHON=ON "-DPython_EXECUTABLE=$(command -v "$python")")
    python_tests=yes
  else
    python_args=(-DGPUROTATE_BUILD_PYTHON=OFF)  # also where an earlier run of this tree turned it on
    echo "bootstrap: warning: the Python tests are skipped (they need python3 with its headers, nanobind, numpy and pytest)" >&2
  fi
fi

# shellcheck disable=SC2086  # GPUROTATE_CMAKE_ARGS is a list of arguments
# Ninja for a new tree; a tree configured before (by hand, say, with CMake's default generator) keeps its own.
generator=(-G Ninja)
[ -f build/CMakeCache.txt ] && generator=()
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release ${GPUROTATE_CMAKE_ARGS:-} "${python_args[@]}"
if [ "$mode" = demo ]; then
  cmake --build build --parallel --target gpurotate  # the tool, its OpenCV plugin, man pages and completions; not the tests or the bench
else
  cmake --build build --parallel
fi

if [ "$mode" = demo ]; then
  build/gpurotate --version
  build/gpurotate samples/astronaut.png --rot90 -v --overwrite -o build/astronaut-rot90.png
  echo "bootstrap: wrote build/astronaut-rot90.png"
else
  ctest --test-dir build --output-on-failure --parallel "$(nproc)"
  if [ "$python_tests" = yes ]; then
    # No bytecode or cache folders left in the source tree.
    PYTHONPATH=build/python PYTHONDONTWRITEBYTECODE=1 "$python" -m pytest -q -p no:cacheprovider python/tests
  fi
  # The host code again under AddressSanitizer + UndefinedBehaviorSanitizer and, for the augment
  # pipeline's threads, ThreadSanitizer (CPU-only builds at -O1: build-asan/, build-tsan/); then every
  # fuzzer for a fixed number of executions (scripts/fuzz.sh --ci, side by side) from the seed corpus and
  # past findings.
  cmake --preset asan >/dev/null && cmake --build --preset asan --parallel
  ctest --preset asan --parallel "$(nproc)"
  # TSan runs the CPU suite (its preset's label filter), so it builds what that suite runs, and leaves out
  # the sweep of every width, element and size: the CPU backend's one tile loop, which every other case
  # runs too, and 66 of the suite's 115 s under TSan (the release and ASan suites run it); and the 16 MiB
  # mirrors through the streaming-store rule (12 s under TSan, whose model has no streaming stores). Both sanitizer
  # presets leave the check of ctest's test names to the release suite.
  cmake --preset tsan >/dev/null && cmake --build --preset tsan --parallel --target gpurotate gpurotate-bench gpurotate_tests
  ctest --preset tsan --parallel "$(nproc)"
  if command -v clang++ >/dev/null; then
    scripts/fuzz.sh --ci
  else
    echo "bootstrap: warning: clang++ not found, fuzzing skipped (apt-get install clang and its runtime: $clang_runtime)" >&2
  fi
fi
