// Self-collision in the retarget problem (issue 13): a reference with the right hand 16.8 mm inside the
// head (tests/data/boxing_hand_in_head: today's boxing output, 1 s) comes out of the optimizer with every
// pair of shapes at least the safety distance apart: the imitation gives way. Also when the screening lets
// the pair out (no activation distance at all): the check after the solve adds it and solves again.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "mimic/core/error.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/geometry/collision_data.hpp"
#include "mimic/geometry/distances.hpp"
#include "mimic/model/base_pose.hpp"
#include "mimic/model/robot.hpp"
#include "mimic/motion/optimize_motion.hpp"
#include "mimic/optim/derivative_check.hpp"
#include "support/fixture_motion.hpp"

namespace mimic::motion {
namespace {

struct HandInHead {
  model::Robot robot = model::load_robot(model::default_robot_description_path());
  std::shared_ptr<const geometry::CollisionModel> cmodel = std::make_shared<geometry::CollisionModel>(
      geometry::build_collision_model(robot.model, robot.description));
  MotionInput input;

  HandInHead() {
    const std::string base = test::fixture_path("boxing_hand_in_head");
    input.rate = 200.0;
    input.motion = test::read_fixture(robot.model, base);
    reset_motion(input.motion.q.cols());
    const int n = input.sample_count(), nj = robot.model.nj;
    input.end_effectors.resize(9, n);
    model::Data data(robot.model);
    Eigen::VectorXd q(robot.model.nq);
    model::set_base_pose(robot.model, q, spatial::SE3::Identity());
    const model::OperationalFrames& f = robot.description.frames;
    const int frames[3] = {robot.model.frame_index(f.gaze), robot.model.frame_index(f.right_gripper),
                           robot.model.frame_index(f.left_gripper)};
    for (int k = 0; k < n; ++k) {
      q.tail(nj) = input.motion.q.col(k).tail(nj);
      dynamics::forward_kinematics(robot.model, data, q);
      for (int e = 0; e < 3; ++e)
        input.end_effectors.block<3, 1>(3 * e, k) =
            dynamics::update_frame_placement(robot.model, data, frames[e]).p;
    }
  }

  // The reference motion of n samples (its q already set): times k / rate, double support, v and a.
  void reset_motion(Eigen::Index n) {
    model::SampledMotion& motion = input.motion;
    motion.times.resize(static_cast<std::size_t>(n));
    for (Eigen::Index k = 0; k < n; ++k)
      motion.times[static_cast<std::size_t>(k)] = static_cast<double>(k) / input.rate;
    motion.phases.assign(static_cast<std::size_t>(n), model::ContactPhase::kDoubleSupport);
    model::differentiate(robot.model, motion);
  }

  // The reference's joint trajectories (nj x N).
  Eigen::MatrixXd reference_joints() const { return input.motion.q.bottomRows(robot.model.nj); }

  // The smallest distance over every pair of the model (as evaluation::check_geometry scans) of the
  // joint trajectories (nj x N).
  double min_distance(const Eigen::MatrixXd& joints) const { return sample_distances(joints).minCoeff(); }

  // Per sample (column of joints, nj x N): the smallest distance over every pair of the model.
  Eigen::VectorXd sample_distances(const Eigen::MatrixXd& joints) const {
    model::Data data(robot.model);
    geometry::CollisionData cdata(robot.model, *cmodel);
    Eigen::VectorXd q(robot.model.nq);
    model::set_base_pose(robot.model, q, spatial::SE3::Identity());
    Eigen::VectorXd lowest(joints.cols());
    for (Eigen::Index k = 0; k < joints.cols(); ++k) {
      q.tail(robot.model.nj) = joints.col(k);
      geometry::compute_distances(robot.model, data, *cmodel, cdata, q);
      lowest[k] = cdata.distance.minCoeff();
    }
    return lowest;
  }

  // Cuts the clip at its deepest sample, keeping the longer side, and holds that pose for kHold samples
  // there, so that the clip ends (or starts) at rest with the hand inside the head, as a capture that ends
  // with the arms at rest against the body; returns that end's sample.
  Eigen::Index cut_at_deepest_sample() {
    constexpr Eigen::Index kHold = 60;  // 0.3 s
    Eigen::Index deepest = 0;
    sample_distances(reference_joints()).minCoeff(&deepest);
    const Eigen::Index n = input.sample_count();
    const bool keep_start = deepest >= n / 2;
    const Eigen::Index first = keep_start ? 0 : deepest, count = keep_start ? deepest + 1 : n - deepest;
    const auto cut = [&](Eigen::MatrixXd& columns) {
      Eigen::MatrixXd held(columns.rows(), count + kHold);
      const Eigen::VectorXd pose = columns.col(deepest);
      held.middleCols(keep_start ? 0 : kHold, count) = columns.middleCols(first, count);
      held.middleCols(keep_start ? count : 0, kHold) = pose.replicate(1, kHold);
      columns = held;
    };
    cut(input.motion.q);
    cut(input.end_effectors);
    reset_motion(input.motion.q.cols());
    EXPECT_GE(static_cast<double>(input.sample_count()) / input.rate, 2.0 * trajectory::kDefaultKnotSpacing);
    return keep_start ? input.sample_count() - 1 : 0;
  }

  MotionSettings settings() const {
    MotionSettings s;
    s.solver.backend = optim::Backend::kAugmentedLagrangian;
    s.geometry.collision = cmodel;
    return s;
  }
};

TEST(SelfCollisionRows, TheHandStopsAtTheSafetyDistanceFromTheHead) {
  const HandInHead f;
  ASSERT_LT(f.min_distance(f.reference_joints()), -0.016);  // the reference: 16.8 mm deep
  const MotionResult result = optimize_motion(f.robot.model, f.robot.description, f.input, f.settings());
  ASSERT_TRUE(result.success) << result.failure;
  EXPECT_GE(result.collision_pairs, 1);
  EXPECT_EQ(result.end_shift, 0.0);  // both ends of this reference are clear
  // The rows ask kStabilizerMargin beyond the safety distance; the solver meets them to 1e-6 relative.
  const double safety = f.settings().geometry.safety_distance;
  EXPECT_GE(f.min_distance(result.joints), safety + kStabilizerMargin * (1.0 - 1e-3));
  EXPECT_EQ(result.metrics.closest_pair, "HEAD_LINK1 / RARM_LINK6");
}

// The problem's Jacobians with self-collision rows (both objectives, the pairs of every movable shape near
// the head) against central finite differences, at a point where the hand is inside the head.
TEST(SelfCollisionRows, JacobiansMatchFiniteDifferences) {
  const HandInHead f;
  // The torque objective also on a coarse grid (objective_stride 5): its limit-and-collision-only sets; and
  // with every other torque sample pair-only (ProblemOptions::pair_only_samples): the sets without limits.
  struct Case {
    Objective objective;
    int stride;
    bool pair_only;
  };
  for (const Case c : {Case{Objective::kImitation, 1, false}, Case{Objective::kTorque, 1, false},
                       Case{Objective::kTorque, 5, false}, Case{Objective::kImitation, 1, true},
                       Case{Objective::kTorque, 5, true}}) {
    SCOPED_TRACE(testing::Message() << "stride " << c.stride << (c.pair_only ? ", pair-only samples" : ""));
    ProblemOptions options;
    options.objective = c.objective;
    options.objective_stride = c.stride;
    options.geometry.collision = f.cmodel;
    for (int i = 0; i < f.input.sample_count(); i += 7) {
      options.torque_samples.push_back(i);
      if (c.pair_only && i % 14 == 7) options.pair_only_samples.push_back(i);
    }
    for (int p = 0; p < static_cast<int>(f.cmodel->pairs.size()); ++p) {
      if (f.cmodel->pair_name(p).find("HEAD_LINK1") != std::string::npos)
        options.collision_pairs.push_back(p);
    }
    MotionProblem problem(f.robot.model, f.robot.description, f.input, options);
    const Eigen::VectorXd x = problem.initial_guess();
    const optim::DerivativeCheckReport report = optim::check_derivatives(problem, x);
    EXPECT_TRUE(report.passed) << report.summary();
    // The hand-head rows are violated there: the constraint Jacobian carries them.
    optim::Evaluation e = optim::make_evaluation(problem);
    problem.evaluate(x, true, e);
    EXPECT_GT(e.inequalities.maxCoeff(), 0.0);
    EXPECT_NE(problem
                  .describe_constraint(optim::ConstraintKind::kInequality,
                                       static_cast<int>(e.inequalities.size()) - 1, 0.5)
                  .find("distance at t="),
              std::string::npos);
  }
}

// A pair-only sample keeps its pair rows and has no torque-limit rows; the other torque samples have both
// (the pinned ends only their limit rows).
TEST(SelfCollisionRows, PairOnlySamplesHaveNoTorqueLimitRows) {
  const HandInHead f;
  ProblemOptions options;
  options.objective = Objective::kTorque;
  options.objective_stride = 5;
  options.geometry.collision = f.cmodel;
  options.collision_pairs = {0, 1};
  const int n = f.input.sample_count();
  options.torque_samples = {0, 10, 20, 30, n - 1};
  options.pair_only_samples = {10, 30};
  const MotionProblem problem(f.robot.model, f.robot.description, f.input, options);
  std::map<int, std::set<std::string>> names;  // per sample: the terms of its inequality rows
  for (const std::string& key : problem.row_keys(terms::RowKind::kInequality)) {
    std::istringstream in(key);
    std::string first, word, name;
    in >> first;
    if (first == "velocity") continue;
    // "<sample> <term name> <term rows> <row> upper|lower": the name is the words before the count.
    while (in >> word && !std::isdigit(static_cast<unsigned char>(word[0])))
      name += (name.empty() ? "" : " ") + word;
    names[std::stoi(first)].insert(name);
  }
  const std::set<std::string> both{"torque limits", "self-collision"}, limits{"torque limits"},
      pairs{"self-collision"};
  EXPECT_EQ(names[0], limits);
  EXPECT_EQ(names[10], pairs);
  EXPECT_EQ(names[20], both);
  EXPECT_EQ(names[30], pairs);
  EXPECT_EQ(names[n - 1], limits);
  EXPECT_EQ(names.size(), 5u);
}

TEST(SelfCollisionRows, APairTheScreeningLeftOutIsAddedByTheCheck) {
  const HandInHead f;
  MotionSettings settings = f.settings();
  settings.collision_activation = -1.0;  // no pair comes within safety - 1 m: none screened in
  const MotionResult result = optimize_motion(f.robot.model, f.robot.description, f.input, settings);
  ASSERT_TRUE(result.success) << result.failure;
  EXPECT_GE(result.solves, 2);
  EXPECT_GE(result.collision_pairs, 1);
  EXPECT_GE(f.min_distance(result.joints), settings.geometry.safety_distance);
}

// A clip that ends (or starts) with the hand inside the head: the spline's end is pinned to the reference
// at rest, so no trajectory could leave it; optimize_motion moves that end pose out first
// (end_pose_clearance.hpp), and every sample of the solution, the pinned end included, keeps the distance.
TEST(SelfCollisionRows, AClipEndingWithTheHandInTheHeadHasItsEndMovedOut) {
  HandInHead f;
  const Eigen::Index end = f.cut_at_deepest_sample();
  ASSERT_LT(f.sample_distances(f.reference_joints())[end], -0.016);  // the pinned end: 16.8 mm deep

  const MotionResult result = optimize_motion(f.robot.model, f.robot.description, f.input, f.settings());
  ASSERT_TRUE(result.success) << result.failure;
  EXPECT_GT(result.end_shift, 0.0);
  const double safety = f.settings().geometry.safety_distance;
  const Eigen::VectorXd after = f.sample_distances(result.joints);
  // The end pose is cleared to the rows' own target (kStabilizerMargin beyond the safety distance), the
  // samples between by the rows, to the solver's 1e-6 relative.
  EXPECT_GE(after[end], safety + kStabilizerMargin);
  EXPECT_GE(after.minCoeff(), safety + kStabilizerMargin * (1.0 - 1e-3));
}

// An end the arms cannot clear within their angle limits (a safety distance of half a metre: no arm pose
// keeps the hand that far from the head) is an InfeasibleError naming the pinned pose, before any solve.
TEST(SelfCollisionRows, AnEndTheArmsCannotClearIsInfeasible) {
  HandInHead f;
  f.cut_at_deepest_sample();
  MotionSettings settings = f.settings();
  settings.geometry.safety_distance = 0.5;  // no pose of the arms keeps the hand half a metre from the head
  try {
    optimize_motion(f.robot.model, f.robot.description, f.input, settings);
    FAIL() << "an end inside the safety distance that cannot be cleared was accepted";
  } catch (const InfeasibleError& e) {
    EXPECT_NE(std::string(e.what()).find("pose"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("closer than the safety distance"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mimic::motion
