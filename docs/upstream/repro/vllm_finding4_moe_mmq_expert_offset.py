"""vLLM GGUF plugin, finding 4: the MoE MMQ kernel (ggml_moe_a8, vLLM's path above 64 tokens for
standard and K-quant experts) computes an expert's weights as (char*)vx + exp_idx * exp_stride with
int exp_idx, exp_stride (moe.cuh:36). With DeepSeek-V3's gate/up bank at tensor parallel 1
(4096 x 7168 q4_0: 16515072 bytes an expert) the product passes 2^31 from expert 131.

Pinned: vllm-gguf-plugin 0.0.5 (torch >= 2.9, one CUDA GPU with about 5 GB free).
Run: python vllm_finding4_moe_mmq_expert_offset.py
Expected when the bug is there:
  expert 130: ok (finite outputs)
  expert 131: CUDA error: an illegal memory access was encountered
(or, where the wrapped address is mapped, "expert 131: ok" with wrong values: reads 2 GiB before
the bank). When fixed: both "ok (finite outputs: True)".
The second case ends the CUDA context, so it runs last.
(_vllm_gguf.py loads the wheel's .so, or builds the wheel's csrc against the installed torch
where that .so does not load, as with the H200 image's torch 2.11.0; it prints which.)
"""
import torch
from _vllm_gguf import GGML_TYPE_Q4_0, align, load_ops, q4_0_weights

ops = load_ops()
E, ROWS, COLS, TOKENS, TOP_K = 256, 4096, 7168, 256, 1
W = q4_0_weights(E, ROWS, COLS)
print("exp_stride (W.stride(0)) =", W.stride(0))
x = torch.rand(TOKENS, COLS, device="cuda", dtype=torch.float16) * 2 - 1
bs = ops.ggml_moe_get_block_size(GGML_TYPE_Q4_0)
for expert in (130, 131):
    ids = torch.full((TOKENS, TOP_K), expert, dtype=torch.int32, device="cuda")
    sorted_ids, expert_ids, npad = align(ids, bs, E)
    try:
        y = ops.ggml_moe_a8(x, W, sorted_ids, expert_ids, npad, GGML_TYPE_Q4_0, ROWS, TOP_K, TOKENS)
        torch.cuda.synchronize()
        print(f"expert {expert}: ok (finite outputs: {bool(torch.isfinite(y).all())})")
    except RuntimeError as e:
        print(f"expert {expert}: {str(e).splitlines()[0]}")
