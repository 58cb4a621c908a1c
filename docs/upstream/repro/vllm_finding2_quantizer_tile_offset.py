"""vLLM GGUF plugin, finding 2 (third bullet): quantize_row_q8_1_cuda computes the activation
offset of each 65535-row tile as &x[off * kx] with int off, kx (gguf_kernel.cu:83). At hidden 7168
the 6th tile (off = 327675) wraps past 2^31 elements and the quantizer reads before x: an illegal
address, a sticky error that ends the process's CUDA context. Every op of the plugin quantizes its
activations first; ggml_mul_mat_vec_a8 is the simplest caller (vLLM itself calls it for at most
16 vectors, quantization/linear.py:38-46, so in vLLM the path is the MoE ops' quantizer at 327676
tokens or more in one forward pass).

Pinned: vllm-gguf-plugin 0.0.5 (torch >= 2.9, one CUDA GPU with about 6 GB free).
Run: python vllm_finding2_quantizer_tile_offset.py
Prints when the bug is there: "tokens 327676: CUDA error: an illegal memory access was encountered".
When fixed: "tokens 327676: no fault in the quantizer; pending launch error afterwards: CUDA error:
invalid argument": the mul_mat_vec launch after it is refused at this many vectors (grid.y >
65535, mmvq.cuh:44-50), a limit of the op that vLLM does not reach (at most 16 vectors). (_vllm_gguf.py loads the wheel's .so, or builds the wheel's csrc against the installed torch
where that .so does not load, as with the H200 image's torch 2.11.0; it prints which.)
"""
import torch
from _vllm_gguf import GGML_TYPE_Q4_0, load_ops, next_launch_error, q4_0_weights

ops = load_ops()
TOKENS, COLS, ROWS = 327676, 7168, 32  # DeepSeek-V3's hidden size
W = q4_0_weights(1, ROWS, COLS)[0]
x = torch.rand(TOKENS, COLS, device="cuda", dtype=torch.float16)
try:
    ops.ggml_mul_mat_vec_a8(W, x, GGML_TYPE_Q4_0, ROWS)
    torch.cuda.synchronize()  # raises the quantizer's illegal access (sticky), not a refused launch
    print(f"tokens {TOKENS}: no fault in the quantizer; pending launch error afterwards: {next_launch_error()}")
except RuntimeError as e:
    print(f"tokens {TOKENS}: {str(e).splitlines()[0]}")
