// The `mimic` command line: CLI11 subcommands (registered by cmd_*.cpp), spdlog logging, exit codes.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <iostream>

#include "command.hpp"
#include "mimic/core/allocator.hpp"
#include "mimic/core/data_dir.hpp"
#include "mimic/core/error.hpp"

namespace mimic::app {

std::vector<Command>& command_registry() {
  static std::vector<Command> registry;
  return registry;
}

}  // namespace mimic::app

int main(int argc, char** argv) {
  using namespace mimic::app;
  mimic::core::keep_freed_memory();
  CLI::App app{
      "mimic: turns human motion capture into motions HRP-2 can execute, and smooths planned robot "
      "motions.\n"
      "Exit codes: 0 success, 1 internal error, 2 bad command line, 3 bad input (file, YAML, model) or a "
      "problem above the size budget, "
      "4 limits violated / infeasible / a stage's time budget exhausted, 5 output not writable."};
  // The data directory in use says which installation (or source tree) a run reads its robot from.
  app.set_version_flag("--version", [] {
    std::string text = std::string("mimic ") + MIMIC_VERSION + "\ndata directory: ";
    try {
      const auto dir = mimic::core::data_dir_info();
      return text + dir.path.string() + " (" + mimic::core::to_string(dir.origin) + ")";
    } catch (const mimic::Error& e) {
      return text + "none (" + e.what() + ")";
    }
  });
  app.require_subcommand(1);
  app.fallthrough();
  int verbosity = 0;
  bool quiet = false;
  app.add_flag("-v,--verbose", verbosity, "More log output (-v debug, -vv trace)");
  app.add_flag("-q,--quiet", quiet, "Only errors; no progress lines");

  auto& registry = command_registry();
  std::sort(registry.begin(), registry.end(),
            [](const Command& a, const Command& b) { return a.name < b.name; });
  std::vector<std::pair<CLI::App*, std::function<int()>>> runners;
  for (const auto& command : registry) {
    auto run = command.setup(app);
    runners.emplace_back(app.get_subcommand(command.name), std::move(run));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kOk : kUsage;
  }

  auto logger = spdlog::stderr_color_mt("mimic");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%^[%l]%$ %v");
  spdlog::set_level(quiet            ? spdlog::level::err
                    : verbosity >= 2 ? spdlog::level::trace
                    : verbosity == 1 ? spdlog::level::debug
                                     : spdlog::level::info);

  try {
    for (auto& [sub, run] : runners) {
      if (sub->parsed()) return run();
    }
    return kUsage;
  } catch (const mimic::UsageError& e) {
    // An output path naming an input, or a value refused once the robot is known (robot_options.hpp).
    spdlog::error("{}", e.what());
    return kUsage;
  } catch (const mimic::InputError& e) {
    spdlog::error("{}", e.what());
    return kBadInput;
  } catch (const mimic::ModelError& e) {
    spdlog::error("{}", e.what());
    return kBadInput;
  } catch (const mimic::BudgetError& e) {
    spdlog::error("{}", e.what());
    return kBadInput;
  } catch (const mimic::InfeasibleError& e) {
    spdlog::error("{}", e.what());
    return kInfeasible;
  } catch (const mimic::OutputError& e) {
    spdlog::error("{}", e.what());
    return kOutput;
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return kFailure;
  }
}
