// A hunt's inputs written into a case file (docs/hunt.md): every element of an input is a special
// value, listed in the order in which the generator places specials, so each lands at its own
// position (cases/input_generator.h: with as many specials as elements every position is taken,
// the k-th special at the k-th position drawn). The order depends on the case's seed, the test
// point's id, the tensor's name and its element count only.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace aclnn_check {

// order[k] = the logical index at which the generator puts special k of numel specials.
std::vector<int64_t> SpecialOrder(uint64_t seed, const std::string& point_id,
                                  const std::string& tensor, int64_t numel);

// The specials list that reproduces values exactly (each already a value of the tensor's dtype).
std::vector<nlohmann::json> PinnedSpecials(const std::vector<double>& values,
                                           const std::vector<int64_t>& order);

}  // namespace aclnn_check
