#include "gridfuzz/app/ctest_resource_spec.hpp"

namespace gridfuzz::app {

namespace {
constexpr std::string_view kStart = "{\n  \"version\": {\"major\": 1, \"minor\": 0},\n  \"local\": [\n    {\n      \"gpus\": [";
}  // namespace

bool is_gridfuzz_resource_spec(std::string_view head) { return head.starts_with(kStart); }

// Format: CMake manual ctest(1), "Resource Specification File" (version 1.0).
std::string ctest_resource_spec(int gpus) {
  std::string list;
  for (int i = 0; i < gpus; ++i)
    list += std::string(i ? "," : "") + "\n        {\"id\": \"" + std::to_string(i) + "\", \"slots\": 1}";
  if (gpus > 0) list += "\n      ";
  return std::string(kStart) + list + "]\n    }\n  ]\n}\n";
}

}  // namespace gridfuzz::app
