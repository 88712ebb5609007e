#!/usr/bin/env python3
"""Host time and GPU time of gpurotate.apply with one element per sample (random D4 augmentation), apart.

python_bench.py times a call as a user sees it, host work included; here the host time is 50 calls back to
back divided by 50, and the GPU time 50 calls queued behind a long sleep kernel (so the host never starves
the GPU) timed by CUDA events, against the same run's y.copy_(x).

    PYTHONPATH=build/python python3 bench/python_per_sample.py
"""
import time

import torch

import gpurotate


def host_ms_of(call):
    """The host's time a call: 50 back to back, the GPU idle before and drained after."""
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(50):
        call()
    elapsed = (time.perf_counter() - start) / 50 * 1e3
    torch.cuda.synchronize()
    return elapsed


def main():
    for n, c, s in [(256, 3, 224), (64, 3, 512)]:
        x = torch.randint(0, 255, (n, c, s, s), dtype=torch.uint8, device="cuda")
        y = torch.empty_like(x)
        codes = torch.randint(0, 8, (n,)).tolist()
        for _ in range(5):
            gpurotate.apply(x, elements=codes, layout="nchw", out=y)
        host_ms = host_ms_of(lambda: gpurotate.apply(x, elements=codes, layout="nchw", out=y))

        def gpu_ms(call):
            begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            torch.cuda._sleep(int(200e6))
            begin.record()
            for _ in range(50):
                call()
            end.record()
            torch.cuda.synchronize()
            return begin.elapsed_time(end) / 50

        ours = gpu_ms(lambda: gpurotate.apply(x, elements=codes, layout="nchw", out=y))
        copy = gpu_ms(lambda: y.copy_(x))
        print(f"{n}x{c}x{s}x{s} u8, random D4 per sample: host {host_ms:.3f} ms a call, GPU {ours:.4f} ms a call, "
              f"copy {copy:.4f} ms: {100 * copy / ours:.1f}% of copy")
        # Where the time goes: one element for all, and elements alternating within one kernel family
        # (transposes, mirrors) or across both.
        patterns = {"rot90 for all": [1], "rot270 for all": [3], "transpose for all": [6], "transverse for all": [7],
                    "flip-h for all": [4], "rot180 for all": [2],
                    "rot90/transpose alternating": [1, 6], "flip-h/flip-v alternating": [4, 5],
                    "rot90/flip-h alternating": [1, 4], "rot270/transverse alternating": [3, 7],
                    "the four that swap, in turn": [1, 3, 6, 7], "the four that keep, in turn": [0, 2, 4, 5],
                    "all 8 in turn": list(range(8))}
        for label, cycle in patterns.items():
            pattern = [cycle[i % len(cycle)] for i in range(n)]
            # Warmed up first: a kernel's first launch loads its module (CUDA's lazy loading), which took the
            # first pattern's 50 calls from 0.032 to 0.249 ms each on an H100 (2026-11-25).
            for _ in range(3):
                gpurotate.apply(x, elements=pattern, layout="nchw", out=y)
            ms = gpu_ms(lambda: gpurotate.apply(x, elements=pattern, layout="nchw", out=y))
            host = host_ms_of(lambda: gpurotate.apply(x, elements=pattern, layout="nchw", out=y))
            print(f"    {label:30s} GPU {ms:.4f} ms a call: {100 * copy / ms:.1f}% of copy; host {host:.3f} ms a call")


if __name__ == "__main__":
    main()
