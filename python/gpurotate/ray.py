"""`gpurotate augment` over a Ray Data dataset: a callable class for `Dataset.map_batches` whose rows are the
files `gpurotate augment --random N --seed S` writes for the same inputs, byte for byte (docs/scale.md).

    import ray, gpurotate.ray
    ds = ray.data.read_binary_files("s3://bucket/train", include_paths=True)
    out = ds.map_batches(gpurotate.ray.Augment, fn_constructor_kwargs=dict(root="s3://bucket/train", random=2, seed=7),
                         concurrency=4)
    out.write_parquet("s3://bucket/train-aug")

It takes the rows that `read_binary_files(include_paths=True)`, `read_webdataset(decoder=None)` and
`read_parquet` of Hugging Face's image struct give, and needs no import of ray itself: a batch is a dict of
columns (NumPy arrays or lists, Ray's default), a pandas DataFrame or a pyarrow Table.
"""

from __future__ import annotations

import logging
import math
import os
import posixpath
import re
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

import numpy as np

from . import _gpurotate
from ._draw import _ops_text, _weights_text
from ._encoded import Session, _interpolation, transform_encoded_many
from ._gpurotate import Error, UsageError

__all__ = ["Augment"]

_log = logging.getLogger("gpurotate.ray")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_ERRORS = ("skip", "raise")


class _SampleError(Exception):
    """One sample's failure: its key and the cause, for errors="skip" to leave it out alone."""


def _object_array(values: Sequence[Any]) -> np.ndarray:
    # Element by element: np.array would read bytes as fixed-width "S" (dropping trailing NULs) and lists as
    # a second axis.
    array = np.empty(len(values), dtype=object)
    for i, value in enumerate(values):
        array[i] = value
    return array


def _missing(value: Any) -> bool:
    # Ray fills a member a webdataset sample lacks with NaN (pandas' concatenation) or None.
    return value is None or (isinstance(value, float) and math.isnan(value))


def _columns(batch: Any) -> dict[str, np.ndarray]:
    if hasattr(batch, "column_names") and hasattr(batch, "to_pydict"):  # a pyarrow Table
        return {name: _object_array(values) for name, values in batch.to_pydict().items()}
    if hasattr(batch, "to_dict") and hasattr(batch, "columns"):  # a pandas DataFrame
        return {str(name): batch[name].to_numpy() for name in batch.columns}
    if isinstance(batch, Mapping):
        return {name: values if isinstance(values, np.ndarray) else _object_array(list(values)) for name, values in batch.items()}
    raise TypeError(f"a batch is a dict of columns, a pandas DataFrame or a pyarrow Table, not {type(batch).__name__}")


def _local(path: str) -> str:
    return posixpath.normpath(path.replace(os.sep, "/")) if os.sep != "/" else posixpath.normpath(path)


def _without_scheme(path: str) -> str:
    # Ray's path column drops the scheme ("s3://bucket/a.jpg" -> "bucket/a.jpg"; local paths absolute).
    if path.startswith("local://"):
        return _local(os.path.abspath(path[len("local://"):]))
    if _SCHEME.match(path):
        return _SCHEME.sub("", path).rstrip("/")
    return _local(os.path.abspath(path))


def _max_degrees(degrees: Any) -> float:
    """degrees= as augment's --degrees MAX: a number from 0 to 180 (TypeError for another type; the module
    gives augment's UsageError for one outside it, nan and inf included)."""
    if isinstance(degrees, (bool, str, bytes)) or not isinstance(degrees, (int, float, np.integer, np.floating)):
        raise TypeError(f"degrees is a number from 0 to 180 (augment's --degrees MAX), not {type(degrees).__name__}")
    return float(degrees)


def _without_leading_dot_slash(name: str) -> str:
    while name.startswith("./"):
        name = name[2:]
    return name


class Augment:
    """augment's variants of each row of a batch: `ds.map_batches(gpurotate.ray.Augment,
    fn_constructor_kwargs=dict(...), concurrency=K)`.

    The arguments are `gpurotate augment`'s flags: ops (--ops: text "rot90,flip-h", "all" or a list; None:
    "all", or "identity" where a flip probability is above 0), random (--random N; None: every element of
    ops), seed (--seed, needed with random: each actor constructs its own Augment, so a seed of its own
    would differ between them), weights, p_flip_h, p_flip_v, with_replacement (--weights, --p-flip-h,
    --p-flip-v, --with-replacement), format (--format; None: same), quality, jpeg_edge, strip (--quality,
    --jpeg-edge, --strip), name (--name: {stem}, {op}, {ext}, {dir} and {draw}; None: augment's
    default, {stem}_{op}.{ext}, or {stem}_{draw}_{op}.{ext} with random over 1), and degrees (--degrees MAX,
    0 to 180, needs random: each draw then rotated by augment's own angle, uniform in [-MAX, MAX), after its
    element; a JPEG variant is re-encoded at the input's quality, said as a Python warning), interpolation and
    keep_size (--interpolate, --keep-size: for those angles).

    root: the folder augment is given, as `read_binary_files` was (a local path or "s3://bucket/train"):
    an input's key, which its draws and its name come from, is its path below root, as augment's is. None:
    a relative path without ".." as it is (augment's @list line), any other the file name alone (augment's
    file named on the command line).

    Rows in, by their columns: `bytes` and `path` (read_binary_files(include_paths=True)); `__key__` and a
    column per member (read_webdataset(decoder=None): the key of member `a/b.jpg` is "a/b.jpg", as augment
    of the extracted folder or of the shard keys it, a leading "./" dropped); or a Hugging Face image struct column {"bytes", "path"}
    (read_parquet; `image_column` names it where there are several). Rows out, one per variant: the
    variant's bytes and its path below augment's OUTDIR (`bytes` and `path`; in the struct's two fields; or
    `__key__` and a column named by its extension), `element` (the code, the manifest's), and with random
    `draw` and `seed`, with degrees `angle` (the manifest's, degrees clockwise) (for webdataset rows
    `__element__`, `__draw__`, `__seed__`, `__angle__`, which write_webdataset(encoder=None) leaves out of the
    shard). A webdataset sample's other images (image_column's companions, a mask) take its angle by nearest,
    as augment turns a --masks mask. Every other column travels with each variant
    as it is (a webdataset sample's .cls, .txt, .json); labels are not turned (augment --labels does that).

    errors: "skip" (augment's rule: a sample that fails is left out alone, logged on the logger
    "gpurotate.ray" with its key and the cause) or "raise" (gpurotate.Error naming it). device: "cpu", or
    "cuda" / "cuda:N" for a GPU actor (`num_gpus=1` in map_batches: Ray sets the actor's visible device, which
    is then "cuda"), which opens one gpurotate.Session and converts every batch on it, with the CPU's bytes."""

    def __init__(
        self,
        *,
        root: Optional[Union[str, "os.PathLike[str]"]] = None,
        ops: Any = None,
        random: Optional[int] = None,
        seed: Optional[int] = None,
        weights: Any = None,
        p_flip_h: float = 0.0,
        p_flip_v: float = 0.0,
        with_replacement: bool = False,
        format: Optional[str] = None,
        quality: Optional[int] = None,
        jpeg_edge: str = "reencode",
        strip: bool = False,
        name: Optional[str] = None,
        degrees: Optional[float] = None,
        interpolation: Any = "bilinear",
        keep_size: bool = False,
        image_column: Optional[str] = None,
        errors: str = "skip",
        device: str = "cpu",
    ) -> None:
        # A GPU actor holds one Session: CUDA starts once per actor, not per batch.
        session = None if device == "cpu" else Session(device)
        if errors not in _ERRORS:
            raise ValueError(f"errors '{errors}': 'skip' (a failed sample is left out, logged) or 'raise'")
        if random is None:
            given = [flag for flag, value in (("seed", seed), ("weights", weights), ("p_flip_h", p_flip_h or None), ("p_flip_v", p_flip_v or None),
                                              ("with_replacement", with_replacement or None), ("degrees", degrees or None)) if value is not None]
            if given:
                raise UsageError(f"{given[0]} requires random=N, as augment's --{given[0].replace('_', '-')} requires --random")
        if random is not None and seed is None:
            raise UsageError("random: needs seed= (every actor constructs its own Augment; a seed chosen in each would differ)")
        if name is not None and ("{index}" in name or "{parent}" in name):
            raise UsageError(f"name '{name}': {{index}} and {{parent}} need the whole run's list of inputs; use {{stem}}, {{op}}, {{ext}}, {{dir}}, {{draw}}")
        self._root = None if root is None else _without_scheme(os.fspath(root))
        self._ops = _ops_text(ops, p_flip_h, p_flip_v) if random is not None else (_ops_text(ops, 0.0, 0.0) if ops is not None else "all")
        self._weights = _weights_text(weights)
        self._p_flip = (float(p_flip_h), float(p_flip_v))
        self._with_replacement = bool(with_replacement)
        self._random = 0 if random is None else int(random)
        self._seed = 0 if seed is None else int(seed)
        self._format = "" if format is None else format  # as augment takes --format: "same", "png", ... (names keep its case)
        self._name = name or ""
        self._degrees = 0.0 if degrees is None else _max_degrees(degrees)
        self._interpolation = _interpolation(interpolation)
        self._keep_size = bool(keep_size)
        self._convert = dict(jpeg_edge=jpeg_edge, quality=quality, strip=strip, device="cpu" if session is None else session)
        self._image_column = image_column
        self._errors = errors
        # augment's refusals of these flags (an unknown op, a bad weight, --name without {op}, a quality outside
        # 1-100, ...) now, once, rather than in every sample: a plan, and a conversion of no images.
        self._plan("check.png", "check.png")
        transform_encoded_many([], 0, **self._convert)

    def _plan(self, path: str, key: str) -> list[tuple[int, str, int, float]]:
        planned = _gpurotate.augment_outputs(path, key, self._ops, self._weights, self._p_flip[0], self._p_flip[1], self._with_replacement,
                                             self._random, self._seed, self._format, self._name, self._degrees)
        return [(int(element), relative, draw, angle) for element, relative, draw, angle in planned]

    def _key(self, path: Any) -> str:
        if _missing(path) or not isinstance(path, str) or not path:
            raise _SampleError("no path: a sample's key (its path below root) draws its elements and names its variants")
        if self._root is not None:
            full = _without_scheme(path) if (_SCHEME.match(path) or os.path.isabs(path)) else _local(path)
            if full != self._root and full.startswith(self._root.rstrip("/") + "/"):
                return full[len(self._root.rstrip("/")) + 1 :]
            if not (_SCHEME.match(path) or os.path.isabs(path)):
                raise _SampleError(f"'{path}' is relative, and root is '{self._root}': give paths below root")
            raise _SampleError(f"'{path}' is not below root '{self._root}'")
        parts = path.split("/")
        if _SCHEME.match(path) or os.path.isabs(path) or ".." in parts:
            return posixpath.basename(path)
        return _local(path)

    def _convert_all(self, jobs: list[tuple[bytes, int, str, float, str]]) -> list[Any]:
        """The bytes of each (data, element, format, angle, interpolation): one call per (element, format, angle,
        interpolation), the GIL released once; where one fails, each of that call's alone, so that one bad image
        fails its own sample only."""
        out: list[Any] = [None] * len(jobs)
        groups: dict[tuple[int, str, float, str], list[int]] = {}
        for i, (_, *how) in enumerate(jobs):
            groups.setdefault(tuple(how), []).append(i)
        for (element, format, angle, interpolation), indices in groups.items():
            options = dict(format=format, angle=angle, interpolation=interpolation, expand=not self._keep_size, **self._convert)
            try:
                results = transform_encoded_many([jobs[i][0] for i in indices], element, **options)
            except Error:
                results = []
                for i in indices:
                    try:
                        results.append(transform_encoded_many([jobs[i][0]], element, **options)[0])
                    except Error as error:
                        results.append(error)
            for i, result in zip(indices, results):
                out[i] = result
        return out

    def __call__(self, batch: Any) -> dict[str, np.ndarray]:
        columns = _columns(batch)
        if "__key__" in columns:
            return self._webdataset(columns)
        if "bytes" in columns:
            if "path" not in columns:
                raise UsageError("a batch of bytes without paths: read_binary_files(..., include_paths=True) gives each file's path, its key")
            return self._files(columns, "bytes", lambda value: (value, None))
        struct = self._struct_column(columns)
        return self._files(columns, struct, lambda value: (value.get("bytes"), value.get("path")) if isinstance(value, Mapping) else (None, None))

    def _struct_column(self, columns: dict[str, np.ndarray]) -> str:
        if self._image_column is not None:
            if self._image_column not in columns:
                raise UsageError(f"image_column '{self._image_column}': the batch has {', '.join(columns)}")
            return self._image_column
        structs = [name for name, values in columns.items() if any(isinstance(v, Mapping) and "bytes" in v for v in values)]
        if len(structs) != 1:
            raise UsageError(f"no column of bytes and paths: expected read_binary_files(include_paths=True)'s 'bytes' and 'path', read_webdataset's "
                             f"'__key__', or one Hugging Face image column of {{'bytes', 'path'}} (image_column= names it); the batch has {', '.join(columns)}")
        return structs[0]

    def _fail(self, key: str, cause: BaseException) -> None:
        if self._errors == "raise":
            error = (type(cause) if isinstance(cause, Error) else Error)(f"{key}: {cause}")
            error.code = getattr(cause, "code", 3)  # a sample's own failure is an input error (exit status 3), as augment's
            raise error from cause
        _log.warning("gpurotate.ray: %s: %s (its variants are left out)", key, cause)

    def _files(self, columns: dict[str, np.ndarray], image: str, split: Any) -> dict[str, np.ndarray]:
        """Rows of read_binary_files (image "bytes", the path its own column) or of a Hugging Face image struct."""
        struct = image != "bytes"
        plans: list[tuple[int, list[tuple[int, str, int, float]]]] = []
        jobs: list[tuple[bytes, int, str, float, str]] = []
        for row, value in enumerate(columns[image]):
            data, path = split(value)
            if not struct:
                path = columns["path"][row]
            try:
                key = self._key(path)
                if not isinstance(data, (bytes, bytearray, memoryview)):
                    raise _SampleError("no image bytes")
                planned = self._plan(path, key)
            except (_SampleError, UsageError) as error:
                self._fail(str(path), error)
                continue
            plans.append((row, planned))
            jobs.extend((bytes(data), element, posixpath.splitext(relative)[1][1:], angle, self._interpolation)
                        for element, relative, _, angle in planned)
        results = iter(self._convert_all(jobs))
        rows, images, paths, elements, draws, angles = [], [], [], [], [], []
        for row, planned in plans:
            outputs = [next(results) for _ in planned]
            failed = next((r for r in outputs if isinstance(r, Exception)), None)
            if failed is not None:
                self._fail(str(split(columns[image][row])[1] if struct else columns["path"][row]), failed)
                continue
            for (element, relative, draw, angle), data in zip(planned, outputs):
                rows.append(row)
                images.append({"bytes": data, "path": relative} if struct else data)
                paths.append(relative)
                elements.append(element)
                draws.append(draw)
                angles.append(angle)
        out = self._carried(columns, rows, {image} if struct else {"bytes", "path"})
        out[image] = _object_array(images)
        if not struct:
            out["path"] = _object_array(paths)
        out.update(self._draw_columns(elements, draws, angles, ""))
        return out

    def _webdataset(self, columns: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        images = [name for name in columns if not name.startswith("__") and _gpurotate.augment_reads("member." + name)]
        plans: list[tuple[int, str, list[tuple[int, str, int, float]], list[str]]] = []
        jobs: list[tuple[bytes, int, str, float, str]] = []
        for row, sample_key in enumerate(columns["__key__"]):
            present = [name for name in images if not _missing(columns[name][row])]
            try:
                if not present:
                    _log.info("gpurotate.ray: sample '%s' has no image member (augment of its folder reads none)", sample_key)
                    continue
                if self._image_column is not None:
                    if self._image_column not in present:
                        raise _SampleError(f"no member '.{self._image_column}' (image_column); it has {', '.join('.' + p for p in present)}")
                    main = self._image_column
                elif len(present) > 1:
                    raise _SampleError(f"members {', '.join('.' + p for p in present)} are all images: image_column= says which one is the image "
                                       "(the others are turned with it, as augment turns a --masks mask)")
                else:
                    main = present[0]
                # tar -C DIR . stores "./a.jpg", whose key Ray gives as "./a": augment drops the "./", as tar does.
                member = f"{sample_key}.{main}"
                key = _without_leading_dot_slash(member)
                if key.startswith("/") or any(part in ("", ".", "..") for part in key.split("/")):
                    # A member named "../x.jpg" or "/x.jpg": its variants' names would climb out of the output.
                    raise _SampleError(f"member '{member}': a path that is absolute or has an empty, '.' or '..' component")
                planned = self._plan(key, key)
            except (_SampleError, UsageError) as error:
                self._fail(f"{sample_key}", error)
                continue
            others = [name for name in present if name != main]
            plans.append((row, main, planned, others))
            for element, relative, _, angle in planned:
                jobs.append((bytes(columns[main][row]), element, posixpath.splitext(relative)[1][1:], angle, self._interpolation))
                # The other images (a mask) by nearest, as augment turns a --masks mask: no sample is interpolated into a new label.
                jobs.extend((bytes(columns[other][row]), element, other.rsplit(".", 1)[-1], angle, "nearest") for other in others)
        results = iter(self._convert_all(jobs))
        rows, keys, members, elements, draws, angles = [], [], [], [], [], []
        for row, main, planned, others in plans:
            outputs = [[next(results) for _ in range(1 + len(others))] for _ in planned]
            failed = next((r for variant in outputs for r in variant if isinstance(r, Exception)), None)
            if failed is not None:
                self._fail(str(columns["__key__"][row]), failed)
                continue
            for (element, relative, draw, angle), variant in zip(planned, outputs):
                stem, ext = posixpath.splitext(relative)
                rows.append(row)
                keys.append(stem)
                members.append({ext[1:]: variant[0], **dict(zip(others, variant[1:]))})
                elements.append(element)
                draws.append(draw)
                angles.append(angle)
        out = self._carried(columns, rows, set(images) | {"__key__"})
        out["__key__"] = _object_array(keys)
        for name in sorted({name for m in members for name in m}):
            out[name] = _object_array([m.get(name) for m in members])
        out.update(self._draw_columns(elements, draws, angles, "__"))
        return out

    def _carried(self, columns: dict[str, np.ndarray], rows: list[int], taken: set[str]) -> dict[str, np.ndarray]:
        """Every column the conversion does not replace, its value repeated for each variant of its row."""
        out = {}
        for name, values in columns.items():
            if name in taken:
                continue
            if values.dtype != object:
                out[name] = values[np.asarray(rows, dtype=np.intp)]
            else:
                out[name] = _object_array([None if _missing(values[r]) else values[r] for r in rows])
        return out

    def _draw_columns(self, elements: list[int], draws: list[int], angles: list[float], affix: str) -> dict[str, np.ndarray]:
        out = {f"{affix}element{affix}": np.asarray(elements, dtype=np.int64)}
        if self._random:
            out[f"{affix}draw{affix}"] = np.asarray(draws, dtype=np.int64)
            out[f"{affix}seed{affix}"] = np.full(len(elements), self._seed, dtype=np.uint64)
        if self._degrees:
            out[f"{affix}angle{affix}"] = np.asarray(angles, dtype=np.float64)  # the manifest's "angle": degrees clockwise after the element
        return out
