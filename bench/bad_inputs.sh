#!/usr/bin/env bash
# How every file of the fuzzers' seed corpus ends when given to the CLI: the table of bad inputs by kind
# in bench/RESULTS.md. Needs build/gpurotate and the corpus writer of the asan preset's tree (scripts/fuzz.sh builds it).
#   bench/bad_inputs.sh [GPUROTATE] [MAKE_CORPUS]
set -euo pipefail
exe="${1:-build/gpurotate}"
make_corpus="${2:-build-asan/tests/fuzz/make_corpus}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in" && "$make_corpus" "$work/in" >/dev/null
declare -A count
for f in "$work"/in/*; do
  name="$(basename "$f")"
  case "$name" in
    *-truncated-half.*) kind="truncated to half" ;;
    *-truncated-header.*) kind="truncated to 20 bytes" ;;
    *-flipped.*) kind="one byte flipped" ;;
    png-huge* | png-wide* | jpeg-huge* | tiff-huge* | webp-*) kind="huge declared size" ;;
    png-zero* | jpeg-zero*) kind="zero declared size" ;;
    png-bad-ihdr-crc*) kind="bad header checksum" ;;
    png-palette-without-plte*) kind="palette type without a palette" ;;
    empty.bin) kind="empty file" ;;
    *) kind="valid" ;;
  esac
  status=0
  ext="${name##*.}"; [ "$ext" = bin ] && ext=png
  "$exe" "$f" --rot90 --device cpu -o "$work/out.$ext" --overwrite >"$work/log" 2>&1 || status=$?
  # 128+ is a signal: a crash, which must never happen.
  [ -s "$work/out.$ext" ] && [ "$status" -ne 0 ] && status="$status+partial-output"
  rm -f "$work/out.$ext"
  [ "$kind" != valid ] && [ "$status" = 0 ] && echo "decoded without complaint: $name" >&2
  key="$kind|$status"
  count[$key]=$((${count[$key]:-0} + 1))
done
echo "| kind | files | exit status (count) |"
echo "|---|---|---|"
for kind in "valid" "truncated to half" "truncated to 20 bytes" "one byte flipped" "huge declared size" "zero declared size" \
            "bad header checksum" "palette type without a palette" "empty file"; do
  total=0; detail=""
  for key in "${!count[@]}"; do
    [ "${key%%|*}" = "$kind" ] || continue
    total=$((total + count[$key])); detail="$detail ${key#*|} (${count[$key]}),"
  done
  echo "| $kind | $total | ${detail%,} |"
done
