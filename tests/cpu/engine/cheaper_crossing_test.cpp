// A big case's crossing is planned with the axes it does not depend on lowered: the same crossing
// (every planned point keeps its prediction and its side of the width) at a fraction of the bytes.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "gridfuzz/predictor.hpp"
#include "gridfuzz/search/cheaper_crossing.hpp"
#include "gridfuzz/search/size_crossings.hpp"
#include "gridfuzz/search/strategies.hpp"
#include "gridfuzz/search/sweep_plan.hpp"
#include "host_only_case.hpp"

using namespace gridfuzz;

namespace {

// A GEMM-like call: out[tokens x rows] = x[tokens x cols] * w[rows x cols]^T, one block of 64
// threads per 64 rows and token (grid.y = tokens, refused past 65535). The inner dimension cols
// enters the bytes of x and w, not the output or the grid.
class GemmCase final : public test::HostOnlyCase {
 public:
  // x_index: the plan declares x's index, tokens * cols - 1, in this type (none: not declared).
  // tokens_on_x: tokens on grid.x (to 2^31 - 1) and the rows' blocks on grid.y, so a launch runs
  // far past 65535 tokens.
  GemmCase(std::uint64_t tokens, std::uint64_t rows, std::uint64_t cols, bool int32_out,
           std::optional<IndexType> x_index = std::nullopt, bool tokens_on_x = false)
      : tokens_(tokens), rows_(rows), cols_(cols), int32_out_(int32_out), x_index_(x_index), tokens_on_x_(tokens_on_x) {}
  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    if (tokens_on_x_) plan.launches.push_back({"gemm", {tokens_, (rows_ + 63) / 64, 1}, {64, 1, 1}});
    else plan.launches.push_back({"gemm", {(rows_ + 63) / 64, tokens_, 1}, {64, 1, 1}});
    if (int32_out_) plan.indices.push_back({"out_index", static_cast<u128>(tokens_) * rows_ - 1, IndexType::int32});
    if (x_index_) plan.indices.push_back({"x_index", static_cast<u128>(tokens_) * cols_ - 1, *x_index_});
    return plan;
  }
  std::vector<BufferSpec> buffers() const override {
    return {{"x", BufferRole::input, ElementType::bf16, tokens_ * cols_},
            {"w", BufferRole::input, ElementType::u8, rows_ * cols_},
            {"out", BufferRole::output, ElementType::f32, tokens_ * rows_}};
  }

 private:
  std::uint64_t tokens_, rows_, cols_;
  bool int32_out_;
  std::optional<IndexType> x_index_;
  bool tokens_on_x_;
};

class GemmKernel : public Kernel {
 public:
  // int32_out: the output is indexed by tokens * rows in int32 (wraps past 2^31 elements).
  // tokens_on_x: the launch takes tokens on grid.x (GemmCase), so it is not refused past 65535.
  explicit GemmKernel(bool int32_out = false, bool tokens_on_x = false)
      : int32_out_(int32_out), tokens_on_x_(tokens_on_x) {}
  // Variants: `int32` forms the output index in int32, `int32_x` x's index too, `wide` the
  // output's in 64 bits, `wide_x` too and declares x's 64-bit index; rows by default `rows` (one
  // not a power of two puts the int32 index's wrap and the output's 2^31 elements at one token
  // count).
  static GemmKernel int32_and_wide(std::string rows) {
    GemmKernel k(false, /*tokens_on_x=*/true);
    k.variants_ = {"int32", "int32_x", "wide", "wide_x"};
    k.rows_ = std::move(rows);
    return k;
  }
  std::string name() const override { return "test.gemm"; }
  std::string description() const override { return "out = x * w^T"; }
  std::vector<std::string> variants() const override { return variants_; }
  std::vector<AxisSpec> axes() const override {
    return {{"tokens", "tokens", "16", {}, 1, 1 << 24, 1},
            {"rows", "rows", rows_, {}, 64, 1 << 22, 64},
            {"cols", "inner dimension", "8192", {}, 32, 1 << 16, 32}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    std::optional<IndexType> x_index;
    if (variant == "int32_x") x_index = IndexType::int32;
    if (variant == "wide_x") x_index = IndexType::int64;
    return std::make_unique<GemmCase>(p.get_u64("tokens"), p.get_u64("rows"), p.get_u64("cols"),
                                      variant.starts_with("int32") || (variant == "only" && int32_out_), x_index,
                                      tokens_on_x_);
  }

 private:
  bool int32_out_, tokens_on_x_;
  std::vector<std::string> variants_{"only"};
  std::string rows_ = "4096";
};

// By value: the crossings are found into a temporary vector.
ModelBoundary find(const std::vector<ModelBoundary>& found, const std::string& rule) {
  for (const auto& b : found)
    if (b.rule == rule && b.becomes_bad) return b;
  throw std::runtime_error("no crossing " + rule);
}

Params with(Params p, const std::string& axis, std::int64_t v) {
  p.set(axis, std::to_string(v));
  return p;
}

// Every planned point of `b` predicts the same from `a` as from `start`.
void expect_same_points(const Kernel& k, const ModelBoundary& b, const Params& start, const Params& moved,
                        const DeviceLimits& limits) {
  for (int d = -b.before; d <= b.after; ++d) {
    const std::int64_t v = b.first_bad + d;
    const Params p = with(start, b.axis, v), q = with(moved, b.axis, v);
    const Prediction pp = predict(k.bind(p, "only")->plan(limits), limits), pq = predict(k.bind(q, "only")->plan(limits), limits);
    EXPECT_EQ(pp.outcome, pq.outcome) << b.rule << " at " << v;
    if (b.threshold > 0) {
      EXPECT_EQ(call_size_named(k, "only", p, limits, b.signal) >= b.threshold,
                call_size_named(k, "only", q, limits, b.signal) >= b.threshold)
          << b.rule << " at " << v;
    }
  }
}

}  // namespace

TEST(CheaperCrossing, AGridLimitAlongTokensDropsTheAxesItDoesNotDependOn) {
  GemmKernel k;
  const DeviceLimits limits = *device_preset("sm_90");
  const Params start = Params::defaults(k.axes());
  const ModelBoundary grid_y = find(model_boundaries(k, "only", start, limits), "refuse:grid.y");
  ASSERT_EQ(grid_y.first_bad, 65536);
  const Params cheaper = cheaper_crossing_start(k, "only", start, grid_y, limits, {});
  EXPECT_EQ(cheaper.get("tokens"), "16") << "the crossing's own axis is the start's";
  EXPECT_EQ(cheaper.get("cols"), "32") << "the inner dimension is not in grid.y";
  EXPECT_EQ(cheaper.get("rows"), "64") << "nor is rows: grid.x changes, grid.y is what is refused";
  expect_same_points(k, grid_y, start, cheaper, limits);
  EXPECT_LT(case_device_bytes(k, with(cheaper, "tokens", 65536)), case_device_bytes(k, with(start, "tokens", 65536)) / 50)
      << "x and w shrink with cols, out with rows: about 1/86 of the bytes";
}

TEST(CheaperCrossing, ASizeCrossingKeepsTheAxesOfItsSize) {
  GemmKernel k;
  const DeviceLimits limits = *device_preset("sm_90");
  const Params start = Params::defaults(k.axes());
  // w's elements rows * cols reach 2^31 along rows at cols 8192: rows 262144.
  const ModelBoundary w31 = find(size_crossings(k, "only", start, limits), "size:buffer w elements >= 2^31");
  ASSERT_EQ(w31.first_bad, 262144);
  const Params cheaper = cheaper_crossing_start(k, "only", start, w31, limits, {});
  EXPECT_EQ(cheaper.get("cols"), "8192") << "cols is in w's elements: moving it would move the crossing";
  EXPECT_EQ(cheaper.get("tokens"), "1") << "tokens is not";
  expect_same_points(k, w31, start, cheaper, limits);
}

TEST(CheaperCrossing, ASmallCaseStaysAsFound) {
  GemmKernel k;
  const DeviceLimits limits = *device_preset("sm_90");
  const Params start = Params::defaults(k.axes());
  const ModelBoundary grid_y = find(model_boundaries(k, "only", start, limits), "refuse:grid.y");
  EXPECT_EQ(cheaper_crossing_start(k, "only", start, grid_y, limits, {}, UINT64_MAX), start) << "under the bytes: as found";
}

TEST(CheaperCrossing, AModelsOwnValueMovesOnlyWhereTheModelsBoundaryStays) {
  GemmKernel k(/*int32_out=*/true);
  const DeviceLimits limits = *device_preset("sm_90");
  const Params start = Params::defaults(k.axes());
  // grid.y = tokens turns at 65536; the riskiest index is tokens * rows - 1 (2^28 there, safe).
  const ModelBoundary grid_y = find(model_boundaries(k, "only", start, limits), "refuse:grid.y");
  const Params free = cheaper_crossing_start(k, "only", start, grid_y, limits, {});
  EXPECT_EQ(free.get("rows"), "64") << "a plain axis moves wherever the prediction stays";
  const Params model = cheaper_crossing_start(k, "only", start, grid_y, limits, {"rows", "cols"});
  EXPECT_EQ(model.get("rows"), "4096") << "rows is in the riskiest index: the model's value stays";
  EXPECT_EQ(model.get("cols"), "32") << "cols is in no grid dimension and no index: it only multiplies the work";
  expect_same_points(k, grid_y, start, model, limits);
  for (const std::int64_t tokens : {65535, 65536}) {
    const Prediction a = predict(k.bind(with(start, "tokens", tokens), "only")->plan(limits), limits);
    const Prediction b = predict(k.bind(with(model, "tokens", tokens), "only")->plan(limits), limits);
    ASSERT_NE(a.riskiest_index(), nullptr);
    ASSERT_NE(b.riskiest_index(), nullptr);
    EXPECT_EQ(a.riskiest_index()->max_value, b.riskiest_index()->max_value) << "at " << tokens << " tokens";
  }
}

TEST(CheaperCrossing, AWrapsCrossingMovesOnlyWhatItsWrapAndItsGridDoNotDependOn) {
  GemmKernel k(/*int32_out=*/true);
  const DeviceLimits limits = *device_preset("sm_90");
  const Params start = Params::defaults(k.axes());
  // The last index, tokens * rows - 1, passes 2^31 - 1 at 524289 tokens (rows 4096): a wrap whose
  // effect depends on the offsets it forms. cols is in no grid dimension and no index: it moves;
  // rows is in both: it stays.
  const ModelBoundary wrap = find(model_boundaries(k, "only", start, limits), "wrap:out_index");
  ASSERT_EQ(wrap.first_bad, 524289);
  const Params cheaper = cheaper_crossing_start(k, "only", start, wrap, limits, {});
  EXPECT_EQ(cheaper.get("cols"), "32");
  EXPECT_EQ(cheaper.get("rows"), "4096");
  expect_same_points(k, wrap, start, cheaper, limits);
  for (const std::int64_t tokens : {524288, 524289}) {
    const Prediction a = predict(k.bind(with(start, "tokens", tokens), "only")->plan(limits), limits);
    const Prediction b = predict(k.bind(with(cheaper, "tokens", tokens), "only")->plan(limits), limits);
    EXPECT_EQ(a.index_wrap(), b.index_wrap()) << "at " << tokens << " tokens";
    EXPECT_EQ(a.indices.at(0).max_value, b.indices.at(0).max_value) << "at " << tokens << " tokens";
  }
}

TEST(CheaperCrossing, AnAxisInAWrappingIndexStaysThoughTheWrapsAreTheSame) {
  const GemmKernel k = GemmKernel::int32_and_wide("4096");
  const DeviceLimits limits = *device_preset("sm_90");
  const Params start = with(Params::defaults(k.axes()), "cols", 32768);
  // int32_x forms x's index, tokens * cols - 1, in int32 too: it wraps at every point of the output
  // index's crossing, and still does at cols 8192 (the same predicted wraps, the largest value a
  // quarter): cols is in a wrapping index, so it stays where the int32 variant's moves.
  const ModelBoundary wrap = find(model_boundaries(k, "int32_x", start, limits), "wrap:out_index");
  ASSERT_EQ(wrap.first_bad, 524289);
  const Prediction at_8192 = predict(k.bind(with(with(start, "cols", 8192), "tokens", 524288), "int32_x")->plan(limits), limits);
  ASSERT_EQ(at_8192.index_wrap(), "wrap:x_index") << "the lowered shape predicts the same wrap";
  EXPECT_EQ(cheaper_crossing_start(k, "int32_x", start, wrap, limits, {}), start);
  EXPECT_EQ(cheaper_crossing_start(k, "int32", start, wrap, limits, {}).get("cols"), "32");
  // The int32 variant's grid.y crossing has no wrap among its points: cols moves there as before.
  const ModelBoundary grid_y = find(model_boundaries(k, "int32", start, limits), "refuse:grid.y");
  EXPECT_EQ(cheaper_crossing_start(k, "int32", start, grid_y, limits, {}).get("cols"), "32");
}

TEST(CheaperCrossing, ThePlanTestsEachBigCrossingAtItsCheaperShape) {
  GemmKernel k;
  const DeviceLimits limits = *device_preset("sm_90");
  const SweepPlan plan = plan_sweep({&k}, limits);
  EXPECT_GT(plan.cheaper_crossings, 0u);
  ASSERT_EQ(plan.targets.size(), 1u);
  bool cheap_grid_y = false, full_grid_y = false;
  for (const Case& c : plan.targets[0].boundary_cases) {
    if (c.params.get("tokens") != "65536") continue;
    cheap_grid_y |= c.params.get("cols") == "32";
    full_grid_y |= c.params.get("cols") == "8192" && c.params.get("rows") == "4096";
  }
  EXPECT_TRUE(cheap_grid_y);
  EXPECT_FALSE(full_grid_y) << "the big shape of that crossing is not planned as well";
  const SweepPlan as_found = plan_sweep({&k}, limits, {.cheaper_crossing_above_bytes = UINT64_MAX});
  EXPECT_EQ(as_found.cheaper_crossings, 0u);
}

TEST(CheaperCrossing, ACrossingStillBigIsPlannedAtItsTwoSidesOnly) {
  GemmKernel k(/*int32_out=*/true, /*tokens_on_x=*/true);
  const DeviceLimits limits = *device_preset("sm_90");
  const Params start = Params::defaults(k.axes());
  // The wrap of tokens * rows - 1 at 524289 tokens keeps rows (the wrapping index's), where the
  // output alone is 8 GiB: planned at 524288 and 524289, not at the three beyond.
  const auto tokens_at_start = [&](const SweepPlan& plan) {
    std::set<std::string> tokens;
    for (const Case& c : plan.targets.at(0).boundary_cases)
      if (c.params.get("rows") == start.get("rows")) tokens.insert(c.params.get("tokens"));
    return tokens;
  };
  const std::set<std::string> planned = tokens_at_start(plan_sweep({&k}, limits));
  EXPECT_TRUE(planned.contains("524288"));
  EXPECT_TRUE(planned.contains("524289"));
  EXPECT_FALSE(planned.contains("524290"));
  EXPECT_FALSE(planned.contains("524291"));
  // As found, every point of the crossing is planned: the two-point rule is what left them out.
  const std::set<std::string> as_found = tokens_at_start(
      plan_sweep({&k}, limits, {.cheaper_crossing_above_bytes = UINT64_MAX, .repeated_size_crossings = 0}));
  EXPECT_TRUE(as_found.contains("524290"));
  EXPECT_TRUE(as_found.contains("524291"));
}

TEST(CheaperCrossing, WhereOneVariantsCrossingStaysAtItsStartAnotherRunsItCheaperOnlyWithTheModelsBoundaryKept) {
  const GemmKernel k = GemmKernel::int32_and_wide("4032");
  const DeviceLimits limits = *device_preset("sm_90");
  const Params start = Params::defaults(k.axes());
  // 2^31 / 4032 = 532610.03: both crossings turn at 532611 tokens.
  const ModelBoundary wrap = find(model_boundaries(k, "int32", start, limits), "wrap:out_index");
  const ModelBoundary wrap_x = find(model_boundaries(k, "int32_x", start, limits), "wrap:out_index");
  const ModelBoundary out31 = find(size_crossings(k, "wide", start, limits), "size:buffer out elements >= 2^31");
  ASSERT_EQ(wrap.first_bad, 532611);
  ASSERT_EQ(wrap_x.first_bad, 532611);
  ASSERT_EQ(out31.first_bad, 532611);
  // int32_x's crossing stays at the start shape: x's int32 index wraps at its points (532610 x
  // 8192 > 2^31) and still does at cols 4096 with another value. The int32 variant's moves to
  // cols 32 (its wrapping index and grid do not depend on cols), and so does the wide variant's
  // even with the model's boundary kept for every axis: its grid turns in y alone, and it declares
  // no index. wide_x declares x's index, tokens * cols - 1: with every axis held, cols stays.
  ASSERT_EQ(cheaper_crossing_start(k, "int32_x", start, wrap_x, limits, {}), start);
  std::set<std::string> every_axis{"tokens", "rows", "cols"};
  ASSERT_EQ(cheaper_crossing_start(k, "int32", start, wrap, limits, every_axis).get("cols"), "32");
  ASSERT_EQ(cheaper_crossing_start(k, "wide", start, out31, limits, every_axis).get("cols"), "32");
  ASSERT_EQ(cheaper_crossing_start(k, "wide_x", start, out31, limits, {}).get("cols"), "32");
  ASSERT_EQ(cheaper_crossing_start(k, "wide_x", start, out31, limits, every_axis), start);
  // So int32, wide and wide_x test that crossing at cols 32 only (wide_x's size crossing is
  // model-blind: its cheaper shape tests it); int32_x at the start shape (there the wrap it
  // reports turns from x's index to the output's) and at the cheap points too.
  std::map<std::string, std::set<std::string>> cols_at_crossing;  // by variant
  const SweepPlan plan = plan_sweep({&k}, limits);
  for (const SweepTarget& t : plan.targets)
    for (const Case& c : t.boundary_cases)
      if (c.params.get("tokens") == "532610" || c.params.get("tokens") == "532611")
        cols_at_crossing[t.variant].insert(c.params.get("cols"));
  EXPECT_EQ(cols_at_crossing["int32"], (std::set<std::string>{"32"}));
  EXPECT_EQ(cols_at_crossing["wide"], (std::set<std::string>{"32"}));
  EXPECT_EQ(cols_at_crossing["int32_x"], (std::set<std::string>{"32", "8192"}));
  EXPECT_EQ(cols_at_crossing["wide_x"], (std::set<std::string>{"32"}));
  // As found, every variant runs the start shape's points too.
  std::map<std::string, std::set<std::string>> as_found;
  const SweepPlan all = plan_sweep({&k}, limits, {.cheaper_crossing_above_bytes = UINT64_MAX, .repeated_size_crossings = 0});
  for (const SweepTarget& t : all.targets)
    for (const Case& c : t.boundary_cases)
      if (c.params.get("tokens") == "532610" || c.params.get("tokens") == "532611") as_found[t.variant].insert(c.params.get("cols"));
  for (const char* variant : {"int32", "int32_x", "wide", "wide_x"})
    EXPECT_EQ(as_found[variant], (std::set<std::string>{"8192"})) << variant;
}

namespace {

// A GEMM whose activations are quantized first: a `quantize` launch of grid (tokens, cols / 32)
// before the `gemm` launch of grid (tokens, rows / 64), and `banks` weight banks that only add
// bytes. Variant `int32` forms the output index tokens * rows - 1 in int32; `wide` declares none.
class QuantizedGemmCase final : public test::HostOnlyCase {
 public:
  QuantizedGemmCase(std::uint64_t tokens, std::uint64_t rows, std::uint64_t cols, std::uint64_t banks, bool int32_out)
      : tokens_(tokens), rows_(rows), cols_(cols), banks_(banks), int32_out_(int32_out) {}
  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    plan.launches.push_back({"quantize", {tokens_, cols_ / 32, 1}, {32, 1, 1}});
    plan.launches.push_back({"gemm", {tokens_, (rows_ + 63) / 64, 1}, {64, 1, 1}});
    if (int32_out_) plan.indices.push_back({"out_index", static_cast<u128>(tokens_) * rows_ - 1, IndexType::int32});
    return plan;
  }
  std::vector<BufferSpec> buffers() const override {
    return {{"x", BufferRole::input, ElementType::bf16, tokens_ * cols_},
            {"w", BufferRole::input, ElementType::u8, banks_ * rows_ * cols_},
            {"out", BufferRole::output, ElementType::f32, tokens_ * rows_}};
  }

 private:
  std::uint64_t tokens_, rows_, cols_, banks_;
  bool int32_out_;
};

class QuantizedGemmKernel final : public Kernel {
 public:
  std::string name() const override { return "test.qgemm"; }
  std::string description() const override { return "out = quantize(x) * w^T"; }
  std::vector<std::string> variants() const override { return {"int32", "wide"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"tokens", "tokens", "16", {}, 1, 1 << 24, 1},
            {"rows", "rows", "4032", {}, 64, 1 << 22, 64},
            {"cols", "inner dimension", "8192", {}, 32, 1 << 16, 32},
            {"banks", "weight banks", "16", {}, 1, 64, 1}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<QuantizedGemmCase>(p.get_u64("tokens"), p.get_u64("rows"), p.get_u64("cols"),
                                               p.get_u64("banks"), variant == "int32");
  }
};

}  // namespace

TEST(CheaperCrossing, AVariantTestedAtItsOwnShapeSkipsTheMovedShapeOfAWrapAtTheSamePoint) {
  const QuantizedGemmKernel k;
  const DeviceLimits limits = *device_preset("sm_90");
  const Params start = Params::defaults(k.axes());
  // Both crossings turn at 532611 tokens (2^31 / 4032). The int32 variant's wrap keeps its
  // wrapping index's largest value, tokens * rows - 1, which neither cols (the quantize launch's
  // grid.y, not the crossing's turning dimension) nor the banks enter: both go. The wide variant's
  // output-size crossing keeps its model's boundary for every axis at cols 32 and one bank.
  const ModelBoundary wrap = find(model_boundaries(k, "int32", start, limits), "wrap:out_index");
  const ModelBoundary out31 = find(size_crossings(k, "wide", start, limits), "size:buffer out elements >= 2^31");
  ASSERT_EQ(wrap.first_bad, 532611);
  ASSERT_EQ(out31.first_bad, 532611);
  const Params wrap_shape = cheaper_crossing_start(k, "int32", start, wrap, limits, {});
  EXPECT_EQ(wrap_shape.get("cols"), "32");
  EXPECT_EQ(wrap_shape.get("banks"), "1");
  EXPECT_EQ(wrap_shape.get("rows"), "4032") << "the wrapping index's own axis stays";
  const std::set<std::string> every_axis{"tokens", "rows", "cols", "banks"};
  const Params wide_shape = cheaper_crossing_start(k, "wide", start, out31, limits, every_axis);
  ASSERT_EQ(wide_shape.get("cols"), "32");
  ASSERT_EQ(cheaper_crossing_start(k, "wide", start, out31, limits, {}), wide_shape);
  // So both run that crossing at cols 32 only.
  std::map<std::string, std::set<std::string>> cols_at_crossing;  // by variant
  const SweepPlan plan = plan_sweep({&k}, limits);
  for (const SweepTarget& t : plan.targets)
    for (const Case& c : t.boundary_cases)
      if (c.params.get("tokens") == "532610" || c.params.get("tokens") == "532611")
        cols_at_crossing[t.variant].insert(c.params.get("cols"));
  EXPECT_EQ(cols_at_crossing["wide"], (std::set<std::string>{"32"}));
  EXPECT_EQ(cols_at_crossing["int32"], (std::set<std::string>{"32"}));
}

namespace {

// A GEMV over `vectors` whose activations are quantized first in chunks of at most 65535 vectors
// (grid.y): past 65535 vectors a second `quantize` launch comes before the `gemv`, whose grid is
// (rows, vectors) and refused past 65535. The riskiest index is x's, vectors * cols - 1.
class ChunkedQuantizeGemvCase final : public test::HostOnlyCase {
 public:
  ChunkedQuantizeGemvCase(std::uint64_t vectors, std::uint64_t rows, std::uint64_t cols)
      : vectors_(vectors), rows_(rows), cols_(cols) {}
  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    auto launch = [&](const char* name, Dim3 grid) {
      LaunchSpec l;
      l.name = name;
      l.grid = grid;
      l.block = {32, 1, 1};
      plan.launches.push_back(l);
    };
    for (std::uint64_t done = 0; done < vectors_; done += 65535)
      launch("quantize", {cols_ / 32, std::min<std::uint64_t>(vectors_ - done, 65535), 1});
    launch("gemv", {rows_, vectors_, 1});
    plan.indices.push_back({"x_index", static_cast<u128>(vectors_) * cols_ - 1, IndexType::int64});
    return plan;
  }
  std::vector<BufferSpec> buffers() const override {
    return {{"x", BufferRole::input, ElementType::f32, vectors_ * cols_},
            {"w", BufferRole::input, ElementType::u8, rows_ * cols_},
            {"out", BufferRole::output, ElementType::f32, vectors_ * rows_}};
  }

 private:
  std::uint64_t vectors_, rows_, cols_;
};

class ChunkedQuantizeGemvKernel final : public Kernel {
 public:
  std::string name() const override { return "test.chunked_quantize_gemv"; }
  std::string description() const override { return "out = quantize(x) * w^T, x quantized in chunks"; }
  std::vector<std::string> variants() const override { return {"only"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"vectors", "vectors", "8", {}, 1, 1 << 24, 1},
            {"rows", "rows", "8192", {}, 1, 1 << 20, 1},
            {"cols", "inner dimension", "28672", {}, 32, 1 << 20, 32}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string&) const override {
    return std::make_unique<ChunkedQuantizeGemvCase>(p.get_u64("vectors"), p.get_u64("rows"), p.get_u64("cols"));
  }
};

}  // namespace

TEST(CheaperCrossing, ALaunchAddedAtTheCrossingIsNotMistakenForTheOneItPushesAlong) {
  // At 65536 vectors the second quantize launch comes second and the gemv third: compared by
  // position, the gemv's grid.x (rows) looked as if it turned along the crossing, and a model's
  // rows stayed at 8192 though nothing of the boundary depends on them (the dense mmvq's 65535
  // vectors took 15 s a case on an H100, evidence/2026-12-06-h100-whole-plan).
  const ChunkedQuantizeGemvKernel k;
  const DeviceLimits limits = *device_preset("sm_90");
  const Params start = Params::defaults(k.axes());
  const ModelBoundary grid_y = find(model_boundaries(k, "only", start, limits), "refuse:grid.y");
  ASSERT_EQ(grid_y.first_bad, 65536);
  const Params model = cheaper_crossing_start(k, "only", start, grid_y, limits, {"rows", "cols"});
  EXPECT_EQ(model.get("rows"), "1") << "rows is only the gemv's grid.x, which does not turn";
  EXPECT_EQ(model.get("cols"), "28672") << "cols is in the riskiest index: the model's value stays";
  expect_same_points(k, grid_y, start, model, limits);
}
