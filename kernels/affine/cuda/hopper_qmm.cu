// The Hopper path of affine.qmm (variant "hopper"): CUTLASS's sm90 mixed-input GEMM (wgmma + TMA,
// warp-specialized cooperative, collective sm90_mma_tma_gmma_rs_warpspecialized_mixed_input.hpp)
// from the pinned mlx-cuda-13 wheel's headers, compiled as-is for sm_90a only.
//
// Swap trick: out[T, N] = x[T, K] * W[N, K]^T is computed as out^T[N, T] = W[N, K] * x[T, K]^T, so
// the 4-bit operand is CUTLASS's A (M' = N, K-major) and is converted in registers:
//   A  uint4b_t, RowMajor (N, K), stride (K, 1): CUTLASS packs sub-byte elements low bits first
//      (cutlass/subbyte_reference.h), the MLX layout (element j of a row at bits 4*(j%8) of word j/8).
//   B  bf16 activations, ColumnMajor (K, T) = x row-major (T, K), stride (K, 1).
//   D  bf16, ColumnMajor (N, T) = out row-major (T, N), stride (1, N).
//   Scale and zero: mode ConvertAndScaleWithZero computes bf16(bf16(q) * scale) + zero
//      (cutlass/detail/collective/mixed_input_utils.hpp, dequantize_A_kblock_for_transform: __hmul2
//      then __hadd2), i.e. MLX's scale*q + bias with zero = bias unchanged. CUTLASS requires the
//      scale/zero tensors (N, K/group) N-major (the collective's StrideScale = Stride<_1, int64_t,
//      int64_t>); MLX stores them K-major, so the case keeps N-major copies made once when the
//      weights are prepared (hopper_prepack.cu), as a model loader would.
#include <cute/tensor.hpp>
#include <cutlass/cutlass.h>
#include <cutlass/device_kernel.h>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/dispatch_policy.hpp>
#include <cutlass/gemm/kernel/gemm_universal.hpp>
#include <cutlass/kernel_hardware_info.hpp>

#include <stdexcept>
#include <string>

#include "gridfuzz/affine/hopper_plan.hpp"
#include "hopper_qmm.hpp"

namespace gridfuzz::affine {
namespace {

using namespace cute;

using ElementA = cutlass::uint4b_t;
using ElementB = cutlass::bfloat16_t;
using ElementScale = cutlass::bfloat16_t;
using ElementAccumulator = float;
using ElementD = cutlass::bfloat16_t;
using LayoutA = cutlass::layout::RowMajor;
using LayoutB = cutlass::layout::ColumnMajor;
using LayoutD = cutlass::layout::ColumnMajor;
constexpr int kAlignA = 128 / cutlass::sizeof_bits<ElementA>::value;  // 16-byte TMA rows: 32 values
constexpr int kAlignB = 128 / cutlass::sizeof_bits<ElementB>::value;  // 8
constexpr int kAlignD = 128 / cutlass::sizeof_bits<ElementD>::value;  // 8

using TileShape = Shape<Int<kHopperTileM>, Int<kHopperTileN>, Int<kHopperTileK>>;
using ClusterShape = Shape<_1, _1, _1>;  // one CTA per cluster: a plain launch (no cluster attribute)
using KernelSchedule = cutlass::gemm::KernelTmaWarpSpecializedCooperative;
using EpilogueSchedule = cutlass::epilogue::TmaWarpSpecializedCooperative;

using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, ElementAccumulator, ElementAccumulator, void, LayoutD, kAlignD,
    ElementD, LayoutD, kAlignD, EpilogueSchedule>::CollectiveOp;

using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, cute::tuple<ElementA, ElementScale, ElementScale>, LayoutA,
    kAlignA, ElementB, LayoutB, kAlignB, ElementAccumulator, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
        sizeof(typename CollectiveEpilogue::SharedStorage))>,
    KernelSchedule>::CollectiveOp;

using GemmKernel =
    cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, CollectiveMainloop, CollectiveEpilogue>;

// The plan (hopper_plan.cpp, pure C++) states these without CUTLASS; here they are checked.
static_assert(GemmKernel::MaxThreadsPerBlock == kHopperThreads, "hopper_plan.hpp: kHopperThreads");
static_assert(GemmKernel::SharedStorageSize == kHopperSmemBytes, "hopper_plan.hpp: kHopperSmemBytes");
static_assert(GemmKernel::MinBlocksPerMultiprocessor == 1, "one CTA per SM (persistent)");

std::string geometry(const HopperQmmArgs& a) {
  return "hopper qmm (M'=N " + std::to_string(a.n) + ", N'=tokens " + std::to_string(a.tokens) + ", K " +
         std::to_string(a.k) + ", group " + std::to_string(a.group_size) + ")";
}

std::string dims(dim3 d) { return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z); }

}  // namespace

bool hopper_qmm_compiled() { return true; }

const device::Function& hopper_qmm_function() {
  static const device::Function f = device::Function::from_symbol(
      reinterpret_cast<const void*>(&cutlass::device_kernel<GemmKernel>), "qmm_sm90a_cutlass<bf16,u4,128x128x64>");
  return f;
}

const device::LaunchRecord& launch_hopper_qmm(const LaunchSpec& spec, const HopperQmmArgs& a,
                                              device::Launcher& launcher, CUstream stream) {
  const int n = static_cast<int>(a.n), t = static_cast<int>(a.tokens), k = static_cast<int>(a.k);
  const std::int64_t groups = a.k / a.group_size;
  typename GemmKernel::Arguments args{
      cutlass::gemm::GemmUniversalMode::kGemm,
      {n, t, k, 1},
      {reinterpret_cast<const ElementA*>(a.w), {static_cast<std::int64_t>(a.k), _1{}, a.n * a.k},
       reinterpret_cast<const ElementB*>(a.x), {static_cast<std::int64_t>(a.k), _1{}, a.tokens * a.k},
       reinterpret_cast<const ElementScale*>(a.scales_mn), {_1{}, static_cast<std::int64_t>(a.n), a.n * groups},
       a.group_size, reinterpret_cast<const ElementScale*>(a.biases_mn)},
      {{1.0f, 0.0f}, nullptr, {_1{}, static_cast<std::int64_t>(a.n), a.n * a.tokens},
       reinterpret_cast<ElementD*>(a.out), {_1{}, static_cast<std::int64_t>(a.n), a.n * a.tokens}},
      cutlass::KernelHardwareInfo{0, static_cast<int>(a.sm_count)}};
  // Raster along M' (the weight rows) whatever the shape: a wave of CTAs then spans the 4-bit W,
  // which stays in L2, and one or two token tiles, instead of streaming all of x per wave (the
  // Heuristic order picks AlongN when there are more weight tiles than token tiles: 0.67x of
  // cuBLAS at 8192 x 14336 x 4096 on the H200, docs/PERFORMANCE.md).
  args.scheduler.raster_order = cutlass::gemm::kernel::detail::RasterOrderOptions::AlongM;
  if (!GemmKernel::can_implement(args))
    throw std::invalid_argument(geometry(a) + ": CUTLASS's can_implement refuses it (alignment or group size)");
  if (GemmKernel::get_workspace_size(args) != 0)
    throw std::logic_error(geometry(a) + ": CUTLASS asks for a workspace; the plan declares none");
  typename GemmKernel::Params params = GemmKernel::to_underlying_arguments(args, nullptr);
  // The plan's geometry must be CUTLASS's own (the runner compares recorded launches with the plan).
  const dim3 grid = GemmKernel::get_grid_shape(params), block = GemmKernel::get_block_shape();
  if (grid.x != spec.grid.x || grid.y != spec.grid.y || grid.z != spec.grid.z || block.x != spec.block.x ||
      block.y != spec.block.y || block.z != spec.block.z || spec.dynamic_smem_bytes != GemmKernel::SharedStorageSize)
    throw std::logic_error(geometry(a) + ": plan grid " + to_string(spec.grid) + " block " + to_string(spec.block) +
                           " smem " + std::to_string(spec.dynamic_smem_bytes) + " differs from CUTLASS's grid " +
                           dims(grid) + " block " + dims(block) + " smem " +
                           std::to_string(GemmKernel::SharedStorageSize));
  void* kernel_params[] = {&params};
  return launcher.launch_checked(hopper_qmm_function(), spec, kernel_params, stream);
}

}  // namespace gridfuzz::affine
