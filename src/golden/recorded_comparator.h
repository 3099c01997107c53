// A recorded run as the comparator of CANN's double benchmark (`run --comparator-run
// FILE`, docs/contract/numerics.md): `golden record --with-inputs`, or tools/torch_comparator_run.py
// (PyTorch's own kernels in the case's dtype). A point counts only when the file stores its inputs
// and they are the harness's inputs bit for bit; otherwise the lookup says why it has no outputs.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "golden/golden_file.h"
#include "runner/precision_gate.h"

namespace aclnn_check {

class RecordedComparator : public ComparatorSource {
 public:
  // Reads the files (InputError on a damaged or foreign one, or one that is not a recorded run);
  // a point id in two files is an error too.
  explicit RecordedComparator(const std::vector<std::string>& paths);

  ComparatorLookup Find(const std::string& point_id,
                       const std::map<std::string, std::vector<double>>& inputs) const override;
  std::string Describe() const override { return description_; }
  size_t size() const { return points_.size(); }

 private:
  std::map<std::string, GoldenPoint> points_;
  std::map<std::string, std::string> file_of_;  // point id -> the file it came from
  std::string description_;
};

}  // namespace aclnn_check
