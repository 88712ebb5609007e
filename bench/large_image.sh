#!/usr/bin/env bash
# The largest-image figure: one WxH RGB PNG (default 20000x20000, 1.2 GB of pixels) rotated on the GPU
# with the whole image in device memory, then again under a small --gpu-memory budget (bands); prints
# wall time, peak host memory (max RSS) and peak device memory (nvidia-smi, sampled every 20 ms) of each,
# and checks that the two outputs are the same file.
#   bench/large_image.sh [WIDTHxHEIGHT] [BUDGET]        (defaults 20000x20000 and 512M)
set -euo pipefail
size="${1:-20000x20000}"
budget="${2:-512M}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$size" "$work/big.png" <<'PY'
import sys, numpy as np, cv2
w, h = map(int, sys.argv[1].split("x"))
y = np.arange(h, dtype=np.uint32)[:, None]
x = np.arange(w, dtype=np.uint32)[None, :]
img = np.empty((h, w, 3), np.uint8)
img[..., 0] = (x * 7 + y) & 255; img[..., 1] = (x ^ y) & 255; img[..., 2] = (x * y >> 5) & 255
cv2.imwrite(sys.argv[2], img, [cv2.IMWRITE_PNG_COMPRESSION, 1])
PY
measure() {  # label, gpurotate arguments...
  local label="$1"; shift
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 20 >"$work/mem.log" 2>/dev/null &
  local smi=$!
  sleep 0.5
  python3 - "$@" <<'PY' >"$work/run.log"
import resource, subprocess, sys, time
t = time.perf_counter()
p = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
sys.stderr.write(p.stderr)
print(f"{p.returncode} {wall:.2f} {rss:.0f}")
PY
  sleep 0.3
  kill "$smi"; wait "$smi" 2>/dev/null || true
  read -r rc wall rss <"$work/run.log"
  local base peak
  base="$(head -1 "$work/mem.log")"; peak="$(sort -n "$work/mem.log" | tail -1)"
  echo "$label: exit $rc, wall ${wall} s, peak host ${rss} MiB, peak device $((peak - base)) MiB above idle"
}
ls -l "$work/big.png" | awk '{ printf "input: %s, %.2f GB file\n", "'"$size"' RGB 8-bit PNG", $5 / 1e9 }'
measure "whole image on the GPU" build/gpurotate "$work/big.png" --rot90 --device cuda --png-level 1 -v -o "$work/whole.png"
measure "--gpu-memory $budget (bands)" build/gpurotate "$work/big.png" --rot90 --device cuda --png-level 1 -v --gpu-memory "$budget" -o "$work/banded.png"
cmp "$work/whole.png" "$work/banded.png" && echo "outputs identical"
