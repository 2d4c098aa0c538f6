"""GPU tests of the launch API: run on a machine with an NVIDIA GPU (sm_90 for
the TMA cases), torch, and for two cases CuPy and JAX (bench/python-gpu.sh runs
each test in its own process). Elsewhere every test is skipped with the reason.

With ACOPY_GPU_RESULTS=DIR each case writes DIR/<case>.json:
{name, path, framework, exact, wrong, elements}; bench/python_results.py
gathers them into bench/results/python-h200.json."""

import json
import os
import re
from pathlib import Path

import pytest


@pytest.fixture
def record():
    def write(name, path, framework, wrong, elements):
        folder = os.environ.get("ACOPY_GPU_RESULTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            case = {
                "name": name,
                "path": path,
                "framework": framework,
                "exact": wrong == 0,
                "wrong": wrong,
                "elements": elements,
            }
            safe = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{name}-{framework}")
            (Path(folder) / f"{safe}.json").write_text(json.dumps(case) + "\n")
        assert wrong == 0, f"{name} ({framework}): {wrong} of {elements} elements differ"

    return write
