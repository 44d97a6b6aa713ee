#include "mimic/pipeline/walk.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <system_error>

#include "mimic/core/error.hpp"
#include "mimic/core/number_text.hpp"
#include "mimic/io/csv_motion.hpp"
#include "mimic/io/motion_conversion.hpp"
#include "mimic/io/sequence.hpp"
#include "mimic/pipeline/csv_motion.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/reports.hpp"
#include "mimic/pipeline/sample_budget.hpp"
#include "mimic/stability/leg_refit.hpp"
#include "mimic/walking/footsteps.hpp"

namespace mimic::pipeline {
namespace {

namespace fs = std::filesystem;
using core::format_number;

std::string lower_extension(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

// Joint angles inside the model's ranges shrunk about their middles by limits.angle_factor (the legs come
// from the IK, which already refuses the model's own limits; the upper body may come from any .pos).
void check_angle_limits(const model::Model& robot, const walking::WalkingPattern& pattern, double factor) {
  const model::SampledMotion& motion = pattern.motion;
  for (int j = 0; j < robot.nj; ++j) {
    const double middle = 0.5 * (robot.lower_limit[j] + robot.upper_limit[j]);
    const double half_range = 0.5 * factor * (robot.upper_limit[j] - robot.lower_limit[j]);
    for (Eigen::Index k = 0; k < motion.size(); ++k) {
      const double angle = motion.q(robot.idx_q(j), k);
      if (std::abs(angle - middle) > half_range) {
        throw InfeasibleError(
            "walking pattern: t = " + format_number(motion.times[static_cast<std::size_t>(k)]) +
            " s: " + robot.joint_names[static_cast<std::size_t>(j)] + " at " + format_number(angle) +
            " rad is outside its range [" + format_number(middle - half_range) + ", " +
            format_number(middle + half_range) + "] (limits.angle_factor = " + format_number(factor) + ")");
      }
    }
  }
}

// A motion the robot cannot play is refused (and so never written).
void check_limits(const io::JobConfig& job, const WalkResult& walk) {
  const walking::WalkingSummary& summary = walk.summary;
  if (summary.velocity.ratio > job.limits.velocity_factor) {
    throw InfeasibleError("walking pattern: " + summary.velocity.joint + " reaches " +
                          format_number(summary.velocity.ratio) +
                          " of its velocity limit (allowed: limits.velocity_factor = " +
                          format_number(job.limits.velocity_factor) + "); lengthen single_support");
  }
  check_angle_limits(walk.robot.model, walk.pattern, job.limits.angle_factor);
  if (!(summary.min_zmp_margin >= 0.0)) {
    throw InfeasibleError("walking pattern: the multibody ZMP leaves the support polygon at t = " +
                          format_number(summary.min_zmp_margin_time) + " s");
  }
  if (summary.min_zmp_margin < job.stability.zmp_margin) {
    spdlog::warn(
        "the multibody ZMP comes within {} m of the support polygon's edge (stability.zmp_margin {} m)",
        summary.min_zmp_margin, job.stability.zmp_margin);
  }
}

}  // namespace

walking::UpperBodyTrajectory load_upper_body(const fs::path& path, const model::Model& model,
                                             const Eigen::VectorXd& posture, std::span<const int> leg_joints,
                                             const io::PosLayout& layout) {
  const std::string ext = lower_extension(path);
  if (ext == ".yaml" || ext == ".yml")
    return walking::load_upper_body_keyframes(path, model, posture, leg_joints);
  if (ext != ".pos") {
    throw InputError(input_error_message(path.string(), "",
                                         "an upper-body motion must be a .pos or a keyframe .yaml / .yml"));
  }
  io::PosSequence pos = io::read_pos(path, io::PosColumns::kAuto, layout);
  if (pos.angles.cols() != model.nj) {
    throw InputError(input_error_message(path.string(), "",
                                         "the .pos holds " + std::to_string(pos.angles.cols()) +
                                             " joint angles; the model has " + std::to_string(model.nj)));
  }
  return walking::UpperBodyTrajectory::sampled(std::move(pos.times), std::move(pos.angles));
}

WalkResult run_walk(const io::JobConfig& job, const fs::path& upper_body, const WalkObserver& observe) {
  if (job.job != io::JobKind::kWalk)
    throw std::invalid_argument("run_walk: a " + std::string(io::to_string(job.job)) + " job");
  WalkResult walk{load_robot(job.robot, job.payload), {}, {}, {}};
  const model::RobotDescription& description = walk.robot.description;
  const model::Model& robot = walk.robot.model;

  const walking::FootstepPlan plan = walking::load_footsteps(job.input);
  const walking::WalkSchedule schedule(plan, description.right_sole, description.left_sole);

  const Eigen::VectorXd posture = description.nominal_q(robot).tail(robot.nj);
  const fs::path upper_body_file = upper_body.empty() ? plan.upper_body : upper_body;
  const auto leg_joints = stability::Legs::of(robot, walk.robot.feet).joints();
  const walking::UpperBodyTrajectory upper =
      upper_body_file.empty() ? walking::UpperBodyTrajectory::fixed(posture)
                              : load_upper_body(upper_body_file, robot, posture, leg_joints,
                                                io::PosLayout::of(walk.robot.description));
  if (!upper_body_file.empty() && upper.end_time() > schedule.duration() + 1e-9) {
    spdlog::warn("{}: the upper-body motion lasts {} s, the walk {} s: its end is not used",
                 upper_body_file.string(), upper.end_time(), schedule.duration());
  }

  spdlog::info("walking pattern: {} steps, {} s", plan.steps.size(),
               format_number(std::round(schedule.duration() * 1e6) / 1e6));
  const walking::WalkingOptions options = walking_options(job);
  check_sample_budget(job.input.string() + ": the walking pattern", schedule.duration(),
                      1.0 / options.preview.cart.period, "stability.preview.period");
  walk.pattern = walking::generate_walking_pattern(robot, description, schedule, upper, options);
  walk.summary = walking::summarize_walking_pattern(robot, description, schedule, walk.pattern);
  walk.geometry = evaluation::check_geometry(robot, *walk.robot.collision, walk.pattern.motion,
                                             check_options(job).geometry);
  if (observe) observe(walk);
  check_limits(job, walk);
  return walk;
}

void write_walk_outputs(const io::JobConfig& job, const WalkResult& walk) {
  const io::PosLayout layout = io::PosLayout::of(walk.robot.description);
  const io::PosWriteOptions write_options = io::pos_write_options(job, layout);  // before the report
  if (!job.output.report.empty()) io::write_json_file(job.output.report, walk_report_json(job, walk));
  try {
    if (io::is_csv_motion(job.output.path)) {
      const CsvOutput csv = csv_output(walk.robot.model, walk.robot.description.joint_order,
                                       walk.pattern.motion, job.csv_rate, job.output.path.string());
      write_csv_output(job.output.path, csv);
      spdlog::info("wrote {}", csv_output_summary(job.output.path, csv));
    } else {
      io::write_motion(io::motion_base(job.output.path),
                       io::motion_files(walk.robot.model, walk.pattern.motion, walk.pattern.zmp),
                       write_options, layout);
    }
  } catch (...) {
    if (!job.output.report.empty()) {
      std::error_code ignored;
      fs::remove(job.output.report, ignored);
    }
    throw;
  }
}

}  // namespace mimic::pipeline
