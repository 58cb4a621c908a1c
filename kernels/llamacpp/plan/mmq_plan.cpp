// ggml_cuda_mul_mat_q (mmq.cu:135-317) and what it calls, reproduced for NVIDIA devices with
// Turing-or-newer MMA below Blackwell (the H200): ggml_cuda_mmq_get_config takes the Ampere table
// there (mmq.cuh:256-258; gridfuzz builds for one architecture, so ggml_cuda_highest_compiled_arch
// is the device's own), and the MMA data layout (use_mma_data_layout, mmq.cuh:186-191).
#include <climits>
#include <stdexcept>

#include "plan/upstream_call_plan.hpp"

namespace gridfuzz::llamacpp {
namespace {

constexpr std::uint64_t kQuantizeBlockMmq = 128;  // CUDA_QUANTIZE_BLOCK_SIZE_MMQ (quantize.cuh:9)
constexpr std::uint64_t kBlockQ81MmqBytes = 144;  // sizeof(block_q8_1_mmq): 128 int8 + 4 scales (mmq.cuh:27-50)
constexpr std::uint64_t kSramStride = 76;         // ggml_cuda_mmq_get_sram_stride (mmq.cuh:131-150): Q8_0, Q8_1
                                                  // and Q6_K layouts all give 76 32-bit words
constexpr std::uint64_t kMmqI = 128;              // I of every covered type's Ampere rows
constexpr int kMmqThreads = 256;                  // nthreads of the same rows

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// The J values of the Ampere table for the covered types (mmq-config-ampere.cuh:36-51 q4_0,
// :104-119 q8_0, :157-172 q4_K, :191-206 q6_K, :312-327 iq4_xs): the same set for all five.
bool has_config(int J, bool fallback) {
  if (fallback) return J == 8 || J == 16 || J == 32 || J == 64 || J == 128;
  switch (J) {
    case 8: case 16: case 24: case 32: case 40: case 48: case 64: case 80: case 96: case 112: case 128: return true;
    default: return false;
  }
}

// mmq_get_nbytes_shared (mmq.cuh:1396-1401) with the MMA layout's x tile (mmq.cuh:427-433).
std::uint64_t nbytes_shared(int J) {
  const std::uint64_t ids = static_cast<std::uint64_t>(J) * 4;
  const std::uint64_t x = kMmqI * kSramStride * 4;
  const std::uint64_t y = static_cast<std::uint64_t>(J) * kBlockQ81MmqBytes;
  const std::uint64_t pad = kMmqThreads * 4;
  return ids + x + ceil_div(y, pad) * pad;
}

std::uint64_t qk_of(gguf::QuantType t) { return static_cast<std::uint64_t>(type_constants(t).qk); }

}  // namespace

bool mmq_activation_scale_is_fp32(gguf::QuantType t) {
  using gguf::QuantType;
  return t == QuantType::q8_0 || t == QuantType::q6_K || t == QuantType::iq4_xs;  // mmq.cuh:72-73, 85-91, 94-96
}

MmqConfig mmq_config(gguf::QuantType t, std::uint64_t rows, std::uint64_t ncols_opt, const DeviceLimits& limits) {
  (void)qk_of(t);  // throws for a type whose instance is not built
  MmqConfig c;
  c.fallback = rows % 128 != 0;
  // mul_mat_q_switch_J (mmq.cuh:1486-1506): the first J, in steps of 8, that lowers the number of
  // column tiles, among those with a config whose shared memory fits the opt-in limit.
  std::int64_t ntiles_best = INT_MAX;
  for (int J = 8; J <= 128 && ntiles_best > 1; J += 8) {
    if (!has_config(J, c.fallback)) continue;
    if (nbytes_shared(J) > limits.smem_per_block_optin) continue;
    const auto ntiles = static_cast<std::int64_t>(ceil_div(ncols_opt, static_cast<std::uint64_t>(J)));
    if (ntiles < ntiles_best) {
      c.J = J;
      ntiles_best = ntiles;
    }
  }
  if (c.J) c.nbytes_shared = nbytes_shared(c.J);
  return c;
}

UpstreamCallPlan mmq_plan(const gguf::MoeCallShape& s, const DeviceLimits& limits) {
  UpstreamCallPlan plan;
  const bool ids = !s.dense;
  const std::uint64_t warp = limits.warp_size ? limits.warp_size : 32;
  const std::uint64_t ne10_padded = static_cast<std::uint64_t>(padded_cols(static_cast<std::int64_t>(s.cols)));
  const std::uint64_t block_num_y = ceil_div(ne10_padded, 4 * kQuantizeBlockMmq);
  // The tensors of upstream_call.cu (see mmvq_plan).
  const std::uint64_t ne11 = ids ? (s.proj == gguf::Projection::down ? s.top_k : 1) : s.tokens;
  const std::uint64_t ne12 = ids ? s.tokens : 1;

  std::uint64_t ncols_max = s.tokens, nchannels_y = 1;
  if (!ids) {
    // mmq.cu:203-209 -> quantize.cu:575-589: grid (ne11, block_num_y, ne12*ne13), block 128.
    plan.launches.push_back({"quantize_mmq_q8_1", {ne11, block_num_y, 1}, {kQuantizeBlockMmq, 1, 1}, 0, false, {}});
  } else {
    // ggml_cuda_launch_mm_ids_helper (mmq.cu:251 -> mmid.cu:133-149): asserts, then grid
    // (n_experts), block (warp), dynamic shared memory n_tokens * sizeof(mm_ids_helper_store) = 4.
    if (ne12 >= (1u << 22)) {
      plan.host_error = "GGML_ASSERT(n_tokens < (1 << 22) && \"too few bits in mm_ids_helper_store\") failed (mmid.cu:136)";
      return plan;
    }
    if (s.top_k >= (1u << 10)) {
      plan.host_error = "GGML_ASSERT(n_expert_used_var < (1 << 10) && \"too few bits in mm_ids_helper_store\") failed "
                        "(mmid.cu:137)";
      return plan;
    }
    const std::uint64_t ids_smem = ne12 * 4;
    if (ids_smem > limits.smem_per_block_optin) {
      plan.host_error = "GGML_ASSERT(nbytes_shared <= smpbo) failed (mmid.cu:147): " + std::to_string(ne12) +
                        " tokens need " + std::to_string(ids_smem) + " bytes of shared memory, the device allows " +
                        std::to_string(limits.smem_per_block_optin);
      return plan;
    }
    plan.launches.push_back({"mm_ids_helper", {s.experts, 1, 1}, {warp, 1, 1}, ids_smem, true, {}});
    // mmq.cu:245: gate/up activations broadcast over the slots are quantized once per token and
    // scattered (quantize.cu:606-622: grid (n_tokens, block_num_y)); otherwise quantize_mmq_q8_1
    // over the ne12*n_expert_used gathered rows (quantize.cu:575-589).
    const bool dedup_bcast = ne11 == 1 && s.top_k > 1;
    if (dedup_bcast)
      plan.launches.push_back({"quantize_mmq_q8_1", {ne12, block_num_y, 1}, {kQuantizeBlockMmq, 1, 1}, 0, false, {}});
    else
      plan.launches.push_back(
          {"quantize_mmq_q8_1", {ne12 * s.top_k, block_num_y, 1}, {kQuantizeBlockMmq, 1, 1}, 0, false, {}});
    // mmq.cu:301-312: ncols_max = ne12 (the tokens), nchannels_y = ne02 (the experts).
    ncols_max = ne12;
    nchannels_y = s.experts;
  }

  const MmqConfig c = mmq_config(s.quant, s.rows, ncols_max, limits);
  if (!c.J) {
    plan.host_error = "GGML_ABORT(\"fatal error\") (mmq.cuh:1561): no MMQ tile fits";
    return plan;
  }
  // launch_mul_mat_q (mmq.cuh:1404-1484), stream-k (every covered config has stream_k = true).
  const std::uint64_t nwarps = kMmqThreads / warp;
  const std::uint64_t nty = ceil_div(s.rows, kMmqI);
  const std::uint64_t ntx = ceil_div(ncols_max, static_cast<std::uint64_t>(c.J));
  const std::uint64_t ntzw = nchannels_y;  // * nsamples_y = 1
  // ntiles_dst is an int in upstream (mmq.cuh:1446): its value as int.
  const auto ntiles_dst = static_cast<std::int32_t>(static_cast<std::uint32_t>(ntx * nty * ntzw));
  const std::uint64_t nsm = limits.sm_count;
  if (ntiles_dst <= 0 || nsm == 0) {
    // Past INT_MAX tiles upstream's grid arithmetic is undefined: gridfuzz does not run it.
    plan.host_error = "int overflow: ntiles_dst = " + std::to_string(ntx * nty * ntzw) + " tiles (mmq.cuh:1446)";
    return plan;
  }
  const std::uint64_t tiles = static_cast<std::uint64_t>(ntiles_dst);
  const std::uint64_t nwaves = ceil_div(tiles, nsm);
  const std::uint64_t efficiency = 100 * tiles / (nsm * nwaves);
  const std::uint64_t grid_x = efficiency >= 90 ? tiles : nsm;  // mmq.cuh:1449-1450
  // mmq.cuh:1454: int * uint32 is computed in 32-bit unsigned arithmetic.
  const std::uint32_t kbc_check = static_cast<std::uint32_t>(tiles) * static_cast<std::uint32_t>(s.cols / qk_of(s.quant));
  if (kbc_check >= (1u << 30)) {
    plan.host_error = "GGML_ASSERT(ntiles_dst * blocks_per_ne00_fd.z < (1 << 30)) failed (mmq.cuh:1454): " +
                      std::to_string(tiles) + " tiles x " + std::to_string(s.cols / qk_of(s.quant)) + " blocks";
    return plan;
  }
  // mul_mat_q's stream-k start (mmq.cuh:1075-1076): int64(blockIdx.x) * (nsamples_y.z *
  // nchannels_y.z * ntx.z * nty * blocks_per_ne00.z) / gridDim.x, the product in parentheses in
  // 32-bit unsigned arithmetic (uint3 fields): the k-block total must stay below 2^32.
  plan.indices.push_back({"stream-k k-block total (mmq.cuh:1075)",
                          static_cast<u128>(tiles) * static_cast<u128>(s.cols / qk_of(s.quant)), IndexType::uint32,
                          "k-blocks"});
  // The output index of write_back, dst[ids_dst[j]*stride + i] (mmq.cuh:467-472, 517-522): int
  // times int, up to (output columns) * rows - 1, the columns being the (token, slot) pairs with ids.
  const std::uint64_t out_cols = ids ? s.tokens * s.top_k : s.tokens;
  plan.indices.push_back({"dst index ids_dst[j]*stride + i (mmq.cuh:522)",
                          static_cast<u128>(out_cols) * s.rows - 1, IndexType::int32, "elements"});
  // The q8_1 tile source, y + ncols_y * (k block) * sz (mmq.cuh:919): int, ncols_y being the
  // quantized rows (pairs with ids), up to ncols_y * (ne10_padded / 128) * 36 ints.
  plan.indices.push_back({"y tile offset ncols_y*kb*sz (mmq.cuh:919)",
                          static_cast<u128>(out_cols) * (ne10_padded / 128) * (kBlockQ81MmqBytes / 4), IndexType::int32,
                          "ints"});
  plan.launches.push_back({"mul_mat_q", {grid_x, 1, 1}, {warp, nwarps, 1}, c.nbytes_shared, true, {}});
  if (tiles % grid_x != 0)  // mmq.cuh:1456, 1477-1483: the fixup
    plan.launches.push_back({"mul_mat_q_stream_k_fixup", {grid_x, kMmqI / warp, 1}, {warp, nwarps / 2, 1}, 0, false, {}});
  return plan;
}

}  // namespace gridfuzz::llamacpp
