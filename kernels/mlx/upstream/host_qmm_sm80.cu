// MLX's qmm_sm80 host function, unmodified: qmm/qmm_sm80.cu of MLX 846d176. It computes the
// problem shape (qmm_utils.h make_problem_shape: the int l = out.size() / (m * n)), the CTA
// tile, the grid, the block and the shared memory, names the kernel as NVRTC would instantiate
// it, and adds the kernel node. The JIT module stand-in finds the ahead-of-time instantiation
// (qmm_sm80_kernels_*.cu) by that name; the encoder stand-in hands the node to gridfuzz.
#include "mlx/backend/cuda/quantized/qmm/qmm_sm80.cu"
