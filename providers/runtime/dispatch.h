// The two phases of every operator in the bundled providers. The C entry points, generated from
// CANN's prototypes (cmake/operator_entry.cc.in), turn their arguments into these calls, so
// validation, executors and streams exist once.
#pragma once

#include <cstdint>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "aclnn/acl_meta.h"
#include "catalogue/operator.h"
#include "providers/runtime/last_error.h"

namespace aclnn_check::provider {

// Validates the call for the emulated product and, on success, creates the executor and
// reports the workspace size. A rejected call writes nothing and returns the status.
aclnnStatus Prepare(const Operator& op, std::vector<const aclTensor*> tensors,
                    std::vector<ParamValue> params, uint64_t* workspace_size,
                    aclOpExecutor** executor);
// Enqueues the executor's work on the stream (a null stream runs it at once).
aclnnStatus Launch(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                   aclrtStream stream);

ParamValue FromIntArray(const aclIntArray* array);
ParamValue FromBoolArray(const aclBoolArray* array);
ParamValue FromString(const char* text);

// The catalogue's operator of a folder; aborts naming the folder if the catalogue lacks it (the
// entry points are generated from the same folders, so only a broken build gets there).
const Operator& OperatorOfFolder(std::string_view folder);

// Sorts a prototype's arguments, in their order, into tensors and host parameters (each tensor
// and each parameter in the order of the operator's TensorSlots and ParamSlots), then Prepare.
template <typename... Arguments>
aclnnStatus PrepareCall(const Operator& op, Arguments... arguments_then_workspace_and_executor);

namespace detail {

struct CallArguments {
  std::vector<const aclTensor*> tensors;
  std::vector<ParamValue> params;

  // Out of line: inlined into every entry point, GCC 12 takes the variant's moves for uses of
  // uninitialized memory (-Wmaybe-uninitialized).
  void Add(const aclTensor* tensor);
  void Add(const aclIntArray* array);
  void Add(const aclBoolArray* array);
  void Add(const char* text);
  void Add(int64_t value);
  void Add(double value);
};

template <typename... Arguments, size_t... kIndex>
aclnnStatus PrepareSorted(const Operator& op, std::index_sequence<kIndex...>,
                          std::tuple<Arguments...> arguments) {
  constexpr size_t kCount = sizeof...(Arguments);
  CallArguments call;
  (call.Add(std::get<kIndex>(arguments)), ...);
  return Prepare(op, std::move(call.tensors), std::move(call.params),
                 std::get<kCount - 2>(arguments), std::get<kCount - 1>(arguments));
}

}  // namespace detail

template <typename... Arguments>
aclnnStatus PrepareCall(const Operator& op, Arguments... arguments) {
  static_assert(sizeof...(Arguments) >= 2, "the prototype ends with workspaceSize, executor");
  return detail::PrepareSorted(op, std::make_index_sequence<sizeof...(Arguments) - 2>{},
                               std::tuple<Arguments...>(arguments...));
}

}  // namespace aclnn_check::provider
