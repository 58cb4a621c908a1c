"""MLX CUDA, findings 1-3: QuantizedMatmul::eval_gpu computes int B = out.size() / (M * N) with
int M, N (mlx/backend/cuda/quantized/quantized.cpp:101-104; again qmm_utils.h:12, qmv.cu:421).
  case 1: tokens x vocab >= 2^31 (Llama-3 head, 16744 x 128256): B = 0, the dispatch takes qmv
          (M * B < 8) with grid.z = 0; MLX checks every launch and graph-node add
          (mlx/backend/cuda/device.cpp:269, 320, 348, 356), so mx.eval raises RuntimeError.
  case 2: tokens x vocab = 2^32 (16384 x 262144): M * N is 0, the division kills the process (SIGFPE).
  case 3: tokens x vocab just past 2^32 (134227 x 32000): B is a wrong, legal count; qmm_sm80 is
          launched with B times the work and reads out of bounds. gridfuzz's call of it faulted
          on the H200 (K 128); in MLX, on one H100, it neither faulted nor finished within
          150 s (2026-12-06 at K 4096, 2026-12-07 at K 128). Its "control" is 134217 tokens, the
          last with tokens x vocab under 2^32, which finding 1 already refuses (every call from
          2^31 to 2^32 elements is): no call near this boundary passes.
A control below each boundary of cases 1 and 2 passes.

Pinned: MLX 846d176 (version.h 0.32.2); run with the PyPI wheels mlx==0.32.2 and mlx-cuda-13==0.32.2
(their JIT sources of device/qmm_*.cuh are 846d176's; 0.32.4 has finding 6's fix), an sm_80+ GPU
with about 20 GB free (case 3: 10 GB).
Run: python mlx_finding1to3_lm_head_int_mn.py CASE   (CASE 1, 2 or 3; one per process)
Prints when the bug is there: case 1 "tokens 16743: ok" then "tokens 16744: RuntimeError ...
invalid argument"; case 2 nothing after "tokens 16384": the process ends by signal 8 (SIGFPE,
exit status 136 in a shell); case 3 "tokens 134217: RuntimeError ... invalid argument" (finding 1),
then for 134227 an illegal memory access, or (as seen on an H100) no result for minutes, or, where
the wrong offsets land in mapped memory, "ok" with wrong values. When fixed: every line "ok".
"""
import sys

import mlx.core as mx

CASES = {"1": (128256, 4096, [16743, 16744]), "2": (262144, 1024, [16384]), "3": (32000, 128, [134217, 134227])}
vocab, K, token_counts = CASES[sys.argv[1] if len(sys.argv) > 1 else "1"]
w = (mx.random.normal((vocab, K)) * 0.02).astype(mx.bfloat16)
wq, scales, biases = mx.quantize(w, group_size=64, bits=4)
del w
print(f"mlx {mx.__version__}, case {sys.argv[1] if len(sys.argv) > 1 else '1'}: vocab {vocab}, K {K}", flush=True)
for tokens in token_counts:
    print(f"tokens {tokens}", flush=True)
    x = (mx.random.normal((tokens, K)) * 0.1).astype(mx.bfloat16)
    try:
        y = mx.quantized_matmul(x, wq, scales, biases, transpose=True, group_size=64, bits=4)
        mx.eval(y)
        print(f"tokens {tokens}: ok, max |y| = {mx.max(mx.abs(y)).item():.4g}", flush=True)
    except RuntimeError as e:
        print(f"tokens {tokens}: RuntimeError: {e}", flush=True)
