// Writes a file so that readers see either the old content or the whole new one: a temporary file
// in the same folder, flushed, then renamed over the target.
#pragma once

#include <filesystem>
#include <string_view>

namespace aclnn_check {

// Creates missing parent folders; throws std::runtime_error naming the path on failure.
void WriteFileAtomically(const std::filesystem::path& path, std::string_view content);

}  // namespace aclnn_check
