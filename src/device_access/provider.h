// A loaded provider: the runtime and object functions it must export, and the operator pairs it
// may export. Everything the harness calls on a device goes through this table.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "acl/acl_rt.h"
#include "catalogue/operator.h"
#include "device_access/loader.h"

namespace aclnn_check {

struct RuntimeApi {
  decltype(&aclInit) init;
  decltype(&aclFinalize) finalize;
  decltype(&aclrtSetDevice) set_device;
  decltype(&aclrtResetDevice) reset_device;
  decltype(&aclrtCreateStream) create_stream;
  decltype(&aclrtDestroyStream) destroy_stream;
  decltype(&aclrtSynchronizeStream) synchronize_stream;
  decltype(&aclrtMalloc) malloc;
  decltype(&aclrtFree) free;
  decltype(&aclrtMemcpy) memcpy;
  decltype(&aclrtGetSocName) get_soc_name;         // optional: nullptr when absent
  decltype(&aclGetRecentErrMsg) recent_error;      // optional
  // Events (all five or none are used): optional, a provider without them is timed on the host.
  decltype(&aclrtCreateEvent) create_event;
  decltype(&aclrtDestroyEvent) destroy_event;
  decltype(&aclrtRecordEvent) record_event;
  decltype(&aclrtSynchronizeEvent) synchronize_event;
  decltype(&aclrtEventElapsedTime) event_elapsed_time;
  decltype(&aclCreateTensor) create_tensor;
  decltype(&aclDestroyTensor) destroy_tensor;
  decltype(&aclCreateIntArray) create_int_array;
  decltype(&aclDestroyIntArray) destroy_int_array;
  decltype(&aclCreateBoolArray) create_bool_array;
  decltype(&aclDestroyBoolArray) destroy_bool_array;
};

// The calling patterns' functions (docs/calling-patterns.md), each optional: a provider without
// them gets the patterns that need them reported as not provided. Prototypes as CANN documents
// them (hicann/opbase docs/en/api/nnopbase/aclnn/).
struct PatternApi {
  aclnnStatus (*set_repeatable)(aclOpExecutor* executor) = nullptr;
  aclnnStatus (*destroy_executor)(aclOpExecutor* executor) = nullptr;
  aclnnStatus (*set_input_addr)(aclOpExecutor* executor, size_t index, aclTensor* tensor, void* addr) = nullptr;
  aclnnStatus (*set_output_addr)(aclOpExecutor* executor, size_t index, aclTensor* tensor, void* addr) = nullptr;
  decltype(&aclrtCreateContext) create_context = nullptr;
  decltype(&aclrtDestroyContext) destroy_context = nullptr;
  decltype(&aclrtSetCurrentContext) set_current_context = nullptr;
  decltype(&aclrtGetDeviceCount) get_device_count = nullptr;

  bool repeatable() const { return set_repeatable && destroy_executor && set_input_addr && set_output_addr; }
  bool contexts() const { return create_context && destroy_context && set_current_context; }
};

// Every operator's execute function has this prototype.
using ExecuteFunction = aclnnStatus (*)(void* workspace, uint64_t workspace_size,
                                        aclOpExecutor* executor, aclrtStream stream);

struct OperatorSymbols {
  void* get_workspace_size = nullptr;
  ExecuteFunction execute = nullptr;
};

class Provider {
 public:
  // spec: "cpu", "ref", "cuda" or PATH[:PATH...]. Throws ProviderError.
  static std::unique_ptr<Provider> Load(const std::string& spec);

  const std::string& spec() const { return spec_; }
  const std::vector<std::string>& paths() const { return libraries_.paths(); }
  const RuntimeApi& api() const { return api_; }
  const PatternApi& patterns() const { return patterns_; }
  // nullptr when the provider does not export the operator's pair.
  const OperatorSymbols* Symbols(const Operator& op) const;
  // aclrtGetSocName's answer, when the provider has it and it answers.
  std::optional<std::string> SocName() const;
  // aclrtGetDeviceCount's answer, when the provider has it and it succeeds.
  std::optional<uint32_t> DeviceCount() const;
  // aclGetRecentErrMsg's answer, or "".
  std::string RecentError() const;

 private:
  Provider(std::string spec, std::vector<std::string> paths);

  std::string spec_;
  SharedLibraries libraries_;
  RuntimeApi api_{};
  PatternApi patterns_{};
  std::vector<std::optional<OperatorSymbols>> operators_;  // indexed like Catalogue()
};

}  // namespace aclnn_check
