#include "gridfuzz/app/ctest_resource_spec.hpp"

namespace gridfuzz::app {

// Format: CMake manual ctest(1), "Resource Specification File" (version 1.0).
std::string ctest_resource_spec(int gpus) {
  std::string list;
  for (int i = 0; i < gpus; ++i)
    list += std::string(i ? "," : "") + "\n        {\"id\": \"" + std::to_string(i) + "\", \"slots\": 1}";
  if (gpus > 0) list += "\n      ";
  return "{\n  \"version\": {\"major\": 1, \"minor\": 0},\n  \"local\": [\n    {\n      \"gpus\": [" + list +
         "]\n    }\n  ]\n}\n";
}

}  // namespace gridfuzz::app
