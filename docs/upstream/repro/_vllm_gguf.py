"""Shared by the vllm_*.py reproductions: loads the CUDA ops of vllm-gguf-plugin 0.0.5 and makes
q4_0 weights. Not a reproduction itself.

The plugin's package __init__ imports vLLM; to need only torch, the extension library
(_C_gguf.abi3.so, torch stable ABI, torch>=2.9 per the wheel's metadata) is loaded directly,
which registers torch.ops._C_gguf.*. Install: pip install --no-deps vllm-gguf-plugin==0.0.5
"""
import importlib.util
import os

import torch

GGML_TYPE_Q4_0 = 2
GGML_TYPE_IQ3_S = 21


def load_ops():
    spec = importlib.util.find_spec("vllm_gguf_plugin")  # does not run the package's __init__
    if spec is None:
        raise SystemExit("vllm-gguf-plugin is not installed (pip install --no-deps vllm-gguf-plugin==0.0.5)")
    so = os.path.join(spec.submodule_search_locations[0], "_C_gguf.abi3.so")
    torch.ops.load_library(so)
    return torch.ops._C_gguf


def q4_0_weights(experts, rows, cols, scale=0.01, seed=0):
    """uint8 [experts, rows, cols/32*18]: q4_0 blocks (fp16 d, 16 bytes of nibbles), random quants."""
    assert cols % 32 == 0
    g = torch.Generator(device="cuda").manual_seed(seed)
    nb = cols // 32
    qs = torch.randint(0, 256, (experts, rows, nb, 16), dtype=torch.uint8, device="cuda", generator=g)
    d = torch.full((experts, rows, nb, 1), scale, dtype=torch.float16, device="cuda").view(torch.uint8)
    return torch.cat([d, qs], dim=-1).reshape(experts, rows, nb * 18)


def align(topk_ids, block_size, num_experts):
    """What vLLM's moe_align_block_size makes (host version): pair indices token*top_k+slot sorted by
    expert, each expert's list padded to block_size with topk_ids.numel(); one expert id per block."""
    flat = topk_ids.flatten().cpu().tolist()
    pad = len(flat)
    sorted_ids, expert_ids = [], []
    for e in range(num_experts):
        pairs = [i for i, x in enumerate(flat) if x == e]
        if not pairs:
            continue
        pairs += [pad] * (-len(pairs) % block_size)
        sorted_ids += pairs
        expert_ids += [e] * (len(pairs) // block_size)
    dev = topk_ids.device
    return (torch.tensor(sorted_ids, dtype=torch.int32, device=dev),
            torch.tensor(expert_ids, dtype=torch.int32, device=dev),
            torch.tensor([len(sorted_ids)], dtype=torch.int32, device=dev))


def next_launch_error():
    """Runs one ordinary torch kernel; torch checks cudaGetLastError after it, so a launch error
    the plugin left pending is raised here."""
    try:
        (torch.ones(1, device="cuda") + 1).item()
        return None
    except RuntimeError as e:
        return str(e).splitlines()[0]
