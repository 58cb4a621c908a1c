// Module and Function: loading device code and reading its attributes.
#include <cuda_runtime_api.h>

#include <climits>

#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/device/function.hpp"
#include "gridfuzz/device/module.hpp"
#include "gridfuzz/device/symbol_resolvers.hpp"

namespace gridfuzz::device {

void release_module(CUmodule m) { driver().cuModuleUnload(m); }

Module::Module(const void* image) {
  CUmodule m{};
  check(driver().cuModuleLoadData(&m, image), "cuModuleLoadData");
  h_ = Handle<CUmodule, release_module>(m);
}

namespace {
int function_attribute(CUfunction fn, CUfunction_attribute attr, const std::string& name, const char* what) {
  int v = 0;
  check(driver().cuFuncGetAttribute(&v, attr, fn), std::string("cuFuncGetAttribute(") + what + ") of " + name);
  return v;
}
}  // namespace

Function::Function(CUfunction fn, std::string name) : fn_(fn), name_(std::move(name)) {
  attributes_.num_regs = function_attribute(fn_, CU_FUNC_ATTRIBUTE_NUM_REGS, name_, "num regs");
  attributes_.static_smem_bytes = static_cast<std::uint64_t>(
      function_attribute(fn_, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, name_, "static smem"));
  attributes_.max_threads_per_block = function_attribute(fn_, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, name_, "max threads");
  default_max_dynamic_smem_ =
      function_attribute(fn_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, name_, "max dynamic smem");
  current_max_dynamic_smem_ = default_max_dynamic_smem_;
}

CUresult Function::set_max_dynamic_smem(std::uint64_t bytes) const {
  if (bytes > INT32_MAX) return CUDA_ERROR_INVALID_VALUE;
  const int value = static_cast<int>(bytes);
  if (value == current_max_dynamic_smem_) return CUDA_SUCCESS;
  const CUresult rc = driver().cuFuncSetAttribute(fn_, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, value);
  if (rc == CUDA_SUCCESS) current_max_dynamic_smem_ = value;
  return rc;
}

Function Function::from_symbol(const void* symbol, std::string name) {
  driver();  // NoDeviceError when there is no driver
  cudaFunction_t f{};
  const cudaError_t rc = cudaGetFuncBySymbol(&f, symbol);
  if (rc != cudaSuccess) {
    cudaGetLastError();
    // A plugin's kernels are known only to the plugin's own (static) CUDA runtime.
    if (CUfunction in_plugin = resolve_symbol_in_plugins(symbol)) return Function(in_plugin, std::move(name));
    // Runtime and driver share their error numbers (cudaErrorIllegalAddress == CUDA_ERROR_ILLEGAL_ADDRESS),
    // so a sticky fault left by an earlier launch is reported as itself, not as "not found".
    throw CudaError(static_cast<CUresult>(rc), std::string("cudaGetFuncBySymbol(") + name + ")");
  }
  // cudaFunction_t is the driver's CUfunction (both are CUfunc_st*).
  return Function(reinterpret_cast<CUfunction>(f), std::move(name));
}

Function Function::from_module(const Module& module, const std::string& name) {
  CUfunction f{};
  check(driver().cuModuleGetFunction(&f, module.get(), name.c_str()), "cuModuleGetFunction(" + name + ")");
  return Function(f, name);
}

}  // namespace gridfuzz::device
