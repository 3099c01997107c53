// Bad input: a case file, profile, report or golden file that cannot be used. what() is
// "<file>: <json pointer or object>: <what was expected>"; the CLI prints it and exits with 2.
#pragma once

#include <stdexcept>
#include <string>

namespace aclnn_check {

class InputError : public std::runtime_error {
 public:
  InputError(const std::string& file, const std::string& pointer, const std::string& message)
      : std::runtime_error(file + ": " + pointer + ": " + message),
        file_(file),
        pointer_(pointer),
        message_(message) {}
  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_, pointer_, message_;
};

}  // namespace aclnn_check
