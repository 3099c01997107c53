// Deterministic column sums on the GPU: the second pass of the cuda kernels that reduce per-block
// float32 partials (LayerNormBackward's gradWeight and gradBias, NsaCompressGrad's weightGrad)
// without float atomics. Groups of 32 rows are added pairwise in a fixed tree, pass after pass,
// so a term passes through at most 5 additions per pass and the result never depends on timing.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/cuda_view.cuh"

namespace aclnn_check::cuda {

// Floats of scratch ColumnSum needs for `rows` partial rows of `columns` columns.
int64_t ColumnSumScratchFloats(int64_t rows, int64_t columns);

// out[c] (logical index c of `out`) = the sum over r of partials[r * columns + c], rounded once
// to out's dtype; 0 for rows == 0. partials and scratch are device memory.
void ColumnSum(const float* partials, int64_t rows, int64_t columns, float* scratch,
               const DeviceView& out, cudaStream_t stream);

}  // namespace aclnn_check::cuda
