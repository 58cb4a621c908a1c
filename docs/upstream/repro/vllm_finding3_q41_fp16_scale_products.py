"""vLLM GGUF plugin, finding 3: q4_1 (and q5_1) dot products multiply the block scales in fp16.
vec_dot_q4_1_q8_1_impl (csrc/gguf/vecdotq.cuh:86) computes __half22float2(__hmul2(dm4, ds8)): the
products d*d8 and m*s8 are rounded to fp16 before the float accumulation, so m*s8 past 65504 is
inf. ggml-cuda does the same on sm_90 (ggml/src/ggml-cuda/vecdotq.cuh, under FAST_FP16_AVAILABLE):
a precision note to both projects rather than a vLLM divergence.

Here every weight is its block minimum m (d = 0) and every activation is 30.0, so a 32-value
block's q8_1 sum s8 is 960 and the exact output is m * 30 * COLS. With m = 60, m*s8 = 57600 fits
fp16; with m = 100 it is 96000, which fp16 cannot hold.

Pinned: vllm-gguf-plugin 0.0.5, torch with CUDA (see _vllm_gguf.py), a GPU of sm_61 or newer.
Run: python vllm_finding3_q41_fp16_scale_products.py
Prints when the rounding is there:
  m 60: output 460800 (exact 460800)
  m 100: output inf (exact 768000)
when the products are taken in float: both outputs equal the exact values.
"""
import torch
from _vllm_gguf import GGML_TYPE_Q4_1, load_ops

ops = load_ops()
ROWS, COLS = 8, 256
for m in (60.0, 100.0):
    dm = torch.tensor([0.0, m], dtype=torch.float16).view(torch.uint8)     # half2 dm: d = 0, m
    block = torch.cat([dm, torch.zeros(16, dtype=torch.uint8)])           # block_q4_1: dm, 16 bytes of quants
    W = block.repeat(ROWS, COLS // 32).cuda()                            # [ROWS, COLS/32*20] uint8
    x = torch.full((1, COLS), 30.0, dtype=torch.float32, device="cuda")
    y = ops.ggml_mul_mat_vec_a8(W, x, GGML_TYPE_Q4_1, ROWS)
    print(f"m {m:g}: output {y[0, 0].item():g} (exact {m * 30 * COLS:g})")
