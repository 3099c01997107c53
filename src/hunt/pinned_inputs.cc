#include "hunt/pinned_inputs.h"

#include <cmath>

#include "cases/input_generator.h"

namespace aclnn_check {

// The generator itself says where the specials go: with specials 0, 1, ..., numel - 1 resolved in
// float64 (exact), the value at each position is the number of the special placed there.
std::vector<int64_t> SpecialOrder(uint64_t seed, const std::string& point_id,
                                  const std::string& tensor, int64_t numel) {
  InputSpec numbering;
  numbering.specials.reserve(static_cast<size_t>(numel));
  for (int64_t k = 0; k < numel; ++k) numbering.specials.emplace_back(k);
  const std::vector<double> placed =
      GenerateValues(numbering, numel, CounterRandom(seed, point_id, tensor),
                     SpecialContext{DType::kFloat64, std::nullopt});
  std::vector<int64_t> order(static_cast<size_t>(numel));
  for (int64_t p = 0; p < numel; ++p)
    order[static_cast<size_t>(placed[static_cast<size_t>(p)])] = p;
  return order;
}

std::vector<nlohmann::json> PinnedSpecials(const std::vector<double>& values,
                                           const std::vector<int64_t>& order) {
  std::vector<nlohmann::json> specials;
  specials.reserve(order.size());
  for (int64_t position : order) {
    const double value = values[static_cast<size_t>(position)];
    if (std::isnan(value))
      specials.push_back("nan");
    else if (std::isinf(value))
      specials.push_back(value > 0 ? "inf" : "-inf");
    else
      specials.push_back(value);
  }
  return specials;
}

}  // namespace aclnn_check
