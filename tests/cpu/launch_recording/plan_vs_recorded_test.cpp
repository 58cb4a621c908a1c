// The plan-vs-recorded comparison on recorded launches: agreement, and each kind of difference
// with both sides in the message.
#include <gtest/gtest.h>

#include "gridfuzz/device/plan_vs_recorded.hpp"

namespace gridfuzz::device {
namespace {

LaunchSpec spec(std::string name, Dim3 grid, Dim3 block, std::uint64_t smem = 0) {
  LaunchSpec s;
  s.name = std::move(name);
  s.grid = grid;
  s.block = block;
  s.dynamic_smem_bytes = smem;
  return s;
}

LaunchRecord recorded(const LaunchSpec& s) {
  LaunchRecord r;
  r.spec = s;
  r.spec.name = plan_kernel_name(s.name);  // the recorder keeps the base name of the symbol
  r.spec.func.num_regs = 40;               // attributes the plan does not predict: not compared
  return r;
}

LaunchPlan two_launches() {
  LaunchPlan p;
  p.launches.push_back(spec("quantize_q8_1", {28, 1, 8}, {256, 1, 1}));
  p.launches.push_back(spec("mul_mat_vec_q<q4_0,1>", {2048, 8, 1}, {32, 4, 1}));
  return p;
}

TEST(PlanVsRecorded, SameLaunchesAgree) {
  const LaunchPlan p = two_launches();
  EXPECT_EQ(plan_recorded_difference(p, {recorded(p.launches[0]), recorded(p.launches[1])}), std::nullopt);
}

TEST(PlanVsRecorded, ARefusedButPlannedLaunchStillAgrees) {
  const LaunchPlan p = two_launches();
  LaunchRecord refused = recorded(p.launches[1]);
  refused.code = CUDA_ERROR_INVALID_VALUE;
  refused.error = "CUDA_ERROR_INVALID_VALUE";
  EXPECT_EQ(plan_recorded_difference(p, {recorded(p.launches[0]), refused}), std::nullopt);
}

TEST(PlanVsRecorded, ARefusedLaunchWithoutANameIsComparedByGeometry) {
  const LaunchPlan p = two_launches();
  LaunchRecord refused = recorded(p.launches[1]);
  refused.spec.name.clear();  // CUPTI gives no symbol name for a launch the driver refuses
  refused.code = CUDA_ERROR_INVALID_VALUE;
  refused.error = "CUDA_ERROR_INVALID_VALUE";
  EXPECT_EQ(plan_recorded_difference(p, {recorded(p.launches[0]), refused}), std::nullopt);
  refused.spec.grid.y = 70000;
  EXPECT_TRUE(plan_recorded_difference(p, {recorded(p.launches[0]), refused}));
}

TEST(PlanVsRecorded, GridDifferenceNamesBothSides) {
  const LaunchPlan p = two_launches();
  LaunchRecord other = recorded(p.launches[1]);
  other.spec.grid = {1024, 8, 1};
  const auto d = plan_recorded_difference(p, {recorded(p.launches[0]), other});
  ASSERT_TRUE(d);
  EXPECT_NE(d->find("launch 1: grid (2048,8,1) planned, (1024,8,1) recorded"), std::string::npos) << *d;
  EXPECT_NE(d->find("plan: [quantize_q8_1"), std::string::npos) << *d;
  EXPECT_NE(d->find("recorded: [quantize_q8_1"), std::string::npos) << *d;
}

TEST(PlanVsRecorded, BlockSmemNameAndCountDifferences) {
  const LaunchPlan p = two_launches();
  LaunchRecord block = recorded(p.launches[1]);
  block.spec.block = {32, 2, 1};
  EXPECT_NE(plan_recorded_difference(p, {recorded(p.launches[0]), block})->find("block (32,4,1) planned"),
            std::string::npos);
  LaunchRecord smem = recorded(p.launches[1]);
  smem.spec.dynamic_smem_bytes = 512;
  EXPECT_NE(plan_recorded_difference(p, {recorded(p.launches[0]), smem})->find("dynamic smem 0 planned, 512"),
            std::string::npos);
  LaunchRecord name = recorded(p.launches[1]);
  name.spec.name = "mul_mat_vec_q_moe";
  EXPECT_NE(plan_recorded_difference(p, {recorded(p.launches[0]), name})->find("kernel mul_mat_vec_q planned, "
                                                                                 "mul_mat_vec_q_moe recorded"),
            std::string::npos);
  EXPECT_NE(plan_recorded_difference(p, {recorded(p.launches[0])})->find("2 launch(es) planned, 1 recorded"),
            std::string::npos);
}

TEST(PlanVsRecorded, PlanKernelNameCutsDecorations) {
  EXPECT_EQ(plan_kernel_name("mul_mat_vec_q<q4_0,1>"), "mul_mat_vec_q");
  EXPECT_EQ(plan_kernel_name("mul_mat_q (stream-k)"), "mul_mat_q");
  EXPECT_EQ(plan_kernel_name("quantize_q8_1"), "quantize_q8_1");
}

// The row's `regs`: the registers the driver reported for each launch made, where it is the plan's
// launch (by kernel and geometry); from the first difference on, unknown (0).
TEST(RecordedRegisters, AreTheLaunchesMadeWhereTheyAreThePlans) {
  const LaunchPlan p = two_launches();
  LaunchRecord harness_launch = recorded(p.launches[1]);
  harness_launch.spec.name = p.launches[1].name;  // the launcher records the plan's own name
  harness_launch.spec.func.num_regs = 72;
  EXPECT_EQ(recorded_registers(p, {recorded(p.launches[0]), harness_launch}), (std::vector<int>{40, 72}));
  // The call stopped after its first launch, or made no launch at all.
  EXPECT_EQ(recorded_registers(p, {recorded(p.launches[0])}), (std::vector<int>{40, 0}));
  EXPECT_EQ(recorded_registers(p, {}), (std::vector<int>{0, 0}));
  // Another kernel or grid than the plan's first launch: nothing is taken from there on.
  LaunchRecord other = recorded(p.launches[0]);
  other.spec.name = "dequantize";
  EXPECT_EQ(recorded_registers(p, {other, recorded(p.launches[1])}), (std::vector<int>{0, 0}));
  other = recorded(p.launches[0]);
  other.spec.grid.x = 29;
  EXPECT_EQ(recorded_registers(p, {other, recorded(p.launches[1])}), (std::vector<int>{0, 0}));
  // A refused launch CUPTI names no kernel for still has its function's registers.
  LaunchRecord refused = recorded(p.launches[1]);
  refused.spec.name.clear();
  refused.code = CUDA_ERROR_INVALID_VALUE;
  EXPECT_EQ(recorded_registers(p, {recorded(p.launches[0]), refused}), (std::vector<int>{40, 40}));
}

}  // namespace
}  // namespace gridfuzz::device
