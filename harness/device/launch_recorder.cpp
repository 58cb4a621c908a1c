#include "gridfuzz/device/launch_recorder.hpp"

#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_result.h>
#include <cupti_runtime_cbid.h>
#include <cuda_runtime_api.h>
#include <cxxabi.h>
#include <generated_cuda_runtime_api_meta.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <span>
#include <map>
#include <string>
#include <utility>

#include "cupti_driver_params.hpp"
#include "cupti_library.hpp"
#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/driver_api.hpp"

namespace gridfuzz::device {

// --- folding (pure) ---

void LaunchEventFolder::on_event(const LaunchEvent& e) {
  if (e.api == LaunchEvent::Api::runtime) {
    if (e.enter) {
      if (runtime_depth_++ == 0) {
        driver_seen_in_runtime_ = false;
        runtime_entry_ = e;
      }
      return;
    }
    if (runtime_depth_ == 0) return;  // an exit without its entry (recording started inside the call)
    if (--runtime_depth_ == 0) {
      if (!driver_seen_in_runtime_ && e.result != 0) {
        // Refused by the runtime before the driver saw it.
        LaunchRecord rec;
        const LaunchEvent& in = runtime_entry_ ? *runtime_entry_ : e;
        rec.spec.name = kernel_base_name(in.symbol.empty() ? e.symbol : in.symbol);
        if (in.geometry_known) {
          rec.spec.grid = in.grid;
          rec.spec.block = in.block;
          rec.spec.dynamic_smem_bytes = in.dynamic_smem_bytes;
        } else {
          rec.spec.grid = rec.spec.block = Dim3{0, 0, 0};
        }
        rec.code = CUDA_ERROR_UNKNOWN;  // no driver answer: the runtime's error is in `error`
        rec.error = e.result_name.empty() ? "runtime error " + std::to_string(e.result) : e.result_name;
        records_.push_back(rec);
      }
      runtime_entry_.reset();
    }
    return;
  }
  if (e.enter) return;  // a driver launch is recorded at its exit, with the answer
  if (runtime_depth_ > 0) driver_seen_in_runtime_ = true;
  LaunchRecord rec;
  rec.spec.name = kernel_base_name(e.symbol);
  rec.spec.grid = e.grid;
  rec.spec.block = e.block;
  rec.spec.dynamic_smem_bytes = e.dynamic_smem_bytes;
  rec.spec.func = e.func;
  rec.code = static_cast<CUresult>(e.result);
  if (e.result != 0) rec.error = e.result_name.empty() ? "CUresult " + std::to_string(e.result) : e.result_name;
  records_.push_back(rec);
}

std::vector<LaunchRecord> LaunchEventFolder::take() {
  std::vector<LaunchRecord> out;
  out.swap(records_);
  return out;
}

std::string kernel_base_name(const std::string& symbol) {
  if (symbol.rfind("_Z", 0) != 0) return symbol;
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !demangled) return symbol;
  std::string s = demangled.get();  // "void mul_mat_vec_q<(ggml_type)2, 1>(void const*, ...)"
  // Cut at the first '<' or '(' that is not part of a leading return type.
  std::size_t end = s.find_first_of("<(");
  if (end == std::string::npos) end = s.size();
  std::string head = s.substr(0, end);
  if (const std::size_t sp = head.rfind(' '); sp != std::string::npos) head = head.substr(sp + 1);
  if (const std::size_t ns = head.rfind("::"); ns != std::string::npos) head = head.substr(ns + 2);
  return head;
}

// --- CUPTI ---

namespace {

struct CuptiApi {
  decltype(&cuptiSubscribe) subscribe = nullptr;
  decltype(&cuptiEnableCallback) enable_callback = nullptr;
  CUpti_SubscriberHandle subscriber = nullptr;
  std::string failure;  // why it cannot be used; empty when subscribed
};

std::mutex g_mutex;                        // guards g_folder and the live flag
LaunchEventFolder* g_folder = nullptr;     // the live recorder's, or null
std::atomic<bool> g_live{false};

std::string cupti_error(CUptiResult r) { return CuptiLibrary::get().error_string(r); }

Dim3 dim3_of(const dim3& d) { return {d.x, d.y, d.z}; }

// A function's attributes are its compiled code's: read once and kept, because after a sticky fault
// the driver answers no query, and a launch recorded then would lose its registers (the same case
// showed `regs` 32 in one run and empty in another, evidence/2026-12-03-h200-shared-reference run1).
// Only a complete answer is kept, so a function first seen after a fault is asked again next time;
// the key has the symbol's name too, as an unloaded module's handle may be reused by another.
FuncAttributes attributes_of(CUfunction f, const std::string& symbol) {
  FuncAttributes a;
  if (!f) return a;
  static std::mutex cache_mutex;
  static std::map<std::pair<CUfunction, std::string>, FuncAttributes> cache;
  {
    const std::lock_guard lock(cache_mutex);
    if (const auto it = cache.find({f, symbol}); it != cache.end()) return it->second;
  }
  int v = 0;
  bool complete = true;
  if (driver().cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f) == CUDA_SUCCESS) a.num_regs = v; else complete = false;
  if (driver().cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f) == CUDA_SUCCESS)
    a.static_smem_bytes = static_cast<std::uint64_t>(v);
  else
    complete = false;
  if (driver().cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) == CUDA_SUCCESS)
    a.max_threads_per_block = v;
  else
    complete = false;
  if (complete) {
    const std::lock_guard lock(cache_mutex);
    cache.emplace(std::pair{f, symbol}, a);
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

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (!g_live.load(std::memory_order_acquire)) return;
  const auto* info = static_cast<const CUpti_CallbackData*>(data);
  LaunchEvent e;
  e.enter = info->callbackSite == CUPTI_API_ENTER;
  if (info->symbolName) e.symbol = info->symbolName;
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    e.api = LaunchEvent::Api::driver;
    const DriverLaunchParams p = driver_launch_params(cbid, info->functionParams);
    if (!p.known) return;
    e.grid = p.grid;
    e.block = p.block;
    e.dynamic_smem_bytes = p.dynamic_smem_bytes;
    const CUfunction f = p.function;
    if (!e.enter) {
      e.func = attributes_of(f, e.symbol);
      e.result = static_cast<int>(*static_cast<const CUresult*>(info->functionReturnValue));
      if (e.result != CUDA_SUCCESS) e.result_name = error_name(static_cast<CUresult>(e.result));
    }
  } else if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    e.api = LaunchEvent::Api::runtime;
    switch (cbid) {
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
        fill_from_kernel_params<cudaLaunchKernel_v7000_params>(e, info->functionParams);
        break;
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
        fill_from_kernel_params<cudaLaunchCooperativeKernel_v9000_params>(e, info->functionParams);
        break;
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
        const auto* p = static_cast<const cudaLaunchKernelExC_v11060_params*>(info->functionParams);
        fill_from_launch_config(e, p->config);
        break;
      }
#if defined(CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000)
      case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
      case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
        e.geometry_known = false;  // no parameter struct in the CUPTI headers
        break;
#endif
      default: return;
    }
    if (!e.enter) {
      e.result = static_cast<int>(*static_cast<const cudaError_t*>(info->functionReturnValue));
      if (e.result != 0) e.result_name = cudaGetErrorName(static_cast<cudaError_t>(e.result));
    }
  } else {
    return;
  }
  const std::lock_guard lock(g_mutex);
  if (g_folder) g_folder->on_event(e);
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

// Subscribes once per process (CUPTI allows one subscriber).
const CuptiApi& cupti() {
  static const CuptiApi api = [] {
    CuptiApi a;
    const CuptiLibrary& lib = CuptiLibrary::get();
    if (!lib.loaded()) {
      a.failure = lib.failure();
      return a;
    }
    a.subscribe = lib.symbol<decltype(&cuptiSubscribe)>("cuptiSubscribe");
    a.enable_callback = lib.symbol<decltype(&cuptiEnableCallback)>("cuptiEnableCallback");
    if (!a.subscribe || !a.enable_callback) {
      a.failure = "libcupti lacks cuptiSubscribe/cuptiEnableCallback";
      return a;
    }
    if (const CUptiResult r = a.subscribe(&a.subscriber, on_callback, nullptr); r != CUPTI_SUCCESS) {
      a.failure = "cuptiSubscribe failed: " + cupti_error(r) + " (another CUPTI client in this process?)";
      return a;
    }
    const auto enable = [&a](CUpti_CallbackDomain domain, const char* what, std::span<const CUpti_CallbackId> ids) {
      for (CUpti_CallbackId id : ids)
        if (const CUptiResult r = a.enable_callback(1, a.subscriber, domain, id); r != CUPTI_SUCCESS) {
          a.failure = "cuptiEnableCallback(" + std::string(what) + " " + std::to_string(id) + "): " + cupti_error(r);
          return false;
        }
      return true;
    };
    if (enable(CUPTI_CB_DOMAIN_DRIVER_API, "driver", kDriverIds))
      enable(CUPTI_CB_DOMAIN_RUNTIME_API, "runtime", kRuntimeIds);
    return a;
  }();
  return api;
}

LaunchEventFolder g_live_folder;

}  // namespace

std::optional<std::string> LaunchRecorder::unavailable_reason() {
  const CuptiApi& a = cupti();
  if (a.failure.empty()) return std::nullopt;
  return a.failure;
}

LaunchRecorder::LaunchRecorder() {
  if (auto why = unavailable_reason()) throw LaunchRecorderUnavailable("launch recorder: " + *why);
  const std::lock_guard lock(g_mutex);
  if (g_folder) throw LaunchRecorderUnavailable("launch recorder: another recorder is live in this process");
  g_live_folder.take();
  g_folder = &g_live_folder;
  g_live.store(true, std::memory_order_release);
}

LaunchRecorder::~LaunchRecorder() {
  g_live.store(false, std::memory_order_release);
  const std::lock_guard lock(g_mutex);
  g_folder = nullptr;
}

std::vector<LaunchRecord> LaunchRecorder::take() {
  const std::lock_guard lock(g_mutex);
  return g_live_folder.take();
}

std::string LaunchRecorder::describe_live() {
  const std::lock_guard lock(g_mutex);
  if (!g_folder) return "";
  std::string out;
  for (const LaunchRecord& r : g_folder->records()) out += (out.empty() ? "" : "; ") + r.describe();
  return out.empty() ? "no launch recorded before it" : "recorded before it: " + out;
}

void watch_launches(Launcher& launcher, const std::function<void()>& call) {
  LaunchRecorder recorder;
  try {
    call();
  } catch (...) {
    for (LaunchRecord& r : recorder.take()) launcher.add_watched(std::move(r));
    throw;
  }
  for (LaunchRecord& r : recorder.take()) launcher.add_watched(std::move(r));
}

}  // namespace gridfuzz::device
