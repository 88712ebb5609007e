#!/usr/bin/env bash
# PNG decode + encode, whole process (hyperfine -N), for one or more gpurotate executables side by side
# (this build's libspng codec against an earlier commit's, say): a photo (samples/astronaut.png, and the
# same at 1920x1080), a drawing (flat colours and lines, 1920x1080, made here by ImageMagick), a 16-bit
# photo (samples/coffee-16bit.png) and a palette PNG (the 1920x1080 photo in 256 colours). Each runs
# --rot90 to a PNG at --png-level 1 (the default) and 6; the table has hyperfine's mean, the median of 5
# runs' decode and encode times as -v reports them (decode includes reading the file) and the output's bytes.
#   bench/png_codec_bench.sh [NAME=]EXE... [runs]     e.g. spng=build/gpurotate hand=/tmp/base/build/gpurotate 20
set -euo pipefail
cd "$(dirname "$0")/.."
exes=() runs=10
for arg in "$@"; do
  if [[ "$arg" =~ ^[0-9]+$ ]]; then runs="$arg"; else exes+=("$arg"); fi
done
[ ${#exes[@]} -gt 0 ] || exes=(build/gpurotate)
command -v hyperfine >/dev/null || { echo "png_codec_bench: needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
command -v convert >/dev/null || { echo "png_codec_bench: needs ImageMagick (apt-get install imagemagick)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp samples/astronaut.png "$work/photo-512.png"
convert samples/astronaut.png -resize '1920x1080!' "$work/photo-1080p.png"
convert -size 1920x1080 xc:white -fill '#2060c0' -draw 'rectangle 100,100 900,600' -fill '#e04020' -draw 'circle 1400,500 1400,900' \
  -stroke black -strokewidth 3 -draw 'line 0,0 1919,1079' -draw 'line 0,1079 1919,0' -fill '#30a030' -draw 'polygon 1000,1000 1800,1000 1400,700' \
  "$work/drawing-1080p.png"
cp samples/coffee-16bit.png "$work/photo-16bit.png"
convert "$work/photo-1080p.png" -colors 256 PNG8:"$work/palette-1080p.png"

echo "# $(uname -n), $(nproc) cores, $runs runs each; whole process: read, decode, rot90 (CPU), encode, write"
printf '| input | exe | level | mean ms | ± ms | decode ms | encode ms | output bytes |\n|---|---|---|---|---|---|---|---|\n'
for input in photo-512 photo-1080p drawing-1080p photo-16bit palette-1080p; do
  for level in 1 6; do
    for entry in "${exes[@]}"; do
      name="${entry%%=*}" exe="${entry#*=}"
      [ "$name" = "$entry" ] && name=$(basename "$(dirname "$(dirname "$exe")")")
      out="$work/out-$name.png"
      hyperfine -N -w 2 -r "$runs" --export-json "$work/h.json" \
        "$exe $work/$input.png --rot90 --png-level $level --overwrite -o $out" >/dev/null 2>&1
      for _ in 1 2 3 4 5; do
        "$exe" "$work/$input.png" --rot90 --png-level "$level" --overwrite -o "$out" -v 2>&1 | grep -o 'decode [0-9.]* ms\|encode [0-9.]* ms' | grep -o '[0-9.]*' | tr '\n' ' '
        echo
      done >"$work/stages.txt"
      decode=$(awk '{ print $1 }' "$work/stages.txt" | sort -n | sed -n 3p)
      encode=$(awk '{ print $2 }' "$work/stages.txt" | sort -n | sed -n 3p)
      python3 - "$work/h.json" "$input" "$name" "$level" "$decode" "$encode" "$(stat -c %s "$out")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {sys.argv[4]} | {r['mean'] * 1e3:.1f} | {r['stddev'] * 1e3:.1f} | {sys.argv[5]} | {sys.argv[6]} | {sys.argv[7]} |")
PY
    done
  done
done
