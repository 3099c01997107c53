// The cpu provider's kernel: Highway SIMD over contiguous views; any other view goes to the
// portable kernel (kernel.cc). Two parallel phases:
//   inputGrad   items of rows; each row gathers the windows that cover it in window order, so the
//               float32 sums are kernel.cc's bit for bit and no two threads write one row;
//   weightGrad  items of 8 windows; each (j, n) term of a window is a four-accumulator dot over e,
//               added in window order into the item's partial; the partials are combined by a fixed
//               pairwise tree over item indices (associated differently from kernel.cc: checked
//               against the reference's bound).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "nsa_compress_grad/simd_kernel.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"

#include <vector>

#include "common/float_element.h"
#include "common/simd_float_io-inl.h"
#include "common/simd_streams-inl.h"
#include "nsa_compress_grad/nsa_compress_grad.h"
#include "nsa_compress_grad/simd_windows.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_check::nsa_compress_grad::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using simd::HWY_NAMESPACE::LoadAsFloat;
using simd::HWY_NAMESPACE::PrefetchAhead;
using simd::HWY_NAMESPACE::StoreRounded;

// inputGrad rows are prefetched 4 KiB before they are written (for reading: a line no other core
// holds arrives exclusive, so the store does not wait for it); 16 KiB measured the same.
constexpr size_t kOutputPrefetchBytes = 4096;

// head_dim is a multiple of 16 (validated), so rows are whole vectors on every target.
template <class T>
void InputGradRows(const WindowItems& job, int64_t item) {
  constexpr int64_t kLineElements = 64 / sizeof(T);
  const hn::ScalableTag<float> df;
  using V = hn::Vec<decltype(df)>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const int64_t row_elements = job.heads * job.head_dim;
  const T* grad = static_cast<const T*>(job.grad);
  T* out = static_cast<T*>(job.input_grad);
  const int64_t first = item * job.rows_per_item;
  const int64_t last = std::min(job.tokens, first + job.rows_per_item);
  // The windows covering a row, in window order: their outputGrad rows and weight rows. At most
  // block_size windows cover a row (stride >= 1).
  std::vector<const T*> grad_of(static_cast<size_t>(job.block_size));
  std::vector<const float*> weight_of(grad_of.size());
  for (int64_t t = first; t < last; ++t) {
    const size_t covering = static_cast<size_t>(job.row_covering[t]);
    for (size_t k = 0; k < covering; ++k) {
      const int64_t i = static_cast<int64_t>(k);
      grad_of[k] = grad + (job.row_first_covering[t] + i) * row_elements;
      weight_of[k] = job.weight + (job.row_first_weight_row[t] - i * job.stride) * job.heads;
    }
    T* out_row = out + t * row_elements;
    for (int64_t b = 0; b < row_elements; b += kLineElements) {
      PrefetchAhead(out_row + b, kOutputPrefetchBytes);
    }
    for (int64_t n = 0; n < job.heads; ++n) {
      const int64_t head = n * job.head_dim;
      int64_t e = 0;
      // Four vectors per pass over the covering windows: the loop over windows (a pointer and a
      // weight each) costs as much as a vector's multiply-add, so it is shared.
      for (; e + 4 * lanes <= job.head_dim; e += 4 * lanes) {
        V sum0 = hn::Zero(df), sum1 = hn::Zero(df), sum2 = hn::Zero(df), sum3 = hn::Zero(df);
        for (size_t k = 0; k < covering; ++k) {
          const V w = hn::Set(df, weight_of[k][n]);
          const T* from = grad_of[k] + head + e;
          sum0 = hn::Add(sum0, hn::Mul(w, LoadAsFloat(df, from)));
          sum1 = hn::Add(sum1, hn::Mul(w, LoadAsFloat(df, from + lanes)));
          sum2 = hn::Add(sum2, hn::Mul(w, LoadAsFloat(df, from + 2 * lanes)));
          sum3 = hn::Add(sum3, hn::Mul(w, LoadAsFloat(df, from + 3 * lanes)));
        }
        StoreRounded(sum0, df, out_row + head + e);
        StoreRounded(sum1, df, out_row + head + e + lanes);
        StoreRounded(sum2, df, out_row + head + e + 2 * lanes);
        StoreRounded(sum3, df, out_row + head + e + 3 * lanes);
      }
      for (; e < job.head_dim; e += lanes) {
        V sum = hn::Zero(df);
        for (size_t k = 0; k < covering; ++k) {
          const V w = hn::Set(df, weight_of[k][n]);
          sum = hn::Add(sum, hn::Mul(w, LoadAsFloat(df, grad_of[k] + head + e)));
        }
        StoreRounded(sum, df, out_row + head + e);
      }
    }
  }
}

// sum_e g[e] * x[e] over n elements (a multiple of 16: whole vectors on every target): four
// accumulators over interleaved vectors, added pairwise, then the lanes. A term passes through at
// most n / (4 lanes) + 2 + log2(lanes) additions.
template <class DF, class T>
HWY_INLINE float Dot(DF df, const T* g, const T* x, int64_t n) {
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  auto sum0 = hn::Zero(df), sum1 = hn::Zero(df), sum2 = hn::Zero(df), sum3 = hn::Zero(df);
  int64_t e = 0;
  for (; e + 4 * lanes <= n; e += 4 * lanes) {
    sum0 = hn::Add(sum0, hn::Mul(LoadAsFloat(df, g + e), LoadAsFloat(df, x + e)));
    sum1 = hn::Add(sum1, hn::Mul(LoadAsFloat(df, g + e + lanes), LoadAsFloat(df, x + e + lanes)));
    sum2 = hn::Add(sum2,
                   hn::Mul(LoadAsFloat(df, g + e + 2 * lanes), LoadAsFloat(df, x + e + 2 * lanes)));
    sum3 = hn::Add(sum3,
                   hn::Mul(LoadAsFloat(df, g + e + 3 * lanes), LoadAsFloat(df, x + e + 3 * lanes)));
  }
  for (; e < n; e += lanes) {  // AVX-512 with n = 16 * odd: the last vectors
    sum0 = hn::Add(sum0, hn::Mul(LoadAsFloat(df, g + e), LoadAsFloat(df, x + e)));
  }
  return hn::GetLane(hn::SumOfLanes(df, hn::Add(hn::Add(sum0, sum1), hn::Add(sum2, sum3))));
}

// Input rows are prefetched kPrefetchBytes ahead, a cache line at a time, as the elementwise
// kernels' streams are (common/simd_streams-inl.h): the dots compute between loads.
template <class T>
void WeightGradWindows(const WindowItems& job, int64_t item) {
  constexpr int64_t kLineElements = 64 / sizeof(T);
  const hn::ScalableTag<float> df;
  const int64_t row_elements = job.heads * job.head_dim;
  const T* grad = static_cast<const T*>(job.grad);
  const T* input = static_cast<const T*>(job.input);
  float* partial = job.weight_partials + item * job.block_size * job.heads;
  std::fill(partial, partial + job.block_size * job.heads, 0.0f);
  const int64_t first = item * job.windows_per_item;
  const int64_t last = std::min(job.windows, first + job.windows_per_item);
  for (int64_t window = first; window < last; ++window) {
    for (int64_t j = 0; j < job.block_size; ++j) {
      const int64_t row = job.window_first_row[window] + j;
      const T* row_start = input + row * row_elements;
      for (int64_t b = 0; b < row_elements; b += kLineElements) PrefetchAhead(row_start + b);
      for (int64_t n = 0; n < job.heads; ++n) {
        const T* g = grad + window * row_elements + n * job.head_dim;
        const T* x = input + row * row_elements + n * job.head_dim;
        partial[j * job.heads + n] += Dot(df, g, x, job.head_dim);
      }
    }
  }
}

void InputGradItem(const WindowItems& job, int64_t item) {
  VisitFloatElement(job.dtype, [&](auto* type) {
    InputGradRows<std::remove_pointer_t<decltype(type)>>(job, item);
  });
}

void WeightGradItem(const WindowItems& job, int64_t item) {
  VisitFloatElement(job.dtype, [&](auto* type) {
    WeightGradWindows<std::remove_pointer_t<decltype(type)>>(job, item);
  });
}

}  // namespace aclnn_check::nsa_compress_grad::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "common/parallel_chunks.h"

namespace aclnn_check::nsa_compress_grad {
namespace {

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

HWY_EXPORT(InputGradItem);
HWY_EXPORT(WeightGradItem);

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
  std::vector<int64_t> window_first_row;
  for (const Sequence& sequence : sequences) {
    for (int64_t i = 0; i < sequence.windows; ++i) {
      window_first_row.push_back(sequence.start + i * job.stride);
    }
  }
  job.windows = std::min<int64_t>(grad.shape[0], static_cast<int64_t>(window_first_row.size()));
  job.window_first_row = window_first_row.data();
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
  job.rows_per_item = std::max<int64_t>(1, 65536 / (job.heads * job.head_dim));
  job.windows_per_item = kWindowsPerItem;

  const int64_t row_items = (job.tokens + job.rows_per_item - 1) / job.rows_per_item;
  CpuThreadPool().ForEachItem(row_items, [&](int64_t item) {
    HWY_DYNAMIC_DISPATCH(InputGradItem)(job, item);
  });

  const int64_t weight_elements = job.block_size * job.heads;
  const int64_t window_items = (job.windows + kWindowsPerItem - 1) / kWindowsPerItem;
  std::vector<float> partials(
      static_cast<size_t>(std::max<int64_t>(window_items, 1) * weight_elements), 0.0f);
  job.weight_partials = partials.data();
  CpuThreadPool().ForEachItem(window_items, [&](int64_t item) {
    HWY_DYNAMIC_DISPATCH(WeightGradItem)(job, item);
  });
  CombinePartials(partials.data(), window_items, weight_elements);
  WriteFromFloat(*args.tensor(kWeightGrad),
                 std::span<const float>(partials.data(), static_cast<size_t>(weight_elements)));
}

}  // namespace aclnn_check::nsa_compress_grad
#endif  // HWY_ONCE
