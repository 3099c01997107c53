#include "catalogue/sparse_values.h"

#include <algorithm>
#include <bit>

namespace aclnn_check {

SparseValues::SparseValues(const SparseValues& other) { *this = other; }

SparseValues& SparseValues::operator=(const SparseValues& other) {
  if (this == &other) return *this;
  Reset(other.size_);
  for (size_t p = 0; p < pages_.size(); ++p) {
    const double* page = other.pages_[p].load(std::memory_order_acquire);
    if (page) pages_[p].store(new double[kPageElements](), std::memory_order_release);
    if (page) std::copy(page, page + kPageElements, pages_[p].load(std::memory_order_relaxed));
  }
  return *this;
}

SparseValues::SparseValues(SparseValues&& other) noexcept
    : size_(other.size_), pages_(std::move(other.pages_)) {
  other.size_ = 0;
  other.pages_.clear();
}

SparseValues& SparseValues::operator=(SparseValues&& other) noexcept {
  if (this == &other) return *this;
  Release();
  size_ = other.size_;
  pages_ = std::move(other.pages_);
  other.size_ = 0;
  other.pages_.clear();
  return *this;
}

SparseValues::~SparseValues() { Release(); }

void SparseValues::Release() {
  for (auto& page : pages_) delete[] page.load(std::memory_order_relaxed);
  pages_.clear();
  size_ = 0;
}

void SparseValues::Reset(size_t n) {
  Release();
  size_ = n;
  pages_ = std::vector<std::atomic<double*>>((n + kPageElements - 1) / kPageElements);
}

void SparseValues::Set(size_t i, double value) {
  std::atomic<double*>& slot = pages_[i / kPageElements];
  double* page = slot.load(std::memory_order_acquire);
  if (!page) {
    if (std::bit_cast<uint64_t>(value) == 0) return;  // +0 is what an absent page holds; -0 is not
    double* fresh = new double[kPageElements]();
    // Two threads may reach an absent page at once (SwiGluGrad writes both halves of a row):
    // the first installs its page, the other frees its own and uses that one.
    if (slot.compare_exchange_strong(page, fresh, std::memory_order_acq_rel)) {
      page = fresh;
    } else {
      delete[] fresh;
    }
  }
  page[i % kPageElements] = value;
}

std::vector<double> SparseValues::ToVector() const {
  std::vector<double> values(size_);
  for (size_t i = 0; i < size_; ++i) values[i] = (*this)[i];
  return values;
}

}  // namespace aclnn_check
