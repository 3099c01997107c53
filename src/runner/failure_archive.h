// --save-failures DIR: for each failing test point, a folder with its inputs, the device's outputs,
// the float64 reference and the per-element error as .npy files and a manifest.json naming them
// (docs/failure-data.md). The bytes written are bounded for the whole run: the count lives in a
// shared page mapped before the isolated workers fork, so every worker process draws on the same
// budget.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "runner/execute.h"

namespace aclnn_check {

// "12.3 KiB", "4.0 MiB": sizes in the messages about saved data.
std::string ByteSize(uint64_t bytes);

class FailureArchive {
 public:
  // Creates dir; throws std::runtime_error naming it when it cannot.
  FailureArchive(std::filesystem::path dir, uint64_t limit_bytes);
  ~FailureArchive();
  FailureArchive(const FailureArchive&) = delete;
  FailureArchive& operator=(const FailureArchive&) = delete;

  // Writes the point's folder and returns what the report records about it:
  //   {"path": folder, "bytes": N}                 saved
  //   {"path": folder, "not_saved": "why"}         over the limit (the manifest is still written)
  // prepared holds the inputs and the reference (absent for a call that must be rejected);
  // captured the device outputs of the (first) call. Never throws: a write error is a not_saved.
  nlohmann::json Save(const TestPoint& point, const PreparedPoint& prepared,
                      const CapturedOutputs& captured, const TestPointResult& result) const;

  const std::filesystem::path& dir() const { return dir_; }
  uint64_t used_bytes() const { return used_->load(); }

  // The folder name of a point: its id with every character outside [A-Za-z0-9._=+-] as '_',
  // cut to 120 characters, and 12 hex digits of its SHA-256 so that ids never collide.
  static std::string FolderName(const std::string& point_id);

 private:
  std::filesystem::path dir_;
  uint64_t limit_bytes_;
  std::atomic<uint64_t>* used_;  // in a MAP_SHARED page
};

}  // namespace aclnn_check
