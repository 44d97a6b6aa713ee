// `mimic check` on the shipped planned walk (passes with its job's contact phases) and on copies of it
// broken in one controlled way per offence kind (angle, velocity, torque, ZMP, slip): each copy must give
// exit code 4 and exactly that one offence, named with its joint / foot / "ZMP" and the time of its worst
// sample, on stdout and in the JSON report. "Exactly one" matters: a fixture that broke two things could
// not tell which detection fired, and a detection that fired on every motion would pass a weaker test.
//
// Times of the worst sample: each fixture puts the extreme of its change (peak of a sin^2 bump, a Gaussian
// pulse, the steepest point of a rise) on a sample of the 200 Hz grid, where the neighbouring samples are
// measurably smaller. The tolerance is half a sample period (2.5 ms): it asks for that very sample and
// allows only for the rounding of the times written in the file.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <set>

#include "cli/motion_checks.hpp"
#include "cli/run_mimic.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/model.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/spatial/rpy.hpp"

namespace mimic::test {
namespace {

namespace fs = std::filesystem;

constexpr double kHalfSample = 0.0025;  // s: half the 5 ms period of the planned walk (see the top)

// Column of `joint` in a .pos (OpenHRP order).
Eigen::Index pos_column(const std::string& joint) {
  const auto& names = model::openhrp_joint_names();
  const auto it = std::find(names.begin(), names.end(), joint);
  EXPECT_NE(it, names.end()) << joint;
  return static_cast<Eigen::Index>(it - names.begin());
}

std::vector<std::string> walk_job() {
  return {"--config", sample("config/jobs/walk_bar_smooth.yaml").string()};
}

// sin^2 bump: 0 outside (t0, t0 + width), 1 at its middle.
double sin2_bump(double t, double t0, double width) {
  if (t <= t0 || t >= t0 + width) return 0.0;
  const double s = std::sin(M_PI * (t - t0) / width);
  return s * s;
}

// The shipped planned walk (.pos, .waist, .zmp) with `edit(t, motion, k)` applied to each sample k,
// written to <dir>/<name>.*; returns the .pos.
template <class Edit>
fs::path write_edited_walk(const TempDir& dir, const std::string& name, Edit edit) {
  io::MotionFiles motion = io::read_motion(sample("data/motions/walk_bar_planned.pos"));
  EXPECT_TRUE(motion.waist.has_value());
  for (Eigen::Index k = 0; k < motion.pos.size(); ++k)
    edit(motion.pos.times[static_cast<std::size_t>(k)], motion, k);
  const auto base = dir / name;
  io::write_motion(base, motion);
  return io::motion_file(base, ".pos");
}

// The planned walk with HEAD_JOINT0 raised by a sin^2 bump of `amplitude` rad over [t0, t0 + width] s.
fs::path write_bumped_walk(const TempDir& dir, double t0, double width, double amplitude) {
  const Eigen::Index head = pos_column("HEAD_JOINT0");
  return write_edited_walk(dir, "bumped", [&](double t, io::MotionFiles& m, Eigen::Index k) {
    m.pos.angles(k, head) += amplitude * sin2_bump(t, t0, width);
  });
}

// The time printed for the first listed offence of `kind` at `where`, or NaN.
double offender_time(const std::string& out, const std::string& kind, const std::string& where) {
  const std::regex line(kind + R"(\s+)" + where + R"(\s+t =\s+([0-9.]+) s)");
  std::smatch m;
  if (!std::regex_search(out, m, line)) return std::nan("");
  return std::stod(m[1]);
}

// `mimic check <pos> --config walk_bar_smooth.yaml --report`: exit code 4 and one offence only, of `kind`
// at `where` with its worst sample at `time`, both on stdout and in the JSON report. Returns the report's
// violation entry (null on failure) for the checks of its value.
YAML::Node expect_only_offence(const TempDir& dir, const fs::path& pos, const std::string& kind,
                               const std::string& where, double time) {
  std::vector<std::string> args = {"check", pos.string(), "--report", (dir / "r.json").string()};
  const auto job = walk_job();
  args.insert(args.end(), job.begin(), job.end());
  const RunResult r = run_mimic(args);
  EXPECT_EQ(r.exit_code, 4) << r.describe();
  EXPECT_NE(r.out.find("VIOLATIONS (1 kinds of offence"), std::string::npos) << r.describe();
  EXPECT_NEAR(offender_time(r.out, kind, where), time, kHalfSample) << r.describe();
  if (!fs::exists(dir / "r.json")) {
    ADD_FAILURE() << "no JSON report\n" << r.describe();
    return {};
  }
  const YAML::Node report = YAML::LoadFile((dir / "r.json").string());
  EXPECT_FALSE(report["ok"].as<bool>());
  EXPECT_EQ(report["summary"]["violations"].as<int>(), 1);
  if (report["violations"].size() != 1u) {
    ADD_FAILURE() << "one violation expected\n" << read_text(dir / "r.json") << "\n" << r.describe();
    return {};
  }
  const YAML::Node v = report["violations"][0];
  EXPECT_EQ(v["kind"].as<std::string>(), kind);
  EXPECT_EQ(v["where"].as<std::string>(), where);
  EXPECT_NEAR(v["time_s"].as<double>(), time, kHalfSample);
  return v;
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
  fs::copy_file(sample("data/motions/walk_bar_planned.pos"), dir / "planned.pos");
  std::vector<std::string> args = {"check", (dir / "planned.pos").string(), "--report",
                                   (dir / "r.json").string()};
  const auto job = walk_job();
  args.insert(args.end(), job.begin(), job.end());
  const RunResult r = run_mimic(args);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("base reconstructed from the support foot"), std::string::npos) << r.describe();
  const YAML::Node report = YAML::LoadFile((dir / "r.json").string());
  // Measured 4.5e-16 m: the support foot is held exactly; 1e-9 m allows for rounding over 1741 samples.
  EXPECT_LT(report["summary"]["max_slip_m"].as<double>(), 1e-9);
}

TEST(CliCheck, AngleBeyondTheLimitIsTheOnlyOffence) {
  TempDir dir;
  // Peak 1.0 rad at t = 4.5 s (limit 0.785); 1 rad over 1 s stays far below the velocity limit.
  const auto pos = write_bumped_walk(dir, 4.0, 1.0, 1.0);
  const YAML::Node v = expect_only_offence(dir, pos, "angle", "HEAD_JOINT0", 4.5);
  if (!v) return;
  // The bump's peak is 1 rad exactly at t = 4.5 (a sample) on the walk's 0 rad: 1e-9 rad is the rounding
  // of the angle written to the .pos with 17 digits.
  EXPECT_NEAR(v["value"].as<double>(), 1.0, 1e-9);
  EXPECT_NEAR(v["limit"].as<double>(), 0.785398, 1e-6);  // the URDF's 6-digit limit, as written there
  // Samples above pi/4 on the bump: sin^2(pi s) > pi/4 for |s - 1/2| < acos(sqrt(pi/4)) / pi = 0.153, so
  // 0.306 s, 61 or 62 samples at 200 Hz.
  EXPECT_GE(v["samples"].as<int>(), 61);
  EXPECT_LE(v["samples"].as<int>(), 62);
}

TEST(CliCheck, VelocityBeyondTheLimitIsTheOnlyOffence) {
  TempDir dir;
  // HEAD_JOINT0 up by 0.6 rad in 0.1 s (half a cosine: steepest at t = 2.05 s, 0.6 pi / (2 x 0.1) =
  // 9.42 rad/s > 6.88 rad/s), back down in 1 s (0.94 rad/s): one unique fastest sample, where a
  // symmetric bump would have two equally fast ones. The angle stays inside +-0.785 rad; the head's
  // acceleration, 0.6 (pi / 0.1)^2 / 2 = 296 rad/s^2, needs about 2 N m of its 9.6 N m.
  const Eigen::Index head = pos_column("HEAD_JOINT0");
  const auto pos = write_edited_walk(dir, "fast", [&](double t, io::MotionFiles& m, Eigen::Index k) {
    double lift = 0.0;
    if (t > 2.0 && t < 2.1) lift = 0.5 * (1.0 - std::cos(M_PI * (t - 2.0) / 0.1));
    if (t >= 2.1 && t < 3.1) lift = 0.5 * (1.0 + std::cos(M_PI * (t - 2.1) / 1.0));
    m.pos.angles(k, head) += 0.6 * lift;
  });
  const YAML::Node v = expect_only_offence(dir, pos, "velocity", "HEAD_JOINT0", 2.05);
  if (!v) return;
  // Central differences on a cosine of period 0.2 s sampled every 5 ms read its peak speed low by
  // (omega h)^2 / 6 = 0.4 %: 9.387 rad/s measured for 9.425.
  EXPECT_NEAR(v["value"].as<double>(), 9.387, 0.001);
  EXPECT_NEAR(v["limit"].as<double>(), 6.87679, 1e-9);
}

TEST(CliCheck, TorqueBeyondTheLimitIsTheOnlyOffence) {
  TempDir dir;
  // A Gaussian pulse (0.07 rad, sigma 0.05 s) of the right wrist's yaw RARM_JOINT4 (effort 13.9 N m, the
  // job's factor 0.9: 12.51 N m) at t = 1.0 s, while the robot stands on both feet. The hand carries the
  // job's bar (0.7 kg, 0.65 m from the grip): about 0.5 kg m^2 about the wrist axis, so the pulse's peak
  // acceleration, 0.07 / 0.05^2 = 28 rad/s^2 at its centre, asks for about 15 N m there. Its speed stays
  // at 0.07 e^-1/2 / 0.05 = 0.85 rad/s (limit 4.73), its angle far inside +-1.61 rad, and the arm's
  // reaction moves the ZMP by less than the 4.5 cm it has to spare in double support.
  const Eigen::Index wrist = pos_column("RARM_JOINT4");
  const auto pos = write_edited_walk(dir, "shaken", [&](double t, io::MotionFiles& m, Eigen::Index k) {
    const double s = (t - 1.0) / 0.05;
    m.pos.angles(k, wrist) += 0.07 * std::exp(-0.5 * s * s);
  });
  const YAML::Node v = expect_only_offence(dir, pos, "torque", "RARM_JOINT4", 1.0);
  if (!v) return;
  EXPECT_NEAR(v["limit"].as<double>(), 0.9 * 13.9, 1e-9);
  // Measured -15.63 N m (the pulse's deceleration at its top, plus the bar's weight); 0.1 N m is about
  // the 1 % finite-difference error of the acceleration (h / sigma = 0.1).
  EXPECT_NEAR(v["value"].as<double>(), -15.63, 0.1);
}

// The OpenHRP configuration vector of a base pose and the 30 joint angles of a .pos row.
Eigen::VectorXd configuration(const model::Model& model, const spatial::SE3& base,
                              const Eigen::VectorXd& joints) {
  Eigen::VectorXd q(model.nq);
  q.head<3>() = base.p;
  const Eigen::Quaterniond quat(base.R);
  q.segment<4>(3) << quat.x(), quat.y(), quat.z(), quat.w();
  q.tail(model.nj) = joints;
  return q;
}

TEST(CliCheck, ZmpOutsideTheSupportPolygonIsTheOnlyOffence) {
  TempDir dir;
  // The whole robot leans forward about its ankles while it stands on both feet, by a sin^2 bump of
  // 0.1 rad of both ankle pitches over [0.1, 1.7] s (peak at t = 0.9 s): the CoM, about 0.7 m above the
  // ankles, moves 7 cm forward, and the ZMP with it, out of the double-support polygon (measured margin
  // -9.7 mm, against the job's required +20 mm). The waist is recomputed so that the right sole keeps its
  // planned placement; the left one drifts by 0.36 mm (the feet are not exactly side by side), under the
  // 1 mm slip limit, and would sink into the floor by about 16 um: the whole robot is raised by that
  // sinking plus 10 um (its sole turns by 4e-6 rad, < 1 um at a corner), so that no sole corner goes below
  // the floor and the right foot's rise of about 26 um is far inside the slip limit too. Slow (1.6 s): the
  // ankle torques rise only to carry the leaning weight, and no joint comes near its velocity limit.
  const pipeline::Robot robot = pipeline::load_robot({});
  const model::Model& model = robot.model;
  model::Data data(model);
  const Eigen::Index right_ankle = pos_column("RLEG_JOINT4"), left_ankle = pos_column("LLEG_JOINT4");
  const auto pos = write_edited_walk(dir, "leaning", [&](double t, io::MotionFiles& m, Eigen::Index k) {
    const double lean = 0.1 * sin2_bump(t, 0.1, 1.6);
    if (lean == 0.0) return;
    auto& waist = *m.waist;
    const spatial::SE3 planned_base(spatial::rpy_to_rotation(waist.rpy.row(k).transpose()),
                                    waist.position.row(k).transpose());
    Eigen::VectorXd joints = m.pos.angles.row(k).transpose();
    dynamics::forward_kinematics(model, data, configuration(model, planned_base, joints));
    const spatial::SE3 right_sole =
        dynamics::update_frame_placement(model, data, robot.feet.right_sole_frame);
    const double left_height =
        dynamics::update_frame_placement(model, data, robot.feet.left_sole_frame).p.z();
    joints[right_ankle] += lean;
    joints[left_ankle] += lean;
    m.pos.angles.row(k) = joints.transpose();
    dynamics::forward_kinematics(model, data, configuration(model, spatial::SE3::Identity(), joints));
    spatial::SE3 base =
        right_sole * dynamics::update_frame_placement(model, data, robot.feet.right_sole_frame).inverse();
    dynamics::forward_kinematics(model, data, configuration(model, base, joints));
    const double sinking =
        left_height - dynamics::update_frame_placement(model, data, robot.feet.left_sole_frame).p.z();
    base.p.z() += std::max(sinking, 0.0) + 1e-5;
    waist.position.row(k) = base.p.transpose();
    waist.rpy.row(k) = spatial::rotation_to_rpy(base.R, waist.rpy.row(k).transpose()).transpose();
  });
  const YAML::Node v = expect_only_offence(dir, pos, "zmp", "ZMP", 0.9);
  if (!v) return;
  EXPECT_NEAR(v["limit"].as<double>(), 0.02, 1e-12);  // the job's stability.zmp_margin
  // Outside the polygon (negative margin): measured -9.7 mm; +-1 mm is the ZMP moving 1 mm per ~1 mrad of
  // lean (-9.7 mm at 0.1 rad, +15 mm at 0.08 rad), so it pins the lean's effect to 1 %.
  EXPECT_NEAR(v["value"].as<double>(), -0.0097, 0.001);
}

TEST(CliCheck, SupportFootSlipIsTheOnlyOffence) {
  TempDir dir;
  // While the robot stands on its left foot alone ([1.8, 2.5] s; the right foot swings), the waist, and
  // with it the whole robot, slides 3 mm forward and back by a sin^2 bump (peak at t = 2.15 s): the left
  // foot slips 3 mm (limit 1 mm) without rotating. Slow enough that the ZMP moves by under 1 cm along
  // the foot's length, where the walk's ZMP has more than 6 cm to spare, and the torques barely change.
  const auto pos = write_edited_walk(dir, "slipping", [&](double t, io::MotionFiles& m, Eigen::Index k) {
    m.waist->position(k, 0) += 0.003 * sin2_bump(t, 1.8, 0.7);
  });
  const YAML::Node v = expect_only_offence(dir, pos, "slip", "left foot", 2.15);
  if (!v) return;
  EXPECT_NEAR(v["limit"].as<double>(), 1e-3, 1e-12);  // the check's default --slip
  // A rigid translation: the foot moves by the waist's 3 mm exactly (measured 3 mm to 1e-16).
  EXPECT_NEAR(v["value"].as<double>(), 0.003, 1e-9);
}

// Issue 13: today's boxing output (tests/data/README.md) has the right hand 16.8 mm inside the head at
// t = 19.78 s, 106 samples closer than the 0.01 m safety distance; it passes every limit, so the collision
// is its one offence.
TEST(CliCheck, HandInTheHeadIsTheOnlyOffence) {
  TempDir dir;
  const RunResult r = run_mimic({"check", sample("tests/data/boxing_hand_in_head.pos").string(), "--report",
                                 (dir / "r.json").string()});
  EXPECT_EQ(r.exit_code, 4) << r.describe();
  EXPECT_NE(r.out.find("VIOLATIONS (1 kinds of offence"), std::string::npos) << r.describe();
  EXPECT_NEAR(offender_time(r.out, "collision", "HEAD_LINK1 / RARM_LINK6"), 19.78, kHalfSample)
      << r.describe();
  EXPECT_NE(r.out.find("(106 samples)"), std::string::npos) << r.describe();
  const YAML::Node report = YAML::LoadFile((dir / "r.json").string());
  const YAML::Node s = report["summary"];
  EXPECT_TRUE(s["geometry_checked"].as<bool>());
  EXPECT_EQ(s["closest_pair"].as<std::string>(), "HEAD_LINK1 / RARM_LINK6");
  // 16.8 mm deep (tests/data/README.md, to its 0.1 mm).
  EXPECT_NEAR(s["min_pair_distance_m"].as<double>(), -0.0168, 1e-4);
  EXPECT_EQ(s["safety_distance_m"].as<double>(), 0.01);
  EXPECT_EQ(s["samples_below_safety_distance"].as<int>(), 106);
  EXPECT_EQ(s["samples_below_ground"].as<int>(), 0);
  ASSERT_EQ(report["violations"].size(), 1u);
  EXPECT_EQ(report["violations"][0]["kind"].as<std::string>(), "collision");
  EXPECT_EQ(report["violations"][0]["samples"].as<int>(), 106);
}

// Today's smoothed bar walk (tests/data/README.md): the right toe 9.8 mm below the floor at t = 2.295 s,
// 47 samples below; with its job (payload, contact phases) nothing else is wrong.
TEST(CliCheck, ToeBelowTheFloorIsTheOnlyOffence) {
  TempDir dir;
  const YAML::Node v = expect_only_offence(dir, sample("tests/data/walk_bar_smooth_toe_below_floor.pos"),
                                           "ground", "right foot", 2.295);
  if (!v) return;
  EXPECT_NEAR(v["value"].as<double>(), -0.0098, 1e-4);
  EXPECT_EQ(v["limit"].as<double>(), 0.0);
  EXPECT_EQ(v["samples"].as<int>(), 47);
  const YAML::Node s = YAML::LoadFile((dir / "r.json").string())["summary"];
  EXPECT_EQ(s["lowest_corner"].as<std::string>(), "right");
  EXPECT_NEAR(s["min_sole_corner_height_m"].as<double>(), -0.0098, 1e-4);
  EXPECT_EQ(s["samples_below_ground"].as<int>(), 47);
}

// The planned walk's closest pair decides --safety-distance: a distance above it fails on that pair.
TEST(CliCheck, SafetyDistanceOptionIsTheBound) {
  TempDir dir;
  const auto planned = sample("data/motions/walk_bar_planned.pos").string();
  std::vector<std::string> args = {"check", planned, "--report", (dir / "r.json").string()};
  const auto job = walk_job();
  args.insert(args.end(), job.begin(), job.end());
  const RunResult r = run_mimic(args);
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("no self-collision, no sole corner below the floor"), std::string::npos)
      << r.describe();
  const YAML::Node s = YAML::LoadFile((dir / "r.json").string())["summary"];
  const double closest = s["min_pair_distance_m"].as<double>();
  const std::string pair = s["closest_pair"].as<std::string>();
  EXPECT_GT(closest, 0.01);
  EXPECT_EQ(s["samples_below_safety_distance"].as<int>(), 0);
  // The planned feet are flat on the floor: the lowest corner is at z = 0 to the leg IK's precision.
  EXPECT_NEAR(s["min_sole_corner_height_m"].as<double>(), 0.0, 1e-6);

  args.push_back("--safety-distance");
  args.push_back(std::to_string(closest + 1e-3));
  const RunResult strict = run_mimic(args);
  EXPECT_EQ(strict.exit_code, 4) << strict.describe();
  EXPECT_FALSE(std::isnan(offender_time(strict.out, "collision", pair))) << strict.describe();

  const RunResult bad = run_mimic({"check", planned, "--safety-distance", "0.5"});
  EXPECT_EQ(bad.exit_code, 2) << bad.describe();
  EXPECT_NE(bad.err.find("--safety-distance"), std::string::npos) << bad.describe();
}

// Support phases detected from the feet (no job, issues 14 and 16: check reads motions other tools made).
// The planned walk's swing feet leave and reach the floor slowly; detection dates lift-off and touchdown
// where the sole leaves its placement, so the walk passes without its job's `contacts:` (before, the
// slow ends of each swing were taken for support and reported as 2.6 mm of slip).
TEST(CliCheck, ShippedPlannedWalkPassesWithoutItsJob) {
  TempDir dir;
  const RunResult r = run_mimic(
      {"check", sample("data/motions/walk_bar_planned.pos").string(), "--report", (dir / "r.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("OK: every limit holds"), std::string::npos) << r.describe();
  // Measured 4.6e-16 m: the detected supports are the planned ones, where the feet are held exactly.
  EXPECT_LT(YAML::LoadFile((dir / "r.json").string())["summary"]["max_slip_m"].as<double>(), 1e-9);
}

// A support foot sliding on the floor is slip for detection too: while the robot stands on both feet
// (the first 1.6 s), the waist, and with it the whole robot, slides 5 mm forward over 0.5 s (minimum jerk,
// so that the ZMP moves by under a centimetre) and stays there: both feet are flat on the floor and move
// 5 mm, and the check without the job reports both as slipping, by the slide's 5 mm.
TEST(CliCheck, FootSlidingOnTheFloorIsSlipWithoutTheJob) {
  TempDir dir;
  const auto pos = write_edited_walk(dir, "sliding", [&](double t, io::MotionFiles& m, Eigen::Index k) {
    const double tau = std::clamp((t - 0.5) / 0.5, 0.0, 1.0);
    m.waist->position(k, 0) += 0.005 * tau * tau * tau * (10.0 - 15.0 * tau + 6.0 * tau * tau);
  });
  const RunResult r = run_mimic({"check", pos.string(), "--report", (dir / "r.json").string()});
  EXPECT_EQ(r.exit_code, 4) << r.describe();
  const YAML::Node report = YAML::LoadFile((dir / "r.json").string());
  std::set<std::string> slipping;
  for (const YAML::Node& v : report["violations"]) {
    EXPECT_EQ(v["kind"].as<std::string>(), "slip") << r.describe();
    slipping.insert(v["where"].as<std::string>());
    EXPECT_NEAR(v["value"].as<double>(), 0.005, 1e-9) << r.describe();
  }
  EXPECT_EQ(slipping, (std::set<std::string>{"left foot", "right foot"})) << r.describe();
}

// The same motion passes once the joint is back inside its range: the violation above is the bump's.
TEST(CliCheck, SmallBumpPasses) {
  TempDir dir;
  const auto pos = write_bumped_walk(dir, 4.0, 1.0, 0.5);
  expect_check_passes(pos, walk_job());
}

// The samples are checked on --threads threads (evaluation/check.hpp: each sample writes its own entries,
// the worst ones are taken in sample order): the printed verdict and the JSON report are the same for 1, 2
// and 3 threads, on a motion with an offence (its worst sample and count included).
TEST(CliCheck, ThreadsGiveTheSameReport) {
  TempDir dir;
  std::vector<std::string> outputs, reports;
  for (const char* threads : {"1", "2", "3"}) {
    const fs::path report = dir / (std::string("r") + threads + ".json");
    const RunResult r = run_mimic({"check", sample("tests/data/boxing_hand_in_head.pos").string(),
                                   "--threads", threads, "--report", report.string()});
    EXPECT_EQ(r.exit_code, 4) << r.describe();
    outputs.push_back(r.out);
    reports.push_back(read_text(report));
  }
  EXPECT_EQ(outputs[1], outputs[0]);
  EXPECT_EQ(outputs[2], outputs[0]);
  EXPECT_EQ(reports[1], reports[0]);
  EXPECT_EQ(reports[2], reports[0]);
  EXPECT_NE(run_mimic({"check", sample("tests/data/boxing_hand_in_head.pos").string(), "--threads", "-1"})
                .exit_code,
            0);
}

}  // namespace
}  // namespace mimic::test
