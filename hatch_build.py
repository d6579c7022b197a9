"""The optional compiled build (README "Fast build"): a hatchling build hook.

``FOLKDECK_MYPYC=1 pip install .`` compiles the package's core with mypyc: ``cards``, the
``engine``, every game under ``games/``, the bots (``agents`` and each game's) and the ``sim``
runner, into C extension modules that the wheel carries beside the unchanged
Python sources (Python imports an extension module before a ``.py`` of the same name).
It needs a C compiler and Python's headers (Debian: ``gcc``, ``python3-dev``). The modules
left to the interpreter, and why, are ``INTERPRETED`` in ``src/folkdeck/engine/build.py``.

Without ``FOLKDECK_MYPYC`` (the default) this hook does nothing: the wheel is pure Python,
``pip install -e .`` works with no C compiler, and the pure build stays the reference the
compiled one is checked against (``tests/test_compiled.py``). An editable install is always
pure Python. mypyc compiles a copy of the package in ``build/mypyc/src``, in which each
module with a deal data class (``deal_data``) has the methods that ``engine/build.py``'s
``compiled_source`` writes out; that copy, the C sources and the object files stay in
``build/mypyc`` (``build/`` is ignored by git), never in ``src/``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ENV = "FOLKDECK_MYPYC"
"""Set to ``1`` to compile (any value but empty or ``0``)."""

REQUIRES = ["mypy>=2.4,<3", "setuptools>=70", "numpy>=1.26"]
"""What compiling needs (mypyc ships with mypy; setuptools drives the C compiler; mypy reads
NumPy's types where a compiled module's bot table reaches the learned bots), fetched into
pip's isolated build environment only when compiling."""


def _enabled() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


def _build_module(root: Path) -> Any:
    """``src/folkdeck/engine/build.py``, loaded on its own (the package is not installed)."""
    spec = importlib.util.spec_from_file_location("_folkdeck_build", root / "src/folkdeck/engine/build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiled_modules(root: Path) -> list[str]:
    """The paths under ``src/`` of the modules the compiled build compiles, sorted."""
    src = root / "src"
    is_compiled = _build_module(root).is_compiled_module
    paths = (p.relative_to(src).as_posix() for p in src.joinpath("folkdeck").rglob("*.py"))
    return sorted(p for p in paths if is_compiled(p))


class MypycBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        return REQUIRES if _enabled() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not _enabled() or self.target_name != "wheel":
            return
        if version == "editable":
            sys.stderr.write(f"folkdeck: {ENV} ignored: an editable install is pure Python\n")
            return
        root = Path(self.root)
        work = root / "build" / "mypyc"
        shutil.rmtree(work, ignore_errors=True)  # nothing of an earlier build reaches the wheel
        start = time.monotonic()
        modules = compiled_modules(root)
        for path in _compile(root, modules, work):
            build_data["force_include"][str(path)] = path.relative_to(work / "lib").as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        sys.stderr.write(f"folkdeck: mypyc compiled {len(modules)} modules in {time.monotonic() - start:.0f} s\n")


def compiled_sources(root: Path, modules: list[str], src: Path) -> list[str]:
    """Copy the package into ``src`` with each of ``modules`` as the compiled build
    compiles it (``compiled_source`` of ``engine/build.py``); the modules rewritten."""
    shutil.copytree(root / "src" / "folkdeck", src / "folkdeck", ignore=shutil.ignore_patterns("__pycache__"))
    rewrite = _build_module(root).compiled_source
    changed = []
    for module in modules:
        path = src / module
        text = path.read_text(encoding="utf-8")
        compiled = rewrite(text)
        if compiled != text:
            path.write_text(compiled, encoding="utf-8")
            changed.append(module)
    return changed


def _compile(root: Path, modules: list[str], work: Path) -> list[Path]:
    """Compile ``modules`` with mypyc into ``work`` (the sources it compiles in
    ``work/src``, C in ``work/c``, objects in ``work/temp``, extension modules in
    ``work/lib``); the extension modules' paths."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    src = work / "src"
    compiled_sources(root, modules, src)
    cwd = Path.cwd()
    os.chdir(src)  # mypy names each module from its path under src/
    try:
        # One C file per module (compiled in parallel), linked into one shared library.
        extensions = mypycify(modules, opt_level="3", multi_file=True, group_name="folkdeck",
                              target_dir=str(work / "c"))
    finally:
        os.chdir(cwd)
    for ext in extensions:  # mypycify's paths are relative to src/
        ext.sources = [str(src / s) for s in ext.sources]
        ext.include_dirs = [str(src / d) for d in ext.include_dirs]
    dist = Distribution({"name": "folkdeck", "ext_modules": extensions})
    build_ext = dist.get_command_obj("build_ext")
    build_ext.build_lib = str(work / "lib")
    build_ext.build_temp = str(work / "temp")
    build_ext.parallel = os.cpu_count() or 1
    build_ext.ensure_finalized()
    build_ext.run()
    return [Path(p) for p in build_ext.get_outputs()]
