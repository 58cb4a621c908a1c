"""Shared by the vllm_*.py reproductions: loads the CUDA ops of vllm-gguf-plugin 0.0.5 into torch
without vLLM, and makes q4_0 weights and vLLM's MoE routing arrays. Not a reproduction itself.

The plugin's package __init__ imports vLLM; to need only torch, the extension library
(_C_gguf.abi3.so, torch stable ABI) is loaded directly, which registers torch.ops._C_gguf.*.
Install: pip install --no-deps vllm-gguf-plugin==0.0.5

The wheel's .so was built against a torch that has torch_exception_get_what_without_backtrace
(the stable ABI of torch 2.13); torch 2.11 lacks it and the load fails ("undefined symbol", seen
on the H200 image's torch 2.11.0+cu130). Then load_ops() compiles the wheel's own csrc/ (shipped
in the same wheel, unmodified: csrc/gguf/gguf_kernel.cu and csrc/torch_bindings.cpp) against the
installed torch with nvcc, for this GPU's architecture only, into VLLM_GGUF_REPRO_CACHE (default
~/.cache/vllm-gguf-repro), and loads that. Each script prints which of the two it runs. The
wheel does not carry its build flags; the rebuild uses -O3 --expt-relaxed-constexpr -DUSE_CUDA
(no fast math), so its machine code may differ from the shipped .so's; the launch geometry, the
int arithmetic and the tables are the sources'.
(vLLM itself, when the .so does not load, silently takes the plugin's Triton kernels instead:
vllm_gguf_plugin/ops.py:38-52; these reproductions are about the CUDA kernels.)
"""
import importlib.util
import os
import subprocess
import sys
import sysconfig

import torch

GGML_TYPE_Q4_0 = 2
GGML_TYPE_Q4_1 = 3
GGML_TYPE_IQ3_S = 21


def _package_dir():
    spec = importlib.util.find_spec("vllm_gguf_plugin")  # does not run the package's __init__
    if spec is None:
        raise SystemExit("vllm-gguf-plugin is not installed (pip install --no-deps vllm-gguf-plugin==0.0.5)")
    return spec.submodule_search_locations[0]


def _build_from_wheel_sources(pkg):
    """nvcc/c++ over the wheel's csrc against this torch: returns the path of the shared library."""
    from torch.utils import cpp_extension

    major, minor = torch.cuda.get_device_capability()
    arch = f"{major}{minor}"
    cache = os.path.join(os.environ.get("VLLM_GGUF_REPRO_CACHE", os.path.expanduser("~/.cache/vllm-gguf-repro")),
                         f"torch-{torch.__version__}-sm{arch}")
    so = os.path.join(cache, "_C_gguf_local.so")
    if os.path.exists(so):
        return so
    os.makedirs(cache, exist_ok=True)
    csrc = os.path.join(pkg, "csrc")
    includes = [f"-I{p}" for p in cpp_extension.include_paths(device_type="cuda")]
    py_include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(py_include, "Python.h")):
        # torch_bindings.cpp includes Python.h only for its PyInit__C_gguf, which
        # torch.ops.load_library never calls: a stand-in header is enough when the headers are absent.
        py_include = os.path.join(cache, "pystub")
        os.makedirs(py_include, exist_ok=True)
        with open(os.path.join(py_include, "Python.h"), "w") as f:
            f.write("#pragma once\ntypedef struct _object PyObject;\n"
                    "typedef struct PyModuleDef { int base; const char* name; const char* doc; long size; void* m; } PyModuleDef;\n"
                    "#define PyModuleDef_HEAD_INIT 0\n#define PyModule_Create(d) ((PyObject*)0)\n")
    abi = f"-D_GLIBCXX_USE_CXX11_ABI={int(torch._C._GLIBCXX_USE_CXX11_ABI)}"
    cuda_home = cpp_extension.CUDA_HOME or "/usr/local/cuda"
    nvcc = os.path.join(cuda_home, "bin", "nvcc")
    kernel_o, bind_o = os.path.join(cache, "gguf_kernel.o"), os.path.join(cache, "torch_bindings.o")
    jobs = [
        [nvcc, "-c", os.path.join(csrc, "gguf", "gguf_kernel.cu"), "-o", kernel_o, "-std=c++17", "-O3",
         "--expt-relaxed-constexpr", "-DUSE_CUDA", "-Xcompiler", "-fPIC", abi, f"-gencode=arch=compute_{arch},code=sm_{arch}",
         *includes],
        ["c++", "-c", os.path.join(csrc, "torch_bindings.cpp"), "-o", bind_o, "-std=c++17", "-O2", "-fPIC", "-DUSE_CUDA", abi,
         f"-I{cuda_home}/include", f"-I{py_include}", *includes],
    ]
    print(f"[building the wheel's csrc against torch {torch.__version__} for sm_{arch} in {cache}]", flush=True)
    procs = [subprocess.Popen(j) for j in jobs]
    if any(p.wait() != 0 for p in procs):
        raise SystemExit("building the plugin's csrc failed (see above)")
    libs = [f"-L{p}" for p in cpp_extension.library_paths(device_type="cuda")]
    subprocess.run(["c++", "-shared", kernel_o, bind_o, "-o", so, *libs, f"-L{cuda_home}/lib64",
                    "-lc10", "-lc10_cuda", "-ltorch", "-ltorch_cpu", "-ltorch_cuda", "-lcudart"], check=True)
    return so


def load_ops():
    pkg = _package_dir()
    so = os.path.join(pkg, "_C_gguf.abi3.so")
    try:
        torch.ops.load_library(so)
        origin = "the wheel's _C_gguf.abi3.so"
    except OSError as e:
        cause = str(e.__cause__ or e).splitlines()[0]
        print(f"[the wheel's _C_gguf.abi3.so does not load into torch {torch.__version__}: {cause}]", flush=True)
        so = _build_from_wheel_sources(pkg)
        torch.ops.load_library(so)
        origin = f"the wheel's csrc built here against torch {torch.__version__}"
    print(f"[vllm-gguf-plugin 0.0.5 CUDA ops: {origin}; GPU {torch.cuda.get_device_name(0)}]", flush=True)
    return torch.ops._C_gguf


def q4_0_weights(experts, rows, cols, scale=0.01, seed=0):
    """uint8 [experts, rows, cols/32*18]: q4_0 blocks (fp16 d, 16 bytes of nibbles), random quants."""
    assert cols % 32 == 0
    g = torch.Generator(device="cuda").manual_seed(seed)
    nb = cols // 32
    qs = torch.randint(0, 256, (experts, rows, nb, 16), dtype=torch.uint8, device="cuda", generator=g)
    d = torch.full((experts, rows, nb, 1), scale, dtype=torch.float16, device="cuda").view(torch.uint8)
    return torch.cat([d, qs], dim=-1).reshape(experts, rows, nb * 18)


def align(topk_ids, block_size, num_experts, vllm_sizes=False):
    """What vLLM's moe_align_block_size makes: pair indices token*top_k+slot sorted by expert, each
    expert's run padded to block_size with topk_ids.numel(); one expert id per block of the padded
    list; the padded count. With vllm_sizes the arrays have the lengths vLLM allocates
    (numel + num_experts * (block_size - 1) ids, the rest sentinel; unused blocks' expert -1), which is
    what ggml_moe_a8 puts on grid.y (sorted_token_ids.sizes()[0] / MOE_X, gguf_kernel.cu:316 for q4_0)."""
    dev = topk_ids.device
    flat = topk_ids.flatten().to(torch.int64)
    numel = flat.numel()
    counts = torch.bincount(flat, minlength=num_experts)
    padded = (counts + block_size - 1) // block_size * block_size
    total = int(padded.sum())
    length = numel + num_experts * (block_size - 1) if vllm_sizes else total
    order = torch.argsort(flat, stable=True)
    experts_sorted = flat[order]
    rank = torch.arange(numel, device=dev) - (torch.cumsum(counts, 0) - counts)[experts_sorted]
    sorted_ids = torch.full((length,), numel, dtype=torch.int32, device=dev)
    sorted_ids[(torch.cumsum(padded, 0) - padded)[experts_sorted] + rank] = order.to(torch.int32)
    nblocks = (length + block_size - 1) // block_size
    expert_ids = torch.full((nblocks,), -1, dtype=torch.int32, device=dev)
    block_expert = torch.repeat_interleave(torch.arange(num_experts, device=dev), padded // block_size)
    expert_ids[: block_expert.numel()] = block_expert.to(torch.int32)
    return sorted_ids, expert_ids, torch.tensor([total], dtype=torch.int32, device=dev)


def next_launch_error():
    """Runs one ordinary torch kernel; torch checks cudaGetLastError after it, so a launch error
    the plugin left pending is raised here."""
    try:
        (torch.ones(1, device="cuda") + 1).item()
        return None
    except RuntimeError as e:
        return str(e).splitlines()[0]


if __name__ == "__main__":  # `python _vllm_gguf.py`: load (or build) the ops once, before the scripts run
    load_ops()
    sys.exit(0)
