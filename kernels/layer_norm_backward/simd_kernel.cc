// The cpu provider's kernel: Highway SIMD over contiguous gradOut/input/gradInput of one dtype,
// rows split into items for the thread pool; any other call goes to the portable kernel
// (kernel.cc). Same formula per element as kernel.cc, with two of its multiply-adds fused
// (gradInput's xhat * mean(gw * xhat) term and the gradWeight column term, for speed); the
// sums are associated differently (README.md "SIMD kernel"), so results agree with the reference
// within the operator's bound rather than with kernel.cc bit for bit:
//   row sums      a cascade of vector blocks (cpu/simd_cascade_sum-inl.h), then the lanes;
//   column sums   per item, its rows added in order into the item's partial (in the
//                 workspace); the item partials combined by a fixed pairwise tree over item
//                 indices.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "layer_norm_backward/simd_kernel.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>

#include "cpu/cpu_features.h"
#include "cpu/float_element.h"
#include "cpu/simd_cascade_sum-inl.h"
#include "cpu/simd_float_io-inl.h"
#include "cpu/simd_streams-inl.h"
#include "hwy/cache_control.h"
#include "layer_norm_backward/layer_norm_backward.h"
#include "layer_norm_backward/simd_rows.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::layer_norm_backward::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using simd::HWY_NAMESPACE::CascadeSum;
using simd::HWY_NAMESPACE::LoadAsFloat;
using simd::HWY_NAMESPACE::PrefetchAhead;
using simd::HWY_NAMESPACE::StoreRounded;
using simd::HWY_NAMESPACE::StreamRounded;

constexpr int64_t kVectorsPerStep = 4;  // CascadeSum's block
constexpr size_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);
constexpr size_t kPrefetchBytes = 4096;
// On the pass's lambdas: each is called from several places, and GCC left them out of line, with
// their vectors passed through memory and the captured ones loaded again per call
// (docs/layer-norm-performance.md). A lambda cannot take HWY_INLINE's `inline`.
#ifndef ACLNN_CHECK_LAYER_NORM_INLINE
#define ACLNN_CHECK_LAYER_NORM_INLINE __attribute__((always_inline))
#endif

// One row's operands: gradOut and input, their last partial vector copied into zero-padded
// buffers, and the row's centering. Scalars only: Highway vectors may not be struct members (SVE's
// vector types are sizeless), so the passes broadcast them.
template <class T>
struct RowOperands {
  const T* grad = nullptr;
  const T* input = nullptr;
  int64_t whole = 0;  // elements in whole vectors
  RowCentering centering{0.0f, 0.0f};
  alignas(HWY_MAX_BYTES) T tails[2][kMaxLanes];

  void Point(const RowItems& job, int64_t r, int64_t whole_elements) {
    const int64_t m = job.row_size;
    grad = static_cast<const T*>(job.grad_out) + r * m;
    input = static_cast<const T*>(job.input) + r * m;
    whole = whole_elements;
    centering = RowCentering(job.mean[r], job.rstd[r]);
    if (whole < m) {
      std::memset(tails, 0, sizeof(tails));
      std::memcpy(tails[0], grad + whole, static_cast<size_t>(m - whole) * sizeof(T));
      std::memcpy(tails[1], input + whole, static_cast<size_t>(m - whole) * sizeof(T));
    }
  }
  const T* GradAt(int64_t j) const { return j < whole ? grad + j : tails[0]; }
  const T* InputAt(int64_t j) const { return j < whole ? input + j : tails[1]; }
};

// What gradInput needs of its row's sums: mean(gradOut * weight), mean(gradOut * weight * xhat).
struct RowMeans {
  float gw = 0, gw_xh = 0;
};

// Whether gradInput of T may be streamed (StreamRows); a constant, so that the 16-bit passes are
// compiled without the streamed store.
template <class T>
constexpr bool kStreamable = std::is_same_v<T, float>;

// What every pass of an item shares.
template <class T>
struct ItemContext {
  const RowItems& job;
  int64_t lanes, m, whole, stepped;
  float* item_dw;  // null: neither gradWeight nor gradBias
  float* item_db;
  bool stream;  // gradInput's whole vectors go past the caches (StreamRows)
};

// RowCentering on vectors.
template <class V>
HWY_INLINE V Centered(V x, V mean, V rstd, V shift, bool fused) {
  return fused ? hn::MulAdd(x, rstd, shift) : hn::Mul(hn::Sub(x, mean), rstd);
}

// One pass over the columns, doing up to two rows' work (a software pipeline: the first row's
// second pass from cache while the next row's first pass streams from memory):
//   kSums   the row sums of `next` (gradOut and input read, nothing written), returned as means;
//   kFinish `current`'s gradInput (when `out` is set, from `current_means`) and its column terms.
// `*finite` is cleared when a gradInput value of `current` is inf or NaN.
template <bool kSums, bool kFinish, class DF, class T>
HWY_INLINE RowMeans Pass(DF df, const ItemContext<T>& c,
                         const std::type_identity_t<RowOperands<T>>* current,
                         const RowMeans& current_means, std::type_identity_t<T>* out,
                         bool first_row, const std::type_identity_t<RowOperands<T>>* next,
                         bool* finite) {
  using V = hn::Vec<DF>;
  // Copied into locals: stores through `out` and the partials may alias the operands' members,
  // which the loop would otherwise load again for every vector.
  const float* const weight = c.job.weight;
  float* const item_dw = c.item_dw;
  float* const item_db = c.item_db;
  const RowOperands<T> none{};
  const RowOperands<T>& cur = current ? *current : none;
  const RowOperands<T>& nxt = next ? *next : none;
  const T* const cur_grad = cur.grad;
  const T* const cur_input = cur.input;
  const T* const next_grad = nxt.grad;
  const T* const next_input = nxt.input;
  const V cur_mean = hn::Set(df, cur.centering.mean), cur_rstd = hn::Set(df, cur.centering.rstd);
  const V next_mean = hn::Set(df, nxt.centering.mean);
  const V next_rstd = hn::Set(df, nxt.centering.rstd);
  const V cur_shift = hn::Set(df, cur.centering.shift);
  const V next_shift = hn::Set(df, nxt.centering.shift);
  const bool cur_fused = cur.centering.fused, next_fused = nxt.centering.fused;
  const V mean_gw = hn::Set(df, current_means.gw), mean_gw_xh = hn::Set(df, current_means.gw_xh);
  const V zero = hn::Zero(df);
  // 0 * v summed: stays 0 while every gradInput value is finite, NaN after an inf or NaN.
  V probe = zero;

  // The current row at j: gradInput's vector (stored by the caller) and the column terms.
  const auto finish = [&](const T* g_at, const T* x_at, int64_t j,
                          V w) ACLNN_CHECK_LAYER_NORM_INLINE {
    const V g = LoadAsFloat(df, g_at);
    const V xh = Centered(LoadAsFloat(df, x_at), cur_mean, cur_rstd, cur_shift, cur_fused);
    if (item_dw) {
      V dw = hn::Mul(g, xh), db = g;
      if (!first_row) {
        dw = hn::MulAdd(g, xh, hn::LoadU(df, item_dw + j));
        db = hn::Add(hn::LoadU(df, item_db + j), db);
      }
      hn::StoreU(dw, df, item_dw + j);
      hn::StoreU(db, df, item_db + j);
    }
    const V gw = hn::Mul(g, w);
    const V grad_input = hn::Mul(cur_rstd, hn::NegMulAdd(xh, mean_gw_xh, hn::Sub(gw, mean_gw)));
    probe = hn::MulAdd(grad_input, zero, probe);
    return grad_input;
  };
  // The next row at j: gw and gw * xh, its row sums' terms.
  const auto sums_terms = [&](const T* g_at, const T* x_at, V w, V& gw,
                              V& gw_xh) ACLNN_CHECK_LAYER_NORM_INLINE {
    gw = hn::Mul(LoadAsFloat(df, g_at), w);
    const V xh = Centered(LoadAsFloat(df, x_at), next_mean, next_rstd, next_shift, next_fused);
    gw_xh = hn::Mul(gw, xh);
  };
  // Vector `at` of a whole step: the next row's terms into gw, gw_xh; the current row finished.
  const auto step = [&](int64_t at, V& gw, V& gw_xh) ACLNN_CHECK_LAYER_NORM_INLINE {
    const V w = hn::LoadU(df, weight + at);
    if constexpr (kSums) {
      PrefetchAhead(next_grad + at, kPrefetchBytes);
      PrefetchAhead(next_input + at, kPrefetchBytes);
      sums_terms(next_grad + at, next_input + at, w, gw, gw_xh);
    }
    if constexpr (kFinish) {
      const V grad_input = finish(cur_grad + at, cur_input + at, at, w);
      if (out && kStreamable<T> && c.stream) {
        StreamRounded(grad_input, df, out + at);
      } else if (out) {
        PrefetchAhead(out + at, kPrefetchBytes);
        StoreRounded(grad_input, df, out + at);
      }
    }
  };

  CascadeSum<DF> sum_gw(df), sum_gw_xh(df);
  const int64_t lanes = c.lanes;
  for (int64_t j = 0; j < c.stepped; j += kVectorsPerStep * lanes) {
    V gw0 = zero, gw1 = zero, gw2 = zero, gw3 = zero;
    V gx0 = zero, gx1 = zero, gx2 = zero, gx3 = zero;
    step(j, gw0, gx0);
    step(j + lanes, gw1, gx1);
    step(j + 2 * lanes, gw2, gx2);
    step(j + 3 * lanes, gw3, gx3);
    if constexpr (kSums) {
      sum_gw.AddBlock(gw0, gw1, gw2, gw3);
      sum_gw_xh.AddBlock(gx0, gx1, gx2, gx3);
    }
  }
  for (int64_t j = c.stepped; j < c.m; j += lanes) {
    const V w = hn::LoadU(df, weight + j);
    if constexpr (kSums) {
      V gw = zero, gw_xh = zero;
      sums_terms(nxt.GradAt(j), nxt.InputAt(j), w, gw, gw_xh);
      // Lanes past M must not enter the row sums (xh there is not 0, and may be inf).
      const auto valid = hn::FirstN(df, static_cast<size_t>(c.m - j));
      sum_gw.Add(hn::IfThenElseZero(valid, gw));
      sum_gw_xh.Add(hn::IfThenElseZero(valid, gw_xh));
    }
    if constexpr (kFinish) {
      const V grad_input = finish(cur.GradAt(j), cur.InputAt(j), j, w);
      if (out && j < c.whole) {
        StoreRounded(grad_input, df, out + j);
      } else if (out) {
        alignas(HWY_MAX_BYTES) T tail[kMaxLanes];
        StoreRounded(grad_input, df, tail);
        std::memcpy(out + j, tail, static_cast<size_t>(c.m - j) * sizeof(T));
      }
    }
  }
  if (finite) *finite = hn::AllFalse(df, hn::IsNaN(probe));
  if constexpr (!kSums) return current_means;
  const auto count = static_cast<float>(c.m);
  return {sum_gw.Total() / count, sum_gw_xh.Total() / count};
}

// Whether gradInput's whole vectors are written past the caches: float32 calls that move more than
// the last-level cache holds (gradInput would not stay there anyway) whose rows start on a vector
// boundary, as a streaming store requires. Skipping the read for ownership of gradInput's lines
// made the float32 rows faster; the 16-bit rows, whose time goes to the arithmetic rather than to
// memory, were not, so they keep cached stores (docs/layer-norm-performance.md).
template <class T>
bool StreamRows(const RowItems& job, int64_t lanes) {
  if constexpr (!kStreamable<T>) return false;
  const auto vector_bytes = static_cast<uint64_t>(lanes) * sizeof(T);
  const auto bytes = static_cast<uint64_t>(job.rows * job.row_size) * sizeof(T);
  return job.grad_input && simd::StreamOutputs(3 * bytes) &&
         reinterpret_cast<uintptr_t>(job.grad_input) % vector_bytes == 0 &&
         static_cast<uint64_t>(job.row_size) * sizeof(T) % vector_bytes == 0;
}

// The rows of one item. With gradInput selected each row is read twice, its sums and then its
// gradInput and column terms, and the two passes of consecutive rows run in one loop: memory
// streams the next row's gradOut and input (prefetched 4 KiB ahead, into L2) while the current
// row is computed from cache and written. Measured on 1 thread of an AMD EPYC (Zen 4, AVX-512),
// median GB/s of 3 alternating runs, float32/float16/bfloat16, against one row at a time with
// its two passes back to back and prefetcht0: [65536, 512] 13.4/15.0/15.1 -> 26.0/15.5/14.7,
// [8192, 4096] 12.3/11.0/11.3 -> 21.1/16.9/15.1. The 16-bit rows are bound by the operations:
// with the data in L3 they run at the same speed. A row whose gradInput is not finite, and an
// ExtremeRow, is redone in float64 (RescueRow); rows of ExactRowSize take float64 for gradInput
// from the start (ExactRows), the vectors only for their column terms.
template <class T>
void Item(const RowItems& job, int64_t item) {
  using D = hn::ScalableTag<float>;
  const D df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const int64_t m = job.row_size;
  const int64_t whole = m - m % lanes;
  const int64_t stepped = whole - whole % (kVectorsPerStep * lanes);
  ItemContext<T> c{job, lanes, m, whole, stepped, nullptr, nullptr, StreamRows<T>(job, lanes)};
  if (job.column_partials) {
    c.item_dw = job.column_partials + item * 2 * job.padded_size;
    c.item_db = c.item_dw + job.padded_size;
  }
  const int64_t first = item * job.rows_per_item;
  const int64_t last = std::min(job.rows, first + job.rows_per_item);
  RowOperands<T> rows[2]{};
  T* const grad_input = static_cast<T*>(job.grad_input);
  if (!grad_input || ExactRowSize(m)) {
    for (int64_t r = first; r < last && c.item_dw; ++r) {
      rows[0].Point(job, r, whole);
      Pass<false, true>(df, c, &rows[0], RowMeans{}, nullptr, r == first, nullptr, nullptr);
    }
    if (grad_input) ExactRows(*job.args, first, last);
    return;
  }
  rows[0].Point(job, first, whole);
  RowMeans means = Pass<true, false>(df, c, nullptr, RowMeans{}, nullptr, false, &rows[0], nullptr);
  for (int64_t r = first; r < last; ++r) {
    const RowOperands<T>& current = rows[(r - first) % 2];
    RowOperands<T>& next = rows[(r - first + 1) % 2];
    T* out = grad_input + r * m;
    bool finite = true;
    if (r + 1 < last) {
      next.Point(job, r + 1, whole);
      means = Pass<true, true>(df, c, &current, means, out, r == first, &next, &finite);
    } else {
      Pass<false, true>(df, c, &current, means, out, r == first, nullptr, &finite);
    }
    if (!finite || ExtremeRow(job.mean[r], job.rstd[r])) {
      if (c.stream) hwy::FlushStream();  // the row's streamed stores land before it is redone
      RescueRow(*job.args, r);
    }
  }
  // Streamed stores are weakly ordered: they must reach memory before another thread reads them.
  if (c.stream) hwy::FlushStream();
}

void RunItem(const RowItems& job, int64_t item) {
  VisitFloatElement(job.dtype,
                    [&](auto* type) { Item<std::remove_pointer_t<decltype(type)>>(job, item); });
}

}  // namespace aclnn_check::layer_norm_backward::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "cpu/parallel_chunks.h"

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
  job.args = &args;
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
  const float* dw = MaskOn(args, 1) ? job.column_partials : nullptr;
  const float* db = MaskOn(args, 2) ? job.column_partials + job.padded_size : nullptr;
  if (dw) WriteFromFloat(*args.tensor(kGradWeight), std::span<const float>(dw, m));
  if (db) WriteFromFloat(*args.tensor(kGradBias), std::span<const float>(db, m));
  RescueColumns(args, NonFiniteColumns(dw, db, job.row_size));
}

}  // namespace aclnn_check::layer_norm_backward
#endif  // HWY_ONCE
