"""vLLM GGUF plugin, finding 7: the plugin's iq3xs_grid (csrc/gguf/ggml-common.h:685) holds 0x3e
(62) where ggml's iq3s_grid x 4 holds 0x3c (60), so IQ3_S weights whose grid value is the top one
dequantize 3.3% too large. Compares the plugin's ggml_dequantize against gguf-py's IQ3_S reference
(the same format as current ggml) on random blocks.

Pinned: vllm-gguf-plugin 0.0.5, gguf >= 0.17 (the plugin's own dependency), torch >= 2.9, a CUDA GPU.
Run: python vllm_finding7_iq3s_grid.py
Prints when the bug is there: some values differ, all with ratio plugin/gguf 62/60 = 1.0333.
When fixed (PR #136's table): "values differing: 0 of 16384; ratios plugin/gguf: []".
(_vllm_gguf.py loads the wheel's .so, or builds the wheel's csrc against the installed torch
where that .so does not load, as with the H200 image's torch 2.11.0; it prints which.)
"""
import numpy as np
import torch
from gguf import GGMLQuantizationType, dequantize

from _vllm_gguf import GGML_TYPE_IQ3_S, load_ops

ops = load_ops()
ROWS, COLS, BLOCK_BYTES = 64, 256, 110  # block_iq3_s: d(2) qs(64) qh(8) signs(32) scales(4)
rng = np.random.default_rng(0)
raw = rng.integers(0, 256, (ROWS, BLOCK_BYTES), dtype=np.uint8)
raw[:, 0:2] = np.frombuffer(np.float16(1.0).tobytes(), dtype=np.uint8)  # d = 1.0
ref = dequantize(raw, GGMLQuantizationType.IQ3_S).astype(np.float64).reshape(ROWS, COLS)
got = ops.ggml_dequantize(torch.from_numpy(raw).cuda(), GGML_TYPE_IQ3_S, ROWS, COLS, torch.float32)
got = got.cpu().double().numpy()
diff = ~np.isclose(got, ref, rtol=1e-6, atol=0)
ratio = np.unique(np.round(got[diff] / ref[diff], 4)) if diff.any() else []
print(f"values differing: {int(diff.sum())} of {diff.size}; ratios plugin/gguf: {list(ratio)}")
