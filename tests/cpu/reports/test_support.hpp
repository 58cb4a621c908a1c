#pragma once
// Helpers shared by the reports tests: a scratch directory removed on exit, file text I/O and
// a row whose every value is valid.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <unistd.h>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports::testing {

// A fresh directory under the system temp dir, removed with everything in it on destruction.
class ScratchDir {
 public:
  ScratchDir() {
    static std::atomic<unsigned> counter{0};
    std::random_device entropy;
    path_ = std::filesystem::temp_directory_path() /
            ("gridfuzz-reports-test-" + std::to_string(::getpid()) + "-" +
             std::to_string(counter++) + "-" + std::to_string(entropy()));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  std::filesystem::path file(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

inline void append_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::app);
  out << text;
}

// The header line the schema defines (every name is plain, so nothing is quoted), LF included.
// Built with += alone: `"," + std::string(...)` trips GCC 12's -Wrestrict false positive.
inline std::string header_text() {
  std::string header;
  for (const Column& column : kColumns) {
    if (!header.empty()) header += ',';
    header += column.name;
  }
  header += '\n';
  return header;
}

// A row as a legacy moe_vec case refused at grid.z would produce it.
inline CsvRow valid_row(int case_number = 0) {
  CsvRow row;
  row.set("run_id", "nightly-2024-06-01");
  row.set("case_id", "moe_vec-legacy-" + std::to_string(case_number));
  row.set("device", "NVIDIA H200");
  row.set("cc", "9.0");
  row.set("driver", "12.4");
  row.set("commit", "0123abc");
  row.set("kernel", "moe_vec");
  row.set("variant", "legacy");
  row.set("quant", "q4_0");
  row.set_int("bits", 4);
  row.set_int("group_size", 32);
  row.set("dtype", "f16");
  row.set_int("tokens", 8192);
  row.set_int("top_k", 8);
  row.set_int("experts", 64);
  row.set_int("rows", 4096);
  row.set_int("cols", 4096);
  row.set_int("launches", 1);
  row.set_int("grid_x", 4096);
  row.set_int("grid_y", 1);
  row.set_int("grid_z", 65536);
  row.set_int("block_x", 32);
  row.set_int("block_y", 4);
  row.set_int("block_z", 1);
  row.set_int("smem", 0);
  row.set_int("regs", 40);
  row.set("max_index", "36893488147419103232");  // 2^65
  row.set("index_type", "int32");
  row.set("index_wrap", "wrap:dst_offset");
  row.set("predicted", "refuse:grid.z");
  row.set("observed", "refuse:CUDA_ERROR_INVALID_VALUE");
  row.set("oracle", "-");
  row.set("verdict", "expected-fail");
  row.set_int("samples", 0);
  row.set_uint("seed", 18446744073709551615ull);
  row.set("replay", "gridfuzz replay moe_vec:legacy:tokens=8192,top_k=8,seed=1");
  row.set_int("device_index", 0);
  return row;
}

}  // namespace gridfuzz::reports::testing
