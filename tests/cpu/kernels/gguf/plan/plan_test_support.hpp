#pragma once
// Shared helpers of the GGUF plan tests: kernels, params, and the sm_90 preset.
#include <gtest/gtest.h>

#include <string>

#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/gguf/register.hpp"
#include "gridfuzz/predictor.hpp"

namespace gridfuzz::gguf::testing {

inline DeviceLimits sm90() { return *device_preset("sm_90"); }

// The kernel's defaults (gemma-4 gate/up, q4_0) with `overrides` ("tokens=8192,top_k=8").
inline Params params_for(const Kernel& k, const std::string& overrides) {
  Params p = Params::defaults(k.axes());
  if (!overrides.empty()) {
    const Params extra = Params::parse(overrides);
    for (const auto& [name, value] : extra.values()) p.set(name, value);
  }
  return p;
}

inline Prediction predict_for(const Kernel& k, const std::string& variant, const std::string& overrides) {
  const Params p = params_for(k, overrides);
  if (auto err = k.check(p)) ADD_FAILURE() << *err;
  return predict(k.plan(p, variant, sm90()), sm90());
}

// The verdict of one named index of a plan (fails the test when the plan has no such index).
inline IndexVerdict index_named(const Kernel& k, const std::string& variant, const std::string& overrides,
                                const std::string& name) {
  const Params p = params_for(k, overrides);
  for (const IndexRange& r : k.plan(p, variant, sm90()).indices)
    if (r.name == name) return check_index(r);
  ADD_FAILURE() << "no index named " << name;
  return {};
}

}  // namespace gridfuzz::gguf::testing
