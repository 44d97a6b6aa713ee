#include "mimic/pipeline/csv_motion.hpp"

#include <cmath>

#include "mimic/core/atomic_file.hpp"
#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/io/csv_motion.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/retarget/time_reparameterization.hpp"
#include "mimic/stability/contact_detection.hpp"

namespace mimic::pipeline {
namespace {

// Rates in messages: to the microhertz, so that 1 / 0.005 prints "200".
std::string rate_text(double rate) { return core::format_number(std::round(rate * 1e6) / 1e6); }

}  // namespace

std::filesystem::path motion_base_name(const std::filesystem::path& motion) {
  return io::is_csv_motion(motion) ? std::filesystem::path(motion).replace_extension()
                                   : io::motion_base(motion);
}

model::SampledMotion read_csv_configurations(const model::Model& model, std::span<const std::string> joints,
                                             const std::filesystem::path& path, std::optional<double> rate) {
  if (!rate) {
    throw InputError(input_error_message(
        path.string(), "",
        "a CSV motion carries no time; give its sample rate (--rate HZ, or csv_rate in the job)"));
  }
  model::SampledMotion motion;
  motion.q = io::read_csv_motion(path, model, joints);
  motion.times.resize(static_cast<std::size_t>(motion.q.cols()));
  for (std::size_t k = 0; k < motion.times.size(); ++k) motion.times[k] = static_cast<double>(k) / *rate;
  return motion;
}

model::SampledMotion read_csv_sampled_motion(const Robot& robot, const std::filesystem::path& path,
                                             std::optional<double> rate,
                                             const std::vector<model::ContactInterval>& intervals) {
  const model::Model& model = robot.model;
  model::SampledMotion motion = read_csv_configurations(model, robot.description.joint_order, path, rate);
  model::differentiate(model, motion);
  motion.phases = intervals.empty()
                      ? stability::detect_contact_phases(model, robot.feet, motion.times, motion.q)
                      : model::phases_from_intervals(motion.times, intervals);
  return motion;
}

double own_rate(const model::SampledMotion& motion) {
  if (motion.size() < 2) return 0.0;
  return static_cast<double>(motion.size() - 1) / (motion.times.back() - motion.times.front());
}

CsvOutput csv_output(const model::Model& model, std::span<const std::string> joints,
                     const model::SampledMotion& motion, std::optional<double> rate,
                     const std::string& file) {
  CsvOutput output;
  output.joints = static_cast<int>(joints.size());
  output.source_rate = own_rate(motion);
  output.rate = rate.value_or(output.source_rate);
  // Uniform at the asked rate: the duration is (N - 1) periods to a nanosecond.
  const double span = motion.size() < 2 ? 0.0 : motion.times.back() - motion.times.front();
  const bool as_is =
      motion.size() < 2 || (model::is_uniform(motion.times) &&
                            std::abs(span - static_cast<double>(motion.size() - 1) / output.rate) < 1e-9);
  if (as_is) {
    output.text = io::format_csv_motion(model, motion.q, joints, file);
    output.rows = motion.size();
    return output;
  }
  const Eigen::MatrixXd q = retarget::resample_configurations(model, motion.q, motion.times, output.rate);
  output.text = io::format_csv_motion(model, q, joints, file);
  output.rows = q.cols();
  output.resampled = true;
  return output;
}

void write_csv_output(const std::filesystem::path& path, const CsvOutput& output) {
  write_file_atomically(path,
                        [&](std::ostream& out) { out.write(output.text.data(), std::ssize(output.text)); });
}

std::string csv_output_summary(const std::filesystem::path& path, const CsvOutput& output) {
  std::string text =
      path.string() + ": " + std::to_string(output.rows) + " rows at " + rate_text(output.rate) + " Hz";
  if (output.resampled) text += " (resampled from " + rate_text(output.source_rate) + " Hz)";
  return text + "; base x y z, quaternion x y z w, " + std::to_string(output.joints) +
         " joints; no .waist or .zmp (the ZMP is in the JSON report and `mimic check`)";
}

}  // namespace mimic::pipeline
