#include "providers/runtime/dispatch.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_set>

#include "core/product.h"
#include "providers/runtime/backend.h"
#include "providers/runtime/objects.h"
#include "providers/runtime/stream_launch.h"

namespace aclnn_check::provider {
namespace {

// Executors not yet consumed: an execute call with any other pointer is rejected instead of
// touching freed memory.
std::mutex& ExecutorMutex() {
  static std::mutex mutex;
  return mutex;
}
std::unordered_set<aclOpExecutor*>& LiveExecutors() {
  static std::unordered_set<aclOpExecutor*> executors;
  return executors;
}

// Read on every call: a process may switch the emulated product between runs.
std::optional<Product> EmulatedProduct() { return ProductOfSoc(EmulatedSocName()); }

aclnnStatus Fail(aclnnStatus status, std::string message) {
  SetLastError(std::move(message));
  return status;
}

}  // namespace

void detail::CallArguments::Add(const aclTensor* tensor) { tensors.push_back(tensor); }
void detail::CallArguments::Add(const aclIntArray* array) { params.push_back(FromIntArray(array)); }
void detail::CallArguments::Add(const aclBoolArray* array) {
  params.push_back(FromBoolArray(array));
}
void detail::CallArguments::Add(const char* text) { params.push_back(FromString(text)); }
void detail::CallArguments::Add(int64_t value) { params.emplace_back(value); }
void detail::CallArguments::Add(double value) { params.emplace_back(value); }

const Operator& OperatorOfFolder(std::string_view folder) {
  const Operator* op = FindOperator(folder);
  if (!op) {
    std::fprintf(stderr, "aclnn provider: the catalogue has no operator folder kernels/%.*s\n",
                 static_cast<int>(folder.size()), folder.data());
    std::abort();
  }
  return *op;
}

ParamValue FromIntArray(const aclIntArray* array) {
  if (!array) return std::monostate{};
  return array->values;
}

ParamValue FromBoolArray(const aclBoolArray* array) {
  if (!array) return std::monostate{};
  return array->values;
}

ParamValue FromString(const char* text) {
  if (!text) return std::monostate{};
  return std::string(text);
}

aclnnStatus Prepare(const Operator& op, std::vector<const aclTensor*> tensors,
                    std::vector<ParamValue> params, uint64_t* workspace_size,
                    aclOpExecutor** executor) {
  // The entry points are generated from CANN's prototype; a prototype whose tensors or
  // parameters do not match the catalogue's slots must not be computed with shifted arguments.
  if (tensors.size() != op.tensors().size() || params.size() != op.params().size()) {
    return Fail(ACLNN_ERR_INNER, "aclnn" + op.name() + ": the prototype has " +
                                     std::to_string(tensors.size()) + " tensors and " +
                                     std::to_string(params.size()) + " parameters, kernels/" +
                                     op.folder() + " declares " +
                                     std::to_string(op.tensors().size()) + " and " +
                                     std::to_string(op.params().size()));
  }
  OpArgs args;
  for (const aclTensor* tensor : tensors) {
    args.tensors.push_back(tensor ? std::optional<TensorView>(tensor->view) : std::nullopt);
  }
  args.params = std::move(params);
  args.workspace_size_null = workspace_size == nullptr;
  args.executor_null = executor == nullptr;
  const std::optional<Product> product = EmulatedProduct();
  if (!product) {
    // SPEC 4: the null checks first, then 161002 for every call on a SoC outside SPEC 3.
    if (auto failure = op.NullCheckFailure(args)) {
      return Fail(failure->status, failure->rule + ": " + failure->message);
    }
    return Fail(ACLNN_ERR_PARAM_INVALID,
                "SoC '" + EmulatedSocName() + "' (ACLNN_CPU_SOC) is not a known Ascend product");
  }
  const ComputeBackend& backend = ActiveBackend();
  const CheckOutcome outcome =
      backend.validate ? backend.validate(op, args, *product) : op.Validate(args, *product);
  if (!outcome.ok()) return Fail(outcome.status, outcome.rule + ": " + outcome.message);

  auto* created = new aclOpExecutor();
  created->op = &op;
  created->args = std::move(args);
  created->workspace_bytes = backend.workspace_bytes(op, created->args);
  {
    std::lock_guard lock(ExecutorMutex());
    LiveExecutors().insert(created);
  }
  *workspace_size = created->workspace_bytes;
  *executor = created;
  return ACLNN_SUCCESS;
}

aclnnStatus Launch(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                   aclrtStream stream) {
  {
    std::lock_guard lock(ExecutorMutex());
    if (!executor || LiveExecutors().erase(executor) == 0) {
      return Fail(ACLNN_ERR_PARAM_INVALID, "executor is null, unknown or already used");
    }
  }
  if (executor->workspace_bytes > 0 &&
      (workspace == nullptr || workspace_size < executor->workspace_bytes)) {
    const uint64_t needed = executor->workspace_bytes;
    delete executor;
    return Fail(ACLNN_ERR_PARAM_INVALID, "workspace smaller than the " + std::to_string(needed) +
                                             " bytes GetWorkspaceSize asked for");
  }
  const Operator& op = *executor->op;
  OpArgs args = std::move(executor->args);
  delete executor;
  if (const ComputeBackend& backend = ActiveBackend(); backend.before_launch) {
    backend.before_launch(op);
  }
  return LaunchOnStream(op, std::move(args), workspace, stream);
}

}  // namespace aclnn_check::provider
