// The retarget reference cleared of deep self-collision (motion/reference_clearance.hpp): a synthetic
// reference that swings G1's right hand from its nominal pose 11.5 cm into the head (the last pose of
// data/mocap/boxing.bvh's kinematic retarget, as tests/motion/end_pose_clearance.cpp) and back is
// cleared to the target at every sample, continuously, with the frame targets moved by the frames'
// displacement and the samples outside the deep run left bit for bit; a reference without a deep
// overlap (HRP-2 held at half-sitting) is not touched.
#include "mimic/motion/reference_clearance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "mimic/core/thread_pool.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/geometry/collision_data.hpp"
#include "mimic/geometry/distances.hpp"
#include "mimic/geometry/motion_distances.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/model/data.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/motion/active_joints.hpp"
#include "mimic/motion/collision_screening.hpp"
#include "mimic/motion/motion_problem.hpp"
#include "support/shared_data.hpp"

namespace mimic::motion {
namespace {

// The safety distance and the rows' margin beyond it, as optimize_motion asks.
constexpr double kTarget = 0.01 + 1e-3;
constexpr int kSlow = 4;

// G1's last pose of the kinematic boxing retarget (tests/motion/end_pose_clearance.cpp): the right hand
// 11.5 cm inside the head capsule (radius 0.0815 m), its segment nearly crossing the head's.
constexpr double kHandInHead[29] = {-0.2819, 0.0,     0.0,     0.6922,  -0.4102, 0.0,     -0.2819, 0.0,
                                    0.0,     0.6922,  -0.4102, 0.0,     -0.4790, -0.3830, 0.1952,  1.9420,
                                    2.2515,  2.6156,  -0.9523, -1.5589, -0.7482, -0.0450, -1.3665, 0.7362,
                                    0.6192,  -0.7039, 1.1887,  -0.1782, 0.0071};

struct Scene {
  model::Robot robot;
  geometry::CollisionModel cmodel = geometry::build_collision_model(robot.model, robot.description);
  std::vector<int> active = active_joint_indices(robot.model, robot.description);
  std::vector<int> pairs = movable_pairs(robot.model, cmodel, active);
  model::ScaledLimits limits = model::scaled_limits(robot.model, {});
  std::vector<int> frames = imitated_frames(robot.model, robot.description);

  explicit Scene(model::Robot r) : robot(std::move(r)) {}

  Eigen::VectorXd distances(const Eigen::VectorXd& q) const {
    model::Data data(robot.model);
    geometry::CollisionData cdata(robot.model, cmodel);
    geometry::compute_distances(robot.model, data, cmodel, cdata, q);
    return cdata.distance;
  }
  double min_distance(const Eigen::VectorXd& q) const {
    const Eigen::VectorXd d = distances(q);
    double m = std::numeric_limits<double>::infinity();
    for (const int p : pairs) m = std::min(m, d[p]);
    return m;
  }
  // Gaze and gripper positions (9) at q.
  Eigen::VectorXd frame_positions(const Eigen::VectorXd& q) const {
    model::Data data(robot.model);
    dynamics::forward_kinematics(robot.model, data, q);
    Eigen::VectorXd p(9);
    for (int f = 0; f < 3; ++f)
      p.segment<3>(3 * f) = dynamics::update_frame_placement(robot.model, data, frames[f]).p;
    return p;
  }
};

TEST(ReferenceClearance, TheDeepCriterionIsTheCoresWithinTheThinnerRadius) {
  geometry::CollisionPair capsules;
  capsules.first_radius = 0.08, capsules.second_radius = 0.04;
  EXPECT_FALSE(deep_collision(capsules, -0.079));  // cores 0.041 m apart: more than the thinner radius
  EXPECT_TRUE(deep_collision(capsules, -0.081));   // 0.039 m
  geometry::CollisionPair box = capsules;
  box.kind = geometry::PairKind::kCapsuleBox;  // a box's penetration has a normal (distances.hpp)
  EXPECT_FALSE(deep_collision(box, -0.2));
}

TEST(ReferenceClearance, AHandSwungDeepIntoTheHeadIsClearedContinuously) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  const Scene s(model::load_robot((test::source_dir() / "config/robots/g1.yaml").string(), std::nullopt,
                                  urdf.string()));
  const model::Model& model = s.robot.model;
  ASSERT_EQ(model.nj, 29);
  // 4 s at 200 Hz: nominal, a smooth swing to the hand-in-head pose and back over the middle 2.4 s (joint
  // steps up to 0.017 rad per sample, 3.4 rad/s: within G1's arm velocity limits).
  const int n = 201 * kSlow;
  Eigen::VectorXd nominal = s.robot.description.nominal_q(model);
  model::set_base_pose(model, nominal, spatial::SE3::Identity());
  Eigen::VectorXd deep = nominal;
  deep.tail(29) = Eigen::Map<const Eigen::VectorXd>(kHandInHead, 29);
  Eigen::MatrixXd q(model.nq, n), targets(9, n);
  for (int k = 0; k < n; ++k) {
    const double t = std::clamp((k - 40.0 * kSlow) / (120.0 * kSlow), 0.0, 1.0);
    const double w = 0.5 - 0.5 * std::cos(2.0 * M_PI * t);
    q.col(k) = nominal + w * (deep - nominal);
    targets.col(k) = s.frame_positions(q.col(k));
  }
  ASSERT_LT(s.min_distance(q.col(n / 2)), -0.1);
  const Eigen::MatrixXd reference = q, reference_targets = targets;

  const ReferenceClearance result =
      clear_deep_collisions(model, s.cmodel, s.pairs, s.active, s.limits, kTarget, s.frames, q, targets);
  {
    // The reference's distances on a pool (geometry/motion_distances): the same clearance and the same
    // screening, bit for bit.
    core::ThreadPool pool(2);
    Eigen::MatrixXd threaded_q = reference, threaded_targets = reference_targets;
    const ReferenceClearance threaded = clear_deep_collisions(
        model, s.cmodel, s.pairs, s.active, s.limits, kTarget, s.frames, threaded_q, threaded_targets, &pool);
    EXPECT_TRUE(threaded_q == q);
    EXPECT_TRUE(threaded_targets == targets);
    EXPECT_EQ(threaded.samples, result.samples);
    EXPECT_EQ(threaded.deepest, result.deepest);
    EXPECT_EQ(threaded.deepest_sample, result.deepest_sample);
    EXPECT_EQ(threaded.min_distance, result.min_distance);
    const PairScan scan = scan_pairs(model, s.cmodel, s.pairs, reference, kTarget);
    const PairScan threaded_scan = scan_pairs(model, s.cmodel, s.pairs, reference, kTarget, &pool);
    ASSERT_FALSE(scan.near_samples.empty());
    EXPECT_EQ(threaded_scan.near_pairs, scan.near_pairs);
    EXPECT_EQ(threaded_scan.near_samples, scan.near_samples);
    EXPECT_EQ(threaded_scan.min_distance, scan.min_distance);
    EXPECT_EQ(threaded_scan.closest_pair, scan.closest_pair);
    EXPECT_EQ(threaded_scan.closest_sample, scan.closest_sample);
    // A scan of distances computed once (optimize_motion's screening scans them twice) is the same scan.
    const PairScan shared =
        scan_pairs(geometry::motion_distances(model, s.cmodel, reference, &pool).distance, s.pairs, kTarget);
    EXPECT_EQ(shared.near_pairs, scan.near_pairs);
    EXPECT_EQ(shared.near_samples, scan.near_samples);
    EXPECT_EQ(shared.min_distance, scan.min_distance);
    EXPECT_EQ(shared.closest_pair, scan.closest_pair);
    EXPECT_EQ(shared.closest_sample, scan.closest_sample);
  }
  EXPECT_EQ(result.runs, 1);
  EXPECT_GT(result.samples, 0);
  EXPECT_EQ(result.uncleared, 0);
  EXPECT_GT(result.deepest, 0.1);
  EXPECT_EQ(s.cmodel.pair_name(result.deepest_pair).find("head_link"), 0u)
      << s.cmodel.pair_name(result.deepest_pair);
  EXPECT_GE(result.min_distance, kTarget);

  double largest_step = 0.0, largest_reference_step = 0.0;
  int moved = 0;
  for (int k = 0; k < n; ++k) {
    const bool changed = q.col(k) != reference.col(k);
    moved += changed ? 1 : 0;
    if (!changed) {
      // Untouched samples keep their targets bit for bit.
      EXPECT_EQ(targets.col(k), reference_targets.col(k)) << k;
      continue;
    }
    // Within the limits, only active joints moved, the frame targets moved with the frames.
    // Every moved sample has the hand out of the head by the target, and no other pair closer than on
    // the reference (or than the target).
    const Eigen::VectorXd d = s.distances(q.col(k)), d_reference = s.distances(reference.col(k));
    for (const int p : s.pairs) {
      const bool head = s.cmodel.pair_name(p).find("head_link") == 0;
      EXPECT_GE(d[p], head ? kTarget : std::min(kTarget, d_reference[p]))
          << k << " " << s.cmodel.pair_name(p);
    }
    for (int j = 0; j < model.nj; ++j) {
      const double angle = q(model.idx_q(j), k);
      if (std::find(s.active.begin(), s.active.end(), j) == s.active.end()) {
        EXPECT_EQ(angle, reference(model.idx_q(j), k)) << model.joint_names[j];
        continue;
      }
      EXPECT_GE(angle, s.limits.lower[j]) << model.joint_names[j];
      EXPECT_LE(angle, s.limits.upper[j]) << model.joint_names[j];
    }
    const Eigen::VectorXd shift = s.frame_positions(q.col(k)) - s.frame_positions(reference.col(k));
    EXPECT_LT((targets.col(k) - reference_targets.col(k) - shift).cwiseAbs().maxCoeff(), 1e-12) << k;
  }
  EXPECT_EQ(moved, result.samples);
  // Continuity: no sample-to-sample jump of the cleared reference is much larger than the reference's
  // own (the push-out is carried along the run, not re-read from the ill-defined gradient at each sample).
  for (int k = 0; k + 1 < n; ++k) {
    largest_step = std::max(largest_step, (q.col(k + 1) - q.col(k)).cwiseAbs().maxCoeff());
    largest_reference_step =
        std::max(largest_reference_step, (reference.col(k + 1) - reference.col(k)).cwiseAbs().maxCoeff());
  }
  EXPECT_LT(largest_step, 3.0 * largest_reference_step)
      << "largest joint step " << largest_step << " rad against the reference's " << largest_reference_step;
}

TEST(ReferenceClearance, AReferenceWithoutDeepCollisionsIsLeftBitForBit) {
  const Scene s(
      model::load_robot(model::default_robot_description_path(), std::nullopt, test::hrp2_urdf().string()));
  const model::Model& model = s.robot.model;
  Eigen::VectorXd nominal = s.robot.description.nominal_q(model);
  model::set_base_pose(model, nominal, spatial::SE3::Identity());
  Eigen::MatrixXd q = nominal.replicate(1, 50), targets = Eigen::MatrixXd::Random(9, 50);
  const Eigen::MatrixXd reference = q, reference_targets = targets;
  const ReferenceClearance result =
      clear_deep_collisions(model, s.cmodel, s.pairs, s.active, s.limits, kTarget, s.frames, q, targets);
  EXPECT_EQ(result.runs, 0);
  EXPECT_EQ(result.samples, 0);
  EXPECT_EQ(q, reference);
  EXPECT_EQ(targets, reference_targets);
}

}  // namespace
}  // namespace mimic::motion
