#!/usr/bin/env bash
# Runs every case of the GPU test suite under one compute-sanitizer tool, several cases at a time (each
# case its own process), and prints one line per case with the tool's summary:
#   bench/sanitize_tests.sh TOOL [BUILD_DIR] [SECONDS_PER_CASE] [CASES_AT_ONCE] [CASE_REGEX]
#   bench/sanitize_tests.sh memcheck build 300 8
#   bench/sanitize_tests.sh racecheck build 400 12 'augment|nvJPEG'
# CASE_REGEX (grep -E) picks cases by name. The cases of the test suite "cli" start the gpurotate CLI: a CLI
# process started by a test process under the tool waits for the tool until it is killed (compute-sanitizer
# 2025.3.1, with --target-processes all or application-only), so for those cases the test process runs
# plain and each CLI process runs under the tool on its own (GPUROTATE_TEST_CLI_WRAPPER, tests/test_support.hpp),
# its report in its own file; their line counts the CLI processes checked.
# On an H100 the suite takes under a minute under memcheck (15 at once); under racecheck the bench-study and
# "augment on the GPU" cases need 5 minutes each with 2 at once, and more than 500 s with 15 at once.
# TOOL is memcheck, racecheck, synccheck or initcheck. Exits 0 only when every case ran to its end with
# a clean summary; a case that runs out of time counts as not clean. bench/sanitize_cuda.sh covers the
# bench's kernel study, the CLI and augment; this covers the tests.
set -uo pipefail
tool="${1:?usage: bench/sanitize_tests.sh memcheck|racecheck|synccheck|initcheck [BUILD_DIR] [SECONDS_PER_CASE] [CASES_AT_ONCE]}"
build="${2:-build}"
limit="${3:-300}"
at_once="${4:-8}"
pattern="${5:-.}"
tests="$build/tests/gpurotate_cuda_tests"
[ -x "$tests" ] || { echo "sanitize_tests: build $tests first" >&2; exit 2; }
sanitizer="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
work="$(mktemp -d)"
summary_line='(ERROR|RACECHECK) SUMMARY'  # the last line of every tool's report
trap 'rm -rf "$work"' EXIT

# doctest's filters split at commas and match '?' as any one character.
list_cases() {  # doctest's listing, one name a line, with any extra filter arguments
  "$tests" --list-test-cases "$@" 2>/dev/null | grep -v -e '^\[doctest\]' -e '^====' | sed 's/,/?/g'
}
list_cases | grep -E -- "$pattern" > "$work/cases"
list_cases --test-suite=cli > "$work/cli-cases"
[ -s "$work/cases" ] || { echo "sanitize_tests: $tests lists no test case matching '$pattern'" >&2; exit 2; }

run_case() {  # index, filter
  local log="$work/$1.log" rc summary
  if grep -qxF -- "$2" "$work/cli-cases"; then
    GPUROTATE_TEST_CLI_WRAPPER="$sanitizer --tool $tool --require-cuda-init no --error-exitcode 99 --print-limit 20 --log-file $work/$1.cli.%p.log" \
      timeout "$limit" "$tests" --test-case="$2" >"$log" 2>&1
    rc=$?
    local reports=("$work/$1".cli.*.log) checked dirty
    [ -e "${reports[0]}" ] || reports=()
    checked=0; dirty=0
    for r in "${reports[@]}"; do
      grep -q -E "$summary_line" "$r" && checked=$((checked + 1))
      grep -q -E "$summary_line: [1-9]" "$r" && dirty=$((dirty + 1))
      cat "$r" >> "$log"
    done
    # A CLI process that never reached CUDA (a refused argument, a CPU-only path) leaves a report without a summary.
    summary="$checked CLI processes checked, $dirty with findings (${#reports[@]} started)"
    [ "$rc" -eq 0 ] && { [ "$dirty" -gt 0 ] || [ "$checked" -eq 0 ]; } && rc=98
  else
    timeout "$limit" "$sanitizer" --tool "$tool" --target-processes application-only --error-exitcode 99 --print-limit 20 "$tests" --test-case="$2" >"$log" 2>&1
    rc=$?
    summary="$(grep -E "$summary_line" "$log" | tail -1 | sed 's/^========= //')"
  fi
  [ "$rc" -eq 124 ] && summary="timed out after ${limit} s"
  printf '%-10s exit %-3s %-40s %s\n' "$tool" "$rc" "${summary:-no summary}" "$2"
  # A failed check's captured values (doctest's ':=' lines) say which image, format and element it was.
  [ "$rc" -eq 0 ] || grep -m 40 -E "=========|ERROR|FAILED|values:|:= " "$log" | sed 's/^/    /'
  [ "$rc" -eq 0 ]  # xargs stops at a command that exits 255
}
export -f run_case
export tool limit tests sanitizer work summary_line
nl -ba -w1 -s$'\t' "$work/cases" | tr '\n' '\0' |
  xargs -0 -P "$at_once" -I{} bash -c 'IFS=$'"'"'\t'"'"' read -r i name <<< "$1"; run_case "$i" "$name"' _ {}
status=$?
cases=$(wc -l < "$work/cases")
if [ "$status" -eq 0 ]; then echo "$tool: all $cases cases clean"; else echo "$tool: not every case of $cases was clean (lines above)"; fi
exit "$status"
