#!/usr/bin/env bash
# One file, whole process: `gpurotate F --rot90 -o out.EXT` against `vips rot F out.EXT d90` and, for TIFF and
# PNG, ImageMagick's `convert F -rotate 90 out.EXT`, with hyperfine, on the single-file rows of issue 50:
# 640x480 JPEG 4:2:0, 4000x3000 JPEG 4:4:4, 4032x3024 JPEG 4:2:0, 12 MP PNG (RGB 8-bit), 12 MP 16-bit RGB TIFF
# uncompressed and LZW, 16x16 TIFF and 16x16 WebP. Inputs are noisy gradients (bench/single_file_inputs.py).
# Every gpurotate's outputs are checked once (bench/single_file_check.py): a JPEG against jpegtran's bytes,
# the rest against numpy.rot90 of the input's pixels. Rounds interleave the rows, so that a busy minute of a
# shared machine falls on every command alike; the table is the median of the rounds' medians.
#   bench/single_file_bench.sh [NAME=]EXE...        e.g. before=/work/main/build-cpu/gpurotate after=build-cpu/gpurotate
#   environment: RUNS (10 a round), ROUNDS (3), RESULTS (a folder to keep the JSON in; default: a temporary one)
# Prerequisites: hyperfine, libvips-tools (vips), libjpeg-turbo-progs (jpegtran), python3 with numpy and Pillow;
# ImageMagick optional (apt-get install hyperfine libvips-tools libjpeg-turbo-progs imagemagick python3-numpy python3-pil).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python="${PYTHON:-/usr/bin/python3}"
runs="${RUNS:-10}" rounds="${ROUNDS:-3}"
exes=()
for arg in "$@"; do exes+=("$arg"); done
[ ${#exes[@]} -gt 0 ] || exes=("gpurotate=$here/../build-cpu/gpurotate")
for tool in hyperfine vips jpegtran; do
  command -v "$tool" >/dev/null || { echo "single_file_bench: needs $tool (see the prerequisites at the top of $0)" >&2; exit 1; }
done
# The real ImageMagick, not a wrapper script in front of it, where both are installed.
magick="${CONVERT:-$(command -v convert-im6.q16 || command -v magick || command -v convert || true)}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results="${RESULTS:-$work/results}"
mkdir -p "$results" "$work/in" "$work/out"

"$python" "$here/single_file_inputs.py" "$work/in"
vips copy "$work/in/12mp-16bit.ppm" "$work/in/12mp-16bit-none.tif[compression=none]"
vips copy "$work/in/12mp-16bit.ppm" "$work/in/12mp-16bit-lzw.tif[compression=lzw]"

declare -A exe_path
names=()
for spec in "${exes[@]}"; do
  name="${spec%%=*}" path="${spec#*=}"
  [ "$name" != "$spec" ] || name="gpurotate"
  [ -x "$path" ] || { echo "single_file_bench: $path is not an executable" >&2; exit 1; }
  exe_path[$name]="$path" names+=("$name")
done

echo "# $(uname -n), $(nproc) cores, $(date -u +%F); $runs runs x $rounds rounds; $(vips --version)${magick:+; $("$magick" --version | head -1)}"
for name in "${names[@]}"; do echo "# $name: ${exe_path[$name]} ($("${exe_path[$name]}" --version | head -1))"; done
rows=(640x480.jpg 444.jpg 420.jpg 12mp.png 12mp-16bit-none.tif 12mp-16bit-lzw.tif 16x16.tif 16x16.webp)
for round in $(seq 1 "$rounds"); do
  for row in "${rows[@]}"; do
    stem="${row%.*}" ext="${row##*.}"
    commands=()
    for name in "${names[@]}"; do
      commands+=(-n "$name" "${exe_path[$name]} $work/in/$row --rot90 --overwrite -o $work/out/$stem-$name.$ext")
    done
    commands+=(-n vips "vips rot $work/in/$row $work/out/$stem-vips.$ext d90")
    # vips writes an uncompressed TIFF whatever the input's compression; gpurotate keeps it: the like-for-like peer.
    [[ "$row" != *lzw* ]] || commands+=(-n vips-lzw "vips rot $work/in/$row $work/out/$stem-vips-lzw.${ext}[compression=lzw,predictor=horizontal] d90")
    if [ -n "$magick" ] && [[ "$ext" == tif || "$ext" == png ]]; then
      commands+=(-n convert "$magick $work/in/$row -rotate 90 $work/out/$stem-convert.$ext")
    fi
    hyperfine -N -w 2 -r "$runs" --export-json "$results/r$round-$row.json" "${commands[@]}" >/dev/null
  done
  if [ "$round" = 1 ]; then
    for name in "${names[@]}"; do "$python" "$here/single_file_check.py" "$work/in" "$work/out" "$name"; done
    for row in "${rows[@]}"; do
      stem="${row%.*}" ext="${row##*.}"
      printf '# bytes %s: input %s' "$row" "$(stat -c %s "$work/in/$row")"
      for f in "$work/out/$stem"-*."$ext"; do t="${f##*/"$stem"-}"; printf ', %s %s' "${t%.*}" "$(stat -c %s "$f")"; done
      echo
    done
  fi
done
"$python" "$here/single_file_table.py" "$results"
