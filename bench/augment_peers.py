#!/usr/bin/env python3
"""CPU peers of `gpurotate augment --ops all`: the same job (decode each image once, write its 7
rotated and flipped variants in the input's format) done with OpenCV or libvips in a process pool over
all cores. Prints one JSON line: tool, images, seconds, output bytes."""
import argparse
import json
import os
import time
from multiprocessing import Pool

TOOL = None
OUT = None
QUALITY = 95


def init(tool, out, quality):
    global TOOL, OUT, QUALITY
    TOOL, OUT, QUALITY = tool, out, quality
    if tool == "vips":
        os.environ["VIPS_CONCURRENCY"] = "1"  # one thread per process: the pool already fills the cores


def variants_opencv(img):
    import cv2
    t = cv2.transpose(img)
    return {"rot90": cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE), "rot180": cv2.rotate(img, cv2.ROTATE_180),
            "rot270": cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE), "flip-h": cv2.flip(img, 1),
            "flip-v": cv2.flip(img, 0), "transpose": t, "transverse": cv2.flip(t, -1)}


def one_image(job):
    path, relative = job
    stem, ext = os.path.splitext(relative)
    os.makedirs(os.path.join(OUT, os.path.dirname(relative)), exist_ok=True)
    written = 0
    if TOOL == "opencv":
        import cv2
        img = cv2.imread(path, cv2.IMREAD_UNCHANGED)
        if ext.lower() in (".jpg", ".jpeg"):
            # Full-resolution chroma (4:4:4) at quality >= 90, as libvips and gpurotate write it.
            params = [cv2.IMWRITE_JPEG_QUALITY, QUALITY]
            if QUALITY >= 90 and hasattr(cv2, "IMWRITE_JPEG_SAMPLING_FACTOR"):
                params += [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444]
        else:
            params = []  # OpenCV's default: zlib level 1 with run-length matching (Z_RLE), gpurotate's default too
        for op, v in variants_opencv(img).items():
            out = os.path.join(OUT, f"{stem}_{op}{ext}")
            cv2.imwrite(out, v, params)
            written += os.path.getsize(out)
    else:
        import pyvips
        img = pyvips.Image.new_from_file(path).copy_memory()  # decoded once, as the others do
        r90 = img.rot("d90")
        variants = {"rot90": r90, "rot180": img.rot("d180"), "rot270": img.rot("d270"), "flip-h": img.flip("horizontal"),
                    "flip-v": img.flip("vertical"), "transpose": r90.flip("horizontal"), "transverse": r90.flip("vertical")}
        opts = {"Q": QUALITY} if ext.lower() in (".jpg", ".jpeg") else {}
        for op, v in variants.items():
            out = os.path.join(OUT, f"{stem}_{op}{ext}")
            v.write_to_file(out, **opts)
            written += os.path.getsize(out)
    return written


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--tool", choices=["opencv", "vips"], required=True)
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    p.add_argument("--quality", type=int, default=95)
    p.add_argument("input")
    p.add_argument("output")
    a = p.parse_args()
    jobs = []
    for root, _, files in os.walk(a.input):
        for f in sorted(files):
            full = os.path.join(root, f)
            jobs.append((full, os.path.relpath(full, a.input)))
    start = time.perf_counter()
    with Pool(a.jobs, initializer=init, initargs=(a.tool, a.output, a.quality)) as pool:
        written = sum(pool.imap_unordered(one_image, jobs, chunksize=4))
    seconds = time.perf_counter() - start
    print(json.dumps({"tool": a.tool, "images": len(jobs), "seconds": seconds, "bytes": written}))


if __name__ == "__main__":
    main()
