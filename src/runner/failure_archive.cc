#include "runner/failure_archive.h"

#include <sys/mman.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "core/sha256.h"
#include "results/atomic_file.h"
#include "results/npy_file.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

// One .npy file to write: its name, type string, shape and bytes.
struct NpyArray {
  std::string file;
  std::string descr;
  Dims shape;
  std::vector<std::byte> data;
};

std::vector<std::byte> LogicalBytes(const HostTensor& tensor) {
  const TensorView& view = tensor.view();
  const size_t size = DTypeSize(view.dtype);
  std::vector<std::byte> bytes;
  bytes.reserve(static_cast<size_t>(view.numel()) * size);
  const std::span<const std::byte> storage = tensor.bytes();
  ForEachElement(view, [&](int64_t, int64_t index) {
    const std::byte* element = storage.data() + static_cast<size_t>(index) * size;
    bytes.insert(bytes.end(), element, element + size);
  });
  return bytes;
}

template <typename T>
std::vector<std::byte> AsBytes(const std::vector<T>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// An array in its dtype's encoding; a bfloat16 one also decoded to float32 (exactly: bfloat16 is
// the high half of float32), since NumPy has no bfloat16.
json AddTensor(const std::string& stem, DType dtype, const Dims& shape, std::vector<std::byte> bytes,
               std::vector<NpyArray>* arrays) {
  json entry = {{"dtype", std::string(DTypeName(dtype))}, {"shape", shape}};
  if (dtype == DType::kBFloat16) {
    std::vector<float> decoded(bytes.size() / 2);
    for (size_t i = 0; i < decoded.size(); ++i) decoded[i] = static_cast<float>(DecodeElement(bytes.data() + 2 * i, dtype));
    arrays->push_back({stem + ".float32.npy", "<f4", shape, AsBytes(decoded)});
    entry["float32_file"] = stem + ".float32.npy";
  }
  entry["file"] = stem + ".npy";
  entry["npy_descr"] = std::string(NpyDescr(dtype));
  arrays->push_back({stem + ".npy", std::string(NpyDescr(dtype)), shape, std::move(bytes)});
  return entry;
}

}  // namespace

std::string ByteSize(uint64_t bytes) {
  char text[32];
  if (bytes < (1 << 20)) {
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024);
  } else {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  }
  return text;
}

FailureArchive::FailureArchive(std::filesystem::path dir, uint64_t limit_bytes)
    : dir_(std::move(dir)), limit_bytes_(limit_bytes) {
  std::error_code error;
  std::filesystem::create_directories(dir_, error);
  if (error) throw std::runtime_error("--save-failures " + dir_.string() + ": " + error.message());
  void* page = mmap(nullptr, sizeof(std::atomic<uint64_t>), PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) throw std::runtime_error(std::string("mmap: ") + std::strerror(errno));
  used_ = new (page) std::atomic<uint64_t>(0);
}

FailureArchive::~FailureArchive() { munmap(used_, sizeof(std::atomic<uint64_t>)); }

std::string FailureArchive::FolderName(const std::string& point_id) {
  std::string name;
  for (char c : point_id.substr(0, 120)) {
    const bool plain = std::isalnum(static_cast<unsigned char>(c)) || std::strchr("._=+-", c);
    name += plain && c != '\0' ? c : '_';
  }
  return name + "-" + Sha256Hex(point_id).substr(0, 12);
}

json FailureArchive::Save(const TestPoint& point, const PreparedPoint& prepared,
                          const CapturedOutputs& captured, const TestPointResult& result) const {
  const std::filesystem::path folder = dir_ / FolderName(point.id);
  json record = {{"path", folder.string()}};
  try {
    const Operator& op = point.op();
    std::vector<NpyArray> arrays;
    json inputs = json::object(), outputs = json::object();
    for (size_t slot = 0; slot < op.tensors().size(); ++slot) {
      if (!prepared.tensors[slot]) continue;
      const TensorSlot& def = op.tensors()[slot];
      const std::string name(def.name);
      const HostTensor& host = *prepared.tensors[slot];
      const TensorView& view = host.view();
      if (def.role == SlotRole::kInput) {
        inputs[name] = AddTensor("input." + name, view.dtype, view.shape, LogicalBytes(host), &arrays);
        continue;
      }
      const auto device = captured.bytes.find(name);
      if (device == captured.bytes.end()) continue;  // not computed, or the call did not get this far
      json entry = AddTensor("device." + name, view.dtype, view.shape, device->second, &arrays);
      if (prepared.reference && prepared.reference->outputs[slot].computed) {
        const std::vector<double>& reference = prepared.reference->outputs[slot].value;
        const BlockValues values = captured.ValuesOf(name);
        const size_t n = static_cast<size_t>(values.size());
        std::vector<double> error(n), ulp_error(n);
        for (size_t i = 0; i < n && i < reference.size(); ++i) {
          error[i] = values.At(static_cast<int64_t>(i)) - reference[i];
          ulp_error[i] = std::fabs(error[i]) / Ulp(reference[i], view.dtype);
        }
        arrays.push_back({"reference." + name + ".npy", "<f8", view.shape, AsBytes(reference)});
        arrays.push_back({"error." + name + ".npy", "<f8", view.shape, AsBytes(error)});
        arrays.push_back({"ulp_error." + name + ".npy", "<f8", view.shape, AsBytes(ulp_error)});
        entry["reference_file"] = "reference." + name + ".npy";
        entry["error_file"] = "error." + name + ".npy";
        entry["ulp_error_file"] = "ulp_error." + name + ".npy";
      }
      outputs[name] = entry;
    }
    json failures = json::array();
    for (const Finding& f : result.failures) failures.push_back({{"rule", f.rule}, {"message", f.message}});
    json manifest = {{"id", point.id},
                     {"op", op.name()},
                     {"dtype", std::string(DTypeName(point.dtype))},
                     {"layout", point.layout.ToString()},
                     {"axes", point.axis_values},
                     {"verdict", std::string(VerdictName(result.verdict))},
                     {"status", result.status ? json(*result.status) : json(nullptr)},
                     {"expected_status", result.expected_status},
                     {"failures", failures},
                     {"repro", result.repro},
                     {"inputs", inputs},
                     {"outputs", outputs}};

    uint64_t needed = 0;
    for (const NpyArray& array : arrays) needed += NpyHeader(array.descr, array.shape).size() + array.data.size();
    // Reserve the bytes before writing, so concurrent workers never overshoot the limit together.
    uint64_t used = used_->load();
    bool reserved = false;
    while (used + needed <= limit_bytes_ && !(reserved = used_->compare_exchange_weak(used, used + needed))) {
    }
    std::filesystem::create_directories(folder);
    if (!reserved) {
      const std::string why = "its data needs " + ByteSize(needed) + "; --save-failures-max-mb (" +
                              ByteSize(limit_bytes_) + " for the run) has " +
                              ByteSize(limit_bytes_ - std::min(used, limit_bytes_)) +
                              " left; only manifest.json was written";
      manifest["not_saved"] = why;
      WriteFileAtomically(folder / "manifest.json", manifest.dump(2) + "\n");
      record["not_saved"] = why;
      return record;
    }
    for (const NpyArray& array : arrays) WriteFileAtomically(folder / array.file, NpyFile(array.descr, array.shape, array.data));
    WriteFileAtomically(folder / "manifest.json", manifest.dump(2) + "\n");
    record["bytes"] = needed;
  } catch (const std::exception& error) {
    record["not_saved"] = std::string("writing it failed: ") + error.what();
  }
  return record;
}

}  // namespace aclnn_check
