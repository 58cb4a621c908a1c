#include "ggml_alloc_rules.hpp"

namespace gridfuzz::llamacpp {
namespace {

std::optional<std::uint64_t> add(std::uint64_t a, std::uint64_t b) {
  if (a > UINT64_MAX - b) return std::nullopt;
  return a + b;
}

std::optional<std::uint64_t> mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > UINT64_MAX / a) return std::nullopt;
  return a * b;
}

}  // namespace

std::optional<std::uint64_t> round_up(std::uint64_t a, std::uint64_t m) {
  if (m == 0) return std::nullopt;
  const std::uint64_t r = a % m;
  return r == 0 ? std::optional<std::uint64_t>(a) : add(a, m - r);
}

std::optional<std::uint64_t> cuda_tensor_alloc_size(std::uint64_t nbytes, std::uint64_t ne0, std::uint64_t block_elems,
                                                    std::uint64_t block_bytes) {
  if (block_elems == 0 || ne0 % block_elems != 0) return std::nullopt;
  // ggml-cuda.cu:912: only quantized types (a block of more than one value) are padded.
  if (block_elems == 1 || ne0 % kAllocRowPadding == 0) return nbytes;
  // ggml-cuda.cu:915: ggml_row_size(type, n) = type_size * n / blck_size (ggml.c), n = 512 - ne0 % 512,
  // a multiple of the block for every block of 32 or 256 values.
  const std::uint64_t pad_values = kAllocRowPadding - ne0 % kAllocRowPadding;
  const auto pad_bytes = mul(block_bytes, pad_values);
  if (!pad_bytes) return std::nullopt;
  return add(nbytes, *pad_bytes / block_elems);
}

std::optional<std::uint64_t> cuda_buffer_footprint(std::uint64_t alloc_size) {
  return round_up(alloc_size, kCudaBufferAlignment);
}

std::optional<std::uint64_t> legacy_pool_alloc_size(std::uint64_t size) {
  // ggml-cuda.cu:486: (size_t) (1.05 * size), in double as upstream computes it. Past 2^60 the
  // product could leave size_t's range (and double's integers are long gone): refused.
  if (size > (std::uint64_t{1} << 60)) return std::nullopt;
  const auto look_ahead = static_cast<std::uint64_t>(1.05 * static_cast<double>(size));
  // :487: 256 * ((look_ahead + 255) / 256).
  return round_up(look_ahead, 256);
}

std::optional<VmmPoolStep> VmmPoolModel::alloc(std::uint64_t size) {
  if (granularity_ == 0) return std::nullopt;
  const auto rounded = round_up(size, kVmmPoolAlignment);  // :565-566
  if (!rounded) return std::nullopt;
  VmmPoolStep step;
  step.offset = used_;
  step.size = *rounded;
  const std::uint64_t avail = mapped_ - used_;  // :568
  if (*rounded > avail) {
    const auto reserve = round_up(*rounded - avail, granularity_);  // :571-573
    if (!reserve) return std::nullopt;
    const auto mapped = add(mapped_, *reserve);
    if (!mapped) return std::nullopt;
    step.map_bytes = *reserve;
    mapped_ = *mapped;  // :646
  }
  used_ += *rounded;  // :657; cannot wrap: used_ + rounded <= mapped_
  return step;
}

bool VmmPoolModel::free(std::uint64_t offset, std::uint64_t size) {
  if (size > used_ || offset != used_ - size) return false;  // :671-674
  used_ -= size;
  return true;
}

std::optional<std::uint64_t> vmm_slack_after(std::uint64_t used_before, std::uint64_t size, std::uint64_t granularity) {
  VmmPoolModel pool(granularity);
  if (used_before > 0 && !pool.alloc(used_before)) return std::nullopt;
  const auto step = pool.alloc(size);
  if (!step) return std::nullopt;
  return pool.mapped() - step->offset - size;
}

}  // namespace gridfuzz::llamacpp

namespace gridfuzz::llamacpp {

std::optional<std::uint64_t> vmm_pool_used(const std::uint64_t* requests, std::size_t count) {
  std::uint64_t used = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const auto r = round_up(requests[i], kVmmPoolAlignment);
    if (!r || used > UINT64_MAX - *r) return std::nullopt;
    used += *r;
  }
  return used;
}

}  // namespace gridfuzz::llamacpp
