// Recorded launches (planted_launches.log: hand-written lines in the injection library's format,
// near each limit, one refused, one zero grid, one refused by the runtime with no geometry, one the
// model judges otherwise than the driver did) replayed through the model against the sm_90
// preset: the headroom of each limit, the ranking, the CSV and the console table.
#include <gtest/gtest.h>

#include "gridfuzz/reports/watch_report.hpp"
#include "gridfuzz/watch/launch_headroom.hpp"
#include "gridfuzz/watch/launch_log.hpp"
#include "temp_dir.hpp"

namespace gridfuzz::watch {
namespace {

const DeviceLimits& sm90() {
  static const DeviceLimits limits = *device_preset("sm_90");
  return limits;
}

std::vector<KernelHeadroom> planted() {
  const LaunchLog log = read_launch_log(testing::slurp(GRIDFUZZ_PLANTED_LOG));
  EXPECT_EQ(log.problems.size(), 1u) << "the n=oops line";
  return judge_launches(log.launches, sm90());
}

const KernelHeadroom& find(const std::vector<KernelHeadroom>& ks, const std::string& name) {
  for (const auto& k : ks)
    if (k.name == name) return k;
  throw std::runtime_error("no kernel " + name);
}

LimitUse use_of(const KernelHeadroom& k, Rule r) {
  for (const LimitUse& u : k.uses)
    if (u.rule == r) return u;
  throw std::runtime_error("no use of " + to_string(r));
}

TEST(LaunchHeadroom, RanksRefusedAndZeroGridsFirstThenTheSmallestHeadroom) {
  std::vector<std::string> order;
  for (const auto& k : planted()) order.push_back(k.name);
  EXPECT_EQ(order, (std::vector<std::string>{"refused_y", "zero_grid", "rt_refused", "odd_smem", "full_block", "near_z",
                                             "near_y", "big_smem", "sm90_xmma_gemm_f32"}));
}

TEST(LaunchHeadroom, EachLimitsLargestUse) {
  const auto ks = planted();
  const KernelHeadroom& y = find(ks, "near_y");
  EXPECT_EQ(y.launches, 5u) << "3 in pid 100 (its largest n), 2 in pid 200";
  EXPECT_EQ(y.max_grid, (Dim3{1, 61440, 1}));
  ASSERT_TRUE(y.tightest);
  EXPECT_EQ(y.tightest->describe(), "grid.y 61440 of 65535: 93.8 %");
  EXPECT_EQ(use_of(y, Rule::regs).value, 8192u) << "32 registers x 256 threads";

  const KernelHeadroom& z = find(ks, "near_z");
  EXPECT_EQ(z.tightest->describe(), "grid.z 65535 of 65535: 100.0 %");
  const KernelHeadroom& b = find(ks, "full_block");
  EXPECT_EQ(use_of(b, Rule::block_threads).describe(), "block.threads 1024 of 1024: 100.0 %");
  EXPECT_EQ(use_of(b, Rule::regs).describe(), "regs 32768 of 65536: 50.0 %");

  const KernelHeadroom& s = find(ks, "big_smem");
  const LimitUse smem = use_of(s, Rule::smem_optin);  // opted in: its maximum dynamic size was raised
  EXPECT_EQ(smem.value, 216384u);
  EXPECT_EQ(smem.limit, 232448u);
  EXPECT_EQ(s.max_smem_bytes, 216384u);
  EXPECT_EQ(s.model_disagreements, 0u);
}

TEST(LaunchHeadroom, RefusedLaunchesAreNamedWithTheModelsReason) {
  const auto ks = planted();
  const KernelHeadroom& r = find(ks, "refused_y");
  EXPECT_EQ(r.refused, 1u);
  EXPECT_EQ(r.first_error, "CUDA_ERROR_INVALID_VALUE");
  EXPECT_EQ(r.first_refusal, "grid=(1,65536,1) block=(32,1,1) smem=0: model refuse:grid.y (grid.y 65536 > 65535)");
  EXPECT_EQ(r.model_disagreements, 0u);

  const KernelHeadroom& zero = find(ks, "zero_grid");
  EXPECT_EQ(zero.zero_grids, 1u);
  EXPECT_EQ(zero.refused, 1u);

  const KernelHeadroom& rt = find(ks, "rt_refused");
  EXPECT_EQ(rt.refused, 1u);
  EXPECT_EQ(rt.first_error, "cudaErrorInvalidConfiguration");
  EXPECT_EQ(rt.first_refusal, "geometry not reported by the runtime");
  EXPECT_TRUE(rt.uses.empty());
  EXPECT_FALSE(rt.tightest);
}

TEST(LaunchHeadroom, CountsLaunchesTheModelJudgesOtherwise) {
  // 60000 B of dynamic shared memory without the opt-in attribute raised: the model refuses it
  // (smem.default), the driver accepted it. The report says so instead of hiding it.
  const auto ks = planted();  // held: find returns a reference into it
  const KernelHeadroom& k = find(ks, "odd_smem");
  EXPECT_EQ(k.model_disagreements, 1u);
  EXPECT_EQ(k.tightest->rule, Rule::smem_default);
}

TEST(LaunchHeadroom, ReadableNames) {
  EXPECT_EQ(readable_kernel_name("_Z6near_yPf"), "near_y");
  EXPECT_EQ(readable_kernel_name("_ZN2at6native18elementwise_kernelILi128ELi4EEEviT_"),
            "at::native::elementwise_kernel<128, 4>");
  EXPECT_EQ(readable_kernel_name("sm90_xmma_gemm_f32"), "sm90_xmma_gemm_f32");
  EXPECT_EQ(readable_kernel_name("_Znot_a_symbol"), "_Znot_a_symbol");
  EXPECT_EQ(readable_kernel_name(""), "(unnamed)");
}

TEST(WatchReport, CsvHasOneRankedRowPerKernel) {
  const std::string csv = reports::watch_csv(planted());
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < csv.size();) {
    const std::size_t end = csv.find('\n', at);
    lines.push_back(csv.substr(at, end - at));
    at = end + 1;
  }
  ASSERT_EQ(lines.size(), 10u) << csv;
  EXPECT_EQ(lines[0] + "\n", reports::watch_csv_header());
  EXPECT_EQ(lines[0].rfind("rank,kernel,symbol,launches,refused,zero_grids,", 0), 0u);
  EXPECT_EQ(lines[1].rfind("1,refused_y,_Z9refused_yPf,1,1,0,0,1,65536,1,32,1,1,32,0,8,", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find(",grid.y,1.00002,CUDA_ERROR_INVALID_VALUE,\"grid=(1,65536,1) block=(32,1,1) smem=0: model "
                          "refuse:grid.y (grid.y 65536 > 65535)\""),
            std::string::npos)
      << lines[1];
  EXPECT_EQ(lines[7].rfind("7,near_y,_Z6near_yPf,5,0,0,0,1,61440,1,256,1,1,256,0,32,4.65661e-10,0.937514,", 0), 0u)
      << lines[7];
  EXPECT_NE(lines[8].find(",smem.optin,232448,"), std::string::npos) << lines[8];
}

TEST(WatchReport, ConsoleTableNamesTheRefusalAndTheClosestLimits) {
  const std::string table = reports::watch_console_table(planted());
  EXPECT_NE(table.find("refused: CUDA_ERROR_INVALID_VALUE, first at grid=(1,65536,1) block=(32,1,1) smem=0: model "
                       "refuse:grid.y (grid.y 65536 > 65535)"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("grid.y 61440 of 65535: 93.8 %"), std::string::npos) << table;
  EXPECT_NE(table.find("model disagrees with the driver on 1 launch(es)"), std::string::npos) << table;
  EXPECT_LT(table.find("refused_y"), table.find("near_y")) << table;
}

TEST(WatchReport, ConsoleShortensTemplatedNamesAndCsvKeepsThem) {
  KernelHeadroom k;
  k.name = "at::native::(anonymous namespace)::elementwise_kernel<128, 4, at::native::Op<float> >";
  k.launches = 1;
  const std::string table = reports::watch_console_table({k});
  EXPECT_NE(table.find(" elementwise_kernel<...> "), std::string::npos) << table;
  EXPECT_NE(reports::watch_csv({k}).find(",\"at::native::(anonymous namespace)::elementwise_kernel<128, 4, "
                                        "at::native::Op<float> >\","),
            std::string::npos)
      << "quoted: the name holds commas";
}

TEST(WatchReport, MarkdownSection) {
  const std::string md = reports::watch_markdown(planted(), sm90(), "./near_limits");
  EXPECT_EQ(md.rfind("## Launch headroom\n", 0), 0u);
  EXPECT_NE(md.find("| 1 | refused_y | 1 | 1 (CUDA_ERROR_INVALID_VALUE) | 0 |"), std::string::npos) << md;
}

}  // namespace
}  // namespace gridfuzz::watch
