#pragma once
// Shared helpers of the affine plan tests: the sm_90 preset, params for both kernels, and the
// prediction of a case (pure host code, no GPU).
#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "affine_matmul_kernel.hpp"
#include "gridfuzz/affine/matmul_plan.hpp"
#include "gridfuzz/affine/register.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/predictor.hpp"

namespace gridfuzz::affine::test {

inline DeviceLimits sm90() { return *device_preset("sm_90"); }

inline const Kernel& dense_kernel() {
  static const auto k = make_dense_qmm_kernel();
  return *k;
}
inline const Kernel& gather_kernel() {
  static const auto k = make_gather_qmm_kernel();
  return *k;
}

// A dense call's matmul shape: `tokens` x `n` output, reduction `k` (the plan functions' input).
inline MatmulShape dense(std::uint64_t tokens, std::uint64_t n, std::uint64_t k, int group = 64,
                         Dtype dtype = Dtype::bfloat16, int bits = 4) {
  MatmulShape s;
  s.m = tokens;
  s.n = n;
  s.k = k;
  s.group_size = group;
  s.dtype = dtype;
  s.bits = bits;
  return s;
}

inline Params dense_params(std::uint64_t tokens, std::uint64_t vocab, std::uint64_t cols = 4096) {
  Params p = Params::defaults(dense_kernel().axes());
  p.set("tokens", std::to_string(tokens));
  p.set("vocab", std::to_string(vocab));
  p.set("cols", std::to_string(cols));
  return p;
}

inline Params gather_params(std::uint64_t tokens, std::uint64_t top_k, std::uint64_t experts = 128,
                            std::uint64_t rows = 768, std::uint64_t cols = 2048) {
  Params p = Params::defaults(gather_kernel().axes());
  p.set("tokens", std::to_string(tokens));
  p.set("top_k", std::to_string(top_k));
  p.set("experts", std::to_string(experts));
  p.set("rows", std::to_string(rows));
  p.set("cols", std::to_string(cols));
  return p;
}

// The shape an affine adapter maps `p` to (the one its plan() plans).
inline MatmulShape shape_of(const Kernel& k, const Params& p) {
  return dynamic_cast<const AffineMatmulKernel&>(k).shape(p);
}

// Checks a fixed plan's 32/64-bit dispatch against bounds computed here, from each launch's own
// m, l and the shape (not through plan_fixed's helpers): a launch runs the int32 kernel exactly
// when every offset its kernel forms in the index type is below 2^31 (qmm: out, x, w, scales; qmv:
// out, x and gather's n*w_batch, its w and scales being int64 in every instantiation), its spec
// name says the width, and the plan declares ranges of exactly the widths its launches use.
// nullopt when all of that holds, else what broke.
inline std::optional<std::string> fixed_dispatch_error(const MatmulShape& s, const AffinePlan& plan) {
  constexpr u128 kLimit = u128{1} << 31;
  const bool qmv = plan.path == MatmulPath::qmv;
  std::set<IndexType> used;
  for (std::size_t i = 0; i < plan.launches.size(); ++i) {
    const AffineLaunch& a = plan.launches[i];
    const u128 rows = static_cast<std::uint64_t>(a.m), slices = static_cast<std::uint64_t>(a.l);
    const u128 out_end = slices * rows * s.n;
    const u128 x_end = (s.gather ? u128{s.x_batches} : slices) * rows * s.k;
    const u128 w_end = u128{s.experts} * s.n * (s.k * static_cast<std::uint64_t>(s.bits) / 32);
    const u128 scale_end = u128{s.experts} * s.n * (s.k / static_cast<std::uint64_t>(s.group_size));
    bool fits = out_end <= kLimit && x_end <= kLimit;
    if (!qmv) fits = fits && w_end <= kLimit && scale_end <= kLimit;
    if (qmv && s.gather) fits = fits && u128{s.n} * (s.experts - 1) < kLimit;
    if (a.wide_index == fits)
      return "launch " + std::to_string(i) + (fits ? " fits int32 but runs int64" : " needs int64 but runs int32");
    const std::string suffix = a.wide_index ? "_fixed_int64" : "_fixed_int32";
    if (a.spec.name.size() < suffix.size() || a.spec.name.compare(a.spec.name.size() - suffix.size(), suffix.size(), suffix) != 0)
      return "launch " + std::to_string(i) + " is named " + a.spec.name + ", expected *" + suffix;
    used.insert(a.wide_index ? IndexType::int64 : IndexType::int32);
  }
  std::set<IndexType> declared;
  for (const IndexRange& r : plan.plan.indices) {
    // qmv's w and scales are int64 in both kernels: they say nothing about the width picked.
    if (qmv && (r.name.rfind("w_offset", 0) == 0 || r.name.rfind("scale_offset", 0) == 0)) {
      if (r.type != IndexType::int64) return r.name + " of qmv must be declared int64";
      continue;
    }
    declared.insert(r.type);
  }
  if (declared != used) return "declared index types differ from the widths of the launches";
  return std::nullopt;
}

inline Prediction predict_of(const Kernel& k, const Params& p, const std::string& variant) {
  return predict(k.plan(p, variant, sm90()), sm90());
}

}  // namespace gridfuzz::affine::test
