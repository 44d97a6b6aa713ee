// `mimic walk STEPS.yaml -o WALK.pos`: a walking pattern (preview control of the cart-table, leg IK) from
// a footstep plan; writes WALK.pos, WALK.waist and WALK.zmp (the multibody ZMP of the motion, waist frame).
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cmath>
#include <filesystem>
#include <iostream>

#include "command.hpp"
#include "mimic/core/error.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/job_json.hpp"
#include "mimic/io/json.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/io/number_text.hpp"
#include "mimic/model/robot_config.hpp"
#include "mimic/pipeline/job_options.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/stability/leg_ik.hpp"
#include "mimic/walking/footsteps.hpp"
#include "mimic/walking/walking_evaluation.hpp"
#include "mimic/walking/walking_pattern.hpp"

namespace {

using namespace mimic;

struct Options {
  std::string steps, output, upper_body, job, report;
  int columns = 0;  // 0: the job's (default 30)
};

io::JobConfig assemble_job(const Options& opt) {
  io::JobConfig job = opt.job.empty() ? io::default_job(io::JobKind::kWalk) : io::load_job(opt.job);
  if (job.job != io::JobKind::kWalk) {
    throw InputError(input_error_message(
        opt.job, "", "job: expected walk for `mimic walk`, found " + std::string(io::to_string(job.job))));
  }
  if (!opt.steps.empty()) job.input = opt.steps;
  if (!opt.output.empty()) job.output.path = opt.output;
  if (opt.columns != 0) job.output.columns = opt.columns;
  if (!opt.report.empty()) job.output.report = opt.report;
  io::validate_job(job);
  return job;
}

io::Json report_json(const io::JobConfig& job, const walking::WalkingPattern& pattern,
                     const walking::WalkingSummary& s) {
  io::Json json = io::Json::object();
  json["job"] = io::job_to_json(job);
  auto& m = json["summary"];
  m["duration_s"] = s.duration;
  m["steps"] = s.steps;
  m["samples"] = static_cast<int>(pattern.size());
  m["com_height_m"] = pattern.com_height;
  m["max_zmp_deviation_m"] = s.max_zmp_deviation;
  m["min_zmp_margin_m"] = s.min_zmp_margin;
  m["peak_velocity_ratio"] = s.peak_velocity_ratio;
  m["min_angle_margin_rad"] = s.min_angle_margin;
  m["max_slip_m"] = s.max_support_slip;
  m["max_landing_error_m"] = s.max_landing_error;
  auto& contacts = json["contacts"];
  contacts = io::Json::array();
  for (const auto& c : pattern.contact_intervals) {
    io::Json entry = io::Json::object();
    entry["start"] = c.start;
    entry["end"] = c.end;
    entry["support"] = io::to_string(c.phase);
    contacts.push_back(std::move(entry));
  }
  return json;
}

void print_summary(const std::filesystem::path& output, const walking::WalkingPattern& pattern,
                   const walking::WalkingSummary& s) {
  const auto mm = [](double m) { return io::format_number(std::round(m * 1e4) / 10.0); };
  std::cout << output.string() << ": " << s.steps << " steps, " << s.duration << " s, " << pattern.size()
            << " samples (CoM height " << mm(pattern.com_height) << " mm)\n"
            << "  multibody ZMP: max deviation from the reference " << mm(s.max_zmp_deviation)
            << " mm (t = " << s.max_zmp_deviation_time << " s), min margin in the support polygon "
            << mm(s.min_zmp_margin) << " mm (t = " << s.min_zmp_margin_time << " s)\n"
            << "  joints: peak |qdot| / limit "
            << io::format_number(std::round(s.peak_velocity_ratio * 1e3) / 1e3) << " ("
            << s.peak_velocity_joint << ", t = " << s.peak_velocity_time << " s), nearest angle limit "
            << io::format_number(std::round(s.min_angle_margin * 1e4) / 1e4) << " rad ("
            << s.min_angle_margin_joint << ")\n"
            << "  feet: support slip " << fmt::format("{:.3g}", s.max_support_slip) << " m, landing error "
            << fmt::format("{:.3g}", s.max_landing_error) << " m\n";
}

// Joint angles inside the model's ranges shrunk about their middles by limits.angle_factor (the legs come
// from the IK, which already refuses the model's own limits; the upper body may come from any .pos).
void check_angle_limits(const model::Model& robot, const walking::WalkingPattern& pattern, double factor) {
  for (int j = 0; j < robot.nj; ++j) {
    const double middle = 0.5 * (robot.lower_limit[j] + robot.upper_limit[j]);
    const double half_range = 0.5 * factor * (robot.upper_limit[j] - robot.lower_limit[j]);
    for (Eigen::Index k = 0; k < pattern.size(); ++k) {
      const double angle = pattern.q(robot.idx_q(j), k);
      if (std::abs(angle - middle) > half_range) {
        throw InfeasibleError(
            "walking pattern: t = " + io::format_number(pattern.times[static_cast<std::size_t>(k)]) +
            " s: " + robot.joint_names[static_cast<std::size_t>(j)] + " at " + io::format_number(angle) +
            " rad is outside its range [" + io::format_number(middle - half_range) + ", " +
            io::format_number(middle + half_range) + "] (limits.angle_factor = " + io::format_number(factor) +
            ")");
      }
    }
  }
}

int run_walk(const Options& opt) {
  const io::JobConfig job = assemble_job(opt);
  const pipeline::Robot loaded = pipeline::load_robot(job.robot, job.payload);
  const model::RobotConfig& config = loaded.config;
  const model::Model& robot = loaded.model;

  const walking::FootstepPlan plan = walking::load_footsteps(job.input);
  const walking::WalkSchedule schedule(plan, config.right_sole, config.left_sole);

  // Upper body: --upper-body, else the plan's `upper_body:`, else half-sitting.
  const Eigen::VectorXd posture = config.half_sitting(robot).tail(robot.nj);
  const std::filesystem::path upper_body_file =
      opt.upper_body.empty() ? plan.upper_body : std::filesystem::path(opt.upper_body);
  std::vector<int> leg_joints;
  for (const auto* frame : {&config.right_sole_frame, &config.left_sole_frame}) {
    const stability::LegKinematics leg(robot, *frame);
    leg_joints.insert(leg_joints.end(), leg.joints().begin(), leg.joints().end());
  }
  const walking::UpperBodyTrajectory upper_body =
      upper_body_file.empty() ? walking::UpperBodyTrajectory::fixed(posture)
                              : walking::load_upper_body(upper_body_file, robot, posture, leg_joints);
  if (!upper_body_file.empty() && upper_body.end_time() > schedule.duration() + 1e-9) {
    spdlog::warn("{}: the upper-body motion lasts {} s, the walk {} s: its end is not used",
                 upper_body_file.string(), upper_body.end_time(), schedule.duration());
  }

  const walking::WalkingOptions options = pipeline::walking_options(job);

  spdlog::info("walking pattern: {} steps, {} s", plan.steps.size(),
               io::format_number(std::round(schedule.duration() * 1e6) / 1e6));
  const walking::WalkingPattern pattern =
      walking::generate_walking_pattern(robot, config, schedule, upper_body, options);
  const walking::WalkingSummary summary =
      walking::summarize_walking_pattern(robot, config, schedule, pattern);
  print_summary(job.output.path, pattern, summary);

  // A motion the robot cannot play is not written.
  if (summary.peak_velocity_ratio > job.limits.velocity_factor) {
    throw InfeasibleError("walking pattern: " + summary.peak_velocity_joint + " reaches " +
                          io::format_number(summary.peak_velocity_ratio) +
                          " of its velocity limit (allowed: limits.velocity_factor = " +
                          io::format_number(job.limits.velocity_factor) + "); lengthen single_support");
  }
  check_angle_limits(robot, pattern, job.limits.angle_factor);
  if (!(summary.min_zmp_margin >= 0.0)) {
    throw InfeasibleError("walking pattern: the multibody ZMP leaves the support polygon at t = " +
                          io::format_number(summary.min_zmp_margin_time) + " s");
  }
  if (summary.min_zmp_margin < job.stability.zmp_margin) {
    spdlog::warn(
        "the multibody ZMP comes within {} m of the support polygon's edge (stability.zmp_margin {} m)",
        summary.min_zmp_margin, job.stability.zmp_margin);
  }

  // All outputs or none: the report goes first (an unwritable report path then fails before any motion
  // file exists) and is removed again when the motion files cannot be written.
  if (!job.output.report.empty()) io::write_json_file(job.output.report, report_json(job, pattern, summary));
  io::PosWriteOptions write_options;
  write_options.columns = job.output.columns;
  try {
    io::write_motion(io::motion_base(job.output.path), walking::to_motion_files(robot, pattern),
                     write_options);
  } catch (...) {
    if (!job.output.report.empty()) {
      std::error_code ignored;
      std::filesystem::remove(job.output.report, ignored);
    }
    throw;
  }
  return app::kOk;
}

std::function<int()> setup_walk(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "walk",
      "Generate a walking pattern from a footstep YAML (Kajita's preview control of the cart-table, leg IK, "
      "an upper body from a posture, a .pos or keyframes, an optional payload from --config) and write "
      "X.pos, X.waist and X.zmp (the multibody ZMP of the motion, waist frame). Prints the ZMP deviation and "
      "margin, the joint velocity peak and the foot slip. Exit code 4 when the motion breaks a limit.");
  auto opt = std::make_shared<Options>();
  cmd->add_option("steps", opt->steps,
                  "Footstep YAML (e.g. config/walk/bar_steps.yaml); default: the job's input");
  cmd->add_option("-o,--output", opt->output, "Output X.pos (X.waist and X.zmp beside it)");
  cmd->add_option("--upper-body", opt->upper_body,
                  "Upper-body motion: a .pos (resampled) or a keyframe .yaml (default: the steps file's "
                  "upper_body, else half-sitting)");
  cmd->add_option("--columns", opt->columns, "Columns of X.pos: 30, or 40 with 10 hand values")
      ->check(CLI::IsMember({30, 40}));
  cmd->add_option("--config", opt->job, "Job YAML (job: walk): robot, payload, preview settings, output");
  cmd->add_option("--report", opt->report, "Also write the settings and the summary as JSON to this file");
  return [opt]() { return run_walk(*opt); };
}

MIMIC_REGISTER_COMMAND("walk", setup_walk);

}  // namespace
