#include "core/block_values.h"

#include <algorithm>

#include "core/dtype.h"
#include "core/view_storage.h"

namespace aclnn_check {

std::span<const double> BlockValues::Block(int64_t begin, int64_t end,
                                           std::vector<double>& scratch) const {
  const size_t count = static_cast<size_t>(end - begin);
  if (!view_) return decoded_.subspan(static_cast<size_t>(begin), count);
  if (scratch.size() < count) scratch.resize(count);
  const std::span<double> into(scratch.data(), count);
  ReadInto(begin, into);
  return into;
}

void BlockValues::ReadInto(int64_t begin, std::span<double> into) const {
  if (view_) {
    ReadAsDouble(*view_, begin, into);
  } else {
    const std::span<const double> from = decoded_.subspan(static_cast<size_t>(begin), into.size());
    std::copy(from.begin(), from.end(), into.begin());
  }
}

double BlockValues::At(int64_t index) const {
  if (!view_) return decoded_[static_cast<size_t>(index)];
  return DecodeElement(view_->element_address(StorageIndexOf(*view_, index)), view_->dtype);
}

}  // namespace aclnn_check
