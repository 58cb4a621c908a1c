#include "gridfuzz/affine/qmv_stream_plan.hpp"

#include <algorithm>
#include <stdexcept>

#include "gridfuzz/checked_math.hpp"

namespace gridfuzz::affine {

std::uint64_t qmv_stream_smem_bytes(std::uint64_t k) {
  const std::optional<std::uint64_t> staged = checked_mul(ceil_div(k, kQmvStreamTileElements), kQmvStreamTileSmemBytes);
  if (!staged) return UINT64_MAX;
  const std::optional<std::uint64_t> bytes = checked_add(*staged, kQmvStreamRingSmemBytes);
  return bytes ? *bytes : UINT64_MAX;
}

std::uint64_t qmv_stream_resident_blocks(std::uint64_t k, const DeviceLimits& limits, std::uint64_t wanted) {
  const std::uint64_t per_block = qmv_stream_smem_bytes(k);
  if (per_block >= UINT64_MAX - kSmemReservedPerBlock) return 1;
  const std::uint64_t fit = (limits.smem_per_block_optin + kSmemReservedPerBlock) / (per_block + kSmemReservedPerBlock);
  return std::clamp<std::uint64_t>(std::min(wanted, fit), 1, std::max<std::uint64_t>(wanted, 1));
}

std::optional<std::string> qmv_stream_ineligible(const MatmulShape& s, const DeviceLimits& limits) {
  if (s.gather) return "gather calls take the fixed path";
  if (s.bits != 4) return "bits " + std::to_string(s.bits) + " (qmv_stream is 4-bit only)";
  if (u128{s.m} * s.batches >= 8) return "8 or more tokens take the qmm path";
  if (s.m == 0) return "no tokens";
  if (limits.sm_count == 0) return "the device's SM count is unknown";
  if (limits.cc_major < 8) return "compute capability " + limits.cc() + ": qmv_stream's cp.async needs sm_80 or newer";
  const std::uint64_t smem = qmv_stream_smem_bytes(s.k);
  if (smem > limits.smem_per_block_optin)
    return "the staged activation row needs " + std::to_string(smem) + " B of shared memory, the device allows " +
           std::to_string(limits.smem_per_block_optin) + " B";
  return std::nullopt;
}

AffinePlan plan_qmv_stream(const MatmulShape& s, const DeviceLimits& limits, std::uint64_t blocks_per_sm) {
  if (auto why = qmv_stream_ineligible(s, limits)) throw std::invalid_argument("qmv_stream: " + *why);
  AffinePlan out = plan_matmul(s, Variant::fixed, limits);
  if (out.path != MatmulPath::qmv) throw std::logic_error("qmv_stream: the fixed plan is not a qmv plan");
  const std::optional<std::uint64_t> resident =
      checked_mul(limits.sm_count, qmv_stream_resident_blocks(s.k, limits, blocks_per_sm));
  const std::uint64_t blocks = std::min(ceil_div(s.n, kQmvColsPerBlock), resident ? *resident : UINT64_MAX);
  const std::uint64_t smem = qmv_stream_smem_bytes(s.k);
  for (std::size_t i = 0; i < out.launches.size(); ++i) {
    AffineLaunch& a = out.launches[i];
    a.stream = true;
    a.spec.name = a.wide_index ? "qmv_stream_int64" : "qmv_stream_int32";
    a.spec.grid.x = blocks;
    a.spec.dynamic_smem_bytes = smem;
    a.spec.smem_optin = smem > kSmemOptinThreshold;
    out.plan.launches[i] = a.spec;
  }
  return out;
}

}  // namespace gridfuzz::affine
