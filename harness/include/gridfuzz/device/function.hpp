#pragma once
// One device function, however it was compiled, with the attributes the launch limits depend on.
// Built-in kernels (runtime API, compiled by nvcc into this binary) and external ones (a loaded
// module) both end up here, so they are launched and judged the same way.
#include <cuda.h>

#include <string>

#include "gridfuzz/device/module.hpp"
#include "gridfuzz/launch_spec.hpp"

namespace gridfuzz::device {

class Function {
 public:
  // `symbol` is the address of a __global__ function of this binary (cudaGetFuncBySymbol).
  static Function from_symbol(const void* symbol, std::string name);
  static Function from_module(const Module& module, const std::string& name);

  CUfunction get() const { return fn_; }
  const std::string& name() const { return name_; }
  // Registers, static smem, max threads per block (cuFuncGetAttribute), read once at
  // construction: they are the compiled code's, and after a sticky fault the driver answers no
  // query, so a launch made then is still recorded with them.
  const FuncAttributes& attributes() const { return attributes_; }
  // The driver's default dynamic-smem ceiling for this function, read once at construction; the
  // launcher restores it after an opt-in launch so every launch is judged on its own request.
  int default_max_dynamic_smem() const { return default_max_dynamic_smem_; }
  // Sets CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, skipping the call when it already holds
  // `bytes` (keeps host work out of back-to-back timed launches).
  CUresult set_max_dynamic_smem(std::uint64_t bytes) const;

 private:
  Function(CUfunction fn, std::string name);
  CUfunction fn_{};
  std::string name_;
  FuncAttributes attributes_;
  int default_max_dynamic_smem_ = 0;
  mutable int current_max_dynamic_smem_ = 0;
};

}  // namespace gridfuzz::device
