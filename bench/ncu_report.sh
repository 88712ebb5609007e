#!/usr/bin/env bash
# Profiles chosen `gpurotate bench` kernels with Nsight Compute and prints, per kernel: DRAM throughput
# (% of peak), shared-memory bank conflicts (loads and stores), achieved occupancy, and global load/store
# efficiency (useful bytes per sector requested). With GPUROTATE_NCU_COLUMNS=limits it prints instead what
# bounds a kernel that moves only useful bytes: DRAM bytes read and written, registers, waves of blocks per
# SM, occupancy, issue activity, the long-scoreboard stall (waiting on memory) and instructions executed.
#
#   bench/ncu_report.sh [TYPE] [OP] [KERNEL ...]
#   bench/ncu_report.sh f32c1 transpose tile32-coalesced tile32-padded tile16-skiplines vectorized
#   GPUROTATE_NCU_COLUMNS=limits bench/ncu_report.sh u8c1 transpose vectorized vectorized-resident
#
# Needs ncu on PATH and build/gpurotate built with CUDA. Clocks are left as the card has them.
set -euo pipefail
cd "$(dirname "$0")/.."
type="${1:-f32c1}"; op="${2:-transpose}"; shift 2 || true
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=(naive-32x8 tile32-coalesced tile32-padded tile16-skiplines tile64-multi vectorized)
size="${GPUROTATE_NCU_SIZE:-8192x8192}"
columns="${GPUROTATE_NCU_COLUMNS:-efficiency}"
# Each column set, one metric and its column title per line: ncu collects these and the table shows them.
columns_of() {
  case "$1" in
    efficiency) printf '%s\t%s\n' \
      dram__throughput.avg.pct_of_peak_sustained_elapsed 'DRAM %peak' \
      l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum 'smem ld conflicts' \
      l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum 'smem st conflicts' \
      sm__warps_active.avg.pct_of_peak_sustained_active 'occupancy %' \
      smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct 'gld eff %' \
      smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct 'gst eff %' \
      gpu__time_duration.sum 'time' ;;
    limits) printf '%s\t%s\n' \
      dram__throughput.avg.pct_of_peak_sustained_elapsed 'DRAM %peak' \
      dram__bytes_read.sum 'DRAM read' \
      dram__bytes_write.sum 'DRAM written' \
      launch__registers_per_thread 'registers' \
      launch__waves_per_multiprocessor 'waves per SM' \
      sm__warps_active.avg.pct_of_peak_sustained_active 'occupancy %' \
      smsp__issue_active.avg.pct_of_peak_sustained_active 'issue active %' \
      smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio 'memory stall / issue' \
      smsp__inst_executed.sum 'instructions' \
      gpu__time_duration.sum 'time' ;;
    *) echo "ncu_report.sh: GPUROTATE_NCU_COLUMNS is 'efficiency' or 'limits', not '$1'" >&2; return 2 ;;
  esac
}
column_table="$(columns_of "$columns")" || exit 2
metrics="$(cut -f1 <<< "$column_table" | paste -sd, -)"
out="${GPUROTATE_NCU_OUT:-build/ncu}"
mkdir -p "$out"
for k in "${kernels[@]}"; do
  # The first launch of the chosen kernel is its verification run: profile exactly that one (with
  # --no-ceilings the bench launches no other kernel but its helpers, which fill and compare buffers).
  ncu --clock-control none --csv --page raw --metrics "$metrics" \
      -k 'regex:transpose|mirror|naive|copy' -c 1 \
      build/gpurotate bench --size "$size" --type "$type" --op "$op" --kernel "$k" --reps 1 --no-ceilings > "$out/$k.csv" 2> "$out/$k.log" || {
    echo "ncu failed for $k (see $out/$k.log)" >&2; continue; }
done
python3 - "$out" "$type" "$op" "$column_table" "${kernels[@]}" <<'PY'
import csv, io, sys
out, typ, op, column_table, kernels = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
cols = [tuple(line.split('\t')) for line in column_table.splitlines()]
print(f'Nsight Compute, {typ} {op}')
print('| kernel | CUDA function | ' + ' | '.join(c[1] for c in cols) + ' |')
print('|---|---|' + '---|' * len(cols))
for k in kernels:
    try:
        text = open(f'{out}/{k}.csv').read()
    except OSError:
        continue
    lines = [l for l in text.splitlines() if l.startswith('"')]
    if len(lines) < 3:
        print(f'| {k} | (no profile) |')
        continue
    rows = list(csv.reader(io.StringIO('\n'.join(lines))))
    header, units, data = rows[0], rows[1], rows[2]
    get = lambda m: data[header.index(m)] + (' ' + units[header.index(m)] if units[header.index(m)] not in ('', '%') else '') if m in header else '?'
    name = data[header.index('Kernel Name')][:60] if 'Kernel Name' in header else '?'
    print(f'| {k} | `{name}` | ' + ' | '.join(get(c[0]) for c in cols) + ' |')
PY
