// One test case of a CANN case file (ST CSV row or ATK JSON entry) as the readers see it, before
// it is mapped onto an aclnn-check operator: tensors with shapes, dtypes and value ranges,
// attributes, and the source's own tolerance.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "check/cann_tolerance.h"

namespace aclnn_check {

// A value range; open bounds are never drawn.
struct ValueRange {
  double low = 0, high = 0;
  bool low_open = false, high_open = false;
};

struct SourceTensor {
  std::string name;  // ATK: the file's name; ST CSV: the kernel's input name, set by the mapping
  std::vector<int64_t> shape;
  std::string dtype;  // aclnn-check's dtype name, e.g. "bfloat16"
  std::optional<ValueRange> range;
  std::string column;  // where the tensor came from, for messages
};

struct SourceAttribute {
  std::string name;
  nlohmann::json value;              // a fixed value, or null when only a range is given
  std::optional<ValueRange> range;   // ATK: [low, high] of a scalar attribute
  bool list = false;                 // ATK: value gathered from a group of entries, one per element
  std::string column;
};

struct SourceCase {
  std::string file;      // the CANN file
  std::string location;  // "row 3" (CSV line) or "case 5" (ATK list index)
  std::string format;    // "ST CSV" or "ATK JSON"
  std::string name;      // testcase_name, or the ATK id
  std::string op;        // ST CSV: kernel op_name (swi_glu_grad); ATK: aclnn_name (aclnnLogitGrad)
  std::vector<SourceTensor> inputs;
  std::vector<SourceTensor> outputs;  // ST CSV only (ATK derives outputs)
  std::vector<SourceAttribute> attributes;
  CannTolerance tolerance;  // standard "ttk_close" (per output, by position until mapped) or "single_bm"
  std::vector<CannCloseTolerance> close_by_position;  // ttk_close before the outputs have names
  std::string tolerance_column;
};

// A case that converts to nothing aclnn-check can express, with the column that decides it.
class NotExpressible : public std::runtime_error {
 public:
  NotExpressible(std::string column, const std::string& why)
      : std::runtime_error(why), column_(std::move(column)) {}
  const std::string& column() const { return column_; }

 private:
  std::string column_;
};

// A skipped case as the import summary lists it.
struct SkippedCase {
  std::string file;
  std::string location;
  std::string column;
  std::string why;
};

// Source dtype spellings (ST CSV: float32, float16, bfloat16; ATK: fp32, fp16, bf16) to
// aclnn-check's names; nullopt for any other.
std::optional<std::string> CanonicalDType(const std::string& source_name);

}  // namespace aclnn_check
