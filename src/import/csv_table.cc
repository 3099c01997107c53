#include "import/csv_table.h"

#include <algorithm>

#include "json_input/input_error.h"

namespace aclnn_check {

std::optional<size_t> CsvTable::Column(const std::string& name) const {
  const auto it = std::find(header.begin(), header.end(), name);
  if (it == header.end()) return std::nullopt;
  return static_cast<size_t>(it - header.begin());
}

CsvTable ParseCsv(const std::string& text, const std::string& path) {
  std::vector<CsvRecord> records;
  size_t pos = 0;
  int line = 1;
  // A UTF-8 byte order mark, as spreadsheet programs write it.
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) pos = 3;
  const auto at_record_end = [&](size_t p) {
    return p >= text.size() || text[p] == '\n' || (text[p] == '\r' && p + 1 < text.size() && text[p + 1] == '\n') ||
           (text[p] == '\r' && p + 1 == text.size());
  };
  while (pos < text.size()) {
    CsvRecord record;
    record.line = line;
    while (true) {
      std::string field;
      if (pos < text.size() && text[pos] == '"') {
        const int opened = line;
        ++pos;
        while (true) {
          if (pos >= text.size()) {
            throw InputError(path, "line " + std::to_string(opened),
                             "a quoted field is not closed (expected a closing \")");
          }
          if (text[pos] == '"') {
            if (pos + 1 < text.size() && text[pos + 1] == '"') {
              field += '"';
              pos += 2;
              continue;
            }
            ++pos;
            break;
          }
          if (text[pos] == '\n') ++line;
          field += text[pos++];
        }
        if (!at_record_end(pos) && text[pos] != ',') {
          throw InputError(path, "line " + std::to_string(line),
                           "text after the closing quote of a field (expected ',' or the end of the line)");
        }
      } else {
        while (!at_record_end(pos) && text[pos] != ',') {
          if (text[pos] == '"') {
            throw InputError(path, "line " + std::to_string(line),
                             "a quote inside an unquoted field (expected the whole field in quotes, "
                             "with inner quotes doubled)");
          }
          field += text[pos++];
        }
      }
      record.fields.push_back(std::move(field));
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      break;
    }
    if (pos < text.size()) {
      pos += text[pos] == '\r' ? (pos + 1 < text.size() ? 2 : 1) : 1;
      ++line;
    }
    const bool blank = record.fields.size() == 1 && record.fields[0].empty();
    if (!blank) records.push_back(std::move(record));
  }
  CsvTable table;
  if (records.empty()) throw InputError(path, "line 1", "no header (expected a CSV header line)");
  table.header = std::move(records.front().fields);
  for (size_t i = 1; i < records.size(); ++i) {
    CsvRecord& record = records[i];
    if (record.fields.size() > table.header.size()) {
      throw InputError(path, "line " + std::to_string(record.line),
                       std::to_string(record.fields.size()) + " fields, but the header has " +
                           std::to_string(table.header.size()) + " (a comma outside quotes?)");
    }
    record.fields.resize(table.header.size());
    table.records.push_back(std::move(record));
  }
  return table;
}

}  // namespace aclnn_check
