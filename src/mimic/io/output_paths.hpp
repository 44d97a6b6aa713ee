// The one rule every command follows before it writes: no output may name one of its inputs or another
// of its outputs. `mimic check X.pos --report X.pos` would replace the motion by JSON, `smooth S.pos -o
// S2.pos --report S.pos` the input, and `retarget -o r.pos --report r.pos` would lose the report under the
// motion. Paths are compared canonically (std::filesystem::weakly_canonical), so "./x.pos", "x.pos" and
// "dir/../x.pos" are the same file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "mimic/io/job.hpp"

namespace mimic::io {

// A file a command reads or writes, and what it is, for messages: {"out/x.json", "the report (--report)"}.
struct CommandFile {
  std::filesystem::path path;  // empty: not used by this run, ignored
  std::string role;
};

// The files of a motion X (or X.pos) as read_motion() reads and write_motion() writes or removes them:
// X.pos, X.waist, X.hip, X.zmp, each with `role` and its extension ("the output motion (.zmp)"); a
// CSV motion (X.csv, csv_motion.hpp) is that one file.
std::vector<CommandFile> motion_file_set(const std::filesystem::path& base_or_pos, const std::string& role);

// Throws UsageError (exit 2) naming both roles when an output is one of the inputs ("... would overwrite
// ...") or two outputs are the same file ("... would overwrite each other").
void check_output_paths(const std::vector<CommandFile>& inputs, const std::vector<CommandFile>& outputs);

// check_output_paths() for a job: its inputs (the job file, the input clip, motion or steps file, the robot
// model and description, a preset file) and outputs (the output motion's files, the report), plus the
// command's own extra inputs and outputs (a walk's --upper-body file, retarget's --save-reference files).
void check_job_output_paths(const JobConfig& job, std::vector<CommandFile> extra_inputs = {},
                            std::vector<CommandFile> extra_outputs = {});

}  // namespace mimic::io
