#pragma once
// qmm_small: the 2-64 token path of affine.qmm's "hopper" variant (4-bit weights, dense calls).
// At a few tokens a GEMM tile of MLX's qmm_sm80 (16 tokens x 128 rows) stages X again for every 128
// rows and the weights again for every 16 tokens; the call is bound by reading the 4-bit weights, so here
// every weight is read from DRAM once, dequantized once and applied to all the call's tokens.
//
// Swap-AB mma.sync m16n8k16: the weight rows are the MMA's M side (16 per m-tile, dequantized in
// registers straight into the A fragment), the tokens its N side (8 per n-tile, NT n-tiles = 8 to
// 64 tokens, padding tokens zero-filled and never stored). Block: 8 warps on 128/PARTS weight rows
// and the whole K; warp w owns m-tile w % (8/PARTS) and part w / (8/PARTS) (128 elements) of every
// K chunk of 128*PARTS, so the block reads each weight and each activation once. PARTS 4 (32 rows a
// block, 448 blocks at n 14336) puts twice the warps of PARTS 2 (64 rows) on the same bytes, for
// when the warps' own instructions (dequantization, copies), not the DRAM, bound the call. A 4-stage cp.async pipeline holds per stage: the rows' packed
// weights (8 KB), their scales and biases (2 KB) and the token tile's chunk of activations.
//
// The K order inside a part is permuted, the same way for both operands (a dot product does not
// care): lane (g, t) of a warp takes the 16 packed bytes [16t, 16t+16) of rows g and g+8 of its
// 128-element part, i.e. elements 32t..32t+31; MMA step s of the segment's 8 uses its elements
// 32t+4s..32t+4s+3 as the logical k 2t, 2t+1, 2t+8, 2t+9. Then the activations a lane needs for
// steps 2j and 2j+1 are 8 consecutive elements of its token (one 16-byte shared load), and the
// weights of one step are byte 2(s%2) and 2(s%2)+1 of packed word s/2 (two nibble pairs). The 32
// elements lie in one group (groups of 32-128), so a lane needs one scale and bias per row per
// segment.
//
// Numerics: w = scale*q + bias rounded once to the activation type (one fma in that type), fp32
// MMA accumulation in the permuted K order; the parts' sums are added in a fixed order (part 0 +
// part 1 + ...) through shared memory: no atomics, no split-K across blocks. A token's result
// depends only on its own column of the MMA, never on the other tokens or the token-tile count, so
// running the tokens one at a time gives the same bits (the split reference's premise).
#include <cstdint>

#include "element_types.cuh"
#include "index_math.cuh"
#include "kernel_args.hpp"
#include "mma_primitives.cuh"

namespace gridfuzz::affine {

inline constexpr int kQmmSmallWarpsDevice = 8;
inline constexpr int kQmmSmallStagesDevice = 4;
inline constexpr int kQmmSmallWBytes = 8192;      // 128/PARTS rows x 64*PARTS bytes
inline constexpr int kQmmSmallGroupBytes = 2048;  // scales [rows][4*PARTS] then biases, 2 bytes each

// PARTS: the K parts a block's warps split every chunk into (2 or 4); rows per block 128/PARTS,
// K per chunk 128*PARTS.
template <int PARTS>
inline constexpr int qmm_small_rows = 16 * (kQmmSmallWarpsDevice / PARTS);
template <int PARTS>
inline constexpr int qmm_small_chunk = 128 * PARTS;
template <int NT, int PARTS>
inline constexpr int qmm_small_stage_bytes = kQmmSmallWBytes + kQmmSmallGroupBytes + NT * 8 * qmm_small_chunk<PARTS> * 2;

// Packed weight unit u (16 bytes) of stage row r: odd rows flip bit 2 of the unit, so that the 8
// lanes of a shared-load phase (rows 2p and 2p+1, units 4*part + t) hit 8 distinct 16-byte bank groups.
__device__ __forceinline__ int qmm_small_w_unit(int r, int u) { return u ^ ((r & 1) << 2); }
// Activation unit u (8 elements) of token row n: u = 16*part + 4t + j for lane (g, t) at word quad
// j; bit 1 flipped for t >= 2 and bit 0 for odd tokens makes a phase (tokens 2p and 2p+1, t 0..3)
// conflict-free.
__device__ __forceinline__ int qmm_small_x_unit(int n, int u) { return u ^ (((u >> 3) & 1) << 1) ^ (n & 1); }

// Nibble pair `pair` (0..3: elements 2*pair and 2*pair+1 of the 8 in `word`) as two activation-type
// values kMagic + q: byte `pair` of word and of word >> 4 into the two halves, masked, OR magic.
template <class T>
__device__ __forceinline__ std::uint32_t qmm_small_magic_pair(std::uint32_t word, std::uint32_t word_hi, int pair) {
  const std::uint32_t both = __byte_perm(word, word_hi, static_cast<unsigned>(pair | ((4 + pair) << 8)));
  std::uint32_t d;
  asm("lop3.b32 %0, %1, %2, %3, 0xEA;" : "=r"(d) : "r"(both), "r"(0x000F000Fu), "r"(Element<T>::kMagicPair));
  return d;
}

template <class T>
__device__ __forceinline__ std::uint32_t qmm_small_dequant(std::uint32_t magic_q, typename Element<T>::Pair scale,
                                                          typename Element<T>::Pair bias) {
  using P = typename Element<T>::Pair;
  const P q = __hsub2(as_pair<P>(magic_q), Element<T>::magic_pair());  // exact: q < 16
  const P w = __hfma2(q, scale, bias);                                   // one rounding, as the fixed qmm's
  std::uint32_t bits;
  __builtin_memcpy(&bits, &w, 4);
  return bits;
}

template <class T, int NT, int PARTS, class Index>
__global__ void __launch_bounds__(256, 1) qmm_small_kernel(MatmulArgs a) {
  static_assert(NT == 1 || NT == 2 || NT == 4 || NT == 8);
  static_assert(PARTS == 2 || PARTS == 4);
  using I = typename Index::type;
  using E = Element<T>;
  using P = typename E::Pair;
  constexpr int kTokens = NT * 8;
  constexpr int kRows = qmm_small_rows<PARTS>;       // 64 or 32
  constexpr int kMTiles = kRows / 16;                // 4 or 2
  constexpr int kChunk = qmm_small_chunk<PARTS>;     // 256 or 512
  constexpr int kWRowBytes = kChunk / 2;             // packed bytes of a row in a chunk
  constexpr int kWUnits = kWRowBytes / 16;           // its 16-byte units
  constexpr int kXUnits = kChunk / 8;                // 16-byte units of a token in a chunk
  constexpr int kXRowBytes = kChunk * 2;
  constexpr int kGroupSlots = kChunk / 32;           // scale slots per row: up to kChunk/32 groups (group 32)
  constexpr int kStage = qmm_small_stage_bytes<NT, PARTS>;
  constexpr int S = kQmmSmallStagesDevice;
  static_assert(kRows * kWUnits == 512 && kRows * kWRowBytes == kQmmSmallWBytes);
  static_assert(2 * kRows * kGroupSlots * 2 == kQmmSmallGroupBytes);
  static_assert((kTokens * kXUnits) % 256 == 0 && 256 % kXUnits == 0);

  extern __shared__ uint4 qmm_small_smem[];
  unsigned char* smem = reinterpret_cast<unsigned char*>(qmm_small_smem);
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  const int g = lane >> 2, t = lane & 3;
  const int mt = warp % kMTiles, part = warp / kMTiles;

  const I k = Index::of(a.k), n = Index::of(a.n);
  const I words_per_row = Index::of(a.k / 8);
  const I groups_per_row = Index::of(a.k / a.group_size);
  const int group_shift = __ffs(static_cast<int>(a.group_size)) - 1;  // 5, 6 or 7
  const int chunk_groups = kChunk >> group_shift;                      // groups per row and chunk
  const int chunk_words = chunk_groups >> 1;                           // 4-byte copies per row and array
  const I row0 = Index::of(static_cast<std::int64_t>(blockIdx.x) * kRows);
  const T* x = reinterpret_cast<const T*>(a.x);
  const int tokens = static_cast<int>(a.m);  // <= kTokens (the plan's token tiles)
  const int chunks = static_cast<int>(a.k / kChunk);

  // Each thread's copies, fixed for the whole K loop: only the chunk's K offset moves. The offsets
  // are formed once in the index type (their last values are the plan's w and scale ranges).
  const std::uint32_t* w_src[2];
  int w_dst[2];
  #pragma unroll
  for (int q = 0; q < 2; ++q) {
    const int i = tid + 256 * q, r = i / kWUnits, u = i % kWUnits;
    w_src[q] = a.w + static_cast<std::int64_t>(Index::add(Index::mul(Index::add(row0, Index::of(r)), words_per_row), Index::of(u * 4)));
    w_dst[q] = r * kWRowBytes + qmm_small_w_unit(r, u) * 16;
  }
  const std::uint16_t* g_src[2];
  int g_dst[2];
  const int g_count = 2 * kRows * chunk_words;  // 128 to 512
  #pragma unroll
  for (int q = 0; q < 2; ++q) {
    const int i = tid + 256 * q;
    const int array = i / (kRows * chunk_words), rest = i % (kRows * chunk_words);
    const int r = rest / chunk_words, wd = rest % chunk_words;
    g_src[q] = (array ? a.biases : a.scales) +
               (i < g_count ? static_cast<std::int64_t>(Index::add(Index::mul(Index::add(row0, Index::of(r)), groups_per_row), Index::of(2 * wd))) : 0);
    g_dst[q] = kQmmSmallWBytes + array * (kRows * kGroupSlots * 2) + r * (kGroupSlots * 2) + wd * 4;
  }
  const int x_tok0 = tid / kXUnits, x_u = tid % kXUnits;
  constexpr int kXCopies = kTokens * kXUnits / 256, kXTokStep = 256 / kXUnits;

  auto load_stage = [&](int stage, int c) {
    unsigned char* st = smem + stage * kStage;
    #pragma unroll
    for (int q = 0; q < 2; ++q) cp_async_16(st + w_dst[q], w_src[q] + c * (kChunk / 8), true);
    #pragma unroll
    for (int q = 0; q < 2; ++q)
      if (tid + 256 * q < g_count) cp_async_4(st + g_dst[q], g_src[q] + c * chunk_groups);
    #pragma unroll
    for (int q = 0; q < kXCopies; ++q) {
      const int tok = x_tok0 + q * kXTokStep;
      const bool valid = tok < tokens;  // rows past the call's tokens are zero-filled, no address formed
      const T* src = x;
      if (valid) src += static_cast<std::int64_t>(Index::add(Index::mul(Index::of(tok), k), Index::of(c * kChunk + x_u * 8)));
      cp_async_16(st + kQmmSmallWBytes + kQmmSmallGroupBytes + tok * kXRowBytes + qmm_small_x_unit(tok, x_u) * 16, src, valid);
    }
  };

  float acc[NT][4];
  #pragma unroll
  for (int nt = 0; nt < NT; ++nt)
    #pragma unroll
    for (int e = 0; e < 4; ++e) acc[nt][e] = 0.f;

  #pragma unroll
  for (int s = 0; s < S - 1; ++s) {
    if (s < chunks) load_stage(s, s);
    cp_async_commit();
  }

  const int r_lo = mt * 16 + g;                              // the lane's rows in the block: r_lo and r_lo + 8
  const int w_off = qmm_small_w_unit(r_lo, part * 4 + t) * 16;  // r_lo + 8 has the same parity
  const int group = (part * 128 + t * 32) >> group_shift;    // the group of its 32 elements in the chunk
  for (int c = 0; c < chunks; ++c) {
    cp_async_wait<S - 2>();
    __syncthreads();  // chunk c is visible to all; every warp is done with the stage refilled below
    const int pre = c + S - 1;
    if (pre < chunks) load_stage(pre % S, pre);
    cp_async_commit();

    const unsigned char* st = smem + (c % S) * kStage;
    const uint4 w_lo = *reinterpret_cast<const uint4*>(st + r_lo * kWRowBytes + w_off);
    const uint4 w_hi = *reinterpret_cast<const uint4*>(st + (r_lo + 8) * kWRowBytes + w_off);
    const std::uint16_t* sb = reinterpret_cast<const std::uint16_t*>(st + kQmmSmallWBytes);
    constexpr int kBiases = kRows * kGroupSlots;
    const T s_lo = load_element<T>(sb + r_lo * kGroupSlots + group), s_hi = load_element<T>(sb + (r_lo + 8) * kGroupSlots + group);
    const T b_lo = load_element<T>(sb + kBiases + r_lo * kGroupSlots + group);
    const T b_hi = load_element<T>(sb + kBiases + (r_lo + 8) * kGroupSlots + group);
    const P scale_lo{s_lo, s_lo}, scale_hi{s_hi, s_hi}, bias_lo{b_lo, b_lo}, bias_hi{b_hi, b_hi};
    const unsigned char* xs = st + kQmmSmallWBytes + kQmmSmallGroupBytes;
    const std::uint32_t lo_words[4] = {w_lo.x, w_lo.y, w_lo.z, w_lo.w};
    const std::uint32_t hi_words[4] = {w_hi.x, w_hi.y, w_hi.z, w_hi.w};
    #pragma unroll
    for (int j = 0; j < 4; ++j) {
      // Steps 2j and 2j+1: pairs 0, 1 and 2, 3 of word j, rows g and g+8.
      std::uint32_t wl[4], wh[4];
      const std::uint32_t lo4 = lo_words[j] >> 4, hi4 = hi_words[j] >> 4;
      #pragma unroll
      for (int p = 0; p < 4; ++p) {
        wl[p] = qmm_small_dequant<T>(qmm_small_magic_pair<T>(lo_words[j], lo4, p), scale_lo, bias_lo);
        wh[p] = qmm_small_dequant<T>(qmm_small_magic_pair<T>(hi_words[j], hi4, p), scale_hi, bias_hi);
      }
      const std::uint32_t a0[4] = {wl[0], wh[0], wl[1], wh[1]};
      const std::uint32_t a1[4] = {wl[2], wh[2], wl[3], wh[3]};
      const int u = part * 16 + t * 4 + j;
      #pragma unroll
      for (int nt = 0; nt < NT; ++nt) {
        const int tok = nt * 8 + g;
        const uint4 xv = *reinterpret_cast<const uint4*>(xs + tok * kXRowBytes + qmm_small_x_unit(tok, u) * 16);
        Mma<T>::run(acc[nt], a0, xv.x, xv.y);
        Mma<T>::run(acc[nt], a1, xv.z, xv.w);
      }
    }
  }
  cp_async_wait<0>();
  __syncthreads();  // the pipeline's shared memory is free: parts 1.. hand their sums to part 0 there

  float* partial = reinterpret_cast<float*>(smem);  // [part - 1][m-tile][NT*4][32 lanes]
  auto slot = [&](int p, int nt, int e) { return (((p - 1) * kMTiles + mt) * NT * 4 + nt * 4 + e) * 32 + lane; };
  if (part > 0) {
    #pragma unroll
    for (int nt = 0; nt < NT; ++nt)
      #pragma unroll
      for (int e = 0; e < 4; ++e) partial[slot(part, nt, e)] = acc[nt][e];
  }
  __syncthreads();
  if (part > 0) return;
  // c0, c1: row r_lo, tokens 2t and 2t+1 of the n-tile; c2, c3: row r_lo + 8. Parts added in order.
  T* out = reinterpret_cast<T*>(a.out);
  #pragma unroll
  for (int nt = 0; nt < NT; ++nt)
    #pragma unroll
    for (int e = 0; e < 4; ++e) {
      const int tok = nt * 8 + 2 * t + (e & 1);
      if (tok >= tokens) continue;
      float v = acc[nt][e];
      #pragma unroll
      for (int p = 1; p < PARTS; ++p) v += partial[slot(p, nt, e)];
      const I row = Index::add(row0, Index::of(r_lo + (e >> 1) * 8));
      out[static_cast<std::int64_t>(Index::add(Index::mul(Index::of(tok), n), row))] = E::from_float(v);
    }
}

}  // namespace gridfuzz::affine
