#pragma once
// Crafted rows and files for the report and gate tests: rows as the sweep writes them (case id
// and replay string from a real Case), written with the project's CsvWriter.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gridfuzz/core/case.hpp"
#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/reports/csv_writer.hpp"
#include "gridfuzz/reports/schema.hpp"

namespace gridfuzz::reports::testing {

// Axis values that have their own CSV column (the rest live only in the replay string).
inline bool has_column(const std::string& axis) { return column_index(axis).has_value(); }

// A passing row of `kernel variant` at `params` on an H200.
inline CsvRow make_row(const std::string& kernel, const std::string& variant,
                       const std::map<std::string, std::string>& params, std::uint64_t seed = 1) {
  Case c{kernel, variant, {}, seed};
  for (const auto& [name, value] : params) c.params.set(name, value);
  CsvRow row;
  row.set("run_id", "test-run");
  row.set("case_id", c.id());
  row.set("device", "NVIDIA H200");
  row.set("cc", "9.0");
  row.set("driver", "12.4");
  row.set("kernel", kernel);
  row.set("variant", variant);
  for (const auto& [name, value] : params)
    if (has_column(name)) row.set(name, value);
  row.set("launches", "1");
  row.set("index_wrap", "safe");
  row.set("predicted", "accept");
  row.set("observed", "accept");
  row.set("oracle", "exact");
  row.set("verdict", "pass");
  row.set_uint("seed", seed);
  row.set("replay", c.replay());
  return row;
}

// The legacy moe_vec launch at `tokens` (top_k 8): grid (1408, 1, tokens*8), predicted refused
// on grid.z past 65535 and refused by the device there (expected-fail); a static row when not
// on a device.
inline CsvRow moe_vec_legacy_row(std::int64_t tokens, bool on_device = true) {
  CsvRow row = make_row("gguf.moe_vec", "legacy",
                        {{"tokens", std::to_string(tokens)}, {"top_k", "8"}, {"rows", "1408"}, {"cols", "2816"},
                         {"quant", "q4_0"}});
  row.set_int("grid_x", 1408);
  row.set_int("grid_y", 1);
  row.set_int("grid_z", tokens * 8);
  row.set_int("block_x", 32);
  row.set_int("block_y", 4);
  row.set_int("block_z", 1);
  row.set_int("smem", 0);
  const bool refused = tokens * 8 > 65535;
  row.set("predicted", refused ? "refuse:grid.z" : "accept");
  if (!on_device) {
    row.set("observed", "static");
    row.set("oracle", "-");
    row.set("verdict", "static");
  } else {
    row.set("observed", refused ? "refuse:CUDA_ERROR_INVALID_VALUE" : "accept");
    row.set("oracle", refused ? "-" : "exact");
    row.set("verdict", refused ? "expected-fail" : "pass");
  }
  return row;
}

inline void set_timing(CsvRow& row, double median, double min, double max, int samples = 10) {
  row.set_double("time_ms_median", median);
  row.set_double("time_ms_min", min);
  row.set_double("time_ms_max", max);
  row.set_int("samples", samples);
}

// A fresh folder per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::temp_directory_path() /
            ("gridfuzz-gate-" + std::string(info->test_suite_name()) + "-" + info->name() + "-" +
             std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

inline std::filesystem::path write_csv(const std::filesystem::path& path, const std::vector<CsvRow>& rows) {
  std::filesystem::remove(path);
  CsvWriter writer(path);
  for (const auto& row : rows) writer.write(row);
  return path;
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace gridfuzz::reports::testing
