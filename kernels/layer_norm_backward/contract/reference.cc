// Float64 reference of kernels/layer_norm_backward/README.md. mean and rstd are used as given (not
// recomputed); a null weight is ones; bias is never read. mag follows docs/contract/numerics.md
// with xh weighted by (|x| + |mean|) * |rstd|, the scale of its error when a kernel expands (x -
// mean) * rstd (see README.md).
#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "core/parallel_blocks.h"
#include "layer_norm_backward/layer_norm_backward.h"

namespace aclnn_check::layer_norm_backward {
namespace {

bool Finite(double v) { return std::isfinite(v); }

}  // namespace

std::vector<RuleTag> CallRules(const Operator& op, const OpArgs& args) {
  static const RuleTag kMaskUntouched = op.Tag("layernorm.mask_untouched");
  static const RuleTag kEmptyRows = op.Tag("layernorm.empty_rows");
  static const RuleTag kEmptyNormalized = op.Tag("layernorm.empty_normalized");
  const std::optional<RowShape> shape = RowsOf(args);
  if (!shape) return {};  // not a valid call
  std::vector<RuleTag> rules;
  if (!MaskOn(args, 0) || !MaskOn(args, 1) || !MaskOn(args, 2)) rules.push_back(kMaskUntouched);
  if (shape->rows == 0) rules.push_back(kEmptyRows);
  if (shape->row_size == 0) rules.push_back(kEmptyNormalized);
  return rules;
}

ReferenceResult Reference(const Operator& op, const OpArgs& args) {
  static const RuleTag kNonfiniteRow = op.Tag("layernorm.nonfinite_row");
  static const RuleTag kNonfiniteColumn = op.Tag("layernorm.nonfinite_column");

  ReferenceResult result;
  result.outputs.resize(args.tensors.size());
  const std::optional<RowShape> shape = RowsOf(args);
  if (!shape) return result;  // not a valid call: nothing is computed
  const int64_t rows = shape->rows;
  const int64_t m = shape->row_size;
  const bool mask[3] = {MaskOn(args, 0), MaskOn(args, 1), MaskOn(args, 2)};

  // gradOut and x are read a run at a time (as whole tensors of doubles they were 16 bytes per
  // element of x); mean, rstd and weight are one value per row or column.
  const TensorView& g_view = *args.tensor(kGradOut);
  const TensorView& x_view = *args.tensor(kInput);
  const std::vector<double> mean = ReadAsDouble(*args.tensor(kMean));
  const std::vector<double> rstd = ReadAsDouble(*args.tensor(kRstd));
  const std::vector<double> w = args.tensor(kWeight)
                                    ? ReadAsDouble(*args.tensor(kWeight))
                                    : std::vector<double>(static_cast<size_t>(m), 1.0);
  bool weight_special = false;
  for (double v : w) weight_special |= !Finite(v);
  const double inv_m = m > 0 ? 1.0 / static_cast<double>(m) : 0.0;
  auto xhat = [&](int64_t r, double x) { return (x - mean[r]) * rstd[r]; };
  // The magnitude of xh's error: x - mean cancels in kernels that expand the product.
  auto xhat_mag = [&](int64_t r, double x) {
    return (std::fabs(x) + std::fabs(mean[r])) * std::fabs(rstd[r]);
  };
  // Calls body(j, g, x) for the columns [first, last) of row r, in order, decoding at most a
  // block at a time into the caller's two buffers. The row pass walks each row twice: a row that
  // fits in one block is still in the buffers the second time.
  struct Runs {
    std::vector<double> g, x;
    int64_t start = -1, count = 0;  // the elements the buffers hold
  };
  auto for_each_in_row = [&](int64_t r, int64_t first, int64_t last, Runs& runs, auto&& body) {
    const size_t size = static_cast<size_t>(std::min(last - first, kHarnessBlock));
    if (runs.g.size() < size) {
      runs.g.resize(size);
      runs.x.resize(size);
    }
    for (int64_t begin = first; begin < last; begin += kHarnessBlock) {
      const size_t count = static_cast<size_t>(std::min(last - begin, kHarnessBlock));
      if (runs.start != r * m + begin || runs.count != static_cast<int64_t>(count)) {
        ReadAsDouble(g_view, r * m + begin, std::span(runs.g).first(count));
        ReadAsDouble(x_view, r * m + begin, std::span(runs.x).first(count));
        runs.start = r * m + begin;
        runs.count = static_cast<int64_t>(count);
      }
      for (size_t k = 0; k < count; ++k)
        body(begin + static_cast<int64_t>(k), runs.g[k], runs.x[k]);
    }
  };

  if (mask[0]) {
    ReferenceOutput& out = result.outputs[kGradInput];
    out.Resize(static_cast<size_t>(rows * m));
    // Rows write only their own gradInput elements: groups of rows on the harness's threads.
    const int64_t group = std::max<int64_t>(1, kHarnessBlock / std::max<int64_t>(m, 1));
    ForEachHarnessItem((rows + group - 1) / group, [&](int64_t item) {
      Runs runs;
      for (int64_t r = item * group; r < std::min(rows, (item + 1) * group); ++r) {
        bool special = weight_special || !Finite(mean[r]) || !Finite(rstd[r]);
        double sum_gw = 0, sum_gw_xh = 0, abs_gw = 0, abs_gw_xh = 0;
        for_each_in_row(r, 0, m, runs, [&](int64_t j, double g, double x) {
          special |= !Finite(g) || !Finite(x);
          const double gw = g * w[j];
          sum_gw += gw;
          sum_gw_xh += gw * xhat(r, x);
          abs_gw += std::fabs(gw);
          abs_gw_xh += std::fabs(gw) * xhat_mag(r, x);
        });
        const double rs = rstd[r];
        for_each_in_row(r, 0, m, runs, [&](int64_t j, double g, double x) {
          const int64_t i = r * m + j;
          const double gw = g * w[j];
          out.value[i] = rs * (gw - sum_gw * inv_m - xhat(r, x) * (sum_gw_xh * inv_m));
          out.mag[i] = std::fabs(rs) *
                       (std::fabs(gw) + abs_gw * inv_m + xhat_mag(r, x) * (abs_gw_xh * inv_m));
          if (special) {
            out.rule[i] = kNonfiniteRow;
            if (!Finite(out.mag[i])) out.mag[i] = 0;
          }
        });
      }
    });
  }

  if (mask[1] || mask[2]) {
    std::vector<double> dw(static_cast<size_t>(m), 0.0), dw_mag(static_cast<size_t>(m), 0.0);
    std::vector<double> db(static_cast<size_t>(m), 0.0), db_mag(static_cast<size_t>(m), 0.0);
    std::vector<uint8_t> dw_special(static_cast<size_t>(m)), db_special(static_cast<size_t>(m));
    // Columns write only their own sums, each over the rows in order: column blocks on the
    // harness's threads (bytes for the special flags: neighbouring bits of a vector<bool> race).
    constexpr int64_t kColumns = 512;
    ForEachHarnessItem((m + kColumns - 1) / kColumns, [&](int64_t item) {
      const int64_t first = item * kColumns;
      const int64_t last = std::min(m, first + kColumns);
      Runs runs;
      for (int64_t r = 0; r < rows; ++r) {
        for_each_in_row(r, first, last, runs, [&](int64_t j, double gi, double x) {
          const double term = gi * xhat(r, x);
          dw[j] += term;
          dw_mag[j] += std::fabs(gi) * xhat_mag(r, x);
          dw_special[j] = dw_special[j] || !Finite(term);
          db[j] += gi;
          db_mag[j] += std::fabs(gi);
          db_special[j] = db_special[j] || !Finite(gi);
        });
      }
    });
    auto fill = [&](size_t slot, const std::vector<double>& value, const std::vector<double>& mag,
                    const std::vector<uint8_t>& special) {
      ReferenceOutput& out = result.outputs[slot];
      out.Resize(static_cast<size_t>(m));
      out.value = value;
      out.mag = mag;
      for (size_t j = 0; j < value.size(); ++j) {
        if (!special[j]) continue;
        out.rule[j] = kNonfiniteColumn;
        out.mag[j] = 0;
      }
    };
    if (mask[1]) fill(kGradWeight, dw, dw_mag, dw_special);
    if (mask[2]) fill(kGradBias, db, db_mag, db_special);
  }
  return result;
}

}  // namespace aclnn_check::layer_norm_backward
