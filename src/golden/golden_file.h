// Golden and recorded data (docs/contract/golden.md) in HDF5: one group per test point under
// /points, named after its id with '/' written as '|', holding
//   attributes  id, op, case, dtype, params (JSON: parameter -> value, non-finite doubles as
//               "nan"/"inf"/"-inf"), tensors (JSON: tensor -> {"dtype", "shape"} or null)
//   inputs/     one float64 dataset per input tensor, the values exactly as the harness made them
//   expected/   the oracle's outputs (golden files, written by tools/gen_golden.py)
//   documented/ + rule/   where a documented rule differs from the oracle: the rule's value and,
//               per element, 1 + the index into the rule group's attribute rule_ids (0: none)
//   device/     a provider's outputs (files written by `golden record`)
// The root's attributes say what the file is (format, kind) and where it came from. Strings are
// fixed-length, groups keep their links in their object headers, datasets carry Fletcher-32
// checksums and the file uses HDF5's newest format: every byte the reader interprets is covered
// by a checksum, so damage is an InputError, never a crash inside HDF5 (hdf5_file.cc).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalogue/operator.h"
#include "golden/hdf5_file.h"

namespace aclnn_check {

constexpr std::string_view kGoldenFormat = "aclnn-check golden 1";

// Values of one tensor in logical (row-major) order.
using GoldenValues = std::map<std::string, std::vector<double>>;

struct GoldenPoint {
  std::string id;
  const Operator* op = nullptr;
  std::string case_path;
  DType dtype = DType::kFloat32;
  CallPlan plan;              // every tensor's dtype and shape (nullopt: null), every parameter
  GoldenValues inputs;        // by tensor name
  GoldenValues expected;      // the oracle's outputs
  GoldenValues documented;    // a documented rule's value where it differs from the oracle
  std::map<std::string, std::vector<uint8_t>> rule;  // 1 + index into rule_ids; 0: no difference
  std::vector<std::string> rule_ids;
  GoldenValues device;        // a provider's outputs
  std::string verdict;        // recorded runs: the test point's verdict

  // The rule id that made element `index` of `output` differ from the oracle, or "".
  std::string RuleAt(const std::string& output, size_t index) const;
};

struct GoldenFile {
  std::string path;
  std::map<std::string, std::string> attributes;  // the root's string attributes
  std::vector<GoldenPoint> points;
};

// Reads and checks a file: every error is an InputError naming the file, the object and what was
// expected. `name` stands for the file in errors when reading an in-memory image.
GoldenFile ReadGoldenFile(const std::string& path);
GoldenFile ReadGoldenImage(std::string_view bytes, const std::string& name);

// Writes a new file point by point: the root's attributes, then each point's attributes, inputs,
// expected and device values (whatever is present).
class GoldenWriter {
 public:
  GoldenWriter(const std::string& path, const std::map<std::string, std::string>& attributes);
  void Add(const GoldenPoint& point);

 private:
  Hdf5File file_;
  unsigned points_ = 0;
};
void WriteGoldenFile(const std::string& path, const GoldenFile& file);

// Group name of a test point id: '/' becomes '|' (HDF5 separates paths with '/').
std::string GoldenGroupName(std::string_view id);

// Parameters as the file stores them, and back (with the operator's parameter kinds).
nlohmann::json ParamsJson(const Operator& op, const std::vector<ParamValue>& params);
std::vector<ParamValue> ParamsFromJson(const Operator& op, const nlohmann::json& params,
                                       const std::string& file, const std::string& where);

}  // namespace aclnn_check
