// Subcommand registry of the `mimic` executable. Each subcommand lives in its own cmd_<name>.cpp and
// registers itself with a static MIMIC_REGISTER_COMMAND; main.cpp only builds the CLI11 app, sets up
// logging and maps errors to exit codes. Commands hold no algorithm: they assemble library stages.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace mimic::app {

// Documented exit codes (README "Exit codes").
enum ExitCode : int {
  kOk = 0,
  kFailure = 1,     // unexpected internal error
  kUsage = 2,       // bad command line (unknown option, missing argument)
  kBadInput = 3,    // missing / malformed input file, bad YAML, unknown skeleton, bad URDF, a problem
                    // above the size budget (BudgetError)
  kInfeasible = 4,  // limits violated (`mimic check`), the solver could not satisfy them or ran out of
                    // its time budget
  kOutput = 5,      // an output file could not be written
};

struct Command {
  std::string name;
  // Adds the subcommand to `app` and returns a function that runs it (called only when it was chosen).
  std::function<std::function<int()>(CLI::App& app)> setup;
};

std::vector<Command>& command_registry();

struct CommandRegistrar {
  explicit CommandRegistrar(Command command) { command_registry().push_back(std::move(command)); }
};

}  // namespace mimic::app

#define MIMIC_CONCAT_INNER(a, b) a##b
#define MIMIC_CONCAT(a, b) MIMIC_CONCAT_INNER(a, b)
#define MIMIC_REGISTER_COMMAND(name, setup_fn)                                   \
  static ::mimic::app::CommandRegistrar MIMIC_CONCAT(mimic_command_, __LINE__) { \
    ::mimic::app::Command { name, setup_fn }                                     \
  }
