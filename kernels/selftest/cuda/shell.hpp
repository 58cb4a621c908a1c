#pragma once
// The shell every self-test kernel shares: the Kernel that names a bug and binds its cases, and the
// BoundCase around what makes the bug. A self-test file keeps its own parts only: the kernels (the
// bug and its fixed twin), the host geometry of the production call (plan), the split pieces, the
// kernel arguments and the geometry of a reference launch. The shell launches them: the legacy
// variant as upstream does (unchecked: a refusal is only recorded), the fixed twin and the split
// reference through launch_checked.
#include <array>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gridfuzz/device/function.hpp"
#include "gridfuzz/kernel.hpp"
#include "support.hpp"

namespace gridfuzz::selftest {

// A __global__ function of this library: its address and the name its launches are recorded under.
struct Symbol {
  template <class F>
  Symbol(F* kernel, const char* name) : address(reinterpret_cast<const void*>(kernel)), name(name) {}
  const void* address;
  const char* name;
};

// Its device::Function, made on first use: at a launch, never at bind() (which runs without a GPU).
inline const device::Function& function_of(const Symbol& symbol) {
  static std::mutex mutex;
  static std::map<const void*, device::Function> functions;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = functions.find(symbol.address);
  if (it == functions.end())
    it = functions.emplace(symbol.address, device::Function::from_symbol(symbol.address, symbol.name)).first;
  return it->second;
}

// A kernel's arguments, held by value in its parameter order (pointers and integers of at most 8
// bytes), so that a launch can point at them (cuLaunchKernel's kernelParams).
class KernelArgs {
 public:
  template <class... T>
  explicit KernelArgs(const T&... values) : count_(sizeof...(T)) {
    static_assert(sizeof...(T) <= kMax && ((sizeof(T) <= sizeof(std::uint64_t)) && ...));
    std::size_t k = 0;
    (std::memcpy(&slots_[k++], &values, sizeof(T)), ...);
  }
  void** get() {
    for (std::size_t k = 0; k < count_; ++k) pointers_[k] = &slots_[k];
    return pointers_.data();
  }

 private:
  static constexpr std::size_t kMax = 6;
  std::array<std::uint64_t, kMax> slots_{};
  std::array<void*, kMax> pointers_{};
  std::size_t count_;
};

// A launch of `grid` blocks of `block` threads, no dynamic smem (a reference launch needs no name).
inline LaunchSpec launch_of(Dim3 grid, Dim3 block, std::string name = {}) {
  LaunchSpec l;
  l.name = std::move(name);
  l.grid = grid;
  l.block = block;
  return l;
}

// The device functions of a case: the legacy variant's, the fixed twin's, the split reference's.
struct CaseFunctions {
  Symbol legacy, fixed, reference;
};

// One shape of a self-test kernel, bound to variant V (Variant, or a kernel's own enum whose
// values follow its variants() order). `extent` is the length of the split axis: the production
// call covers [0, extent), a split piece [begin, end).
template <class V = Variant>
class SelftestCase : public BoundCase {
 public:
  ComparePolicy compare_policy() const override { return {true, 0, 0, why_exact_}; }
  // The production call: plan()'s one launch over the whole extent.
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    KernelArgs a = args(bufs, 0, extent_);
    const LaunchSpec l = plan(limits).launches.front();
    if (variant_ == V::legacy)
      launcher.launch(function_of(functions_.legacy), l, a.get(), stream);
    else
      launcher.launch_checked(function_of(functions_.fixed), l, a.get(), stream);
  }
  // The reference kernel over each piece of split().
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    for (const SplitPiece& piece : split(limits)) {
      KernelArgs a = args(bufs, piece.begin, piece.end);
      const LaunchSpec l = reference_launch(piece.end - piece.begin);
      launcher.launch_checked(function_of(functions_.reference), l, a.get(), stream);
    }
  }

 protected:
  // why_exact: the compare policy's reason for a bit-exact compare.
  SelftestCase(V variant, std::uint64_t extent, CaseFunctions functions, std::string why_exact)
      : variant_(variant), extent_(extent), functions_(functions), why_exact_(std::move(why_exact)) {}
  // The kernel's arguments for [begin, end) of the split axis.
  virtual KernelArgs args(const BufferSet& bufs, std::uint64_t begin, std::uint64_t end) const = 0;
  // The geometry of a reference launch over `count` of the split axis.
  virtual LaunchSpec reference_launch(std::uint64_t count) const = 0;

  V variant_;
  std::uint64_t extent_;
  CaseFunctions functions_;

 private:
  std::string why_exact_;
};

// A case over n floats: x (input, float_at) and y (output); the CPU reference is y = 2x + 1 with
// every other sample among the last `tail` elements, where a geometry bug shows first (a kernel
// that computes something else overrides cpu_reference).
template <class V = Variant>
class FloatsCase : public SelftestCase<V> {
 public:
  std::vector<BufferSpec> buffers() const override {
    return {{"x", BufferRole::input, ElementType::f32, n_}, {"y", BufferRole::output, ElementType::f32, n_}};
  }
  // bytes_moved: the default (x read once, y written once).
  void fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const override {
    fill_floats(bufs.ptr("x"), n_, seed, stream);
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    return tail_biased_samples(bufs.index_of("y"), n_, tail_, seed, count,
                               [&](std::uint64_t e) { return two_x_plus_one(bufs, e); });
  }

 protected:
  FloatsCase(V variant, std::uint64_t extent, CaseFunctions functions, std::string why_exact, std::uint64_t n,
             std::uint64_t tail)
      : SelftestCase<V>(variant, extent, functions, std::move(why_exact)), n_(n), tail_(tail) {}

  std::uint64_t n_, tail_;
};

// A case with one output of n bytes, y[i] = byte_at(i, 0), and no input; the CPU reference has
// every other sample among the last `tail` elements.
class BytesCase : public SelftestCase<> {
 public:
  std::vector<BufferSpec> buffers() const override { return {{"y", BufferRole::output, ElementType::u8, n_}}; }
  // bytes_moved: the default (y written once).
  void fill_inputs(std::uint64_t, const BufferSet&, CUstream) const override {}
  std::vector<ReferenceSample> cpu_reference(const BufferSet& bufs, std::uint64_t seed,
                                             std::size_t count) const override {
    return tail_biased_samples(bufs.index_of("y"), n_, tail_, seed, count,
                               [](std::uint64_t e) { return static_cast<double>(byte_at(e, 0)); });
  }

 protected:
  BytesCase(Variant variant, std::uint64_t extent, CaseFunctions functions, std::uint64_t n, std::uint64_t tail)
      : SelftestCase(variant, extent, functions, "a pure function of the element index: bit-exact"), n_(n),
        tail_(tail) {}

  std::uint64_t n_, tail_;
};

// What `gridfuzz list` shows of a self-test kernel.
struct KernelInfo {
  std::string name, description;
  std::vector<AxisSpec> axes;
  std::vector<std::string> variants{"legacy", "fixed"};
};

// A self-test kernel: its KernelInfo, no constraints between its axes, and bind(): the variant's
// place in info.variants as a V, given with the params to `bind_case`.
template <class V = Variant>
class SelftestKernel final : public Kernel {
 public:
  using BindCase = std::function<std::unique_ptr<BoundCase>(const Params&, V)>;
  SelftestKernel(KernelInfo info, BindCase bind_case) : info_(std::move(info)), bind_case_(std::move(bind_case)) {}

  std::string name() const override { return info_.name; }
  std::string description() const override { return info_.description; }
  std::vector<std::string> variants() const override { return info_.variants; }
  std::vector<AxisSpec> axes() const override { return info_.axes; }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    std::string known;
    for (std::size_t k = 0; k < info_.variants.size(); ++k) {
      if (info_.variants[k] == variant) return bind_case_(p, static_cast<V>(k));
      known += (k ? ", " : "") + info_.variants[k];
    }
    throw std::invalid_argument(info_.name + ": unknown variant '" + variant + "' (" + known + ")");
  }

 private:
  KernelInfo info_;
  BindCase bind_case_;
};

// The kernel of `info` whose cases are Case(params, variant).
template <class Case, class V = Variant>
std::shared_ptr<const Kernel> make_kernel(KernelInfo info) {
  return std::make_shared<SelftestKernel<V>>(
      std::move(info), [](const Params& p, V v) -> std::unique_ptr<BoundCase> { return std::make_unique<Case>(p, v); });
}

}  // namespace gridfuzz::selftest
