#include "results/npy_file.h"

#include <stdexcept>

namespace aclnn_check {

std::string_view NpyDescr(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return "<f4";
    case DType::kFloat16:
      return "<f2";
    case DType::kBFloat16:
      return "<u2";
    case DType::kFloat64:
      return "<f8";
    case DType::kInt8:
      return "|i1";
    case DType::kInt16:
      return "<i2";
    case DType::kInt32:
      return "<i4";
    case DType::kInt64:
      return "<i8";
    case DType::kUInt8:
      return "|u1";
    case DType::kBool:
      return "|b1";
  }
  throw std::logic_error("NpyDescr: unknown dtype");
}

std::string NpyHeader(std::string_view descr, std::span<const int64_t> shape) {
  std::string dict = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i) dict += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) dict += ",";  // a Python tuple of one
  dict += "), }";
  constexpr size_t kMagicAndVersion = 8;  // "\x93NUMPY", major, minor
  // Version 1.0 stores the header length in 2 bytes; 2.0 in 4.
  const bool version2 = dict.size() + 1 + kMagicAndVersion + 2 > 65535;
  const size_t prefix = kMagicAndVersion + (version2 ? 4 : 2);
  const size_t padded = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(padded - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::string header = "\x93NUMPY";
  header += static_cast<char>(version2 ? 2 : 1);
  header += '\0';
  const size_t length = dict.size();
  for (size_t byte = 0; byte < (version2 ? 4u : 2u); ++byte) header += static_cast<char>((length >> (8 * byte)) & 0xff);
  return header + dict;
}

std::string NpyFile(std::string_view descr, std::span<const int64_t> shape, std::span<const std::byte> data) {
  std::string file = NpyHeader(descr, shape);
  file.append(reinterpret_cast<const char*>(data.data()), data.size());
  return file;
}

}  // namespace aclnn_check
