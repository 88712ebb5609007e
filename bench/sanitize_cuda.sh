#!/usr/bin/env bash
# Runs every CUDA kernel under compute-sanitizer's four tools on a GPU machine:
#   bench/sanitize_cuda.sh [BUILD_DIR] [SECONDS_PER_STEP]      (defaults build, 150)
# The test suite's cases launch thousands of kernels and take too long under memcheck, so the work is
# chosen to launch each kernel a few times on small images: the bench's whole kernel study (the seeds'
# kernels, the production kernels, the fused multi-output kernels) on 256x256 images of every pixel
# width; the CLI through each transposing kernel and through bands (--gpu-memory); augment's GPU
# sessions on the samples; and the tests' GpuSession and in-place cases. One line per tool and step
# with sanitizer's error summary; exits non-zero when any tool reports an error.
set -uo pipefail
build="${1:-build}"
limit="${2:-150}"
exe="$build/gpurotate"
tests="$build/tests/gpurotate_cuda_tests"
[ -x "$exe" ] && [ -x "$tests" ] || { echo "sanitize_cuda: build $exe and $tests first" >&2; exit 2; }
sanitizer="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
step() {  # tool, label, command...
  local tool="$1" label="$2"; shift 2
  local log="$work/log"
  timeout "$limit" "$sanitizer" --tool "$tool" --target-processes all --error-exitcode 99 --print-limit 20 "$@" >"$log" 2>&1
  local rc=$?
  local summary
  summary="$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1 | sed 's/^========= //')"
  [ "$rc" -eq 124 ] && summary="timed out after ${limit} s"
  printf '%-10s %-34s exit %-3s %s\n' "$tool" "$label" "$rc" "${summary:-no summary}"
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then
    status=1
    grep -m 30 -E "=========" "$log" >&2
  fi
}
for tool in memcheck racecheck synccheck initcheck; do
  # racecheck is the slowest by far: one type per pixel-word family (1, 3, 6, 12, 16 bytes) for it.
  types=all
  [ "$tool" = racecheck ] && types=u8c1,u8c3,u16c3,f32c3,f32c4
  step "$tool" "bench kernel study, 256x256, $types" "$exe" bench --size 256x256 --reps 1 --type "$types"
  step "$tool" "CLI tile32/tile16/vectorized" bash -c "for k in tile32-padded tile16-skiplines vectorized; do \
    $exe samples/coffee.png --transpose --device cuda --kernel \$k --overwrite -o $work/k.png || exit 1; done"
  step "$tool" "CLI in bands (--gpu-memory 256K)" "$exe" samples/astronaut.png --rot270 --device cuda --gpu-memory 256K --overwrite -o "$work/b.png"
  step "$tool" "augment --ops all on the samples" "$exe" augment samples --ops all --device cuda --overwrite --quiet -o "$work/aug"
  step "$tool" "tests: GpuSession, in place" "$tests" --test-case='*GpuSession*,*in_place*'
done
exit "$status"
