// The cpu provider's kernel: Highway SIMD over contiguous views; any other view goes to the
// portable kernel (kernel.cc). One parallel pass over items of input rows, each row read and its
// inputGrad row written once (outputGrad's rows, 1/stride of the traffic, come from cache):
//   inputGrad   each row gathers the windows that cover it in window order, so the float32 sums
//               are kernel.cc's bit for bit and no two threads write one row;
//   weightGrad  for each covering window and head, a four-accumulator dot over e of the row and
//               the window's outputGrad, added in row order into the item's [l, N] partial; the
//               partials are combined by a fixed pairwise tree over item indices (associated
//               differently from kernel.cc: checked against the reference's bound).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "nsa_compress_grad/simd_kernel.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <algorithm>
#include <vector>

#include "cpu/float_element.h"
#include "cpu/simd_float_io-inl.h"
#include "cpu/simd_streams-inl.h"
#include "cpu/simd_vector_slots-inl.h"
#include "cpu/thread_scratch.h"
#include "nsa_compress_grad/nsa_compress_grad.h"
#include "nsa_compress_grad/simd_windows.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::nsa_compress_grad::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using simd::HWY_NAMESPACE::FloatGroup;
using simd::HWY_NAMESPACE::GroupVector;
using simd::HWY_NAMESPACE::kGroupVectors;
using simd::HWY_NAMESPACE::LoadGroupAsFloat;
using simd::HWY_NAMESPACE::PrefetchAhead;
using simd::HWY_NAMESPACE::PutGroupRounded;
using simd::HWY_NAMESPACE::SetGroupVector;
using simd::HWY_NAMESPACE::VectorSlots;

// Input and inputGrad rows are prefetched 4 KiB ahead (for reading: an inputGrad line no other
// core holds arrives exclusive, so the store does not wait for it), each line as the block loop
// reaches it: issued as a burst of 32 at the start of each row, the prefetches stalled on the
// miss buffers (a third of the kernel's samples); spread, they do not (README.md, "SIMD kernel",
// has the times).
constexpr size_t kPrefetchBytes = 4096;
// Rows covered by up to this many windows take a path with the windows unrolled, their weights
// and dot accumulators in registers.
constexpr size_t kMaxUnrolledWindows = 4;

// One input row's work: its covering windows, consecutive outputGrad rows (float32 copies) in
// window order whose weight rows step down by stride, the row itself and its inputGrad row.
template <class T>
struct RowWork {
  const float* first_window_grad;
  int64_t first_weight_row;
  size_t covering;
  const T* input;
  T* input_grad;

  const float* WindowGrad(const WindowItems& job, size_t k) const {
    return first_window_grad + static_cast<int64_t>(k) * job.heads * job.head_dim;
  }
  int64_t WeightRow(const WindowItems& job, size_t k) const {
    return first_weight_row - static_cast<int64_t>(k) * job.stride;
  }
};

// Every head of one row, kWindows of them unrolled (0: the covering count at run time).
//   inputGrad[e] = sum over the windows in order of w_k * g_k[e], from 0, a product and an add
//     each: kernel.cc's operations in kernel.cc's order, so its bits on every target;
//   the dot of each window's g_k with the row, per head: each block of 4 vectors summed as a tree
//     ((g0 x0 + g1 x1) + (g2 x2 + g3 x3), products fused into the adds where they can be), the
//     blocks added in order into one vector, which is added into the window's weight row of the
//     item's partial (lane by lane: the lanes are summed when the item ends).
template <size_t kWindows, class DF, class T>
HWY_INLINE void HeadsOfRow(DF df, const WindowItems& job, const RowWork<T>& row,
                           float* lane_partials) {
  using V = hn::Vec<DF>;
  constexpr size_t kGroup = kGroupVectors<T>;
  static_assert(4 % kGroup == 0);
  constexpr int64_t kLineElements = 64 / sizeof(T);
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  constexpr size_t kSlots = kWindows == 0 ? 1 : kWindows;
  const size_t covering = kWindows == 0 ? row.covering : kWindows;
  for (int64_t n = 0; n < job.heads; ++n) {
    const int64_t head = n * job.head_dim;
    const T* x_at = row.input + head;
    T* out_at = row.input_grad + head;
    const auto weight = [&](size_t k) {
      return hn::Set(df, job.weight[row.WeightRow(job, k) * job.heads + n]);
    };
    const auto partial = [&](size_t k) {
      return lane_partials + (row.WeightRow(job, k) * job.heads + n) * lanes;
    };
    VectorSlots<DF, kSlots> w, dot;
    if constexpr (kWindows > 0) {
      for (size_t k = 0; k < kWindows; ++k) w.Put(k, weight(k)), dot.Put(k, hn::Zero(df));
    }
    int64_t e = 0;
    for (; e + 4 * lanes <= job.head_dim; e += 4 * lanes) {
      for (int64_t b = 0; b < 4 * lanes; b += kLineElements) {
        PrefetchAhead(x_at + e + b, kPrefetchBytes);
        PrefetchAhead(out_at + e + b, kPrefetchBytes);
      }
      VectorSlots<DF, 4> x;
      for (size_t q = 0; q < 4; q += kGroup) {
        const FloatGroup<DF, T> group = LoadGroupAsFloat(df, x_at + e + q * lanes);
        for (size_t v = 0; v < kGroup; ++v) x.Put(q + v, GroupVector(group, v));
      }
      VectorSlots<DF, 4> sum;
      for (size_t v = 0; v < 4; ++v) sum.Put(v, hn::Zero(df));
      for (size_t k = 0; k < covering; ++k) {
        const float* g_at = row.WindowGrad(job, k) + head + e;
        VectorSlots<DF, 4> g;
        for (size_t v = 0; v < 4; ++v) g.Put(v, hn::Load(df, g_at + v * lanes));
        const V wk = kWindows > 0 ? w.Get(k) : weight(k);
        for (size_t v = 0; v < 4; ++v) sum.Put(v, hn::Add(sum.Get(v), hn::Mul(wk, g.Get(v))));
        const V block = hn::Add(hn::MulAdd(g.Get(1), x.Get(1), hn::Mul(g.Get(0), x.Get(0))),
                                hn::MulAdd(g.Get(3), x.Get(3), hn::Mul(g.Get(2), x.Get(2))));
        if constexpr (kWindows > 0) {
          dot.Put(k, hn::Add(dot.Get(k), block));
        } else {
          hn::Store(hn::Add(hn::Load(df, partial(k)), block), df, partial(k));
        }
      }
      for (size_t q = 0; q < 4; q += kGroup) {
        FloatGroup<DF, T> group;
        for (size_t v = 0; v < kGroup; ++v) SetGroupVector(group, v, sum.Get(q + v));
        PutGroupRounded<false>(group, df, out_at + e + q * lanes);
      }
    }
    for (; e < job.head_dim; e += kGroup * lanes) {  // AVX-512 with D = 16 * odd: the last ones
      const FloatGroup<DF, T> x = LoadGroupAsFloat(df, x_at + e);
      FloatGroup<DF, T> sum;
      for (size_t v = 0; v < kGroup; ++v) SetGroupVector(sum, v, hn::Zero(df));
      for (size_t k = 0; k < covering; ++k) {
        const V wk = kWindows > 0 ? w.Get(k) : weight(k);
        for (size_t v = 0; v < kGroup; ++v) {
          const V g = hn::Load(df, row.WindowGrad(job, k) + head + e + v * lanes);
          SetGroupVector(sum, v, hn::Add(GroupVector(sum, v), hn::Mul(wk, g)));
          if constexpr (kWindows > 0) {
            dot.Put(k, hn::MulAdd(g, GroupVector(x, v), dot.Get(k)));
          } else {
            hn::Store(hn::MulAdd(g, GroupVector(x, v), hn::Load(df, partial(k))), df,
                      partial(k));
          }
        }
      }
      PutGroupRounded<false>(sum, df, out_at + e);
    }
    if constexpr (kWindows > 0) {
      for (size_t k = 0; k < kWindows; ++k) {
        hn::Store(hn::Add(hn::Load(df, partial(k)), dot.Get(k)), df, partial(k));
      }
    }
  }
}

// head_dim is a multiple of 16 (validated), so rows are whole vectors on every target.
template <class T>
void Rows(const WindowItems& job, int64_t item) {
  const hn::ScalableTag<float> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const int64_t row_elements = job.heads * job.head_dim;
  const int64_t first = item * job.rows_per_item;
  const int64_t last = std::min(job.tokens, first + job.rows_per_item);

  // The windows that the item's rows use, [window_begin, window_end): increasing with the row.
  int64_t window_begin = job.windows, window_end = 0;
  for (int64_t t = first; t < last; ++t) {
    if (job.row_covering[t] == 0) continue;
    window_begin = std::min(window_begin, job.row_first_covering[t]);
    window_end = std::max(window_end, job.row_first_covering[t] + job.row_covering[t]);
  }
  window_begin = std::min(window_begin, window_end);
  // The thread's buffer holds float32 copies of those outputGrad rows (each serves up to
  // block_size input rows: converted once per item; in LoadGroupAsFloat's order, like the input
  // rows' loads, so elementwise products pair the same elements), then the item's weightGrad
  // partial in vectors, [l * N][lanes].
  const size_t grad_floats = static_cast<size_t>((window_end - window_begin) * row_elements);
  const size_t partial_floats = static_cast<size_t>(job.block_size * job.heads * lanes);
  float* const grad32 = ThreadScratchFloats(grad_floats + partial_floats);
  float* const lane_partials = grad32 + grad_floats;
  const T* grad = static_cast<const T*>(job.grad) + window_begin * row_elements;
  const size_t group = kGroupVectors<T> * static_cast<size_t>(lanes);
  for (size_t i = 0; i < grad_floats; i += group) {
    const FloatGroup<decltype(df), T> floats = LoadGroupAsFloat(df, grad + i);
    for (size_t v = 0; v < kGroupVectors<T>; ++v) {
      hn::Store(GroupVector(floats, v), df, grad32 + i + v * lanes);
    }
  }
  std::fill(lane_partials, lane_partials + partial_floats, 0.0f);

  for (int64_t t = first; t < last; ++t) {
    const size_t covering = static_cast<size_t>(job.row_covering[t]);
    // A row no window covers has no first window (its index may lie before window_begin).
    const int64_t first_window = covering > 0 ? job.row_first_covering[t] - window_begin : 0;
    const RowWork<T> row{grad32 + first_window * row_elements, job.row_first_weight_row[t], covering,
                         static_cast<const T*>(job.input) + t * row_elements,
                         static_cast<T*>(job.input_grad) + t * row_elements};
    switch (row.covering) {
      case 1:
        HeadsOfRow<1>(df, job, row, lane_partials);
        break;
      case 2:
        HeadsOfRow<2>(df, job, row, lane_partials);
        break;
      case 3:
        HeadsOfRow<3>(df, job, row, lane_partials);
        break;
      case kMaxUnrolledWindows:
        HeadsOfRow<kMaxUnrolledWindows>(df, job, row, lane_partials);
        break;
      default:  // 0 (a row no window covers: zeros) or more than kMaxUnrolledWindows
        HeadsOfRow<0>(df, job, row, lane_partials);
    }
  }
  float* partial = job.weight_partials + item * job.block_size * job.heads;
  for (int64_t i = 0; i < job.block_size * job.heads; ++i) {
    partial[i] = hn::GetLane(hn::SumOfLanes(df, hn::Load(df, lane_partials + i * lanes)));
  }
}

void RowItem(const WindowItems& job, int64_t item) {
  VisitFloatElement(job.dtype,
                    [&](auto* type) { Rows<std::remove_pointer_t<decltype(type)>>(job, item); });
}

}  // namespace aclnn_check::nsa_compress_grad::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "cpu/parallel_chunks.h"

namespace aclnn_check::nsa_compress_grad {
namespace {

// Items of 8 strides of rows: a (j, n) partial sums at most 8 windows' terms in an item, as the
// README's rounding count assumes.
constexpr int64_t kWindowsPerItem = 8;

// Adds the item partials pairwise in a fixed tree; the total ends in item 0.
void CombinePartials(float* partials, int64_t items, int64_t size) {
  for (int64_t step = 1; step < items; step *= 2) {
    for (int64_t i = 0; i + step < items; i += 2 * step) {
      float* into = partials + i * size;
      const float* from = partials + (i + step) * size;
      for (int64_t k = 0; k < size; ++k) into[k] += from[k];
    }
  }
}

}  // namespace

HWY_EXPORT(RowItem);

// The portable kernel's workspace: the SIMD path needs none of its own.
uint64_t SimdWorkspaceBytes(const OpArgs& args) { return WorkspaceBytes(args); }

void SimdCompute(const OpArgs& args, void* workspace) {
  const TensorView& grad = *args.tensor(kOutputGrad);
  const TensorView& input = *args.tensor(kInput);
  const TensorView& input_grad = *args.tensor(kInputGrad);
  if (!grad.is_contiguous() || !input.is_contiguous() || !input_grad.is_contiguous() ||
      input.numel() == 0) {
    Compute(args, workspace);
    return;
  }
  WindowItems job;
  job.dtype = input.dtype;
  job.grad = FirstElement(grad);
  job.input = FirstElement(input);
  job.input_grad = FirstElement(input_grad);
  job.tokens = input.shape[0];
  job.heads = input.shape[1];
  job.head_dim = input.shape[2];
  job.block_size = IntParam(args, kBlockSize);
  job.stride = IntParam(args, kStride);
  const std::vector<float> weight = ReadAsFloat(*args.tensor(kWeight));
  job.weight = weight.data();

  const std::vector<Sequence> sequences = Sequences(args.param<std::vector<int64_t>>(kActSeqLen),
                                                    job.tokens, job.block_size, job.stride);
  int64_t windows = 0;
  for (const Sequence& sequence : sequences) windows += sequence.windows;
  job.windows = std::min(grad.shape[0], windows);
  const size_t tokens = static_cast<size_t>(job.tokens);
  std::vector<int64_t> first_covering(tokens, 0), covering(tokens, 0), first_weight_row(tokens, 0);
  for (const Sequence& sequence : sequences) {
    // Windows i of the sequence with i * stride <= p < i * stride + block_size, followed along p
    // once here rather than divided out for every row of every item.
    const int64_t usable = std::min(sequence.windows, job.windows - sequence.first_window);
    int64_t i_first = 0, i_last = -1;
    int64_t next_first_at = job.block_size, next_last_at = 0;
    for (int64_t p = 0; p < sequence.length; ++p) {
      if (p == next_first_at) ++i_first, next_first_at += job.stride;
      if (p == next_last_at) ++i_last, next_last_at += job.stride;
      const size_t t = static_cast<size_t>(sequence.start + p);
      first_covering[t] = sequence.first_window + i_first;
      covering[t] = std::max<int64_t>(0, std::min(i_last, usable - 1) - i_first + 1);
      first_weight_row[t] = p - i_first * job.stride;
    }
  }
  job.row_first_covering = first_covering.data();
  job.row_covering = covering.data();
  job.row_first_weight_row = first_weight_row.data();
  job.rows_per_item = kWindowsPerItem * job.stride;

  const int64_t weight_elements = job.block_size * job.heads;
  const int64_t items = (job.tokens + job.rows_per_item - 1) / job.rows_per_item;
  std::vector<float> partials(static_cast<size_t>(items * weight_elements), 0.0f);
  job.weight_partials = partials.data();
  CpuThreadPool().ForEachItem(items, [&](int64_t item) {
    HWY_DYNAMIC_DISPATCH(RowItem)(job, item);
  });
  CombinePartials(partials.data(), items, weight_elements);
  WriteFromFloat(*args.tensor(kWeightGrad),
                 std::span<const float>(partials.data(), static_cast<size_t>(weight_elements)));
}

}  // namespace aclnn_check::nsa_compress_grad
#endif  // HWY_ONCE
