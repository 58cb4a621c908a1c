#!/usr/bin/env bash
# 2026-12-01, nvidia-h200: the regenerated baseline baselines/nvidia-h200.csv (then
# docs/baselines/; schema 1.3, the build with qmv_stream's weight ring): the default sweep as the
# nightly runs it (--timing, --devices all, the checkout's ledger) under a 300 s budget on one
# H200; then scripts/gpu-selftest for evidence/bug-class-results.md. The report pictures are drawn
# afterwards where gnuplot is (it is not on the device). From the tree (evidence/lib.sh: this
# checkout's build, or GRIDFUZZ_PREBUILT's binaries): `bash evidence/gpu-runs/2026-12-01-baseline.sh`.
set -u
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
O=$OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$O/device.txt"
s=$SECONDS
"$gf" sweep --timing --devices all --time-budget 300 --ledger properties/known-failures.txt \
  --csv "$O/sweep.csv" > "$O/sweep.log" 2>&1
echo "sweep exit $? ($((SECONDS - s)) s)" >> "$O/device.txt"
s=$SECONDS
timeout 150 bash scripts/gpu-selftest /tmp/selftest > "$O/selftest-console.log" 2>&1
echo "gpu-selftest exit $? ($((SECONDS - s)) s)" >> "$O/device.txt"
cp /tmp/selftest/bug-class-results.md "$O/" 2>/dev/null
cat "$O/device.txt"; tail -n 3 "$O/sweep.log"; tail -n 3 "$O/selftest-console.log"
