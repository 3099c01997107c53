// CANN's input generation rules (docs/contract/numerics.md; hicann/cannbot-skills
// ops/ops-precision-standard, COMMERCIAL_OPS_PRECISION_DOCS.md section 2 and 5.1.2): the named
// distributions a case file can give an input, normal parameters drawn from ranges, and the
// outliers ("noisy distribution").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cases/input_generator.h"

namespace aclnn_check {

// The standard's distributions by name: "cann_uniform" (uniform [-5, 5]), "cann_small_uniform"
// (uniform [-0.001, 0.001]), "cann_normal" (normal, mean drawn from [-100, 100], sigma from
// [1, 25]); nullopt for any other name.
std::optional<InputSpec> StandardDistribution(std::string_view dist);
const std::vector<std::string_view>& StandardDistributionNames();

// Outliers for n elements: max(1, floor(n / 1000)) positions, none for an empty tensor.
int64_t OutlierCount(int64_t numel);
constexpr double kOutlierFactor = 1000;

// Whether the spec needs the rules below (drawn normal parameters or outliers).
bool UsesStandardRules(const InputSpec& spec);

// The spec's values with the standard's rules: the normal's mean and sigma drawn once per test
// point and tensor from their ranges, then, with outliers, OutlierCount distinct positions (chosen
// uniformly, deterministic from the key) multiplied by 1000 and rounded to the dtype. A product
// that overflows the dtype becomes its largest finite value of that sign: the standard keeps
// outliers inside the valid input range by reducing the factor.
std::vector<double> GenerateStandardValues(const InputSpec& spec, int64_t numel,
                                           const CounterRandom& random, const SpecialContext& ctx);

}  // namespace aclnn_check
