#!/usr/bin/env python3
"""One image, whole process: `gpurotate IN --rot90 -o OUT` (GPU: nvJPEG for JPEG where built with it;
and --device cpu) against libvips (pyvips: new_from_file, rot d90, write_to_file), OpenCV
(cv2.imwrite(OUT, cv2.rotate(cv2.imread(IN, IMREAD_UNCHANGED), ROTATE_90_CLOCKWISE))) and ImageMagick
(`convert IN -rotate 90 OUT`) where present. Each command runs --runs times (median wall time of the
whole process, Python start-up included for the Python peers) at JPEG quality 95; output sizes too.
Prints a Markdown table, and a second one with what gpurotate -v reports of its CUDA start-up on each GPU
row: its time on its own thread and how much of it was hidden behind reading and decoding the input.
usage: bench/e2e_bench.py [--exe build/gpurotate] [--runs 5]"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import cv2
import numpy as np


def photo(w, h, seed, depth=8):
    """Smooth gradients with noise: compresses like a photograph, unlike pure noise."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    img = np.stack([128 + 90 * np.sin(x / 97 + c) * np.cos(y / 71 - c) for c in range(3)], axis=-1)
    img += rng.normal(0, 6, img.shape).astype(np.float32)
    img = np.clip(img, 0, 255)
    return (img * 257).astype(np.uint16) if depth == 16 else img.astype(np.uint8)


def timed(cmd, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        if p.returncode != 0:
            lines = [line for line in p.stderr.strip().splitlines() if line.strip()]
            return None, (lines[-1] if lines else f"exit {p.returncode}")[:160].replace("|", "/")
    return statistics.median(times) * 1000, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--exe", default="build/gpurotate")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    work = tempfile.mkdtemp()
    inputs = [("640x480 JPEG", "small.jpg", photo(640, 480, 1)), ("12 MP JPEG", "12mp.jpg", photo(4000, 3000, 2)),
              ("12 MP PNG", "12mp.png", photo(4000, 3000, 3)), ("50 MP JPEG", "50mp.jpg", photo(8660, 5773, 4)),
              ("16-bit 12 MP PNG", "12mp16.png", photo(4000, 3000, 5, depth=16))]
    py = sys.executable
    vips = ("import pyvips,sys; pyvips.Image.new_from_file(sys.argv[1]).rot('d90')"
            ".write_to_file(sys.argv[2] + ('[Q=95]' if sys.argv[2].endswith('.jpg') else ''))")
    opencv = ("import cv2,sys; cv2.imwrite(sys.argv[2], cv2.rotate(cv2.imread(sys.argv[1], cv2.IMREAD_UNCHANGED), "
              "cv2.ROTATE_90_CLOCKWISE), [cv2.IMWRITE_JPEG_QUALITY, 95])")
    tools = [("gpurotate", lambda i, o: [args.exe, i, "--rot90", "--overwrite", "-o", o]),
             ("gpurotate --device cuda", lambda i, o: [args.exe, i, "--rot90", "--device", "cuda", "--overwrite", "-o", o]),
             ("gpurotate --nvjpeg", lambda i, o: [args.exe, i, "--rot90", "--nvjpeg", "--overwrite", "-o", o]),
             ("gpurotate --nvjpeg --nvjpeg-decode gpu",
              lambda i, o: [args.exe, i, "--rot90", "--nvjpeg", "--nvjpeg-decode", "gpu", "--overwrite", "-o", o]),
             ("libvips (pyvips)", lambda i, o: [py, "-c", vips, i, o]),
             ("OpenCV (cv2)", lambda i, o: [py, "-c", opencv, i, o])]
    if shutil.which("convert"):
        tools.append(("ImageMagick", lambda i, o: ["convert", i, "-quality", "95", "-rotate", "90", o]))
    print("| input | " + " | ".join(t for t, _ in tools) + " |")
    print("|---|" + "---|" * len(tools))
    startups = []
    for label, name, img in inputs:
        path = os.path.join(work, name)
        cv2.imwrite(path, img, [cv2.IMWRITE_JPEG_QUALITY, 95])
        cells = []
        for tool, cmd in tools:
            out = os.path.join(work, "out-" + name)
            ms, err = timed(cmd(path, out), args.runs)
            if ms is None:
                cells.append("failed: " + err)
            else:
                cells.append(f"{ms:.0f} ms, {os.path.getsize(out) / 1e6:.2f} MB")
            if ms is not None and tool.startswith("gpurotate --"):
                p = subprocess.run(cmd(path, out) + ["-v"], capture_output=True, text=True)
                m = re.search(r"CUDA start-up ([0-9.]+) ms on its own thread, ([0-9.]+) ms of it hidden", p.stderr + p.stdout)
                startups.append(f"| {label} | {tool} | {m.group(1)} ms | {m.group(2)} ms |" if m else f"| {label} | {tool} | - | - |")
            if os.path.exists(out):
                os.remove(out)
        print(f"| {label} ({os.path.getsize(path) / 1e6:.1f} MB) | " + " | ".join(cells) + " |", flush=True)
    print("\n| input | tool | CUDA start-up (own thread) | of it hidden |\n|---|---|---:|---:|")
    print("\n".join(startups))
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
