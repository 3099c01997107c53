// Runs one operator call through a loaded provider the way CANN's own samples do
// (ops-nn examples/test_aclnn_*.cpp): aclInit, aclrtSetDevice, aclrtCreateStream, aclrtMalloc +
// aclrtMemcpy for every tensor, aclCreateTensor, GetWorkspaceSize, aclrtMalloc(workspace) only
// when it is not 0, execute, aclrtSynchronizeStream, aclrtMemcpy back, destroy everything.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <memory>
#include <vector>

#include "catalogue/abi_call.h"
#include "device_access/provider.h"
#include "support/call_builder.h"

namespace aclnn_check::testing {

struct SampleRun {
  aclnnStatus workspace_status = -1;
  aclnnStatus execute_status = -1;
  uint64_t workspace_bytes = 0;
  std::map<std::string, std::vector<std::byte>> outputs;  // buffer contents by slot name
};

// What a sample creates on the device side, destroyed in CANN's order by DestroySampleObjects.
struct SampleObjects {
  AbiCall abi;
  std::vector<void*> buffers;  // one per non-null tensor, in slot order
  std::vector<aclIntArray*> int_arrays;
  std::vector<aclBoolArray*> bool_arrays;
  std::vector<std::string> strings;  // the character parameters' storage
};

// aclrtMalloc + aclrtMemcpy for every tensor of the call, and its aclCreateTensor.
inline void UploadSampleTensors(const RuntimeApi& acl, const Operator& op, CallBuilder& call,
                                const OpArgs& args, SampleObjects& objects) {
  for (size_t slot = 0; slot < args.tensors.size(); ++slot) {
    if (!args.tensors[slot]) {
      objects.abi.tensors.push_back(nullptr);
      continue;
    }
    const HostTensor& host = call.tensor(op.tensors()[slot].name);
    void* device = nullptr;
    EXPECT_EQ(acl.malloc(&device, host.bytes().size(), ACL_MEM_MALLOC_HUGE_FIRST), 0);
    EXPECT_EQ(acl.memcpy(device, host.bytes().size(), host.bytes().data(), host.bytes().size(),
                         ACL_MEMCPY_HOST_TO_DEVICE),
              0);
    objects.buffers.push_back(device);
    const TensorView& view = host.view();
    const int64_t storage = static_cast<int64_t>(host.bytes().size() / DTypeSize(view.dtype));
    objects.abi.tensors.push_back(acl.create_tensor(view.shape.data(), view.shape.size(),
                                                    ToAclDataType(view.dtype), view.strides.data(),
                                                    view.offset, ACL_FORMAT_ND, &storage, 1, device));
  }
}

// Host parameters in ABI form; arrays are created with the provider's own constructors.
inline void SampleParameters(const RuntimeApi& acl, const Operator& op, const OpArgs& args,
                             SampleObjects& objects) {
  AbiCall& abi = objects.abi;
  objects.strings.reserve(args.params.size());
  for (const ParamValue& value : args.params) {
    if (const auto* v = std::get_if<int64_t>(&value)) {
      abi.params.emplace_back(*v);
    } else if (const auto* d = std::get_if<double>(&value)) {
      abi.params.emplace_back(*d);
    } else if (const auto* s = std::get_if<std::string>(&value)) {
      objects.strings.push_back(*s);
      abi.params.emplace_back(objects.strings.back().data());
    } else if (const auto* ints = std::get_if<std::vector<int64_t>>(&value)) {
      objects.int_arrays.push_back(acl.create_int_array(ints->data(), ints->size()));
      abi.params.emplace_back(static_cast<const aclIntArray*>(objects.int_arrays.back()));
    } else if (const auto* bools = std::get_if<std::vector<bool>>(&value)) {
      std::unique_ptr<bool[]> flat(new bool[bools->size() + 1]);
      for (size_t i = 0; i < bools->size(); ++i) flat[i] = (*bools)[i];
      objects.bool_arrays.push_back(acl.create_bool_array(flat.get(), bools->size()));
      abi.params.emplace_back(static_cast<const aclBoolArray*>(objects.bool_arrays.back()));
    } else {
      // A null pointer of the parameter's own kind.
      const ParamKind kind = op.params()[abi.params.size()].kind;
      if (kind == ParamKind::kString) {
        abi.params.emplace_back(static_cast<char*>(nullptr));
      } else if (kind == ParamKind::kBoolArray) {
        abi.params.emplace_back(static_cast<const aclBoolArray*>(nullptr));
      } else {
        abi.params.emplace_back(static_cast<const aclIntArray*>(nullptr));
      }
    }
  }
}

// GetWorkspaceSize, a workspace only when it is not 0, execute, aclrtSynchronizeStream.
inline void CallLikeCannSample(const Provider& provider, const Operator& op, aclrtStream stream,
                               SampleObjects& objects, SampleRun& run) {
  const RuntimeApi& acl = provider.api();
  aclOpExecutor* executor = nullptr;
  objects.abi.workspace_size = &run.workspace_bytes;
  objects.abi.executor = &executor;
  const OperatorSymbols* symbols = provider.Symbols(op);
  EXPECT_NE(symbols, nullptr) << provider.spec() << " lacks " << op.name();
  if (!symbols) return;
  run.workspace_status = op.def().invoke_get_workspace_size(symbols->get_workspace_size, objects.abi);
  if (run.workspace_status != 0) return;
  void* workspace = nullptr;
  if (run.workspace_bytes > 0) {
    EXPECT_EQ(acl.malloc(&workspace, run.workspace_bytes, ACL_MEM_MALLOC_HUGE_FIRST), 0);
  }
  run.execute_status = symbols->execute(workspace, run.workspace_bytes, executor, stream);
  EXPECT_EQ(acl.synchronize_stream(stream), 0);
  if (workspace) acl.free(workspace);
}

// aclrtMemcpy back every output, then free and destroy everything the sample created.
inline void DownloadAndDestroy(const RuntimeApi& acl, const Operator& op, CallBuilder& call,
                               const OpArgs& args, SampleObjects& objects, SampleRun& run) {
  size_t buffer = 0;
  for (size_t slot = 0; slot < args.tensors.size(); ++slot) {
    if (!args.tensors[slot]) continue;
    void* device = objects.buffers[buffer++];
    if (op.tensors()[slot].role == SlotRole::kOutput) {
      std::vector<std::byte> host(call.tensor(op.tensors()[slot].name).bytes().size());
      EXPECT_EQ(acl.memcpy(host.data(), host.size(), device, host.size(),
                           ACL_MEMCPY_DEVICE_TO_HOST),
                0);
      run.outputs.emplace(std::string(op.tensors()[slot].name), std::move(host));
    }
    acl.free(device);
  }
  for (aclTensor* tensor : objects.abi.tensors) acl.destroy_tensor(tensor);
  for (aclIntArray* array : objects.int_arrays) acl.destroy_int_array(array);
  for (aclBoolArray* array : objects.bool_arrays) acl.destroy_bool_array(array);
}

inline SampleRun RunLikeCannSample(const Provider& provider, const Operator& op,
                                   CallBuilder& call) {
  const RuntimeApi& acl = provider.api();
  SampleRun run;
  // CANN: a repeated aclInit answers ACL_ERROR_REPEAT_INITIALIZE, which callers may ignore.
  const aclError init = acl.init(nullptr);
  EXPECT_TRUE(init == ACL_SUCCESS || init == ACL_ERROR_REPEAT_INITIALIZE) << init;
  EXPECT_EQ(acl.set_device(0), 0);
  aclrtStream stream = nullptr;
  EXPECT_EQ(acl.create_stream(&stream), 0);
  const OpArgs args = call.Args();
  SampleObjects objects;
  UploadSampleTensors(acl, op, call, args, objects);
  SampleParameters(acl, op, args, objects);
  CallLikeCannSample(provider, op, stream, objects, run);
  DownloadAndDestroy(acl, op, call, args, objects, run);
  EXPECT_EQ(acl.destroy_stream(stream), 0);
  EXPECT_EQ(acl.reset_device(0), 0);
  return run;
}

// The values of an output buffer, read through the output's view in logical order.
inline std::vector<double> OutputValues(CallBuilder& call, const SampleRun& run,
                                        std::string_view slot) {
  TensorView view = call.tensor(slot).view();
  std::vector<std::byte> bytes = run.outputs.at(std::string(slot));
  view.data = bytes.data();
  return ReadAsDouble(view);
}

}  // namespace aclnn_check::testing
