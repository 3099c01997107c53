// --repeat (docs/contract/numerics.md "Repeat runs"): every operator here is documented
// deterministic, so calls on the same inputs must leave bit-identical outputs. The check keeps only
// the first call's outputs and, per output, what it needs to name the first element that ever
// differed and every value that element took, whatever the number of calls.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "runner/execute.h"

namespace aclnn_check {

class DeterminismCheck {
 public:
  // first: the outputs of call 1; dtypes: each output's dtype, by name.
  DeterminismCheck(CapturedOutputs first, std::map<std::string, DType> dtypes);

  // The outputs of call number `call` (2, 3, ...). A call that computed no outputs (its status
  // was not success) is given as `failure`, a sentence naming what happened.
  void Add(int call, const CapturedOutputs& outputs);
  void AddFailedCall(int call, const std::string& failure);

  int calls() const { return calls_; }
  bool deterministic() const;
  // One sentence per output that changed (and per failed call): the first differing element, the
  // call it first differed in with both values, and how many distinct values it took.
  std::vector<std::string> Differences() const;

 private:
  struct OutputState {
    int64_t first_difference = -1;  // lowest element index where some call differed from call 1
    int first_differing_call = 0;
    std::set<std::vector<std::byte>> values_there;  // encodings seen at first_difference
    std::vector<std::byte> differing_value;         // the encoding first_differing_call wrote there
    int differing_calls = 0;
  };
  std::vector<std::byte> Element(const std::vector<std::byte>& bytes, const std::string& name,
                                 int64_t index) const;

  CapturedOutputs first_;
  std::map<std::string, DType> dtypes_;
  std::map<std::string, OutputState> states_;
  std::vector<std::string> failed_calls_;
  int calls_ = 1;
};

}  // namespace aclnn_check
