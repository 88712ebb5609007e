"""gpurotate.draw and gpurotate.draws against `gpurotate augment --random`: every record of augment's manifest
(its element, and its angle with --degrees) is what the package draws for that input's relative path, under
--weights, --p-flip-h/-v, --with-replacement and --degrees; and augment's refusals are the package's."""

import json
import os

import pytest

import gpurotate
from gpurotate import Orientation
from image_files import write_pngs

NAMES = ["a.png", "b.png", "cat 1.png", "sub/c.png", "sub/deeper/d.png", "é.png", "x/y/z.png", "z.png"]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    folder = tmp_path_factory.mktemp("draw") / "data"
    write_pngs(folder, NAMES)
    return folder


def _manifest(cli, dataset, tmp_path, *options):
    out = tmp_path / "out"
    cli("augment", *options, "--recursive", dataset, "-o", out)
    records = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert all(r["status"] == "ok" for r in records)
    assert sorted(os.path.relpath(r["input"], dataset) for r in records if r["draw"] == 0) == sorted(NAMES)
    return records


def _by_input(records, dataset):
    drawn = {}
    for r in records:
        key = os.path.relpath(r["input"], dataset).replace(os.sep, "/")
        drawn.setdefault(key, {})[r["draw"]] = r
    return drawn


RUNS = [
    ({}, ["--random", "2", "--seed", "7"]),
    ({"weights": "rot90=5,flip-h=1"}, ["--random", "2", "--seed", "7", "--weights", "rot90=5,flip-h=1"]),
    ({"ops": ["rot90", "flip-h", "transpose"], "weights": [3, 0.5, 1]},
     ["--random", "2", "--seed", "11", "--ops", "rot90,flip-h,transpose", "--weights", "3,0.5,1"]),
    ({"p_flip_h": 0.5}, ["--random", "2", "--seed", "7", "--p-flip-h", "0.5"]),
    ({"ops": "rot90,rot180", "p_flip_h": 0.3, "p_flip_v": 0.6},
     ["--random", "3", "--seed", "7", "--ops", "rot90,rot180", "--p-flip-h", "0.3", "--p-flip-v", "0.6"]),
    ({"with_replacement": True}, ["--random", "3", "--seed", "7", "--with-replacement"]),
    ({"ops": "rot90", "with_replacement": True}, ["--random", "2", "--seed", "5", "--ops", "rot90", "--with-replacement"]),
    ({"degrees": 15}, ["--random", "2", "--seed", "7", "--degrees", "15"]),
    ({"degrees": 15, "with_replacement": True, "weights": {"rot180": 4}},
     ["--random", "3", "--seed", "18446744073709551615", "--degrees", "15", "--with-replacement", "--weights", "rot180=4"]),
]


@pytest.mark.parametrize("kwargs, options", RUNS, ids=[" ".join(o) for _, o in RUNS])
def test_draws_are_the_manifests(cli, dataset, tmp_path, kwargs, options):
    records = _manifest(cli, dataset, tmp_path, *options)
    seed, count = int(options[options.index("--seed") + 1]), int(options[options.index("--random") + 1])
    degrees = kwargs.get("degrees", 0)
    for key, records_of_key in _by_input(records, dataset).items():
        assert sorted(records_of_key) == list(range(count))
        drawn = gpurotate.draws(seed, key, count, **kwargs)
        for d, record in records_of_key.items():
            if degrees:
                element, angle = drawn[d]
                assert angle == record["angle"], (key, d)  # the shortest decimal that reads back as it: exact
                assert -degrees <= angle < degrees
                assert gpurotate.draw(seed, key, d, **kwargs) == (element, angle)
            else:
                element = drawn[d]
                assert "angle" not in record
                assert gpurotate.draw(seed, key, d, **kwargs) == element
            assert isinstance(element, Orientation)
            assert int(element) == record["element"] and gpurotate.name(element) == record["op"], (key, d, options)


def test_ten_thousand_keys(cli, tmp_path):
    # The bar: 10,000 inputs. A dry run lists every output's name ({op} in it) without reading the
    # inputs, so they are empty files.
    folder = tmp_path / "keys"
    folder.mkdir()
    keys = [f"k{i:05d}.png" for i in range(10000)]
    for key in keys:
        (folder / key).touch()
    for options, kwargs in [([], {}), (["--ops", "all", "--weights", "rot90=4,flip-v=2", "--p-flip-h", "0.25"], {"weights": "rot90=4,flip-v=2", "p_flip_h": 0.25, "ops": "all"})]:
        listing = cli("augment", "--random", "2", "--seed", "2024", *options, "--dry-run", folder, "-o", tmp_path / "out",
                      "--name", "{stem}~{draw}~{op}.{ext}").stdout.decode()
        seen = 0
        for line in listing.splitlines():
            if line.startswith("gpurotate: dry run: "):
                continue  # the summary
            source, _, output = line.partition(" -> ")
            stem, d, op = os.path.basename(output)[: -len(".png")].split("~")
            assert stem == os.path.basename(source)[: -len(".png")]
            assert gpurotate.name(gpurotate.draw(2024, os.path.basename(source), int(d), **kwargs)) == op, line
            seen += 1
        assert seen == 2 * len(keys)


def test_a_draw_does_not_depend_on_the_count():
    for key in ["a.png", "sub/c.png", "0"]:
        for with_replacement in (False, True):
            longest = gpurotate.draws(99, key, 7, with_replacement=with_replacement)
            assert len(set(longest)) == 7 or with_replacement
            for count in range(1, 8):
                assert gpurotate.draws(99, key, count, with_replacement=with_replacement) == longest[:count]
            assert [gpurotate.draw(99, key, d, with_replacement=with_replacement) for d in range(7)] == longest
    # Draw 0 is the same with and without replacement; with it, any index.
    assert gpurotate.draw(3, "a.png", 0) == gpurotate.draw(3, "a.png", 0, with_replacement=True)
    assert isinstance(gpurotate.draw(3, "a.png", 10**6, with_replacement=True), Orientation)


def test_the_arguments_spell_the_same_model():
    kwargs = [
        {"ops": "rot90,flip-h", "weights": "rot90=2"},
        {"ops": ["rot90", "flip_h"], "weights": {"rot90": 2}},
        {"ops": [Orientation.rot90, 4], "weights": [2, 1]},
        {"ops": ("rot90", "flip-h"), "weights": {Orientation.rot90: 2.0, "flip-h": 1}},
    ]
    results = [gpurotate.draws(5, "k.png", 2, **k) for k in kwargs]
    assert all(r == results[0] for r in results)
    # ops=None is augment's default: all, or identity alone where a flip is asked for.
    assert gpurotate.draws(5, "k.png", 7) == gpurotate.draws(5, "k.png", 7, ops="all")
    assert gpurotate.draws(5, "k.png", 2, p_flip_h=0.5) == gpurotate.draws(5, "k.png", 2, ops="identity", p_flip_h=0.5)
    assert gpurotate.draw(5, os.path.join("sub", "c.png")) == gpurotate.draw(5, "sub/c.png")


REFUSED = [
    ({"count": 8}, ["--random", "8"]),
    ({"count": 2, "ops": "rot90"}, ["--random", "2", "--ops", "rot90"]),
    ({"count": 1, "weights": "rot90=-1"}, ["--random", "--weights", "rot90=-1"]),
    ({"count": 1, "weights": "rot90=0,rot180=0,rot270=0,flip-h=0,flip-v=0,transpose=0,transverse=0"},
     ["--random", "--weights", "rot90=0,rot180=0,rot270=0,flip-h=0,flip-v=0,transpose=0,transverse=0"]),
    ({"count": 1, "ops": "rot90", "weights": "flip-h=1"}, ["--random", "--ops", "rot90", "--weights", "flip-h=1"]),
    ({"count": 1, "ops": "rot91"}, ["--random", "--ops", "rot91"]),
    ({"count": 1, "p_flip_h": 1.5}, ["--random", "--p-flip-h", "1.5"]),
    ({"count": 1, "degrees": 200}, ["--random", "--degrees", "200"]),
]


@pytest.mark.parametrize("kwargs, options", REFUSED, ids=[" ".join(o) for _, o in REFUSED])
def test_refusals_are_augments(cli, dataset, tmp_path, kwargs, options):
    kwargs = dict(kwargs)
    count = kwargs.pop("count")
    with pytest.raises(gpurotate.UsageError) as raised:
        gpurotate.draws(7, "a.png", count, **kwargs)
    assert raised.value.code == 2
    result = cli("augment", *options, "--seed", "7", dataset, "-o", tmp_path / "out", check=False)
    assert result.returncode == 2
    assert str(raised.value) in result.stderr.decode(), result.stderr.decode()


def test_other_refusals():
    with pytest.raises(gpurotate.UsageError, match="N is 1 to 1000"):
        gpurotate.draws(7, "a.png", 0)
    with pytest.raises(gpurotate.UsageError, match="N is 1 to 1000"):
        gpurotate.draws(7, "a.png", 1001, with_replacement=True)
    with pytest.raises(gpurotate.UsageError, match="give 7 .draws 0 to 6"):
        gpurotate.draw(7, "a.png", 7)
    with pytest.raises(TypeError):
        gpurotate.draw(-1, "a.png")
    with pytest.raises(TypeError):
        gpurotate.draw(2**64, "a.png")
    with pytest.raises(TypeError):
        gpurotate.draw(7, b"a.png")
    with pytest.raises(TypeError):
        gpurotate.draws(7, "a.png", 1, weights=[True] * 7)
