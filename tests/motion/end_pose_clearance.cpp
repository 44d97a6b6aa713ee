// The pinned end poses cleared of self-collision (motion/end_pose_clearance.hpp): a pose already clear is
// left bit for bit; G1's first and last poses of data/mocap/boxing.bvh, 5 and 11.5 cm deep (deeper than the
// least-norm steps alone resolve: they jam the arm at its limits), are cleared by the trust-region steps.
#include "mimic/motion/end_pose_clearance.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "mimic/geometry/collision_data.hpp"
#include "mimic/geometry/distances.hpp"
#include "mimic/model/data.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/motion/active_joints.hpp"
#include "mimic/motion/collision_screening.hpp"
#include "support/shared_data.hpp"

namespace mimic::motion {
namespace {

// The safety distance and the rows' margin beyond it, as optimize_motion asks.
constexpr double kTarget = 0.01 + 1e-3;

struct Clearance {
  model::Robot robot;
  geometry::CollisionModel cmodel = geometry::build_collision_model(robot.model, robot.description);
  std::vector<int> active = active_joint_indices(robot.model, robot.description);
  std::vector<int> pairs = movable_pairs(robot.model, cmodel, active);
  model::ScaledLimits limits = model::scaled_limits(robot.model, {});

  explicit Clearance(model::Robot r) : robot(std::move(r)) {}

  double min_distance(const Eigen::VectorXd& q) const {
    model::Data data(robot.model);
    geometry::CollisionData cdata(robot.model, cmodel);
    geometry::compute_distances(robot.model, data, cmodel, cdata, q);
    double d = std::numeric_limits<double>::infinity();
    for (const int p : pairs) d = std::min(d, cdata.distance[p]);
    return d;
  }
};

TEST(EndPoseClearance, APoseAlreadyClearIsLeftBitForBit) {
  const Clearance c(
      model::load_robot(model::default_robot_description_path(), std::nullopt, test::hrp2_urdf().string()));
  Eigen::VectorXd q = c.robot.description.nominal_q(c.robot.model);
  ASSERT_GE(c.min_distance(q), kTarget);
  const Eigen::VectorXd before = q;
  const EndPoseClearance result =
      clear_end_pose(c.robot.model, c.cmodel, c.pairs, c.active, c.limits, kTarget, q);
  EXPECT_TRUE(result.cleared);
  EXPECT_EQ(result.iterations, 0);
  EXPECT_EQ(result.shift, 0.0);
  EXPECT_EQ(q, before);
}

// The first and last samples of G1's kinematic retarget of data/mocap/boxing.bvh (`mimic retarget
// --robot g1 --kinematic-only -o X.csv`, rows 1 and 2376, rounded to 1e-4 rad), in G1's joint order: the
// hands hang 5 cm inside the hip motors' capsules, and at the end the right hand is 11.5 cm inside the head.
constexpr double kFirst[29] = {-0.2477, 0.0,     0.0,     0.6177,  -0.3701, 0.0,    -0.2477, 0.0,
                               0.0,     0.6177,  -0.3701, 0.0,     0.0,     0.0,    -0.0158, 0.0042,
                               0.0823,  -1.2867, 1.2404,  -0.0204, 0.0409,  0.0761, 0.0042,  -0.0823,
                               1.2867,  1.2404,  0.0204,  0.0409,  -0.0761};
constexpr double kLast[29] = {-0.2819, 0.0,     0.0,     0.6922,  -0.4102, 0.0,     -0.2819, 0.0,
                              0.0,     0.6922,  -0.4102, 0.0,     -0.4790, -0.3830, 0.1952,  1.9420,
                              2.2515,  2.6156,  -0.9523, -1.5589, -0.7482, -0.0450, -1.3665, 0.7362,
                              0.6192,  -0.7039, 1.1887,  -0.1782, 0.0071};

TEST(EndPoseClearance, G1sBoxingEndsDeepInsideTheBodyAreMovedOut) {
  MIMIC_REQUIRE_SHARED(urdf, "robots/g1/g1_29dof_rev_1_0.urdf");
  const Clearance c(model::load_robot((test::source_dir() / "config/robots/g1.yaml").string(), std::nullopt,
                                      urdf.string()));
  ASSERT_EQ(c.robot.model.nj, 29);
  for (const double* joints : {kFirst, kLast}) {
    Eigen::VectorXd q = c.robot.description.nominal_q(c.robot.model);
    q.tail(29) = Eigen::Map<const Eigen::VectorXd>(joints, 29);
    const Eigen::VectorXd reference = q;
    const double before = c.min_distance(q);
    ASSERT_LT(before, -0.04);  // several centimetres deep
    const EndPoseClearance result =
        clear_end_pose(c.robot.model, c.cmodel, c.pairs, c.active, c.limits, kTarget, q);
    ASSERT_TRUE(result.cleared) << "from " << before << " m to " << result.min_distance;
    EXPECT_GE(c.min_distance(q), kTarget);
    EXPECT_DOUBLE_EQ(result.min_distance, c.min_distance(q));
    EXPECT_GT(result.shift, 0.0);
    for (const int j : c.active) {
      const double angle = q[c.robot.model.idx_q(j)];
      EXPECT_GE(angle, c.limits.lower[j]) << c.robot.model.joint_names[j];
      EXPECT_LE(angle, c.limits.upper[j]) << c.robot.model.joint_names[j];
    }
    // Only the active joints move.
    for (int j = 0; j < c.robot.model.nj; ++j) {
      if (std::find(c.active.begin(), c.active.end(), j) != c.active.end()) continue;
      EXPECT_EQ(q[c.robot.model.idx_q(j)], reference[c.robot.model.idx_q(j)]) << c.robot.model.joint_names[j];
    }
  }
}

}  // namespace
}  // namespace mimic::motion
