#pragma once
// The Kernel adapter: everything gridfuzz needs to know about one production kernel (or one
// production call that issues several launches) to predict, run and judge it at any shape.
//
// Built-in kernels and external ones (loaded with --plugin) implement this same interface.
//
// The split of work:
//   - Host-only, pure (no GPU): axes, constraints, plan (the launches the production launcher
//     would issue, with their index ranges), footprint, split plan. `gridfuzz plan`, `bisect
//     --static` and the CPU tests use only these.
//   - Device side: buffers (declared by the adapter, allocated by the harness with guard zones
//     and poisoned outputs), input fill, the production launch, the split-batch reference launch,
//     and the CPU reference of chosen output elements.
// The harness owns memory, poisoning, guards, timing and comparison; the adapter owns the kernel.
#include <cuda.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/device/launcher.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/launch_plan.hpp"
#include "gridfuzz/params.hpp"

namespace gridfuzz {

// Element type of a buffer: decides the poison pattern and how outputs are compared.
enum class ElementType { f32, f16, bf16, i32, u32, u8 };
std::size_t element_bytes(ElementType t);

enum class BufferRole { input, output };

struct BufferSpec {
  std::string name;
  BufferRole role = BufferRole::input;
  ElementType type = ElementType::u8;
  std::uint64_t elements = 0;
  std::uint64_t bytes() const { return elements * element_bytes(type); }
};

// The case's device buffers, in the order of buffers(); the harness surrounds each with guard
// zones. For the split reference the output buffers are swapped for reference copies.
class BufferSet {
 public:
  virtual ~BufferSet() = default;
  virtual CUdeviceptr ptr(std::size_t index) const = 0;
  virtual std::uint64_t bytes(std::size_t index) const = 0;
  // Small host reads for the CPU reference (a row of weights, one activation row, ...). Both
  // wait for all work queued on the context first (any stream), so a write after a fill kernel,
  // or a read after the launch, cannot race it; they are synchronous copies.
  virtual void read(std::size_t index, std::uint64_t offset, void* host, std::uint64_t bytes) const = 0;
  virtual void write(std::size_t index, std::uint64_t offset, const void* host, std::uint64_t bytes) const = 0;
  template <class T>
  T* as(std::size_t index) const { return reinterpret_cast<T*>(static_cast<std::uintptr_t>(ptr(index))); }
};

// How big and split results are compared: bit for bit, or within a stated tolerance.
struct ComparePolicy {
  bool exact = true;
  double rel_tol = 0;   // |a-b| <= abs_tol + rel_tol*|b| when !exact
  double abs_tol = 0;
  std::string why;      // one line: why exact, or where the tolerance comes from
};

// One output element checked against the CPU reference.
struct ReferenceSample {
  std::size_t buffer = 0;        // index into buffers()
  std::uint64_t element = 0;     // element index in that buffer
  double expected = 0;           // float64 reference value
  double rel_tol = 0, abs_tol = 0;
};

// One piece of the split-batch reference, e.g. tokens [begin, end). Pure data, so the CPU tests can
// check that the pieces cover every output element exactly once.
struct SplitPiece {
  std::string axis;              // the axis being split ("tokens", "rows")
  std::uint64_t begin = 0, end = 0;
};

class Kernel {
 public:
  virtual ~Kernel() = default;

  virtual std::string name() const = 0;                       // "gguf.moe_vec"
  virtual std::string description() const = 0;
  virtual std::vector<std::string> variants() const = 0;      // "legacy", "fixed", ...
  virtual std::vector<AxisSpec> axes() const = 0;
  // Constraints between axes (e.g. cols a multiple of the block size, top_k <= experts).
  // Empty when the params are valid; the message names the broken constraint.
  virtual std::optional<std::string> check(const Params& p) const = 0;

  // The launches the variant's production launcher issues, as its host code computes them
  // (int32 wrap included for legacy variants), with the index ranges of the kernels.
  virtual LaunchPlan plan(const Params& p, const std::string& variant, const DeviceLimits& limits) const = 0;
  virtual std::vector<BufferSpec> buffers(const Params& p) const = 0;
  // Bytes read and written by one production call (for GB/s).
  virtual std::uint64_t bytes_moved(const Params& p) const = 0;
  virtual std::vector<SplitPiece> split(const Params& p, const DeviceLimits& limits) const = 0;
  virtual ComparePolicy compare_policy(const Params& p, const std::string& variant) const = 0;

  // --- device side (needs a GPU) ---
  // Random, valid, never-zero inputs from `seed` (on the GPU for large buffers).
  virtual void fill_inputs(const Params& p, std::uint64_t seed, const BufferSet& bufs, CUstream stream) const = 0;
  // The production call. Every launch goes through `launcher` (which records it); a fixed
  // launcher checks and throws device::LaunchError, a legacy one may ignore a refusal.
  virtual void launch(const Params& p, const std::string& variant, const DeviceLimits& limits,
                      const BufferSet& bufs, device::Launcher& launcher, CUstream stream) const = 0;
  // The split-batch reference: the same kernel over split(p, limits), into `bufs`' outputs.
  virtual void launch_split_reference(const Params& p, const DeviceLimits& limits, const BufferSet& bufs,
                                      device::Launcher& launcher, CUstream stream) const = 0;
  // float64 CPU reference for `count` output elements chosen from `seed` (the harness reads the
  // GPU values at the same places).
  virtual std::vector<ReferenceSample> cpu_reference(const Params& p, const BufferSet& bufs, std::uint64_t seed,
                                                     std::size_t count) const = 0;
};

}  // namespace gridfuzz
