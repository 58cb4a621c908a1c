#include "mlx_matmul_kernel.hpp"

#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "gridfuzz/device/function.hpp"

namespace gridfuzz::mlx {
namespace {

// One device::Function per compiled MLX kernel, made on first use.
const device::Function& function_of(const MlxLaunch& l) {
  static std::mutex mutex;
  static std::map<const void*, device::Function> functions;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = functions.find(l.function);
  if (it == functions.end()) it = functions.emplace(l.function, device::Function::from_symbol(l.function, l.kernel)).first;
  return it->second;
}

// Launches each kernel node MLX's host code adds: unchecked as MLX (its graph launch reports
// nothing per node; the record still has the driver's answer), or checked (throws).
LaunchSink launching_sink(device::Launcher& launcher, CUstream stream, bool checked) {
  return [&launcher, stream, checked](const MlxLaunch& l, void** args) {
    if (l.function == nullptr) throw std::logic_error("mlx: " + l.kernel + " is not compiled in this build");
    if (checked)
      launcher.launch_checked(function_of(l), l.spec, args, stream);
    else
      launcher.launch(function_of(l), l.spec, args, stream);
  };
}

// The device the kernels are built for (sm_90): check() has no device, so it asks MLX's dispatch
// as an H200 would answer it.
const DeviceLimits& build_device() {
  static const DeviceLimits limits = *device_preset("sm_90");
  return limits;
}

}  // namespace

Variant require_variant(const std::string& name) {
  if (auto v = parse_variant(name)) return *v;
  throw std::invalid_argument("mlx: unknown variant '" + name + "' (upstream, chunked)");
}

std::optional<std::string> MlxMatmulKernel::check(const Params& p) const {
  if (auto problem = AffineMatmulKernel::check(p)) return problem;
  const affine::MatmulShape s = shape(p);
  // Every kernel MLX's host code picks for this call, in either variant, must be one this build
  // compiled (qmv: all of qmv.cu; qmm_sm80: group 64, bits 4/8, tile_m 16/32/64). One chunk of each
  // size names them all (dispatched_kernels), however many chunks the plan has.
  for (Variant v : {Variant::upstream, Variant::chunked}) {
    for (const MlxLaunch& l : dispatched_kernels(s, v, build_device()))
      if (l.function == nullptr)
        return "MLX dispatches " + l.kernel + " for this call, which this build does not compile ahead of time "
               "(docs/upstream/mlx.md, \"What is built\")";
  }
  return std::nullopt;
}

namespace {

class MlxMatmulCase final : public affine::AffineMatmulCase {
 public:
  // MLX's qmv dequantizes into the activation type for every bit width (qmv.cu:29-40: w_dq =
  // w_dq * T(scale) + bias in T) and accumulates 8-bit products in float.
  MlxMatmulCase(const affine::MatmulShape& shape, Variant variant) : AffineMatmulCase(shape, true), variant_(variant) {}

  LaunchPlan plan(const DeviceLimits& limits) const override {
    MlxCall call = run_call(s_, variant_, limits);
    LaunchPlan plan;
    plan.host_error = std::move(call.host_error);
    for (MlxLaunch& l : call.launches) plan.launches.push_back(std::move(l.spec));
    plan.indices = std::move(call.indices);
    return plan;
  }
  std::vector<SplitPiece> split(const DeviceLimits& limits) const override { return reference_pieces(s_, limits); }
  ComparePolicy compare_policy() const override {
    return {true, 0, 0,
            "bit-exact: the reference runs MLX's same kernel (the whole call's path; pieces of >= 64 rows or the "
            "whole call, so the same CTA tile) over pieces, and each output element is one warp's (qmv) or one "
            "CTA's (qmm) fixed-order K reduction with no split-K, so grid size and piece boundaries cannot change "
            "it"};
  }
  void launch(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
              CUstream stream) const override {
    const DevicePointers ptrs = device_pointers(bufs);
    run_call(s_, variant_, limits, &ptrs, launching_sink(launcher, stream, variant_ == Variant::chunked));
  }
  void launch_split_reference(const DeviceLimits& limits, const BufferSet& bufs, device::Launcher& launcher,
                              CUstream stream) const override {
    const DevicePointers ptrs = device_pointers(bufs);
    run_split_reference(s_, limits, &ptrs, launching_sink(launcher, stream, true));
  }
  // Buffers, inputs (AffineMatmulCase's) and the reference (run_split_reference) are the shape's.
  bool reference_same_for_every_variant() const override { return true; }

 private:
  // The call's buffers (matmul_buffers) as the void pointers MLX's host code takes.
  DevicePointers device_pointers(const BufferSet& bufs) const {
    const affine::MatmulBuffers b = matmul_buffers(bufs);
    const auto at = [](CUdeviceptr p) { return reinterpret_cast<void*>(static_cast<std::uintptr_t>(p)); };
    DevicePointers p;
    p.x = at(b.x);
    p.w = at(b.w);
    p.scales = at(b.scales);
    p.biases = at(b.biases);
    p.lhs = at(b.lhs);
    p.rhs = at(b.rhs);
    p.out = at(b.out);
    return p;
  }

  Variant variant_;
};

}  // namespace

std::unique_ptr<BoundCase> MlxMatmulKernel::bind(const Params& p, const std::string& variant) const {
  return std::make_unique<MlxMatmulCase>(shape(p), require_variant(variant));
}

}  // namespace gridfuzz::mlx
