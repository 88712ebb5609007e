#!/usr/bin/env python3
"""Checks one tool's outputs of bench/single_file_bench.sh against an independent reference: a JPEG against
jpegtran's bytes (the turn is lossless, so gpurotate promises jpegtran's output), every other file's decoded
pixels against numpy.rot90 of the input's, with the same depth and channels; a TIFF keeps its compression.
16-bit TIFFs are decoded by vips (Pillow reads 16-bit RGB as 8-bit), the rest by Pillow.

    /usr/bin/python3 bench/single_file_check.py INPUT_DIR OUTPUT_DIR TOOL

Prints one line a row and exits 1 if any output is wrong.
"""
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

TIFF_COMPRESSION_TAG = 259


def read_ppm16(path):
    """A binary 16-bit P6 as vips writes it (a comment line after the magic number)."""
    data = path.read_bytes()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    width, height, maximum = int(fields[1]), int(fields[2]), int(fields[3])
    assert fields[0] == b"P6" and maximum == 65535, f"{path}: not a 16-bit P6"
    return np.frombuffer(data[pos + 1:], dtype=">u2").reshape(height, width, 3)


def decode_16bit_tiff(path):
    with tempfile.TemporaryDirectory() as tmp:
        ppm = Path(tmp) / "pixels.ppm"
        subprocess.run(["vips", "copy", str(path), str(ppm)], check=True)
        return read_ppm16(ppm)


def compression_of(path):
    with Image.open(path) as image:
        return image.tag_v2.get(TIFF_COMPRESSION_TAG)


def check_pixels(source_pixels, output_pixels):
    expected = np.rot90(source_pixels, -1)
    if output_pixels.shape != expected.shape or output_pixels.dtype != expected.dtype:
        return f"shape/type {output_pixels.shape} {output_pixels.dtype}, expected {expected.shape} {expected.dtype}"
    wrong = np.count_nonzero(np.any(output_pixels != expected, axis=-1))
    return f"{wrong} pixels differ from numpy.rot90" if wrong else None


def check_row(source, output):
    if source.suffix == ".jpg":
        with tempfile.TemporaryDirectory() as tmp:
            reference = Path(tmp) / "jpegtran.jpg"
            subprocess.run(["jpegtran", "-rotate", "90", "-copy", "all", "-outfile", str(reference), str(source)],
                           check=True)
            return None if reference.read_bytes() == output.read_bytes() else "bytes differ from jpegtran -rotate 90"
    if "16bit" in source.name:
        problem = check_pixels(decode_16bit_tiff(source), decode_16bit_tiff(output))
    else:
        with Image.open(source) as a, Image.open(output) as b:
            if a.mode != b.mode:
                return f"mode {b.mode}, input {a.mode}"
            problem = check_pixels(np.asarray(a), np.asarray(b))
    if problem is None and source.suffix == ".tif" and compression_of(source) != compression_of(output):
        problem = f"compression {compression_of(output)}, input {compression_of(source)}"
    return problem


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: single_file_check.py INPUT_DIR OUTPUT_DIR TOOL")
    inputs, outputs, tool = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    failures = 0
    for source in sorted(inputs.iterdir()):
        if source.suffix == ".ppm":
            continue
        output = outputs / f"{source.stem}-{tool}{source.suffix}"
        problem = check_row(source, output) if output.exists() else "no output"
        failures += problem is not None
        print(f"check {tool} {source.name}: {problem or 'ok'} ({output.stat().st_size if output.exists() else 0} bytes)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
