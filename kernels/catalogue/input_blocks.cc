#include "catalogue/input_blocks.h"

#include <vector>

#include "core/parallel_blocks.h"

namespace aclnn_check {

void ForEachBlockOfTwo(const TensorView& first, const TensorView& second,
                       const std::function<void(int64_t, int64_t, std::span<const double>,
                                                std::span<const double>)>& body) {
  ForEachBlock(first.numel(), [&](int64_t, int64_t begin, int64_t end) {
    std::vector<double> first_block(static_cast<size_t>(end - begin));
    std::vector<double> second_block(first_block.size());
    ReadAsDouble(first, begin, first_block);
    ReadAsDouble(second, begin, second_block);
    body(begin, end, first_block, second_block);
  });
}

}  // namespace aclnn_check
