// The few ggml and ggml-cuda functions that llama.cpp's CUDA matmul files (mmvq.cu, mmq.cu,
// quantize.cu, mmid.cu and the mmq instances, compiled unmodified) call, written by gridfuzz from
// their declarations in upstream's headers. Nothing here is upstream code. What each one does:
//   - ggml_abort / ggml_cuda_error: upstream aborts the process; so do these, after leaving the
//     message (and the launches recorded so far) in the worker's crash note, so that the row of the
//     case says which assertion ended it (gridfuzz/crash_note.hpp).
//   - type sizes: from the block structs of upstream's ggml-common.h, for the types gridfuzz
//     covers (llamacpp_quant_types(), plan/upstream_call_plan.hpp); any other type aborts with its id.
//   - ggml_cuda_info: the fields ggml_cuda_init fills (ggml-cuda.cu:305-344), from
//     cudaGetDeviceProperties, for the current device only.
//   - the memory pools (make_pool, shim/pools.hpp): `exact` (one cudaMalloc of exactly the bytes
//     upstream asks for, freed when upstream frees it) and ggml's own two pools' rules, written
//     from plan/ggml_alloc_rules.hpp (each rule cited there): `vmm` (one reserved address range,
//     128-byte steps, whole granules mapped at its end) and `legacy` (cudaMalloc of 1.05x rounded
//     to 256 bytes, freed buffers reused best fit). docs/upstream/llama-cpp.md, "Allocation".
//   - ggml_backend_buffer_get_usage: gridfuzz's buffers are never ggml compute buffers, so the
//     padding-clearing branch of ggml_cuda_mul_mat_vec_q (mmvq.cu:1490) and mmq.cu:159 is not taken.
#include <cuda_runtime.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cudaTypedefs.h>
#include <vector>
#include <mutex>
#include <string>

#include "common.cuh"
#include "abort_bridge.hpp"
#include "ggml_alloc_rules.hpp"
#include "pools.hpp"

namespace {

// Upstream's abort, with the message and the launches recorded so far left in the crash note.
[[noreturn]] void die(const std::string& message) { gridfuzz::llamacpp::abort_with_crash_note(message); }

struct TypeSize {
  std::int64_t block = 0;
  std::size_t bytes = 0;
};

TypeSize type_size(ggml_type t) {
  switch (t) {
    case GGML_TYPE_F32: return {1, sizeof(float)};
    case GGML_TYPE_F16: return {1, sizeof(ggml_half)};
    case GGML_TYPE_I32: return {1, sizeof(int32_t)};
    case GGML_TYPE_Q4_0: return {QK4_0, sizeof(block_q4_0)};
    case GGML_TYPE_Q8_0: return {QK8_0, sizeof(block_q8_0)};
    case GGML_TYPE_Q8_1: return {QK8_1, sizeof(block_q8_1)};
    case GGML_TYPE_Q4_K: return {QK_K, sizeof(block_q4_K)};
    case GGML_TYPE_Q6_K: return {QK_K, sizeof(block_q6_K)};
    case GGML_TYPE_IQ4_XS: return {QK_K, sizeof(block_iq4_xs)};
    default: break;
  }
  die("gridfuzz ggml shim: type id " + std::to_string(static_cast<int>(t)) + " is not one gridfuzz covers");
}

// exact: plain cudaMalloc/cudaFree of the bytes asked for, checked like upstream's.
struct ExactPool final : ggml_cuda_pool {
  void* alloc(size_t size, size_t* actual_size) override {
    void* p = nullptr;
    if (size > 0) CUDA_CHECK(cudaMalloc(&p, size));
    *actual_size = size;
    return p;
  }
  void free(void* ptr, size_t) override {
    if (ptr) CUDA_CHECK(cudaFree(ptr));
  }
};

// legacy: ggml_cuda_pool_leg's rules (ggml-cuda.cu:413-527): a freed buffer is kept and handed
// out again to the request it fits best (:432-470); otherwise cudaMalloc of
// legacy_pool_alloc_size (:486-489), told to the caller (:503). Cached buffers are cudaFree'd
// when the pool goes (:425-440), which waits for the device as cudaFree does.
struct LegacyPool final : ggml_cuda_pool {
  struct Buffer {
    void* ptr;
    size_t size;
  };
  std::vector<Buffer> cached;
  ~LegacyPool() override {
    for (const Buffer& b : cached) CUDA_CHECK(cudaFree(b.ptr));
  }
  void* alloc(size_t size, size_t* actual_size) override {
    std::size_t best = cached.size();
    for (std::size_t i = 0; i < cached.size(); ++i)
      if (cached[i].size >= size && (best == cached.size() || cached[i].size < cached[best].size)) best = i;
    if (best != cached.size()) {
      const Buffer b = cached[best];
      cached.erase(cached.begin() + static_cast<std::ptrdiff_t>(best));
      *actual_size = b.size;
      return b.ptr;
    }
    const auto look_ahead = gridfuzz::llamacpp::legacy_pool_alloc_size(size);
    if (!look_ahead) die("gridfuzz ggml shim: legacy pool request of " + std::to_string(size) + " bytes overflows");
    void* p = nullptr;
    CUDA_CHECK(cudaMalloc(&p, *look_ahead));
    *actual_size = *look_ahead;
    return p;
  }
  void free(void* ptr, size_t size) override { cached.push_back({ptr, size}); }
};

// The driver's virtual memory functions, through the runtime (as harness/device/driver_api.hpp
// resolves the driver: no link to libcuda, so a machine without a driver still starts).
template <class F>
F driver_function(const char* name, unsigned version) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &fn, version, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || !fn)
    die(std::string("gridfuzz ggml shim: the driver has no ") + name + " (version " + std::to_string(version) + ")");
  return reinterpret_cast<F>(fn);
}

struct VmmApi {
  PFN_cuMemCreate_v10020 create = driver_function<PFN_cuMemCreate_v10020>("cuMemCreate", 10020);
  PFN_cuMemRelease_v10020 release = driver_function<PFN_cuMemRelease_v10020>("cuMemRelease", 10020);
  PFN_cuMemAddressReserve_v10020 reserve =
      driver_function<PFN_cuMemAddressReserve_v10020>("cuMemAddressReserve", 10020);
  PFN_cuMemAddressFree_v10020 address_free = driver_function<PFN_cuMemAddressFree_v10020>("cuMemAddressFree", 10020);
  PFN_cuMemMap_v10020 map = driver_function<PFN_cuMemMap_v10020>("cuMemMap", 10020);
  PFN_cuMemUnmap_v10020 unmap = driver_function<PFN_cuMemUnmap_v10020>("cuMemUnmap", 10020);
  PFN_cuMemSetAccess_v10020 set_access = driver_function<PFN_cuMemSetAccess_v10020>("cuMemSetAccess", 10020);
  PFN_cuMemGetAllocationGranularity_v10020 granularity =
      driver_function<PFN_cuMemGetAllocationGranularity_v10020>("cuMemGetAllocationGranularity", 10020);
  PFN_cuDeviceGetAttribute_v2000 attribute = driver_function<PFN_cuDeviceGetAttribute_v2000>("cuDeviceGetAttribute", 2000);
  PFN_cuDeviceGet_v2000 device = driver_function<PFN_cuDeviceGet_v2000>("cuDeviceGet", 2000);
};

const VmmApi& vmm_api() {
  static const VmmApi api;
  return api;
}

void cu_check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) die(std::string("gridfuzz ggml shim: ") + what + " failed: CUresult " + std::to_string(r));
}

CUmemAllocationProp device_memory(int device) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;  // ggml-cuda.cu:288-290, :580-582
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  return prop;
}

// vmm: ggml_cuda_pool_vmm's rules (VmmPoolModel, plan/ggml_alloc_rules.hpp, each line cited there)
// on the driver's virtual memory: upstream's 32 GiB address range (ggml-cuda.cu:531, :587),
// granules from cuMemGetAllocationGranularity(RECOMMENDED) (:291), mapped read-write for this
// device (:636-642). Upstream's pool lives as long as its backend; this one lives for one call
// (cuda/upstream_call.cu), so before unmapping it waits for the call's stream: a fault in a
// kernel is then reported here, as the exact pool's cudaFree reports it.
struct VmmPool final : ggml_cuda_pool {
  static constexpr size_t kMaxSize = gridfuzz::llamacpp::kVmmPoolMaxSize;  // CUDA_POOL_VMM_MAX_SIZE, ggml-cuda.cu:531
  int device;
  cudaStream_t stream;
  size_t granule = 0;
  CUdeviceptr base = 0;
  gridfuzz::llamacpp::VmmPoolModel model{1};
  VmmPool(int dev, cudaStream_t s) : device(dev), stream(s) {
    const CUmemAllocationProp prop = device_memory(device);
    cu_check(vmm_api().granularity(&granule, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED),
             "cuMemGetAllocationGranularity");
    model = gridfuzz::llamacpp::VmmPoolModel(granule);
  }
  ~VmmPool() override {
    if (base == 0) return;
    CUDA_CHECK(cudaStreamSynchronize(stream));
    cu_check(vmm_api().unmap(base, model.mapped()), "cuMemUnmap");
    cu_check(vmm_api().address_free(base, kMaxSize), "cuMemAddressFree");
  }
  void* alloc(size_t size, size_t* actual_size) override {
    const size_t mapped_before = model.mapped();
    const auto step = model.alloc(size);
    if (!step || model.mapped() > kMaxSize)  // upstream's assertion, as it prints it
      die(std::string(gridfuzz::llamacpp::kVmmPoolMaxAssertion) + " (gridfuzz's VMM pool: a request of " +
          std::to_string(size) + " bytes)");
    if (step->map_bytes > 0) {
      const CUmemAllocationProp prop = device_memory(device);
      CUmemGenericAllocationHandle handle{};
      cu_check(vmm_api().create(&handle, step->map_bytes, &prop, 0), "cuMemCreate");
      if (base == 0) cu_check(vmm_api().reserve(&base, kMaxSize, 0, 0, 0), "cuMemAddressReserve");
      cu_check(vmm_api().map(base + mapped_before, step->map_bytes, 0, handle, 0), "cuMemMap");
      cu_check(vmm_api().release(handle), "cuMemRelease");
      CUmemAccessDesc access = {};
      access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
      access.location.id = device;
      access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
      cu_check(vmm_api().set_access(base + mapped_before, step->map_bytes, &access, 1), "cuMemSetAccess");
    }
    *actual_size = step->size;
    return reinterpret_cast<void*>(base + step->offset);
  }
  void free(void* ptr, size_t size) override {
    const auto offset = reinterpret_cast<CUdeviceptr>(ptr) - base;
    if (!model.free(offset, size))  // GGML_ASSERT(ptr == pool_addr + pool_used), :674
      die("gridfuzz ggml shim: VMM pool freed out of order");
  }
};

// ggml_cuda_init's test (ggml-cuda.cu:283-294): the VMM pool where the device supports it.
bool device_supports_vmm(int device) {
  CUdevice d{};
  cu_check(vmm_api().device(&d, device), "cuDeviceGet");
  int vmm = 0;
  cu_check(vmm_api().attribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, d), "cuDeviceGetAttribute");
  return vmm != 0;
}

}  // namespace

void ggml_abort(const char* file, int line, const char* fmt, ...) {
  char message[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(message, sizeof message, fmt, args);
  va_end(args);
  die(std::string(file) + ":" + std::to_string(line) + ": " + message);
}

void ggml_cuda_error(const char* stmt, const char* func, const char* file, int line, const char* msg) {
  die(std::string("CUDA error: ") + msg + " in " + func + " (" + file + ":" + std::to_string(line) + "): " + stmt);
}

int64_t ggml_blck_size(ggml_type type) { return type_size(type).block; }
size_t ggml_type_size(ggml_type type) { return type_size(type).bytes; }
size_t ggml_row_size(ggml_type type, int64_t ne) { return ggml_type_size(type) * ne / ggml_blck_size(type); }
bool ggml_is_quantized(ggml_type type) { return type_size(type).block > 1; }

size_t ggml_element_size(const ggml_tensor* t) { return ggml_type_size(t->type); }

// Upstream's log lines (a warning about GGML_CUDA_MMQ_PREC, say) go to stderr.
void ggml_log_internal(ggml_log_level, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
}

int64_t ggml_nelements(const ggml_tensor* t) { return t->ne[0] * t->ne[1] * t->ne[2] * t->ne[3]; }

// ggml.c's definition: the byte just past the last element.
size_t ggml_nbytes(const ggml_tensor* t) {
  for (int i = 0; i < GGML_MAX_DIMS; ++i)
    if (t->ne[i] <= 0) return 0;
  const std::int64_t blck = ggml_blck_size(t->type);
  size_t nbytes = ggml_type_size(t->type);
  if (blck == 1) {
    for (int i = 0; i < GGML_MAX_DIMS; ++i) nbytes += (t->ne[i] - 1) * t->nb[i];
  } else {
    nbytes = t->ne[0] * t->nb[0] / blck;
    for (int i = 1; i < GGML_MAX_DIMS; ++i) nbytes += (t->ne[i] - 1) * t->nb[i];
  }
  return nbytes;
}

bool ggml_are_same_stride(const ggml_tensor* a, const ggml_tensor* b) {
  for (int i = 0; i < GGML_MAX_DIMS; ++i)
    if (a->nb[i] != b->nb[i]) return false;
  return true;
}

bool ggml_is_contiguous(const ggml_tensor* t) {
  size_t next = ggml_type_size(t->type);
  if (t->nb[0] != next) return false;
  next *= t->ne[0] / ggml_blck_size(t->type);
  for (int i = 1; i < GGML_MAX_DIMS; ++i) {
    if (t->ne[i] != 1 && t->nb[i] != next) return false;
    next *= t->ne[i];
  }
  return true;
}

bool ggml_is_contiguously_allocated(const ggml_tensor* t) {
  return ggml_nbytes(t) == static_cast<size_t>(ggml_nelements(t)) * ggml_type_size(t->type) / ggml_blck_size(t->type);
}

ggml_backend_buffer_usage ggml_backend_buffer_get_usage(ggml_backend_buffer_t) { return GGML_BACKEND_BUFFER_USAGE_WEIGHTS; }
size_t ggml_backend_buffer_get_alloc_size(ggml_backend_buffer_t, const ggml_tensor* t) { return ggml_nbytes(t); }

int ggml_cuda_get_device() {
  int id = 0;
  CUDA_CHECK(cudaGetDevice(&id));
  return id;
}

void ggml_cuda_set_device(int device) { CUDA_CHECK(cudaSetDevice(device)); }

const ggml_cuda_device_info& ggml_cuda_info() {
  static std::mutex mutex;
  static ggml_cuda_device_info info{};
  static bool filled[GGML_CUDA_MAX_DEVICES] = {};
  const std::lock_guard lock(mutex);
  const int id = ggml_cuda_get_device();
  if (id < 0 || id >= GGML_CUDA_MAX_DEVICES) die("gridfuzz ggml shim: device " + std::to_string(id) + " out of range");
  if (!filled[id]) {
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, id));
    int count = 0;
    CUDA_CHECK(cudaGetDeviceCount(&count));
    info.device_count = count;
    info.physical_device_count = count;
    auto& d = info.devices[id];
    d.nsm = prop.multiProcessorCount;         // ggml-cuda.cu:309
    d.smpb = prop.sharedMemPerBlock;          // :310
    d.warp_size = prop.warpSize;              // :311
    d.smpbo = prop.sharedMemPerBlockOptin;    // :343
    d.cc = 100 * prop.major + 10 * prop.minor;  // :344
    d.total_vram = prop.totalGlobalMem;
    d.physical_device = id;
    d.physical_share_count = 1;
    filled[id] = true;
  }
  return info;
}

// Only reached where cuda/upstream_call.cu did not install a pool: the exact one.
std::unique_ptr<ggml_cuda_pool> ggml_backend_cuda_context::new_pool_for_device(int, int) {
  return std::make_unique<ExactPool>();
}

namespace gridfuzz::llamacpp {

std::unique_ptr<ggml_cuda_pool> make_pool(Pool kind, int device, cudaStream_t stream) {
  switch (kind) {
    case Pool::exact: return std::make_unique<ExactPool>();
    case Pool::legacy: return std::make_unique<LegacyPool>();
    case Pool::vmm: return std::make_unique<VmmPool>(device, stream);
    case Pool::ggml_default:
      // ggml_backend_cuda_context::new_pool_for_device (ggml-cuda.cu:679-686): VMM where supported
      // (GGML_USE_VMM, common.cuh:263-265, unless built with GGML_CUDA_NO_VMM), else legacy.
      if (device_supports_vmm(device)) return std::make_unique<VmmPool>(device, stream);
      return std::make_unique<LegacyPool>();
  }
  return std::make_unique<ExactPool>();
}

}  // namespace gridfuzz::llamacpp

// The streams in the context are the caller's (cuda/upstream_call.cu puts the harness's stream there):
// not destroyed here.
ggml_backend_cuda_context::~ggml_backend_cuda_context() = default;
