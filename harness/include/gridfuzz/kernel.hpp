#pragma once
// The Kernel adapter (API version 2): everything gridfuzz needs to know about one production
// kernel (or one production call that issues several launches) to predict, run and judge it at
// any shape. A Kernel describes the family (axes, variants, constraints); bind() parses one
// shape once and returns a BoundCase that answers everything about that case.
//
// What an adapter must write: Kernel::name, axes, bind; BoundCase::plan, buffers, launch,
// cpu_reference. Everything else has a default (description, one variant "default", no
// constraint, seeded inputs by element type, no split reference, every buffer moved once, bit
// for bit), said at each method. The defaults changed no virtual slot: API version 3 still.
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
#include <string_view>
#include <vector>

#include "gridfuzz/checked_math.hpp"
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
  // elements x element size, or the largest uint64 when that does not fit: a size past 2^64 bytes
  // is "more than any device", never a wrapped small one.
  std::uint64_t bytes() const { return checked_mul(elements, element_bytes(type)).value_or(UINT64_MAX); }
};

// The index of the buffer called `name` in `specs`; throws std::out_of_range naming the buffers.
std::size_t buffer_index(const std::vector<BufferSpec>& specs, std::string_view name);

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

  // By the name given in buffers(); an unknown name throws std::out_of_range naming the buffers.
  virtual std::size_t index_of(std::string_view name) const = 0;
  CUdeviceptr ptr(std::string_view name) const { return ptr(index_of(name)); }
  template <class T>
  T* as(std::string_view name) const { return as<T>(index_of(name)); }
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

// One case bound to an adapter: the shape parsed once, the variant chosen. Everything the harness
// asks of one case goes through here, so an adapter parses Params in exactly one place (bind).
class BoundCase {
 public:
  virtual ~BoundCase() = default;

  // --- host only, pure (no GPU) ---
  // The launches the variant's production call issues, as its host code computes them (int32 wrap
  // included for legacy variants), with the kernels' index ranges and host-computed arguments.
  virtual LaunchPlan plan(const DeviceLimits& limits) const = 0;
  virtual std::vector<BufferSpec> buffers() const = 0;
  // Bytes read and written by one production call (for GB/s). Default: every buffer once.
  virtual std::uint64_t bytes_moved() const;
  // The pieces of the split-batch reference (pure data: the CPU tests check they cover every
  // output element exactly once). Default: none, meaning the kernel has no split reference: the
  // oracle then checks guards, poison and the CPU samples only, and the row's oracle says
  // `split:none` (reports/SCHEMA.md).
  virtual std::vector<SplitPiece> split(const DeviceLimits& limits) const;
  // How big and split results are compared. Default: bit for bit.
  virtual ComparePolicy compare_policy() const;

  // --- device side (needs a GPU) ---
  // Random, valid, never-zero inputs from `seed` (on the GPU for large buffers), queued on
  // `stream`; BufferSet::write waits for the context first, so it cannot race a fill kernel.
  // Default: every input buffer filled on the GPU by its element type, the same values for the
  // same seed: floats in [0.5, 2), integers in [1, 127] (docs/PLUGINS.md). Override it
  // when an input must hold something else (indices, quantized blocks, signed values).
  virtual void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const;
  // The production call. A kernel launched by the harness goes through `launcher` (which records
  // it); a fixed launcher checks and throws device::LaunchError, a legacy one may ignore a
  // refusal. A kernel whose own host code launches (Kernel::launch_owner) just calls that code:
  // the harness records its launches. The runner compares the recorded launches with plan().
  virtual void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                      CUstream stream) const = 0;
  // The split-batch reference: the same kernel over split(limits), into `bufs`' outputs. The bound
  // variant is known here (a host-geometry bug may need the fixed geometry for the pieces).
  // Called only when split() has pieces; the default throws std::logic_error saying that split()
  // is overridden without it.
  virtual void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                                      CUstream stream) const;
  // float64 CPU reference for `count` output elements chosen from `seed` (the harness reads the
  // GPU values at the same places).
  virtual std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                                     std::size_t count) const = 0;

  // --- since API version 3 ---
  // True when buffers(), fill_inputs() and launch_split_reference() depend on the shape alone, not
  // on the bound variant: then every variant of one shape is judged against the same reference
  // outputs, and the harness computes them once for a shape's variants run back to back (it still
  // computes a fresh one for any case that does not match the kept one). Default: false.
  virtual bool reference_same_for_every_variant() const { return false; }
};

// Who issues a case's launches: the harness's Launcher (the adapter launches through it), or the
// kernel's own host code (an upstream library's entry point): then the runner records every
// launch the call makes (CUPTI, device/launch_recorder.hpp) and compares them with the plan.
enum class LaunchOwner { harness_launcher, own_host_code };

class Kernel {
 public:
  virtual ~Kernel() = default;

  virtual std::string name() const = 0;                       // "gguf.moe_vec"
  virtual std::string description() const;                    // default: "no description"
  virtual std::vector<std::string> variants() const;          // "legacy", "fixed", ...; default: {"default"}
  // Integer ranges or choices, each with a default: write them with Axis (params.hpp).
  virtual std::vector<AxisSpec> axes() const = 0;
  // Constraints between axes (e.g. cols a multiple of the block size, top_k <= experts).
  // Empty when the params are valid; the message names the broken constraint. Default: none.
  virtual std::optional<std::string> check(const Params& p) const;
  virtual LaunchOwner launch_owner() const { return LaunchOwner::harness_launcher; }
  // One case: parses `p` (valid by check()) once and fixes the variant. Throws
  // std::invalid_argument for an unknown variant (gridfuzz asks only for those of variants()).
  virtual std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const = 0;

  // Conveniences for one question about one case (each binds anew).
  LaunchPlan plan(const Params& p, const std::string& variant, const DeviceLimits& limits) const {
    return bind(p, variant)->plan(limits);
  }
  std::vector<BufferSpec> buffers(const Params& p, const std::string& variant) const {
    return bind(p, variant)->buffers();
  }
};

}  // namespace gridfuzz
