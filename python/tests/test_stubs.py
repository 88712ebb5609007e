"""The committed stub python/gpurotate/_gpurotate.pyi names every public symbol of the module. It is
nanobind's stubgen output (plus `__version__`), regenerated after a change to the bindings with
`PYTHONPATH=build/python python3 -m nanobind.stubgen -m gpurotate._gpurotate -o python/gpurotate/_gpurotate.pyi`."""

import ast
import pathlib

import pytest

import gpurotate
from gpurotate import _gpurotate

STUB = pathlib.Path(__file__).resolve().parents[1] / "gpurotate" / "_gpurotate.pyi"


def _stub_names():
    names = set()
    for node in ast.parse(STUB.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def test_stub_names_every_public_symbol():
    public = {n for n in dir(_gpurotate) if not n.startswith("_")} | {"__version__"}
    assert public - _stub_names() == set()


def test_stub_has_every_element():
    text = STUB.read_text()
    for element in gpurotate.Orientation:
        assert f"    {element.name} = {int(element)}" in text


def test_package_api_is_documented():
    for name in gpurotate.__all__:
        value = getattr(gpurotate, name)
        if callable(value):
            assert value.__doc__, name


def test_the_package_is_typed():
    package = STUB.parent
    assert (package / "py.typed").exists()
    # apply is typed by overloads: an ndarray or a tensor in, the same kind out (out= given: out's kind).
    tree = ast.parse((package / "_api.py").read_text())
    overloads = [
        node for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name == "apply" and any(ast.unparse(d) == "overload" for d in node.decorator_list)
    ]  # fmt: skip
    assert len(overloads) >= 2
    assert ast.unparse(overloads[0].args.args[0].annotation) == "_Array" and ast.unparse(overloads[0].returns) == "_Array"
    typevar = next(node for node in tree.body if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "_Array")
    assert "np.ndarray" in ast.unparse(typevar.value) and "torch.Tensor" in ast.unparse(typevar.value)


def test_a_type_checker_sees_the_array_kinds(tmp_path, monkeypatch):
    mypy_api = pytest.importorskip("mypy.api", reason="mypy is not installed")
    # The package as imported here (the build tree's or an installed one), for mypy, which reads no PYTHONPATH.
    monkeypatch.setenv("MYPYPATH", str(pathlib.Path(gpurotate.__file__).resolve().parents[1]))
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import numpy as np\n"
        "import gpurotate\n"
        "y = gpurotate.apply(np.zeros((2, 3), np.uint8), 'rot90')\n"
        "reveal_type(y)\n"
        "z = gpurotate.apply(np.zeros((2, 3), np.int64), 'rot90', copy=True, layout='hw')\n"
        "reveal_type(z)\n"
        "b = gpurotate.transform_boxes(np.zeros((1, 4)), 'rot90', (3, 2))\n"
        "reveal_type(b)\n"
        "p = gpurotate.transform_points(np.zeros((1, 2)), 'flip-h', (3, 2))\n"
        "reveal_type(p)\n"
    )
    stdout, stderr, status = mypy_api.run([str(sample), "--ignore-missing-imports", "--no-incremental"])
    assert "error" not in stdout, stdout + stderr
    assert stdout.count("ndarray") >= 4, stdout
