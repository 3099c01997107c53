// Every check of kernels/nsa_compress_grad/README.md with its status code and rule id, one by one,
// and their order; and the case plans of negative case files, which validation must reject with the
// intended rule.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "nsa_compress_grad/nsa_compress_grad.h"
#include "support/call_builder.h"
#include "support/operator_named.h"
#include "support/validation.h"

namespace aclnn_check::nsa_compress_grad {
namespace {

using testing::CallBuilder;
using testing::FolderOperator;

// A call described by its numbers; `windows` (T') is written by hand in every test.
struct Numbers {
  DType dtype = DType::kFloat16;
  ParamValue ends = std::vector<int64_t>{0, 128, 272};
  int64_t tokens = 272;
  int64_t heads = 4;
  int64_t head_dim = 32;
  int64_t block_size = 32;
  int64_t stride = 16;
  int64_t windows = 15;  // (128-32)/16+1 = 7 plus (144-32)/16+1 = 8
  int64_t type = 0;
  ParamValue layout = std::string("TND");
};

CallBuilder Build(const Numbers& s) {
  CallBuilder call(FolderOperator());
  call.Zeros("outputGrad", s.dtype, {s.windows, s.heads, s.head_dim})
      .Zeros("input", s.dtype, {s.tokens, s.heads, s.head_dim})
      .Zeros("weight", s.dtype, {s.block_size, s.heads})
      .Zeros("inputGrad", s.dtype, {s.tokens, s.heads, s.head_dim})
      .Zeros("weightGrad", s.dtype, {s.block_size, s.heads})
      .Param("actSeqLen", s.ends)
      .Param("compressBlockSize", s.block_size)
      .Param("compressStride", s.stride)
      .Param("actSeqLenType", s.type)
      .Param("layout", s.layout);
  return call;
}

CallBuilder Valid(DType dtype = DType::kFloat16) {
  Numbers s;
  s.dtype = dtype;
  return Build(s);
}

void ExpectAccepted(CallBuilder& call, const std::string& what) {
  const CheckOutcome outcome = FolderOperator().Validate(call.Args(), Product::kA2);
  EXPECT_TRUE(outcome.ok()) << what << ": " << outcome.rule << ": " << outcome.message;
}


void ExpectInvalid(const Numbers& s, const std::string& rule, const std::string& what) {
  CallBuilder call = Build(s);
  ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, rule, what);
}

TEST(NsaCompressGradValidate, AcceptsValidCalls) {
  for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
    CallBuilder call = Valid(dtype);
    ExpectAccepted(call, std::string(DTypeName(dtype)));
  }
  Numbers null_layout;
  null_layout.layout = std::monostate{};
  CallBuilder a = Build(null_layout);
  ExpectAccepted(a, "null layout");

  Numbers null_ends;
  null_ends.ends = std::monostate{};
  null_ends.tokens = 256;
  null_ends.windows = 15;  // (256-32)/16+1
  CallBuilder b = Build(null_ends);
  ExpectAccepted(b, "null actSeqLen");

  Numbers no_leading_zero;
  no_leading_zero.ends = std::vector<int64_t>{128, 272};
  CallBuilder c = Build(no_leading_zero);
  ExpectAccepted(c, "no leading zero");

  Numbers repeated;
  repeated.ends = std::vector<int64_t>{0, 0, 128, 128, 272};
  CallBuilder d = Build(repeated);
  ExpectAccepted(d, "repeated ends");

  Numbers short_middle;
  short_middle.ends = std::vector<int64_t>{0, 20, 84};
  short_middle.tokens = 84;
  short_middle.windows = 3;  // 0 for 20 rows, (64-32)/16+1 for 64
  CallBuilder e = Build(short_middle);
  ExpectAccepted(e, "short middle sequence");

  Numbers largest;
  largest.ends = std::vector<int64_t>{128};
  largest.tokens = 128;
  largest.heads = 128;
  largest.head_dim = 256;
  largest.block_size = 128;
  largest.stride = 112;
  largest.windows = 1;
  CallBuilder f = Build(largest);
  ExpectAccepted(f, "largest parameters");

  Numbers smallest;
  smallest.ends = std::vector<int64_t>{32};
  smallest.tokens = 32;
  smallest.heads = 1;
  smallest.head_dim = 16;
  smallest.windows = 1;
  CallBuilder g = Build(smallest);
  ExpectAccepted(g, "smallest parameters");

  Numbers wide_stride;  // a stride that does not divide the block
  wide_stride.block_size = 64;
  wide_stride.stride = 48;
  wide_stride.windows = 4;  // (128-64)/48+1 = 2 plus (144-64)/48+1 = 2
  CallBuilder h = Build(wide_stride);
  ExpectAccepted(h, "stride 48");
}

TEST(NsaCompressGradValidate, NullPointersAre161001) {
  for (const char* slot : {"outputGrad", "input", "weight", "inputGrad", "weightGrad"}) {
    CallBuilder call = Valid();
    call.Null(slot);
    ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "nsa.check.null", slot);
  }
  CallBuilder no_workspace = Valid();
  no_workspace.NullOutPointers(true, false);
  ExpectRejected(no_workspace, ACLNN_ERR_PARAM_NULLPTR, "nsa.check.null", "workspaceSize");
  CallBuilder no_executor = Valid();
  no_executor.NullOutPointers(false, true);
  ExpectRejected(no_executor, ACLNN_ERR_PARAM_NULLPTR, "nsa.check.null", "executor");
}

TEST(NsaCompressGradValidate, NullIsReportedBeforeEveryOtherProblem) {
  Numbers bad;
  bad.block_size = 40;
  bad.type = 1;
  bad.layout = std::string("BSND");
  bad.ends = std::vector<int64_t>{};
  CallBuilder call = Build(bad);
  call.Zeros("outputGrad", DType::kFloat32, {1, 2});
  call.Null("weightGrad");
  ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "nsa.check.null");
  CallBuilder out_pointer = Build(bad);
  out_pointer.Zeros("input", DType::kFloat32, {7});
  out_pointer.NullOutPointers(false, true);
  ExpectRejected(out_pointer, ACLNN_ERR_PARAM_NULLPTR, "nsa.check.null");
}

TEST(NsaCompressGradValidate, DTypeOutsideTheProductListIsTheMatrixRule) {
  CallBuilder fp32 = Valid(DType::kFloat32);
  ExpectRejected(fp32, ACLNN_ERR_PARAM_INVALID, "matrix.nsa.float32");
  // One tensor outside the list is a matrix rule even when the others agree with each other.
  for (const char* slot : {"outputGrad", "input", "weight", "inputGrad", "weightGrad"}) {
    CallBuilder call = Valid();
    const TensorView& view = call.tensor(slot).view();
    call.Zeros(slot, DType::kFloat32, view.shape);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "matrix.nsa.float32", slot);
  }
  CallBuilder doubles = Valid(DType::kFloat64);
  ExpectRejected(doubles, ACLNN_ERR_PARAM_INVALID, "matrix.nsa.other");
  CallBuilder ints = Valid(DType::kInt32);
  ExpectRejected(ints, ACLNN_ERR_PARAM_INVALID, "matrix.nsa.other");
  // The generated matrix rules exist for the compute dtypes A2 lacks or other products lack.
  for (const char* rule : {"matrix.nsa.float32", "matrix.nsa.float16", "matrix.nsa.bfloat16"}) {
    ASSERT_NE(FolderOperator().FindRule(rule), nullptr) << rule;
    EXPECT_EQ(FolderOperator().FindRule(rule)->status, ACLNN_ERR_PARAM_INVALID);
  }
}

TEST(NsaCompressGradValidate, OnlyA2SupportsTheOperator) {
  EXPECT_EQ(FolderOperator().SupportedDTypes(Product::kA2).size(), 2u);
  EXPECT_TRUE(FolderOperator().Supports(Product::kA2, DType::kFloat16));
  EXPECT_TRUE(FolderOperator().Supports(Product::kA2, DType::kBFloat16));
  for (Product product : {Product::kA3, Product::kInf, Product::kTrain, Product::k200I}) {
    EXPECT_FALSE(FolderOperator().AvailableOn(product)) << ProductName(product);
    for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
      CallBuilder call = Valid(dtype);
      ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, FolderOperator().MatrixRule(dtype),
                     std::string(ProductName(product)), product);
    }
    // Except a null pointer: docs/contract/products.md puts the null checks first on every product,
    // listed or not.
    for (const char* slot : {"outputGrad", "input", "weight", "inputGrad", "weightGrad"}) {
      CallBuilder null_call = Valid();
      null_call.Null(slot);
      ExpectRejected(null_call, ACLNN_ERR_PARAM_NULLPTR, "nsa.check.null", slot, product);
    }
    CallBuilder no_executor = Valid();
    no_executor.NullOutPointers(false, true);
    ExpectRejected(no_executor, ACLNN_ERR_PARAM_NULLPTR, "nsa.check.null", "executor", product);
  }
}

TEST(NsaCompressGradValidate, MixedDTypesAre161002) {
  for (const char* slot : {"outputGrad", "input", "weight", "inputGrad", "weightGrad"}) {
    CallBuilder call = Valid();
    const TensorView& view = call.tensor(slot).view();
    call.Zeros(slot, DType::kBFloat16, view.shape);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.dtype", slot);
  }
}

TEST(NsaCompressGradValidate, RankOfOutputGradAndInputMustBeThree) {
  for (const Dims& shape : {Dims{272, 128}, Dims{272, 4, 32, 1}, Dims{}}) {
    CallBuilder input = Valid();
    input.Zeros("input", DType::kFloat16, shape);
    ExpectRejected(input, ACLNN_ERR_PARAM_INVALID, "nsa.check.rank", FormatDims(shape));
  }
  for (const Dims& shape : {Dims{15, 128}, Dims{15, 4, 32, 1}}) {
    CallBuilder grad = Valid();
    grad.Zeros("outputGrad", DType::kFloat16, shape);
    ExpectRejected(grad, ACLNN_ERR_PARAM_INVALID, "nsa.check.rank", FormatDims(shape));
  }
  // weight's rank is part of its shape check, the outputs' of theirs.
  CallBuilder weight = Valid();
  weight.Zeros("weight", DType::kFloat16, {32, 4, 1});
  ExpectRejected(weight, ACLNN_ERR_PARAM_INVALID, "nsa.check.weight_shape");
  CallBuilder input_grad = Valid();
  input_grad.Zeros("inputGrad", DType::kFloat16, {272, 128});
  ExpectRejected(input_grad, ACLNN_ERR_PARAM_INVALID, "nsa.check.output_shape");
}

TEST(NsaCompressGradValidate, BlockSizeStrideAndHeadDimMustBePositiveMultiplesOf16) {
  for (int64_t block : {40, 0, -32, 8}) {
    CallBuilder call = Valid();  // the weight keeps [32, 4]: align16 comes first
    call.Param("compressBlockSize", block);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.align16",
                   "block " + std::to_string(block));
  }
  for (int64_t stride : {24, 0, -16, 1}) {
    CallBuilder call = Valid();
    call.Param("compressStride", stride);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.align16",
                   "stride " + std::to_string(stride));
  }
  for (int64_t head_dim : {40, 8, 0}) {
    Numbers s;
    s.head_dim = head_dim;
    ExpectInvalid(s, "nsa.check.align16", "D " + std::to_string(head_dim));
  }
}

TEST(NsaCompressGradValidate, BlockSizeMustExceedStride) {
  for (int64_t stride : {32, 48}) {
    CallBuilder call = Valid();
    call.Param("compressStride", stride);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.block_vs_stride",
                   "stride " + std::to_string(stride));
  }
}

TEST(NsaCompressGradValidate, BlockSizeAbove128Is161002) {
  Numbers s;
  s.block_size = 144;
  ExpectInvalid(s, "nsa.check.block_size_max", "block 144");
}

TEST(NsaCompressGradValidate, HeadDimAbove256Is161002) {
  Numbers s;
  s.head_dim = 272;
  ExpectInvalid(s, "nsa.check.head_dim_max", "D 272");
}

TEST(NsaCompressGradValidate, HeadsOutside1To128Are161002) {
  for (int64_t heads : {0, 129}) {
    Numbers s;
    s.heads = heads;
    ExpectInvalid(s, "nsa.check.heads", "N " + std::to_string(heads));
  }
}

TEST(NsaCompressGradValidate, WeightMustBeBlockSizeByHeads) {
  for (const Dims& shape : {Dims{16, 4}, Dims{32, 2}, Dims{4, 32}, Dims{128}, Dims{1, 32, 4}}) {
    CallBuilder call = Valid();
    call.Zeros("weight", DType::kFloat16, shape);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.weight_shape", FormatDims(shape));
  }
}

TEST(NsaCompressGradValidate, ActSeqLenTypeMustBeZero) {
  for (int64_t type : {1, -1, 2}) {
    Numbers s;
    s.type = type;
    ExpectInvalid(s, "nsa.check.act_seq_len_type", std::to_string(type));
  }
}

TEST(NsaCompressGradValidate, LayoutMustBeTND) {
  for (const char* layout : {"BSND", "", "tnd", "TND "}) {
    Numbers s;
    s.layout = std::string(layout);
    ExpectInvalid(s, "nsa.check.layout", layout);
  }
}

TEST(NsaCompressGradValidate, ActSeqLenMustBeNonEmptyNonNegativeNonDecreasingEndingAtT) {
  const std::vector<std::vector<int64_t>> bad = {
      {},                  // empty
      {-16, 128, 272},     // negative
      {0, 200, 128, 272},  // decreasing
      {0, 128, 256},       // last below T
      {0, 128, 288},       // last above T
      {272, 0},            // decreasing to 0 (and last != T)
  };
  for (const auto& ends : bad) {
    Numbers s;
    s.ends = ends;
    ExpectInvalid(s, "nsa.check.act_seq_len", FormatDims(ends));
  }
}

TEST(NsaCompressGradValidate, OutputGradMustHaveTheWindowsRows) {
  for (int64_t windows : {14, 16, 17}) {
    Numbers s;
    s.windows = windows;
    ExpectInvalid(s, "nsa.check.output_grad_shape", "T' " + std::to_string(windows));
  }
  for (const Dims& shape : {Dims{15, 2, 32}, Dims{15, 4, 48}}) {
    CallBuilder call = Valid();
    call.Zeros("outputGrad", DType::kFloat16, shape);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.output_grad_shape", FormatDims(shape));
  }
  // A null actSeqLen is one sequence of T rows: 272 rows give (272-32)/16+1 = 16 windows.
  Numbers null_ends;
  null_ends.ends = std::monostate{};
  ExpectInvalid(null_ends, "nsa.check.output_grad_shape", "null actSeqLen, T' 15");
  null_ends.windows = 16;
  CallBuilder call = Build(null_ends);
  ExpectAccepted(call, "null actSeqLen, T' 16");
}

TEST(NsaCompressGradValidate, OutputsMustHaveTheirInputsShapes) {
  for (const Dims& shape : {Dims{272, 4, 16}, Dims{271, 4, 32}, Dims{272, 4, 32, 1}}) {
    CallBuilder call = Valid();
    call.Zeros("inputGrad", DType::kFloat16, shape);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.output_shape", FormatDims(shape));
  }
  for (const Dims& shape : {Dims{32, 2}, Dims{4, 32}, Dims{32, 4, 1}}) {
    CallBuilder call = Valid();
    call.Zeros("weightGrad", DType::kFloat16, shape);
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.output_shape", FormatDims(shape));
  }
}

TEST(NsaCompressGradValidate, EmptyTensorsAre161002) {
  Numbers no_windows;  // one sequence of 16 rows: shorter than the block, T' = 0
  no_windows.ends = std::vector<int64_t>{16};
  no_windows.tokens = 16;
  no_windows.windows = 0;
  ExpectInvalid(no_windows, "nsa.check.empty", "T' = 0");
  Numbers no_tokens;
  no_tokens.ends = std::vector<int64_t>{0};
  no_tokens.tokens = 0;
  no_tokens.windows = 0;
  ExpectInvalid(no_tokens, "nsa.check.empty", "T = 0");
  Numbers null_no_tokens;
  null_no_tokens.ends = std::monostate{};
  null_no_tokens.tokens = 0;
  null_no_tokens.windows = 0;
  ExpectInvalid(null_no_tokens, "nsa.check.empty", "null actSeqLen, T = 0");
}

// Each check wins over the next one in kernels/nsa_compress_grad/README.md's order: a call that
// fails both reports the first.
TEST(NsaCompressGradValidate, ChecksRunInTheDocumentedOrder) {
  {  // null before dtype
    CallBuilder call = Valid();
    call.Zeros("weight", DType::kBFloat16, {32, 4}).Null("inputGrad");
    ExpectRejected(call, ACLNN_ERR_PARAM_NULLPTR, "nsa.check.null", "null/dtype");
  }
  {  // matrix before mixed dtypes, mixed dtypes before rank
    CallBuilder call = Valid();
    call.Zeros("weight", DType::kFloat32, {32, 4})
        .Zeros("inputGrad", DType::kBFloat16, {272, 4, 32});
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "matrix.nsa.float32", "matrix/dtype");
    CallBuilder rank = Valid();
    rank.Zeros("weight", DType::kBFloat16, {32, 4}).Zeros("input", DType::kFloat16, {272, 128});
    ExpectRejected(rank, ACLNN_ERR_PARAM_INVALID, "nsa.check.dtype", "dtype/rank");
  }
  {  // rank before align16 (D of 40 in a rank-4 input)
    CallBuilder call = Valid();
    call.Zeros("input", DType::kFloat16, {272, 4, 40, 1});
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.rank", "rank/align16");
  }
  {  // align16 before block_vs_stride: block 40, stride 48
    CallBuilder call = Valid();
    call.Param("compressBlockSize", int64_t{40}).Param("compressStride", int64_t{48});
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.align16", "align16/block_vs_stride");
  }
  {  // block_vs_stride before block_size_max: block 144, stride 160
    Numbers s;
    s.block_size = 144;
    s.stride = 160;
    ExpectInvalid(s, "nsa.check.block_vs_stride", "block_vs_stride/block_size_max");
  }
  {  // block_size_max before head_dim_max
    Numbers s;
    s.block_size = 144;
    s.head_dim = 272;
    ExpectInvalid(s, "nsa.check.block_size_max", "block_size_max/head_dim_max");
  }
  {  // head_dim_max before heads
    Numbers s;
    s.head_dim = 272;
    s.heads = 129;
    ExpectInvalid(s, "nsa.check.head_dim_max", "head_dim_max/heads");
  }
  {  // heads before weight_shape
    Numbers s;
    s.heads = 129;
    CallBuilder call = Build(s);
    call.Zeros("weight", DType::kFloat16, {32, 4});
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.heads", "heads/weight_shape");
  }
  {  // weight_shape before act_seq_len_type
    Numbers s;
    s.type = 1;
    CallBuilder call = Build(s);
    call.Zeros("weight", DType::kFloat16, {16, 4});
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.weight_shape", "weight/type");
  }
  {  // act_seq_len_type before layout
    Numbers s;
    s.type = 1;
    s.layout = std::string("BSND");
    ExpectInvalid(s, "nsa.check.act_seq_len_type", "type/layout");
  }
  {  // layout before act_seq_len
    Numbers s;
    s.layout = std::string("BSND");
    s.ends = std::vector<int64_t>{};
    ExpectInvalid(s, "nsa.check.layout", "layout/act_seq_len");
  }
  {  // act_seq_len before output_grad_shape
    Numbers s;
    s.ends = std::vector<int64_t>{0, 128, 256};
    s.windows = 3;
    ExpectInvalid(s, "nsa.check.act_seq_len", "act_seq_len/output_grad_shape");
  }
  {  // output_grad_shape before output_shape
    Numbers s;
    s.windows = 14;
    CallBuilder call = Build(s);
    call.Zeros("weightGrad", DType::kFloat16, {4, 32});
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.output_grad_shape",
                   "output_grad_shape/output_shape");
  }
  {  // output_shape before empty: T' = 0 and a wrong inputGrad
    Numbers s;
    s.ends = std::vector<int64_t>{16};
    s.tokens = 16;
    s.windows = 0;
    CallBuilder call = Build(s);
    call.Zeros("inputGrad", DType::kFloat16, {16, 4, 16});
    ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, "nsa.check.output_shape", "output_shape/empty");
  }
}

TEST(NsaCompressGradValidate, EveryStatusRuleIsDeclaredWithItsStatus) {
  const std::vector<std::pair<std::string, aclnnStatus>> expected = {
      {"nsa.check.null", ACLNN_ERR_PARAM_NULLPTR},
      {"nsa.check.dtype", ACLNN_ERR_PARAM_INVALID},
      {"nsa.check.rank", ACLNN_ERR_PARAM_INVALID},
      {"nsa.check.align16", ACLNN_ERR_PARAM_INVALID},
      {"nsa.check.block_vs_stride", ACLNN_ERR_PARAM_INVALID},
      {"nsa.check.block_size_max", ACLNN_ERR_PARAM_INVALID},
      {"nsa.check.head_dim_max", ACLNN_ERR_PARAM_INVALID},
      {"nsa.check.heads", ACLNN_ERR_PARAM_INVALID},
      {"nsa.check.weight_shape", ACLNN_ERR_PARAM_INVALID},
      {"nsa.check.act_seq_len_type", ACLNN_ERR_PARAM_INVALID},
      {"nsa.check.layout", ACLNN_ERR_PARAM_INVALID},
      {"nsa.check.act_seq_len", ACLNN_ERR_PARAM_INVALID},
      {"nsa.check.output_grad_shape", ACLNN_ERR_PARAM_INVALID},
      {"nsa.check.output_shape", ACLNN_ERR_PARAM_INVALID},
      {"nsa.check.empty", ACLNN_ERR_PARAM_INVALID},
  };
  size_t status_rules = 0;
  for (const RuleDef& rule : FolderOperator().rules()) {
    if (rule.kind == "status" && rule.id.starts_with("nsa.check.")) ++status_rules;
  }
  EXPECT_EQ(status_rules, expected.size());
  for (const auto& [id, status] : expected) {
    const RuleDef* rule = FolderOperator().FindRule(id);
    ASSERT_NE(rule, nullptr) << id;
    EXPECT_EQ(rule->kind, "status") << id;
    EXPECT_EQ(rule->status, status) << id;
    EXPECT_FALSE(rule->description.empty() || rule->condition.empty() || rule->source.empty())
        << id;
  }
}

// The axes of a test point: every axis's first default, with overrides.
nlohmann::json Axes(const nlohmann::json& overrides = nlohmann::json::object()) {
  nlohmann::json axes = nlohmann::json::object();
  for (const AxisDef& axis : FolderOperator().axes()) axes[axis.name] = axis.default_values->at(0);
  for (const auto& [name, value] : overrides.items()) {
    EXPECT_TRUE(axes.contains(name)) << name;
    axes[name] = value;
  }
  return axes;
}

CallBuilder FromPlan(const CallPlan& plan) {
  CallBuilder call(FolderOperator());
  for (size_t slot = 0; slot < plan.tensors.size(); ++slot) {
    if (plan.tensors[slot]) {
      call.Zeros(FolderOperator().tensors()[slot].name, plan.tensors[slot]->dtype,
                 plan.tensors[slot]->shape);
    }
  }
  for (size_t slot = 0; slot < plan.params.size(); ++slot) {
    call.Param(FolderOperator().params()[slot].name, plan.params[slot]);
  }
  return call;
}

TEST(NsaCompressGradValidate, DefaultPlanIsTheCannExample) {
  std::string error;
  const std::optional<CallPlan> plan =
      FolderOperator().def().plan(Axes(), DType::kBFloat16, &error);
  ASSERT_TRUE(plan) << error;
  ASSERT_EQ(plan->tensors.size(), 5u);
  EXPECT_EQ(plan->tensors[kOutputGrad]->shape, (Dims{15, 4, 32}));  // 7 + 8 windows
  EXPECT_EQ(plan->tensors[kInput]->shape, (Dims{272, 4, 32}));
  EXPECT_EQ(plan->tensors[kWeight]->shape, (Dims{32, 4}));
  EXPECT_EQ(plan->tensors[kInputGrad]->shape, (Dims{272, 4, 32}));
  EXPECT_EQ(plan->tensors[kWeightGrad]->shape, (Dims{32, 4}));
  for (const auto& tensor : plan->tensors) EXPECT_EQ(tensor->dtype, DType::kBFloat16);
  EXPECT_EQ(plan->params[kActSeqLen], ParamValue(std::vector<int64_t>{0, 128, 272}));
  EXPECT_EQ(plan->params[kBlockSize], ParamValue(int64_t{32}));
  EXPECT_EQ(plan->params[kStride], ParamValue(int64_t{16}));
  EXPECT_EQ(plan->params[kActSeqLenType], ParamValue(int64_t{0}));
  EXPECT_EQ(plan->params[kLayout], ParamValue(std::string("TND")));
  CallBuilder call = FromPlan(*plan);
  ExpectAccepted(call, "default plan");
}

TEST(NsaCompressGradValidate, PlansOfCaseFilesGetTheIntendedOutcome) {
  struct Point {
    nlohmann::json overrides;
    std::string rule;  // "" for a valid call
  };
  const std::vector<Point> points = {
      {{{"act_seq_len", nullptr}}, ""},  // T = tokens = 256, T' = 15
      {{{"act_seq_len", nullptr}, {"tokens", 16}}, "nsa.check.empty"},
      {{{"act_seq_len", {37, 37, 211}}, {"heads", 3}, {"head_dim", 48}}, ""},
      {{{"layout", nullptr}}, ""},
      {{{"block_size", 128}, {"stride", 112}, {"heads", 128}, {"head_dim", 256}}, ""},
      {{{"block_size", 24}}, "nsa.check.align16"},
      {{{"block_size", -16}}, "nsa.check.align16"},
      {{{"stride", 0}}, "nsa.check.align16"},
      {{{"head_dim", 40}}, "nsa.check.align16"},
      {{{"block_size", 32}, {"stride", 32}}, "nsa.check.block_vs_stride"},
      {{{"block_size", 144}}, "nsa.check.block_size_max"},
      {{{"head_dim", 272}}, "nsa.check.head_dim_max"},
      {{{"heads", 0}}, "nsa.check.heads"},
      {{{"heads", 129}}, "nsa.check.heads"},
      {{{"act_seq_len_type", 1}}, "nsa.check.act_seq_len_type"},
      {{{"layout", "BSND"}}, "nsa.check.layout"},
      {{{"act_seq_len", nlohmann::json::array()}}, "nsa.check.act_seq_len"},
      {{{"act_seq_len", {0, 200, 128}}}, "nsa.check.act_seq_len"},
      {{{"act_seq_len", {16}}}, "nsa.check.empty"},
      {{{"act_seq_len", {0}}}, "nsa.check.empty"},
  };
  for (const Point& point : points) {
    const std::string what = point.overrides.dump();
    std::string error;
    const std::optional<CallPlan> plan =
        FolderOperator().def().plan(Axes(point.overrides), DType::kFloat16, &error);
    ASSERT_TRUE(plan) << what << ": " << error;
    CallBuilder call = FromPlan(*plan);
    if (point.rule.empty()) {
      ExpectAccepted(call, what);
    } else {
      ExpectRejected(call, ACLNN_ERR_PARAM_INVALID, point.rule, what);
    }
  }
}

TEST(NsaCompressGradValidate, PlanRefusesOnlyNegativeDimensions) {
  std::string error;
  EXPECT_FALSE(FolderOperator().def().plan(Axes({{"heads", -1}}), DType::kFloat16, &error));
  EXPECT_NE(error.find("negative"), std::string::npos) << error;
}

}  // namespace
}  // namespace aclnn_check::nsa_compress_grad
