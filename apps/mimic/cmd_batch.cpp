// `mimic batch config/*.yaml -j N`: runs job YAMLs in parallel (see mimic/pipeline/batch.hpp).
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <iostream>

#include "command.hpp"
#include "mimic/core/atomic_file.hpp"
#include "mimic/io/output_paths.hpp"
#include "mimic/pipeline/batch.hpp"

namespace {

std::filesystem::path self_executable() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path("mimic") : p;
}

std::function<int()> setup_batch(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "batch",
      "Run job YAMLs in parallel: one `mimic <job> --config <yaml>` process per job, one log per job, a "
      "summary table and CSV. Jobs whose outputs are newer than their input and YAML are skipped unless "
      "--force. A failing job does not stop the others; the exit code is non-zero if any failed.");
  struct Options {
    std::vector<std::string> yamls;
    int jobs = 1;
    int threads = -1;
    bool force = false;
    std::string log_dir = "logs";
    std::string csv;
  };
  auto opt = std::make_shared<Options>();
  cmd->add_option("jobs", opt->yamls, "Job YAML files (e.g. config/jobs/*.yaml)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("-j,--jobs", opt->jobs, "Number of jobs run at the same time")->check(CLI::PositiveNumber);
  cmd->add_option("--threads", opt->threads,
                  "Solver threads of each retarget and smooth job, 0 = all cores (default: each job's "
                  "solver.threads); with -j N, N x threads should not exceed the cores")
      ->check(CLI::Range(0, 256));
  cmd->add_flag("--force", opt->force, "Re-run jobs whose outputs are up to date");
  cmd->add_option("--log-dir", opt->log_dir, "Folder for the per-job logs and JSON reports")
      ->capture_default_str();
  cmd->add_option("--csv", opt->csv,
                  "Also write the summary as CSV to this file (default <log-dir>/batch.csv)");
  return [opt]() {
    mimic::pipeline::BatchOptions options;
    options.executable = self_executable();
    options.log_dir = opt->log_dir;
    options.parallel_jobs = opt->jobs;
    options.force = opt->force;
    options.threads = opt->threads;
    options.extra_arguments = {"-q"};
    std::vector<std::filesystem::path> yamls(opt->yamls.begin(), opt->yamls.end());
    const std::filesystem::path csv =
        opt->csv.empty() ? options.log_dir / "batch.csv" : std::filesystem::path(opt->csv);
    std::vector<mimic::io::CommandFile> inputs;
    for (const auto& yaml : yamls) inputs.push_back({yaml, "the job file"});
    mimic::io::check_output_paths(inputs, {{csv, "the summary CSV (--csv)"}});
    const auto results = mimic::pipeline::run_batch(yamls, options);
    std::cout << mimic::pipeline::format_batch_table(results);
    mimic::write_file_atomically(csv,
                                 [&](std::ostream& o) { o << mimic::pipeline::format_batch_csv(results); });
    spdlog::info("summary CSV: {}", csv.string());
    int worst = mimic::app::kOk;
    for (const auto& r : results) {
      if (r.status == mimic::pipeline::JobStatus::kFailed || r.status == mimic::pipeline::JobStatus::kInvalid)
        worst = mimic::app::kFailure;
    }
    return worst;
  };
}

MIMIC_REGISTER_COMMAND("batch", setup_batch);

}  // namespace
