// Support phases detected from the feet (stability/contact_detection.hpp; issues 14 and 16: `check` and
// `smooth` read motions other tools made, without a job's `contacts:`). For the walks `mimic walk` makes
// for each robot, and their smoothing: `mimic check` without the contacts passes, and the detected phases
// are the walking schedule's (its report's `contacts`) to a sample at each phase change. The same walk as
// a CSV at 200, 50 and 30 Hz gets the same verdict and the same phases at each rate.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>

#include "cli/motion_checks.hpp"
#include "cli/run_mimic.hpp"
#include "mimic/model/contact_phase.hpp"
#include "mimic/pipeline/read_motion.hpp"
#include "mimic/pipeline/robot.hpp"
#include "support/shared_data.hpp"

namespace mimic::test {
namespace {

namespace fs = std::filesystem;

struct RobotCase {
  const char* name;
  const char* steps;  // the shipped footstep plan, config/walk/
  const char* urdf;   // under ../shared; empty: the shipped model
};

const RobotCase kHrp2{"hrp2", "bar_steps.yaml", ""};
const RobotCase kJvrc1{"jvrc1", "jvrc1_steps.yaml", "robots/jvrc1/urdf/jvrc1.urdf"};
const RobotCase kG1{"g1", "g1_steps.yaml", "robots/g1/g1_29dof_rev_1_0.urdf"};

std::vector<std::string> robot_args(const RobotCase& robot) {
  std::vector<std::string> args = {"--robot", robot.name};
  if (*robot.urdf) args.insert(args.end(), {"--model", (shared_dir() / robot.urdf).string()});
  return args;
}

RunResult run_with(std::vector<std::string> args, const std::vector<std::string>& extra) {
  args.insert(args.end(), extra.begin(), extra.end());
  return run_mimic(args);
}

// The support phases of a walk's report or a job (the same `contacts` list).
std::vector<model::ContactInterval> report_contacts(const fs::path& report) {
  std::vector<model::ContactInterval> contacts;
  for (const YAML::Node& c : YAML::LoadFile(report.string())["contacts"]) {
    const auto support = c["support"].as<std::string>();
    contacts.push_back({c["start"].as<double>(), c["end"].as<double>(),
                        support == "right"  ? model::ContactPhase::kRightSupport
                        : support == "left" ? model::ContactPhase::kLeftSupport
                                            : model::ContactPhase::kDoubleSupport});
  }
  return contacts;
}

// The smooth job of short.pos with these contacts (the robot from the command line).
std::string smooth_job(const std::vector<model::ContactInterval>& contacts) {
  std::string yaml = "job: smooth\ninput: short.pos\noutput: smooth.pos\ncontacts:\n";
  for (const auto& c : contacts) {
    const char* support = c.phase == model::ContactPhase::kRightSupport  ? "right"
                          : c.phase == model::ContactPhase::kLeftSupport ? "left"
                                                                         : "both";
    yaml += "  - { start: " + std::to_string(c.start) + ", end: " + std::to_string(c.end) +
            ", support: " + support + " }\n";
  }
  return yaml;
}

// Detected phases (the motion read as `check` reads it, without contacts) against the schedule's: every
// differing sample is within `max_samples` sample periods of a phase change of the schedule. Returns
// the number of differing samples (for the messages).
int expect_schedule_phases(const RobotCase& robot, const fs::path& motion,
                           const std::vector<model::ContactInterval>& contacts, std::optional<double> rate,
                           int max_samples) {
  io::RobotSettings settings;
  settings.config = source_dir() / "config" / "robots" / (std::string(robot.name) + ".yaml");
  if (*robot.urdf) settings.model = shared_dir() / robot.urdf;
  const pipeline::Robot loaded = pipeline::load_robot(settings);
  const model::SampledMotion m = pipeline::read_sampled_motion(loaded, motion, {}, rate);
  const auto expected = model::phases_from_intervals(m.times, contacts);
  const double period = m.times[1] - m.times[0];
  int differing = 0;
  for (std::size_t k = 0; k < m.times.size(); ++k) {
    if (m.phases[k] == expected[k]) continue;
    ++differing;
    double nearest = 1e9;
    for (const auto& c : contacts)
      nearest = std::min({nearest, std::abs(m.times[k] - c.start), std::abs(m.times[k] - c.end)});
    EXPECT_LE(nearest, (max_samples + 0.01) * period)
        << motion << ": t = " << m.times[k] << " detected " << static_cast<int>(m.phases[k]) << ", planned "
        << static_cast<int>(expected[k]);
  }
  return differing;
}

// The shipped footstep plan of the robot with its first two steps and short holds: a walk of 3.6 s whose
// smoothing takes seconds (the whole plan takes a minute per robot).
std::string short_plan(const RobotCase& robot) {
  YAML::Node plan = YAML::LoadFile((source_dir() / "config" / "walk" / robot.steps).string());
  plan["initial_hold"] = 1.0;
  plan["final_hold"] = 0.8;
  plan.remove("upper_body");  // a path relative to the plan's folder; half-sitting instead
  YAML::Node steps;
  steps.push_back(plan["steps"][0]);
  steps.push_back(plan["steps"][1]);
  plan["steps"] = steps;
  YAML::Emitter out;
  out << plan;
  return out.c_str();
}

// `mimic walk` of the robot's plan, checked without contacts; its smoothing (with the walk's contacts,
// as the shipped jobs do) checked without them too.
void expect_walk_and_smooth_pass_without_contacts(const RobotCase& robot) {
  TempDir dir;
  const auto args = robot_args(robot);
  const fs::path walk = dir / "walk.pos", report = dir / "walk.json";
  const RunResult w = run_with({"walk", (source_dir() / "config" / "walk" / robot.steps).string(), "-o",
                                walk.string(), "--report", report.string()},
                               args);
  ASSERT_EQ(w.exit_code, 0) << w.describe();
  expect_check_passes(walk, args);
  // Measured: one differing sample per step on each robot, at the lift-off (the schedule's interval
  // [lift-off, touchdown] includes its start, where the swing foot is still at its placement).
  const int walk_differing = expect_schedule_phases(robot, walk, report_contacts(report), std::nullopt, 1);
  ::testing::Test::RecordProperty(std::string(robot.name) + "_walk_differing_samples", walk_differing);

  const fs::path plan = dir / "short.yaml", short_walk = dir / "short.pos", short_report = dir / "short.json";
  write_text(plan, short_plan(robot));
  const RunResult sw =
      run_with({"walk", plan.string(), "-o", short_walk.string(), "--report", short_report.string()}, args);
  ASSERT_EQ(sw.exit_code, 0) << sw.describe();
  const auto contacts = report_contacts(short_report);
  write_text(dir / "job.yaml", smooth_job(contacts));
  const fs::path smooth = dir / "smooth.pos";
  std::vector<std::string> with_job = args;
  with_job.insert(with_job.end(), {"--config", (dir / "job.yaml").string()});
  const RunResult s = run_with({"smooth", short_walk.string(), "-o", smooth.string()}, with_job);
  ASSERT_EQ(s.exit_code, 0) << s.describe();
  expect_check_passes(smooth, args);
  const int smooth_differing = expect_schedule_phases(robot, smooth, contacts, std::nullopt, 1);
  ::testing::Test::RecordProperty(std::string(robot.name) + "_smooth_differing_samples", smooth_differing);
}

TEST(CliDetectedContacts, Hrp2WalkAndSmoothPassWithoutContacts) {
  expect_walk_and_smooth_pass_without_contacts(kHrp2);
}

TEST(CliDetectedContacts, Jvrc1WalkAndSmoothPassWithoutContacts) {
  MIMIC_REQUIRE_SHARED(urdf, kJvrc1.urdf);
  expect_walk_and_smooth_pass_without_contacts(kJvrc1);
}

TEST(CliDetectedContacts, G1WalkAndSmoothPassWithoutContacts) {
  MIMIC_REQUIRE_SHARED(urdf, kG1.urdf);
  expect_walk_and_smooth_pass_without_contacts(kG1);
}

// The shipped planned walk against its job's `contacts:`: the same phases but at the samples of a lift-off
// or touchdown, where the swing foot is at its placement (detected: double support).
TEST(CliDetectedContacts, ShippedPlannedWalkHasItsJobsPhases) {
  const auto contacts = report_contacts(sample("config/jobs/walk_bar_smooth.yaml"));
  const int differing =
      expect_schedule_phases(kHrp2, sample("data/motions/walk_bar_planned.pos"), contacts, std::nullopt, 1);
  ::testing::Test::RecordProperty("planned_walk_differing_samples", differing);
  // At most one sample per phase change (13 phases).
  EXPECT_LE(differing, static_cast<int>(contacts.size()) - 1);
}

// The bar-carrying walk written as a CSV at 200, 50 and 30 Hz (the same spline resampled): the check
// without contacts passes at each rate, and the detected phases are the schedule's to a sample.
TEST(CliDetectedContacts, CsvWalkGetsTheSameVerdictAtEachRate) {
  TempDir dir;
  const fs::path report = dir / "walk.json";
  for (const char* rate : {"200", "50", "30"}) {
    const fs::path csv = dir / (std::string("walk") + rate + ".csv");
    const RunResult w = run_mimic({"walk", "--config", sample("config/walk/bar_walk.yaml").string(), "-o",
                                   csv.string(), "--rate", rate, "--report", report.string()});
    ASSERT_EQ(w.exit_code, 0) << w.describe();
    expect_check_passes(csv, {"--rate", rate});
    expect_schedule_phases(kHrp2, csv, report_contacts(report), std::stod(rate), 1);
  }
}

}  // namespace
}  // namespace mimic::test
