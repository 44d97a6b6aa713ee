// The walking pattern of the shipped seed-001 scenario (config/walk/bar_walk.yaml: 6 steps, the waist lowered
// by 6 cm, the bar lifted in the right hand), checked from its configurations alone: feet, ZMP, limits. The
// scenario is built here from the footsteps and the bar as the job states them; tests/pipeline/walk.cpp
// runs the job itself and checks the files it writes.
#include "mimic/walking/walking_pattern.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/model/payload.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/spatial/explog.hpp"
#include "mimic/stability/ground_reaction.hpp"
#include "mimic/stability/leg_refit.hpp"
#include "mimic/walking/walking_evaluation.hpp"
#include "support/shared_data.hpp"

namespace mimic::walking {
namespace {

using model::ContactPhase;
using model::left_foot_in_contact;
using model::right_foot_in_contact;
using stability::Feet;

using spatial::SE3;

// Seed 001's bar as config/walk/bar_walk.yaml states it: 0.7 kg, COM 0.65 m along the gripper's x.
model::Payload bar() {
  return {"r_gripper", spatial::Inertia(0.7, spatial::Vec3(0.65, 0.0, 0.0),
                                        spatial::Vec3(7.875e-5, 0.23337, 0.23337).asDiagonal())};
}

struct Scenario {
  model::RobotDescription description = model::default_robot_description();
  model::Model model =
      model::with_payload(model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2()), bar());
  FootstepPlan plan = load_footsteps(test::source_dir() / "config" / "walk" / "bar_steps.yaml");
  WalkSchedule schedule{plan, description.right_sole, description.left_sole};
  UpperBodyTrajectory upper_body =
      load_upper_body_keyframes(plan.upper_body, model, description.nominal_q(model).tail(model.nj),
                                stability::Legs::of(model, Feet::from(model, description)).joints());
  WalkingPattern pattern = generate_walking_pattern(model, description, schedule, upper_body, options(1));

  static WalkingOptions options(int dynamics_filter_passes) {
    WalkingOptions o;  // Kajita 2003 defaults: 5 ms, 1.6 s, Q = 1, R = 1e-6
    o.dynamics_filter_passes = dynamics_filter_passes;
    return o;
  }
  std::vector<SE3> soles(const std::string& frame) const {
    model::Data data(model);
    std::vector<SE3> out;
    for (Eigen::Index k = 0; k < pattern.size(); ++k) {
      dynamics::forward_kinematics(model, data, pattern.motion.q.col(k));
      out.push_back(dynamics::update_frame_placement(model, data, model.frame_index(frame)));
    }
    return out;
  }
};

const Scenario& scenario() {
  static const Scenario s;
  return s;
}

TEST(WalkingPattern, ShippedScenarioHasTheSeedExperimentShape) {
  const Scenario& s = scenario();
  EXPECT_EQ(s.plan.steps.size(), 6u);
  EXPECT_NEAR(s.schedule.duration(), 8.7, 1e-12);
  EXPECT_EQ(s.pattern.size(), 1741);  // 8.7 s at 200 Hz, both ends included
  EXPECT_DOUBLE_EQ(s.pattern.motion.times[1], 0.005);
  // zc: the CoM height of half-sitting with the bar, 0.8078 m without it (hrp2.md section 3 note 8); the bar
  // lowers it by 1.1 mm (measured 0.80667 m).
  EXPECT_NEAR(s.pattern.com_height, 0.8078, 0.003);
  // Every sole within reach at the planned waist heights: the pattern lowers nothing.
  EXPECT_EQ(std::count(s.pattern.waist_lowering.begin(), s.pattern.waist_lowering.end(), 0.0),
            s.pattern.size());
  // The waist goes down by 6 cm; the CoM forward by 0.75 m, as both feet (two half strides and two full ones
  // each). (The waist itself goes 2 cm less far: the lifted bar moves the CoM forward of the waist.)
  const Eigen::Index last = s.pattern.size() - 1;
  // Waist heights: the nominal value minus the plan's changes, round-off only. The CoM ends where the
  // preview control has settled it: measured 3.3e-5 m short of the feet's 0.75 m.
  EXPECT_NEAR(s.pattern.motion.q(2, 0), 0.648702, 1e-12);
  EXPECT_NEAR(s.pattern.motion.q(2, last), 0.648702 - 0.06, 1e-12);
  EXPECT_NEAR(s.pattern.com(last, 0) - s.pattern.com(0, 0), 0.75, 3e-4);
  // The multibody CoM (bar included) is the preview-control CoM at every sample.
  model::Data data(s.model);
  double worst = 0.0;
  for (Eigen::Index k = 0; k < s.pattern.size(); ++k) {
    const auto& com = dynamics::center_of_mass(s.model, data, s.pattern.motion.q.col(k));
    worst = std::max(worst, (com.head<2>() - s.pattern.com.row(k).head<2>().transpose()).norm());
  }
  EXPECT_LT(worst, 1e-8);  // the waist correction stops at 1e-9 m: measured 1.0e-9
}

TEST(WalkingPattern, SupportFeetStayStillAndTheSwingFootLandsOnItsFootstep) {
  const Scenario& s = scenario();
  const std::vector<SE3> right = s.soles(s.description.frames.right_sole),
                         left = s.soles(s.description.frames.left_sole);
  double slip = 0.0, slip_angle = 0.0, landing = 0.0;
  int landings = 0;
  for (const bool is_right : {true, false}) {
    const std::vector<SE3>& sole = is_right ? right : left;
    Eigen::Index anchor = -1;
    for (Eigen::Index k = 0; k < s.pattern.size(); ++k) {
      const ContactPhase phase = s.pattern.motion.phases[static_cast<std::size_t>(k)];
      const bool contact = is_right ? right_foot_in_contact(phase) : left_foot_in_contact(phase);
      if (!contact) {
        anchor = -1;
        continue;
      }
      if (anchor < 0) {
        anchor = k;
        // Touch-down (or t = 0): flat on the ground, where the plan puts this foot at that time.
        const SE3 planned =
            is_right ? s.schedule.at(s.pattern.motion.times[static_cast<std::size_t>(k)]).right_sole
                     : s.schedule.at(s.pattern.motion.times[static_cast<std::size_t>(k)]).left_sole;
        landing = std::max(landing, (sole[static_cast<std::size_t>(k)].p - planned.p).norm());
        EXPECT_NEAR(sole[static_cast<std::size_t>(k)].p.z(), 0.0, 1e-9);  // the leg IK's 1e-9
        ++landings;
      }
      const SE3& a = sole[static_cast<std::size_t>(anchor)];
      const SE3& b = sole[static_cast<std::size_t>(k)];
      slip = std::max(slip, (b.p - a.p).norm());
      slip_angle = std::max(slip_angle, spatial::log3(a.R.transpose() * b.R).norm());
    }
  }
  // Landing on the footsteps of the YAML itself, not only on the schedule's poses. Every foot pose is the
  // leg IK's, solved to 1e-9 m / rad (measured 3e-16 in slip, angle, landing and footsteps); the
  // requirement (issue 8) is 0.1 mm and 0.01 degree.
  const FootPlacement last_right = s.plan.steps[4].target, last_left = s.plan.steps[5].target;
  EXPECT_LT((right.back().p.head<2>() - last_right.position).norm(), 1e-9);
  EXPECT_LT((left.back().p.head<2>() - last_left.position).norm(), 1e-9);
  std::printf("support-foot slip %.3g m, %.3g deg; landing error %.3g m over %d contacts\n", slip,
              slip_angle * 180.0 / M_PI, landing, landings);
  EXPECT_EQ(landings, 2 + 6);  // both feet at t = 0, then one touch-down per step
  EXPECT_LE(slip, 1e-9);
  EXPECT_LE(slip_angle, 1e-9);
  EXPECT_LE(landing, 1e-9);
}

TEST(WalkingPattern, JointAnglesAndVelocitiesStayWithinTheLimitsAt200Hz) {
  const Scenario& s = scenario();
  const model::Model& m = s.model;
  // The forward differences (what a 200 Hz controller commands), the motion's v (model::differentiate:
  // central inside, one-sided at the ends) and the largest h/2 |a| / limit.
  double peak_ratio = 0.0, peak_v_ratio = 0.0, half_step_acceleration = 0.0;
  for (Eigen::Index k = 0; k < s.pattern.size(); ++k) {
    for (int j = 0; j < m.nj; ++j) {
      const double q = s.pattern.motion.q(m.idx_q(j), k);
      EXPECT_GE(q, m.lower_limit[j]) << m.joint_names[static_cast<std::size_t>(j)] << " at sample " << k;
      EXPECT_LE(q, m.upper_limit[j]) << m.joint_names[static_cast<std::size_t>(j)] << " at sample " << k;
      if (k + 1 < s.pattern.size()) {
        const double qdot = (s.pattern.motion.q(m.idx_q(j), k + 1) - q) / 0.005;
        peak_ratio = std::max(peak_ratio, std::abs(qdot) / m.velocity_limit[j]);
      }
      peak_v_ratio =
          std::max(peak_v_ratio, std::abs(s.pattern.motion.v(m.idx_v(j), k)) / m.velocity_limit[j]);
      half_step_acceleration =
          std::max(half_step_acceleration,
                   0.5 * 0.005 * std::abs(s.pattern.motion.a(m.idx_v(j), k)) / m.velocity_limit[j]);
    }
  }
  std::printf("peak |qdot| / velocity limit %.6f (forward differences), %.6f (v)\n", peak_ratio,
              peak_v_ratio);
  EXPECT_LT(peak_ratio, 1.0);
  // The summary of `mimic walk` reports the peak of the motion's v, the velocity every other report uses.
  const WalkingSummary summary = summarize_walking_pattern(s.model, s.description, s.schedule, s.pattern);
  EXPECT_EQ(summary.velocity.ratio, peak_v_ratio);
  // A central difference is the mean of the two forward differences around it, so it differs from either by
  // h/2 times the second difference (motion.a inside); the ends are one-sided, equal to a forward one. The
  // two peaks are then at most max h/2 |a| / limit apart (measured 1.3e-4 apart).
  EXPECT_LE(std::abs(summary.velocity.ratio - peak_ratio), half_step_acceleration + 1e-12);
  EXPECT_EQ(summary.steps, 6);
  EXPECT_GT(summary.min_angle_margin, 0.0);
  EXPECT_LE(summary.max_support_slip, 1e-9);  // the leg IK's 1e-9, as above (measured 3e-16)
}

TEST(WalkingPattern, StartsAndEndsPracticallyAtRest) {
  const Scenario& s = scenario();
  const Eigen::Index n = s.pattern.size();
  const double start_speed = (s.pattern.motion.q.col(1) - s.pattern.motion.q.col(0)).norm() / 0.005;
  const double end_speed = (s.pattern.motion.q.col(n - 1) - s.pattern.motion.q.col(n - 2)).norm() / 0.005;
  std::printf("configuration speed at the start %.2g, at the end %.2g (rad/s or m/s)\n", start_speed,
              end_speed);
  // The 1.6 s hold keeps the first transfer out of the preview window at t = 0 (measured 1e-4); the final
  // 1.5 s hold lets the CoM settle over the middle of the feet (measured 3e-3).
  EXPECT_LT(start_speed, 1e-3);
  EXPECT_LT(end_speed, 1e-2);
}

TEST(WalkingPattern, DynamicsFilterBringsTheMultibodyZmpToTheReference) {
  const Scenario& s = scenario();
  const WalkingPattern cart_only =
      generate_walking_pattern(s.model, s.description, s.schedule, s.upper_body, Scenario::options(0));
  const auto deviation = [](const WalkingPattern& p) {
    return (p.zmp.leftCols(2) - p.zmp_reference.leftCols(2)).rowwise().norm().maxCoeff();
  };
  std::printf("max ZMP deviation: cart-table alone %.4f m, with the dynamics filter %.4f m\n",
              deviation(cart_only), deviation(s.pattern));
  // Measured 26.5 mm and 2.5 mm.
  EXPECT_LT(deviation(s.pattern), 0.25 * deviation(cart_only));
}

// Turning on the spot by 0.2 rad per step, to 0.6 rad: the soles stay on a circle of radius 0.095 m about
// the initial mid-point, the waist yaw follows the mean of the feet's.
std::string turning_plan() {
  std::string yaml = R"(initial_stance:
  right: { position: [0.00949, -0.095] }
  left: { position: [0.00949, 0.095] }
timing: { single_support: 0.8, double_support: 0.2 }
initial_hold: 1.5
steps:
)";
  const auto step = [&](const char* foot, double yaw, double side) {
    char line[160];
    std::snprintf(line, sizeof line, "  - { foot: %s, position: [%.17g, %.17g], yaw: %.17g }\n", foot,
                  0.00949 - side * 0.095 * std::sin(yaw), side * 0.095 * std::cos(yaw), yaw);
    yaml += line;
  };
  for (const double yaw : {0.2, 0.4, 0.6}) {
    step("left", yaw, 1.0);
    step("right", yaw, -1.0);
  }
  return yaml;
}

TEST(WalkingPattern, TurningStepsKeepTheFeetAndTheZmp) {
  const Scenario& s = scenario();
  const FootstepPlan plan = parse_footsteps(turning_plan(), "turn.yaml");
  const WalkSchedule schedule(plan, s.description.right_sole, s.description.left_sole);
  const WalkingPattern p = generate_walking_pattern(
      s.model, s.description, schedule,
      UpperBodyTrajectory::fixed(s.description.nominal_q(s.model).tail(s.model.nj)), Scenario::options(1));
  const WalkingSummary summary = summarize_walking_pattern(s.model, s.description, schedule, p);
  std::printf("turning: min ZMP margin %.4f m, slip %.2g m, landing %.2g m, peak velocity ratio %.3f\n",
              summary.min_zmp_margin, summary.max_support_slip, summary.max_landing_error,
              summary.velocity.ratio);
  EXPECT_GT(summary.min_zmp_margin, 0.02);
  // The leg IK's 1e-9 m / rad, as for the straight walk (measured 3.7e-16 m, 3.4e-16 rad, 1.9e-16 m).
  EXPECT_LE(summary.max_support_slip, 1e-9);
  EXPECT_LE(summary.max_support_rotation, 1e-9);
  EXPECT_LE(summary.max_landing_error, 1e-9);
  EXPECT_LT(summary.velocity.ratio, 1.0);
  // The waist ends facing the feet.
  const Eigen::Quaterniond waist(Eigen::Vector4d(p.motion.q.col(p.size() - 1).segment<4>(3)));
  const Eigen::Matrix3d r = waist.toRotationMatrix();
  EXPECT_NEAR(std::atan2(r(1, 0), r(0, 0)), 0.6, 1e-12);  // the plan's yaw through a quaternion: round-off
}

// The first four steps of CMU 131_01's plan on HRP-2 (pipeline/clip_footstep_plan, as `mimic -v retarget
// --whole-body` logs them): the left foot steps in place, then at once 0.24 m forward turned 0.3 rad, back
// to 0.14 m after a long transfer, then the right foot. The preview control keeps the CoM over the right
// sole while the left one reaches forward, so at the half-sitting waist height the left sole leaves the
// leg's reach at the end of the second swing (the whole-body retarget stopped there: "t = 1.745 s: the leg
// IK for l_sole is out of reach"). The pattern lowers the waist where, and about as much as, the legs need.
// One step of a plan as pipeline/clip_footstep_plan writes them (per-step timing, absolute placement).
struct StepSpec {
  Foot foot;
  double x, y, yaw, swing, transfer;
  double step_height = 0.05, waist_height_change = 0.0;
};
Footstep footstep(const StepSpec& spec) {
  Footstep s;
  s.foot = spec.foot;
  s.target.position = {spec.x, spec.y};
  s.target.yaw = spec.yaw;
  s.timing = {spec.swing, spec.transfer, spec.step_height};
  s.waist_height_change = spec.waist_height_change;
  return s;
}

FootstepPlan same_foot_twice_plan() {
  FootstepPlan plan;
  plan.source = "same_foot_twice";
  plan.initial_right.position = {0.00949, -0.095};
  plan.initial_left.position = {0.00949, 0.095};
  plan.initial_hold = 0.1;
  plan.final_hold = 1.5;
  plan.final_transfer = 0.2;
  for (const StepSpec& spec : {StepSpec{Foot::kLeft, 0.00949, 0.095, 0.0, 0.783, 0.1},
                               StepSpec{Foot::kLeft, 0.249, 0.095, 0.3, 0.7, 0.315},
                               StepSpec{Foot::kLeft, 0.138, 0.132, 0.3, 0.827, 1.688},
                               StepSpec{Foot::kRight, 0.359, -0.024, 0.093, 0.7, 0.1}})
    plan.steps.push_back(footstep(spec));
  return plan;
}

TEST(WalkingPattern, WaistIsLoweredWhereALegWouldNotReach) {
  const Scenario& s = scenario();
  const FootstepPlan plan = same_foot_twice_plan();
  const WalkSchedule schedule(plan, s.description.right_sole, s.description.left_sole);
  const UpperBodyTrajectory upper =
      UpperBodyTrajectory::fixed(s.description.nominal_q(s.model).tail(s.model.nj));

  // Without lowering (no rounds), the old failure: the left leg out of reach in the second swing.
  WalkingOptions fixed_height = Scenario::options(1);
  fixed_height.max_lowering_rounds = 0;
  try {
    generate_walking_pattern(s.model, s.description, schedule, upper, fixed_height);
    FAIL() << "the plan was walked at the half-sitting waist height";
  } catch (const InfeasibleError& e) {
    EXPECT_NE(std::string(e.what()).find("l_sole is out of reach"), std::string::npos) << e.what();
  }

  const WalkingPattern p =
      generate_walking_pattern(s.model, s.description, schedule, upper, Scenario::options(1));
  const WalkingSummary summary = summarize_walking_pattern(s.model, s.description, schedule, p);
  ASSERT_EQ(p.waist_lowering.size(), static_cast<std::size_t>(p.size()));
  const auto deepest = std::max_element(p.waist_lowering.begin(), p.waist_lowering.end());
  const double deepest_time = p.motion.times[static_cast<std::size_t>(deepest - p.waist_lowering.begin())];
  std::printf(
      "same foot twice: waist lowered by up to %.4f m at t = %.3f s; min ZMP margin %.4f m, slip %.2g m, "
      "landing %.2g m, peak velocity ratio %.3f\n",
      *deepest, deepest_time, summary.min_zmp_margin, summary.max_support_slip, summary.max_landing_error,
      summary.velocity.ratio);
  // Lowered about the end of the second swing (1.298 .. 1.998 s), by more than the margin and less than
  // the bound (measured 0.048 m at 1.985 s).
  EXPECT_GT(*deepest, WalkingOptions{}.reach_margin);
  EXPECT_LT(*deepest, 0.25 * s.description.nominal_pose.waist.z());
  EXPECT_GT(deepest_time, 1.298);
  EXPECT_LT(deepest_time, 2.4);
  // Not lowered at the start and the end: the walk starts and ends in half-sitting.
  EXPECT_EQ(p.waist_lowering.front(), 0.0);
  EXPECT_EQ(p.waist_lowering.back(), 0.0);
  // The waist height is that of the plan less the lowering, sample for sample.
  for (Eigen::Index k = 0; k < p.size(); k += 50)
    EXPECT_NEAR(p.motion.q(2, k),
                s.description.nominal_pose.waist.z() - p.waist_lowering[static_cast<std::size_t>(k)], 1e-12);
  // Smooth: the lowering's second difference stays small (a continuous acceleration, below 0.5 m/s^2).
  const double dt = p.motion.times[1] - p.motion.times[0];
  for (std::size_t k = 1; k + 1 < p.waist_lowering.size(); ++k)
    ASSERT_LT(
        std::abs(p.waist_lowering[k + 1] - 2.0 * p.waist_lowering[k] + p.waist_lowering[k - 1]) / (dt * dt),
        0.5)
        << k;
  // The feet as planned, the ZMP inside the soles, the joints within their velocity limits.
  EXPECT_LE(summary.max_support_slip, 1e-9);
  EXPECT_LE(summary.max_landing_error, 1e-9);
  EXPECT_GT(summary.min_zmp_margin, 0.0);
  EXPECT_LT(summary.velocity.ratio, 1.0);
}

// G1 (config/robots/g1.yaml: nearly straight knees in its nominal stance, waist_lowering 0.03 over the first
// step as pipeline/clip_footstep_plan plans it): the first four steps of its plan for the shared Qualisys
// walk
// (`mimic -v retarget ezc3d__Qualisys.c3d --robot-config config/robots/g1.yaml --whole-body`), the left foot
// first in place, after a 0.03 s hold and a 0.1 s weight transfer. The CoM rushes over the right sole while
// the waist has only begun to go down, and the left leg leaves its reach (the whole-body retarget stopped
// at t = 0.13 s); the pattern lowers the waist where the legs need (measured 0.022 m).
TEST(WalkingPattern, G1FirstWeightTransferIsWalkedWithTheWaistLowered) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  const model::Robot robot = model::load_robot(
      (test::source_dir() / "config" / "robots" / "g1.yaml").string(), std::nullopt, urdf.string());
  FootstepPlan plan;
  plan.source = "g1_first_step";
  const auto stance = [&](const std::string& frame) {
    model::Data data(robot.model);
    dynamics::forward_kinematics(robot.model, data, robot.description.nominal_q(robot.model));
    return dynamics::update_frame_placement(robot.model, data, robot.model.frame_index(frame)).p;
  };
  const Eigen::Vector3d right = stance(robot.description.frames.right_sole);
  const Eigen::Vector3d left = stance(robot.description.frames.left_sole);
  plan.initial_right.position = right.head<2>();
  plan.initial_left.position = left.head<2>();
  plan.initial_hold = 0.03;
  plan.final_hold = 1.5;
  plan.final_transfer = 0.1;
  // G1's walking: block: 0.1 s transfers, 0.03 m step height, the waist down 0.03 m over the first step.
  for (const StepSpec& spec : {StepSpec{Foot::kLeft, left.x(), left.y(), 0.0, 1.593, 0.1, 0.03, -0.03},
                               StepSpec{Foot::kRight, 0.074, -0.079, 0.018, 0.6, 0.1, 0.03},
                               StepSpec{Foot::kLeft, 0.170, 0.144, 0.018, 0.6, 0.1, 0.03},
                               StepSpec{Foot::kRight, 0.274, -0.091, 0.018, 0.6, 0.1, 0.03, 0.03}})
    plan.steps.push_back(footstep(spec));
  const WalkSchedule schedule(plan, robot.description.right_sole, robot.description.left_sole);
  const UpperBodyTrajectory upper =
      UpperBodyTrajectory::fixed(robot.description.nominal_q(robot.model).tail(robot.model.nj));
  WalkingOptions fixed_height;
  fixed_height.max_lowering_rounds = 0;
  try {
    generate_walking_pattern(robot.model, robot.description, schedule, upper, fixed_height);
    FAIL() << "G1 walked the plan without lowering its waist";
  } catch (const InfeasibleError& e) {
    std::printf("G1 first transfer at a fixed waist height: %s\n", e.what());
  }
  const WalkingPattern p = generate_walking_pattern(robot.model, robot.description, schedule, upper);
  const WalkingSummary summary = summarize_walking_pattern(robot.model, robot.description, schedule, p);
  const double deepest = *std::max_element(p.waist_lowering.begin(), p.waist_lowering.end());
  std::printf(
      "G1 first transfer: waist lowered by up to %.4f m; min ZMP margin %.4f m, slip %.2g m, peak "
      "velocity ratio %.3f\n",
      deepest, summary.min_zmp_margin, summary.max_support_slip, summary.velocity.ratio);
  EXPECT_GT(deepest, WalkingOptions{}.reach_margin);
  EXPECT_LE(summary.max_support_slip, 1e-9);
  EXPECT_LE(summary.max_landing_error, 1e-9);
  EXPECT_GT(summary.min_zmp_margin, 0.0);
}

}  // namespace
}  // namespace mimic::walking
