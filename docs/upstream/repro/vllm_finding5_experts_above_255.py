"""vLLM GGUF plugin, finding 5: the MoE MMQ kernel returns early for any expert id above 255
(moe.cuh:33: if (exp_idx > 255 || exp_idx < 0) return;), so with more than 256 experts (Kimi-K2:
384) every token routed to expert 256 or higher gets the zeros new_zeros made. Silent.

Pinned: vllm-gguf-plugin 0.0.5 (torch >= 2.9, one CUDA GPU).
Run: python vllm_finding5_experts_above_255.py
Expected when the bug is there:
  expert 255: nonzero outputs 16384 of 16384   (or nearly all)
  expert 256: nonzero outputs 0 of 16384
When fixed: expert 256 like expert 255.
(_vllm_gguf.py loads the wheel's .so, or builds the wheel's csrc against the installed torch
where that .so does not load, as with the H200 image's torch 2.11.0; it prints which.)
"""
import torch
from _vllm_gguf import GGML_TYPE_Q4_0, align, load_ops, q4_0_weights

ops = load_ops()
E, ROWS, COLS, TOKENS, TOP_K = 384, 64, 256, 256, 1  # the GPU suite's shape in vllm-gguf.md
W = q4_0_weights(E, ROWS, COLS)
x = torch.rand(TOKENS, COLS, device="cuda", dtype=torch.float16) * 2 - 1
bs = ops.ggml_moe_get_block_size(GGML_TYPE_Q4_0)
for expert in (255, 256):
    ids = torch.full((TOKENS, TOP_K), expert, dtype=torch.int32, device="cuda")
    sorted_ids, expert_ids, npad = align(ids, bs, E)
    y = ops.ggml_moe_a8(x, W, sorted_ids, expert_ids, npad, GGML_TYPE_Q4_0, ROWS, TOP_K, TOKENS)
    print(f"expert {expert}: nonzero outputs {int(torch.count_nonzero(y))} of {y.numel()}")
