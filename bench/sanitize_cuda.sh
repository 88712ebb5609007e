#!/usr/bin/env bash
# Runs the CUDA test cases under compute-sanitizer's four tools on a GPU machine:
#   bench/sanitize_cuda.sh [BUILD_DIR]          (default build; needs gpurotate_cuda_tests built)
# memcheck and initcheck over every GPU case; racecheck and synccheck (shared-memory hazards and
# barriers) over the cases that run the shared-memory kernels. Prints one line per tool with its error
# count and exits non-zero when any tool reports an error.
set -uo pipefail
build="${1:-build}"
tests="$build/tests/gpurotate_cuda_tests"
[ -x "$tests" ] || { echo "sanitize_cuda: $tests not built" >&2; exit 2; }
sanitizer="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
# The shared-memory kernels: both tiles, the vectorized kernels' store buffers, the fused multi-output kernels, in-place swaps.
shared_cases='*CUDA*,*fused*,*multi-output*,*in_place*'
status=0
run_tool() {  # tool, doctest filter
  local tool="$1" filter="$2" log
  log="$(mktemp)"
  "$sanitizer" --tool "$tool" --error-exitcode 99 --print-limit 20 "$tests" --test-case="$filter" >"$log" 2>&1
  local rc=$?
  local summary
  summary="$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)"
  local cases
  cases="$(grep -E "test cases:" "$log" | tail -1 | sed 's/^\[doctest\] *//')"
  echo "compute-sanitizer $tool: exit $rc; ${summary:-no summary}; $cases"
  if [ "$rc" -ne 0 ]; then
    status=1
    grep -m 30 -E "=========|ERROR" "$log" >&2
  fi
  rm -f "$log"
}
run_tool memcheck '*'
run_tool initcheck '*'
run_tool racecheck "$shared_cases"
run_tool synccheck "$shared_cases"
exit "$status"
