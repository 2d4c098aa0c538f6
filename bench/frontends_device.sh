#!/usr/bin/env bash
# On the GPU machine, from the repository root, carrying target/frontends-device (made by
# bench/frontends_prepare.sh): unpacks the extension into python/acopy/ and runs
# bench/frontends_gpu.py with the package on PYTHONPATH. Writes OUT/frontends.json and
# OUT/frontends-gpu.log; exits 1 when a case is not ok.
#   bash bench/frontends_device.sh OUT [PYTHON]
set -uo pipefail
out=${1:?usage: bash bench/frontends_device.sh OUT [PYTHON]}
py=${2:-python3}
mkdir -p "$out"
"$py" - <<'PY' || exit 1
import lzma, shutil
with lzma.open("target/frontends-device/_native.abi3.so.xz") as src, open("python/acopy/_native.abi3.so", "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
export PYTHONPATH=$PWD/python${PYTHONPATH:+:$PYTHONPATH} XLA_PYTHON_CLIENT_PREALLOCATE=false
timeout 420 "$py" bench/frontends_gpu.py "$out" 2>&1 | tee "$out/frontends-gpu.log"
exit "${PIPESTATUS[0]}"
