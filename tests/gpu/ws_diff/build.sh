#!/usr/bin/env bash
# The differential test's build (tests/gpu/ws_diff/README.md): gen.py draws the
# kernels, then each of the three variants of each is compiled with acopy-opt
# (--acopy-lower --emit=ptx, with its manifest) and assembled by ptxas for its chip.
# The test command runs this as the dry run (no GPU); the GPU run reads OUT.
# Usage: tests/gpu/ws_diff/build.sh OUT [gen.py flags]
#   (acopy-opt: $ACOPY_OPT or target/release/acopy-opt; ptxas: $ACOPY_PTXAS or
#   .venv/bin/ptxas; $JOBS parallel builds, default the CPU count)
# Writes OUT/kernels/*.mlir, OUT/cases.json, OUT/ptx/<module>.{ptx,manifest.json},
# OUT/refused.log (`<module>: <rule id> <first error line>`, one per module
# acopy-opt refused) and OUT/ptxas.log. Exits 1 when ptxas rejected a module or
# acopy-opt failed without a rule id (a crash, an internal error); a refusal
# with a rule id is a result (`refused`), not a build failure.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${1:?usage: build.sh OUT [gen.py flags]}"; shift
export ACOPY_OPT="${ACOPY_OPT:-$root/target/release/acopy-opt}"
export ACOPY_PTXAS="${ACOPY_PTXAS:-$root/.venv/bin/ptxas}"
for tool in "$ACOPY_OPT" "$ACOPY_PTXAS"; do
  [[ -x $tool ]] || { echo "ws_diff/build.sh: $tool is not an executable" >&2; exit 2; }
done
rm -rf "$out/kernels" "$out/ptx"
python3 "$here/gen.py" --out "$out" "$@" || exit 2
mkdir -p "$out/ptx"
build_one() {
  local kernel="$1" out="$2"
  local module; module="$(basename "$kernel" .mlir)"
  local chip=sm_80; [[ $module == *_tma_* ]] && chip=sm_90
  local ptx="$out/ptx/$module.ptx" err="$out/ptx/$module.err"
  if ! "$ACOPY_OPT" "$kernel" --acopy-lower --emit=ptx -o "$ptx" \
      --tma-manifest="$out/ptx/$module.manifest.json" 2> "$err"; then
    local first; first="$(grep -m1 'error:' "$err" | sed 's/^[^ ]* error: //')"
    echo "REFUSED $module: $first"
    return 0
  fi
  if "$ACOPY_PTXAS" -arch=$chip "$ptx" -o /dev/null 2>> "$err"; then
    echo "OK $module"
  else
    echo "PTXAS $module: $(head -c 300 "$err" | tr '\n' ' ')"
  fi
  rm -f "$err"
}
export -f build_one
ls "$out"/kernels/*.mlir | xargs -P "${JOBS:-$(nproc)}" -I{} bash -c 'build_one "$@"' _ {} "$out" > "$out/build.log"
grep '^REFUSED' "$out/build.log" | sed 's/^REFUSED //' | sort > "$out/refused.log"
grep '^PTXAS' "$out/build.log" | sed 's/^PTXAS //' | sort > "$out/ptxas.log"
ok=$(grep -c '^OK' "$out/build.log")
refused=$(wc -l < "$out/refused.log"); ptxas_failed=$(wc -l < "$out/ptxas.log")
echo "ws_diff: $ok modules built and assembled, $refused refused, $ptxas_failed rejected by ptxas"
status=0
if (( ptxas_failed > 0 )); then head -5 "$out/ptxas.log"; status=1; fi
# A refusal must name a documented rule (the error carries its id in the
# text's tail `[rule Pnn]`? no: acopy-opt prints the message); an internal error
# or a crash is a failure.
if grep -q 'internal error\|^[^:]*: *$' "$out/refused.log"; then
  grep 'internal error\|^[^:]*: *$' "$out/refused.log" | head -5; status=1
fi
exit $status
