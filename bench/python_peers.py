#!/usr/bin/env python3
"""Times the Python GPU peers on the same job as `gpurotate bench`: each D4 element applied to an
H x W x C image, output materialised contiguous, on the same sizes and types, against the same ceiling
(a device-to-device copy of the same bytes) measured in the same run.

    python3 bench/python_peers.py [--size 8192x8192] [--types u8c1,u8c3,...] [--reps 20] [--json FILE]
    python3 bench/python_peers.py --rotate 30,45 [--types u8c1,u8c3,u8c4,f32c1]   # any angle, bilinear, expanded

With --rotate: torchvision.transforms.v2.functional.rotate (expand=True, bilinear, its angle negated: it turns
counter-clockwise) on CUDA CHW tensors against gpurotate.rotate on the same pixels as HWC tensors, both against
a copy of the same bytes (input plus output). Their pixels differ (torchvision samples through grid_sample in
float); only the output's size is checked to be the same.

Peers: torch (rot90(...).contiguous(), flip, .transpose(0, 1).contiguous()), CuPy (rot90, flip,
swapaxes, made contiguous), and CV-CUDA (flip, rotate by 90) when the cvcuda module imports.
Every peer's output is checked against NumPy on a small image of the same type before it is timed.
Timing: CUDA events, L2 flushed (a write of twice its size) before each sample, median.
"""
import argparse
import json
import statistics

import numpy as np
import torch

TYPES = {'u8c1': (np.uint8, 1), 'u8c2': (np.uint8, 2), 'u8c3': (np.uint8, 3), 'u8c4': (np.uint8, 4),
         'u16c1': (np.int16, 1), 'u16c3': (np.int16, 3), 'u16c4': (np.int16, 4),  # int16: same bytes, wider op support
         'f32c1': (np.float32, 1), 'f32c3': (np.float32, 3), 'f32c4': (np.float32, 4)}

# Each element as NumPy defines it on an H x W x C array (the reference), following ImageMagick's names.
NUMPY = {
    'rot90': lambda a: np.rot90(a, k=-1, axes=(0, 1)),
    'rot180': lambda a: a[::-1, ::-1],
    'rot270': lambda a: np.rot90(a, k=1, axes=(0, 1)),
    'flip-h': lambda a: a[:, ::-1],
    'flip-v': lambda a: a[::-1, :],
    'transpose': lambda a: a.transpose(1, 0, 2),
    'transverse': lambda a: a.transpose(1, 0, 2)[::-1, ::-1],
}
TORCH = {
    'rot90': lambda t: torch.rot90(t, -1, (0, 1)).contiguous(),
    'rot180': lambda t: torch.flip(t, (0, 1)),
    'rot270': lambda t: torch.rot90(t, 1, (0, 1)).contiguous(),
    'flip-h': lambda t: torch.flip(t, (1,)),
    'flip-v': lambda t: torch.flip(t, (0,)),
    'transpose': lambda t: t.transpose(0, 1).contiguous(),
    'transverse': lambda t: torch.flip(t.transpose(0, 1), (0, 1)),
}


def cupy_ops():
    try:
        import cupy as cp
    except Exception:
        return None
    return cp, {
        'rot90': lambda a: cp.ascontiguousarray(cp.rot90(a, -1, (0, 1))),
        'rot180': lambda a: cp.ascontiguousarray(a[::-1, ::-1]),
        'rot270': lambda a: cp.ascontiguousarray(cp.rot90(a, 1, (0, 1))),
        'flip-h': lambda a: cp.ascontiguousarray(a[:, ::-1]),
        'flip-v': lambda a: cp.ascontiguousarray(a[::-1, :]),
        'transpose': lambda a: cp.ascontiguousarray(a.transpose(1, 0, 2)),
        'transverse': lambda a: cp.ascontiguousarray(a.transpose(1, 0, 2)[::-1, ::-1]),
    }


def cvcuda_ops():
    try:
        import cvcuda
    except Exception:
        return None
    # CV-CUDA offers flip (0: vertical, 1: horizontal, -1: both) and rotate by an angle; on NHWC tensors.
    return cvcuda, {
        'flip-v': lambda t: cvcuda.flip(t, flipCode=0),
        'flip-h': lambda t: cvcuda.flip(t, flipCode=1),
        'rot180': lambda t: cvcuda.flip(t, flipCode=-1),
    }


def timed(fn, reps, flush):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(reps):
        flush.zero_()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(stop))
    return statistics.median(samples)


def rotations(args, w, h, dev, flush):
    import gpurotate
    import torchvision
    from torchvision.transforms.v2 import InterpolationMode
    from torchvision.transforms.v2 import functional as F
    print(f'{torch.cuda.get_device_properties(0).name}, torch {torch.__version__}, torchvision {torchvision.__version__}, '
          f'gpurotate {gpurotate.__version__}; {w}x{h}, bilinear, expanded canvas, median of {args.reps}, '
          f'GB/s = (input + output bytes) / time, % of the same run\'s D2D copy of those bytes')
    print('| type | angle | peer | ms | GB/s | % of copy | gpurotate faster |\n|---|---|---|---|---|---|---|')
    rows = []
    rng = np.random.default_rng(1)
    for tname in args.types.split(','):
        dtype, ch = TYPES[tname]
        dtype = np.uint8 if dtype != np.float32 and np.dtype(dtype).itemsize == 1 else dtype
        if dtype == np.int16:
            continue  # gpurotate.rotate takes uint8, uint16 and float32; torchvision's rotate no 16-bit integers
        host = rng.integers(0, 256, size=(h, w, ch), dtype=np.uint8) if dtype == np.uint8 else rng.random((h, w, ch)).astype(np.float32)
        hwc = torch.from_numpy(host).to(dev)
        chw = hwc.permute(2, 0, 1).contiguous()
        for degrees in (float(a) for a in args.rotate.split(',')):
            ours = gpurotate.rotate(hwc, degrees, interpolation='bilinear', expand=True)
            theirs = F.rotate(chw, -degrees, interpolation=InterpolationMode.BILINEAR, expand=True)
            if tuple(theirs.shape[1:]) != tuple(ours.shape[:2]):
                print(f'| {tname} | {degrees:g} | sizes differ: torchvision {tuple(theirs.shape)}, gpurotate {tuple(ours.shape)} | | | | |')
            nbytes = hwc.numel() * hwc.element_size() + ours.numel() * ours.element_size()
            a = torch.empty(nbytes // 2, dtype=torch.uint8, device=dev)
            b = torch.empty_like(a)
            copy_ms = timed(lambda: b.copy_(a), args.reps, flush)
            copy_gbps = nbytes / copy_ms / 1e6
            out = torch.empty_like(ours)
            ours_ms = timed(lambda: gpurotate.rotate(hwc, degrees, interpolation='bilinear', expand=True, out=out), args.reps, flush)
            theirs_ms = timed(lambda: F.rotate(chw, -degrees, interpolation=InterpolationMode.BILINEAR, expand=True), args.reps, flush)
            print(f'| {tname} | {degrees:g} | copy (ceiling) | {copy_ms:.3f} | {copy_gbps:.0f} | 100 | |')
            for name, ms in (('gpurotate.rotate', ours_ms), ('torchvision rotate', theirs_ms)):
                gbps = nbytes / ms / 1e6
                rows.append({'type': tname, 'op': f'rotate{degrees:g}', 'peer': name, 'ms': ms, 'gbps': gbps, 'copy_gbps': copy_gbps})
                faster = f'{theirs_ms / ours_ms:.1f}x' if name == 'gpurotate.rotate' else ''
                print(f'| {tname} | {degrees:g} | {name} | {ms:.3f} | {gbps:.0f} | {100 * gbps / copy_gbps:.1f} | {faster} |')
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--size', default='8192x8192')
    p.add_argument('--types', default=','.join(TYPES))
    p.add_argument('--ops', default=','.join(NUMPY))
    p.add_argument('--reps', type=int, default=20)
    p.add_argument('--rotate', help='comma-separated angles: time rotation by them instead of the D4 elements')
    p.add_argument('--json')
    args = p.parse_args()
    w, h = (int(v) for v in args.size.split('x'))
    dev = torch.device('cuda')
    props = torch.cuda.get_device_properties(0)
    flush = torch.empty(2 * getattr(props, 'L2_cache_size', 64 << 20), dtype=torch.uint8, device=dev)
    if args.rotate:
        rows = rotations(args, w, h, dev, flush)
        if args.json:
            json.dump({'device': props.name, 'width': w, 'height': h, 'rows': rows}, open(args.json, 'w'), indent=1)
        return
    cp_pair, cv_pair = cupy_ops(), cvcuda_ops()
    print(f'{props.name}, torch {torch.__version__}, cupy {"yes" if cp_pair else "no"}, cvcuda {"yes" if cv_pair else "no"}; '
          f'{w}x{h}, median of {args.reps}, GB/s = (read + write bytes) / time, % of the same run\'s D2D copy')
    print(f'| type | op | peer | ms | GB/s | % of copy |\n|---|---|---|---|---|---|')
    rows = []
    rng = np.random.default_rng(1)
    for tname in args.types.split(','):
        dtype, ch = TYPES[tname]
        host = np.frombuffer(rng.integers(1, 255, size=h * w * ch * np.dtype(dtype).itemsize, dtype=np.uint8).tobytes(),
                             dtype=dtype).reshape(h, w, ch)
        if dtype == np.float32:
            host = (1 + rng.random((h, w, ch))).astype(np.float32)
        src = torch.from_numpy(host.copy()).to(dev)
        nbytes = src.numel() * src.element_size()
        dst = torch.empty_like(src)
        copy_ms = timed(lambda: dst.copy_(src), args.reps, flush)
        copy_gbps = 2 * nbytes / copy_ms / 1e6
        print(f'| {tname} | identity | torch copy_ (ceiling) | {copy_ms:.3f} | {copy_gbps:.0f} | 100 |')
        small = host[:48, :64]
        for op in args.ops.split(','):
            expected = NUMPY[op](small)
            peers = [('torch', lambda t, f=TORCH[op]: f(t), src, lambda r: r.cpu().numpy(), torch.from_numpy(small.copy()).to(dev))]
            if cp_pair:
                cp, ops = cp_pair
                cpsrc = cp.asarray(src)
                peers.append(('cupy', ops[op], cpsrc, lambda r: cp.asnumpy(r), cp.asarray(small.copy())))
            if cv_pair and op in cv_pair[1]:
                cvcuda, ops = cv_pair
                as_t = lambda t: cvcuda.as_tensor(t.unsqueeze(0), 'NHWC')
                peers.append(('cvcuda', lambda t, f=ops[op], as_t=as_t: f(as_t(t)), src,
                              lambda r: torch.as_tensor(r.cuda()).squeeze(0).cpu().numpy(), torch.from_numpy(small.copy()).to(dev)))
            for name, fn, full, to_numpy, small_dev in peers:
                try:
                    ok = np.array_equal(to_numpy(fn(small_dev)), expected)
                except Exception as e:  # a peer without this dtype or op
                    print(f'| {tname} | {op} | {name} | n/a ({type(e).__name__}) | | |')
                    continue
                if not ok:
                    print(f'| {tname} | {op} | {name} | WRONG OUTPUT | | |')
                    continue
                ms = timed(lambda: fn(full), args.reps, flush)
                gbps = 2 * nbytes / ms / 1e6
                rows.append({'type': tname, 'op': op, 'peer': name, 'ms': ms, 'gbps': gbps, 'copy_gbps': copy_gbps})
                print(f'| {tname} | {op} | {name} | {ms:.3f} | {gbps:.0f} | {100 * gbps / copy_gbps:.0f} |')
    if args.json:
        json.dump({'device': props.name, 'width': w, 'height': h, 'rows': rows}, open(args.json, 'w'), indent=1)


if __name__ == '__main__':
    main()
