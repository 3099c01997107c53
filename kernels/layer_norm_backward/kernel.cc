// The cpu provider's kernel: float32 arithmetic, one rounding to each output's dtype on store.
// The column term g * xh is accumulated and gradInput's xh * mean(gw * xh) subtracted with fused
// multiply-adds, as the SIMD kernel does (and PyTorch's compiled kernel): an extra rounding per
// term made gradWeight measurably less accurate than PyTorch's (README.md, "xhat").
// gradInput's two row sums accumulate in double and round once to float32 with their division by
// M: float32 blocks of 16 terms in order, which the SIMD kernel's cascade of vector lanes beats,
// left gradInput 5 % less accurate than PyTorch's on non-contiguous views (README.md, "Kernel").
// The column sums (gradWeight, gradBias) run in blocks of kBlock rows accumulated in order into a
// block partial, the partials merged by a binary counter of levels in the workspace (level i holds
// the sum of 2^i blocks), the levels added at the end: at most (kBlock - 1) + ceil(log2(n /
// kBlock)) + 1 roundings per term, inside the c of operator.json (README.md).
#include <algorithm>
#include <bit>
#include <cmath>
#include <span>
#include <vector>

#include "layer_norm_backward/layer_norm_backward.h"

namespace aclnn_check::layer_norm_backward {
namespace {

constexpr int64_t kBlock = 16;

// The mean of n float32 terms, rounded once: a double sum of n terms errs by at most n * 2^-53
// of the sum of their magnitudes, below float32's unit roundoff 2^-24 for n < 2^29.
float RowMean(const float* values, int64_t n) {
  double sum = 0.0;
  for (int64_t i = 0; i < n; ++i) sum += values[i];
  return static_cast<float>(sum / static_cast<double>(n));
}

// Workspace layout in floats, for rows R and row size M.
struct Scratch {
  int64_t levels = 0;  // binary-counter levels of the column sums (0: column sums not needed)
  static int64_t Levels(int64_t rows) {
    const uint64_t blocks = static_cast<uint64_t>((rows + kBlock - 1) / kBlock);
    return static_cast<int64_t>(std::bit_width(blocks)) + 1;
  }
  // gw and gw * xh of one row, then the block partials (dw, db), then levels x (dw, db).
  static int64_t Floats(int64_t m, int64_t levels) { return (2 + 2 + 2 * levels) * m; }
};

bool ColumnSumsNeeded(const OpArgs& args) { return MaskOn(args, 1) || MaskOn(args, 2); }

double ValueAt(const TensorView& view, int64_t logical) {
  double value = 0;
  ReadAsDouble(view, logical, std::span<double>(&value, 1));
  return value;
}

// Logical elements [begin, begin + values.size()) of view, each rounded once to its dtype.
void WriteRun(const TensorView& view, int64_t begin, std::span<const double> values) {
  const auto end = begin + static_cast<int64_t>(values.size());
  ForEachElementIn(view, begin, end, [&](int64_t logical, int64_t storage) {
    EncodeElement(view.element_address(storage), view.dtype,
                  values[static_cast<size_t>(logical - begin)]);
  });
}

// RescueRow for every row of dx ([rows][m], as written) holding an inf or NaN, and every
// ExtremeRow.
void RescueRows(const OpArgs& args, std::span<const float> dx, std::span<const float> mean,
                std::span<const float> rstd, int64_t m) {
  const auto size = static_cast<size_t>(m);
  for (size_t r = 0; r < mean.size(); ++r) {
    const std::span<const float> row = dx.subspan(r * size, size);
    if (ExtremeRow(mean[r], rstd[r]) ||
        !std::all_of(row.begin(), row.end(), [](float v) { return std::isfinite(v); }))
      RescueRow(args, static_cast<int64_t>(r));
  }
}

}  // namespace

// The reference's formula and order of operations (reference.cc), so that non-finite results
// come out as its IEEE values.
void ExactRows(const OpArgs& args, int64_t first, int64_t last) {
  const std::optional<RowShape> shape = RowsOf(args);
  const TensorView* out = args.tensor(kGradInput);
  if (!shape || !out || !MaskOn(args, 0) || shape->row_size == 0 || first >= last) return;
  const int64_t m = shape->row_size;
  const auto size = static_cast<size_t>(m);
  const auto count = static_cast<size_t>(last - first) * size;
  std::vector<double> g(count), x(count), w(size, 1.0), dx(count);
  std::vector<double> mean(static_cast<size_t>(last - first)), rstd(mean.size());
  ReadAsDouble(*args.tensor(kGradOut), first * m, g);
  ReadAsDouble(*args.tensor(kInput), first * m, x);
  ReadAsDouble(*args.tensor(kMean), first, mean);
  ReadAsDouble(*args.tensor(kRstd), first, rstd);
  if (const TensorView* weight = args.tensor(kWeight)) ReadAsDouble(*weight, 0, w);
  const double inv_m = 1.0 / static_cast<double>(m);
  for (size_t r = 0; r < mean.size(); ++r) {
    const double* gr = g.data() + r * size;
    const double* xr = x.data() + r * size;
    double sum_gw = 0, sum_gw_xh = 0;
    for (size_t j = 0; j < size; ++j) {
      const double gw = gr[j] * w[j];
      sum_gw += gw;
      sum_gw_xh += gw * ((xr[j] - mean[r]) * rstd[r]);
    }
    for (size_t j = 0; j < size; ++j) {
      const double xh = (xr[j] - mean[r]) * rstd[r];
      dx[r * size + j] = rstd[r] * (gr[j] * w[j] - sum_gw * inv_m - xh * (sum_gw_xh * inv_m));
    }
  }
  WriteRun(*out, first * m, dx);
}

void RescueRow(const OpArgs& args, int64_t row) { ExactRows(args, row, row + 1); }

void RescueColumns(const OpArgs& args, std::span<const int64_t> columns) {
  const std::optional<RowShape> shape = RowsOf(args);
  if (!shape || columns.empty()) return;
  const int64_t m = shape->row_size;
  const TensorView& g_view = *args.tensor(kGradOut);
  const TensorView& x_view = *args.tensor(kInput);
  const std::vector<double> mean = ReadAsDouble(*args.tensor(kMean));
  const std::vector<double> rstd = ReadAsDouble(*args.tensor(kRstd));
  for (const int64_t j : columns) {
    double dw = 0, db = 0;
    for (int64_t r = 0; r < shape->rows; ++r) {
      const double g = ValueAt(g_view, r * m + j);
      const auto rs = static_cast<size_t>(r);
      dw += g * ((ValueAt(x_view, r * m + j) - mean[rs]) * rstd[rs]);
      db += g;
    }
    if (MaskOn(args, 1)) WriteRun(*args.tensor(kGradWeight), j, std::span<const double>(&dw, 1));
    if (MaskOn(args, 2)) WriteRun(*args.tensor(kGradBias), j, std::span<const double>(&db, 1));
  }
}

std::vector<int64_t> NonFiniteColumns(const float* dw, const float* db, int64_t m) {
  std::vector<int64_t> columns;
  for (int64_t j = 0; j < m; ++j) {
    if ((dw && !std::isfinite(dw[j])) || (db && !std::isfinite(db[j]))) columns.push_back(j);
  }
  return columns;
}

uint64_t WorkspaceBytes(const OpArgs& args) {
  const std::optional<RowShape> shape = RowsOf(args);
  if (!shape || shape->rows == 0 || shape->row_size == 0) return 0;
  const int64_t levels = ColumnSumsNeeded(args) ? Scratch::Levels(shape->rows) : 0;
  return static_cast<uint64_t>(Scratch::Floats(shape->row_size, levels)) * sizeof(float);
}

void Compute(const OpArgs& args, void* workspace) {
  const std::optional<RowShape> shape = RowsOf(args);
  if (!shape) return;
  const int64_t rows = shape->rows;
  const int64_t m = shape->row_size;
  const bool want_dx = MaskOn(args, 0);
  const bool float_dx = want_dx && !ExactRowSize(m);  // else ExactRows forms gradInput
  const bool want_dw = MaskOn(args, 1);
  const bool want_db = MaskOn(args, 2);
  if (m == 0) return;  // every output is empty
  std::vector<float> dw(static_cast<size_t>(m), 0.0f), db(static_cast<size_t>(m), 0.0f);
  if (rows > 0) {
    const std::vector<float> g = ReadAsFloat(*args.tensor(kGradOut));
    const std::vector<float> x = ReadAsFloat(*args.tensor(kInput));
    const std::vector<float> mean = ReadAsFloat(*args.tensor(kMean));
    const std::vector<float> rstd = ReadAsFloat(*args.tensor(kRstd));
    const std::vector<float> w = args.tensor(kWeight)
                                     ? ReadAsFloat(*args.tensor(kWeight))
                                     : std::vector<float>(static_cast<size_t>(m), 1.0f);
    const bool columns = want_dw || want_db;
    const int64_t levels = columns ? Scratch::Levels(rows) : 0;
    float* gw = static_cast<float*>(workspace);
    float* gw_xh = gw + m;
    float* block_dw = gw_xh + m;
    float* block_db = block_dw + m;
    float* stack = block_db + m;  // level i: dw at stack + 2 i m, db right after it
    std::vector<bool> occupied(static_cast<size_t>(levels), false);
    std::vector<float> dx(float_dx ? static_cast<size_t>(rows * m) : 0);

    for (int64_t r = 0; r < rows; ++r) {
      const float rs = rstd[r];
      const RowCentering centered(mean[r], rs);
      const float* gr = g.data() + r * m;
      const float* xr = x.data() + r * m;
      if (columns && r % kBlock == 0) {
        for (int64_t j = 0; j < m; ++j) block_dw[j] = block_db[j] = 0.0f;
      }
      for (int64_t j = 0; j < m; ++j) {
        const float xh = centered(xr[j]);
        gw[j] = gr[j] * w[j];
        gw_xh[j] = gw[j] * xh;
        if (columns) {
          block_dw[j] = std::fma(gr[j], xh, block_dw[j]);
          block_db[j] += gr[j];
        }
      }
      if (float_dx) {
        const float mean_gw = RowMean(gw, m);
        const float mean_gw_xh = RowMean(gw_xh, m);
        float* out = dx.data() + r * m;
        for (int64_t j = 0; j < m; ++j) {
          const float xh = centered(xr[j]);
          out[j] = rs * std::fma(-xh, mean_gw_xh, gw[j] - mean_gw);
        }
      }
      if (columns && (r % kBlock == kBlock - 1 || r == rows - 1)) {
        // Push the block partial onto the binary counter: equal-sized sums merge pairwise.
        float* carry = block_dw;  // dw and db of one entry are adjacent (2 m floats)
        int64_t level = 0;
        for (; occupied[level]; ++level) {
          float* slot = stack + 2 * level * m;
          for (int64_t j = 0; j < 2 * m; ++j) slot[j] += carry[j];
          occupied[level] = false;
          carry = slot;
        }
        float* slot = stack + 2 * level * m;
        for (int64_t j = 0; j < 2 * m; ++j) slot[j] = carry[j];
        occupied[level] = true;
      }
    }
    if (columns) {
      for (int64_t level = 0; level < levels; ++level) {
        if (!occupied[level]) continue;
        const float* slot = stack + 2 * level * m;
        for (int64_t j = 0; j < m; ++j) {
          dw[j] += slot[j];
          db[j] += slot[m + j];
        }
      }
    }
    if (want_dx && !float_dx) {
      ExactRows(args, 0, rows);
    } else if (float_dx) {
      WriteFromFloat(*args.tensor(kGradInput), dx);
      RescueRows(args, dx, mean, rstd, m);
    }
  }
  if (want_dw) WriteFromFloat(*args.tensor(kGradWeight), dw);
  if (want_db) WriteFromFloat(*args.tensor(kGradBias), db);
  if (rows > 0 && (want_dw || want_db)) {
    RescueColumns(args, NonFiniteColumns(want_dw ? dw.data() : nullptr,
                                         want_db ? db.data() : nullptr, m));
  }
}

}  // namespace aclnn_check::layer_norm_backward
