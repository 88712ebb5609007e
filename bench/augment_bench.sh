#!/usr/bin/env bash
# The augmentation benchmark: one generated dataset, the same job (every image -> its 7 rotated and
# flipped variants, in the input's format, JPEG quality 95) done by gpurotate with nvJPEG (JPEG set, where
# the build has it), on the GPU and on the CPU, and by the CPU peers (OpenCV and libvips in a process pool over all cores), in one run on one machine.
# The JPEG set has two more rows, gpurotate-lossless and gpurotate-lossless-cpu: gpurotate's default for JPEG
# to JPEG, every variant transformed in the compressed domain from one entropy decode (no re-encode, so not
# the same output as the others': the input's pixels at the input's size), its scans entropy-coded on the
# GPU (where there is one) or by libjpeg on the CPU (--device cpu); the re-encoding rows pass --quality 95.
# Wall time from start until the outputs are on disk (each run is followed by `sync` inside the timing:
# gpurotate flushes its outputs before it reports success, the peers leave them in the page cache; the
# flush's share is a column of its own: gpurotate's from its summary, the peers' the `sync` after them);
# images/s = input images / s; MB/s = output bytes / s (10^6 B). The disk-floor row is no tool: `cp -r` of
# the first tool's outputs (from the page cache) to new files followed by `sync`, both inside its timing, in
# the same run: the same bytes made durable, the least time any tool can take to put them on this machine's
# disk (augment flushes its outputs once at the end, so its floor flushes too). "x floor" is a row's wall
# time over the floor's.
#
# The stage account: gpurotate's rows run with -v, whose summary ends with where the time went (docs/augment.md,
# "Where the time goes"): the listing and the final flush as wall time, and each worker stage (read, entropy
# decode, coefficient transform, scan coding on the CPU or the GPU, pixel decode, kernels, nvJPEG, encode,
# write, rename, manifest, other, idle) as worker-seconds, their share of the workers' time (workers x the
# pipeline's wall) and the pipeline wall time they stand for (worker-seconds / workers). Printed as a table
# below the main one, with the summaries.
#
#   bench/augment_bench.sh [--jpeg N] [--png N] [--jpeg-optimize] [--keep] [--tools a,b]   (env: GPUROTATE=build/gpurotate, WORK=/tmp/...)
#
# --jpeg-optimize makes JPEGs with Huffman tables made for each (as cjpeg -optimize and ImageMagick write them).
#
# WORK on a RAM disk (/dev/shm) takes the disk out of the comparison.
#
# Prints a Markdown table, the stage account of gpurotate's rows, and gpurotate's own summaries below them.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
exe=${GPUROTATE:-$here/../build/gpurotate}
work=${WORK:-/tmp/gpurotate-augment-bench}
jpeg=2000 png=500 keep=0 only= dataset_options=()
while [ $# -gt 0 ]; do
  case $1 in
    --jpeg) jpeg=$2; shift 2 ;;
    --png) png=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --jpeg-optimize) dataset_options+=(--jpeg-optimize); shift ;;
    --tools) only=,$2,; shift 2 ;;
    *) echo "usage: $0 [--jpeg N] [--png N] [--jpeg-optimize] [--keep] [--tools gpurotate-nvjpeg,opencv,...]" >&2; exit 2 ;;
  esac
done

cores=$(nproc)
data=$work/data
# --keep reuses the dataset only where it was made with the same options.
made_with="--jpeg $jpeg --png $png ${dataset_options[*]}"
if [ ! -d "$data" ] || [ "$keep" = 0 ] || [ "$(cat "$work/dataset-options" 2>/dev/null)" != "$made_with" ]; then
  rm -rf "$data"
  python3 "$here/make_dataset.py" --out "$data" --jpeg "$jpeg" --png "$png" "${dataset_options[@]}" >&2
  echo "$made_with" > "$work/dataset-options"
fi

now() { date +%s.%N; }
calc() { awk "BEGIN { print $* }"; }  # bc is not everywhere
summaries=$work/summaries.txt
stages=$work/stages.txt
: > "$summaries"
: > "$stages"
echo "| set | tool | images | wall s | of it flushing s | images/s | output MB | MB/s | vs best CPU peer | x floor |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for set in jpeg png; do
  [ -d "$data/$set" ] || continue
  images=$(find "$data/$set" -type f | wc -l)
  declare -A rate=()
  rows=()
  for tool in gpurotate-lossless gpurotate-lossless-cpu gpurotate-nvjpeg gpurotate-nvjpeg-gpudecode gpurotate-cuda gpurotate-cpu opencv vips; do
    case $tool in
      gpurotate-nvjpeg*) { [ "$set" = jpeg ] && "$exe" --version | grep -q nvJPEG; } || continue ;;
      gpurotate-lossless*) [ "$set" = jpeg ] || continue ;;
    esac
    [ -z "$only" ] || [[ $only == *,$tool,* ]] || continue
    out=$work/out-$tool
    rm -rf "$out"
    sync  # nothing of the previous run left to flush
    case $tool in
      gpurotate-*)
        case $tool in
          gpurotate-nvjpeg) mode=(--nvjpeg) ;;
          gpurotate-nvjpeg-gpudecode) mode=(--nvjpeg --nvjpeg-decode gpu) ;;
          gpurotate-lossless) mode=() ;;
          gpurotate-lossless-cpu) mode=(--device cpu) ;;
          *) mode=(--device "${tool#gpurotate-}") ;;
        esac
        # The re-encoding rows do the peers' job: JPEG at quality 95 (without --quality, JPEG to JPEG is lossless).
        [ "$set" = jpeg ] && [[ $tool != gpurotate-lossless* ]] && mode+=(--quality 95)
        start=$(now)
        if ! "$exe" augment "$data/$set" -r -o "$out" --ops all -v "${mode[@]}" 2> "$work/log-$tool"; then
          echo "| $set | $tool | failed: $(tail -1 "$work/log-$tool") |" ; continue
        fi
        sync
        end=$(now)
        flush=$(grep -o '([0-9.]* s of it flushing' "$work/log-$tool" | tr -d '(' | cut -d' ' -f1)
        { echo "== $set, $tool"; grep '^gpurotate: ' "$work/log-$tool" | grep -v '^gpurotate: \(progress\|stage\)'; } >> "$summaries"
        # "gpurotate: stage NAME: S worker-s, P% of the workers' time, ~W s of the pipeline's wall" (or "S s wall, P% of the run").
        sed -n "s/^gpurotate: stage \([^:]*\): \([0-9.]*\) \(worker-s\|s wall\), \([0-9.]*\)% of the \([a-z' ]*\)\(, ~\([0-9.]*\) s.*\)\{0,1\}$/| $set | $tool | \1 | \2 \3 | \4% of the \5 | \7 |/p" \
          "$work/log-$tool" >> "$stages" ;;
      opencv|vips)
        start=$(now)
        if ! python3 "$here/augment_peers.py" --tool "$tool" --jobs "$cores" "$data/$set" "$out" > "$work/log-$tool" 2>&1; then
          echo "| $set | $tool | not available: $(tail -1 "$work/log-$tool" | cut -c1-80) |"; continue
        fi
        written=$(now)
        sync
        end=$(now)
        flush=$(calc "$end - $written") ;;
    esac
    bytes=$(find "$out" -type f -name '*_*' ! -name 'manifest.jsonl' -printf '%s\n' | awk '{s += $1} END {print s + 0}')
    wall=$(calc "$end - $start")
    rate[$tool]=$(calc "$images / $wall")
    rows+=("$(printf '%s|%s|%d|%.2f|%.2f|%.1f|%.0f|%.1f' "$set" "$tool" "$images" "$wall" "${flush:-0}" "${rate[$tool]}" "$(calc "$bytes / 1000000")" "$(calc "$bytes / 1000000 / $wall")")")
    if [ -z "${rate[disk-floor]:-}" ]; then
      sync
      start=$(now)
      cp -r "$out" "$work/floor"
      written=$(now)
      sync
      end=$(now)
      wall=$(calc "$end - $start")
      rate[disk-floor]=$(calc "$images / $wall")
      rows+=("$(printf '%s|%s|%d|%.2f|%.2f|%.1f|%.0f|%.1f' "$set" "disk-floor" "$images" "$wall" "$(calc "$end - $written")" "${rate[disk-floor]}" "$(calc "$bytes / 1000000")" "$(calc "$bytes / 1000000 / $wall")")")
      rm -rf "$work/floor"
    fi
    rm -rf "$out"
  done
  best=0
  for peer in opencv vips; do
    [ -n "${rate[$peer]:-}" ] && best=$(calc "(${rate[$peer]} > $best) ? ${rate[$peer]} : $best")
  done
  for row in "${rows[@]}"; do
    IFS='|' read -r s t n w f r mb mbs <<< "$row"
    ratio=$( [ "$best" != 0 ] && printf '%.2fx' "$(calc "${rate[$t]} / $best")" || echo "-")
    floor=$( [ -n "${rate[disk-floor]:-}" ] && printf '%.2fx' "$(calc "${rate[disk-floor]} / ${rate[$t]}")" || echo "-")
    echo "| $s | $t | $n | $w | $f | $r | $mb | $mbs | $ratio | $floor |"
  done
  unset rate
done
echo
echo "machine: $cores cores; $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || echo 'no GPU')"
echo
if [ -s "$stages" ]; then
  echo "Stage account (gpurotate -v; worker stages as worker-seconds and the pipeline wall they stand for, the listing and the flush as wall time):"
  echo
  echo "| set | tool | stage | time | share | ~ pipeline wall s |"
  echo "|---|---|---|---:|---:|---:|"
  cat "$stages"
  echo
fi
cat "$summaries"
