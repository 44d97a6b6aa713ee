// `mimic check` on the shipped planned walk (passes with its job's contact phases) and on copies of it
// pushed past a joint's angle or velocity limit: exit code 4 and the offender (kind, joint, time) on
// stdout and in the JSON report.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <regex>

#include "cli/motion_checks.hpp"
#include "cli/run_mimic.hpp"
#include "mimic/model/model.hpp"

namespace mimic::test {
namespace {

constexpr int kHeadJoint0 = 14;  // OpenHRP order; limits +-0.785398 rad, 6.87679 rad/s (models/hrp2.urdf)

std::vector<std::string> walk_job() {
  return {"--config", sample("config/jobs/walk_bar_smooth.yaml").string()};
}

// The planned walk with HEAD_JOINT0 raised by a sin^2 bump of `amplitude` rad over [t0, t0 + width] s.
std::filesystem::path write_bumped_walk(const TempDir& dir, double t0, double width, double amplitude) {
  io::MotionFiles motion = io::read_motion(sample("data/motions/walk_bar_planned.pos"));
  EXPECT_EQ(model::openhrp_joint_names()[kHeadJoint0], "HEAD_JOINT0");
  for (Eigen::Index k = 0; k < motion.pos.size(); ++k) {
    const double t = motion.pos.times[static_cast<std::size_t>(k)];
    if (t > t0 && t < t0 + width) {
      const double s = std::sin(M_PI * (t - t0) / width);
      motion.pos.angles(k, kHeadJoint0) += amplitude * s * s;
    }
  }
  const auto base = dir / "bumped";
  io::write_motion(base, motion);
  return io::motion_file(base, ".pos");
}

// The time printed for the first listed offence of `kind` on `joint`, or NaN.
double offender_time(const std::string& out, const std::string& kind, const std::string& joint) {
  const std::regex line(kind + R"(\s+)" + joint + R"(\s+t =\s+([0-9.]+) s)");
  std::smatch m;
  if (!std::regex_search(out, m, line)) return std::nan("");
  return std::stod(m[1]);
}

TEST(CliCheck, ShippedPlannedWalkPassesWithItsJob) {
  TempDir dir;
  const RunResult r =
      run_mimic({"check", sample("data/motions/walk_bar_planned.pos").string(), "--config",
                 sample("config/jobs/walk_bar_smooth.yaml").string(), "--report", (dir / "r.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("samples 1741  duration 8.700 s  rate 200.0 Hz"), std::string::npos) << r.describe();
  EXPECT_NE(r.out.find("OK: every limit holds"), std::string::npos) << r.describe();
  const YAML::Node report = YAML::LoadFile((dir / "r.json").string());
  EXPECT_TRUE(report["ok"].as<bool>());
  EXPECT_EQ(report["summary"]["samples"].as<int>(), 1741);
  EXPECT_EQ(report["summary"]["violations"].as<int>(), 0);
  EXPECT_EQ(report["joints"].size(), 30u);
  EXPECT_EQ(report["violations"].size(), 0u);
}

// Another tool's motion often comes as a .pos alone: the waist is rebuilt from the support feet (issue 8)
// and the planned walk still passes, with no foot slip.
TEST(CliCheck, PlannedWalkWithoutItsWaistFilePassesOnTheReconstructedBase) {
  TempDir dir;
  std::filesystem::copy_file(sample("data/motions/walk_bar_planned.pos"), dir / "planned.pos");
  std::vector<std::string> args = {"check", (dir / "planned.pos").string(), "--report",
                                   (dir / "r.json").string()};
  const auto job = walk_job();
  args.insert(args.end(), job.begin(), job.end());
  const RunResult r = run_mimic(args);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("base reconstructed from the support foot"), std::string::npos) << r.describe();
  const YAML::Node report = YAML::LoadFile((dir / "r.json").string());
  EXPECT_LT(report["summary"]["max_slip_m"].as<double>(), 1e-9);
}

TEST(CliCheck, AngleBeyondTheLimitExits4AndNamesJointAndTime) {
  TempDir dir;
  // Peak 1.0 rad at t = 4.5 s (limit 0.785); 1 rad over 1 s stays far below the velocity limit.
  const auto pos = write_bumped_walk(dir, 4.0, 1.0, 1.0);
  std::vector<std::string> args = {"check", pos.string(), "--report", (dir / "r.json").string()};
  const auto job = walk_job();
  args.insert(args.end(), job.begin(), job.end());
  const RunResult r = run_mimic(args);
  EXPECT_EQ(r.exit_code, 4) << r.describe();
  EXPECT_NE(r.out.find("VIOLATIONS (1 kinds of offence"), std::string::npos) << r.describe();
  EXPECT_NEAR(offender_time(r.out, "angle", "HEAD_JOINT0"), 4.5, 0.0051) << r.describe();

  const YAML::Node report = YAML::LoadFile((dir / "r.json").string());
  EXPECT_FALSE(report["ok"].as<bool>());
  ASSERT_EQ(report["violations"].size(), 1u);
  const YAML::Node v = report["violations"][0];
  EXPECT_EQ(v["kind"].as<std::string>(), "angle");
  EXPECT_EQ(v["where"].as<std::string>(), "HEAD_JOINT0");
  EXPECT_NEAR(v["time_s"].as<double>(), 4.5, 0.0051);
  EXPECT_NEAR(v["limit"].as<double>(), M_PI / 4, 1e-4);
  EXPECT_NEAR(v["value"].as<double>(), 1.0, 1e-3);
  // Samples above pi/4 on the bump: sin^2 > (pi/4) / 1.0 over about 0.38 s of the second, at 200 Hz.
  EXPECT_GT(v["samples"].as<int>(), 40);
  EXPECT_LT(v["samples"].as<int>(), 100);
}

TEST(CliCheck, VelocityBeyondTheLimitExits4AndNamesJoint) {
  TempDir dir;
  // 0.5 rad in 0.1 s: peak speed 0.5 pi / 0.1 = 15.7 rad/s > 6.88 rad/s, angle inside the range.
  const auto pos = write_bumped_walk(dir, 2.0, 0.1, 0.5);
  std::vector<std::string> args = {"check", pos.string()};
  const auto job = walk_job();
  args.insert(args.end(), job.begin(), job.end());
  const RunResult r = run_mimic(args);
  EXPECT_EQ(r.exit_code, 4) << r.describe();
  const double t = offender_time(r.out, "velocity", "HEAD_JOINT0");
  EXPECT_GT(t, 2.0) << r.describe();
  EXPECT_LT(t, 2.1) << r.describe();
  EXPECT_TRUE(std::isnan(offender_time(r.out, "angle", "HEAD_JOINT0"))) << r.describe();
}

// The same motion passes once the joint is back inside its range: the violation above is the bump's.
TEST(CliCheck, SmallBumpPasses) {
  TempDir dir;
  const auto pos = write_bumped_walk(dir, 4.0, 1.0, 0.5);
  expect_check_passes(pos, walk_job());
}

}  // namespace
}  // namespace mimic::test
