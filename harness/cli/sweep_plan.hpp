#pragma once
// What a sweep runs, decided on the CPU: per kernel and variant, the model's boundaries and the
// cases at boundary-2..boundary+2 (others at defaults); and the rapidcheck generator of random
// shapes, biased to those boundaries and to each axis' ends.
#include <rapidcheck.h>

#include <vector>

#include "gridfuzz/case.hpp"
#include "gridfuzz/strategies.hpp"

namespace gridfuzz::cli {

struct SweepTarget {
  const Kernel* kernel = nullptr;
  std::string variant;
  std::vector<ModelBoundary> boundaries;
  std::vector<Case> boundary_cases;   // seed 1; the sweep sets its own
};

std::vector<SweepTarget> plan_sweep(const std::vector<const Kernel*>& kernels, const DeviceLimits& limits);

// Writes the case's replay string to DIR/<case id>.replay (one line), creating DIR; returns the
// path. The failure corpus (properties/corpus) is such a folder.
std::string save_to_corpus(const Case& c, const std::string& dir);

// Random valid-looking params (check() may still reject some: the caller discards those).
rc::Gen<Params> random_params(const Kernel& kernel, const std::vector<ModelBoundary>& boundaries);

}  // namespace gridfuzz::cli
