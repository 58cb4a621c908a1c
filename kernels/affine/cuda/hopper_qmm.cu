// The Hopper path of affine.qmm (variant "hopper"): CUTLASS's sm90 mixed-input GEMM (wgmma + TMA,
// warp-specialized cooperative, collective sm90_mma_tma_gmma_rs_warpspecialized_mixed_input.hpp)
// from the pinned mlx-cuda-13 wheel's headers, compiled as-is for sm_90a only, twice: with token
// tiles of 128 and of 256 (hopper_gemm.cuh; hopper_plan.hpp's hopper_tile picks one by token count).
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
#include <stdexcept>
#include <string>

#include "gridfuzz/affine/hopper_plan.hpp"
#include "hopper_gemm.cuh"
#include "hopper_qmm.hpp"

namespace gridfuzz::affine {
namespace {

// The plan (hopper_plan.cpp, pure C++) states these without CUTLASS; here they are checked.
template <class Gemm>
constexpr bool matches(HopperTile tile) {
  using Kernel = typename Gemm::GemmKernel;
  return Kernel::MaxThreadsPerBlock == kHopperThreads && Kernel::SharedStorageSize == tile.smem_bytes &&
         Kernel::MinBlocksPerMultiprocessor == 1;  // one CTA per SM (persistent)
}
static_assert(matches<NarrowHopperGemm>(kHopperNarrowTile), "hopper_plan.hpp: kHopperThreads, kHopperNarrowTile");
static_assert(matches<WideHopperGemm>(kHopperWideTile), "hopper_plan.hpp: kHopperThreads, kHopperWideTile");

HopperTile tile_of(const HopperQmmArgs& a) {
  return hopper_tile(static_cast<std::uint64_t>(a.tokens), static_cast<std::uint64_t>(a.n), a.sm_count);
}

std::string geometry(const HopperQmmArgs& a) {
  return "hopper qmm (M'=N " + std::to_string(a.n) + ", N'=tokens " + std::to_string(a.tokens) + ", K " +
         std::to_string(a.k) + ", group " + std::to_string(a.group_size) + ", token tile " +
         std::to_string(tile_of(a).tokens) + ")";
}

std::string dims(dim3 d) { return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z); }

template <class Gemm>
const device::Function& function(const char* name) {
  static const device::Function f =
      device::Function::from_symbol(reinterpret_cast<const void*>(&cutlass::device_kernel<typename Gemm::GemmKernel>), name);
  return f;
}

template <class Gemm>
const device::LaunchRecord& launch(const device::Function& f, const LaunchSpec& spec, const HopperQmmArgs& a,
                                   device::Launcher& launcher, CUstream stream) {
  using GemmKernel = typename Gemm::GemmKernel;
  const typename GemmKernel::Arguments args = Gemm::arguments(a);
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
  return launcher.launch_checked(f, spec, kernel_params, stream);
}

}  // namespace

bool hopper_qmm_compiled() { return true; }

const device::Function& hopper_qmm_function(HopperTile tile) {
  return tile.tokens == kHopperWideTile.tokens
             ? function<WideHopperGemm>("qmm_sm90a_cutlass<bf16,u4,128x256x64>")
             : function<NarrowHopperGemm>("qmm_sm90a_cutlass<bf16,u4,128x128x64>");
}

const device::LaunchRecord& launch_hopper_qmm(const LaunchSpec& spec, const HopperQmmArgs& a,
                                              device::Launcher& launcher, CUstream stream) {
  const HopperTile tile = tile_of(a);
  const device::Function& f = hopper_qmm_function(tile);
  return tile.tokens == kHopperWideTile.tokens
             ? launch<WideHopperGemm>(f, spec, a, launcher, stream)
             : launch<NarrowHopperGemm>(f, spec, a, launcher, stream);
}

}  // namespace gridfuzz::affine
