#pragma once
// What one kernel launch asks of the device, and the list of launches one production call issues.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gridfuzz {

// Grid and block extents are held in 64 bits so that a planner can represent exactly the value a
// host computed (a grid of 2^32 blocks, say) and the Predictor can refuse it, instead of the
// value being truncated before anyone looks at it.
struct Dim3 {
  std::uint64_t x = 1, y = 1, z = 1;
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

std::string to_string(const Dim3& d);  // "X,Y,Z"

// Attributes of the compiled function that the launch limits depend on (cuFuncGetAttribute).
struct FuncAttributes {
  int num_regs = 0;                        // registers per thread
  std::uint64_t static_smem_bytes = 0;     // __shared__ arrays
  int max_threads_per_block = 1024;        // the driver's own per-function bound (not used by the model)
  friend bool operator==(const FuncAttributes&, const FuncAttributes&) = default;
};

struct LaunchSpec {
  std::string name;                 // kernel or launch name, for messages
  Dim3 grid;
  Dim3 block;
  std::uint64_t dynamic_smem_bytes = 0;
  bool smem_optin = false;          // launcher raises CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
  FuncAttributes func;
};

std::string describe(const LaunchSpec& l);  // "name grid=(..) block=(..) smem=N[ optin]"

}  // namespace gridfuzz
