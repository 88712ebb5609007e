"""Image files for the tests that compare the package with the CLI: PNGs written here with zlib alone (never
gpurotate's encoder), so that a test's input does not depend on the code it tests."""

import struct
import zlib

import numpy as np

_COLOR_TYPES = {1: 0, 2: 4, 3: 2, 4: 6}  # channels -> PNG colour type: grey, grey+alpha, RGB, RGBA


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bytes(pixels, text=None):
    """An 8-bit PNG of `pixels` (uint8, H x W or H x W x C with C 1-4), with a tEXt chunk (key, value) if given."""
    pixels = np.asarray(pixels, dtype=np.uint8)
    if pixels.ndim == 2:
        pixels = pixels[:, :, None]
    height, width, channels = pixels.shape
    raw = b"".join(b"\0" + pixels[y].tobytes() for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, _COLOR_TYPES[channels], 0, 0, 0)
    chunks = [_chunk(b"IHDR", header)]
    if text:
        chunks.append(_chunk(b"tEXt", text[0].encode("latin-1") + b"\0" + text[1].encode("latin-1")))
    chunks += [_chunk(b"IDAT", zlib.compress(raw)), _chunk(b"IEND", b"")]
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunks)


def write_pngs(folder, names, seed=0):
    """A small PNG (3 x 2 .. 6 x 5, RGB) at each relative path `names` below `folder`."""
    rng = np.random.default_rng(seed)
    for i, name in enumerate(names):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png_bytes(rng.integers(0, 256, size=(2 + i % 4, 3 + i % 4, 3), dtype=np.uint8)))


def cli_output_bytes(cli, tmp_path, data, in_name, out_name, *flags):
    """What the CLI writes for `data` saved as `in_name` under `flags`, into `out_name` (both in tmp_path)."""
    source = tmp_path / in_name
    source.write_bytes(data)
    out = tmp_path / out_name
    cli(source, *flags, "-o", out, "--overwrite")
    return out.read_bytes()
