#!/usr/bin/env python3
"""Writes the inputs of bench/single_file_bench.sh into a folder: noisy gradients, as a camera's output is
neither flat nor random, so that codecs work as they would on a photograph.

    /usr/bin/python3 bench/single_file_inputs.py DIR

The 16-bit rows are written as a 16-bit PPM (Pillow cannot write 16-bit RGB TIFF); the bench script turns
that into TIFFs with vips, uncompressed and LZW, as a scanner or a raw converter would write them.
"""
import sys
from pathlib import Path

import numpy as np
from PIL import Image


def noisy_gradient(width, height, maximum, noise, seed):
    """A diagonal gradient per channel plus uniform noise of 0..noise, in 0..maximum."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width]
    ramps = [x / max(width - 1, 1), y / max(height - 1, 1), (x + y) / max(width + height - 2, 1)]
    base = np.stack(ramps, axis=-1) * (maximum - noise)
    pixels = base + rng.integers(0, noise + 1, size=(height, width, 3))
    return pixels.astype(np.uint16 if maximum > 255 else np.uint8)


def write_ppm16(path, pixels):
    height, width, _ = pixels.shape
    path.write_bytes(b"P6\n%d %d\n65535\n" % (width, height) + pixels.astype(">u2").tobytes())


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: single_file_inputs.py DIR")
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    # 4:2:0 at 4032x3024: whole 16-row MCUs, so that the turn is lossless (3000 rows are not).
    Image.fromarray(noisy_gradient(640, 480, 255, 15, 1)).save(out / "640x480.jpg", quality=90, subsampling=2)
    Image.fromarray(noisy_gradient(4000, 3000, 255, 15, 2)).save(out / "444.jpg", quality=90, subsampling=0)
    Image.fromarray(noisy_gradient(4032, 3024, 255, 15, 3)).save(out / "420.jpg", quality=90, subsampling=2)
    Image.fromarray(noisy_gradient(4000, 3000, 255, 15, 4)).save(out / "12mp.png")
    write_ppm16(out / "12mp-16bit.ppm", noisy_gradient(4000, 3000, 65535, 4095, 5))
    Image.fromarray(noisy_gradient(16, 16, 255, 15, 6)).save(out / "16x16.tif")
    Image.fromarray(noisy_gradient(16, 16, 255, 15, 7)).save(out / "16x16.webp", lossless=True)


if __name__ == "__main__":
    main()
