#include "core/status.h"

#include <array>
#include <utility>

namespace aclnn_check {
namespace {

constexpr std::array<std::pair<aclnnStatus, std::string_view>, 10> kNames = {{
    {ACLNN_SUCCESS, "ACLNN_SUCCESS"},
    {ACLNN_ERR_PARAM_NULLPTR, "ACLNN_ERR_PARAM_NULLPTR"},
    {ACLNN_ERR_PARAM_INVALID, "ACLNN_ERR_PARAM_INVALID"},
    {ACLNN_ERR_RUNTIME_ERROR, "ACLNN_ERR_RUNTIME_ERROR"},
    {ACLNN_ERR_INNER, "ACLNN_ERR_INNER"},
    {ACLNN_ERR_INNER_INFERSHAPE_ERROR, "ACLNN_ERR_INNER_INFERSHAPE_ERROR"},
    {ACLNN_ERR_INNER_TILING_ERROR, "ACLNN_ERR_INNER_TILING_ERROR"},
    {ACLNN_ERR_INNER_FIND_KERNEL_ERROR, "ACLNN_ERR_INNER_FIND_KERNEL_ERROR"},
    {ACLNN_ERR_INNER_CREATE_EXECUTOR, "ACLNN_ERR_INNER_CREATE_EXECUTOR"},
    {ACLNN_ERR_INNER_NULLPTR, "ACLNN_ERR_INNER_NULLPTR"},
}};

}  // namespace

std::string_view StatusName(aclnnStatus status) {
  for (const auto& [code, name] : kNames) {
    if (code == status) return name;
  }
  return {};
}

std::string DescribeStatus(aclnnStatus status) {
  std::string text = std::to_string(status);
  const std::string_view name = StatusName(status);
  if (!name.empty()) text += " (" + std::string(name) + ")";
  return text;
}

std::optional<aclnnStatus> ParseStatusName(std::string_view name) {
  for (const auto& [code, known] : kNames) {
    if (known == name) return code;
  }
  return std::nullopt;
}

}  // namespace aclnn_check
