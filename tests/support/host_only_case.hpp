#pragma once
// A BoundCase for host-only tests (planning, sizes, admission): it states its launch plan and
// buffers; the device side (inputs, launches, references) throws, since such a test never asks.
#include <stdexcept>

#include "gridfuzz/kernel.hpp"

namespace gridfuzz::test {

class HostOnlyCase : public BoundCase {
 public:
  std::uint64_t bytes_moved() const override { return 0; }
  std::vector<SplitPiece> split(const DeviceLimits&) const override { return {}; }
  ComparePolicy compare_policy() const override { return {}; }
  void fill_inputs(std::uint64_t, const BufferSet&, CUstream) const override { unused(); }
  void launch(const DeviceLimits&, const BufferSet&, device::Launcher&, CUstream) const override { unused(); }
  void launch_split_reference(const DeviceLimits&, const BufferSet&, device::Launcher&, CUstream) const override {
    unused();
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet&, std::uint64_t, std::size_t) const override { unused(); }

 private:
  [[noreturn]] static void unused() { throw std::logic_error("host-only test kernel"); }
};

}  // namespace gridfuzz::test
