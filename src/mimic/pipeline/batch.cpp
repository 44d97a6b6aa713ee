#include "mimic/pipeline/batch.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "mimic/core/error.hpp"
#include "mimic/io/csv_motion.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/output_paths.hpp"

extern char** environ;

namespace mimic::pipeline {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

struct RunningJob {
  std::size_t index;
  Clock::time_point start;
};

std::string last_error_line(const fs::path& log) {
  std::ifstream in(log);
  std::string line, last_error, last;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    last = line;
    if (line.find("error") != std::string::npos) last_error = line;
  }
  return last_error.empty() ? last : last_error;
}

// Numeric entries of the "summary" object of a job report (JSON is read with yaml-cpp: JSON is YAML).
std::map<std::string, double> read_report_metrics(const fs::path& report) {
  std::map<std::string, double> metrics;
  if (!fs::exists(report)) return metrics;
  try {
    const YAML::Node root = YAML::LoadFile(report.string());
    const YAML::Node summary = root["summary"];
    if (!summary || !summary.IsMap()) return metrics;
    for (const auto& entry : summary) {
      if (!entry.second.IsScalar()) continue;
      double value = 0.0;
      if (YAML::convert<double>::decode(entry.second, value)) metrics[entry.first.as<std::string>()] = value;
    }
  } catch (const YAML::Exception& e) {
    spdlog::warn("{}: unreadable report: {}", report.string(), e.what());
  }
  return metrics;
}

pid_t spawn_job(const BatchOptions& options, const JobResult& job, const fs::path& report) {
  std::vector<std::string> args = {options.executable.string()};
  args.insert(args.end(), options.extra_arguments.begin(), options.extra_arguments.end());
  args.insert(args.end(), {job.kind, "--config", job.yaml.string(), "--report", report.string()});
  if (options.threads >= 0 && (job.kind == "retarget" || job.kind == "smooth"))
    args.insert(args.end(), {"--threads", std::to_string(options.threads)});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, job.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  return pid;
}

}  // namespace

const char* to_string(JobStatus status) {
  switch (status) {
    case JobStatus::kOk:
      return "ok";
    case JobStatus::kFailed:
      return "FAILED";
    case JobStatus::kSkipped:
      return "up-to-date";
    case JobStatus::kInvalid:
      return "INVALID";
  }
  return "?";
}

bool outputs_up_to_date(const fs::path& yaml, const fs::path& input, const std::vector<fs::path>& outputs) {
  std::error_code ec;
  auto newest_source = fs::last_write_time(yaml, ec);
  if (ec) return false;
  if (!input.empty()) {
    const auto t = fs::last_write_time(input, ec);
    if (ec) return false;
    newest_source = std::max(newest_source, t);
  }
  if (outputs.empty()) return false;
  for (const auto& out : outputs) {
    const auto t = fs::last_write_time(out, ec);
    if (ec || t <= newest_source) return false;
  }
  return true;
}

std::vector<JobResult> run_batch(const std::vector<fs::path>& yamls, const BatchOptions& options) {
  fs::create_directories(options.log_dir);
  std::vector<JobResult> results(yamls.size());
  std::vector<std::size_t> queue;
  std::set<std::string> stems;
  // Every job's YAML and input, and the outputs of the jobs accepted so far: the jobs run at the same time,
  // so no job may write what another reads or writes. (Each job checks its own paths when it starts.)
  std::vector<io::CommandFile> inputs, outputs;
  for (const fs::path& yaml : yamls) {
    inputs.push_back({yaml, "the job file " + yaml.string()});
    try {
      inputs.push_back({io::load_job(yaml).input, "the input of " + yaml.string()});
    } catch (const Error&) {  // reported below
    }
  }
  for (std::size_t i = 0; i < yamls.size(); ++i) {
    JobResult& r = results[i];
    r.yaml = yamls[i];
    std::string stem = yamls[i].stem().string();
    // Two YAMLs with the same name in different folders must not share a log.
    while (!stems.insert(stem).second) stem += "_";
    r.log = options.log_dir / (stem + ".log");
    try {
      const io::JobConfig job = io::load_job(yamls[i]);
      r.kind = std::string(io::to_string(job.job));
      std::vector<io::CommandFile> planned = outputs;
      for (io::CommandFile& file : io::motion_file_set(job.output.path, "the output of " + yamls[i].string()))
        planned.push_back(std::move(file));
      io::check_output_paths(inputs, planned);
      outputs = std::move(planned);
      const fs::path output = job.output.path;
      std::vector<fs::path> outputs = {output};
      // A .csv output is one file; a .pos has its .waist and .zmp.
      if (!io::is_csv_motion(output)) {
        for (const char* ext : {".waist", ".zmp"}) outputs.push_back(fs::path(output).replace_extension(ext));
      }
      if (!options.force && outputs_up_to_date(yamls[i], job.input, outputs)) {
        r.status = JobStatus::kSkipped;
        r.exit_code = 0;
        r.message = "outputs newer than input and YAML (use --force to re-run)";
        continue;
      }
      queue.push_back(i);
    } catch (const Error& e) {
      r.status = JobStatus::kInvalid;
      r.exit_code = dynamic_cast<const UsageError*>(&e) ? 2 : 3;  // the exit codes of `mimic <job>`
      r.message = e.what();
      spdlog::error("{}", e.what());
    }
  }

  std::map<pid_t, RunningJob> running;
  std::size_t next = 0, finished = 0;
  const int width = std::max(1, options.parallel_jobs);
  while (next < queue.size() || !running.empty()) {
    while (next < queue.size() && static_cast<int>(running.size()) < width) {
      const std::size_t i = queue[next++];
      JobResult& r = results[i];
      const fs::path report = fs::path(r.log).replace_extension(".json");
      fs::remove(report);
      const pid_t pid = spawn_job(options, r, report);
      if (pid < 0) {
        r.status = JobStatus::kFailed;
        r.message = "cannot start " + options.executable.string();
        ++finished;
        continue;
      }
      spdlog::info("[{}/{}] started {} ({})", next, queue.size(), r.yaml.string(), r.kind);
      running.emplace(pid, RunningJob{i, Clock::now()});
    }
    if (running.empty()) break;
    int wstatus = 0;
    const pid_t pid = ::waitpid(-1, &wstatus, 0);
    if (pid < 0) break;
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    JobResult& r = results[it->second.index];
    r.seconds = std::chrono::duration<double>(Clock::now() - it->second.start).count();
    r.exit_code = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
    r.status = r.exit_code == 0 ? JobStatus::kOk : JobStatus::kFailed;
    r.metrics = read_report_metrics(fs::path(r.log).replace_extension(".json"));
    if (r.status != JobStatus::kOk) r.message = last_error_line(r.log);
    running.erase(it);
    ++finished;
    spdlog::info("[{}/{}] {} {} in {:.1f} s (log {})", finished, queue.size(), to_string(r.status),
                 r.yaml.string(), r.seconds, r.log.string());
  }
  return results;
}

namespace {

std::vector<std::string> metric_names(const std::vector<JobResult>& results) {
  std::set<std::string> names;
  for (const auto& r : results)
    for (const auto& [k, v] : r.metrics)
      if (k != "seconds") names.insert(k);  // the job's own timing: the table's wall-clock column says it
  return {names.begin(), names.end()};
}

std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string format_batch_table(const std::vector<JobResult>& results) {
  const auto names = metric_names(results);
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"job", "kind", "status", "exit", "seconds"};
  header.insert(header.end(), names.begin(), names.end());
  rows.push_back(header);
  for (const auto& r : results) {
    std::vector<std::string> row = {r.yaml.string(), r.kind, to_string(r.status), std::to_string(r.exit_code),
                                    r.status == JobStatus::kSkipped ? "-" : format_number(r.seconds)};
    for (const auto& n : names) {
      const auto it = r.metrics.find(n);
      row.push_back(it == r.metrics.end() ? "-" : format_number(it->second));
    }
    rows.push_back(row);
  }
  std::vector<std::size_t> widths(header.size(), 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  std::ostringstream out;
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      out << row[c] << std::string(widths[c] - row[c].size() + (c + 1 < row.size() ? 2 : 0), ' ');
    }
    out << '\n';
  }
  for (const auto& r : results)
    if (r.status == JobStatus::kFailed || r.status == JobStatus::kInvalid)
      out << r.yaml.string() << ": " << r.message << '\n';
  return out.str();
}

std::string format_batch_csv(const std::vector<JobResult>& results) {
  const auto names = metric_names(results);
  std::ostringstream out;
  out << "job,kind,status,exit_code,seconds,log,message";
  for (const auto& n : names) out << ',' << csv_field(n);
  out << '\n';
  for (const auto& r : results) {
    out << csv_field(r.yaml.string()) << ',' << r.kind << ',' << to_string(r.status) << ',' << r.exit_code
        << ',' << r.seconds << ',' << csv_field(r.log.string()) << ',' << csv_field(r.message);
    for (const auto& n : names) {
      const auto it = r.metrics.find(n);
      out << ',';
      if (it != r.metrics.end()) out << it->second;
    }
    out << '\n';
  }
  return out.str();
}

}  // namespace mimic::pipeline
