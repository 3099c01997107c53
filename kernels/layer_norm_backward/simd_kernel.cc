// The cpu provider's kernel: Highway SIMD over contiguous gradOut/input/gradInput of one dtype,
// rows split into items for the thread pool; any other call goes to the portable kernel
// (kernel.cc). Same formula and float32 operations per element as kernel.cc; the sums are
// associated differently (README.md "SIMD kernel"), so results agree with the reference within
// the operator's bound rather than with kernel.cc bit for bit:
//   row sums      a cascade of vector blocks (common/simd_cascade_sum-inl.h), then the lanes;
//   column sums   per item, 16-row blocks added in order, the blocks added into the item's
//                 partial; the item partials combined by a fixed pairwise tree over item indices.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "layer_norm_backward/simd_kernel.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <cstring>
#include <vector>

#include "common/float_element.h"
#include "common/simd_cascade_sum-inl.h"
#include "common/simd_float_io-inl.h"
#include "common/simd_streams-inl.h"
#include "layer_norm_backward/layer_norm_backward.h"
#include "layer_norm_backward/simd_rows.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::layer_norm_backward::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using simd::HWY_NAMESPACE::CascadeSum;
using simd::HWY_NAMESPACE::LoadAsFloat;
using simd::HWY_NAMESPACE::kPrefetchBytes;
using simd::HWY_NAMESPACE::PrefetchAhead;
using simd::HWY_NAMESPACE::StoreRounded;

constexpr int64_t kRowsPerBlock = 16;
constexpr size_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);
constexpr size_t kMinRowBytesToPrefetch = 4096;

// One row's gradOut and input as vectors: whole vectors straight from the tensor, the last
// partial one from zero-padded copies.
template <class T>
class RowReader {
 public:
  RowReader(const T* row, int64_t size, size_t lanes) : row_(row) {
    tail_start_ = size / static_cast<int64_t>(lanes) * static_cast<int64_t>(lanes);
    std::memset(tail_, 0, sizeof(tail_));
    std::memcpy(tail_, row + tail_start_, static_cast<size_t>(size - tail_start_) * sizeof(T));
  }
  const T* at(int64_t j) const { return j < tail_start_ ? row_ + j : tail_; }

 private:
  const T* row_;
  int64_t tail_start_ = 0;
  alignas(HWY_MAX_BYTES) T tail_[kMaxLanes];
};

template <class T>
void Item(const RowItems& job, int64_t item) {
  const hn::ScalableTag<float> df;
  using V = hn::Vec<decltype(df)>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const int64_t m = job.row_size;
  const int64_t padded = job.padded_size;
  const int64_t first = item * job.rows_per_item;
  const int64_t last = std::min(job.rows, first + job.rows_per_item);
  const auto count = hn::Set(df, static_cast<float>(m));
  const bool columns = job.column_partials != nullptr;
  float* item_dw = columns ? job.column_partials + item * 2 * padded : nullptr;
  float* item_db = columns ? item_dw + padded : nullptr;
  std::vector<float> block(columns ? static_cast<size_t>(2 * padded) : 0);
  float* block_dw = columns ? block.data() : nullptr;
  float* block_db = columns ? block_dw + padded : nullptr;
  if (columns) {
    std::fill(item_dw, item_dw + 2 * padded, 0.0f);
  }
  // Each row is read twice, the second time from cache. Long rows are prefetched kPrefetchBytes
  // or more ahead across both passes, gradOut's in the first and input's in the second, so that
  // memory stays busy while the second pass computes (without gradInput, both in the first).
  // On 1 thread of this machine that took [8192, 4096] from 43-52 % of the triad to 51-63 %
  // (float32) and 28-35 % to 42-48 % (bfloat16); [65536, 512] float32, whose 2 KiB rows stay
  // in L1 between the passes, fell from 52-71 % to 50-56 %, so short rows are left to the
  // hardware prefetchers.
  const size_t row_bytes = static_cast<size_t>(m) * sizeof(T);
  const bool prefetch = row_bytes >= kMinRowBytesToPrefetch;
  const size_t ahead = (kPrefetchBytes + row_bytes - 1) / row_bytes * row_bytes;
  const T* grad_rows = static_cast<const T*>(job.grad_out);
  const T* input_rows = static_cast<const T*>(job.input);
  for (int64_t r = first; r < last; ++r) {
    const RowReader<T> g_row(grad_rows + r * m, m, static_cast<size_t>(lanes));
    const RowReader<T> x_row(input_rows + r * m, m, static_cast<size_t>(lanes));
    const auto mu = hn::Set(df, job.mean[r]);
    const auto rs = hn::Set(df, job.rstd[r]);
    const bool block_start = (r - first) % kRowsPerBlock == 0;
    CascadeSum<decltype(df)> sum_gw(df), sum_gw_xh(df);
    const T* g_row_start = grad_rows + r * m;
    const T* x_row_start = input_rows + r * m;
    for (int64_t j = 0; j < m; j += lanes) {
      if (prefetch) {
        PrefetchAhead(g_row_start + j, ahead);
        if (!job.grad_input) PrefetchAhead(x_row_start + j, ahead);
      }
      const V g = LoadAsFloat(df, g_row.at(j));
      const V xh = hn::Mul(hn::Sub(LoadAsFloat(df, x_row.at(j)), mu), rs);
      const V gw = hn::Mul(g, hn::LoadU(df, job.weight + j));
      // Lanes past M must not enter the row sums (xh there is not 0, and may be inf).
      const auto valid = hn::FirstN(df, static_cast<size_t>(m - j));
      sum_gw.Add(hn::IfThenElseZero(valid, gw));
      sum_gw_xh.Add(hn::IfThenElseZero(valid, hn::Mul(gw, xh)));
      if (columns) {
        const V dw = hn::Mul(g, xh);
        if (block_start) {
          hn::StoreU(dw, df, block_dw + j);
          hn::StoreU(g, df, block_db + j);
        } else {
          hn::StoreU(hn::Add(hn::LoadU(df, block_dw + j), dw), df, block_dw + j);
          hn::StoreU(hn::Add(hn::LoadU(df, block_db + j), g), df, block_db + j);
        }
      }
    }
    if (columns && ((r - first) % kRowsPerBlock == kRowsPerBlock - 1 || r == last - 1)) {
      for (int64_t j = 0; j < m; j += lanes) {
        hn::StoreU(hn::Add(hn::LoadU(df, item_dw + j), hn::LoadU(df, block_dw + j)), df,
                   item_dw + j);
        hn::StoreU(hn::Add(hn::LoadU(df, item_db + j), hn::LoadU(df, block_db + j)), df,
                   item_db + j);
      }
    }
    if (!job.grad_input) continue;
    const auto mean_gw = hn::Div(hn::Set(df, sum_gw.Total()), count);
    const auto mean_gw_xh = hn::Div(hn::Set(df, sum_gw_xh.Total()), count);
    T* out = static_cast<T*>(job.grad_input) + r * m;
    for (int64_t j = 0; j < m; j += lanes) {
      if (prefetch) PrefetchAhead(x_row_start + j, ahead);
      const V g = LoadAsFloat(df, g_row.at(j));
      const V xh = hn::Mul(hn::Sub(LoadAsFloat(df, x_row.at(j)), mu), rs);
      const V gw = hn::Mul(g, hn::LoadU(df, job.weight + j));
      const V dx = hn::Mul(rs, hn::Sub(hn::Sub(gw, mean_gw), hn::Mul(xh, mean_gw_xh)));
      if (j + lanes <= m) {
        StoreRounded(dx, df, out + j);
      } else {
        alignas(HWY_MAX_BYTES) T tail[kMaxLanes];
        StoreRounded(dx, df, tail);
        std::memcpy(out + j, tail, static_cast<size_t>(m - j) * sizeof(T));
      }
    }
  }
}

void RunItem(const RowItems& job, int64_t item) {
  VisitFloatElement(job.dtype, [&](auto* type) {
    Item<std::remove_pointer_t<decltype(type)>>(job, item);
  });
}

}  // namespace aclnn_check::layer_norm_backward::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "common/parallel_chunks.h"

namespace aclnn_check::layer_norm_backward {
namespace {

// Rows of the float32 arrays are padded to whole vectors of every target: 256 bytes, Highway's
// widest vector (HWY_MAX_BYTES is per target; outside the target code it is the baseline's).
constexpr int64_t kPadFloats = 64;

// Items hold about 2^18 elements (1 MiB of float32 per input) and at most 64 rows, so that
// column partials stay few and each item's column sums stay short.
int64_t RowsPerItem(int64_t row_size) {
  return std::clamp<int64_t>((int64_t{1} << 18) / std::max<int64_t>(row_size, 1), 1, 64);
}

// Adds the item partials pairwise in a fixed tree (item i absorbs item i + step for
// step = 1, 2, 4, ...); the total ends in item 0. Parallel over column ranges.
void CombinePartials(float* partials, int64_t items, int64_t padded) {
  ParallelRanges(2 * padded, 4096, [&](int64_t begin, int64_t end) {
    for (int64_t step = 1; step < items; step *= 2) {
      for (int64_t i = 0; i + step < items; i += 2 * step) {
        float* into = partials + i * 2 * padded;
        const float* from = partials + (i + step) * 2 * padded;
        for (int64_t j = begin; j < end; ++j) into[j] += from[j];
      }
    }
  });
}

bool SameDTypeContiguous(const TensorView* view, DType dtype) {
  return !view || (view->dtype == dtype && view->is_contiguous());
}

}  // namespace

HWY_EXPORT(RunItem);

void SimdCompute(const OpArgs& args, void* workspace) {
  const std::optional<RowShape> shape = RowsOf(args);
  const TensorView* grad_out = args.tensor(kGradOut);
  const TensorView* input = args.tensor(kInput);
  const bool want_dx = MaskOn(args, 0);
  const bool want_dw = MaskOn(args, 1);
  const bool want_db = MaskOn(args, 2);
  const TensorView* grad_input = want_dx ? args.tensor(kGradInput) : nullptr;
  if (!shape || shape->rows == 0 || shape->row_size == 0 || !grad_out || !input ||
      !SameDTypeContiguous(grad_out, input->dtype) || !SameDTypeContiguous(input, input->dtype) ||
      !SameDTypeContiguous(grad_input, input->dtype)) {
    Compute(args, workspace);
    return;
  }
  RowItems job;
  job.dtype = input->dtype;
  job.grad_out = FirstElement(*grad_out);
  job.input = FirstElement(*input);
  job.grad_input = grad_input ? FirstElement(*grad_input) : nullptr;
  job.rows = shape->rows;
  job.row_size = shape->row_size;
  job.padded_size = (job.row_size + kPadFloats - 1) / kPadFloats * kPadFloats;
  job.rows_per_item = RowsPerItem(job.row_size);
  const std::vector<float> mean = ReadAsFloat(*args.tensor(kMean));
  const std::vector<float> rstd = ReadAsFloat(*args.tensor(kRstd));
  std::vector<float> weight(static_cast<size_t>(job.padded_size), 0.0f);
  if (const TensorView* w = args.tensor(kWeight)) {
    const std::vector<float> given = ReadAsFloat(*w);
    std::copy(given.begin(), given.end(), weight.begin());
  } else {
    std::fill(weight.begin(), weight.begin() + job.row_size, 1.0f);
  }
  job.mean = mean.data();
  job.rstd = rstd.data();
  job.weight = weight.data();
  const int64_t items = (job.rows + job.rows_per_item - 1) / job.rows_per_item;
  std::vector<float> partials;
  if (want_dw || want_db) {
    partials.resize(static_cast<size_t>(items * 2 * job.padded_size));
    job.column_partials = partials.data();
  }
  CpuThreadPool().ForEachItem(items, [&](int64_t item) {
    HWY_DYNAMIC_DISPATCH(RunItem)(job, item);
  });
  if (!job.column_partials) return;
  CombinePartials(job.column_partials, items, job.padded_size);
  const size_t m = static_cast<size_t>(job.row_size);
  if (want_dw) WriteFromFloat(*args.tensor(kGradWeight), std::span<const float>(partials.data(), m));
  if (want_db) {
    WriteFromFloat(*args.tensor(kGradBias),
                   std::span<const float>(partials.data() + job.padded_size, m));
  }
}

}  // namespace aclnn_check::layer_norm_backward
#endif  // HWY_ONCE
