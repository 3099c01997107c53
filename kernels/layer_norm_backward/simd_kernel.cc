// The cpu provider's kernel: Highway SIMD over contiguous gradOut/input/gradInput of one dtype,
// rows split into items for the thread pool; any other call goes to the portable kernel
// (kernel.cc). Same formula and float32 operations per element as kernel.cc; the sums are
// associated differently (README.md "SIMD kernel"), so results agree with the reference within
// the operator's bound rather than with kernel.cc bit for bit:
//   row sums      a cascade of vector blocks (common/simd_cascade_sum-inl.h), then the lanes;
//   column sums   per item, its rows added in order into the item's partial (in the
//                 workspace); the item partials combined by a fixed pairwise tree over item
//                 indices.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "layer_norm_backward/simd_kernel.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <span>

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
using simd::HWY_NAMESPACE::PrefetchAhead;
using simd::HWY_NAMESPACE::StoreRounded;

constexpr int64_t kVectorsPerStep = 4;  // CascadeSum's block
constexpr size_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);
constexpr size_t kMinPrefetchBytes = 4096;

// One row at a time, read twice: the sums, then gradInput from cache. The next rows (at least
// 4 KiB ahead) are prefetched across both passes, gradOut's in the first, input's and gradInput's
// in the second, so that memory stays busy while either pass computes. gradInput's lines are
// prefetched for reading: a line no other core holds arrives exclusive, so the store does not wait
// for it; PREFETCHW (written as asm, as GCC emits it only under -mprfchw) measured no better.
// Measured on 1 thread of this machine (median GB/s of 3 alternating runs, float32/float16/
// bfloat16), against 16-row block partials with prefetching only for rows of 4 KiB or more:
// [65536, 512] 14.5/8.0/10.2 -> 30.0/25.7/19.6, [8192, 4096] 16.9/12.6/11.9 -> 19.2/19.0/17.1.
// Reading 4 rows side by side, to keep their column sums in registers, was slower (a third
// slower on [65536, 512]), and so were 16-row block partials in front of the item's partial.
template <class T>
void Item(const RowItems& job, int64_t item) {
  const hn::ScalableTag<float> df;
  using V = hn::Vec<decltype(df)>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const int64_t m = job.row_size;
  const int64_t whole = m - m % lanes;
  const int64_t stepped = whole - whole % (kVectorsPerStep * lanes);
  const int64_t first = item * job.rows_per_item;
  const int64_t last = std::min(job.rows, first + job.rows_per_item);
  const auto count = hn::Set(df, static_cast<float>(m));
  const size_t row_bytes = static_cast<size_t>(m) * sizeof(T);
  const size_t ahead = (kMinPrefetchBytes + row_bytes - 1) / row_bytes * row_bytes;

  float* item_dw = nullptr;
  float* item_db = nullptr;
  if (job.column_partials) {
    item_dw = job.column_partials + item * 2 * job.padded_size;
    item_db = item_dw + job.padded_size;
  }
  const auto add_columns = [&](bool first_row, int64_t j, V dw, V db) {
    if (!item_dw) return;
    if (!first_row) {
      dw = hn::Add(hn::LoadU(df, item_dw + j), dw);
      db = hn::Add(hn::LoadU(df, item_db + j), db);
    }
    hn::StoreU(dw, df, item_dw + j);
    hn::StoreU(db, df, item_db + j);
  };

  for (int64_t r = first; r < last; ++r) {
    const T* g = static_cast<const T*>(job.grad_out) + r * m;
    const T* x = static_cast<const T*>(job.input) + r * m;
    const V mu = hn::Set(df, job.mean[r]);
    const V rs = hn::Set(df, job.rstd[r]);
    // The row's last partial vector, zero-padded: gradOut's in [0], input's in [1].
    alignas(HWY_MAX_BYTES) T tails[2][kMaxLanes];
    if (whole < m) {
      std::memset(tails, 0, sizeof(tails));
      std::memcpy(tails[0], g + whole, static_cast<size_t>(m - whole) * sizeof(T));
      std::memcpy(tails[1], x + whole, static_cast<size_t>(m - whole) * sizeof(T));
    }
    const auto grad_at = [&](int64_t j) { return j < whole ? g + j : tails[0]; };
    const auto input_at = [&](int64_t j) { return j < whole ? x + j : tails[1]; };
    const bool first_row = r == first;

    CascadeSum<decltype(df)> sum_gw, sum_gw_xh;
    for (int64_t j = 0; j < stepped; j += kVectorsPerStep * lanes) {
      V gw[kVectorsPerStep], gw_xh[kVectorsPerStep], dw[kVectorsPerStep], db[kVectorsPerStep];
      for (int64_t v = 0; v < kVectorsPerStep; ++v) {
        const int64_t at = j + v * lanes;
        PrefetchAhead(g + at, ahead);
        if (!job.grad_input) PrefetchAhead(x + at, ahead);
        db[v] = LoadAsFloat(df, g + at);
        const V xh = hn::Mul(hn::Sub(LoadAsFloat(df, x + at), mu), rs);
        gw[v] = hn::Mul(db[v], hn::LoadU(df, job.weight + at));
        gw_xh[v] = hn::Mul(gw[v], xh);
        dw[v] = hn::Mul(db[v], xh);
      }
      sum_gw.AddBlock(gw[0], gw[1], gw[2], gw[3]);
      sum_gw_xh.AddBlock(gw_xh[0], gw_xh[1], gw_xh[2], gw_xh[3]);
      for (int64_t v = 0; v < kVectorsPerStep; ++v)
        add_columns(first_row, j + v * lanes, dw[v], db[v]);
    }
    for (int64_t j = stepped; j < m; j += lanes) {
      const V gv = LoadAsFloat(df, grad_at(j));
      const V xh = hn::Mul(hn::Sub(LoadAsFloat(df, input_at(j)), mu), rs);
      const V gw = hn::Mul(gv, hn::LoadU(df, job.weight + j));
      // Lanes past M must not enter the row sums (xh there is not 0, and may be inf).
      const auto valid = hn::FirstN(df, static_cast<size_t>(m - j));
      sum_gw.Add(hn::IfThenElseZero(valid, gw));
      sum_gw_xh.Add(hn::IfThenElseZero(valid, hn::Mul(gw, xh)));
      add_columns(first_row, j, hn::Mul(gv, xh), gv);
    }
    if (!job.grad_input) continue;

    const V mean_gw = hn::Div(hn::Set(df, sum_gw.Total()), count);
    const V mean_gw_xh = hn::Div(hn::Set(df, sum_gw_xh.Total()), count);
    const auto grad_input_at = [&](int64_t j) {
      const V gv = LoadAsFloat(df, grad_at(j));
      const V xh = hn::Mul(hn::Sub(LoadAsFloat(df, input_at(j)), mu), rs);
      const V gw = hn::Mul(gv, hn::LoadU(df, job.weight + j));
      return hn::Mul(rs, hn::Sub(hn::Sub(gw, mean_gw), hn::Mul(xh, mean_gw_xh)));
    };
    T* out = static_cast<T*>(job.grad_input) + r * m;
    for (int64_t j = 0; j < whole; j += lanes) {
      PrefetchAhead(x + j, ahead);
      PrefetchAhead(out + j, ahead);
      StoreRounded(grad_input_at(j), df, out + j);
    }
    if (whole < m) {
      alignas(HWY_MAX_BYTES) T tail[kMaxLanes];
      StoreRounded(grad_input_at(whole), df, tail);
      std::memcpy(out + whole, tail, static_cast<size_t>(m - whole) * sizeof(T));
    }
  }
}

void RunItem(const RowItems& job, int64_t item) {
  VisitFloatElement(job.dtype,
                    [&](auto* type) { Item<std::remove_pointer_t<decltype(type)>>(job, item); });
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
// step = 1, 2, 4, ...); the total ends in item 0. Parallel over column ranges of 1 KiB, so that
// short rows (many items of few columns) are combined on every thread too.
void CombinePartials(float* partials, int64_t items, int64_t padded) {
  ParallelRanges(2 * padded, 256, [&](int64_t begin, int64_t end) {
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

// The SIMD path's problem and its float32 arrays in the workspace: mean and rstd [rows], weight
// [padded], then the column partials [items][2][padded] when gradWeight or gradBias is selected.
// Kept in the workspace rather than allocated per call: 4 MiB of partials for either benchmark
// shape were a fresh mapping, and its page faults, on every call.
struct SimdLayout {
  RowItems job;
  int64_t items = 0;
  bool columns = false;

  int64_t Floats() const {
    return 2 * job.rows + job.padded_size + (columns ? items * 2 * job.padded_size : 0);
  }
};

// nullopt for calls that the portable kernel takes.
std::optional<SimdLayout> SimdLayoutOf(const OpArgs& args) {
  const std::optional<RowShape> shape = RowsOf(args);
  const TensorView* grad_out = args.tensor(kGradOut);
  const TensorView* input = args.tensor(kInput);
  const TensorView* grad_input = MaskOn(args, 0) ? args.tensor(kGradInput) : nullptr;
  if (!shape || shape->rows == 0 || shape->row_size == 0 || !grad_out || !input ||
      !SameDTypeContiguous(grad_out, input->dtype) || !SameDTypeContiguous(input, input->dtype) ||
      !SameDTypeContiguous(grad_input, input->dtype)) {
    return std::nullopt;
  }
  SimdLayout layout;
  RowItems& job = layout.job;
  job.dtype = input->dtype;
  job.grad_out = FirstElement(*grad_out);
  job.input = FirstElement(*input);
  job.grad_input = grad_input ? FirstElement(*grad_input) : nullptr;
  job.rows = shape->rows;
  job.row_size = shape->row_size;
  job.padded_size = (job.row_size + kPadFloats - 1) / kPadFloats * kPadFloats;
  job.rows_per_item = RowsPerItem(job.row_size);
  layout.items = (job.rows + job.rows_per_item - 1) / job.rows_per_item;
  layout.columns = MaskOn(args, 1) || MaskOn(args, 2);
  return layout;
}

}  // namespace

HWY_EXPORT(RunItem);

uint64_t SimdWorkspaceBytes(const OpArgs& args) {
  const std::optional<SimdLayout> layout = SimdLayoutOf(args);
  const uint64_t simd = layout ? static_cast<uint64_t>(layout->Floats()) * sizeof(float) : 0;
  return std::max(simd, WorkspaceBytes(args));
}

void SimdCompute(const OpArgs& args, void* workspace) {
  std::optional<SimdLayout> layout = SimdLayoutOf(args);
  if (!layout) {
    Compute(args, workspace);
    return;
  }
  RowItems& job = layout->job;
  const auto rows = static_cast<size_t>(job.rows);
  const auto padded = static_cast<size_t>(job.padded_size);
  float* mean = static_cast<float*>(workspace);
  float* rstd = mean + rows;
  float* weight = rstd + rows;
  ReadAsFloat(*args.tensor(kMean), std::span<float>(mean, rows));
  ReadAsFloat(*args.tensor(kRstd), std::span<float>(rstd, rows));
  const auto m = static_cast<size_t>(job.row_size);
  if (const TensorView* w = args.tensor(kWeight)) {
    ReadAsFloat(*w, std::span<float>(weight, m));
  } else {
    std::fill(weight, weight + m, 1.0f);
  }
  std::fill(weight + m, weight + padded, 0.0f);
  job.mean = mean;
  job.rstd = rstd;
  job.weight = weight;
  job.column_partials = layout->columns ? weight + padded : nullptr;
  CpuThreadPool().ForEachItem(layout->items, [&](int64_t item) {
    HWY_DYNAMIC_DISPATCH(RunItem)(job, item);
  });
  if (!job.column_partials) return;
  CombinePartials(job.column_partials, layout->items, job.padded_size);
  if (MaskOn(args, 1)) {
    WriteFromFloat(*args.tensor(kGradWeight), std::span<const float>(job.column_partials, m));
  }
  if (MaskOn(args, 2)) {
    WriteFromFloat(*args.tensor(kGradBias),
                   std::span<const float>(job.column_partials + job.padded_size, m));
  }
}

}  // namespace aclnn_check::layer_norm_backward
#endif  // HWY_ONCE
