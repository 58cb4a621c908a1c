// MLX's qmm_naive host function, unmodified: qmm/qmm_naive.cu of MLX 846d176 (the fallback its
// dispatch takes where qmm_sm80 does not apply: N % 128 != 0, K not a multiple of max(64,
// group_size), bits other than 4 and 8). It computes the problem shape, the CTA tile
// (make_cta_tiler, :17-23), names the kernel as NVRTC would instantiate it (:46-66), and adds the
// kernel node with its grid (:90-93), block (:94) and shared memory (:96-98). No qmm_naive kernel
// is compiled ahead of time, so the JIT module stand-in finds none: the plan has MLX's own
// geometry, and Kernel::check refuses to run such a case, naming the kernel.
#include "mlx/backend/cuda/quantized/qmm/qmm_naive.cu"
