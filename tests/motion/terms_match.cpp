// The terms of src/mimic/terms reproduce today's MotionProblem rows bit for bit at every sample (the
// evidence that WP11 can build the retarget problem from them without moving an output): joint and frame
// imitation and the torque residual (residual rows = sqrt(dt) * u), and the torque limits (inequality rows
// = u / tau_max - 1 and -u / tau_max - 1, term.hpp's normalisation). Values only: the partials' mapping
// onto the spline is WP11's adapter.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "mimic/model/base_pose.hpp"
#include "mimic/motion/motion_problem.hpp"
#include "mimic/terms/frame_imitation.hpp"
#include "mimic/terms/joint_imitation.hpp"
#include "mimic/terms/term_sum.hpp"
#include "mimic/terms/torque_limits.hpp"
#include "mimic/terms/torque_residual.hpp"
#include "motion/synthetic_reference.hpp"

namespace mimic::motion {
namespace {

using namespace terms;

struct Fixture {
  model::Model model = testing::load_hrp2();
  MotionInput input = testing::synthetic_reference(model, 0.4);
  std::vector<int> active = active_joint_indices(model, model::default_robot_description());
  int m = static_cast<int>(active.size());
  int n = input.sample_count();
  double w = std::sqrt(1.0 / input.rate);

  // x near the reference, so that velocities and accelerations are non-zero.
  Eigen::VectorXd perturbed(const MotionProblem& problem) const {
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0.0, 0.05);
    Eigen::VectorXd x = problem.initial_guess();
    for (double& v : x) v += noise(rng);
    return x;
  }
  Eigen::MatrixXd reference_joints() const {
    Eigen::MatrixXd reference(m, n);
    for (int p = 0; p < m; ++p) reference.row(p) = input.motion.q.row(model.idx_q(active[p]));
    return reference;
  }
  // The state MotionProblem uses at sample k: the given base motion (the reference's q, v, a above the
  // joints), or the base at the identity (the imitation's waist frame), and the joints of joint_samples().
  void set_state(SampleData& sample, const trajectory::JointSamples& joints, int k, bool with_base) const {
    sample.index = k;
    if (with_base) {
      const model::SampledMotion& motion = input.motion;
      const Eigen::Index base_q = model.nq - model.nj, base_v = model.nv - model.nj;
      sample.q << motion.q.col(k).head(base_q), joints.q.col(k);
      sample.v << motion.v.col(k).head(base_v), joints.qdot.col(k);
      sample.a << motion.a.col(k).head(base_v), joints.qddot.col(k);
    } else {
      sample.q.tail(model.nj) = joints.q.col(k);
      model::set_base_pose(model, sample.q, spatial::SE3::Identity());
    }
  }
};

TEST(TermsMatchMotionProblem, TorqueObjectiveAndTorqueLimits) {
  Fixture f;
  ProblemOptions options;
  options.objective = Objective::kTorque;
  options.limits.torque_factor = 0.5;
  for (int i = 0; i < f.n; i += 5) options.torque_samples.push_back(i);
  MotionProblem problem(f.model, model::default_robot_description(), f.input, options);
  const Eigen::VectorXd x = f.perturbed(problem);
  optim::Evaluation out = optim::make_evaluation(problem);
  problem.evaluate(x, false, out);
  const trajectory::JointSamples joints = problem.joint_samples(x);

  Eigen::VectorXd limits(f.m);
  for (int p = 0; p < f.m; ++p) limits[p] = problem.limits().torque[f.active[p]];
  TermSum sum(f.model);
  sum.add("torque", std::make_shared<TorqueResidual>(f.model, f.active), f.w);
  sum.add("torque limits", std::make_shared<TorqueLimits>(f.model, f.active, limits));
  const Eigen::VectorXd scale = sum.scale(RowKind::kResidual);
  const Eigen::VectorXd upper = sum.upper(), lower = sum.lower();
  SampleData sample(f.model);
  TermSumData data = sum.create_data();

  for (int k = 0; k < f.n; ++k) {
    f.set_state(sample, joints, k, true);
    sample.fill(sum.needs(), false);
    sum.calc(sample, data, false);
    for (int p = 0; p < f.m; ++p)
      ASSERT_EQ(out.residuals[k * f.m + p], scale[p] * data.residual.value[p])
          << "sample " << k << " row " << p;
  }
  const int velocity_rows =
      problem.num_inequalities() - 2 * f.m * static_cast<int>(options.torque_samples.size());
  for (std::size_t s = 0; s < options.torque_samples.size(); ++s) {
    f.set_state(sample, joints, options.torque_samples[s], true);
    sample.fill(sum.needs(), false);
    sum.calc(sample, data, false);
    for (int p = 0; p < f.m; ++p) {
      const double u = data.inequality.value[p];
      const int row = velocity_rows + 2 * (static_cast<int>(s) * f.m + p);
      ASSERT_EQ(out.inequalities[row], u * (1.0 / upper[p]) - 1.0) << "torque sample " << s << " joint " << p;
      ASSERT_EQ(out.inequalities[row + 1], u * (1.0 / lower[p]) - 1.0)
          << "torque sample " << s << " joint " << p;
    }
  }
}

TEST(TermsMatchMotionProblem, ImitationObjective) {
  Fixture f;
  ProblemOptions options;
  options.sigma = 3.0;
  MotionProblem problem(f.model, model::default_robot_description(), f.input, options);
  const Eigen::VectorXd x = f.perturbed(problem);
  optim::Evaluation out = optim::make_evaluation(problem);
  problem.evaluate(x, false, out);
  const trajectory::JointSamples joints = problem.joint_samples(x);

  std::vector<int> frames;
  for (const char* name : {"gaze", "r_gripper", "l_gripper"}) frames.push_back(f.model.frame_index(name));
  TermSum sum(f.model);
  sum.add("joints", std::make_shared<JointImitation>(f.model, f.active, f.reference_joints()), f.w);
  sum.add("frames", std::make_shared<FrameImitation>(f.model, frames, f.input.end_effectors),
          std::sqrt(options.sigma * (1.0 / f.input.rate)));
  const Eigen::VectorXd scale = sum.scale(RowKind::kResidual);
  ASSERT_EQ(sum.rows(RowKind::kResidual), f.m + 9);
  SampleData sample(f.model);
  TermSumData data = sum.create_data();
  for (int k = 0; k < f.n; ++k) {
    f.set_state(sample, joints, k, false);
    sample.fill(sum.needs(), false);
    sum.calc(sample, data, false);
    for (int r = 0; r < f.m + 9; ++r) {
      ASSERT_EQ(out.residuals[k * (f.m + 9) + r], scale[r] * data.residual.value[r])
          << "sample " << k << " " << sum.describe(RowKind::kResidual, r);
    }
  }
}

}  // namespace
}  // namespace mimic::motion
