"""gpurotate.ray.Augment against `gpurotate augment --random N --seed S` of the same files: on a local Ray cluster
(ray.init(num_cpus=2), one start for the module), the pipeline's rows, and what write_parquet and
write_webdataset(encoder=None) write from them, are augment's files byte for byte, for a folder
(read_binary_files), a Hugging Face image parquet (read_parquet) and WebDataset shards (read_webdataset) compared
with augment of the extracted folder. The rest call Augment on batches directly (no Ray needed): a bad sample
fails alone, and the refusals."""

import io
import json
import logging
import os
import pathlib
import shutil
import tarfile
import warnings

import numpy as np
import pytest

import gpurotate
import gpurotate.ray
from image_files import png_bytes, write_pngs

SAMPLES = pathlib.Path(__file__).resolve().parents[2] / "samples"
PNG_NAMES = ["a.png", "cat 1.png", "sub/b.png", "sub/deeper/c.png", "é.png"]
JPEG_NAMES = ["j/aligned.jpg", "j/rocket.jpg", "upper.JPG"]
SEED = 7
DRAWS = 2


@pytest.fixture(scope="module")
def dataset(cli, tmp_path_factory):
    """PNGs written with zlib, JPEGs of whole blocks (made by the CLI from a PNG) and of partial ones (rocket.jpg)."""
    folder = tmp_path_factory.mktemp("ray") / "data"
    write_pngs(folder, PNG_NAMES)
    rng = np.random.default_rng(3)
    source = folder.parent / "aligned.png"
    source.write_bytes(png_bytes(rng.integers(0, 256, size=(48, 64, 3), dtype=np.uint8)))
    (folder / "j").mkdir()
    cli(source, "-o", folder / "j/aligned.jpg")
    shutil.copyfile(SAMPLES / "rocket.jpg", folder / "j/rocket.jpg")
    cli(source, "--rot90", "-o", folder / "upper.JPG")
    return folder


def _augment(cli, folder, out, *options):
    """augment's files below `out` (relative path -> bytes) and its manifest's element of each."""
    cli("augment", "--recursive", "--random", DRAWS, "--seed", SEED, *options, folder, "-o", out, "-q")
    records = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert all(r["status"] == "ok" for r in records)
    files = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != "manifest.jsonl"}
    elements = {os.path.relpath(r["output"], out).replace(os.sep, "/"): r["element"] for r in records}
    assert set(elements) == set(files)
    return files, elements


@pytest.fixture(scope="module")
def expected(cli, dataset):
    return _augment(cli, dataset, dataset.parent / "augment")


@pytest.fixture(scope="module")
def ray(tmp_path_factory):
    """A local Ray cluster of 2 CPUs for the module's pipelines, started once."""
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'ray[data]')")
    pytest.importorskip("ray.data", reason="ray.data is not installed (pip install 'ray[data]')")
    pytest.importorskip("pyarrow", reason="pyarrow is not installed")
    # The workers import gpurotate as this process does: from the build tree PYTHONPATH names.
    path = os.pathsep.join([str(pathlib.Path(gpurotate.__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")])
    with pytest.MonkeyPatch.context() as env:
        # Ray's session files in the test's own folder, and no token written to ~/.ray for a cluster of this process.
        env.setenv("RAY_AUTH_MODE", "disabled")
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env={"env_vars": {"PYTHONPATH": path}},
                 _temp_dir=str(tmp_path_factory.mktemp("ray-session")))
        ray.data.DataContext.get_current().enable_progress_bars = False
        yield ray
        ray.shutdown()


def _options(**extra):
    # Two actors of half a CPU each: the read tasks keep a CPU of the two (actors of 1 CPU each would take both).
    return dict(fn_constructor_kwargs=dict(random=DRAWS, seed=SEED, **extra), concurrency=2, num_cpus=0.5)


@pytest.mark.ray
def test_folder_is_augments(ray, dataset, expected):
    files, elements = expected
    ds = ray.data.read_binary_files(str(dataset), include_paths=True)
    rows = ds.map_batches(gpurotate.ray.Augment, batch_size=3, **_options(root=str(dataset))).take_all()
    assert sorted(r["path"] for r in rows) == sorted(files)
    for r in rows:
        assert r["bytes"] == files[r["path"]], r["path"]
        assert r["element"] == elements[r["path"]] and r["seed"] == SEED and r["draw"] in (0, 1)


@pytest.mark.ray
def test_folder_with_degrees_is_augments(ray, cli, dataset, tmp_path):
    # augment --random 2 --seed 7 --degrees 15: each draw's element, then its own angle; the rows carry the
    # manifest's angle, and a JPEG variant is re-encoded at its input's quality in both.
    out = tmp_path / "augment"
    files, elements = _augment(cli, dataset, out, "--degrees", "15")
    records = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    angles = {os.path.relpath(r["output"], out).replace(os.sep, "/"): r["angle"] for r in records}
    ds = ray.data.read_binary_files(str(dataset), include_paths=True)
    rows = ds.map_batches(gpurotate.ray.Augment, batch_size=3, **_options(root=str(dataset), degrees=15)).take_all()
    assert sorted(r["path"] for r in rows) == sorted(files)
    for r in rows:
        assert r["bytes"] == files[r["path"]], r["path"]
        assert r["element"] == elements[r["path"]] and r["angle"] == angles[r["path"]] and -15 <= r["angle"] < 15


@pytest.mark.parametrize("interpolation, keep_size", [("nearest", True), ("bicubic", False)])
def test_degrees_interpolation_and_keep_size_are_augments(cli, dataset, tmp_path, interpolation, keep_size):
    out = tmp_path / "augment"
    files, _ = _augment(cli, dataset, out, "--degrees", "40", "--interpolate", interpolation, *(["--keep-size"] if keep_size else []))
    names = sorted(p.relative_to(dataset).as_posix() for p in dataset.rglob("*") if p.is_file())
    augment = gpurotate.ray.Augment(root=dataset, random=DRAWS, seed=SEED, degrees=40, interpolation=interpolation, keep_size=keep_size)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the JPEGs' re-encoding
        rows = augment(_files_batch([(dataset / n, (dataset / n).read_bytes()) for n in names]))
    assert dict(zip(rows["path"], rows["bytes"])) == files
    keys = {n.rsplit(".", 1)[0]: n for n in names}  # "sub/b_1_rot90.png" is draw 1 of "sub/b.png"
    for path, draw, angle in zip(rows["path"], rows["draw"], rows["angle"]):
        assert angle == gpurotate.draw(SEED, keys[path.rsplit("_", 2)[0]], int(draw), degrees=40)[1], path


@pytest.mark.ray
def test_parquet_of_image_structs_is_augments(ray, dataset, expected, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    files, elements = expected
    names = sorted(p.relative_to(dataset).as_posix() for p in dataset.rglob("*") if p.is_file())
    images = [{"bytes": (dataset / n).read_bytes(), "path": n} for n in names]
    table = pa.table({"image": images, "label": list(range(len(names)))})
    (tmp_path / "train").mkdir()
    for k in range(2):  # two files: two blocks, one for each actor
        pq.write_table(table.slice(k * 4, 4), tmp_path / "train" / f"part-{k}.parquet")
    ds = ray.data.read_parquet(str(tmp_path / "train"))
    ds.map_batches(gpurotate.ray.Augment, **_options()).write_parquet(str(tmp_path / "out"))
    table = pa.concat_tables([pq.read_table(p) for p in sorted((tmp_path / "out").glob("*.parquet"))])
    assert table.schema.field("image").type == pa.struct([("bytes", pa.binary()), ("path", pa.string())])  # Hugging Face Image's storage
    written = table.to_pylist()
    assert sorted(r["image"]["path"] for r in written) == sorted(files)
    for r in written:
        path = r["image"]["path"]
        assert r["image"]["bytes"] == files[path], path
        assert r["element"] == elements[path]
        assert names[r["label"]].rsplit(".", 1)[0] == path.rsplit("_", 2)[0]  # the label travels with its image's variants


def _shards(dataset, folder, count):
    """The dataset's images, each with a .cls member, as `count` WebDataset shards (members sorted by name)."""
    names = sorted(p.relative_to(dataset).as_posix() for p in dataset.rglob("*") if p.is_file())
    folder.mkdir()
    paths = []
    for k in range(count):
        path = folder / f"shard-{k}.tar"
        with tarfile.open(path, "w") as tar:
            for i, name in enumerate(names[k::count]):
                for member, data in ((name, (dataset / name).read_bytes()), (name.rsplit(".", 1)[0] + ".cls", str(i).encode())):
                    info = tarfile.TarInfo(member)
                    info.size = len(data)
                    tar.addfile(info, io.BytesIO(data))
        paths.append(path)
    return paths


@pytest.mark.ray
def test_webdataset_is_augments_of_the_extracted_folder(ray, cli, dataset, tmp_path):
    shards = _shards(dataset, tmp_path / "shards", 2)
    extracted = tmp_path / "extracted"
    for shard in shards:
        with tarfile.open(shard) as tar:
            for info in tar.getmembers():  # our own members: no filter needed (Python 3.11.2 has no extractall(filter=))
                (extracted / info.name).parent.mkdir(parents=True, exist_ok=True)
                (extracted / info.name).write_bytes(tar.extractfile(info).read())
    files, elements = _augment(cli, extracted, tmp_path / "augment")  # augment reads the images, not the .cls
    ds = ray.data.read_webdataset([str(s) for s in shards], decoder=None)
    ds.map_batches(gpurotate.ray.Augment, **_options()).write_webdataset(str(tmp_path / "out"), encoder=None)
    members = {}
    for shard in sorted((tmp_path / "out").glob("*.tar")):
        with tarfile.open(shard) as tar:
            for info in tar.getmembers():
                members[info.name] = tar.extractfile(info).read()
    images = {name: data for name, data in members.items() if not name.endswith(".cls")}
    assert images == files
    for name in files:  # each variant's .cls is its input's: "j/rocket_0_rot90.cls" is "j/rocket.cls"
        assert members[name.rsplit(".", 1)[0] + ".cls"] == (extracted / (name.rsplit("_", 2)[0] + ".cls")).read_bytes()


def _objects(values):
    array = np.empty(len(values), dtype=object)  # as Ray's batches hold bytes and str
    array[:] = values
    return array


def _files_batch(entries):
    """A batch as read_binary_files(include_paths=True) gives it, of (path, bytes) pairs."""
    return {"bytes": _objects([data for _, data in entries]), "path": _objects([str(path) for path, _ in entries])}


def test_a_bad_sample_fails_alone(dataset, expected, caplog):
    files, _ = expected
    batch = _files_batch([(dataset / "a.png", (dataset / "a.png").read_bytes()),
                          (dataset / "sub/broken.png", b"\x89PNG\r\n\x1a\nnot really"),
                          ("/elsewhere/x.png", (dataset / "a.png").read_bytes()),
                          (dataset / "j/rocket.jpg", (dataset / "j/rocket.jpg").read_bytes())])
    with caplog.at_level(logging.WARNING, logger="gpurotate.ray"):
        out = gpurotate.ray.Augment(root=str(dataset), random=DRAWS, seed=SEED)(batch)
    assert sorted(out["path"]) == sorted(p for p in files if p.startswith(("a_", "j/rocket_")))
    assert all(files[p] == b for p, b in zip(out["path"], out["bytes"]))
    assert "sub/broken.png" in caplog.text and "'/elsewhere/x.png' is not below root" in caplog.text
    one_bad = {column: values[:2] for column, values in batch.items()}
    with pytest.raises(gpurotate.Error, match="sub/broken.png: .*corrupt PNG") as raised:
        gpurotate.ray.Augment(root=str(dataset), random=DRAWS, seed=SEED, errors="raise")(one_bad)
    assert raised.value.code == 3


@pytest.fixture(scope="module")
def every_element(cli, dataset):
    """augment --ops identity,all's files (relative path -> bytes): without --random, named {stem}_{op}.{ext}."""
    out = dataset.parent / "every-element"
    cli("augment", "--recursive", "--ops", "identity,all", dataset, "-o", out, "-q")
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != "manifest.jsonl"}


def _two_inputs(dataset):
    return _files_batch([(dataset / n, (dataset / n).read_bytes()) for n in ("sub/b.png", "j/rocket.jpg")])


def test_every_element_without_random(dataset, every_element):
    out = gpurotate.ray.Augment(root=str(dataset), ops="identity,all")(_two_inputs(dataset))
    assert sorted(out["path"]) == sorted(p for p in every_element if p.startswith(("sub/b_", "j/rocket_")))
    assert len(out["path"]) == 16 and "seed" not in out and "draw" not in out
    assert all(every_element[p] == b for p, b in zip(out["path"], out["bytes"]))
    assert [gpurotate.name(gpurotate.Orientation(e)) for e in out["element"]] == [p.rsplit("_", 1)[1].split(".")[0] for p in out["path"]]


def test_a_format_and_quality_are_augments(cli, dataset, tmp_path):
    out_dir = tmp_path / "augment"
    cli("augment", "--recursive", "--random", "--seed", SEED, "--format", "JPG", "--quality", "85", dataset, "-o", out_dir, "-q")
    files = {p.relative_to(out_dir).as_posix(): p.read_bytes() for p in out_dir.rglob("*") if p.is_file() and p.name != "manifest.jsonl"}
    names = sorted(p.relative_to(dataset).as_posix() for p in dataset.rglob("*") if p.is_file())
    out = gpurotate.ray.Augment(root=dataset, random=1, seed=SEED, format="JPG", quality=85)(
        _files_batch([(dataset / n, (dataset / n).read_bytes()) for n in names]))
    assert dict(zip(out["path"], out["bytes"])) == files  # names ending .JPG, as augment's


@pytest.mark.parametrize("library", ["pyarrow", "pandas"])
def test_a_table_batch_is_a_dict_batch(dataset, library):
    # batch_format="pyarrow" or "pandas" gives what Ray's default, a dict of NumPy columns, gives.
    module = pytest.importorskip(library, reason=f"{library} is not installed")
    batch = _two_inputs(dataset)
    table = module.table(batch) if library == "pyarrow" else module.DataFrame(batch)
    augment = gpurotate.ray.Augment(root=str(dataset), random=DRAWS, seed=SEED)
    ours, theirs = augment(batch), augment(table)
    assert list(ours) == list(theirs)
    for column in ours:
        assert list(ours[column]) == list(theirs[column]), column


def test_a_webdataset_sample_of_two_images(dataset, cli, tmp_path):
    # An image and its mask: without image_column the sample fails alone; with it, the mask is turned by the
    # image's element, as `gpurotate MASK --OP` writes it.
    image, mask = (dataset / "j/aligned.jpg").read_bytes(), (dataset / "a.png").read_bytes()
    batch = {"__key__": _objects(["s1"]), "jpg": _objects([image]), "png": _objects([mask])}
    assert len(gpurotate.ray.Augment(random=1, seed=SEED)(batch)["__key__"]) == 0
    out = gpurotate.ray.Augment(random=1, seed=SEED, image_column="jpg")(batch)
    element = gpurotate.draw(SEED, "s1.jpg")
    op = gpurotate.name(element)
    assert list(out["__key__"]) == [f"s1_{op}"] and list(out["__element__"]) == [int(element)]
    (tmp_path / "m.png").write_bytes(mask)
    cli(tmp_path / "m.png", *([] if op == "identity" else [f"--{op}"]), "-o", tmp_path / "t.png")
    assert out["png"][0] == (tmp_path / "t.png").read_bytes()


KEYS = [
    ("s3://bucket/train", "bucket/train/cats/a.png", "cats/a.png"),  # Ray drops the scheme from its path column
    ("s3://bucket/train/", "bucket/train/cats/a.png", "cats/a.png"),
    ("local:///data/train", "/data/train/cats/a.png", "cats/a.png"),
    (None, "/data/train/cats/a.png", "a.png"),  # augment's file named on its command line: the file name
    (None, "cats/a.png", "cats/a.png"),  # augment's relative @list line: as it is
    (None, "../cats/a.png", "a.png"),
]


@pytest.mark.parametrize("root, path, key", KEYS, ids=[f"{root} {path}" for root, path, _ in KEYS])
def test_keys_as_augment_gives_them(dataset, root, path, key):
    out = gpurotate.ray.Augment(root=root, random=1, seed=SEED)(_files_batch([(path, (dataset / "a.png").read_bytes())]))
    op = gpurotate.name(gpurotate.draw(SEED, key))
    assert list(out["path"]) == [f"{key[:-4]}_{op}.png"]


@pytest.mark.parametrize("bad_key", ["../evil", "/etc/evil", "a//b", "a/./b", "./../evil"])
def test_a_webdataset_member_that_climbs_out_fails_alone(dataset, bad_key, caplog):
    image = (dataset / "a.png").read_bytes()
    batch = {"__key__": _objects([bad_key, "good"]), "png": _objects([image, image])}
    with caplog.at_level(logging.WARNING, logger="gpurotate.ray"):
        out = gpurotate.ray.Augment(random=1, seed=SEED)(batch)
    assert list(out["__key__"]) == [f"good_{gpurotate.name(gpurotate.draw(SEED, 'good.png'))}"]
    assert f"member '{bad_key}.png'" in caplog.text


def test_refusals(dataset):
    with pytest.raises(gpurotate.UsageError, match="seed"):
        gpurotate.ray.Augment(random=2)
    for flag in ("seed", "p_flip_h", "weights", "with_replacement"):
        with pytest.raises(gpurotate.UsageError, match=f"{flag} requires random"):
            gpurotate.ray.Augment(**{flag: {"weights": "rot90=2"}.get(flag, 1)})
    with pytest.raises(gpurotate.UsageError, match="quality 101"):
        gpurotate.ray.Augment(quality=101)
    with pytest.raises(gpurotate.UsageError, match="jpeg_edge 'round'"):
        gpurotate.ray.Augment(jpeg_edge="round")
    with pytest.raises(gpurotate.UsageError, match="--format xyz"):
        gpurotate.ray.Augment(format="xyz")
    with pytest.raises(gpurotate.UsageError, match="needs {draw}"):
        gpurotate.ray.Augment(random=2, seed=1, name="{stem}_{op}.{ext}")
    with pytest.raises(gpurotate.UsageError, match="index"):
        gpurotate.ray.Augment(name="{index}_{op}.{ext}")
    with pytest.raises(ValueError, match="'cpu', 'cuda', 'cuda:N'"):
        gpurotate.ray.Augment(device="tpu")
    if not gpurotate.cuda_available():  # a GPU actor's Session says why it cannot start
        with pytest.raises(gpurotate.DeviceError):
            gpurotate.ray.Augment(device="cuda")
    with pytest.raises(gpurotate.UsageError, match="degrees requires random"):
        gpurotate.ray.Augment(degrees=15)
    for degrees in (181, -1, float("nan")):
        with pytest.raises(gpurotate.UsageError, match="from 0 to 180"):
            gpurotate.ray.Augment(random=1, seed=1, degrees=degrees)
    with pytest.raises(TypeError, match="degrees is a number"):
        gpurotate.ray.Augment(random=1, seed=1, degrees="15")
    with pytest.raises(gpurotate.UsageError, match="interpolation 'cubic'"):
        gpurotate.ray.Augment(random=1, seed=1, degrees=15, interpolation="cubic")
    with pytest.raises(gpurotate.UsageError, match="include_paths"):
        gpurotate.ray.Augment()({"bytes": _objects([b"x"])})


def test_a_webdataset_key_of_tar_c_dot_is_augments(dataset, cli, tmp_path):
    # `tar -cf s.tar -C folder .` stores "./cat/a.png": Ray's __key__ is "./cat/a", and augment of the shard, as
    # tar and WebDataset's extraction, drops the "./" (the variant's key "cat/a_OP").
    (tmp_path / "m/cat").mkdir(parents=True)
    shutil.copyfile(dataset / "a.png", tmp_path / "m/cat/a.png")
    (tmp_path / "m/cat/a.cls").write_bytes(b"1")
    cli("augment", "--random", "--seed", SEED, tmp_path / "m", "-r", "-o", tmp_path / "folder", "-q")
    expected = {p.relative_to(tmp_path / "folder").as_posix(): p.read_bytes() for p in (tmp_path / "folder").rglob("*.png")}
    image = (tmp_path / "m/cat/a.png").read_bytes()
    batch = {"__key__": _objects(["./cat/a", "././cat/a"]), "png": _objects([image, image]), "cls": _objects([b"1", b"1"])}
    out = gpurotate.ray.Augment(random=1, seed=SEED)(batch)
    assert [f"{key}.png" for key in out["__key__"]] == [next(iter(expected))] * 2
    assert list(out["png"]) == [next(iter(expected.values()))] * 2 and list(out["cls"]) == [b"1", b"1"]
