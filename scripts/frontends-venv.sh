#!/usr/bin/env bash
# A Python 3.12 virtualenv with what the GPU machine runs for acopy.jax and acopy.torch
# (jax and jaxlib 0.11.2, torch 2.11.0, numpy, pytest), in which
# python/tests/test_frontends.py runs on CPU; scripts/test.sh uses it when it exists.
#   bash scripts/frontends-venv.sh [DIR]      # default target/fe-venv (ignored by git)
# About 5 GB and 5 minutes the first time (PyPI's torch wheel brings its CUDA
# libraries); idempotent. PYTHON312 names the interpreter (default python3.12).
set -euo pipefail
dir=${1:-target/fe-venv}
py=${PYTHON312:-python3.12}
if [ ! -x "$dir/bin/python" ]; then
  "$py" -m venv "$dir"
fi
"$dir/bin/python" -m pip install --quiet --disable-pip-version-check \
  jax==0.11.2 jaxlib==0.11.2 torch==2.11.0 numpy pytest==9.2.0
"$dir/bin/python" -c "import jax, torch; print('jax', jax.__version__, 'torch', torch.__version__)"
