// MLX's kernel predicates, unmodified: qmm/qmm.cu of MLX 846d176 (supports_qmm_sm90,
// supports_qmm_sm80, supports_qmm_naive, supports_fp_qmv, supports_qmv), compiled against the
// stand-ins of kernels/mlx/shim. Their problem shape comes from qmm/qmm_utils.h, also unmodified.
#include "mlx/backend/cuda/quantized/qmm/qmm.cu"
