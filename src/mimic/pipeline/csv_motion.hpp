// A command's motion as CSV (io/csv_motion.hpp, the Unitree / LAFAN1 convention) for a robot: the column
// names from the robot description's `joint_order` (the Model's order), the rate the file lacks given by
// the caller (`--rate`, the job's `csv_rate`). Reading adds what CSV lacks as read_motion.hpp does for
// hrpsys files (v and a by model::differentiate, the phases detected or from the job); writing resamples
// to the asked rate (retarget::resample_configurations: the base orientation along the geodesic, the
// rest linearly). No ZMP is written: the JSON report and `mimic check` give it.
#pragma once

#include <Eigen/Core>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mimic/model/contact_phase.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/sampled_motion.hpp"
#include "mimic/pipeline/robot.hpp"

namespace mimic::pipeline {

// A motion's path without its extension, for the files named after it (X.reference.pos, X.plots,
// X.smoothed.pos): "out/walk.pos" (or .waist ...) -> "out/walk" (io::motion_base), "out/g1.csv" -> "out/g1".
std::filesystem::path motion_base_name(const std::filesystem::path& motion);

// The times and configurations of the CSV motion at `path` (columns: `joints`, the model's joints in model
// order), row k at t = k / rate; v, a and phases left empty. `rate` is required: without one an InputError
// naming the file says how to give it (--rate, csv_rate).
model::SampledMotion read_csv_configurations(const model::Model& model, std::span<const std::string> joints,
                                             const std::filesystem::path& path, std::optional<double> rate);

// The CSV motion at `path` for `robot` (read_csv_configurations with the description's joint_order), with v
// and a (model::differentiate) and the phases (from `intervals`, else detected).
model::SampledMotion read_csv_sampled_motion(const Robot& robot, const std::filesystem::path& path,
                                             std::optional<double> rate,
                                             const std::vector<model::ContactInterval>& intervals = {});

// The rate of a motion's own samples: (N - 1) / duration (a uniform motion's rate), 0 for one sample.
double own_rate(const model::SampledMotion& motion);

// A CSV output formatted before anything is written (so that a failure leaves no file), with what the
// command's summary says about it.
struct CsvOutput {
  std::string text;
  Eigen::Index rows = 0;
  int joints = 0;
  double rate = 0.0;         // Hz of the rows
  double source_rate = 0.0;  // Hz of the motion's own samples
  bool resampled = false;
};

// `motion` as CSV at `rate` (default: own_rate(motion)); `joints` are the model's joint names in model order
// (the description's joint_order). The motion is resampled unless it is uniform at that rate already (its q
// is then written unchanged, so that the CSV and the .pos hold the same samples). `file` names the output
// in errors (a non-finite value: OutputError).
CsvOutput csv_output(const model::Model& model, std::span<const std::string> joints,
                     const model::SampledMotion& motion, std::optional<double> rate, const std::string& file);

// Writes the formatted output to `path` atomically.
void write_csv_output(const std::filesystem::path& path, const CsvOutput& output);

// "out.csv: 120 rows at 50 Hz (resampled from 200 Hz); base x y z, quaternion x y z w, 30 joints; no .waist
// or .zmp (the ZMP is in the JSON report and `mimic check`)".
std::string csv_output_summary(const std::filesystem::path& path, const CsvOutput& output);

}  // namespace mimic::pipeline
