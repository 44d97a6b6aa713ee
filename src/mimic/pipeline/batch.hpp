// `mimic batch`: runs job YAMLs in parallel, each in its own `mimic <kind> --config <yaml>` process, so
// that a job that fails (or crashes) never stops the others. One log per job, a JSON report per job, and a
// summary table (and CSV) of every job's status and metrics.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace mimic::pipeline {

struct BatchOptions {
  std::filesystem::path executable;          // the `mimic` binary to run each job with
  std::filesystem::path log_dir = "logs";    // <log_dir>/<yaml stem>.log and .json
  int parallel_jobs = 1;                     // -j N
  bool force = false;                        // run even when the outputs are up to date
  std::vector<std::string> extra_arguments;  // passed to every job (e.g. -q)
  int threads = -1;                          // --threads of each retarget and smooth job (< 0: the job's)
};

enum class JobStatus { kOk, kFailed, kSkipped, kInvalid };

struct JobResult {
  std::filesystem::path yaml;
  std::string kind;  // retarget | smooth | walk
  JobStatus status = JobStatus::kInvalid;
  int exit_code = -1;
  double seconds = 0.0;
  std::string message;  // last error line of the log, or why the job was skipped / invalid
  std::filesystem::path log;
  std::map<std::string, double> metrics;  // numeric top-level "summary" entries of the job's JSON report
};

// The outputs of a job are up to date when each exists and is newer than both the input and the YAML.
bool outputs_up_to_date(const std::filesystem::path& yaml, const std::filesystem::path& input,
                        const std::vector<std::filesystem::path>& outputs);

// Runs the jobs; returns one result per YAML, in the order given. Progress (job started / finished) is
// logged through spdlog.
std::vector<JobResult> run_batch(const std::vector<std::filesystem::path>& yamls,
                                 const BatchOptions& options);

// Fixed-width table and CSV of the results (metrics as columns, union over jobs).
std::string format_batch_table(const std::vector<JobResult>& results);
std::string format_batch_csv(const std::vector<JobResult>& results);

const char* to_string(JobStatus status);

}  // namespace mimic::pipeline
