"""vLLM GGUF plugin, finding 6: the MoE MMQ launch puts sorted_token_ids.size / MOE_X blocks on grid.y
(ggml_moe_<type>_q8_1_cuda, csrc/gguf/moe.cuh:175-176), unchecked. vLLM's moe_align_block_size
allocates topk_ids.numel() + num_experts * (block_size - 1) sorted ids, so with q4_0 (MOE_X 4 on
CUDA), top_k 8 and 128 experts grid.y = (8 * tokens + 384) / 4 passes 65535 at 32720 tokens: the
launch is refused, the op returns the zeros new_zeros made (gguf_kernel.cu:301-302) and the error
stays pending until the next checked CUDA call raises it, as in finding 1. vLLM takes this path
for more than 64 tokens with standard or K-quant experts (quantization/fused_moe.py:56-59).

Pinned: vllm-gguf-plugin 0.0.5, torch with CUDA (see _vllm_gguf.py), one GPU.
Run: python vllm_finding6_moe_mmq_grid_y.py
Prints when the bug is there:
  tokens 32719: grid.y 65534, nonzero outputs (nearly all) of 16752128, pending error: None
  tokens 32720: grid.y 65536, nonzero outputs 0 of 16752640, pending error: CUDA error: invalid argument
when fixed, both lines like the first (nearly all outputs nonzero, no pending error).
"""
import torch
from _vllm_gguf import GGML_TYPE_Q4_0, align, load_ops, next_launch_error, q4_0_weights

ops = load_ops()
E, ROWS, COLS, TOP_K = 128, 64, 256, 8
W = q4_0_weights(E, ROWS, COLS)
bs = ops.ggml_moe_get_block_size(GGML_TYPE_Q4_0)
g = torch.Generator(device="cuda").manual_seed(0)
for tokens in (32719, 32720):
    x = torch.rand(tokens, COLS, device="cuda", dtype=torch.float16, generator=g) * 2 - 1
    ids = torch.rand(tokens, E, device="cuda", generator=g).argsort(dim=1)[:, :TOP_K].int()  # distinct per token
    sorted_ids, expert_ids, npad = align(ids, bs, E, vllm_sizes=True)
    y = ops.ggml_moe_a8(x, W, sorted_ids, expert_ids, npad, GGML_TYPE_Q4_0, ROWS, TOP_K, tokens)
    err = next_launch_error()
    print(f"tokens {tokens}: grid.y {sorted_ids.numel() // bs}, nonzero outputs {int(torch.count_nonzero(y))} "
          f"of {y.numel()}, pending error: {err}")
