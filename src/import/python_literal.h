// Python literals as CANN's ST CSV cells write them ("((2, 3), (4,))", "{'dim': -1}",
// "('float32',)", "1.00E-03"), parsed by a recursive-descent parser into JSON values: tuples and
// lists become arrays, dicts objects (keys as text), None null, True/False booleans. inf and nan
// (bare, signed, math./np./numpy. prefixed, or float('...')) become the double values, which
// nlohmann::json holds in memory.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace aclnn_check {

class LiteralSyntaxError : public std::invalid_argument {
 public:
  LiteralSyntaxError(size_t offset, const std::string& expected)
      : std::invalid_argument("at character " + std::to_string(offset + 1) + ": expected " +
                              expected),
        offset_(offset),
        expected_(expected) {}
  size_t offset() const { return offset_; }
  const std::string& expected() const { return expected_; }

 private:
  size_t offset_;
  std::string expected_;
};

// Tuples, lists and dicts nest at most this deep (CANN's cells nest three deep).
constexpr int kMaxLiteralDepth = 64;

// Parses exactly one literal (surrounding spaces allowed); throws LiteralSyntaxError.
nlohmann::json ParsePythonLiteral(std::string_view text);

}  // namespace aclnn_check
