#include "runner/determinism.h"

#include <cstdio>
#include <cstring>

namespace aclnn_check {
namespace {

std::string Hex(const std::vector<std::byte>& encoding) {
  // Little-endian bytes, written most significant first as the number they encode.
  std::string text = "0x";
  char digits[3];
  for (auto it = encoding.rbegin(); it != encoding.rend(); ++it) {
    std::snprintf(digits, sizeof digits, "%02x", static_cast<unsigned>(*it));
    text += digits;
  }
  return text;
}

std::string Describe(const std::vector<std::byte>& encoding, DType dtype) {
  char value[40];
  std::snprintf(value, sizeof value, "%.9g", DecodeElement(encoding.data(), dtype));
  return std::string(value) + " (" + Hex(encoding) + ")";
}

}  // namespace

DeterminismCheck::DeterminismCheck(CapturedOutputs first, std::map<std::string, DType> dtypes)
    : first_(std::move(first)), dtypes_(std::move(dtypes)) {}

std::vector<std::byte> DeterminismCheck::Element(const std::vector<std::byte>& bytes,
                                                 const std::string& name, int64_t index) const {
  const size_t size = DTypeSize(dtypes_.at(name));
  const auto begin = bytes.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(index) * size);
  return {begin, begin + static_cast<std::ptrdiff_t>(size)};
}

void DeterminismCheck::AddFailedCall(int call, const std::string& failure) {
  calls_ = std::max(calls_, call);
  failed_calls_.push_back("call " + std::to_string(call) + ": " + failure);
}

void DeterminismCheck::Add(int call, const CapturedOutputs& outputs) {
  calls_ = std::max(calls_, call);
  for (const auto& [name, reference] : first_.bytes) {
    const auto found = outputs.bytes.find(name);
    if (found == outputs.bytes.end() || found->second.size() != reference.size()) {
      failed_calls_.push_back("call " + std::to_string(call) + ": output " + name + " was not computed");
      continue;
    }
    const std::vector<std::byte>& later = found->second;
    OutputState& state = states_[name];
    const size_t size = DTypeSize(dtypes_.at(name));
    int64_t differs_at = -1;
    for (size_t offset = 0; offset < reference.size(); offset += size) {
      if (std::memcmp(reference.data() + offset, later.data() + offset, size) != 0) {
        differs_at = static_cast<int64_t>(offset / size);
        break;
      }
    }
    if (differs_at < 0) continue;
    ++state.differing_calls;
    // Every earlier call matched call 1 below the earlier first difference, so at a lower index
    // they all held call 1's value: the values seen there are call 1's and this call's.
    if (state.first_difference < 0 || differs_at < state.first_difference) {
      state.first_difference = differs_at;
      state.first_differing_call = call;
      state.differing_value = Element(later, name, differs_at);
      state.values_there = {Element(reference, name, differs_at), state.differing_value};
    } else {
      state.values_there.insert(Element(later, name, state.first_difference));
    }
  }
}

bool DeterminismCheck::deterministic() const {
  if (!failed_calls_.empty()) return false;
  for (const auto& [name, state] : states_) {
    if (state.first_difference >= 0) return false;
  }
  return true;
}

std::vector<std::string> DeterminismCheck::Differences() const {
  std::vector<std::string> sentences = failed_calls_;
  for (const auto& [name, state] : states_) {
    if (state.first_difference < 0) continue;
    const DType dtype = dtypes_.at(name);
    const std::string index = "[" + std::to_string(state.first_difference) + "]";
    sentences.push_back(
        name + ": " + std::to_string(state.differing_calls) + " of " + std::to_string(calls_ - 1) +
        " repeated calls differ from call 1; first differing element " + index + ": call 1 wrote " +
        Describe(Element(first_.bytes.at(name), name, state.first_difference), dtype) + ", call " +
        std::to_string(state.first_differing_call) + " wrote " + Describe(state.differing_value, dtype) +
        "; element " + index + " took " + std::to_string(state.values_there.size()) +
        " distinct values over " + std::to_string(calls_) + " calls");
  }
  return sentences;
}

}  // namespace aclnn_check
