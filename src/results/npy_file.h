// NumPy's .npy format (numpy.lib.format): a magic string, a version, a little-endian header length,
// a Python dict literal {'descr', 'fortran_order', 'shape'} padded with spaces to a multiple of 64
// bytes and ended by a newline, then the array's bytes in C order. Version 1.0 (2-byte header
// length) unless the header needs more than 65535 bytes, then 2.0 (4-byte length). numpy.load reads
// both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/dtype.h"

namespace aclnn_check {

// The array-protocol type string of a dtype: '<f2', '<f4', '<f8', '|i1', '<i2', '<i4', '<i8',
// '|u1', '|b1'. bfloat16 has no NumPy dtype: its raw bits are '<u2'.
std::string_view NpyDescr(DType dtype);

// Magic, version, length and the padded header dict for an array of `shape` (C order).
std::string NpyHeader(std::string_view descr, std::span<const int64_t> shape);

// The whole file: NpyHeader then `data` (numel * itemsize bytes, little-endian, C order).
std::string NpyFile(std::string_view descr, std::span<const int64_t> shape, std::span<const std::byte> data);

}  // namespace aclnn_check
