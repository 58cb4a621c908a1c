"""MLX CUDA, finding 4: GatherQMM::eval_gpu (quantized.cpp:171-174) passes B = tokens * top_k to
qmm_sm80, which puts it on grid.z (qmm_sm80.cu:77-80). Past 65535 (token, expert) pairs the
graph-node add is refused and MLX's check raises (device.cpp:348/356). mlx-lm's sorted MoE path
at Qwen3-30B-A3B's shape (128 experts, top_k 8, expert rows 768, hidden 2048) reaches it at 8192
prompt tokens.

Pinned: MLX 846d176 (version.h 0.32.2); run with the PyPI wheels mlx==0.32.2 and mlx-cuda-13==0.32.2; an sm_80+ GPU.
Run: python mlx_finding4_gather_grid_z.py
Prints when the bug is there: "tokens 8191: ok" then "tokens 8192: RuntimeError ... invalid argument".
When fixed: both "ok".
"""
import mlx.core as mx

E, N, K, TOP_K = 128, 768, 2048, 8
w = (mx.random.normal((E, N, K)) * 0.02).astype(mx.bfloat16)
wq, scales, biases = mx.quantize(w, group_size=64, bits=4)
for tokens in (8191, 8192):
    pairs = tokens * TOP_K
    rhs = mx.sort(mx.random.randint(0, E, (pairs,)).astype(mx.uint32))  # sorted, as mlx-lm does
    x = (mx.random.normal((pairs, 1, K)) * 0.1).astype(mx.bfloat16)
    try:
        y = mx.gather_qmm(x, wq, scales, biases, rhs_indices=rhs, transpose=True,
                          group_size=64, bits=4, sorted_indices=True)
        mx.eval(y)
        print(f"tokens {tokens}: ok, out shape {y.shape}")
    except RuntimeError as e:
        print(f"tokens {tokens}: RuntimeError: {e}")
