// The CSV reader follows RFC 4180: quoted fields hold commas, quotes and line breaks; errors name
// the file and line.
#include <gtest/gtest.h>

#include "import/csv_table.h"
#include "json_input/input_error.h"

namespace aclnn_check {
namespace {

TEST(CsvTable, QuotedFieldsHoldCommasQuotesAndLineBreaks) {
  const CsvTable table = ParseCsv(
      "a,b,c\r\n"
      "1,\"((2, 3), (4,))\",x\r\n"
      "\"say \"\"hi\"\"\",\"two\nlines\",\r\n"
      "\n"
      "last,,\"\"",
      "t.csv");
  ASSERT_EQ(table.header, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_EQ(table.records.size(), 3u);
  EXPECT_EQ(table.records[0].fields, (std::vector<std::string>{"1", "((2, 3), (4,))", "x"}));
  EXPECT_EQ(table.records[0].line, 2);
  EXPECT_EQ(table.records[1].fields, (std::vector<std::string>{"say \"hi\"", "two\nlines", ""}));
  EXPECT_EQ(table.records[1].line, 3);
  // The quoted line break moved the next record down one line; the blank line is skipped.
  EXPECT_EQ(table.records[2].line, 6);
  EXPECT_EQ(table.records[2].fields, (std::vector<std::string>{"last", "", ""}));
  EXPECT_EQ(table.Column("c"), 2u);
  EXPECT_FALSE(table.Column("d"));
}

TEST(CsvTable, ShortRecordsArePaddedAndAByteOrderMarkIsIgnored) {
  const CsvTable table = ParseCsv("\xEF\xBB\xBFop_name,x,y\nswi_glu_grad\n", "t.csv");
  EXPECT_EQ(table.header[0], "op_name");
  EXPECT_EQ(table.records[0].fields, (std::vector<std::string>{"swi_glu_grad", "", ""}));
}

void ExpectError(const std::string& text, const std::string& where, const std::string& words) {
  try {
    ParseCsv(text, "bad.csv");
    ADD_FAILURE() << "no error for " << text;
  } catch (const InputError& error) {
    EXPECT_EQ(error.file(), "bad.csv");
    EXPECT_EQ(error.pointer(), where) << error.what();
    EXPECT_NE(error.message().find(words), std::string::npos) << error.what();
  }
}

TEST(CsvTable, ErrorsNameTheLine) {
  ExpectError("a,b\n1,\"open\n2,3\n", "line 2", "not closed");
  ExpectError("a,b\n1,\"x\"y\n", "line 2", "after the closing quote");
  ExpectError("a,b\n1,x\"y\n", "line 2", "quote inside an unquoted field");
  ExpectError("a,b\n1,2\n1,(2, 3)\n", "line 3", "3 fields, but the header has 2");
  ExpectError("", "line 1", "no header");
}

}  // namespace
}  // namespace aclnn_check
