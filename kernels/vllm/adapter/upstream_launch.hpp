#pragma once
// What the vLLM adapters share when they issue upstream's kernels: pointer arithmetic as
// upstream's host code does it, the one launch call (unchecked as upstream, or checked for the
// fix), the q8_1 quantize step every call starts with, and the shape check of the GEMV calls.
#include <cuda.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../plan/quantize_plan.hpp"
#include "call_shape.hpp"
#include "gridfuzz/device/function.hpp"
#include "gridfuzz/device/launcher.hpp"

namespace gridfuzz::vllm {

// base + elements, also where upstream's int offset wrapped negative (then the kernel reads
// outside the buffer, as it does in production).
template <class T>
T* advance(T* base, std::int64_t elements) {
  return reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(base) + static_cast<std::uintptr_t>(elements) * sizeof(T));
}

// One launch through gridfuzz's launch path: `checked` throws device::LaunchError on a refusal
// (the fix); unchecked goes on as upstream does (the record still has the driver's answer).
void launch_upstream(device::Launcher& launcher, const device::Function& fn, const LaunchSpec& spec, void** args,
                     CUstream stream, bool checked);

// Upstream's quantize_q8_1<scalar_t> over `launches` (quantize_plan.hpp), from x (values of type k)
// and into q8; each x_offset is in elements of k, as upstream's &x[off * kx] (gguf_kernel.cu:82).
void issue_quantize(const std::vector<QuantizeLaunch>& launches, ScalarKind k, void* x, int* q8,
                    device::Launcher& launcher, CUstream stream, bool checked);

// The start of element `elements` of a buffer of k values (may wrap as `advance` does).
void* advance_scalar(void* base, ScalarKind k, std::int64_t elements);

// Kernel::check of the vLLM GEMV calls: the GGUF call shape's problem, or a parse error.
template <class ShapeOf>
std::optional<std::string> gemv_shape_check(ShapeOf shape_of) {
  try {
    const std::string problem = gguf::moe_shape_problem(shape_of());
    if (!problem.empty()) return problem;
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

}  // namespace gridfuzz::vllm
