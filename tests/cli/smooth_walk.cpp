// `mimic walk` (the planned bar walk from its footsteps) and `mimic smooth` (seed 001 on that walk, the
// slowest command: about 15 s) with outputs in a temporary folder, checked by `mimic check` with the job's
// contact phases, as the comment at the top of config/jobs/walk_bar_smooth.yaml says.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "cli/motion_checks.hpp"
#include "cli/run_mimic.hpp"

namespace mimic::test {
namespace {

std::vector<std::string> smooth_job() {
  return {"--config", sample("config/jobs/walk_bar_smooth.yaml").string()};
}

TEST(CliWalk, BarWalkFromItsJob) {
  TempDir dir;
  const auto pos = dir / "walk.pos";
  const RunResult r = run_mimic({"walk", "--config", sample("config/walk/bar_walk.yaml").string(), "-o",
                                 pos.string(), "--report", (dir / "walk.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("6 steps, 8.7 s, 1741 samples"), std::string::npos) << r.describe();
  const io::MotionFiles walk = expect_motion_files(pos);
  EXPECT_EQ(walk.pos.size(), 1741);
  // The command reproduces the shipped planned motion (scripts/make_walk_sample.sh wrote it the same way).
  const io::MotionFiles shipped = io::read_motion(sample("data/motions/walk_bar_planned.pos"));
  ASSERT_EQ(walk.pos.size(), shipped.pos.size());
  ASSERT_TRUE(walk.waist && shipped.waist);
  ASSERT_EQ(walk.waist->position.rows(), shipped.waist->position.rows());
  // The shipped files were written by this same command; 1e-6 rad / m allows for a last-digit change in
  // the printed numbers, while a changed walking pattern moves them by millimetres.
  EXPECT_LT((walk.pos.angles - shipped.pos.angles).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_LT((walk.waist->position - shipped.waist->position).cwiseAbs().maxCoeff(), 1e-6);
  const YAML::Node report = YAML::LoadFile((dir / "walk.json").string());
  EXPECT_EQ(report["summary"]["steps"].as<int>(), 6);
  EXPECT_GE(report["summary"]["min_zmp_margin_m"].as<double>(), 0.02);
  EXPECT_EQ(report["contacts"].size(), 13u);
  expect_check_passes(pos, smooth_job());
}

TEST(CliSmooth, BarWalkSmoothedPassesCheck) {
  TempDir dir;
  const auto pos = dir / "x.pos";
  std::vector<std::string> args = {"-q", "smooth", "-o", pos.string(), "--report", (dir / "x.json").string()};
  const auto job = smooth_job();
  args.insert(args.end(), job.begin(), job.end());
  const RunResult r = run_mimic(args);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(r.err, "") << r.describe();
  EXPECT_NE(r.out.find("integral of tau^T tau: before"), std::string::npos) << r.describe();
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"x.json", "x.pos", "x.waist", "x.zmp"}));
  const io::MotionFiles smoothed = expect_motion_files(pos);
  EXPECT_EQ(smoothed.pos.size(), 1741);
  // The torque integral goes down (seed 001: about 10 % on this walk).
  const YAML::Node summary = YAML::LoadFile((dir / "x.json").string())["summary"];
  ASSERT_TRUE(summary.IsMap());
  EXPECT_LT(summary["torque_integral_after"].as<double>(),
            0.95 * summary["torque_integral_before"].as<double>());
  EXPECT_GE(summary["min_zmp_margin_m"].as<double>(), 0.02);
  expect_check_passes(pos, job);
}

}  // namespace
}  // namespace mimic::test
