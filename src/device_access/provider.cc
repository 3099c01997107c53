#include "device_access/provider.h"

namespace aclnn_check {
namespace {

template <typename Function>
void Bind(const SharedLibraries& libraries, Function& function, const char* name) {
  function = reinterpret_cast<Function>(libraries.Require(name));
}

template <typename Function>
void BindOptional(const SharedLibraries& libraries, Function& function, const char* name) {
  function = reinterpret_cast<Function>(libraries.Find(name));
}

}  // namespace

Provider::Provider(std::string spec, std::vector<std::string> paths)
    : spec_(std::move(spec)), libraries_(std::move(paths)) {
  Bind(libraries_, api_.init, "aclInit");
  Bind(libraries_, api_.finalize, "aclFinalize");
  Bind(libraries_, api_.set_device, "aclrtSetDevice");
  Bind(libraries_, api_.reset_device, "aclrtResetDevice");
  Bind(libraries_, api_.create_stream, "aclrtCreateStream");
  Bind(libraries_, api_.destroy_stream, "aclrtDestroyStream");
  Bind(libraries_, api_.synchronize_stream, "aclrtSynchronizeStream");
  Bind(libraries_, api_.malloc, "aclrtMalloc");
  Bind(libraries_, api_.free, "aclrtFree");
  Bind(libraries_, api_.memcpy, "aclrtMemcpy");
  BindOptional(libraries_, api_.get_soc_name, "aclrtGetSocName");
  BindOptional(libraries_, api_.recent_error, "aclGetRecentErrMsg");
  BindOptional(libraries_, api_.create_event, "aclrtCreateEvent");
  BindOptional(libraries_, api_.destroy_event, "aclrtDestroyEvent");
  BindOptional(libraries_, api_.record_event, "aclrtRecordEvent");
  BindOptional(libraries_, api_.synchronize_event, "aclrtSynchronizeEvent");
  BindOptional(libraries_, api_.event_elapsed_time, "aclrtEventElapsedTime");
  Bind(libraries_, api_.create_tensor, "aclCreateTensor");
  Bind(libraries_, api_.destroy_tensor, "aclDestroyTensor");
  Bind(libraries_, api_.create_int_array, "aclCreateIntArray");
  Bind(libraries_, api_.destroy_int_array, "aclDestroyIntArray");
  Bind(libraries_, api_.create_bool_array, "aclCreateBoolArray");
  Bind(libraries_, api_.destroy_bool_array, "aclDestroyBoolArray");
  BindOptional(libraries_, patterns_.set_repeatable, "aclSetAclOpExecutorRepeatable");
  BindOptional(libraries_, patterns_.destroy_executor, "aclDestroyAclOpExecutor");
  BindOptional(libraries_, patterns_.set_input_addr, "aclSetInputTensorAddr");
  BindOptional(libraries_, patterns_.set_output_addr, "aclSetOutputTensorAddr");
  BindOptional(libraries_, patterns_.create_context, "aclrtCreateContext");
  BindOptional(libraries_, patterns_.destroy_context, "aclrtDestroyContext");
  BindOptional(libraries_, patterns_.set_current_context, "aclrtSetCurrentContext");
  BindOptional(libraries_, patterns_.get_device_count, "aclrtGetDeviceCount");
  for (const Operator& op : Catalogue()) {
    void* get_workspace_size = libraries_.Find(op.workspace_symbol());
    void* execute = libraries_.Find(op.aclnn_symbol());
    if (get_workspace_size && execute) {
      operators_.push_back(
          OperatorSymbols{get_workspace_size, reinterpret_cast<ExecuteFunction>(execute)});
    } else {
      operators_.push_back(std::nullopt);
    }
  }
}

std::unique_ptr<Provider> Provider::Load(const std::string& spec) {
  return std::unique_ptr<Provider>(new Provider(spec, ProviderPaths(spec)));
}

const OperatorSymbols* Provider::Symbols(const Operator& op) const {
  const auto& catalogue = Catalogue();
  for (size_t i = 0; i < catalogue.size(); ++i) {
    if (&catalogue[i] == &op) return operators_[i] ? &*operators_[i] : nullptr;
  }
  return nullptr;
}

std::optional<std::string> Provider::SocName() const {
  if (!api_.get_soc_name) return std::nullopt;
  const char* name = api_.get_soc_name();
  if (!name) return std::nullopt;
  return std::string(name);
}

std::optional<uint32_t> Provider::DeviceCount() const {
  uint32_t count = 0;
  if (!patterns_.get_device_count || patterns_.get_device_count(&count) != 0) return std::nullopt;
  return count;
}

std::string Provider::RecentError() const {
  if (!api_.recent_error) return {};
  const char* message = api_.recent_error();
  return message ? std::string(message) : std::string();
}

}  // namespace aclnn_check
