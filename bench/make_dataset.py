#!/usr/bin/env python3
"""A synthetic but realistic dataset for the augmentation benchmark: the samples resized to camera-like
sizes, each image shifted, flipped, tinted and given sensor-like noise so that no two are alike and the
codecs do real work. JPEGs at quality 90 and PNGs as cameras and exporters write them. The JPEGs have
full-resolution chroma (4:4:4), as every tool writes its outputs at quality 95 here, so that nvJPEG, which
keeps the input's subsampling, does the same work as the CPU encoders (--jpeg-sampling 420 for the other)."""
import argparse
import os
from multiprocessing import Pool

import cv2
import numpy as np

SAMPLES = ["astronaut.png", "coffee.png", "chelsea.png", "rocket.jpg"]


def make_one(job):
    index, kind, width, height, samples_dir, out_dir, sampling, optimize = job
    rng = np.random.default_rng(index)
    src = cv2.imread(os.path.join(samples_dir, SAMPLES[index % len(SAMPLES)]), cv2.IMREAD_COLOR)
    scale = 1.0 + rng.random() * 0.3
    big = cv2.resize(src, (int(width * scale), int(height * scale)), interpolation=cv2.INTER_CUBIC)
    x = int(rng.integers(0, big.shape[1] - width + 1))
    y = int(rng.integers(0, big.shape[0] - height + 1))
    img = big[y:y + height, x:x + width].astype(np.float32)
    img *= rng.uniform(0.85, 1.15, size=3).astype(np.float32)  # a white-balance tint
    img += rng.normal(0.0, 3.0, size=img.shape).astype(np.float32)  # sensor noise
    img = np.clip(img, 0, 255).astype(np.uint8)
    sub = os.path.join(out_dir, kind, f"part{index % 4}")
    os.makedirs(sub, exist_ok=True)
    path = os.path.join(sub, f"img{index:05d}.{'jpg' if kind == 'jpeg' else 'png'}")
    if kind == "jpeg":
        factor = cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444 if sampling == "444" else cv2.IMWRITE_JPEG_SAMPLING_FACTOR_420
        cv2.imwrite(path, img, [cv2.IMWRITE_JPEG_QUALITY, 90, cv2.IMWRITE_JPEG_SAMPLING_FACTOR, factor,
                                cv2.IMWRITE_JPEG_OPTIMIZE, 1 if optimize else 0])
    else:
        cv2.imwrite(path, img)
    return path


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--out", required=True)
    p.add_argument("--jpeg", type=int, default=2000, help="JPEGs of 1024x768")
    p.add_argument("--png", type=int, default=500, help="PNGs of 1920x1080")
    p.add_argument("--jpeg-sampling", choices=["444", "420"], default="444", help="chroma subsampling of the JPEGs")
    p.add_argument("--jpeg-optimize", action="store_true",
                   help="JPEGs with Huffman tables made for each (cjpeg -optimize, ImageMagick's default)")
    p.add_argument("--samples", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "samples"))
    a = p.parse_args()
    jobs = [(i, "jpeg", 1024, 768, a.samples, a.out, a.jpeg_sampling, a.jpeg_optimize) for i in range(a.jpeg)]
    jobs += [(i, "png", 1920, 1080, a.samples, a.out, a.jpeg_sampling, False) for i in range(a.png)]
    with Pool(os.cpu_count()) as pool:
        paths = pool.map(make_one, jobs, chunksize=8)
    print(f"{len(paths)} images in {a.out}")


if __name__ == "__main__":
    main()
