// What the fuzzers drive, as plain functions: libFuzzer's entry points call them (fuzz/*_fuzzer.cc,
// built with -DACLNN_CHECK_FUZZ=ON and clang), and the unit tests replay the seed corpus and every
// saved crash through them in the normal build. Bad input must end in InputError; any other
// exception, crash or sanitizer report is a bug. Each returns the InputError's message when it
// rejected the input and nothing when it accepted it, so tests can tell the two apart.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace aclnn_check::fuzz {

// A case file: parse, validate, expand on every product, prepare the first small points (input
// generation, derived inputs, the float64 reference on calls the validation accepts).
std::optional<std::string> FuzzCaseFile(std::string_view data);

// A CANN case file (ATK JSON or ST CSV): detect, read, map every case and expand the converted
// ones (ImportCannText).
std::optional<std::string> FuzzCannImport(std::string_view data);

// One or two report.json documents (separated by a line "---"): parse and schema-check, merge,
// and render JUnit and HTML from the result.
std::optional<std::string> FuzzReports(std::string_view data);

// A golden or recorded-run file (HDF5 bytes, opened as an in-memory image): read it with the
// golden reader and, for small points the validation accepts, lay out the stored inputs and
// compute the reference as `golden verify` does.
std::optional<std::string> FuzzGoldenFile(std::string_view data);

}  // namespace aclnn_check::fuzz
