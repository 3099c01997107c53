// junit.xml from a report (docs/contract/reports.md): one testsuite per case file, one testcase per
// test point; failures carry the failed rules, the worst element and the repro line.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace aclnn_check {

std::string JUnitXml(const nlohmann::json& report);
std::string XmlEscape(const std::string& text);

}  // namespace aclnn_check
