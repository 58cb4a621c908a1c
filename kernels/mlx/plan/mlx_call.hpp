#pragma once
// One MLX quantized matmul call (QuantizedMatmul or GatherQMM, affine mode, transposed weights as
// mlx-lm uses them), run through MLX's own host code: upstream's supports_* predicates (qmm.cu),
// make_problem_shape (qmm_utils.h) and the qmv / gather_qmv / qmm_sm80 / qmm_naive host functions
// (qmv.cu, qmm_sm80.cu, qmm_naive.cu), all compiled unmodified against the stand-ins of
// kernels/mlx/shim (qmm_naive's kernels are not compiled: its launches have no function). Only the few
// lines of eval_gpu that pick among them (quantized.cpp:101-131 and :171-262; eval_gpu needs
// MLX's Primitive and streams) are reproduced, in mlx_call.cpp, line for line.
//
// Without device pointers the call only records what the host code would launch (the plan; no
// GPU needed); with them each launch goes to the sink as MLX's host code issues it, with its
// arguments. docs/upstream/mlx.md describes the variants.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gridfuzz/affine/matmul_plan.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/launch_plan.hpp"

namespace gridfuzz::mlx {

// upstream: one call as MLX makes it. chunked: the minimal host fix: the batch count in 64-bit,
// the dispatch decided once on the whole call, then MLX's same host function over row chunks
// whose M*N (and M*K) fit in int32, and over batch chunks of at most max_grid_z slices whose
// l*M*N fits too.
enum class Variant { upstream, chunked };
std::optional<Variant> parse_variant(const std::string& name);

// The kernel MLX's dispatch picks.
enum class Path { qmv, qmm_sm90, qmm_sm80, qmm_naive };
std::string to_string(Path p);

// Device addresses of the whole call's buffers (affine's buffer layout: x, w, scales, biases,
// [lhs, rhs,] out).
struct DevicePointers {
  void* x = nullptr;
  void* w = nullptr;
  void* scales = nullptr;
  void* biases = nullptr;
  void* lhs = nullptr;
  void* rhs = nullptr;
  void* out = nullptr;
};

// One launch MLX's host code issued.
struct MlxLaunch {
  const void* function = nullptr;  // the compiled kernel; nullptr when this build lacks it
  std::string kernel;              // MLX's name for it (qmm: the NVRTC name expression)
  LaunchSpec spec;
};

// Receives each launch with upstream's argument array (valid during the call only).
using LaunchSink = std::function<void(const MlxLaunch&, void** args)>;

struct MlxCall {
  // "div-by-zero": eval_gpu divides out.size() by the int M*N, which wrapped to 0
  // (quantized.cpp:104 / :174); MLX's process dies there (SIGFPE), nothing is launched.
  std::optional<std::string> host_error;
  Path path = Path::qmm_sm80;
  std::vector<MlxLaunch> launches;
  std::vector<IndexRange> indices;  // what the launched kernels form, from the values they receive
};

// Runs the call. `pointers` null: plan only (sink unused); the chunked call's plan then asks MLX's
// host function once per distinct chunk size and repeats its launches and indices for the other
// chunks of that size (see dispatched_kernels), the same plan as issuing every chunk.
MlxCall run_call(const affine::MatmulShape& shape, Variant variant, const DeviceLimits& limits,
                 const DevicePointers* pointers = nullptr, const LaunchSink& sink = {});

// The launches of the call's plan with each chunk size once: upstream's one call; chunked, one chunk
// of each distinct size (every full chunk, then a shorter last one, which may get another CTA tile,
// qmm_sm80.cu:17-22). Without pointers, chunks of one size get the same arrays, so the same
// launches: this names every kernel the call dispatches in at most two host calls, where the plan's
// chunks can number hundreds (MlxMatmulKernel::check).
std::vector<MlxLaunch> dispatched_kernels(const affine::MatmulShape& shape, Variant variant, const DeviceLimits& limits);

// The split reference: the whole call's kernel (its path, no dispatch per piece) over pieces that
// are safe under every limit and all get the whole call's CTA tile (dense: row pieces of
// min(8192, row_cap/2) rows, a last piece of fewer than 64 rows merged into the one before; gather:
// pair pieces of min(max_grid_z, 32768)).
std::vector<SplitPiece> reference_pieces(const affine::MatmulShape& shape, const DeviceLimits& limits);
MlxCall run_split_reference(const affine::MatmulShape& shape, const DeviceLimits& limits,
                            const DevicePointers* pointers = nullptr, const LaunchSink& sink = {});

// Rows of one chunk of the chunked dense call: max(1, min(INT32_MAX / N, INT32_MAX / K,
// max_grid_y)) (qmv puts M on grid.y); pairs of one chunk of the chunked gather call:
// max(1, min(max_grid_z, INT32_MAX / (M*N))).
std::uint64_t chunk_rows(const affine::MatmulShape& shape, const DeviceLimits& limits);
std::uint64_t chunk_pairs(const affine::MatmulShape& shape, const DeviceLimits& limits);

}  // namespace gridfuzz::mlx
