"""The committed stub python/gpurotate/_gpurotate.pyi names every public symbol of the module. It is
nanobind's stubgen output (plus `__version__`), regenerated after a change to the bindings with
`PYTHONPATH=build/python python3 -m nanobind.stubgen -m gpurotate._gpurotate -o python/gpurotate/_gpurotate.pyi`."""

import ast
import pathlib

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
