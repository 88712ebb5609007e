#!/usr/bin/env bash
# Lossless JPEG rotation, whole process: gpurotate (tjTransform) against jpegtran on the same files, in one
# hyperfine run. The files are made from samples/astronaut.png by ImageMagick at camera sizes (12 MP
# 4032x3024, 24 MP 6000x4000, quality 90, 4:2:0: whole MCUs, so rot90 is perfect), plus a 4000x3000 file
# whose rot90 is not (-trim against --jpeg-edge trim).
#   bench/jpeg_lossless_bench.sh [build/gpurotate] [runs]
set -euo pipefail
exe="${1:-build/gpurotate}"
runs="${2:-20}"
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for size in 4032x3024 6000x4000 4000x3000; do
  convert samples/astronaut.png -resize "${size}!" -quality 90 -sampling-factor 4:2:0 "$work/$size.jpg"
done
command -v hyperfine >/dev/null || { echo "jpeg_lossless_bench: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
echo "# $(uname -n), $(nproc) cores; $("$exe" --version | head -1); $(jpegtran -version 2>&1 | head -1)"
for size in 4032x3024 6000x4000; do
  hyperfine -N -w 3 -r "$runs" --export-markdown "$work/$size.md" \
    -n "gpurotate --rot90 $size" "$exe $work/$size.jpg --rot90 --overwrite -o $work/ours.jpg" \
    -n "jpegtran -rotate 90 $size" "jpegtran -rotate 90 -copy all -outfile $work/theirs.jpg $work/$size.jpg" >/dev/null
  cat "$work/$size.md"
  cmp "$work/ours.jpg" "$work/theirs.jpg" >/dev/null && echo "(outputs identical byte for byte)" || echo "(outputs differ in bytes)"
done
hyperfine -N -w 3 -r "$runs" --export-markdown "$work/trim.md" \
  -n "gpurotate --rot90 --jpeg-edge trim 4000x3000" "$exe $work/4000x3000.jpg --rot90 --jpeg-edge trim --overwrite -o $work/ours.jpg" \
  -n "jpegtran -rotate 90 -trim 4000x3000" "jpegtran -rotate 90 -trim -copy all -outfile $work/theirs.jpg $work/4000x3000.jpg" \
  -n "gpurotate --rot90 4000x3000 (re-encode)" "$exe $work/4000x3000.jpg --rot90 --overwrite -o $work/reencoded.jpg" >/dev/null
cat "$work/trim.md"
