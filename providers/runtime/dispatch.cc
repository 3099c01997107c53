#include "providers/runtime/dispatch.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/product.h"
#include "providers/runtime/backend.h"
#include "providers/runtime/executors.h"
#include "providers/runtime/objects.h"
#include "providers/runtime/stream_launch.h"

namespace aclnn_check::provider {
namespace {

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
    // kernels/<op>/README.md: the null checks first, then 161002 for every call on a SoC outside
    // docs/contract/products.md.
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
  created->handles = std::move(tensors);
  AdoptExecutor(created);
  *workspace_size = created->workspace_bytes;
  *executor = created;
  return ACLNN_SUCCESS;
}

aclnnStatus Launch(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                   aclrtStream stream) {
  std::optional<ExecutorLaunch> launch = ClaimExecutor(executor);
  if (!launch) return Fail(ACLNN_ERR_PARAM_INVALID, "executor is null, unknown or already used");
  if (launch->workspace_bytes > 0 &&
      (workspace == nullptr || workspace_size < launch->workspace_bytes)) {
    return Fail(ACLNN_ERR_PARAM_INVALID, "workspace smaller than the " +
                                             std::to_string(launch->workspace_bytes) +
                                             " bytes GetWorkspaceSize asked for");
  }
  if (const auto launching = ActiveBackend().launching) {
    launching(*launch->op, launch->serial, launch->repeatable, launch->args);
  }
  if (const auto before_launch = ActiveBackend().before_launch) before_launch(*launch->op);
  return LaunchOnStream(*launch->op, std::move(launch->args), workspace, stream);
}

}  // namespace aclnn_check::provider
