#include "import/st_csv.h"

#include <cmath>
#include <filesystem>

#include "import/csv_table.h"
#include "import/python_literal.h"
#include "json_input/input_error.h"
#include "json_input/json_integers.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

// ttk's defaults when precision_tolerances / absolute_precision are empty (ops-nn
// matmul/common/tests/st/arch35/matmul_golden_util.py, which reproduces `ttk --compare close`).
CannCloseTolerance DefaultClose(const std::string& dtype) {
  const double r = dtype == "float32" ? 1e-4 : 1e-3;
  return {r, 1e-8, r};
}

class RowReader {
 public:
  RowReader(const CsvTable& table, const CsvRecord& record, const std::string& path)
      : table_(table), record_(record), path_(path) {}

  std::string Where(const std::string& column) const {
    return "line " + std::to_string(record_.line) + ", column " + column;
  }
  [[noreturn]] void Bad(const std::string& column, const std::string& expected) const {
    throw InputError(path_, Where(column), expected);
  }
  bool Has(const std::string& column) const {
    const auto index = table_.Column(column);
    return index && !Trimmed(record_.fields[*index]).empty();
  }
  std::string Text(const std::string& column) const {
    const auto index = table_.Column(column);
    return index ? Trimmed(record_.fields[*index]) : "";
  }
  json Literal(const std::string& column, const std::string& expected) const {
    try {
      return ParsePythonLiteral(Text(column));
    } catch (const LiteralSyntaxError& error) {
      Bad(column, std::string("not a Python literal (") + error.what() + "); expected " + expected);
    }
  }
  std::vector<std::vector<int64_t>> Shapes(const std::string& column) const {
    const char* expected = "a tuple of shapes, e.g. ((2, 3), (4,))";
    const json value = Literal(column, expected);
    if (!value.is_array()) Bad(column, expected);
    std::vector<std::vector<int64_t>> shapes;
    for (const json& shape : value) {
      if (!shape.is_array()) Bad(column, expected);
      std::vector<int64_t> dims;
      for (const json& dim : shape) {
        const std::optional<int64_t> size = ExactInt64(dim);
        if (!size || *size < 0) Bad(column, std::string(expected) + " with non-negative integer dims");
        dims.push_back(*size);
      }
      shapes.push_back(dims);
    }
    return shapes;
  }
  std::vector<std::string> Strings(const std::string& column) const {
    const char* expected = "a tuple of strings, e.g. ('float32', 'float32')";
    const json value = Literal(column, expected);
    std::vector<std::string> strings;
    if (value.is_string()) return {value.get<std::string>()};
    if (!value.is_array()) Bad(column, expected);
    for (const json& item : value) {
      if (!item.is_string()) Bad(column, expected);
      strings.push_back(item.get<std::string>());
    }
    return strings;
  }
  // Number pairs, e.g. ((-1, 1), (0, 2)); a single pair (a, b) counts as one.
  std::vector<std::pair<double, double>> Pairs(const std::string& column, const std::string& expected) const {
    json value = Literal(column, expected);
    if (!value.is_array()) Bad(column, expected);
    if (value.size() == 2 && value[0].is_number() && value[1].is_number()) value = json::array({value});
    std::vector<std::pair<double, double>> pairs;
    for (const json& pair : value) {
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number() || !pair[1].is_number()) {
        Bad(column, expected);
      }
      pairs.emplace_back(pair[0].get<double>(), pair[1].get<double>());
    }
    return pairs;
  }
  int line() const { return record_.line; }

 private:
  static std::string Trimmed(const std::string& text) {
    const size_t first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
  }

  const CsvTable& table_;
  const CsvRecord& record_;
  const std::string& path_;
};

// Empty tuples, "()" and empty cells all mean "none".
bool NoneGiven(const RowReader& row, const std::string& column) {
  if (!row.Has(column)) return true;
  const json value = row.Literal(column, "a tuple");
  return value.is_null() || (value.is_array() && value.empty());
}

void CheckFormats(const RowReader& row, const std::string& column) {
  if (!row.Has(column)) return;
  for (const std::string& format : row.Strings(column)) {
    if (format != "ND") {
      throw NotExpressible(column, "format " + format + ": aclnn-check passes ND tensors only");
    }
  }
}

std::vector<SourceTensor> Tensors(const RowReader& row, const std::string& shapes_column,
                                  const std::string& dtypes_column) {
  const auto shapes = row.Shapes(shapes_column);
  const auto dtypes = row.Strings(dtypes_column);
  if (dtypes.size() != shapes.size()) {
    row.Bad(dtypes_column, "one dtype per shape of " + shapes_column + " (" +
                               std::to_string(shapes.size()) + "), got " + std::to_string(dtypes.size()));
  }
  std::vector<SourceTensor> tensors;
  for (size_t i = 0; i < shapes.size(); ++i) {
    const auto dtype = CanonicalDType(dtypes[i]);
    if (!dtype) throw NotExpressible(dtypes_column, "dtype " + dtypes[i] + " is not one aclnn-check knows");
    tensors.push_back({"", shapes[i], *dtype, std::nullopt, shapes_column + "[" + std::to_string(i) + "]"});
  }
  return tensors;
}

// Columns whose content aclnn-check cannot express end the row as skipped (NotExpressible).
void RefuseInexpressibleColumns(const RowReader& row) {
  if (row.Has("is_enabled")) {
    std::string enabled = row.Text("is_enabled");
    for (char& ch : enabled) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (enabled == "FALSE" || enabled == "0") throw NotExpressible("is_enabled", "disabled in the source");
  }
  for (const char* column : {"manual_input_binaries", "manual_golden_binaries"}) {
    if (!NoneGiven(row, column)) {
      throw NotExpressible(column, "the case feeds recorded binary files, which aclnn-check does not read");
    }
  }
  if (!NoneGiven(row, "output_inplace_indexes")) {
    throw NotExpressible("output_inplace_indexes", "in-place outputs: the aclnn operators here write separate outputs");
  }
  if (row.Has("soc_series")) {
    throw NotExpressible("soc_series", "restricted to SoC series '" + row.Text("soc_series") +
                                           "'; aclnn-check derives the product from the provider");
  }
  for (const char* column : {"input_formats", "output_formats", "input_ori_formats", "output_ori_formats"}) {
    CheckFormats(row, column);
  }
}

// The ttk_close tolerance: absolute_precision and one (rtol, ptol) pair per output, or the
// defaults of the output's dtype.
void ReadTolerance(const RowReader& row, const std::string& path, SourceCase& c) {
  c.tolerance.standard = "ttk_close";
  c.tolerance.source = std::filesystem::path(path).filename().string() + " " + c.location;
  c.tolerance_column = "precision_tolerances";
  double atol = 1e-8;
  bool atol_given = false;
  if (row.Has("absolute_precision")) {
    const json value = row.Literal("absolute_precision", "a number, e.g. 1e-08");
    if (!value.is_number() || value.get<double>() < 0) row.Bad("absolute_precision", "a non-negative number, e.g. 1e-08");
    atol = value.get<double>();
    atol_given = true;
  }
  if (row.Has("precision_tolerances")) {
    const char* expected = "(rtol, ptol) pairs, one per output, e.g. ((0.0001, 0.0001),)";
    for (const auto& [rtol, ptol] : row.Pairs("precision_tolerances", expected)) {
      if (rtol < 0 || ptol < 0 || ptol > 1) row.Bad("precision_tolerances", "rtol >= 0 and 0 <= ptol <= 1");
      c.close_by_position.push_back({rtol, atol, ptol});
    }
  } else {
    for (const SourceTensor& output : c.outputs) {
      CannCloseTolerance close = DefaultClose(output.dtype);
      if (atol_given) close.atol = atol;
      c.close_by_position.push_back(close);
    }
  }
}

SourceCase ReadRow(const RowReader& row, const std::string& path) {
  SourceCase c;
  c.file = path;
  c.location = "line " + std::to_string(row.line());
  c.format = "ST CSV";
  c.name = row.Text("testcase_name");
  if (c.name.empty()) c.name = std::filesystem::path(path).stem().string() + "_line" + std::to_string(row.line());
  c.op = row.Text("op_name");
  if (c.op.empty()) row.Bad("op_name", "the kernel's name, e.g. swi_glu_grad");

  RefuseInexpressibleColumns(row);

  const std::string shapes_column = row.Has("input_shapes") ? "input_shapes" : "input_ori_shapes";
  c.inputs = Tensors(row, shapes_column, "input_dtypes");
  if (shapes_column == "input_shapes" && row.Has("input_ori_shapes") &&
      row.Shapes("input_ori_shapes") != row.Shapes("input_shapes")) {
    throw NotExpressible("input_ori_shapes", "storage shapes differ from the original shapes (a format transform)");
  }
  if (row.Has("output_shapes") || row.Has("output_dtypes")) {
    c.outputs = Tensors(row, "output_shapes", "output_dtypes");
  }
  if (row.Has("output_ori_shapes") && row.Has("output_shapes") &&
      row.Shapes("output_ori_shapes") != row.Shapes("output_shapes")) {
    throw NotExpressible("output_ori_shapes", "storage shapes differ from the original shapes (a format transform)");
  }

  if (row.Has("attributes")) {
    const json attributes = row.Literal("attributes", "a dict, e.g. {'dim': -1}");
    if (!attributes.is_object()) row.Bad("attributes", "a dict, e.g. {'dim': -1}");
    for (const auto& [name, value] : attributes.items()) {
      c.attributes.push_back({name, value, std::nullopt, false, "attributes['" + name + "']"});
    }
  }

  if (row.Has("input_data_ranges")) {
    const char* expected = "one (low, high) pair per input, e.g. ((-1, 1), (0, 2))";
    const auto ranges = row.Pairs("input_data_ranges", expected);
    if (ranges.size() != c.inputs.size() && ranges.size() != 1) {
      row.Bad("input_data_ranges", std::string(expected) + "; got " + std::to_string(ranges.size()) +
                                       " pairs for " + std::to_string(c.inputs.size()) + " inputs");
    }
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      const auto [low, high] = ranges[ranges.size() == 1 ? 0 : i];
      if (!(low <= high)) row.Bad("input_data_ranges", "low <= high in pair " + std::to_string(i));
      // ttk draws with numpy.random.uniform: [low, high); a pair low == high is that constant.
      c.inputs[i].range = ValueRange{low, high, false, low < high};
    }
  }

  ReadTolerance(row, path, c);
  return c;
}

}  // namespace

bool LooksLikeStCsv(const std::string& text) {
  const std::string first_line = text.substr(0, text.find('\n'));
  const auto has = [&](const std::string& column) {
    return first_line.find(column) != std::string::npos;
  };
  return has("op_name") && (has("input_shapes") || has("input_ori_shapes")) && has(",");
}

std::vector<SourceCase> ReadStCsv(const std::string& text, const std::string& path,
                                  std::vector<SkippedCase>* skipped) {
  const CsvTable table = ParseCsv(text, path);
  for (const char* column : {"op_name", "input_dtypes"}) {
    if (!table.Column(column)) throw InputError(path, "line 1", std::string("no column ") + column + " in the header");
  }
  if (!table.Column("input_shapes") && !table.Column("input_ori_shapes")) {
    throw InputError(path, "line 1", "no column input_shapes (or input_ori_shapes) in the header");
  }
  std::vector<SourceCase> cases;
  for (const CsvRecord& record : table.records) {
    const RowReader row(table, record, path);
    try {
      cases.push_back(ReadRow(row, path));
    } catch (const NotExpressible& reason) {
      skipped->push_back({path, "line " + std::to_string(record.line), reason.column(), reason.what()});
    }
  }
  return cases;
}

}  // namespace aclnn_check
