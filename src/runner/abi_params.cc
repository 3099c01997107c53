#include "runner/abi_params.h"

#include <variant>

namespace aclnn_check {

AbiParams::AbiParams(const Operator& op, const DeviceSession& session,
                     std::span<const ParamValue> values) {
  // Reserved up front so that the C strings handed out never move while the list grows.
  strings_.reserve(values.size());
  for (const ParamValue& value : values) {
    if (const auto* v = std::get_if<int64_t>(&value)) {
      values_.emplace_back(*v);
    } else if (const auto* d = std::get_if<double>(&value)) {
      values_.emplace_back(*d);
    } else if (const auto* s = std::get_if<std::string>(&value)) {
      strings_.emplace_back(s->begin(), s->end());
      strings_.back().push_back('\0');
      values_.emplace_back(strings_.back().data());
    } else if (const auto* ints = std::get_if<std::vector<int64_t>>(&value)) {
      int_arrays_.push_back(session.CreateIntArray(*ints));
      values_.emplace_back(static_cast<const aclIntArray*>(int_arrays_.back().get()));
    } else if (const auto* bools = std::get_if<std::vector<bool>>(&value)) {
      bool_arrays_.push_back(session.CreateBoolArray(*bools));
      values_.emplace_back(static_cast<const aclBoolArray*>(bool_arrays_.back().get()));
    } else {
      // A null pointer of the parameter's own kind.
      const ParamKind kind = op.params()[values_.size()].kind;
      if (kind == ParamKind::kString) {
        values_.emplace_back(static_cast<char*>(nullptr));
      } else if (kind == ParamKind::kBoolArray) {
        values_.emplace_back(static_cast<const aclBoolArray*>(nullptr));
      } else {
        values_.emplace_back(static_cast<const aclIntArray*>(nullptr));
      }
    }
  }
}

}  // namespace aclnn_check
