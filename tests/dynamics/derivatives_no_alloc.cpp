// The derivative algorithms never allocate once their DerivativeData exists (docs/CONTRACTS.md: hot loops
// never allocate). This executable replaces the global operator new (every C++ allocation) and, on glibc,
// malloc / calloc / realloc (Eigen's dynamic matrices allocate with std::malloc, not operator new), counts
// the calls made while a scope is armed, and runs every entry point of the derivative headers — for the
// free-flyer and the fixed base, with and without external wrenches — inside such a scope after a warm-up.
// Positive controls check that both counters do see an allocation.
#include <gtest/gtest.h>

#include "derivatives_support.hpp"
#include "mimic/dynamics/com_derivatives.hpp"
#include "mimic/dynamics/frame_derivatives.hpp"
#include "mimic/dynamics/kinematics_derivatives.hpp"
#include "mimic/dynamics/rnea_derivatives.hpp"
#include "mimic/dynamics/rnea_vjp.hpp"
#include "mimic/dynamics/zmp_derivatives.hpp"
#include "support/allocation_counter.hpp"

namespace mimic::test {
namespace {

using dynamics::DerivativeData;
using dynamics::ExternalForceDependence;
using model::RootType;

TEST(DerivativesNoAlloc, CountersSeeAllocations) {
  const Counts c = count_allocations([] {
    auto* p = new double[3];
    delete[] p;
    Eigen::VectorXd x(64);  // Eigen: std::malloc
    x.setZero();
    EXPECT_EQ(x.sum(), 0.0);
  });
  EXPECT_GE(c.news, 1);
  if (kCountsMalloc) {
    EXPECT_GE(c.mallocs, 1);
  }
}

class DerivativesNoAllocEveryEntryPoint : public ::testing::TestWithParam<RootType> {};

TEST_P(DerivativesNoAllocEveryEntryPoint, AfterConstruction) {
  const model::Model& model = hrp2(GetParam());
  std::mt19937 rng(3);
  State s = random_state(model, rng);
  s.v *= 0.5;
  s.a *= 0.5;
  const dynamics::ExternalForces fext = random_wrenches(model, rng);
  const VectorXd w = VectorXd::Random(model.nv);
  const int foot = model.frame_index("r_sole");
  const spatial::Mat3 R_ref = spatial::Mat3::Identity();

  // Everything the calls need, allocated up front.
  DerivativeData dd(model);
  dynamics::Matrix6x m6a(6, model.nv), m6b(6, model.nv), m6c(6, model.nv);
  dynamics::Matrix3x m3a(3, model.nv), m3b(3, model.nv), m3c(3, model.nv);
  dynamics::Matrix2x m2a(2, model.nv), m2b(2, model.nv), m2c(2, model.nv);

  const auto all = [&] {
    dynamics::compute_rnea_derivatives(model, dd, s.q, s.v, s.a);
    dynamics::compute_rnea_derivatives(model, dd, s.q, s.v, s.a, fext, ExternalForceDependence::kBodyFixed);
    dynamics::compute_rnea_derivatives(model, dd, s.q, s.v, s.a, fext, ExternalForceDependence::kWorldFixed);
    dynamics::compute_rnea_vjp(model, dd, s.q, s.v, s.a, w);
    dynamics::compute_rnea_vjp(model, dd, s.q, s.v, s.a, w, fext, ExternalForceDependence::kBodyFixed);
    dynamics::compute_rnea_vjp(model, dd, s.q, s.v, s.a, w, fext, ExternalForceDependence::kWorldFixed);
    dynamics::forward_kinematics_derivatives(model, dd, s.q);
    dynamics::frame_position_derivative(model, dd, foot, m3a);
    dynamics::frame_orientation_error_derivative(model, dd, foot, R_ref, m3b);
    dynamics::forward_kinematics_derivatives(model, dd, s.q, s.v, s.a);
    for (auto rf : {dynamics::ReferenceFrame::kLocal, dynamics::ReferenceFrame::kLocalWorldAligned,
                    dynamics::ReferenceFrame::kWorld}) {
      dynamics::frame_velocity_derivatives(model, dd, foot, rf, m6a, m6b);
      dynamics::frame_acceleration_derivatives(model, dd, foot, rf, m6a, m6b, m6c);
    }
    dynamics::com_derivatives(model, dd, s.q, m3a);
    dynamics::com_velocity_derivatives(model, dd, s.q, s.v, m3a, m3b);
    dynamics::com_acceleration_derivatives(model, dd, s.q, s.v, s.a, m3a, m3b, m3c);
    dynamics::contact_wrench_derivatives(model, dd, s.q, s.v, s.a, m6a, m6b, m6c);
    const auto p = dynamics::zmp_derivatives(model, dd, s.q, s.v, s.a, 0.0, m2a, m2b, m2c);
    return p.has_value();
  };
  ASSERT_TRUE(all());  // warm-up (and the ZMP exists, so its full path runs below)
  bool zmp = false;
  const Counts c = count_allocations([&] { zmp = all(); });
  EXPECT_TRUE(zmp);
  EXPECT_EQ(c.news, 0) << "operator new calls";
  EXPECT_EQ(c.mallocs, 0) << "malloc calls";
}

INSTANTIATE_TEST_SUITE_P(Hrp2, DerivativesNoAllocEveryEntryPoint,
                         ::testing::Values(RootType::kFreeFlyer, RootType::kFixed), [](const auto& info) {
                           return std::string(info.param == RootType::kFreeFlyer ? "FreeFlyer" : "FixedBase");
                         });

}  // namespace
}  // namespace mimic::test
