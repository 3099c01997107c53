#include "hunt/input_moves.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

namespace aclnn_check {
namespace {

uint64_t BitsOf(double value, DType dtype) {
  uint64_t bits = 0;
  EncodeElement(&bits, dtype, value);  // little-endian: the element's bytes start at bit 0
  return bits;
}

double ValueOf(uint64_t bits, DType dtype) { return DecodeElement(&bits, dtype); }

int SignificandBits(DType dtype) { return FormatOf(dtype).precision - 1; }
int ExponentBits(DType dtype) { return FormatOf(dtype).storage_bits - FormatOf(dtype).precision; }

double ElementMove(const HuntTensor& tensor, double value, const MoveSet& moves,
                   HuntRandom& random) {
  const int kinds = (moves.bits ? 2 : 0) + (moves.boundaries ? 2 : 0);
  int kind = static_cast<int>(random.Below(static_cast<uint64_t>(kinds)));
  if (!moves.bits) kind += 2;
  const Boundaries& b = tensor.boundaries;
  switch (kind) {
    case 0:
      return FlipExponent(value, tensor.dtype, random);
    case 1:
      return FlipSignificand(value, tensor.dtype, random);
    case 2:
      return BesideBoundary(b.of_dtype[random.Below(b.of_dtype.size())], tensor.dtype, random);
    default:
      if (b.of_operator.empty()) return value;
      return BesideBoundary(b.of_operator[random.Below(b.of_operator.size())], tensor.dtype,
                            random);
  }
}

void MutateElements(HuntTensor& tensor, const MoveSet& moves, HuntRandom& random) {
  const size_t n = tensor.values.size();
  if (n == 0 || !(moves.bits || moves.boundaries)) return;
  static constexpr int kRateShifts[] = {8, 5, 3, 1};  // 1/256 to 1/2 of the elements
  const size_t count = std::max<size_t>(1, n >> kRateShifts[random.Below(4)]);
  for (size_t k = 0; k < count; ++k) {
    double& value = tensor.values[random.Below(n)];
    value = ElementMove(tensor, value, moves, random);
  }
}

// A large magnitude for rows built to cancel: 2^0 to 2^(max exponent / 2), so products of two
// such terms stay finite.
double LargeMagnitude(DType dtype, HuntRandom& random) {
  const int top = FormatOf(dtype).max_exponent / 2;
  return std::ldexp(1.0 + random.Uniform(),
                    static_cast<int>(random.Below(static_cast<uint64_t>(top) + 1)));
}

// A relative perturbation 2^-4 to 2^-24 of either sign: how far from exact cancellation.
double Residual(HuntRandom& random) {
  const double size = std::ldexp(1.0 + random.Uniform(), -4 - static_cast<int>(random.Below(21)));
  return random.Chance(0.5) ? size : -size;
}

struct Rows {
  size_t count = 0, length = 0;
};
// The slices along the first dimension (LayerNorm's rows of a 2-D input, NsaCompressGrad's
// windows and tokens): what sums over rows and windows run across.
Rows SlicesOf(const HuntTensor& tensor) {
  if (tensor.values.empty() || tensor.shape.empty() || tensor.shape[0] < 1) return {};
  const size_t count = static_cast<size_t>(tensor.shape[0]);
  return {count, tensor.values.size() / count};
}
Rows RowsOf(const HuntTensor& tensor) {
  if (tensor.values.empty()) return {};
  const size_t length =
      tensor.shape.empty() ? 1 : static_cast<size_t>(std::max<int64_t>(tensor.shape.back(), 1));
  return {tensor.values.size() / length, length};
}

// Slice b (along the first dimension) becomes slice a with one tensor negated and perturbed: the
// terms of a sum over rows (a column of LayerNormBackward's gradWeight) cancel in pairs up to the
// residuals; the other tensors of the same shape get row a unchanged, so products cancel too.
// Tensors of another shape but the same row length may have every row made a copy of their first,
// so that sums pairing rows of both by another index (NsaCompressGrad's windows) cancel as well;
// with every pair mirrored, an odd last row becomes zero so that nothing is left over.
void MirrorRows(std::vector<HuntTensor>& tensors, size_t negated, HuntRandom& random) {
  const HuntTensor& chosen = tensors[negated];
  const Rows rows = SlicesOf(chosen);
  if (rows.count < 2) return;
  const double scale = random.Chance(0.5) ? 1.0 : LargeMagnitude(chosen.dtype, random);
  const bool all_pairs = random.Chance(0.5);
  const bool repeat_others = random.Chance(0.5);
  const Dims shape = chosen.shape;
  for (size_t t = 0; t < tensors.size(); ++t) {
    HuntTensor& tensor = tensors[t];
    const Rows own = SlicesOf(tensor);
    if (t == negated || tensor.shape == shape || own.length != rows.length || !repeat_others)
      continue;
    const double own_scale = random.Chance(0.5) ? 1.0 : LargeMagnitude(tensor.dtype, random);
    for (size_t j = 0; j < own.length; ++j)
      tensor.values[j] = RoundTo(tensor.values[j] * own_scale, tensor.dtype);
    for (size_t r = 1; r < own.count; ++r) {
      std::copy_n(tensor.values.begin(), own.length,
                  tensor.values.begin() + static_cast<std::ptrdiff_t>(r * own.length));
    }
  }
  for (size_t a = 0; a + 1 < rows.count; a += 2) {
    if (!all_pairs && !random.Chance(0.25)) continue;
    const size_t b = a + 1;
    for (size_t t = 0; t < tensors.size(); ++t) {
      HuntTensor& tensor = tensors[t];
      if (tensor.shape != shape) continue;
      for (size_t j = 0; j < rows.length; ++j) {
        double& first = tensor.values[a * rows.length + j];
        if (t == negated) first = RoundTo(first * scale, tensor.dtype);
        const double mirrored =
            t == negated ? -first * (1 + (random.Chance(0.5) ? Residual(random) : 0)) : first;
        tensor.values[b * rows.length + j] = RoundTo(mirrored, tensor.dtype);
      }
    }
  }
  if (all_pairs && rows.count % 2 == 1) {
    std::fill_n(tensors[negated].values.end() - static_cast<std::ptrdiff_t>(rows.length),
                rows.length, 0.0);
  }
}

// Within a row: large terms of alternating sign (a sum along the row cancels), or a mean far
// from zero with a small spread (LayerNorm's hard case).
void ShapeRows(HuntTensor& tensor, HuntRandom& random) {
  const Rows rows = RowsOf(tensor);
  const bool alternate = random.Chance(0.5);
  const double large = LargeMagnitude(tensor.dtype, random) * (random.Chance(0.5) ? 1 : -1);
  const double spread = std::fabs(Residual(random));
  for (size_t r = 0; r < rows.count; ++r) {
    if (!random.Chance(0.25)) continue;
    for (size_t j = 0; j < rows.length; ++j) {
      const double noise = 2 * random.Uniform() - 1;
      const double value = alternate ? large * ((j % 2) ? -1 : 1) * (1 + spread * noise)
                                     : large * (1 + spread * noise);
      tensor.values[r * rows.length + j] = RoundTo(value, tensor.dtype);
    }
  }
}

}  // namespace

std::optional<MoveSet> ParseMoveSet(const std::string& text) {
  if (text == "all") return MoveSet{};
  if (text == "random") return MoveSet{false, false, false};
  MoveSet moves{false, false, false};
  std::stringstream list(text);
  std::string item;
  while (std::getline(list, item, ',')) {
    if (item == "bits")
      moves.bits = true;
    else if (item == "boundaries")
      moves.boundaries = true;
    else if (item == "cancel")
      moves.cancel = true;
    else
      return std::nullopt;
  }
  if (!moves.any()) return std::nullopt;
  return moves;
}

std::string MoveSetName(const MoveSet& moves) {
  if (!moves.any()) return "random";
  if (moves.bits && moves.boundaries && moves.cancel) return "all";
  std::string name;
  for (auto [on, item] : {std::pair{moves.bits, "bits"},
                          {moves.boundaries, "boundaries"},
                          {moves.cancel, "cancel"}}) {
    if (on) name += (name.empty() ? "" : ",") + std::string(item);
  }
  return name;
}

double FlipExponent(double value, DType dtype, HuntRandom& random) {
  if (std::isnan(value) || std::isinf(value)) return value;
  const int shift = SignificandBits(dtype);
  const uint64_t all_ones = (uint64_t{1} << ExponentBits(dtype)) - 1;
  uint64_t bits = BitsOf(value, dtype);
  uint64_t field = (bits >> shift) & all_ones;
  // Half the time one bit of the field (S3FP's flip), else any finite exponent.
  field = random.Chance(0.5)
              ? field ^ (uint64_t{1} << random.Below(static_cast<uint64_t>(ExponentBits(dtype))))
              : random.Below(all_ones);
  if (field == all_ones) field ^= 1;  // stay finite: specials are boundary moves
  bits = (bits & ~(all_ones << shift)) | (field << shift);
  return ValueOf(bits, dtype);
}

double FlipSignificand(double value, DType dtype, HuntRandom& random) {
  if (std::isnan(value) || std::isinf(value)) return value;
  const uint64_t bit = uint64_t{1} << random.Below(static_cast<uint64_t>(SignificandBits(dtype)));
  return ValueOf(BitsOf(value, dtype) ^ bit, dtype);
}

// The boundary itself, a few ulps to either side, or a relative step 2^-17 to 2^-1 away: the band
// beside a threshold where a kernel's branch or approximation may change.
double BesideBoundary(double boundary, DType dtype, HuntRandom& random) {
  double value = RoundTo(boundary, dtype);
  switch (random.Below(3)) {
    case 0:
      return value;
    case 1: {
      const int steps = static_cast<int>(random.Below(4)) + 1;
      for (int i = 0; i < steps && std::isfinite(value); ++i) {
        value = random.Chance(0.5) ? NextUp(value, dtype) : NextDown(value, dtype);
      }
      return value;
    }
    default: {
      const double step = std::ldexp(1 + random.Uniform(), -2 - static_cast<int>(random.Below(16)));
      return RoundTo(boundary * (1 + (random.Chance(0.5) ? step : -step)), dtype);
    }
  }
}

void MutateInputs(std::vector<HuntTensor>& tensors, const MoveSet& moves, HuntRandom& random) {
  if (tensors.empty()) return;
  for (HuntTensor& tensor : tensors) MutateElements(tensor, moves, random);
  if (moves.cancel && (!(moves.bits || moves.boundaries) || random.Chance(0.5))) {
    const size_t chosen = random.Below(tensors.size());
    if (random.Chance(0.5))
      MirrorRows(tensors, chosen, random);
    else
      ShapeRows(tensors[chosen], random);
  }
}

}  // namespace aclnn_check
