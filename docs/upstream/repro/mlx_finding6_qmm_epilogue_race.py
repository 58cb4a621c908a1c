"""MLX CUDA, finding 6: qmm_sm80's epilogue writes its C tile into shared memory that aliases the
A pipeline stages (union SharedStorage, device/qmm_sm80.cuh:18-26) while a cp.async group issued
on the last k-tile may still be in flight (waits are cp_async_wait<K_PIPE_MAX - 2>, :249; no
cp_async_wait<0> before the epilogue, :265-271). When the copy lands late, outputs take activation
bytes. The same call on the same inputs then gives different outputs from run to run.
K = 4032 (63 k-tiles of 64, 63 mod 3 = 0) can be hit; K = 4096 (64 mod 3 = 1) cannot.

Pinned: MLX 846d176 (0.32.2); nearest wheel mlx-cuda-13 0.32.4; an sm_80+ GPU.
Run: python mlx_finding6_qmm_epilogue_race.py [REPEATS]
Expected when the bug is there: for K 4032 some runs differ from the first in tens to hundreds of
elements (it is rare and timing-dependent: a run may show none); for K 4096 none differ.
Not run on the H200 yet.
"""
import sys

import mlx.core as mx

REPEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 20
TOKENS, VOCAB = 65536, 4096  # the gridfuzz replay of mlx.md finding 6: 8-bit, f16, group 64
for K in (4032, 4096):
    w = (mx.random.normal((VOCAB, K)) * 0.02).astype(mx.float16)
    wq, scales, biases = mx.quantize(w, group_size=64, bits=8)
    x = (mx.random.normal((TOKENS, K)) * 0.1).astype(mx.float16)
    first = mx.quantized_matmul(x, wq, scales, biases, transpose=True, group_size=64, bits=8)
    mx.eval(first)
    counts = []
    for _ in range(REPEATS):
        y = mx.quantized_matmul(x, wq, scales, biases, transpose=True, group_size=64, bits=8)
        counts.append(int(mx.sum(y != first).item()))
    print(f"K {K}: elements differing from the first run, per repeat: {counts}")
