#pragma once
// CUTLASS's sm90 mixed-input GEMM as affine.qmm's "hopper" path uses it (hopper_qmm.cu, whose first
// comment says how the operands map), as a template over the tile and the schedules: hopper_qmm.cu
// instantiates the production configurations, bench/affine's hopper_config_*.cu others to compare
// them (issue #33 item 1). Included only by files compiled for sm_90a with the mlx-cuda-13 headers.
#include <cute/tensor.hpp>
#include <cutlass/cutlass.h>
#include <cutlass/device_kernel.h>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/dispatch_policy.hpp>
#include <cutlass/gemm/kernel/gemm_universal.hpp>
#include <cutlass/kernel_hardware_info.hpp>

#include "gridfuzz/affine/hopper_plan.hpp"
#include "hopper_qmm.hpp"

namespace gridfuzz::affine {

template <int TileM, int TileN, int TileK, class KernelSchedule, class EpilogueSchedule>
struct HopperGemm {
  using ElementA = cutlass::uint4b_t;
  using ElementB = cutlass::bfloat16_t;
  using ElementScale = cutlass::bfloat16_t;
  using ElementAccumulator = float;
  using ElementD = cutlass::bfloat16_t;
  using LayoutA = cutlass::layout::RowMajor;
  using LayoutB = cutlass::layout::ColumnMajor;
  using LayoutD = cutlass::layout::ColumnMajor;
  static constexpr int kAlignA = 128 / cutlass::sizeof_bits<ElementA>::value;  // 16-byte TMA rows: 32 values
  static constexpr int kAlignB = 128 / cutlass::sizeof_bits<ElementB>::value;  // 8
  static constexpr int kAlignD = 128 / cutlass::sizeof_bits<ElementD>::value;  // 8

  using TileShape = cute::Shape<cute::Int<TileM>, cute::Int<TileN>, cute::Int<TileK>>;
  using ClusterShape = cute::Shape<cute::_1, cute::_1, cute::_1>;  // one CTA per cluster: a plain launch

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
      cutlass::gemm::kernel::GemmUniversal<cute::Shape<int, int, int, int>, CollectiveMainloop, CollectiveEpilogue>;

  // CUTLASS's arguments for out^T[N, T] = W[N, K] * x[T, K]^T (hopper_qmm.cu's first comment).
  static typename GemmKernel::Arguments arguments(const HopperQmmArgs& a) {
    using cute::_1;
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
    return args;
  }
};

// The production configurations (hopper_plan.hpp's HopperTile): 128 weight rows x 128 or 256
// tokens x 64 per tile, warp-specialized cooperative (one producer and two consumer warpgroups),
// persistent.
using NarrowHopperGemm = HopperGemm<kHopperTileM, kHopperNarrowTile.tokens, kHopperTileK,
                                    cutlass::gemm::KernelTmaWarpSpecializedCooperative,
                                    cutlass::epilogue::TmaWarpSpecializedCooperative>;
using WideHopperGemm = HopperGemm<kHopperTileM, kHopperWideTile.tokens, kHopperTileK,
                                  cutlass::gemm::KernelTmaWarpSpecializedCooperative,
                                  cutlass::epilogue::TmaWarpSpecializedCooperative>;

}  // namespace gridfuzz::affine
