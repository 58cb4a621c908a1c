"""MLX CUDA, finding 5 (the silent part): qmm_sm80_kernel moves to an expert's weights by
b_batch * (n*k) with uint32_t b_batch (mlx/backend/cuda/device/qmm_sm80.cuh:323-324), which wraps
once an expert starts at or past 2^32 quantized values. At 128 experts x 8320 rows x 4096 columns
only expert 127 wraps (127 * 8320 * 4096 >= 2^32): its tokens are computed with other weights of
the same buffer. No error is raised.

Pinned: MLX 846d176 (version.h 0.32.2); run with the PyPI wheels mlx==0.32.2 and mlx-cuda-13==0.32.2; an sm_80+ GPU with about 12 GB free.
Run: python mlx_finding5_gather_weight_offset.py
Prints when the bug is there: expert 126 an error of about 1e-2 or less (bf16 rounding), expert
127 an error of order 1 (it read other weights). When fixed: both about 1e-2 or less.
"""
import mlx.core as mx

E, N, K, PAIRS = 128, 8320, 4096, 16 * 8
# The bank expert by expert: one mx.random.normal or mx.quantize over all 4.36e9 values is itself
# refused by a launch limit (H100, 2026-12-06: cudaGraphAddKernelNode ... invalid argument before
# any gather ran), which is not this finding.
parts = []
for e in range(E):
    w = (mx.random.normal((N, K)) * 0.02).astype(mx.bfloat16)
    parts.append(mx.quantize(w, group_size=64, bits=4))
    mx.eval(parts[-1])
wq, scales, biases = (mx.stack([p[i] for p in parts]) for i in range(3))
del parts, w
mx.eval(wq, scales, biases)
x = (mx.random.normal((PAIRS, 1, K)) * 0.1).astype(mx.bfloat16)
for expert in (126, 127):
    rhs = mx.full((PAIRS,), expert, dtype=mx.uint32)
    y = mx.gather_qmm(x, wq, scales, biases, rhs_indices=rhs, transpose=True,
                      group_size=64, bits=4, sorted_indices=True)
    wd = mx.dequantize(wq[expert], scales[expert], biases[expert], group_size=64, bits=4)
    ref = x.astype(mx.float32) @ wd.astype(mx.float32).T
    err = mx.max(mx.abs(y.astype(mx.float32) - ref)) / mx.max(mx.abs(ref))
    print(f"expert {expert}: max abs error / max |ref| = {err.item():.3g}")
