// A CSV file as RFC 4180 defines it: comma-separated fields, fields in double quotes may hold
// commas, line breaks and doubled quotes (""), records end with CRLF or LF. The first record is the
// header. Errors name the file and the line.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace aclnn_check {

struct CsvRecord {
  int line = 0;  // 1-based line on which the record starts
  std::vector<std::string> fields;
};

struct CsvTable {
  std::vector<std::string> header;
  std::vector<CsvRecord> records;  // blank lines are skipped

  std::optional<size_t> Column(const std::string& name) const;
};

// Throws InputError(path, "line N", ...) for an unterminated quoted field, text after a closing
// quote, or a record with more fields than the header. Records with fewer fields are padded with
// empty fields (spreadsheets drop trailing empty cells).
CsvTable ParseCsv(const std::string& text, const std::string& path);

}  // namespace aclnn_check
