// The hot algorithms never allocate (docs/CONTRACTS.md "Hot loops never allocate"): global operator new and
// malloc are replaced by counting ones (support/allocation_counter.hpp), and each algorithm runs with the
// counters armed.
#include <gtest/gtest.h>

#include <utility>

#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/model/configuration.hpp"
#include "mimic/model/model.hpp"
#include "support/allocation_counter.hpp"
#include "support/shared_data.hpp"

namespace mimic::dynamics {
namespace {

// operator new and (on glibc) malloc calls made by f.
template <typename F>
long allocations_of(F&& f) {
  return test::count_allocations(std::forward<F>(f)).total();
}

TEST(NoAllocation, HotAlgorithms) {
  const model::Model model = model::load_urdf(test::hrp2_urdf().string(), model::LoadOptions::hrp2());
  model::Data data(model);
  std::mt19937 rng(1);
  const Eigen::VectorXd q = model::random_configuration(model, rng);
  const Eigen::VectorXd v = Eigen::VectorXd::Random(model.nv), a = Eigen::VectorXd::Random(model.nv);
  const ExternalForces fext(model.nbodies, spatial::Force::Zero());
  Eigen::Matrix<double, 6, Eigen::Dynamic> J(6, model.nv);
  const int frame = model.frame_index("r_sole");
  // Positive controls: the counters see allocations at all (operator new; malloc, which Eigen uses).
  EXPECT_GT(allocations_of([] { ::operator delete(::operator new(16)); }), 0);
  if (test::kCountsMalloc) {
    EXPECT_GT(test::count_allocations([] {
                Eigen::VectorXd x(64);
                x.setZero();
                EXPECT_EQ(x.sum(), 0.0);
              }).mallocs,
              0);
  }

  EXPECT_EQ(allocations_of([&] { forward_kinematics(model, data, q); }), 0);
  EXPECT_EQ(allocations_of([&] { forward_kinematics(model, data, q, v, a); }), 0);
  EXPECT_EQ(allocations_of([&] { update_frame_placements(model, data); }), 0);
  EXPECT_EQ(allocations_of([&] { frame_jacobian(model, data, frame, ReferenceFrame::kLocal, J); }), 0);
  EXPECT_EQ(allocations_of([&] { (void)frame_velocity(model, data, frame, ReferenceFrame::kWorld); }), 0);
  EXPECT_EQ(allocations_of([&] { rnea(model, data, q, v, a); }), 0);
  EXPECT_EQ(allocations_of([&] { rnea(model, data, q, v, a, fext); }), 0);
  EXPECT_EQ(allocations_of([&] { nonlinear_effects(model, data, q, v); }), 0);
  EXPECT_EQ(allocations_of([&] { gravity_torques(model, data, q); }), 0);
  EXPECT_EQ(allocations_of([&] { center_of_mass(model, data, q, v, a); }), 0);
  EXPECT_EQ(allocations_of([&] { com_jacobian(model, data, q); }), 0);
  EXPECT_EQ(allocations_of([&] { momentum_rate(model, data, q, v, a); }), 0);
  EXPECT_EQ(allocations_of([&] { (void)zmp(model, data, q, v, a); }), 0);
}

}  // namespace
}  // namespace mimic::dynamics
