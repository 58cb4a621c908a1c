#include "quantize_plan.hpp"

#include "launch_geometry.hpp"  // kernels/gguf/plan: the GGUF family's model of the same quantizer

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace gridfuzz::vllm {
namespace {

constexpr int kMaxBlockSize = 65535;  // gguf_kernel.cu:77, MAX_BLOCK_SIZE: rows per quantize launch

std::uint64_t extent(int v) { return static_cast<std::uint32_t>(v); }  // a dim3 extent from an int

}  // namespace

int as_int(std::int64_t v) { return static_cast<int>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v))); }

int int_mul(int a, int b) {
  return static_cast<int>(static_cast<std::uint32_t>(static_cast<std::int64_t>(a) * static_cast<std::int64_t>(b)));
}

MoeVecVariant parse_moe_vec_variant(const std::string& name) {
  if (name == "upstream") return MoeVecVariant::upstream;
  if (name == "chunked") return MoeVecVariant::chunked;
  throw std::invalid_argument("vllm: unknown variant '" + name + "' (upstream, chunked)");
}

// quantize_row_q8_1_cuda<scalar_t>(x, vy, kx = col, ky = rows, stream), gguf_kernel.cu:72-86.
std::vector<QuantizeLaunch> quantize_launches(MoeVecVariant v, std::uint64_t rows, std::uint64_t cols,
                                              const UpstreamConstants& c, std::optional<std::string>& host_error) {
  std::vector<QuantizeLaunch> out;
  const int kx = as_int(static_cast<std::int64_t>(cols));  // `col` (int64) -> the int parameter kx
  const int ky = as_int(static_cast<std::int64_t>(rows));  // `tokens`/`vecs` (int64) -> int ky
  const std::int64_t kx_padded = (static_cast<std::int64_t>(kx) + 512 - 1) / 512 * 512;  // :74
  const int block_num_x = static_cast<int>((kx_padded + c.quantize_grid_x_divisor - 1) / c.quantize_grid_x_divisor);  // :75-76
  const std::int64_t q8_words_per_row = kx_padded / 32 * 9;
  for (int off = 0; off < ky;) {  // :78
    const int num_blocks_y = std::min(ky, off + kMaxBlockSize) - off;  // :79 (off + 65535 fits: see below)
    QuantizeLaunch l;
    l.spec.name = "quantize_q8_1";
    l.spec.grid = {extent(block_num_x), extent(num_blocks_y), 1};                        // :80
    l.spec.block = {static_cast<std::uint64_t>(c.quantize_block_threads), 1, 1};          // :81
    // :83 &x[off * kx]: an int product upstream; the fix computes it in 64 bits.
    l.x_offset = v == MoeVecVariant::upstream ? int_mul(off, kx) : static_cast<std::int64_t>(off) * kx;
    l.q8_offset = static_cast<std::int64_t>(off) * q8_words_per_row;  // :84 (int64: kx_padded is int64_t)
    l.kx = kx;
    l.kx_padded = static_cast<int>(kx_padded);  // :82 passed to `const int kx_padded`
    out.push_back(l);
    if (off > std::numeric_limits<int>::max() - kMaxBlockSize) {
      // `off += MAX_BLOCK_SIZE` would overflow int with rows still left: upstream's loop is
      // undefined from here. Only at 2^31 activation rows, far beyond device memory.
      if (off + static_cast<std::int64_t>(num_blocks_y) < ky)
        host_error = "int overflow of the quantize loop counter (gguf_kernel.cu:78)";
      break;
    }
    off += kMaxBlockSize;
  }
  return out;
}

std::vector<IndexRange> quantize_index_ranges(MoeVecVariant v, std::uint64_t rows, std::uint64_t cols) {
  // Upstream's q8_1 kernel (gguf_kernel.cu:36-48) as the GGUF family models the same code
  // (kernels/gguf/plan/launch_geometry.hpp; its tiles are upstream's 65535 rows whatever the
  // device), with one correction: x[iy * kx + ix] has iy unsigned (:40, :48), so that index wraps
  // at 2^32 (uint32), while i_padded (:41) is an int.
  DeviceLimits any_device;
  any_device.max_grid_y = kMaxBlockSize;
  std::vector<IndexRange> r = gguf::quantize_indices(gguf::QuantizeGeometry::upstream_tiles, rows, cols, any_device);
  for (IndexRange& range : r)
    if (range.name == "q8_1_input_index") range.type = IndexType::uint32;
  if (v == MoeVecVariant::chunked)
    std::erase_if(r, [](const IndexRange& range) { return range.name.starts_with("q8_1_chunk_"); });
  return r;
}

}  // namespace gridfuzz::vllm
