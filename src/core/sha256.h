// SHA-256 (FIPS 180-4) of a file, for the provenance of provider libraries in reports.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace aclnn_check {

std::string Sha256Hex(std::string_view data);
// "" when the file cannot be read.
std::string Sha256OfFile(const std::filesystem::path& path);

}  // namespace aclnn_check
