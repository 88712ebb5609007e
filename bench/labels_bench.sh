#!/usr/bin/env bash
# What --labels costs: one generated YOLO pose dataset (N JPEGs of WxH under images/train/, a label file
# of 8 pose rows of 17 keypoints each under labels/train/, data.yaml with kpt_shape and flip_idx), every
# element of every image written by `augment`, with and without `--labels yolo`, alternating, R runs each,
# the outputs flushed (augment syncs before it reports). Each run writes into a folder of its own and nothing
# is removed until the end: ext4 creates files slowly right after many were deleted, which would charge one
# row for the other's removals. Prints each run's images/s and the median ratio.
#
#   bench/labels_bench.sh [--images N] [--size WxH] [--runs R] [--device cpu|cuda|auto]   (env: GPUROTATE=build/gpurotate, WORK=/tmp/...)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exe=${GPUROTATE:-$here/../build/gpurotate}
work=${WORK:-/tmp/gpurotate-labels-bench}
images=400 runs=5 device=auto size=640x480
while [ $# -gt 0 ]; do
  case $1 in
    --images) images=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    *) echo "usage: $0 [--images N] [--size WxH] [--runs R] [--device cpu|cuda|auto]" >&2; exit 2 ;;
  esac
done
rm -rf "$work" && mkdir -p "$work/data/images/train" "$work/data/labels/train"
python3 - "$work/data" "$images" "${size%x*}" "${size#*x}" <<'PY'
import os, sys
import numpy as np
from PIL import Image
root, count, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = np.random.default_rng(1)
flip = [0, 2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15]
with open(os.path.join(root, "data.yaml"), "w") as f:
    f.write(f"path: {root}\ntrain: images/train\nval: images/train\nkpt_shape: [17, 3]\nflip_idx: {flip}\nnames:\n  0: person\n")
y, x = np.mgrid[0:height, 0:width]
for i in range(count):
    base = ((x * (3 + i % 5) + y * 7) % 256).astype(np.uint8)
    rgb = np.stack([base, np.roll(base, i, 1), 255 - base], -1) + rng.integers(0, 12, (height, width, 3), dtype=np.uint8)
    Image.fromarray(rgb).save(os.path.join(root, "images/train", f"p{i:05d}.jpg"), quality=90)
    rows = []
    for _ in range(8):
        cx, cy, w, h = rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8), rng.uniform(0.05, 0.3), rng.uniform(0.05, 0.3)
        kp = " ".join(f"{rng.uniform(0, 1):.6f} {rng.uniform(0, 1):.6f} {rng.integers(0, 3)}" for _ in range(17))
        rows.append(f"0 {cx:.6f} {cy:.6f} {w:.6f} {h:.6f} {kp}")
    with open(os.path.join(root, "labels/train", f"p{i:05d}.txt"), "w") as f:
        f.write("\n".join(rows) + "\n")
PY
rate() {  # images/s from augment's summary
  grep -o '[0-9.]* images/s' | head -1 | cut -d' ' -f1
}
echo "$images JPEGs of $size, --device $device, $(nproc) cores"
echo "| run | without --labels images/s | with --labels yolo images/s | ratio |"
echo "|---:|---:|---:|---:|"
ratios=()
for r in $(seq 1 "$runs"); do
  sync; plain=$("$exe" augment "$work/data" -r -o "$work/plain-$r" --device "$device" 2>&1 | rate)
  sync; labelled=$("$exe" augment "$work/data" -r -o "$work/labelled-$r" --device "$device" --labels yolo 2>&1 | rate)
  ratio=$(awk "BEGIN { printf \"%.3f\", $labelled / $plain }")
  ratios+=("$ratio")
  echo "| $r | $plain | $labelled | $ratio |"
done
printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { print "median ratio (with / without): " a[int((NR + 1) / 2)] }'
rm -rf "$work"
