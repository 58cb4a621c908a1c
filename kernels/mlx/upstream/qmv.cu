// MLX's qmv and gather_qmv, unmodified: qmm/qmv.cu of MLX 846d176, kernels and host functions
// together (the host functions instantiate every kernel their dispatch can reach: float32/16,
// bfloat16 x affine 2-8 bits x groups 32/64/128, and the fp modes). The encoder stand-in hands
// each launch, with upstream's grid, block and arguments, to gridfuzz.
#include "mlx/backend/cuda/quantized/qmm/qmv.cu"
