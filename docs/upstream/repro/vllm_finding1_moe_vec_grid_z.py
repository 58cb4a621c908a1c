"""vLLM GGUF plugin, finding 1: ggml_moe_a8_vec launches moe_vec_q with grid.z = tokens * top_k
(moe_vec.cuh:63) and does not check the launch. From tokens * top_k > 65535 CUDA refuses it:
the op returns the zeros new_zeros made, and the error stays pending until the next checked
CUDA call (here: a torch kernel) raises it.

Pinned: vllm-gguf-plugin 0.0.5 (torch >= 2.9, one CUDA GPU). Run: python vllm_finding1_moe_vec_grid_z.py
Expected when the bug is there:
  tokens 8191: nonzero outputs ..., pending error: None
  tokens 8192: nonzero outputs 0 of ..., pending error: CUDA error: invalid argument (or similar)
When fixed: tokens 8192 like 8191 (nearly all outputs nonzero, pending error: None).
(_vllm_gguf.py loads the wheel's .so, or builds the wheel's csrc against the installed torch
where that .so does not load, as with the H200 image's torch 2.11.0; it prints which.)
"""
import torch
from _vllm_gguf import GGML_TYPE_Q4_0, load_ops, next_launch_error, q4_0_weights

ops = load_ops()
E, ROWS, COLS, TOP_K = 128, 1408, 2816, 8  # gemma-4-sized gate/up bank, as in vllm-gguf.md
W = q4_0_weights(E, ROWS, COLS)
for tokens in (8191, 8192):
    x = torch.rand(tokens, COLS, device="cuda", dtype=torch.float16) * 2 - 1
    ids = torch.rand(tokens, E, device="cuda").argsort(dim=1)[:, :TOP_K].int()  # distinct per token
    y = ops.ggml_moe_a8_vec(x, W, ids, TOP_K, GGML_TYPE_Q4_0, ROWS, tokens)
    err = next_launch_error()  # first torch kernel after the op: raises what the op left pending
    nz = int(torch.count_nonzero(y).item())
    print(f"tokens {tokens}: nonzero outputs {nz} of {y.numel()}, pending error: {err}")
