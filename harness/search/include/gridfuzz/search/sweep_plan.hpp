#pragma once
// What a sweep runs, decided on the CPU. Per kernel, the shapes it starts from (its defaults and
// every model profile shape it takes); from each, the boundaries the model predicts and the
// values where a size of the call crosses an integer width, 2^8 to 2^32 (size_crossings.hpp);
// every such point (at -2..+2 steps; a narrow width's at the last value below and the first
// above) is run for EVERY variant of the kernel, so a fix is proven exactly where its twin
// breaks. And the rapidcheck generator of random shapes, biased to those boundaries.
#include <rapidcheck.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/core/axis_predicate.hpp"
#include "gridfuzz/core/case.hpp"
#include "gridfuzz/core/model_profiles.hpp"
#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/search/cheaper_crossing.hpp"
#include "gridfuzz/search/strategies.hpp"

namespace gridfuzz {

// What the plan knows of a case before it runs, for what it will cost (cost_order.hpp).
struct CaseSize {
  std::uint64_t bytes = 0;    // device memory it needs
  std::uint64_t threads = 0;  // threads its production call launches (its launches' grid x block)
  // What the model predicts: the call runs, an index wraps (it may fault at once or run whole),
  // or the launch is refused (or the host code fails): that ends in milliseconds, whatever the size.
  enum class Outcome { runs, wraps, refused } predicted = Outcome::runs;
};

struct SweepTarget {
  const Kernel* kernel = nullptr;
  std::string variant;
  std::vector<ModelBoundary> boundaries;  // of this variant, from every start shape (random anchors)
  std::vector<Case> boundary_cases;       // seed 1; the sweep sets its own
  std::vector<int> tiers;                 // of each boundary case (SweepTier), ascending
  std::vector<CaseSize> sizes;            // of each boundary case, as planned (cost_order.hpp)
};

// The order boundary cases run in, across all targets, so a time budget cuts the least telling
// first: the start shapes and the model's predicted boundaries from the defaults, then those from
// the model profiles' shapes, then the size crossings from the defaults, then from the profiles.
// Last, apart: the speed tier, every variant at each start shape (the defaults and the model
// profiles' shapes) once more: the small fixed set a nightly times (`--tiers speed --timing`);
// `all` is the four boundary tiers without it.
enum SweepTier : int { kDefaultBoundaries = 0, kProfileBoundaries = 1, kDefaultSizes = 2, kProfileSizes = 3, kSpeed = 4 };

// The tiers' names on the command line (`sweep --tiers`), in SweepTier order, then "all" (the
// boundary tiers, not speed) and "none".
std::vector<std::string> boundary_tier_names();

// A boundary tier (SweepTier) as the vocabulary's value, whose word is its name on the command line
// and in the CSV's `tier` column (gridfuzz/core/vocabulary.hpp: kBoundaryTiers, in SweepTier order).
CaseTier boundary_case_tier(int tier);

struct SweepPlanOptions {
  std::vector<const ModelProfile*> profiles;  // start shapes besides the defaults
  std::vector<std::string> variants;          // run only these (empty: all); boundaries still come from all
  // A crossing whose case needs more device bytes than this is planned at its cheaper start shape
  // (cheaper_crossing.hpp), and one still over it there at its last value before and its first
  // after only; UINT64_MAX: every crossing at its start shape as found, at every point.
  std::uint64_t cheaper_crossing_above_bytes = kCheaperCrossingAboveBytes;
  // Repeated crossings (the same variant, axis and rule, the same predictions at every point):
  // a size crossing found from several start shapes is planned at this many of them, the
  // defaults' first, then the cheapest (one: the same test once); a model boundary that recurs along one start shape's axis
  // where it first occurs; and each crossing's points are run only by the variants they tell
  // something about (docs/MODELS.md, "Repeated crossings"). 0: every crossing as often as it is
  // found, at every point, for every variant (--crossings-as-found).
  std::size_t repeated_size_crossings = 1;
  // Every case's launches planned and predicted for its CaseSize (threads, outcome), as
  // `sweep --order cost` prices them; without, a CaseSize holds the bytes alone.
  bool sizes = false;
  // Planning stops here (a time budget sets it): the start shapes not reached by then plan no
  // boundary cases, and a note says how many; their kernels still have their targets (random
  // cases). A kernel's start shape once begun is planned whole.
  std::optional<std::chrono::steady_clock::time_point> plan_until{};
};

struct SweepPlan {
  std::vector<SweepTarget> targets;
  std::vector<std::string> notes;  // what was left out and why (shapes a kernel refuses, cases over memory)
  std::size_t cheaper_crossings = 0;  // crossings planned at a cheaper start shape
};

SweepPlan plan_sweep(const std::vector<const Kernel*>& kernels, const DeviceLimits& limits,
                     const SweepPlanOptions& options = {});

// Drops the boundary cases of every tier not named (names from boundary_tier_names(); "all" keeps
// everything, "none" drops every boundary case, leaving the random cases).
void keep_boundary_tiers(SweepPlan& plan, const std::vector<std::string>& names);

// Drops the boundary cases that do not satisfy `where` (`sweep --where`), and the targets whose
// kernel lacks one of its axes (a note names them). The random cases are filtered as they are
// drawn (SweepSettings::where).
void keep_matching_cases(SweepPlan& plan, const AxisFilter& where);

// Device bytes a case needs: its buffers with guard zones, and the split reference's outputs
// (the most any variant needs: the sweep runs one shape for every variant).
std::uint64_t case_device_bytes(const Kernel& kernel, const Params& p);

// The variant's case at `p`, `bytes` its device memory: the threads its production call launches
// (every launch's grid x block, saturating; 0 when its host code launches nothing) and what the
// model predicts of it.
CaseSize planned_size(const Kernel& kernel, const Params& p, const std::string& variant, const DeviceLimits& limits,
                      std::uint64_t bytes);

// Random valid-looking params (check() may still reject some: the caller discards those).
rc::Gen<Params> random_params(const Kernel& kernel, const std::vector<ModelBoundary>& boundaries);

}  // namespace gridfuzz
