// The pure half of launch recording: CUPTI's callback events folded into launch records, and the
// readable base name of a kernel symbol. Its own translation unit so that code with no CUDA
// runtime (gridfuzz watch's injection library) can link it.
#include <cxxabi.h>

#include <cstdlib>
#include <memory>

#include "gridfuzz/device/launch_recorder.hpp"

namespace gridfuzz::device {

void LaunchEventFolder::on_event(const LaunchEvent& e) {
  if (e.api == LaunchEvent::Api::runtime) {
    if (e.enter) {
      if (runtime_depth_++ == 0) {
        driver_seen_in_runtime_ = false;
        runtime_entry_ = e;
      }
      return;
    }
    if (runtime_depth_ == 0) return;  // an exit without its entry (recording started inside the call)
    if (--runtime_depth_ == 0) {
      if (!driver_seen_in_runtime_ && e.result != 0) {
        // Refused by the runtime before the driver saw it.
        LaunchRecord rec;
        const LaunchEvent& in = runtime_entry_ ? *runtime_entry_ : e;
        rec.spec.name = in.symbol.empty() ? e.symbol : in.symbol;
        if (in.geometry_known) {
          rec.spec.grid = in.grid;
          rec.spec.block = in.block;
          rec.spec.dynamic_smem_bytes = in.dynamic_smem_bytes;
        } else {
          rec.spec.grid = rec.spec.block = Dim3{0, 0, 0};
        }
        rec.code = CUDA_ERROR_UNKNOWN;  // no driver answer: the runtime's error is in `error`
        rec.error = e.result_name.empty() ? "runtime error " + std::to_string(e.result) : e.result_name;
        records_.push_back(rec);
      }
      runtime_entry_.reset();
    }
    return;
  }
  if (e.enter) return;  // a driver launch is recorded at its exit, with the answer
  if (runtime_depth_ > 0) driver_seen_in_runtime_ = true;
  LaunchRecord rec;
  rec.spec.name = e.symbol;
  rec.spec.grid = e.grid;
  rec.spec.block = e.block;
  rec.spec.dynamic_smem_bytes = e.dynamic_smem_bytes;
  rec.spec.func = e.func;
  rec.code = static_cast<CUresult>(e.result);
  if (e.result != 0) rec.error = e.result_name.empty() ? "CUresult " + std::to_string(e.result) : e.result_name;
  records_.push_back(rec);
}

std::vector<LaunchRecord> LaunchEventFolder::take() {
  std::vector<LaunchRecord> out;
  out.swap(records_);
  return out;
}

std::string kernel_base_name(const std::string& symbol) {
  if (symbol.rfind("_Z", 0) != 0) return symbol;
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !demangled) return symbol;
  std::string s = demangled.get();  // "void mul_mat_vec_q<(ggml_type)2, 1>(void const*, ...)"
  // Cut at the first '<' or '(' that is not part of a leading return type.
  std::size_t end = s.find_first_of("<(");
  if (end == std::string::npos) end = s.size();
  std::string head = s.substr(0, end);
  if (const std::size_t sp = head.rfind(' '); sp != std::string::npos) head = head.substr(sp + 1);
  if (const std::size_t ns = head.rfind("::"); ns != std::string::npos) head = head.substr(ns + 2);
  return head;
}

}  // namespace gridfuzz::device
