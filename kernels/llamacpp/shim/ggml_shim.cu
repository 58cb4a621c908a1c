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
//   - the memory pool: one cudaMalloc per allocation, freed when upstream frees it (upstream's
//     legacy pool reuses buffers; the sizes it asks for are the same).
//   - ggml_backend_buffer_get_usage: gridfuzz's buffers are never ggml compute buffers, so the
//     padding-clearing branch of ggml_cuda_mul_mat_vec_q (mmvq.cu:1490) and mmq.cu:159 is not taken.
#include <cuda_runtime.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "common.cuh"
#include "abort_bridge.hpp"

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

// The allocator behind ctx.pool(): plain cudaMalloc/cudaFree, checked like upstream's.
struct MallocPool final : ggml_cuda_pool {
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

std::unique_ptr<ggml_cuda_pool> ggml_backend_cuda_context::new_pool_for_device(int, int) {
  return std::make_unique<MallocPool>();
}

// The streams in the context are the caller's (cuda/upstream_call.cu puts the harness's stream there):
// not destroyed here.
ggml_backend_cuda_context::~ggml_backend_cuda_context() = default;
