"""MLX CUDA, finding 6: qmm_sm80's epilogue writes its C tile into shared memory that aliases the
A pipeline stages (union SharedStorage, device/qmm_sm80.cuh:18-26) while a cp.async group issued
on the last k-tile may still be in flight (waits are cp_async_wait<K_PIPE_MAX - 2>, :249; no
cp_async_wait<0> before the epilogue, :265-271). When the copy lands late, outputs take activation
bytes, so the same call on the same inputs gives different outputs from run to run.
The shape is the one every H200 row of the finding had (evidence/2026-12-02-h200-race: bf16,
4-bit, group 64, K 128, 67107 tokens, vocab 32000; 2 k-tiles of 64, 2 mod 3). The control K 4096
(64 k-tiles, 1 mod 3: the pending copy's stage does not overlap C) cannot be hit.

Pinned: MLX 846d176 (version.h 0.32.2); run with the PyPI wheels mlx==0.32.2 and mlx-cuda-13==0.32.2.
mlx-cuda-13 0.32.4 has the fix (its JIT source of qmm_sm80.cuh waits with cp_async_wait<0>() before
the epilogue), so with 0.32.4 both lines print zeros. An sm_80+ GPU with about 12 GB free.
Run: python mlx_finding6_qmm_epilogue_race.py [REPEATS]
Prints when the bug is there: for K 128 some repeats differ from the first run (thousands of
elements in the H200 rows; timing-dependent, a run may show none), for K 4096 none differ.
When fixed: zeros for both.
"""
import sys

import mlx.core as mx

REPEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 10
TOKENS, VOCAB = 67107, 32000
print(f"mlx {mx.__version__}", flush=True)
for K in (128, 4096):
    w = (mx.random.normal((VOCAB, K)) * 0.02).astype(mx.bfloat16)
    wq, scales, biases = mx.quantize(w, group_size=64, bits=4)
    x = (mx.random.normal((TOKENS, K)) * 0.1).astype(mx.bfloat16)
    first = mx.quantized_matmul(x, wq, scales, biases, transpose=True, group_size=64, bits=4)
    mx.eval(first)
    counts = []
    for _ in range(REPEATS):
        y = mx.quantized_matmul(x, wq, scales, biases, transpose=True, group_size=64, bits=4)
        counts.append(int(mx.sum(y != first).item()))
        del y
    print(f"K {K}: elements differing from the first run, per repeat: {counts}", flush=True)
    del w, wq, scales, biases, x, first
