#!/usr/bin/env bash
# Builds the libFuzzer harnesses (in the asan preset's tree: clang, ASan, UBSan, the same build as the
# sanitizer suite's, so the test command compiles the host code under ASan once) and fuzzes each for a bounded time,
# starting from a generated seed corpus plus every past finding in tests/fuzz/regressions.
#   scripts/fuzz.sh [SECONDS_PER_HARNESS]     (default 20)
#   scripts/fuzz.sh --ci                      a fixed number of executions per harness (about 20 s each on
#                                             2 cores): what scripts/bootstrap.sh test runs
# The random seed is fixed (GPUROTATE_FUZZ_SEED, default 1) and every run starts from the generated seeds:
# with --ci the work is the same on every machine, so a clean local --ci run means a clean CI.
# Prints executions, time and findings per harness, writes build-asan/fuzz/fuzz-summary.md, and exits 1 when
# any harness found a crash, a leak or undefined behaviour (the input is left in build-asan/fuzz/findings/).
set -euo pipefail
cd "$(dirname "$0")/.."
harnesses=(fuzz_png fuzz_jpeg fuzz_jpeg_transform fuzz_stb fuzz_header fuzz_metadata fuzz_roundtrip fuzz_labels fuzz_tiff_webp fuzz_shard)
# fuzz_jpeg_transform runs the lossless JPEG transform twice on every input (libjpeg's coding and the GPU's
# block coding on the CPU, about 250 us here), so its count is smaller. fuzz_roundtrip encodes and decodes every input six times: its inputs are held to 64K pixels (its
# own limit) and its count keeps it well inside its time cap (with 60,000 and the shared 4 MP limit it once
# reached slow inputs after a code change and ran into the cap, 43,815 runs in 600 s). fuzz_header probes
# more formats than when its 5,000,000 were set (227,000 runs a second then, 37,000 now: 136 s, a quarter of
# the test command's fuzzing), so it runs 1,000,000 (about 28 s). fuzz_tiff_webp re-encodes what decodes and
# fuzz_shard writes two temporary files an input: side by side on the 2-core VM their counts took 14.5 s and
# 17.2 s (2026-12-06), about 16 s added to the stage; 4-minute runs of each (1,188,398 and 1,006,437 executions) found nothing.
declare -A ci_runs=([fuzz_png]=2000000 [fuzz_jpeg]=1000000 [fuzz_jpeg_transform]=100000 [fuzz_stb]=150000 [fuzz_header]=1000000 [fuzz_metadata]=200000 [fuzz_roundtrip]=20000 [fuzz_labels]=100000
  [fuzz_tiff_webp]=150000 [fuzz_shard]=100000)
ci=false
if [ "${1:-}" = --ci ]; then
  ci=true
  seconds=600  # a bound only: the runs end the work
else
  seconds="${1:-20}"
fi

cmake --preset asan >/dev/null
cmake --build --preset asan --parallel --target make_corpus "${harnesses[@]}"
work=build-asan/fuzz
mkdir -p "$work"
# Our decoders, not OpenCV's: the plugin is looked for in this (empty) folder only.
export GPUROTATE_PLUGIN_DIR="$PWD/$work/no-plugins"
rm -rf $work/findings $work/seeds && mkdir -p $work/findings $work/seeds
build-asan/tests/fuzz/make_corpus $work/seeds
cp tests/fuzz/regressions/* $work/seeds/ 2>/dev/null || true

export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
summary=$work/fuzz-summary.md
{
  echo "| harness | executions | seconds | executions/s | corpus files | findings |"
  echo "|---|---|---|---|---|---|"
} >"$summary"
# One harness: its run, its row of the summary ($work/$h.row) and, if it found something, its
# report ($work/$h.failed).
fuzz_one() {
  local h=$1 corpus="$work/corpus/$1" log="$work/$1.log" start status=0 run_limit=() elapsed runs files findings rate
  rm -rf "$corpus" "$work/$h.failed" && mkdir -p "$corpus"  # from the seeds alone: what CI does, reproducibly
  start=$(date +%s.%N)
  # -rss_limit_mb: a decoder that allocates beyond the pixel limit is a finding, not a slow run.
  $ci && run_limit=(-runs="${ci_runs[$h]}")
  "build-asan/tests/fuzz/$h" -seed="${GPUROTATE_FUZZ_SEED:-1}" "${run_limit[@]}" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$work/findings/$h-" "$corpus" $work/seeds >"$log" 2>&1 || status=$?
  elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.0f", e - s }')
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  files=$(find "$corpus" -type f | wc -l)
  findings=$(find $work/findings -name "$h-*" -type f | wc -l)
  rate=$(awk -v r="${runs:-0}" -v s="$elapsed" 'BEGIN { printf "%.0f", (s > 0 ? r / s : 0) }')
  echo "| $h | ${runs:-0} | $elapsed | $rate | $files | $findings |" >"$work/$h.row"
  if [ "$status" -ne 0 ] || [ "$findings" -ne 0 ]; then
    {
      echo "fuzz: $h found a problem (exit $status); its log: $log"
      grep -m 20 -E "ERROR|SUMMARY|runtime error|Test unit written" "$log" || true
    } >"$work/$h.failed"
  fi
}

# The harnesses run side by side, one a core: each is single-threaded, and its work (--ci: a number of
# executions) does not depend on what runs beside it.
for h in "${harnesses[@]}"; do
  while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || true; done
  fuzz_one "$h" &
done
wait
failed=0
for h in "${harnesses[@]}"; do
  cat "$work/$h.row" >>"$summary"
  if [ -f "$work/$h.failed" ]; then
    failed=1
    cat "$work/$h.failed" >&2
  fi
done
cat "$summary"
if [ "$failed" -ne 0 ]; then
  echo "fuzz: findings are in $work/findings/; fix them and add each input to tests/fuzz/regressions/" >&2
  exit 1
fi
echo "fuzz: no findings in ${#harnesses[@]} harnesses$($ci && echo " (--ci runs)" || echo " x ${seconds} s")"
