// The HDF5 C API behind a few RAII types, in one place. HDF5's own error printing is off; every
// failure becomes an InputError naming the file, the object path inside it ("/group/dataset") and
// what was expected, so a truncated or corrupted file is a clear error and never a crash.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/tensor_view.h"
#include "json_input/input_error.h"

namespace aclnn_check {

// An HDF5 identifier (hid_t, a 64-bit integer; hdf5.h stays out of this header so that only the
// harness compiles against HDF5) closed with its own close function when it goes out of scope.
using Hdf5Handle = int64_t;
class Hdf5Id {
 public:
  using Close = int (*)(Hdf5Handle);
  Hdf5Id() = default;
  Hdf5Id(Hdf5Handle id, Close close) : id_(id), close_(close) {}
  ~Hdf5Id();
  Hdf5Id(Hdf5Id&& other) noexcept;
  Hdf5Id& operator=(Hdf5Id&& other) noexcept;
  Hdf5Id(const Hdf5Id&) = delete;
  Hdf5Id& operator=(const Hdf5Id&) = delete;

  Hdf5Handle get() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  Hdf5Handle id_ = -1;
  Close close_ = nullptr;
};

// Values of a numeric dataset, converted to double by HDF5, with the dataset's shape (empty for a
// scalar dataset).
struct Hdf5Array {
  Dims shape;
  std::vector<double> values;
};

// The most elements one dataset may hold: golden and recorded data are small, and a corrupted
// header must not make the reader allocate gigabytes.
constexpr uint64_t kMaxDatasetElements = uint64_t{1} << 28;

// The most members a group written here may have: all of them stay in its object header.
constexpr unsigned kMaxGroupMembers = 65535;

// A group (the file's root is one) of an open file. Paths in errors are absolute ("/a/b").
class Hdf5Group {
 public:
  Hdf5Group(std::shared_ptr<const std::string> file, std::string path, Hdf5Id id)
      : file_(std::move(file)), path_(std::move(path)), id_(std::move(id)) {}

  const std::string& path() const { return path_; }
  const std::string& file() const { return *file_; }

  // Reading. Missing objects and wrong types throw InputError.
  std::vector<std::string> ChildGroups() const;  // names, in the file's (name) order
  bool HasChild(std::string_view name) const;
  bool HasAttribute(std::string_view name) const;
  Hdf5Group OpenGroup(std::string_view name) const;
  std::vector<std::string> ChildDatasets() const;
  std::string ReadStringAttribute(std::string_view name) const;
  Hdf5Array ReadDataset(std::string_view name) const;

  // Throws InputError unless links and attributes sit in the object header (see the .cc).
  void RequireCompactStorage() const;

  // Writing.
  Hdf5Group CreateGroup(std::string_view name) const;  // up to kMaxGroupMembers members
  void WriteStringAttribute(std::string_view name, std::string_view value) const;
  // A float64 dataset of the given shape (rank 0: scalar); chunked and gzip-compressed when it
  // has elements.
  void WriteDataset(std::string_view name, const Dims& shape, const std::vector<double>& values) const;

 private:
  std::string ChildPath(std::string_view name) const;
  [[noreturn]] void Fail(std::string_view child, const std::string& expected) const;

  std::shared_ptr<const std::string> file_;
  std::string path_;
  Hdf5Id id_;
};

class Hdf5File {
 public:
  static Hdf5File Open(const std::string& path);    // read-only
  static Hdf5File Create(const std::string& path);  // truncates
  // An in-memory file image (the fuzzer's input); `name` stands for the file in errors.
  static Hdf5File OpenImage(std::string_view bytes, const std::string& name);

  Hdf5Group Root() const;
  const std::string& name() const { return *name_; }

 private:
  Hdf5File(std::shared_ptr<const std::string> name, Hdf5Id id) : name_(std::move(name)), id_(std::move(id)) {}
  std::shared_ptr<const std::string> name_;
  Hdf5Id id_;
};

}  // namespace aclnn_check
