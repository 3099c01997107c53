// The Python-literal parser reads every cell form CANN's ST tables use, and names the position and
// what was expected when a cell is not a literal.
#include <gtest/gtest.h>

#include <cmath>

#include "import/python_literal.h"

namespace aclnn_check {
namespace {

using nlohmann::json;

TEST(PythonLiteral, TuplesOfShapes) {
  EXPECT_EQ(ParsePythonLiteral("((2, 3), (4,))"), json::parse("[[2, 3], [4]]"));
  EXPECT_EQ(ParsePythonLiteral("((8,),)"), json::parse("[[8]]"));
  EXPECT_EQ(ParsePythonLiteral("()"), json::array());
  EXPECT_EQ(ParsePythonLiteral(" ( ( 1 , 2 ) , ) "), json::parse("[[1, 2]]"));
}

TEST(PythonLiteral, ParenthesesWithoutCommaAreNotATuple) {
  EXPECT_EQ(ParsePythonLiteral("(5)"), json(5));
  EXPECT_EQ(ParsePythonLiteral("((1, 2))"), json::parse("[1, 2]"));
}

TEST(PythonLiteral, ListsDictsAndConstants) {
  EXPECT_EQ(ParsePythonLiteral("{'output_mask': [True, False, True]}"),
            json::parse(R"({"output_mask": [true, false, true]})"));
  EXPECT_EQ(ParsePythonLiteral("{}"), json::object());
  EXPECT_EQ(ParsePythonLiteral("{'dim': -4,}"), json::parse(R"({"dim": -4})"));
  EXPECT_EQ(ParsePythonLiteral("[None, 'a', \"b\"]"), json::parse(R"([null, "a", "b"])"));
  EXPECT_EQ(ParsePythonLiteral("{1: 'one'}"), json::parse(R"({"1": "one"})"));
}

TEST(PythonLiteral, Strings) {
  EXPECT_EQ(ParsePythonLiteral(R"('it\'s')"), json("it's"));
  EXPECT_EQ(ParsePythonLiteral(R"("a,b")"), json("a,b"));
  EXPECT_EQ(ParsePythonLiteral(R"('tab\there')"), json("tab\there"));
}

TEST(PythonLiteral, Numbers) {
  EXPECT_EQ(ParsePythonLiteral("1.00E-03").get<double>(), 0.001);
  EXPECT_EQ(ParsePythonLiteral("1e-08").get<double>(), 1e-8);
  EXPECT_EQ(ParsePythonLiteral("-0.01").get<double>(), -0.01);
  EXPECT_EQ(ParsePythonLiteral(".5").get<double>(), 0.5);
  EXPECT_EQ(ParsePythonLiteral("5.").get<double>(), 5.0);
  EXPECT_EQ(ParsePythonLiteral("+3"), json(3));
  EXPECT_EQ(ParsePythonLiteral("1_000"), json(1000));
  EXPECT_TRUE(ParsePythonLiteral("7").is_number_integer());
  EXPECT_TRUE(ParsePythonLiteral("7.0").is_number_float());
  // Beyond int64: Python has big ints; the value is kept as a double rather than wrapped.
  EXPECT_EQ(ParsePythonLiteral("99999999999999999999").get<double>(), 1e20);
}

TEST(PythonLiteral, InfinityAndNanForms) {
  for (const char* text : {"inf", "math.inf", "np.inf", "float('inf')", "float(\"Infinity\")", "1e400"}) {
    const json value = ParsePythonLiteral(text);
    EXPECT_TRUE(value.is_number_float() && std::isinf(value.get<double>()) && value.get<double>() > 0) << text;
  }
  for (const char* text : {"-inf", "-math.inf", "float('-inf')", "-float('inf')", "-np.inf"}) {
    const double value = ParsePythonLiteral(text).get<double>();
    EXPECT_TRUE(std::isinf(value) && value < 0) << text;
  }
  for (const char* text : {"nan", "float('nan')", "np.nan", "-nan"}) {
    EXPECT_TRUE(std::isnan(ParsePythonLiteral(text).get<double>())) << text;
  }
  const json pair = ParsePythonLiteral("((-inf, inf),)");
  EXPECT_TRUE(std::isinf(pair[0][0].get<double>()) && pair[0][0].get<double>() < 0);
}

void ExpectSyntaxError(const std::string& text, size_t offset, const std::string& words) {
  try {
    ParsePythonLiteral(text);
    ADD_FAILURE() << "no error for " << text;
  } catch (const LiteralSyntaxError& error) {
    EXPECT_EQ(error.offset(), offset) << text << ": " << error.what();
    EXPECT_NE(error.expected().find(words), std::string::npos) << text << ": " << error.what();
  }
}

TEST(PythonLiteral, ErrorsNameThePositionAndWhatWasExpected) {
  ExpectSyntaxError("((1, 2), (3, 4)", 15, "')'");
  ExpectSyntaxError("(1 2)", 3, "',' or ')'");
  ExpectSyntaxError("'open", 5, "closing '");
  ExpectSyntaxError("{'a' 1}", 5, "':'");
  ExpectSyntaxError("(1,) x", 5, "end of the literal");
  ExpectSyntaxError("Maybe", 0, "True, False, None");
  ExpectSyntaxError("float('x')", 0, "float('inf')");
  ExpectSyntaxError("", 0, "a value");
  ExpectSyntaxError("1e", 2, "exponent");
  ExpectSyntaxError("{[1]: 2}", 4, "dict key");
}

TEST(PythonLiteral, NestingIsBoundedNotLeftToTheStack) {
  const auto nested = [](int depth, char open, char close) {
    return std::string(depth, open) + "1" + std::string(depth, close);
  };
  EXPECT_EQ(ParsePythonLiteral(nested(kMaxLiteralDepth, '[', ']')).dump(),
            std::string(kMaxLiteralDepth, '[') + "1" + std::string(kMaxLiteralDepth, ']'));
  ExpectSyntaxError(nested(kMaxLiteralDepth + 1, '[', ']'), kMaxLiteralDepth, "nested");
  // A million open parentheses: an error at the limit, not a stack overflow.
  ExpectSyntaxError(std::string(1 << 20, '('), kMaxLiteralDepth, "at most 64 nested");
}

}  // namespace
}  // namespace aclnn_check
