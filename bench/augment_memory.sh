#!/usr/bin/env bash
# Peak host memory of `augment --ops all` on one large image: a WxH RGB PNG (default 20000x20000, 1.2 GB of
# pixels, 7 variants of 1.2 GB each), once under a 4G `--host-memory` budget (its variants made one at a time)
# and once under the default budget (half the machine's memory: one pass where that holds them). Prints the
# summary line's peak host memory and the wall time of each, and checks that the two runs wrote the same files.
#   bench/augment_memory.sh [WIDTHxHEIGHT] [JOBS]     (defaults 20000x20000 and 16)
set -euo pipefail
size="${1:-20000x20000}"
jobs="${2:-16}"
exe="${GPUROTATE:-build/gpurotate}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/in"
python3 - "$size" "$work/in/big.png" <<'PY'
import struct, sys, zlib
w, h = map(int, sys.argv[1].split("x"))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
row = bytes((x * 7) & 255 for x in range(w * 3))
z = zlib.compressobj(1)
with open(sys.argv[2], "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)))
    data = b"".join(z.compress(b"\x00" + row[(y % 3):] + row[:(y % 3)]) for y in range(h)) + z.flush()
    f.write(chunk(b"IDAT", data) + chunk(b"IEND", b""))
PY
run() {  # label, output folder, augment options...
  local label="$1" out="$2"; shift 2
  local start end
  start=$(date +%s.%N)
  "$exe" augment "$work/in" -o "$out" --ops all --device cpu --png-level 0 "$@" 2>"$work/log"
  end=$(date +%s.%N)
  printf '%-44s %s, %.1f s\n' "$label" "$(grep -o 'peak memory: host [^,]*' "$work/log")" "$(echo "$end - $start" | bc)"
}
run "-j $jobs, --host-memory 4G" "$work/shared" -j "$jobs" --host-memory 4G
run "-j $jobs, --host-memory default ($(awk '/MemTotal/ {printf "%.1f GiB", $2 / 2 / 1048576}' /proc/meminfo))" "$work/whole" -j "$jobs"
diff -r -x manifest.jsonl "$work/shared" "$work/whole" >/dev/null && echo "the same files"
