"""One template language, two renderers: every example of ``template_vectors.json`` renders
to its expected text by ``folkdeck.i18n.Renderer`` and by ``web/i18n.js`` (under node, where
node is installed), so neither imitates the other: both follow the rules the file shows."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import folkdeck
from folkdeck.i18n import Renderer

VECTORS: list[dict[str, Any]] = json.loads(Path(__file__).with_name("template_vectors.json").read_text("utf-8"))["vectors"]
WEB = Path(folkdeck.__file__).parent / "web"
HARNESS = Path(__file__).parents[1] / "web" / "harness.mjs"
NODE = shutil.which("node")


@pytest.mark.parametrize("vector", VECTORS, ids=[v["note"] for v in VECTORS])
def test_python_renders_each_example(vector: dict[str, Any]) -> None:
    renderer = Renderer(vector["lang"], **vector["options"])
    assert renderer.format(vector["message"], vector["params"]) == vector["expected"]


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_browser_renders_each_example(lang: str) -> None:
    assert NODE is not None
    vectors = [v for v in VECTORS if v["lang"] == lang]
    payload = {"lang": lang, "cases": [], "models": [],
               "formats": [{"message": v["message"], "params": v["params"], "options": v["options"]} for v in vectors]}
    out = subprocess.run([NODE, str(HARNESS), WEB.as_uri(), str(WEB.parent / "i18n")], input=json.dumps(payload),
                         capture_output=True, text=True, timeout=120, check=True)
    rendered = json.loads(out.stdout)["formats"]
    differ = [(v["note"], v["expected"], r) for v, r in zip(vectors, rendered, strict=True) if v["expected"] != r]
    assert not differ
