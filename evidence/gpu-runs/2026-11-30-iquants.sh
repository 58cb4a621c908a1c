#!/usr/bin/env bash
# One GPU run of the GGUF and vLLM GPU suites (separate processes, in parallel on the one GPU).
# From the tree: evidence/lib.sh (this checkout's build, or GRIDFUZZ_PREBUILT's binaries).
# shellcheck source=evidence/lib.sh
source "$(dirname "$0")/../lib.sh"
gguf_tests="$(gridfuzz_built gridfuzz_gguf_gpu_tests)" || exit 3
vllm_tests="$(gridfuzz_built gridfuzz_vllm_gpu_tests)" || exit 3
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nvidia-smi | head -4; } > "$OUT/device.txt" 2>&1
( s=$SECONDS; timeout 215 "$gguf_tests" > "$OUT/gguf.log" 2>&1; echo "gguf rc $? wall $((SECONDS - s)) s" >> "$OUT/rc.txt" ) &
( s=$SECONDS; timeout 215 "$vllm_tests" > "$OUT/vllm.log" 2>&1; echo "vllm rc $? wall $((SECONDS - s)) s" >> "$OUT/rc.txt" ) &
wait
cat "$OUT/device.txt" | head -3; cat "$OUT/rc.txt"
for f in gguf vllm; do echo "== $f: $(grep -c '^CASE' $OUT/$f.log) cases"; grep -E '^\[  (PASSED|FAILED) |^\[  FAILED  \]|tests ran' "$OUT/$f.log" | head -20; done
grep '^COMPARE' "$OUT/vllm.log" | sed 's/rows=.*: outputs/: outputs/' | cut -c1-200
grep -E 'iq[123]_' "$OUT/gguf.log" "$OUT/vllm.log" | grep '^.*CASE' | grep -v 'verdict pass' | grep -v 'fail:refused' | head -10
