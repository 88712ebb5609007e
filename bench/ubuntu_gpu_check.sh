#!/bin/bash
# The check on a GPU machine that runs Ubuntu 24.04 with its own libjpeg-turbo8-dev (libjpeg ABI 80) and no
# package registry: build against the system's libjpeg, with only what the machine lacks unpacked from
# Debian 12's packages; then ctest, pytest, a short `gpurotate bench`, and a JPEG dataset through augment on
# the CPU and the GPU, its bytes compared with each other and with jpegtran's. `bench/ubuntu_gpu_check.sh
# bench` runs all of it; without `bench`, the tests only. Before, on a machine with Debian's archive, in
# the repository (.deps/ is ignored by git):
#   mkdir -p .deps/debs && (cd .deps/debs && apt-get download libspng0 libspng-dev libturbojpeg0 libturbojpeg0-dev \
#       libstb-dev libstb0 libcli11-dev doctest-dev zlib1g-dev libjpeg-turbo-progs libjpeg62-turbo exiftran libexif12 \
#       nlohmann-json3-dev libtinyxml2-dev libtinyxml2-9 libyaml-cpp-dev libyaml-cpp0.7 libarchive-dev libtiff-dev libwebp-dev libtiff-tools \
#       libtiff6 libwebp7 libwebpmux3 libwebpdemux2 libdeflate0 libjbig0 liblerc4 libarchive13)
#   for d in libspng0 libspng-dev libturbojpeg0_ libturbojpeg0-dev libstb-dev libstb0 libcli11-dev doctest-dev \
#       nlohmann-json3-dev libtinyxml2-dev libtinyxml2-9 libyaml-cpp-dev libyaml-cpp0.7 libarchive-dev libtiff-dev libwebp-dev \
#       libtiff6 libwebp7 libwebpmux3 libwebpdemux2 libdeflate0 libjbig0 liblerc4 libarchive13 libjpeg62-turbo; do
#       dpkg -x .deps/debs/$d*.deb .deps/root; done
#   dpkg -x .deps/debs/zlib1g-dev*.deb .deps/zlib
#   for d in libjpeg-turbo-progs libjpeg62-turbo exiftran libexif12 libtiff-tools; do dpkg -x .deps/debs/$d*.deb .deps/tools; done
# Debian's jpegtran, djpeg and exiftran (the references) run with Debian's libjpeg62 beside them, through
# wrappers in .deps/bin; CMake is never pointed at it. Results: bench/RESULTS.md.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
{
echo "== system"; head -2 /etc/os-release; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
dpkg -l | grep -E "jpeg|spng|libstb|cli11|doctest|zlib1g|exif|imagemagick|sixel|tiff|webp" | awk '{print $2, $3}'
ls /usr/include/jpegint.h /usr/include/*/jconfig.h 2>&1; grep -h "JPEG_LIB_VERSION\|LIBJPEG_TURBO_VERSION " /usr/include/*/jconfig.h
} 2>&1 | tee "$OUT/system.txt"
# Outside the source tree, as a user's own prefix would be: CMake gives an installed binary the rpath of
# linked libraries outside the project only.
rm -rf /tmp/gpurotate-deps && cp -a "$root/.deps/root" /tmp/gpurotate-deps
prefix="/tmp/gpurotate-deps/usr"
if [ ! -e /usr/include/zlib.h ]; then
  ln -sfn /usr/lib/x86_64-linux-gnu/libz.so.1 "$root/.deps/zlib/usr/lib/x86_64-linux-gnu/libz.so"
  prefix="$prefix;$root/.deps/zlib/usr"
fi
# Ubuntu 24.04's GPU machine has no libtiff, libwebp or libarchive at all: Debian's runtime packages come
# with their -dev ones (libtiff6 libwebp7 libwebpmux3 libwebpdemux2 libdeflate0 libjbig0 liblerc4
# libarchive13, and libjpeg62-turbo, which libtiff6 needs: its symbols are versioned LIBJPEG_6.2, so it
# never meets the machine's libjpeg8 that gpurotate links), found by the binaries' run path and, for their
# own dependencies, by LD_LIBRARY_PATH.
export LD_LIBRARY_PATH="/tmp/gpurotate-deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$root/.deps/bin"
for tool in jpegtran cjpeg djpeg wrjpgcom rdjpgcom exiftran tiffinfo; do
  if ! command -v $tool >/dev/null; then
    printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$root/.deps/tools/usr/lib/x86_64-linux-gnu" "$root/.deps/tools/usr/bin/$tool" > "$root/.deps/bin/$tool"
    chmod +x "$root/.deps/bin/$tool"; echo "carried: $tool"
  else echo "system: $(command -v $tool)"; fi
done | tee -a "$OUT/system.txt"
export PATH="$root/.deps/bin:$PATH"
start=$(date +%s); rm -f build/CMakeCache.txt
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DGPUROTATE_BUILD_PYTHON=ON \
  -DPython_EXECUTABLE="$(command -v python3)" "-DCMAKE_PREFIX_PATH=$prefix" > "$OUT/configure.txt" 2>&1 || { tail -30 "$OUT/configure.txt"; exit 1; }
grep -E "libjpeg|CUDA|nvJPEG|OpenCV|Python|jpegint" "$OUT/configure.txt"
ninja -C build > "$OUT/build.txt" 2>&1 || { grep -B5 -A20 "error" "$OUT/build.txt" | head -80; exit 1; }
echo "build: $(( $(date +%s) - start )) s"
# --output-on-failure: a case that fails once and passes when rerun keeps its first failure's text in ctest.txt.
ctest --test-dir build --parallel 16 --output-on-failure > "$OUT/ctest.txt" 2>&1; tail -25 "$OUT/ctest.txt"
if ! grep -q "100% tests passed" "$OUT/ctest.txt"; then
  ctest --test-dir build --rerun-failed --output-on-failure > "$OUT/failed.txt" 2>&1
  grep -E -B2 -A14 "ERROR|Test +#" "$OUT/failed.txt" | head -200
fi
PYTHONPATH=build/python PYTHONDONTWRITEBYTECODE=1 python3 -m pytest -q -p no:cacheprovider python/tests > "$OUT/pytest.txt" 2>&1; tail -3 "$OUT/pytest.txt"
[ "${1:-}" = bench ] || exit 0
build/gpurotate --version | tee "$OUT/version.txt"
build/gpurotate bench --size 8192x8192 --type u8c1,u8c3,u8c4,u16c1,f32c1 --op rot90,rot180,transpose --reps 10 > "$OUT/bench.txt" 2>&1; tail -30 "$OUT/bench.txt"
# A JPEG dataset: 48 camera-sized 4:2:0 JPEGs (PIL), every variant, CPU and GPU, with jpegtran's bytes as the check.
python3 - <<'PY'
import numpy as np, os
from PIL import Image
os.makedirs("/tmp/jin", exist_ok=True)
rng = np.random.default_rng(1)
y, x = np.mgrid[0:1081, 0:1920]
for i in range(48):
    base = ((x * (3 + i % 5) + y * 7 + ((x // 37 + y // 23) % 2) * 80) % 256).astype(np.uint8)
    rgb = np.stack([base, np.roll(base, i, 1), 255 - base], -1) + rng.integers(0, 12, (1081, 1920, 3), dtype=np.uint8)
    Image.fromarray(rgb).save(f"/tmp/jin/p{i:02d}.jpg", quality=88, optimize=(i % 2 == 0), subsampling=2)
PY
for dev in cpu cuda; do
  echo "== augment --device $dev"; rm -rf /tmp/jout-$dev; build/gpurotate augment /tmp/jin -o /tmp/jout-$dev --jpeg-edge trim --device $dev 2>&1 | grep -v "^\s*$" | tee -a "$OUT/augment.txt"
done
diff -r /tmp/jout-cpu /tmp/jout-cuda --exclude=manifest.jsonl > /dev/null && echo "augment: cuda bytes == cpu bytes" | tee -a "$OUT/augment.txt"
bad=0; for f in /tmp/jout-cuda/*.jpg; do djpeg "$f" > /dev/null 2>&1 || bad=$((bad+1)); done; echo "undecodable: $bad" | tee -a "$OUT/augment.txt"
same=0; n=0; for f in /tmp/jin/*.jpg; do s=$(basename "$f" .jpg); for op in "rot90:-rotate 90" "transverse:-transverse" "flip-h:-flip horizontal"; do o=${op%%:*}; a=${op#*:}; opt=""; [ $((10#${s:1} % 2)) -eq 0 ] && opt=-optimize; jpegtran $a -trim -copy all $opt "$f" > /tmp/t.jpg; n=$((n+1)); cmp -s /tmp/t.jpg /tmp/jout-cuda/${s}_$o.jpg && same=$((same+1)); done; done; echo "jpegtran-identical: $same of $n" | tee -a "$OUT/augment.txt"
