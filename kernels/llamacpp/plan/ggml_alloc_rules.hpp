#pragma once
// How llama.cpp (ggml) sizes the memory its CUDA matmuls touch, as pure host arithmetic: the
// tensors' allocation in a ggml backend buffer and the scratch from ggml-cuda's memory pools.
// Every rule cites the pinned sources (llama-cpp-python 0.3.36, vendor/llama.cpp/ggml/src/);
// nothing here is upstream code. Checked 64-bit arithmetic: a size that does not fit is nullopt,
// never a wrapped small one. C++17 (the shim's CUDA translation units include it).
//
// Used by the llamacpp.* adapters' variant `upstream` (docs/upstream/llama-cpp.md, "Allocation");
// variant `exact` allocates exactly the bytes upstream asks for instead.
#include <cstddef>
#include <cstdint>
#include <optional>

namespace gridfuzz::llamacpp {

// MATRIX_ROW_PADDING (ggml-cuda/common.cuh:186): the last row of a quantized matrix is padded to a
// multiple of this many values.
inline constexpr std::uint64_t kAllocRowPadding = 512;
// The CUDA buffer type's alignment (ggml-cuda.cu:897-898), by which ggml-alloc pads every tensor
// (ggml-alloc.c:78, ggml_tallocr_alloc; :203, the graph allocator).
inline constexpr std::uint64_t kCudaBufferAlignment = 128;
// The VMM pool's alignment of every allocation (ggml-cuda.cu:565-566).
inline constexpr std::uint64_t kVmmPoolAlignment = 128;

// a rounded up to a multiple of m (m > 0), or nullopt past 2^64.
std::optional<std::uint64_t> round_up(std::uint64_t a, std::uint64_t m);

// ggml_backend_cuda_buffer_type_get_alloc_size (ggml-cuda.cu:903-919) of a tensor of `nbytes`
// bytes whose rows hold `ne0` values: a quantized tensor (block_elems > 1) whose ne0 is not a
// multiple of MATRIX_ROW_PADDING gets ggml_row_size(type, 512 - ne0 % 512) more bytes
// (:912-916), i.e. one last row's padding, not every row's. ne0 must be a multiple of
// block_elems (ggml's row rule); otherwise nullopt.
std::optional<std::uint64_t> cuda_tensor_alloc_size(std::uint64_t nbytes, std::uint64_t ne0, std::uint64_t block_elems,
                                                    std::uint64_t block_bytes);

// What a tensor occupies in a ggml backend buffer: the alloc size padded to the buffer's
// alignment, 128 for CUDA (ggml-alloc.c:78: size = GGML_PAD(size, alignment)).
std::optional<std::uint64_t> cuda_buffer_footprint(std::uint64_t alloc_size);

// The legacy pool (ggml_cuda_pool_leg, built with GGML_CUDA_NO_VMM or on devices without VMM):
// a request that no cached buffer serves is cudaMalloc'd at (size_t)(1.05 * size) rounded up to
// a multiple of 256 (ggml-cuda.cu:486-487); the caller is told that size (:503).
std::optional<std::uint64_t> legacy_pool_alloc_size(std::uint64_t size);

// The VMM pool (ggml_cuda_pool_vmm, ggml-cuda.cu:530-677), the one ggml picks where the device
// supports virtual memory management (:679-686; ggml_cuda_init reads the attribute, :283-294): one
// reserved address range; an allocation is the request rounded up to 128 bytes (:565-566) placed
// at `used` (:655-657); when it does not fit in what is mapped, the shortfall is mapped at the end
// in whole granules (:568-573, :590-592, :646; granularity from cuMemGetAllocationGranularity, :291);
// frees are in reverse order (:671-674). Memory stays mapped until the pool is destroyed.
struct VmmPoolStep {
  std::uint64_t offset = 0;      // from the pool's start
  std::uint64_t size = 0;        // the rounded size (the caller's actual_size, :656)
  std::uint64_t map_bytes = 0;   // newly mapped at the old mapped end (0: none)
};
class VmmPoolModel {
 public:
  explicit VmmPoolModel(std::uint64_t granularity) : granularity_(granularity) {}
  // nullopt when the size does not fit in 64 bits or the granularity is 0.
  std::optional<VmmPoolStep> alloc(std::uint64_t size);
  // false when `size` is not the last allocation's (upstream asserts, :674).
  bool free(std::uint64_t offset, std::uint64_t size);
  std::uint64_t used() const { return used_; }
  std::uint64_t mapped() const { return mapped_; }

 private:
  std::uint64_t granularity_;
  std::uint64_t used_ = 0, mapped_ = 0;
};

// Bytes readable past the end of a request of `size` bytes before memory that is not mapped, for a
// request that is the last one in a fresh VMM pool whose earlier live allocations total
// `used_before` (already 128-aligned). The over-read that finding 3's tile loader can make faults
// in llama.cpp's own pool only when it is longer than this.
std::optional<std::uint64_t> vmm_slack_after(std::uint64_t used_before, std::uint64_t size, std::uint64_t granularity);

}  // namespace gridfuzz::llamacpp

namespace gridfuzz::llamacpp {

// CUDA_POOL_VMM_MAX_SIZE (ggml-cuda.cu:531): the VMM pool's address range; a request that would
// map past it ends the process (GGML_ASSERT(pool_size + reserve_size <= CUDA_POOL_VMM_MAX_SIZE),
// :575). With a power-of-2 granularity up to 2^35 the granule rounding cannot decide it: the
// assertion fails exactly when the 128-rounded live requests pass 2^35 bytes.
inline constexpr std::uint64_t kVmmPoolMaxSize = std::uint64_t{1} << 35;
inline constexpr const char* kVmmPoolMaxAssertion =
    "GGML_ASSERT(pool_size + reserve_size <= CUDA_POOL_VMM_MAX_SIZE) failed (ggml-cuda.cu:575)";

// The bytes a fresh VMM pool has in use after `requests` (each rounded to 128, :565-566), or
// nullopt past 2^64.
std::optional<std::uint64_t> vmm_pool_used(const std::uint64_t* requests, std::size_t count);

}  // namespace gridfuzz::llamacpp
