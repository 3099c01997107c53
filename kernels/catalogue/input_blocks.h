// Elementwise references read their inputs a block at a time rather than as whole tensors of
// doubles (16 bytes per element of two inputs).
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "core/tensor_view.h"

namespace aclnn_check {

// Calls body(begin, end, first_block, second_block) once for each harness block of two views with
// the same element count, in parallel; the blocks hold the views' elements [begin, end) in
// logical order as doubles.
void ForEachBlockOfTwo(const TensorView& first, const TensorView& second,
                       const std::function<void(int64_t, int64_t, std::span<const double>,
                                                std::span<const double>)>& body);

}  // namespace aclnn_check
