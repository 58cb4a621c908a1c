#include "gridfuzz/device/cupti_launch_callbacks.hpp"

#include <cupti_driver_cbid.h>
#include <cupti_result.h>
#include <cupti_runtime_cbid.h>
#include <cuda_runtime_api.h>
#include <generated_cuda_runtime_api_meta.h>

#include <map>
#include <mutex>
#include <span>
#include <string>
#include <utility>

#include "cupti_driver_params.hpp"
#include "cupti_library.hpp"

namespace gridfuzz::device {
namespace {

Dim3 dim3_of(const dim3& d) { return {d.x, d.y, d.z}; }

// A function's attributes are its compiled code's: read once and kept, because after a sticky fault
// the driver answers no query, and a launch recorded then would lose its registers (the same case
// showed `regs` 32 in one run and empty in another, evidence/2026-12-03-h200-shared-reference run1).
// Only a complete answer is kept, so a function first seen after a fault is asked again next time;
// the key has the symbol's name too, as an unloaded module's handle may be reused by another.
// The handle a launch passed, as cuFuncGetAttribute takes it: a runtime launch passes a CUkernel
// (CUDA 12+), which it refuses; the function that kernel stands for in this context it answers.
CUfunction attribute_handle(const LaunchCallbackCalls& calls, CUfunction f) {
  int v = 0;
  if (!calls.kernel_get_function || calls.func_get_attribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_SUCCESS) return f;
  CUfunction in_context = nullptr;
  if (calls.kernel_get_function(&in_context, reinterpret_cast<CUkernel>(f)) == CUDA_SUCCESS && in_context) return in_context;
  return f;
}

FuncAttributes attributes_of(const LaunchCallbackCalls& calls, CUfunction handle, const std::string& symbol) {
  FuncAttributes a;
  if (!handle || !calls.func_get_attribute) return a;
  static std::mutex cache_mutex;
  static std::map<std::pair<CUfunction, std::string>, FuncAttributes> cache;  // by the launch's handle
  {
    const std::lock_guard lock(cache_mutex);
    if (const auto it = cache.find({handle, symbol}); it != cache.end()) return it->second;
  }
  const CUfunction f = attribute_handle(calls, handle);
  int v = 0;
  bool complete = true;
  if (calls.func_get_attribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_SUCCESS) a.num_regs = v; else complete = false;
  if (calls.func_get_attribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f) == CUDA_SUCCESS)
    a.static_smem_bytes = static_cast<std::uint64_t>(v);
  else
    complete = false;
  if (calls.func_get_attribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) == CUDA_SUCCESS)
    a.max_threads_per_block = v;
  else
    complete = false;
  if (complete) {
    const std::lock_guard lock(cache_mutex);
    cache.emplace(std::pair{handle, symbol}, a);
  }
  return a;
}

// cudaLaunchKernel's and cudaLaunchCooperativeKernel's parameters (the same fields).
template <class Params>
void fill_from_kernel_params(LaunchEvent& e, const void* params) {
  const auto* p = static_cast<const Params*>(params);
  e.grid = dim3_of(p->gridDim);
  e.block = dim3_of(p->blockDim);
  e.dynamic_smem_bytes = p->sharedMem;
}

void fill_from_launch_config(LaunchEvent& e, const cudaLaunchConfig_t* c) {
  if (!c) return;
  e.grid = dim3_of(c->gridDim);
  e.block = dim3_of(c->blockDim);
  e.dynamic_smem_bytes = c->dynamicSmemBytes;
}

std::optional<LaunchCallback> read_driver(CUpti_CallbackId cbid, const CUpti_CallbackData& info,
                                          const LaunchCallbackCalls& calls) {
  const DriverLaunchParams p = driver_launch_params(cbid, info.functionParams);
  if (!p.known) return std::nullopt;
  LaunchCallback out;
  LaunchEvent& e = out.event;
  e.api = LaunchEvent::Api::driver;
  e.enter = info.callbackSite == CUPTI_API_ENTER;
  if (info.symbolName) e.symbol = info.symbolName;
  e.grid = p.grid;
  e.block = p.block;
  e.dynamic_smem_bytes = p.dynamic_smem_bytes;
  out.function = p.function;
  if (e.symbol.empty() && p.function && calls.func_get_name) {
    const char* name = nullptr;
    if (calls.func_get_name(&name, p.function) == CUDA_SUCCESS && name) e.symbol = name;
  }
  if (!e.enter) {
    e.func = attributes_of(calls, p.function, e.symbol);
    e.result = static_cast<int>(*static_cast<const CUresult*>(info.functionReturnValue));
    if (e.result != CUDA_SUCCESS && calls.get_error_name) {
      const char* name = nullptr;
      if (calls.get_error_name(static_cast<CUresult>(e.result), &name) == CUDA_SUCCESS && name) e.result_name = name;
    }
  }
  return out;
}

std::optional<LaunchCallback> read_runtime(CUpti_CallbackId cbid, const CUpti_CallbackData& info,
                                           const LaunchCallbackCalls& calls) {
  LaunchCallback out;
  LaunchEvent& e = out.event;
  e.api = LaunchEvent::Api::runtime;
  e.enter = info.callbackSite == CUPTI_API_ENTER;
  if (info.symbolName) e.symbol = info.symbolName;
  switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
      fill_from_kernel_params<cudaLaunchKernel_v7000_params>(e, info.functionParams);
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
      fill_from_kernel_params<cudaLaunchCooperativeKernel_v9000_params>(e, info.functionParams);
      break;
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
      const auto* p = static_cast<const cudaLaunchKernelExC_v11060_params*>(info.functionParams);
      fill_from_launch_config(e, p->config);
      break;
    }
#if defined(CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000)
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
    case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
      e.geometry_known = false;  // no parameter struct in the CUPTI headers
      break;
#endif
    default: return std::nullopt;
  }
  if (!e.enter) {
    e.result = static_cast<int>(*static_cast<const cudaError_t*>(info.functionReturnValue));
    if (e.result != 0 && calls.runtime_error_name)
      if (const char* name = calls.runtime_error_name(e.result)) e.result_name = name;
  }
  return out;
}

const CUpti_CallbackId kDriverIds[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,           CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,          CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
};
const CUpti_CallbackId kRuntimeIds[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,           CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
    CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,       CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
#if defined(CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000)
    CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,        CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
#endif
};

}  // namespace

std::optional<LaunchCallback> read_launch_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                                   const CUpti_CallbackData& data, const LaunchCallbackCalls& calls) {
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) return read_driver(cbid, data, calls);
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) return read_runtime(cbid, data, calls);
  return std::nullopt;
}

int function_attribute(const LaunchCallbackCalls& calls, CUfunction f, CUfunction_attribute a) {
  int v = 0;
  if (!f || !calls.func_get_attribute || calls.func_get_attribute(&v, a, attribute_handle(calls, f)) != CUDA_SUCCESS)
    return 0;
  return v;
}

std::string subscribe_to_launches(CUpti_CallbackFunc callback, void* user_data) {
  const CuptiLibrary& lib = CuptiLibrary::get();
  if (!lib.loaded()) return lib.failure();
  const auto subscribe = lib.symbol<decltype(&cuptiSubscribe)>("cuptiSubscribe");
  const auto enable_callback = lib.symbol<decltype(&cuptiEnableCallback)>("cuptiEnableCallback");
  if (!subscribe || !enable_callback) return "libcupti lacks cuptiSubscribe/cuptiEnableCallback";
  CUpti_SubscriberHandle subscriber = nullptr;
  if (const CUptiResult r = subscribe(&subscriber, callback, user_data); r != CUPTI_SUCCESS)
    return "cuptiSubscribe failed: " + lib.error_string(r) + " (another CUPTI client in this process?)";
  const auto enable = [&](CUpti_CallbackDomain domain, const char* what,
                          std::span<const CUpti_CallbackId> ids) -> std::string {
    for (CUpti_CallbackId id : ids)
      if (const CUptiResult r = enable_callback(1, subscriber, domain, id); r != CUPTI_SUCCESS)
        return "cuptiEnableCallback(" + std::string(what) + " " + std::to_string(id) + "): " + lib.error_string(r);
    return "";
  };
  if (std::string why = enable(CUPTI_CB_DOMAIN_DRIVER_API, "driver", kDriverIds); !why.empty()) return why;
  return enable(CUPTI_CB_DOMAIN_RUNTIME_API, "runtime", kRuntimeIds);
}

}  // namespace gridfuzz::device
