// Doubles that are +0 almost everywhere: a reference output's alternative values, which only
// elements decided by a rule carry. Storage comes in pages of kPageElements, allocated on the
// first value other than +0 written into them, so a large output with few such elements costs
// one pointer per page instead of eight bytes per element.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace aclnn_check {

class SparseValues {
 public:
  static constexpr size_t kPageElements = size_t{1} << 16;

  SparseValues() = default;
  SparseValues(const SparseValues& other);
  SparseValues& operator=(const SparseValues& other);
  SparseValues(SparseValues&& other) noexcept;
  SparseValues& operator=(SparseValues&& other) noexcept;
  ~SparseValues();

  // n elements, all +0.
  void Reset(size_t n);
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  double operator[](size_t i) const {
    const double* page = pages_[i / kPageElements].load(std::memory_order_acquire);
    return page ? page[i % kPageElements] : 0.0;
  }
  // Safe from several threads as long as each writes its own elements.
  void Set(size_t i, double value);
  // Every element, in order (for comparisons in tests).
  std::vector<double> ToVector() const;

 private:
  void Release();

  size_t size_ = 0;
  std::vector<std::atomic<double*>> pages_;
};

}  // namespace aclnn_check
