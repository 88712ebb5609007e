#!/usr/bin/env bash
# Runs every case of the GPU test suite under one compute-sanitizer tool, several cases at a time (each
# case its own process, the CLI processes it starts sanitized too), and prints one line per case with the
# tool's summary:
#   bench/sanitize_tests.sh TOOL [BUILD_DIR] [SECONDS_PER_CASE] [CASES_AT_ONCE] [CASE_REGEX]
#   bench/sanitize_tests.sh memcheck build 300 8
#   GPUROTATE_SANITIZE_CHILDREN=application-only bench/sanitize_tests.sh racecheck build 400 12 'augment|nvJPEG'
# CASE_REGEX (grep -E) picks cases by name. GPUROTATE_SANITIZE_CHILDREN=application-only leaves the CLI processes a
# case starts unsanitized: each loads the whole CLI under the tool, which takes minutes for the cases that
# start many (augment, nvJPEG, bands); bench/sanitize_cuda.sh sanitizes the CLI on its own.
# TOOL is memcheck, racecheck, synccheck or initcheck. Exits 0 only when every case ran to its end with
# a clean summary; a case that runs out of time counts as not clean. bench/sanitize_cuda.sh covers the
# bench's kernel study, the CLI and augment; this covers the tests.
set -uo pipefail
tool="${1:?usage: bench/sanitize_tests.sh memcheck|racecheck|synccheck|initcheck [BUILD_DIR] [SECONDS_PER_CASE] [CASES_AT_ONCE]}"
build="${2:-build}"
limit="${3:-300}"
at_once="${4:-8}"
pattern="${5:-.}"
children="${GPUROTATE_SANITIZE_CHILDREN:-all}"
tests="$build/tests/gpurotate_cuda_tests"
[ -x "$tests" ] || { echo "sanitize_tests: build $tests first" >&2; exit 2; }
sanitizer="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# doctest's filters split at commas and match '?' as any one character.
"$tests" --list-test-cases 2>/dev/null | grep -v -e '^\[doctest\]' -e '^====' | grep -E -- "$pattern" | sed 's/,/?/g' > "$work/cases"
[ -s "$work/cases" ] || { echo "sanitize_tests: $tests lists no test case matching '$pattern'" >&2; exit 2; }

run_case() {  # index, filter
  local log="$work/$1.log"
  timeout "$limit" "$sanitizer" --tool "$tool" --target-processes "$children" --error-exitcode 99 --print-limit 20 "$tests" --test-case="$2" >"$log" 2>&1
  local rc=$?
  local summary
  summary="$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1 | sed 's/^========= //')"
  [ "$rc" -eq 124 ] && summary="timed out after ${limit} s"
  printf '%-10s exit %-3s %-40s %s\n' "$tool" "$rc" "${summary:-no summary}" "$2"
  # A failed check's captured values (doctest's ':=' lines) say which image, format and element it was.
  [ "$rc" -eq 0 ] || grep -m 40 -E "=========|ERROR|FAILED|values:|:= " "$log" | sed 's/^/    /'
  [ "$rc" -eq 0 ]  # xargs stops at a command that exits 255
}
export -f run_case
export tool limit tests sanitizer work children
nl -ba -w1 -s$'\t' "$work/cases" | tr '\n' '\0' |
  xargs -0 -P "$at_once" -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r i name <<< "$1"; run_case "$i" "$name"' _ {}
status=$?
cases=$(wc -l < "$work/cases")
if [ "$status" -eq 0 ]; then echo "$tool: all $cases cases clean"; else echo "$tool: not every case of $cases was clean (lines above)"; fi
exit "$status"
