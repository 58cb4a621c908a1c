// CUPTI callback events, as the recorder receives them for a driver launch, a runtime launch that
// reaches the driver and one the runtime refuses itself, replayed through LaunchEventFolder.
#include <gtest/gtest.h>

#include "gridfuzz/device/launch_recorder.hpp"

namespace gridfuzz::device {
namespace {

LaunchEvent driver(bool enter, Dim3 grid, Dim3 block, int result = 0, std::string name = "") {
  LaunchEvent e;
  e.api = LaunchEvent::Api::driver;
  e.enter = enter;
  e.symbol = "_Z13quantize_q8_1PKfPvl";
  e.grid = grid;
  e.block = block;
  e.dynamic_smem_bytes = 128;
  e.result = result;
  e.result_name = std::move(name);
  return e;
}

LaunchEvent runtime(bool enter, Dim3 grid, int result = 0, std::string name = "") {
  LaunchEvent e;
  e.api = LaunchEvent::Api::runtime;
  e.enter = enter;
  e.symbol = "_Z13mul_mat_vec_qIL9ggml_type2ELi1ELb0EEvPKvPf";
  e.grid = grid;
  e.block = {32, 4, 1};
  e.result = result;
  e.result_name = std::move(name);
  return e;
}

TEST(LaunchEventFolder, DriverLaunchIsOneRecordWithItsAnswer) {
  LaunchEventFolder f;
  f.on_event(driver(true, {28, 1, 1}, {256, 1, 1}));
  EXPECT_TRUE(f.records().empty()) << "recorded at the exit, with the driver's answer";
  f.on_event(driver(false, {28, 1, 1}, {256, 1, 1}));
  ASSERT_EQ(f.records().size(), 1u);
  const LaunchRecord& r = f.records()[0];
  EXPECT_EQ(r.spec.name, "_Z13quantize_q8_1PKfPvl") << "the symbol as CUPTI gave it (LaunchRecorder::take cuts it)";
  EXPECT_EQ(r.spec.grid, (Dim3{28, 1, 1}));
  EXPECT_EQ(r.spec.block, (Dim3{256, 1, 1}));
  EXPECT_EQ(r.spec.dynamic_smem_bytes, 128u);
  EXPECT_TRUE(r.ok());
}

TEST(LaunchEventFolder, RefusedDriverLaunchKeepsTheDriversError) {
  LaunchEventFolder f;
  f.on_event(driver(true, {1, 70000, 1}, {32, 1, 1}));
  f.on_event(driver(false, {1, 70000, 1}, {32, 1, 1}, CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE"));
  ASSERT_EQ(f.records().size(), 1u);
  EXPECT_FALSE(f.records()[0].ok());
  EXPECT_EQ(f.records()[0].code, CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(f.records()[0].error, "CUDA_ERROR_INVALID_VALUE");
}

TEST(LaunchEventFolder, RuntimeLaunchThatReachesTheDriverIsRecordedOnce) {
  LaunchEventFolder f;
  f.on_event(runtime(true, {2048, 8, 1}));
  f.on_event(driver(true, {2048, 8, 1}, {32, 4, 1}));
  f.on_event(driver(false, {2048, 8, 1}, {32, 4, 1}));
  f.on_event(runtime(false, {2048, 8, 1}));
  ASSERT_EQ(f.records().size(), 1u);
  EXPECT_EQ(f.records()[0].spec.grid, (Dim3{2048, 8, 1}));
}

TEST(LaunchEventFolder, RuntimeRefusalBeforeTheDriverIsARefusedRecord) {
  LaunchEventFolder f;
  f.on_event(runtime(true, {1, 70000, 1}));
  f.on_event(runtime(false, {1, 70000, 1}, 9, "cudaErrorInvalidConfiguration"));
  ASSERT_EQ(f.records().size(), 1u);
  const LaunchRecord& r = f.records()[0];
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error, "cudaErrorInvalidConfiguration");
  EXPECT_EQ(r.spec.name, "_Z13mul_mat_vec_qIL9ggml_type2ELi1ELb0EEvPKvPf") << "named from the runtime's entry";
  EXPECT_EQ(r.spec.grid, (Dim3{1, 70000, 1}));
}

TEST(LaunchEventFolder, RuntimeSuccessWithoutDriverEventAddsNothing) {
  // A runtime call whose driver callback was not seen but that succeeded has nothing to add (the
  // folder never invents an accepted launch it has no geometry from the driver for).
  LaunchEventFolder f;
  f.on_event(runtime(true, {4, 1, 1}));
  f.on_event(runtime(false, {4, 1, 1}));
  EXPECT_TRUE(f.records().empty());
}

TEST(LaunchEventFolder, ExitWithoutEntryIsIgnoredAndTakeEmpties) {
  LaunchEventFolder f;
  f.on_event(runtime(false, {1, 1, 1}, 9, "cudaErrorInvalidConfiguration"));
  EXPECT_TRUE(f.records().empty());
  f.on_event(driver(false, {3, 1, 1}, {32, 1, 1}));
  EXPECT_EQ(f.take().size(), 1u);
  EXPECT_TRUE(f.records().empty());
}

TEST(KernelBaseName, DemanglesToTheFunctionName) {
  EXPECT_EQ(kernel_base_name("_Z13mul_mat_vec_qIL9ggml_type2ELi1ELb0EEvPKvPf"), "mul_mat_vec_q");
  EXPECT_EQ(kernel_base_name("_Z13quantize_q8_1PKfPvl"), "quantize_q8_1");
  EXPECT_EQ(kernel_base_name("_ZN1a1b1kIiEEvT_"), "k");
  EXPECT_EQ(kernel_base_name("plain_name"), "plain_name");
  EXPECT_EQ(kernel_base_name("_Znot_a_symbol"), "_Znot_a_symbol");
}

}  // namespace
}  // namespace gridfuzz::device
