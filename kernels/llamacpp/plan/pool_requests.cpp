#include "pool_requests.hpp"

#include "gridfuzz/checked_math.hpp"
#include "upstream_call_plan.hpp"

namespace gridfuzz::llamacpp {
namespace {

// a * b * c / d, saturating at the largest uint64 (a size past 2^64 is "more than any pool").
std::uint64_t scaled(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
  const auto ab = checked_mul(a, b);
  const auto abc = ab ? checked_mul(*ab, c) : std::nullopt;
  return abc ? *abc / d : UINT64_MAX;
}

}  // namespace

std::vector<std::uint64_t> pool_requests(PoolCall call, const gguf::MoeCallShape& s) {
  const auto padded = static_cast<std::uint64_t>(padded_cols(static_cast<std::int64_t>(s.cols)));  // GGML_PAD(ne10, 512)
  // src1 rows: the activation rows (tokens for gate/up and MUL_MAT, tokens x top_k for down).
  const std::uint64_t src1_rows = s.activation_rows();
  if (call == PoolCall::mmvq) return {scaled(src1_rows, padded, 36, 32)};  // sizeof(block_q8_1) / QK8_1
  if (s.dense) return {scaled(src1_rows, padded, 144, 128)};  // sizeof(block_q8_1_mmq) / QK8_1_MMQ
  const std::uint64_t pairs = s.pairs();
  return {scaled(pairs, 4, 1, 1), scaled(pairs, 4, 1, 1), scaled(s.experts + 1, 4, 1, 1),
          scaled(pairs, padded, 144, 128)};
}

}  // namespace gridfuzz::llamacpp
