#include "cli/catalogue_commands.h"

#include <iostream>
#include <memory>
#include <string>

#include "cases/case_schema.h"
#include "catalogue/operator.h"
#include "cli/explain.h"

namespace aclnn_check {

void AddExplainCommand(CLI::App& app, int* exit_code) {
  auto op_name = std::make_shared<std::string>();
  auto* explain = app.add_subcommand("explain", "Axes, dtype matrix, rules and tolerances of an operator");
  explain->add_option("op", *op_name, "Operator name, e.g. LogitGrad")->required();
  explain->callback([op_name, exit_code] {
    const Operator* op = FindOperator(*op_name);
    if (!op) {
      std::cerr << "aclnn-check: unknown operator " << *op_name << " (known:";
      for (const Operator& known : Catalogue()) std::cerr << " " << known.name();
      std::cerr << ")\n";
      *exit_code = 2;
      return;
    }
    Explain(*op, std::cout);
  });
}

void AddCatalogueListings(CLI::App& app) {
  auto* schema = app.add_subcommand("schema", "Print the case-file JSON Schema (cases/schema.json)");
  schema->callback([] { std::cout << CaseFileSchema().dump(2) << "\n"; });

  auto* operators = app.add_subcommand("operators", "List the operators in the catalogue");
  operators->callback([] {
    for (const auto& op : Catalogue()) std::cout << op.name() << "\t" << op.summary() << "\n";
  });
}

}  // namespace aclnn_check
