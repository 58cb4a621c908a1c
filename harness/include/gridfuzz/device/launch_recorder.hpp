#pragma once
// Watching launches made by host code that is not ours (an upstream library's own launcher).
//
// gridfuzz's Launcher records the launches an adapter issues itself. When a kernel's production
// call is upstream's host code (llama.cpp's ggml_cuda_mul_mat_vec_q, say), that code launches with
// `<<<>>>` / cudaLaunchKernelEx, and gridfuzz has to watch: a LaunchRecorder subscribes to CUPTI's
// callback API on the driver's launch functions (cuLaunchKernel, cuLaunchKernelEx, cooperative and
// per-thread-stream forms) and on the runtime's (cudaLaunchKernel, cudaLaunchKernelExC, ...), and
// records each launch: kernel name, grid, block, dynamic shared memory, the function's attributes
// and the driver's answer. A runtime launch that reaches the driver is recorded once, from the
// driver's callback; one the runtime refuses before calling the driver is recorded from the
// runtime's own callback with its error name.
//
// An adapter whose own host code launches says so by running that code through watch_launches():
// the records go into the Launcher (Launcher::watched() is then true) and the runner compares them
// with the adapter's plan (plan_vs_recorded.hpp): a difference is a model-mismatch.
//
// CUPTI (libcupti, shipped with the CUDA toolkit) is loaded at run time; where it is missing the
// recorder cannot start and says why (LaunchRecorderUnavailable), and gridfuzz still runs.
#include <cuda.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gridfuzz/device/launcher.hpp"

namespace gridfuzz::device {

// One callback of a launch function, as CUPTI reports it (pure data: the CPU tests replay them).
struct LaunchEvent {
  enum class Api { runtime, driver };
  Api api = Api::driver;
  bool enter = true;                 // API entry or exit
  std::string symbol;                // kernel name as CUPTI gives it (mangled); CUPTI gives none for a
                                     // launch the driver refuses (seen on the H200, driver 580)
  bool geometry_known = true;        // false for a runtime entry point whose parameters CUPTI does not describe
  Dim3 grid, block;
  std::uint64_t dynamic_smem_bytes = 0;
  FuncAttributes func;
  int result = 0;                    // exit only: CUresult (driver) or cudaError_t (runtime)
  std::string result_name;           // exit only: "CUDA_ERROR_INVALID_VALUE", "cudaErrorInvalidConfiguration"
};

// Folds the events of one thread into launch records: a driver launch is one record; a runtime
// launch that called the driver adds nothing more; a runtime launch that returned an error without
// reaching the driver is one refused record (error = the runtime's error name). A record's
// spec.name is the symbol as the event gave it (mangled); LaunchRecorder::take() gives base names.
class LaunchEventFolder {
 public:
  void on_event(const LaunchEvent& e);
  const std::vector<LaunchRecord>& records() const { return records_; }
  std::vector<LaunchRecord> take();

 private:
  std::vector<LaunchRecord> records_;
  int runtime_depth_ = 0;
  bool driver_seen_in_runtime_ = false;
  std::optional<LaunchEvent> runtime_entry_;
};

// The readable base name of a kernel symbol: "_ZL13mul_mat_vec_qIL9ggml_type2ELi1EEvPKv..." ->
// "mul_mat_vec_q"; a plain name is returned as it is.
std::string kernel_base_name(const std::string& symbol);

class LaunchRecorderUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The process's CUPTI subscription (CUPTI allows one), started on first use and kept; records
// only while a LaunchRecorder lives. One at a time.
class LaunchRecorder {
 public:
  LaunchRecorder();   // throws LaunchRecorderUnavailable (no libcupti, or another subscriber)
  ~LaunchRecorder();
  LaunchRecorder(const LaunchRecorder&) = delete;
  LaunchRecorder& operator=(const LaunchRecorder&) = delete;

  std::vector<LaunchRecord> take();  // spec.name: kernel_base_name of the symbol
  // The launches the live recorder has seen so far, one line ("" when none is live): for the crash
  // note of a process that upstream's host code is about to abort.
  static std::string describe_live();
  // Empty when CUPTI can be loaded and subscribed; else why not.
  static std::optional<std::string> unavailable_reason();
};

// Runs `call` under a LaunchRecorder and adds every launch it made to `launcher`'s records
// (Launcher::add_watched). Exceptions from `call` pass through after the records are added.
void watch_launches(Launcher& launcher, const std::function<void()>& call);

}  // namespace gridfuzz::device
