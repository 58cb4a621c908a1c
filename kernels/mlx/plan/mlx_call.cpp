// Compiled with -fwrapv (kernels/mlx/CMakeLists.txt): the int products of the reproduced eval_gpu
// lines wrap as they do in MLX's own build (gcc/clang emit a 32-bit imul), instead of being
// undefined behaviour the optimizer may assume away.
#include "mlx_call.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>

#include "mlx/array.h"
#include "mlx/backend/cuda/device.h"
#include "mlx/backend/cuda/quantized/qmm/qmm.h"

namespace gridfuzz::mlx {
namespace {

namespace mc = ::mlx::core;

constexpr std::uint64_t kInt32Max = INT32_MAX;

mc::Dtype array_dtype(affine::Dtype d) { return d == affine::Dtype::float16 ? mc::float16 : mc::bfloat16; }

// MLX shapes are int32; every extent of a call stays below 2^31 (the axes' bounds).
int extent(std::uint64_t v) {
  if (v > kInt32Max) throw std::invalid_argument("mlx: extent " + std::to_string(v) + " does not fit MLX's int32 shape");
  return static_cast<int>(v);
}

void* advance(void* base, std::uint64_t elements, std::uint64_t element_bytes) {
  return base == nullptr ? nullptr : static_cast<char*>(base) + elements * element_bytes;
}

// The arrays of one MLX call: the whole call, a dense row chunk or a gather pair chunk.
struct CallArrays {
  mc::array x, w, scales;
  std::optional<mc::array> biases;
  std::optional<mc::array> lhs, rhs;
  mc::array out;
};

// Dense rows [r0, r0 + rows): x [rows, K], out [rows, N]; the weights are the whole [N, K] matrix.
CallArrays dense_arrays(const affine::MatmulShape& s, std::uint64_t r0, std::uint64_t rows, const DevicePointers& p) {
  const mc::Dtype t = array_dtype(s.dtype);
  const int n = extent(s.n), k = extent(s.k);
  const int words = extent(s.words_per_row()), groups = extent(s.groups_per_row());
  return {mc::array({extent(rows), k}, t, advance(p.x, r0 * s.k, t.size)),
          mc::array({n, words}, mc::uint32, p.w),
          mc::array({n, groups}, t, p.scales),
          mc::array({n, groups}, t, p.biases),
          std::nullopt,
          std::nullopt,
          mc::array({extent(rows), n}, t, advance(p.out, r0 * s.n, t.size))};
}

// Gather pairs [p0, p0 + pairs) in mlx-lm's sorted form: x [tokens, 1, K], w [E, N, K/pack],
// indices [pairs], out [pairs, 1, N].
CallArrays gather_arrays(const affine::MatmulShape& s, std::uint64_t p0, std::uint64_t pairs, const DevicePointers& p) {
  const mc::Dtype t = array_dtype(s.dtype);
  const int n = extent(s.n), k = extent(s.k), e = extent(s.experts);
  const int words = extent(s.words_per_row()), groups = extent(s.groups_per_row());
  const int count = extent(pairs);
  return {mc::array({extent(s.x_batches), 1, k}, t, p.x),
          mc::array({e, n, words}, mc::uint32, p.w),
          mc::array({e, n, groups}, t, p.scales),
          mc::array({e, n, groups}, t, p.biases),
          mc::array({count}, mc::uint32, advance(p.lhs, p0, 4)),
          mc::array({count}, mc::uint32, advance(p.rhs, p0, 4)),
          mc::array({count, 1, n}, t, advance(p.out, p0 * s.n, t.size))};
}

struct Supported {
  bool qmm_sm90 = false, qmm_sm80 = false, qmm_naive = false, qmv = false;
};

// quantized.cpp:28-45 (dense) and :176-191 (gather): upstream's predicates on the call's arrays,
// transpose = true and affine mode as mlx-lm calls them. GatherQMM asks no sm90 and no fp_qmv.
Supported supported(const CallArrays& a, const affine::MatmulShape& s, mc::cu::Device& device) {
  constexpr bool transpose = true;
  constexpr mc::QuantizationMode mode = mc::QuantizationMode::Affine;
  auto supports = [&](auto&& f) {
    return f(a.x, a.w, a.scales, a.biases, a.out, transpose, s.bits, s.group_size, mode, device);
  };
  Supported r;
  r.qmm_sm90 = !s.gather && supports(mc::supports_qmm_sm90);
  r.qmm_sm80 = supports(mc::supports_qmm_sm80);
  r.qmm_naive = supports(mc::supports_qmm_naive);
  const bool fp_qmv = !s.gather && supports(mc::supports_fp_qmv);
  r.qmv = supports(mc::supports_qmv) || fp_qmv;
  return r;
}

// The branch of eval_gpu: quantized.cpp:106-136 (dense) and :241-262 (gather), with M and B as
// the caller computed them.
template <class Int>
Path choose(const Supported& c, bool gather, Int m, Int n, Int k, Int b) {
  if (!gather && c.qmm_sm90) return c.qmv && (m == 1 && b == 1 && n <= 16384 && k <= 16384) ? Path::qmv : Path::qmm_sm90;
  if (c.qmm_sm80) return c.qmv && (m * b < 8) ? Path::qmv : Path::qmm_sm80;
  if (c.qmm_naive) return c.qmv && (m * b < 8) ? Path::qmv : Path::qmm_naive;
  if (c.qmv) return Path::qmv;
  throw std::invalid_argument("mlx: MLX has no implementation for this call (quantized.cpp:138 / :264)");
}

u128 last(u128 count) { return count == 0 ? 0 : count - 1; }

// The index expressions of the launched kernel, from the values it receives (args as MLX's host
// code packed them, grid as it computed it). Each range is the largest value of one expression
// as the kernel forms it, in the type it forms it in.
std::vector<IndexRange> kernel_ranges(Path path, const affine::MatmulShape& s, const mc::cu::KernelNode& node,
                                      void** args) {
  const u128 grid_y = node.grid.y, grid_z = node.grid.z;
  std::vector<IndexRange> r;
  if (path == Path::qmv) {
    // qmv_kernel (qmv.cu:201-206), one int expression each, m = gridDim.y, l = blockIdx.z:
    //   x += y*k + m*k*l;  out += y*n + m*n*l;  w_batch = broadcast_w ? 0 : l
    // gather_qmv_kernel (qmv.cu:239-245): x += y*k + m*k*x_idx with x_idx = lhs[l] uint32 (so an
    // unsigned sum), out as above, w_idx = rhs[l].
    // qmv_kernel_impl (qmv.cu:114-117): (int64(row) + n*w_batch) * ..., n*w_batch in int.
    const int n = *static_cast<int*>(args[s.gather ? 7 : 6]);
    const int k = *static_cast<int*>(args[s.gather ? 8 : 7]);
    const u128 m = grid_y, un = static_cast<std::uint32_t>(n), uk = static_cast<std::uint32_t>(k);
    if (m == 0 || grid_z == 0) return r;  // nothing runs
    r.push_back({"out_offset", (m - 1) * un + m * un * (grid_z - 1), IndexType::int32, "elements"});
    if (s.gather) {
      r.push_back({"x_offset", (m - 1) * uk + m * uk * (s.x_batches - 1), IndexType::uint32, "elements"});
      r.push_back({"w_batch_rows", un * (s.experts - 1), IndexType::int32, "rows"});
    } else {
      const bool broadcast_w = *static_cast<bool*>(args[8]);
      r.push_back({"x_offset", (m - 1) * uk + m * uk * (grid_z - 1), IndexType::int32, "elements"});
      r.push_back({"w_batch_rows", broadcast_w ? 0 : un * (grid_z - 1), IndexType::int32, "rows"});
    }
    return r;
  }
  // qmm_sm80_kernel (device/qmm_sm80.cuh:303-329) and qmm_naive_kernel (device/qmm_naive.cuh:
  // 251-278, the same layouts through gemm_sm70.cuh:221-227's make_matrix_stride): int layouts
  // (m, k) : (k, 1), (n, k) : (k, 1), (m, n) : (n, 1), so an offset inside a batch slice (row*k +
  // kk, col*k + kk, row*n + col) is an int; the slice itself is a pointer moved by l_coord*(m*n)
  // (int), a_batch*(m*k) and b_batch*(n*k) (a_batch, b_batch uint32: unsigned 32-bit products; the
  // dense weight's batch stride is 0), scales by b_batch*(n*k/group_size). qmm_naive's arguments
  // have global_scale before the indices (qmm_naive.cu:106-118), so m, n, k sit one later.
  const std::size_t at = path == Path::qmm_naive ? 8 : 7;
  const int m = *static_cast<int*>(args[at]), n = *static_cast<int*>(args[at + 1]), k = *static_cast<int*>(args[at + 2]);
  const bool broadcast_b = *static_cast<bool*>(args[at + 4]);
  const u128 um = static_cast<std::uint32_t>(m), un = static_cast<std::uint32_t>(n), uk = static_cast<std::uint32_t>(k);
  const u128 x_slices = s.gather ? u128{s.x_batches} : grid_z;
  const u128 w_slices = broadcast_b ? 1 : (s.gather ? u128{s.experts} : grid_z);
  r.push_back({"out_row_offset", last(um * un), IndexType::int32, "elements"});
  r.push_back({"x_row_offset", last(um * uk), IndexType::int32, "elements"});
  r.push_back({"w_row_offset", last(un * uk), IndexType::int32, "elements"});
  r.push_back({"out_batch_offset", last(grid_z) * um * un, IndexType::int32, "elements"});
  r.push_back({"x_batch_offset", last(x_slices) * um * uk, IndexType::uint32, "elements"});
  r.push_back({"w_batch_offset", last(w_slices) * un * uk, IndexType::uint32, "elements"});
  r.push_back({"scale_batch_offset", last(w_slices) * un * (uk / static_cast<unsigned>(s.group_size)),
               IndexType::uint32, "elements"});
  return r;
}

std::string launch_name(Path path, bool gather) {
  if (path == Path::qmv) return gather ? "mlx.gather_qmv" : "mlx.qmv";
  return "mlx." + to_string(path);
}

// Calls MLX's host function for `path` on `a`; every kernel node it adds is recorded in `call`
// and handed to `sink`.
void issue(Path path, const affine::MatmulShape& s, CallArrays& a, mc::cu::Device& device, MlxCall& call,
           const LaunchSink& sink) {
  mc::cu::CommandEncoder encoder(device, [&](const mc::cu::KernelNode& node, void** args) {
    MlxLaunch l;
    l.function = node.function;
    l.kernel = node.name.empty() ? (s.gather ? "mlx::core::cu::gather_qmv_kernel" : "mlx::core::cu::qmv_kernel")
                                 : node.name;
    l.spec.name = launch_name(path, s.gather);
    l.spec.grid = {node.grid.x, node.grid.y, node.grid.z};
    l.spec.block = {node.block.x, node.block.y, node.block.z};
    l.spec.dynamic_smem_bytes = node.smem_bytes;
    // qmm_sm80.cu:90-93 raises the limit above 48000 bytes; qmm_naive.cu asks for no opt-in.
    l.spec.smem_optin = path == Path::qmm_sm80 && node.smem_bytes > 48000;
    for (IndexRange& range : kernel_ranges(path, s, node, args)) call.indices.push_back(std::move(range));
    call.launches.push_back(l);
    if (sink) sink(l, args);
  });
  constexpr mc::QuantizationMode mode = mc::QuantizationMode::Affine;
  switch (path) {
    case Path::qmv:
      if (s.gather)
        mc::gather_qmv(a.x, a.w, a.scales, a.biases, *a.lhs, *a.rhs, a.out, s.bits, s.group_size, mode, encoder);
      else
        mc::qmv(a.x, a.w, a.scales, a.biases, std::nullopt, a.out, s.bits, s.group_size, mode, encoder);
      return;
    case Path::qmm_sm80:
      mc::qmm_sm80(a.x, a.w, a.scales, a.biases, a.lhs, a.rhs, a.out, s.bits, s.group_size, mode, encoder);
      return;
    case Path::qmm_naive:
      // MLX's host function runs (upstream/host_qmm_naive.cu): the launch has MLX's geometry and
      // kernel name; no qmm_naive kernel is compiled ahead of time, so its function is null and
      // Kernel::check refuses to run the case, naming the kernel.
      mc::qmm_naive(a.x, a.w, a.scales, a.biases, std::nullopt, a.lhs, a.rhs, a.out, /*transpose=*/true, s.bits,
                    s.group_size, mode, encoder);
      return;
    case Path::qmm_sm90:
      // Not built (docs/upstream/mlx.md, "What is built": its host function needs MLX's copy
      // primitives, qmm_sm90.cu:19-27, 137-138): one launch without geometry or function, which
      // Kernel::check turns into a clear refusal.
      call.launches.push_back({nullptr, to_string(path), LaunchSpec{launch_name(path, s.gather), {}, {}, 0, false, {}}});
      return;
  }
}

CallArrays whole_arrays(const affine::MatmulShape& s, const DevicePointers& p) {
  return s.gather ? gather_arrays(s, 0, s.batches, p) : dense_arrays(s, 0, s.m, p);
}

// The path MLX picks with the batch count computed in 64-bit (the chunked variant, the reference).
Path path_64(const affine::MatmulShape& s, mc::cu::Device& device) {
  const DevicePointers none;
  const CallArrays a = whole_arrays(s, none);
  const u128 b = u128{s.out_elements()} / (u128{s.m} * s.n);
  return choose<u128>(supported(a, s, device), s.gather, s.m, s.n, s.k, b);
}

MlxCall run_upstream(const affine::MatmulShape& s, mc::cu::Device& device, const DevicePointers& p,
                     const LaunchSink& sink) {
  MlxCall call;
  CallArrays a = whole_arrays(s, p);
  const Supported c = supported(a, s, device);
  // quantized.cpp:101-104 (dense) and :171-174 (gather), as written there:
  //   int M = out.ndim() > 1 ? out.shape(-2) : 1;
  //   int N = out.shape(-1);
  //   int K = x.shape(-1);
  //   int B = out.size() / (M * N);
  // (the int product is converted to size_t for the division and the quotient back to int).
  const mc::array& out = a.out;
  const mc::array& x = a.x;
  int M = out.ndim() > 1 ? out.shape(-2) : 1;
  int N = out.shape(-1);
  int K = x.shape(-1);
  if (M * N == 0) {
    call.host_error = "div-by-zero";
    return call;
  }
  int B = static_cast<int>(out.size() / static_cast<std::size_t>(M * N));
  call.path = choose<int>(c, s.gather, M, N, K, B);
  issue(call.path, s, a, device, call, sink);
  return call;
}

MlxCall run_chunked(const affine::MatmulShape& s, const DeviceLimits& limits, mc::cu::Device& device,
                    const DevicePointers& p, const LaunchSink& sink) {
  MlxCall call;
  call.path = path_64(s, device);
  if (s.gather) {
    const std::uint64_t cap = chunk_pairs(s, limits);
    for (std::uint64_t p0 = 0; p0 < s.batches; p0 += cap) {
      CallArrays a = gather_arrays(s, p0, std::min(cap, s.batches - p0), p);
      issue(call.path, s, a, device, call, sink);
    }
  } else {
    const std::uint64_t cap = chunk_rows(s, limits);
    for (std::uint64_t r0 = 0; r0 < s.m; r0 += cap) {
      CallArrays a = dense_arrays(s, r0, std::min(cap, s.m - r0), p);
      issue(call.path, s, a, device, call, sink);
    }
  }
  return call;
}

// The chunks of the chunked call in run_chunked's order, as runs of one size: `count` full chunks
// of chunk_rows (dense) or chunk_pairs (gather), then the shorter rest, if any.
struct ChunkRun {
  std::uint64_t size = 0, count = 0;
};

std::vector<ChunkRun> chunk_runs(const affine::MatmulShape& s, const DeviceLimits& limits) {
  const std::uint64_t total = s.gather ? s.batches : s.m;
  const std::uint64_t cap = s.gather ? chunk_pairs(s, limits) : chunk_rows(s, limits);
  std::vector<ChunkRun> runs;
  if (total / cap > 0) runs.push_back({cap, total / cap});
  if (total % cap > 0) runs.push_back({total % cap, 1});
  return runs;
}

// What MLX's host function plans for one chunk of `size`. Without pointers a chunk's arrays are
// only its extents (their data stays null: advance), and MLX's host code and kernel_ranges read
// nothing else, so every chunk of one size gets these same launches and indices.
MlxCall plan_chunk(Path path, const affine::MatmulShape& s, std::uint64_t size, mc::cu::Device& device) {
  const DevicePointers none;
  MlxCall chunk;
  chunk.path = path;
  CallArrays a = s.gather ? gather_arrays(s, 0, size, none) : dense_arrays(s, 0, size, none);
  issue(path, s, a, device, chunk, {});
  return chunk;
}

// run_chunked's plan with MLX's host function asked once per run of equal chunks: its launches and
// indices repeated for each chunk of the run, in the same order.
MlxCall plan_chunked(const affine::MatmulShape& s, const DeviceLimits& limits, mc::cu::Device& device) {
  MlxCall call;
  call.path = path_64(s, device);
  for (const ChunkRun& run : chunk_runs(s, limits)) {
    const MlxCall chunk = plan_chunk(call.path, s, run.size, device);
    for (std::uint64_t i = 0; i < run.count; ++i) {
      call.launches.insert(call.launches.end(), chunk.launches.begin(), chunk.launches.end());
      call.indices.insert(call.indices.end(), chunk.indices.begin(), chunk.indices.end());
    }
  }
  return call;
}

}  // namespace

std::optional<Variant> parse_variant(const std::string& name) {
  if (name == "upstream") return Variant::upstream;
  if (name == "chunked") return Variant::chunked;
  return std::nullopt;
}

std::string to_string(Path p) {
  switch (p) {
    case Path::qmv: return "qmv";
    case Path::qmm_sm90: return "qmm_sm90";
    case Path::qmm_sm80: return "qmm_sm80";
    case Path::qmm_naive: return "qmm_naive";
  }
  return "?";
}

std::uint64_t chunk_rows(const affine::MatmulShape& s, const DeviceLimits& limits) {
  return std::max<std::uint64_t>(
      1, std::min({kInt32Max / std::max<std::uint64_t>(s.n, 1), kInt32Max / std::max<std::uint64_t>(s.k, 1),
                   limits.max_grid_y}));
}

std::uint64_t chunk_pairs(const affine::MatmulShape& s, const DeviceLimits& limits) {
  return std::max<std::uint64_t>(1, std::min(limits.max_grid_z, kInt32Max / std::max<std::uint64_t>(s.m * s.n, 1)));
}

MlxCall run_call(const affine::MatmulShape& s, Variant variant, const DeviceLimits& limits,
                 const DevicePointers* pointers, const LaunchSink& sink) {
  mc::cu::Device device(limits.cc_major, limits.cc_minor);
  const DevicePointers none;
  const DevicePointers& p = pointers ? *pointers : none;
  const LaunchSink& out = pointers ? sink : LaunchSink{};
  if (variant == Variant::upstream) return run_upstream(s, device, p, out);
  return pointers ? run_chunked(s, limits, device, p, out) : plan_chunked(s, limits, device);
}

std::vector<MlxLaunch> dispatched_kernels(const affine::MatmulShape& s, Variant variant, const DeviceLimits& limits) {
  if (variant == Variant::upstream) return run_call(s, variant, limits).launches;
  mc::cu::Device device(limits.cc_major, limits.cc_minor);
  const Path path = path_64(s, device);
  std::vector<MlxLaunch> launches;
  for (const ChunkRun& run : chunk_runs(s, limits))
    for (MlxLaunch& l : plan_chunk(path, s, run.size, device).launches) launches.push_back(std::move(l));
  return launches;
}

std::vector<SplitPiece> reference_pieces(const affine::MatmulShape& s, const DeviceLimits& limits) {
  std::vector<SplitPiece> pieces;
  if (s.gather) {
    const std::uint64_t cap = std::min<std::uint64_t>(chunk_pairs(s, limits), 32768);
    for (std::uint64_t b0 = 0; b0 < s.batches; b0 += cap) pieces.push_back({"pairs", b0, std::min(s.batches, b0 + cap)});
    return pieces;
  }
  const std::uint64_t cap = std::max<std::uint64_t>(1, std::min<std::uint64_t>(8192, chunk_rows(s, limits) / 2));
  for (std::uint64_t r0 = 0; r0 < s.m; r0 += cap) pieces.push_back({"tokens", r0, std::min(s.m, r0 + cap)});
  // A short last piece would get a smaller CTA tile than the whole call (qmm_sm80.cu:17-22).
  if (pieces.size() > 1 && pieces.back().end - pieces.back().begin < 64) {
    pieces[pieces.size() - 2].end = pieces.back().end;
    pieces.pop_back();
  }
  return pieces;
}

MlxCall run_split_reference(const affine::MatmulShape& s, const DeviceLimits& limits, const DevicePointers* pointers,
                            const LaunchSink& sink) {
  mc::cu::Device device(limits.cc_major, limits.cc_minor);
  const DevicePointers none;
  const DevicePointers& p = pointers ? *pointers : none;
  const LaunchSink& out = pointers ? sink : LaunchSink{};
  MlxCall call;
  call.path = path_64(s, device);
  for (const SplitPiece& piece : reference_pieces(s, limits)) {
    CallArrays a = s.gather ? gather_arrays(s, piece.begin, piece.end - piece.begin, p)
                            : dense_arrays(s, piece.begin, piece.end - piece.begin, p);
    issue(call.path, s, a, device, call, out);
  }
  return call;
}

}  // namespace gridfuzz::mlx
