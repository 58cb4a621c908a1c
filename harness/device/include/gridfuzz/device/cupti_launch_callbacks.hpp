#pragma once
// CUPTI's callbacks on the launch functions, read into LaunchEvents: the part of launch recording
// that both gridfuzz's LaunchRecorder (launch_recorder.hpp) and gridfuzz watch's injection library
// (harness/watch/injection) need. No CUDA runtime here: the driver calls a callback makes are
// given by the caller (the runtime's error names too), so the injection library, loaded into a
// program that has its own runtime, links none.
#include <cuda.h>
#include <cupti_callbacks.h>

#include <optional>
#include <string>

#include "gridfuzz/device/launch_recorder.hpp"

namespace gridfuzz::device {

// The calls a callback makes while it reads a launch; any may be null (that part is then left
// out: attributes zero, an error by its number, no name fallback).
struct LaunchCallbackCalls {
  CUresult (*func_get_attribute)(int*, CUfunction_attribute, CUfunction) = nullptr;
  CUresult (*get_error_name)(CUresult, const char**) = nullptr;
  // The kernel's symbol when CUPTI gives none (it names no launch the driver refuses).
  CUresult (*func_get_name)(const char**, CUfunction) = nullptr;
  const char* (*runtime_error_name)(int) = nullptr;  // cudaGetErrorName
  // The function a CUkernel stands for in the current context (cuKernelGetFunction): since CUDA 12
  // the runtime launches library kernels, whose handle cuFuncGetAttribute refuses.
  CUresult (*kernel_get_function)(CUfunction*, CUkernel) = nullptr;
};

// One callback of a launch function: the event, and the driver's function handle (driver
// callbacks only; null otherwise).
struct LaunchCallback {
  LaunchEvent event;
  CUfunction function = nullptr;
};

// The launch a CUPTI callback reports, or nullopt when the callback is not one of the launch
// functions subscribe_to_launches enables.
std::optional<LaunchCallback> read_launch_callback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                                   const CUpti_CallbackData& data, const LaunchCallbackCalls& calls);

// A function attribute through `calls` (0 when it cannot be read).
int function_attribute(const LaunchCallbackCalls& calls, CUfunction f, CUfunction_attribute a);

// Loads libcupti (CuptiLibrary), subscribes `callback` (CUPTI allows one subscriber a process) and
// enables it on every driver and runtime launch function. Returns "" or why it could not.
std::string subscribe_to_launches(CUpti_CallbackFunc callback, void* user_data);

}  // namespace gridfuzz::device
