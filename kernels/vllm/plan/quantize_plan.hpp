#pragma once
// The q8_1 quantize step every vLLM GGUF call starts with (quantize_row_q8_1_cuda,
// gguf_kernel.cu:72-86), as upstream's host code computes it and as the `chunked` fix does, and
// the variants of those calls. Pure host code.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../cuda/upstream_kernels.hpp"
#include "gridfuzz/index_range.hpp"
#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz::vllm {

enum class MoeVecVariant {
  upstream,  // exactly upstream's host code: int arithmetic, the upstream grid, unchecked
  chunked,   // the same kernels; the host chunks the failing grid axis, offsets in 64 bits, checked
};
MoeVecVariant parse_moe_vec_variant(const std::string& name);  // std::invalid_argument

// One launch of upstream's quantize_q8_1 kernel: its geometry and the element offsets the host
// adds to x and to the q8_1 buffer (int32 words) before passing them.
struct QuantizeLaunch {
  LaunchSpec spec;
  std::int64_t x_offset = 0;   // may be negative: upstream's int `off * kx` wraps
  std::int64_t q8_offset = 0;
  int kx = 0, kx_padded = 0;   // the kernel's int arguments
};

// The launches that quantize `rows` rows of `cols` values; `host_error` set when upstream's int
// loop counter would overflow (2^31 rows, far beyond device memory).
std::vector<QuantizeLaunch> quantize_launches(MoeVecVariant v, std::uint64_t rows, std::uint64_t cols,
                                              const UpstreamConstants& c, std::optional<std::string>& host_error);

// The quantizer's index ranges, with the C++ types upstream declares: `chunked` computes the tile
// offsets in 64 bits, so it has none of those.
std::vector<IndexRange> quantize_index_ranges(MoeVecVariant v, std::uint64_t rows, std::uint64_t cols);

// An int64 as the `int` parameter it is passed to (the low 32 bits, two's complement), and int *
// int as upstream computes it (wrapping modulo 2^32).
int as_int(std::int64_t v);
int int_mul(int a, int b);

}  // namespace gridfuzz::vllm
