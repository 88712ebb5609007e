#!/usr/bin/env python3
"""gpurotate's Python package against PyTorch (and torchvision, kornia, CuPy where importable) on CUDA tensors.

For u8 NCHW batches and u8/f32 HWC images, each of the 8 elements and a random D4 element per sample, every
implementation is timed with CUDA events around the call (Python overhead included, as a user sees it; the
host's own time in the call is recorded too, as host_ms),
after warm-up, with the L2 cache flushed before each sample, and reported as the median of --reps samples
and as a share of the same run's device copy of the same bytes (`y.copy_(x)`): 100% = copy speed. Every
implementation's output is checked against gpurotate's once before it is timed (a mismatch is reported,
not timed).

    python3 bench/python_bench.py                   # Markdown table on stdout
    python3 bench/python_bench.py --json out.json   # and the raw results
    python3 bench/python_bench.py --quick           # small sizes, few reps: a smoke test

Needs torch with CUDA and the gpurotate package (pip install . , or PYTHONPATH=build/python); torchvision,
kornia and CuPy are optional peers.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import statistics
import sys
import time
import traceback

try:
    import torch
except ImportError:
    sys.exit("python_bench.py needs PyTorch (with CUDA)")

import gpurotate


def optional(name):
    try:
        return __import__(name, fromlist=["_"])
    except Exception:  # a peer that is missing or fails to import is left out, with the reason recorded
        return None


tv_functional = optional("torchvision.transforms.v2.functional")
kornia_transform = optional("kornia.geometry.transform")
cupy = optional("cupy")

ELEMENTS = list(gpurotate.NAMES)


# Each peer: element name -> function(x, h, w) returning a contiguous result, h and w the height and width dims.
def torch_ops():
    return {
        "identity": lambda x, h, w: x.clone(),
        "rot90": lambda x, h, w: torch.rot90(x, -1, (h, w)).contiguous(),  # torch.rot90 turns counter-clockwise
        "rot180": lambda x, h, w: torch.rot90(x, 2, (h, w)).contiguous(),
        "rot270": lambda x, h, w: torch.rot90(x, 1, (h, w)).contiguous(),
        "flip-h": lambda x, h, w: torch.flip(x, (w,)),
        "flip-v": lambda x, h, w: torch.flip(x, (h,)),
        "transpose": lambda x, h, w: x.transpose(h, w).contiguous(),
        "transverse": lambda x, h, w: torch.flip(x.transpose(h, w), (h, w)).contiguous(),
    }


def torchvision_ops():
    # torchvision's images are [..., C, H, W]; its angles are counter-clockwise.
    if tv_functional is None:
        return {}
    F = tv_functional
    return {
        "rot90": lambda x, h, w: F.rotate(x, -90.0, expand=True).contiguous(),
        "rot180": lambda x, h, w: F.rotate(x, 180.0).contiguous(),
        "rot270": lambda x, h, w: F.rotate(x, 90.0, expand=True).contiguous(),
        "flip-h": lambda x, h, w: F.horizontal_flip(x).contiguous(),
        "flip-v": lambda x, h, w: F.vertical_flip(x).contiguous(),
    }


def kornia_ops():
    if kornia_transform is None:
        return {}
    K = kornia_transform
    return {
        "rot180": lambda x, h, w: K.rot180(x).contiguous(),
        "flip-h": lambda x, h, w: K.hflip(x).contiguous(),
        "flip-v": lambda x, h, w: K.vflip(x).contiguous(),
    }


def cupy_ops():
    if cupy is None:
        return {}

    def wrap(f):
        def run(x, h, w):
            a = cupy.from_dlpack(x)
            return torch.from_dlpack(cupy.ascontiguousarray(f(a, h, w)))

        return run

    return {
        "rot90": wrap(lambda a, h, w: cupy.rot90(a, -1, (h, w))),
        "rot270": wrap(lambda a, h, w: cupy.rot90(a, 1, (h, w))),
        "rot180": wrap(lambda a, h, w: cupy.rot90(a, 2, (h, w))),
        "flip-h": wrap(lambda a, h, w: cupy.flip(a, w)),
        "flip-v": wrap(lambda a, h, w: cupy.flip(a, h)),
        "transpose": wrap(lambda a, h, w: cupy.swapaxes(a, h, w)),
    }


class Timer:
    """Median time of a call on the current stream: CUDA events around it, L2 flushed before each sample."""

    def __init__(self, device, reps, warmup, flush):
        self.reps, self.warmup = reps, warmup
        props = torch.cuda.get_device_properties(device)
        l2 = getattr(props, "L2_cache_size", 64 << 20) or (64 << 20)
        self.flush_buffer = torch.empty(4 * l2, dtype=torch.uint8, device=device) if flush else None

    def median_ms(self, call):
        """(median device time between the events, median host time of the call itself) in milliseconds."""
        for _ in range(self.warmup):
            call()
        starts = [torch.cuda.Event(enable_timing=True) for _ in range(self.reps)]
        ends = [torch.cuda.Event(enable_timing=True) for _ in range(self.reps)]
        host = []
        for start, end in zip(starts, ends):
            if self.flush_buffer is not None:
                self.flush_buffer.zero_()
            start.record()
            began = time.perf_counter()
            call()
            host.append(time.perf_counter() - began)
            end.record()
        torch.cuda.synchronize()
        return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends)), 1e3 * statistics.median(host)


def cases(quick):
    if quick:
        return [
            ("nchw 16x3x224x224 u8", (16, 3, 224, 224), torch.uint8, "nchw"),
            ("hwc 1024x1024x3 u8", (1024, 1024, 3), torch.uint8, "hwc"),
            ("hwc 1024x1024x3 f32", (1024, 1024, 3), torch.float32, "hwc"),
        ]
    return [
        ("nchw 256x3x224x224 u8", (256, 3, 224, 224), torch.uint8, "nchw"),
        ("nchw 64x3x512x512 u8", (64, 3, 512, 512), torch.uint8, "nchw"),
        ("hwc 4096x4096x3 u8", (4096, 4096, 3), torch.uint8, "hwc"),
        ("hwc 4096x4096x3 f32", (4096, 4096, 3), torch.float32, "hwc"),
    ]


HW_DIMS = {"nchw": (2, 3), "hwc": (0, 1)}


def random_input(shape, dtype, device):
    if dtype.is_floating_point:
        return torch.randn(shape, device=device).to(dtype)
    return torch.randint(0, 256, shape, device=device, dtype=torch.int32).to(dtype)


def per_sample_peers(ops, codes, h, w):
    """The random-D4 batch with a framework's ops: one call per element present on the samples that drew it
    (index, transform, scatter), and one call per sample."""
    names = [ELEMENTS[c] for c in codes]
    groups = {}
    for i, n in enumerate(names):
        groups.setdefault(n, []).append(i)

    def grouped(x, out, index=None):
        for name, samples in groups.items():
            if index is None:
                idx = torch.tensor(samples, device=x.device)
            else:
                idx = index[name]
            out[idx] = ops[name](x.index_select(0, idx), h, w)
        return out

    def per_sample(x, out):
        for i, name in enumerate(names):
            out[i] = ops[name](x[i], h - 1, w - 1)
        return out

    return groups, grouped, per_sample


def run(args):
    device = torch.device(args.device)
    torch.cuda.set_device(device)
    timer = Timer(device, args.reps, args.warmup, not args.no_flush)
    peers = {"torch": torch_ops(), "torchvision": torchvision_ops(), "kornia": kornia_ops(), "cupy": cupy_ops()}
    rows = []
    generator = torch.Generator().manual_seed(0)
    for label, shape, dtype, layout in cases(args.quick):
        if args.cases and not any(c in label for c in args.cases):
            continue
        try:
            x = random_input(shape, dtype, device)
            copy_out = torch.empty_like(x)
        except torch.cuda.OutOfMemoryError:
            rows.append({"case": label, "error": "out of memory"})
            continue
        h, w = HW_DIMS[layout]
        copy_ms, _ = timer.median_ms(lambda: copy_out.copy_(x))
        bytes_moved = 2 * x.numel() * x.element_size()
        base = {"case": label, "layout": layout, "dtype": str(dtype).replace("torch.", ""), "shape": list(shape),
                "copy_ms": copy_ms, "copy_gbps": bytes_moved / copy_ms / 1e6}
        for element in ELEMENTS + (["random D4 per sample"] if layout == "nchw" else []):
            per_sample = element.startswith("random")
            if per_sample:
                codes = torch.randint(0, 8, (shape[0],), generator=generator).tolist()
                out_shape = shape  # square samples: every element keeps the shape
            else:
                codes = None
                out_shape = list(gpurotate._gpurotate.output_shape(list(shape), layout, [int(gpurotate.element(element))]))
            out = torch.empty(out_shape, dtype=dtype, device=device)
            if per_sample:
                ours = lambda: gpurotate.apply(x, elements=codes, layout=layout, out=out)  # noqa: E731
            else:
                ours = lambda: gpurotate.apply(x, element, layout=layout, out=out)  # noqa: E731
            candidates = [("gpurotate", ours)]
            for peer, ops in peers.items():
                if layout == "hwc" and peer in ("torchvision", "kornia"):
                    continue  # they take [..., C, H, W] only
                if per_sample:
                    if not all(ELEMENTS[c] in ops for c in codes):
                        continue
                    groups, grouped, loop = per_sample_peers(ops, codes, h, w)
                    index = {n: torch.tensor(s, device=device) for n, s in groups.items()}
                    peer_out = torch.empty_like(out)
                    candidates.append((f"{peer} (one call per element drawn)", lambda g=grouped, i=index, o=peer_out: g(x, o, i)))
                    candidates.append((f"{peer} (one call per sample)", lambda l=loop, o=peer_out: l(x, o)))
                elif element in ops:
                    candidates.append((peer, lambda f=ops[element]: f(x, h, w)))
            ours()
            expected = out.clone()
            for name, call in candidates:
                row = dict(base, element=element, implementation=name)
                try:
                    result = call()
                    torch.cuda.synchronize()
                    if not torch.equal(result, expected):
                        row["error"] = "output differs from gpurotate's"
                    else:
                        ms, host_ms = timer.median_ms(call)
                        row.update(ms=ms, host_ms=host_ms, percent_of_copy=100.0 * copy_ms / ms, gbps=bytes_moved / ms / 1e6)
                except Exception as error:  # one peer failing (an op it lacks, memory) leaves the rest
                    row["error"] = f"{type(error).__name__}: {error}".splitlines()[0][:200]
                    if args.verbose:
                        traceback.print_exc()
                rows.append(row)
                done = f"{row['percent_of_copy']:6.1f}% of copy, host {row['host_ms']:.3f} ms" if "ms" in row else row["error"]
                print(f"{label:24} {element:22} {name:40} {done}", file=sys.stderr)
            del out
        del x, copy_out
        torch.cuda.empty_cache()
    return rows


def environment(args):
    props = torch.cuda.get_device_properties(args.device)
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(sys.argv),
        "device": props.name,
        "multiprocessors": props.multi_processor_count,
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "gpurotate": gpurotate.__version__,
        "gpurotate_cuda": gpurotate.built_with_cuda(),
        "torchvision": getattr(optional("torchvision"), "__version__", None),
        "kornia": getattr(optional("kornia"), "__version__", None),
        "cupy": getattr(cupy, "__version__", None),
        "python": platform.python_version(),
        "reps": args.reps,
        "warmup": args.warmup,
        "l2_flush": not args.no_flush,
    }


def markdown(env, rows):
    lines = [
        f"Device: {env['device']}; torch {env['torch']} (CUDA {env['torch_cuda']}); gpurotate {env['gpurotate']}; "
        f"torchvision {env['torchvision']}; kornia {env['kornia']}; cupy {env['cupy']}; median of {env['reps']} "
        f"(warm-up {env['warmup']}, L2 flushed: {env['l2_flush']}). Cells: % of the same run's `y.copy_(x)` of the same "
        "bytes (higher is faster), then milliseconds.",
        "",
    ]
    by_case = {}
    for row in rows:
        by_case.setdefault(row["case"], []).append(row)
    for case, case_rows in by_case.items():
        if "copy_ms" not in case_rows[0]:
            lines += [f"### {case}: {case_rows[0].get('error')}", ""]
            continue
        implementations = list(dict.fromkeys(r["implementation"] for r in case_rows))
        elements = list(dict.fromkeys(r["element"] for r in case_rows))
        lines.append(f"### {case} (copy: {case_rows[0]['copy_ms']:.3f} ms, {case_rows[0]['copy_gbps']:.0f} GB/s)")
        lines.append("")
        lines.append("| element | " + " | ".join(implementations) + " |")
        lines.append("|---|" + "---|" * len(implementations))
        for element in elements:
            cells = []
            for implementation in implementations:
                match = [r for r in case_rows if r["element"] == element and r["implementation"] == implementation]
                if not match:
                    cells.append("")
                elif "ms" in match[0]:
                    cells.append(f"{match[0]['percent_of_copy']:.0f}% ({match[0]['ms']:.3f})")
                else:
                    cells.append(f"error: {match[0]['error']}")
            lines.append(f"| {element} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--cases", nargs="*", help="only the cases whose label contains one of these strings (e.g. nchw f32)")
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test")
    parser.add_argument("--no-flush", action="store_true", help="do not flush the L2 cache before each sample")
    parser.add_argument("--json", metavar="FILE", help="also write the environment and every row as JSON")
    parser.add_argument("--verbose", action="store_true", help="print the traceback of a failing implementation")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        sys.exit("python_bench.py: PyTorch sees no CUDA device")
    if not gpurotate.cuda_available():
        sys.exit("python_bench.py: this gpurotate has no usable CUDA backend (built without CUDA, or no GPU)")
    if args.quick:
        args.reps = min(args.reps, 5)
    env = environment(args)
    rows = run(args)
    print(markdown(env, rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"environment": env, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
