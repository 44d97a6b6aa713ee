#include "mimic/io/output_paths.hpp"

#include "mimic/core/error.hpp"
#include "mimic/io/csv_motion.hpp"
#include "mimic/io/motion_files.hpp"

namespace fs = std::filesystem;

namespace mimic::io {
namespace {

// The path as the file system resolves it: absolute, symbolic links of its existing part followed, "."
// and ".." removed. Falls back to the lexical form when the file system cannot answer (a permission).
fs::path canonical_form(const fs::path& path) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(path, ec);
  if (ec) canonical = fs::absolute(path, ec).lexically_normal();
  return canonical;
}

std::string shown(const CommandFile& file) { return file.role + " '" + file.path.string() + "'"; }

}  // namespace

std::vector<CommandFile> motion_file_set(const fs::path& base_or_pos, const std::string& role) {
  std::vector<CommandFile> files;
  if (base_or_pos.empty()) return files;
  // A CSV motion is one file (csv_motion.hpp).
  if (is_csv_motion(base_or_pos)) return {{base_or_pos, role + " (.csv)"}};
  const fs::path base = motion_base(base_or_pos);
  for (const char* extension : {".pos", ".waist", ".hip", ".zmp"})
    files.push_back({motion_file(base, extension), role + " (" + extension + ")"});
  return files;
}

void check_output_paths(const std::vector<CommandFile>& inputs, const std::vector<CommandFile>& outputs) {
  std::vector<std::pair<fs::path, const CommandFile*>> seen;  // canonical path of every output so far
  for (const CommandFile& output : outputs) {
    if (output.path.empty()) continue;
    const fs::path canonical = canonical_form(output.path);
    for (const CommandFile& input : inputs) {
      if (!input.path.empty() && canonical_form(input.path) == canonical) {
        throw UsageError(shown(output) + " is " + shown(input) +
                         ": writing it would overwrite the input; choose another output path");
      }
    }
    for (const auto& [path, earlier] : seen) {
      if (path == canonical) {
        throw UsageError(shown(output) + " is also " + shown(*earlier) +
                         ": one would overwrite the other; choose another output path");
      }
    }
    seen.emplace_back(canonical, &output);
  }
}

void check_job_output_paths(const JobConfig& job, std::vector<CommandFile> extra_inputs,
                            std::vector<CommandFile> extra_outputs) {
  std::vector<CommandFile> inputs = {{job.source, "the job file"},
                                     {job.robot.model, "the robot model"},
                                     {job.robot.config, "the robot description"}};
  switch (job.job) {
    case JobKind::kRetarget:
      inputs.push_back({job.input, "the input clip"});
      // A preset given as a file (not a shipped name) is read too.
      if (job.mocap.preset.find('/') != std::string::npos) inputs.push_back({job.mocap.preset, "the preset"});
      break;
    case JobKind::kSmooth:
      for (CommandFile& file : motion_file_set(job.input, "the input motion"))
        inputs.push_back(std::move(file));
      break;
    case JobKind::kWalk:
      inputs.push_back({job.input, "the steps file"});
      break;
  }
  for (CommandFile& file : extra_inputs) inputs.push_back(std::move(file));
  std::vector<CommandFile> outputs = motion_file_set(job.output.path, "the output motion");
  outputs.push_back({job.output.report, "the report"});
  for (CommandFile& file : extra_outputs) outputs.push_back(std::move(file));
  check_output_paths(inputs, outputs);
}

}  // namespace mimic::io
