// The text and JSON of the reports (pipeline/reports.hpp): the geometry keys every report carries, the
// geometry line, the lines of `mimic check` on today's failure fixtures (tests/data), and the walk stage's
// geometry: the planned bar walk (config/walk/bar_walk.yaml) keeps its feet flat and no pair within the
// safety distance, and its report says so.
#include "mimic/pipeline/reports.hpp"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <limits>
#include <memory>
#include <string>

#include "mimic/evaluation/check.hpp"
#include "mimic/pipeline/walk.hpp"
#include "support/check_robot.hpp"
#include "support/shared_data.hpp"

namespace mimic::pipeline {
namespace {

YAML::Node summary_of(const std::optional<evaluation::GeometryReport>& geometry) {
  io::Json summary = io::Json::object();
  add_geometry_summary(summary, geometry);
  return YAML::Load(summary.dump());
}

TEST(GeometryReport, CheckedGeometryGivesEveryKey) {
  evaluation::GeometryReport g;
  g.safety_distance = 0.01;
  g.closest_first = "HEAD_LINK1", g.closest_second = "RARM_LINK6";
  g.min_distance = -0.0168, g.min_distance_time = 19.78;
  g.samples_below_safety = 106;
  g.lowest_corner_foot = "right", g.min_corner_height = 0.0, g.min_corner_time = 19.815;
  const YAML::Node s = summary_of(g);
  EXPECT_TRUE(s["geometry_checked"].as<bool>());
  EXPECT_EQ(s["safety_distance_m"].as<double>(), 0.01);
  EXPECT_EQ(s["min_pair_distance_m"].as<double>(), -0.0168);
  EXPECT_EQ(s["closest_pair"].as<std::string>(), "HEAD_LINK1 / RARM_LINK6");
  EXPECT_EQ(s["min_pair_distance_time_s"].as<double>(), 19.78);
  EXPECT_EQ(s["samples_below_safety_distance"].as<int>(), 106);
  EXPECT_EQ(s["min_sole_corner_height_m"].as<double>(), 0.0);
  EXPECT_EQ(s["lowest_corner"].as<std::string>(), "right");
  EXPECT_EQ(s["min_sole_corner_height_time_s"].as<double>(), 19.815);
  EXPECT_EQ(s["samples_below_ground"].as<int>(), 0);
}

TEST(GeometryReport, NumbersThatDoNotExistAreNull) {
  const YAML::Node unchecked = summary_of(std::nullopt);
  EXPECT_FALSE(unchecked["geometry_checked"].as<bool>());
  EXPECT_FALSE(unchecked["min_pair_distance_m"]);
  // A collision model without pairs or corners: no closest pair, no lowest corner.
  const YAML::Node empty = summary_of(evaluation::GeometryReport{});
  EXPECT_TRUE(empty["geometry_checked"].as<bool>());
  EXPECT_TRUE(empty["min_pair_distance_m"].IsNull());
  EXPECT_TRUE(empty["closest_pair"].IsNull());
  EXPECT_TRUE(empty["min_sole_corner_height_m"].IsNull());
  EXPECT_TRUE(empty["lowest_corner"].IsNull());
}

TEST(GeometryReport, OneLineNamesThePairAndTheFoot) {
  evaluation::GeometryReport g;
  g.closest_first = "HEAD_LINK1", g.closest_second = "RARM_LINK6";
  g.min_distance = -0.0168, g.min_distance_time = 19.78;
  g.lowest_corner_foot = "right", g.min_corner_height = -3e-16, g.min_corner_time = 19.815;
  // A height that rounds to zero at the printed 0.1 mm is printed as 0, not "-0.0000".
  EXPECT_EQ(format_geometry_report(g),
            "min pair distance -0.0168 m (HEAD_LINK1 / RARM_LINK6, t = 19.780 s)  min sole-corner height "
            "0.0000 m (right foot, t = 19.815 s)");
  EXPECT_EQ(
      format_geometry_report(evaluation::GeometryReport{}),
      "min pair distance none (no pair of shapes is checked)  min sole-corner height none (no sole corner)");
}

// The optimisations' log and summary lines name the closest pair they constrained; a robot without collision
// shapes has none, and the line says so instead of "closest pair  inf m".
TEST(GeometryReport, ClosestPairOfAnOptimisationOrNone) {
  EXPECT_EQ(describe_closest_pair("HEAD_LINK1 / RARM_LINK6", 0.011),
            "closest pair HEAD_LINK1 / RARM_LINK6 0.0110 m");
  EXPECT_EQ(describe_closest_pair("", std::numeric_limits<double>::infinity()), "no collision pairs");
}

// `mimic check`'s report of a motion at rest (v = a = 0) in the fixture's configurations.
std::string check_text(const model::SampledMotion& motion, bool with_geometry = true) {
  const test::CheckRobot& r = test::CheckRobot::instance();
  const evaluation::CheckOptions options = with_geometry ? r.with_geometry() : evaluation::CheckOptions{};
  return format_check_report(evaluation::check_motion(r.robot.model, r.feet, motion, options));
}

TEST(CheckReport, HandInTheHeadIsListedOnOneLine) {
  const std::string text = check_text(test::CheckRobot::instance().fixture("boxing_hand_in_head"));
  EXPECT_NE(text.find("VIOLATIONS"), std::string::npos) << text;
  EXPECT_NE(text.find("  collision HEAD_LINK1 / RARM_LINK6 t =   19.780 s  value -0.016781  limit 0.01"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(106 samples)"), std::string::npos) << text;
  EXPECT_NE(text.find("min pair distance -0.0168 m (HEAD_LINK1 / RARM_LINK6, t = 19.780 s)"),
            std::string::npos)
      << text;
}

TEST(CheckReport, ToeBelowTheFloorIsAGroundLine) {
  const std::string text =
      check_text(test::CheckRobot::instance().fixture("walk_bar_smooth_toe_below_floor"));
  EXPECT_NE(text.find("  ground    right foot"), std::string::npos) << text;
}

TEST(CheckReport, HalfSittingIsOkAndWithoutShapesTheGeometryIsNotChecked) {
  const test::CheckRobot& r = test::CheckRobot::instance();
  const std::string text = check_text(r.stance(3));
  EXPECT_NE(text.find("OK: every limit holds, no self-collision"), std::string::npos) << text;
  const std::string limits_only = check_text(r.fixture("boxing_hand_in_head"), false);
  EXPECT_NE(limits_only.find("geometry not checked"), std::string::npos) << limits_only;
}

TEST(GeometryReport, PlannedBarWalkIsCollisionFreeWithItsFeetFlat) {
  const io::JobConfig job = io::load_job(test::source_dir() / "config" / "walk" / "bar_walk.yaml");
  const WalkResult walk = run_walk(job);
  const evaluation::GeometryReport& g = walk.geometry;
  EXPECT_EQ(g.safety_distance, job.geometry.safety_distance);
  ASSERT_EQ(g.sample_min_distance.size(), static_cast<Eigen::Index>(walk.pattern.size()));
  // Measured 78.0 mm (the two sole boxes as the feet pass each other): far from the 10 mm.
  EXPECT_TRUE(g.collision_free()) << format_geometry_report(g);
  EXPECT_GT(g.min_distance, 0.05);
  // Flat soles planted by the leg IK (held to 1e-9 m): the lowest corner is on the floor, none below it.
  EXPECT_TRUE(g.above_ground()) << format_geometry_report(g);
  EXPECT_NEAR(g.min_corner_height, 0.0, 1e-9);
  const YAML::Node s = YAML::Load(walk_report_json(job, walk).dump())["summary"];
  EXPECT_EQ(s["min_pair_distance_m"].as<double>(), g.min_distance);
  EXPECT_EQ(s["closest_pair"].as<std::string>(), g.closest_first + " / " + g.closest_second);
  EXPECT_EQ(s["samples_below_ground"].as<int>(), 0);
  // Both slips of the summary: the sole's drift and its rotation while in support.
  EXPECT_EQ(s["max_slip_m"].as<double>(), walk.summary.max_support_slip);
  EXPECT_EQ(s["max_slip_rad"].as<double>(), walk.summary.max_support_rotation);
}

}  // namespace
}  // namespace mimic::pipeline
