#!/usr/bin/env python3
"""Summarizes a `gpurotate bench --json` file: one line per (type, element), one column per kernel, each
cell the kernel's bandwidth as a percentage of the same run's cudaMemcpyAsync device-to-device copy."""
import json
import sys
from collections import defaultdict

SHORT = {'naive-32x32': 'n32', 'naive-16x16': 'n16', 'naive-32x8': 'n32x8', 'naive-8x64': 'n8x64',
         'tile32-coalesced': 'coal', 'tile32-padded': 'pad', 'tile32-diagonal': 'diag', 'tile16-skiplines': 'skip',
         'tile64-multi': 't64', 'mirror-plain': 'mirror', 'vectorized': 'VEC', 'auto': 'AUTO',
         'npp-transpose': 'nppT', 'npp-mirror': 'nppM', 'cublas-geam': 'geam'}


def main(path):
    data = json.load(open(path))
    rows = data['rows']
    memcpy = {r['type']: r['memcpy_gbps'] for r in rows}
    table = defaultdict(dict)
    kernels = []
    for r in rows:
        if r['op'] == 'identity':
            continue
        cell = 100 * r['gbps'] / memcpy[r['type']] if r['verified'] else float('nan')
        table[(r['type'], r['op'])][r['kernel']] = cell
        if r['kernel'] not in kernels:
            kernels.append(r['kernel'])
    print(f"{data['device']}, {data['width']}x{data['height']}, % of cudaMemcpyAsync D2D in the same run")
    print('| type | op | memcpy GB/s | ' + ' | '.join(SHORT.get(k, k) for k in kernels) + ' |')
    print('|---|---|---|' + '---|' * len(kernels))
    for (t, op), cells in table.items():
        print(f'| {t} | {op} | {memcpy[t]:.0f} | ' +
              ' | '.join(f'{cells[k]:.0f}' if k in cells else '-' for k in kernels) + ' |')


if __name__ == '__main__':
    main(sys.argv[1])
