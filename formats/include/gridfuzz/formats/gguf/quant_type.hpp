#pragma once
// The GGUF block formats this project implements, keyed by their ggml type ids (ggml.h), and the
// per-type constants that the CUDA kernels use for the lane mapping (vLLM's QK/QR/QI/VDR).
// Device-usable: traits come from a constexpr switch, not a table, so nvcc can fold them in
// kernels without --expt-relaxed-constexpr.
#include <cstdint>

#include "gridfuzz/formats/host_device.hpp"

namespace gridfuzz::formats::gguf {

// Values are ggml's `enum ggml_type` ids: they appear in GGUF files and in vLLM's dispatch.
enum class QuantType : std::uint32_t {
  q4_0 = 2,
  q4_1 = 3,
  q5_0 = 6,
  q5_1 = 7,
  q8_0 = 8,
  q8_1 = 9,
  q2_K = 10,
  q3_K = 11,
  q4_K = 12,
  q5_K = 13,
  q6_K = 14,
  iq2_xxs = 16,
  iq2_xs = 17,
  iq3_xxs = 18,
  iq1_s = 19,
  iq4_nl = 20,
  iq3_s = 21,
  iq2_s = 22,
  iq4_xs = 23,
  iq1_m = 29,
};

// The codebook i-quants (iq1_s, iq1_m, iq2_xxs, iq2_xs, iq2_s, iq3_xxs, iq3_s) are built only when
// their codebooks were generated at configure time (iq_grids.hpp); without them they are not in
// the type lists and not accepted by name.
#if GRIDFUZZ_GGUF_IQ
inline constexpr bool kHasCodebookTypes = true;
inline constexpr int kQuantTypeCount = 20;
#else
inline constexpr bool kHasCodebookTypes = false;
inline constexpr int kQuantTypeCount = 13;
#endif
inline constexpr int kQK_K = 256;  // values per K-quant super-block

struct QuantTraits {
  const char* name;          // ggml's type name: "q4_0", "q2_K", "iq4_xs"
  std::uint32_t qk;          // values per block
  std::uint32_t block_bytes; // sizeof the block struct
  std::uint32_t qr;          // vLLM QR: values per block over stored quant slots (QI = qk / (4*QR))
  std::uint32_t qi;          // vLLM QI: 32-bit ints of quants per block (lane mapping unit)
  std::uint32_t vdr;         // vLLM VDR for mmvq/moe_vec: ints handled per lane per vec_dot call
  bool has_moe_vec;          // has a moe_vec_<t>_q8_1 launcher (q8_1 is activation-only)
};

// Constants from docs/KERNELS.md, "GGUF block layouts" (vLLM ggml-common.h). iq4_xs uses vLLM's
// QR 8 (current ggml: 2); iq4_nl uses q4_0's VDR as vLLM does. q8_1 has no weight-side VDR: 0.
GRIDFUZZ_FORMATS_HD constexpr QuantTraits quant_traits(QuantType t) {
  switch (t) {
    case QuantType::q4_0: return {"q4_0", 32, 18, 2, 4, 2, true};
    case QuantType::q4_1: return {"q4_1", 32, 20, 2, 4, 2, true};
    case QuantType::q5_0: return {"q5_0", 32, 22, 2, 4, 2, true};
    case QuantType::q5_1: return {"q5_1", 32, 24, 2, 4, 2, true};
    case QuantType::q8_0: return {"q8_0", 32, 34, 1, 8, 2, true};
    case QuantType::q8_1: return {"q8_1", 32, 36, 1, 8, 0, false};
    case QuantType::q2_K: return {"q2_K", 256, 84, 4, 16, 1, true};
    case QuantType::q3_K: return {"q3_K", 256, 110, 4, 16, 1, true};
    case QuantType::q4_K: return {"q4_K", 256, 144, 2, 32, 2, true};
    case QuantType::q5_K: return {"q5_K", 256, 176, 2, 32, 2, true};
    case QuantType::q6_K: return {"q6_K", 256, 210, 2, 32, 1, true};
    case QuantType::iq4_nl: return {"iq4_nl", 32, 18, 2, 4, 2, true};
    case QuantType::iq4_xs: return {"iq4_xs", 256, 136, 8, 8, 1, true};
    // The codebook i-quants: QR 8, QI 8 and VDR 1 (vLLM launches them with vdr 1, moe_vec.cuh:215-335).
    case QuantType::iq2_xxs: return {"iq2_xxs", 256, 66, 8, 8, 1, true};
    case QuantType::iq2_xs: return {"iq2_xs", 256, 74, 8, 8, 1, true};
    case QuantType::iq2_s: return {"iq2_s", 256, 82, 8, 8, 1, true};
    case QuantType::iq3_xxs: return {"iq3_xxs", 256, 98, 8, 8, 1, true};
    case QuantType::iq3_s: return {"iq3_s", 256, 110, 8, 8, 1, true};
    case QuantType::iq1_s: return {"iq1_s", 256, 50, 8, 8, 1, true};
    case QuantType::iq1_m: return {"iq1_m", 256, 56, 8, 8, 1, true};
  }
  return {"?", 0, 0, 0, 0, 0, false};
}

// The seven codebook i-quants (grid points indexed by the quants, iq_grids.hpp).
GRIDFUZZ_FORMATS_HD constexpr bool is_codebook_type(QuantType t) {
  return t == QuantType::iq2_xxs || t == QuantType::iq2_xs || t == QuantType::iq2_s || t == QuantType::iq3_xxs ||
         t == QuantType::iq3_s || t == QuantType::iq1_s || t == QuantType::iq1_m;
}

// moe_vec lane mapping (docs/KERNELS.md, "vLLM moe_vec"): lanes sharing one block, and blocks one
// warp step covers.
GRIDFUZZ_FORMATS_HD constexpr std::uint32_t lanes_per_block(QuantType t) {
  return quant_traits(t).qi / quant_traits(t).vdr;
}
GRIDFUZZ_FORMATS_HD constexpr std::uint32_t blocks_per_warp(QuantType t) {
  return quant_traits(t).vdr * 32 / quant_traits(t).qi;
}

// Bytes of n values of type t; n must be a multiple of qk (callers check, see dequantize.hpp).
GRIDFUZZ_FORMATS_HD constexpr std::uint64_t quant_row_bytes(QuantType t, std::uint64_t n) {
  return n / quant_traits(t).qk * quant_traits(t).block_bytes;
}

}  // namespace gridfuzz::formats::gguf
