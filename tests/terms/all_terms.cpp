// The one derivative harness: every term (factory.hpp) on HRP-2 and on a robot with prismatic joints and
// generic axes, at random states. For each: the analytic partials against central finite differences, the
// declared pattern against every non-zero, the values of the two modes (with and without partials), and
// the values against an independent computation where one exists.
//
// Steps and tolerance (as tests/dynamics/derivatives_generic_joints.cpp). The terms are smooth in q:
// h = 1e-5 leaves a truncation error ~h^2 = 1e-10 and a round-off ~eps / h = 1e-11, relative to the
// row's scale. They are at most quadratic in v (Coriolis, centrifugal) and affine in a, where central
// differences are exact up to round-off: h = 1e-2 and 1. Each row is compared relative to its own
// largest derivative, floored at 1e-4 of the matrix' largest entry (rows that are ~0 in truth are checked
// in absolute terms); a wrong formula is off by O(1) of the row, so 1e-6 keeps four orders of margin
// over the finite differences' own error.
#include <gtest/gtest.h>

#include <random>

#include "factory.hpp"
#include "mimic/dynamics/rnea.hpp"

namespace mimic::test {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kStepQ = 1e-5;
constexpr double kStepV = 1e-2;
constexpr double kStepA = 1.0;
constexpr double kTolerance = 1e-6;

class AllTerms : public ::testing::TestWithParam<TermCase> {
 protected:
  // u at (q, v, a), values only.
  VectorXd values(terms::SampleData& sample, terms::TermData& data) const {
    sample.fill(GetParam().term->needs(), false);
    GetParam().term->calc(sample, data, false);
    return data.value;
  }
};

// Worst row error of `analytic` against `fd` (file comment).
double worst_row_error(const MatrixXd& analytic, const MatrixXd& fd) {
  const double scale = fd.cwiseAbs().maxCoeff();
  if (scale == 0.0) return analytic.cwiseAbs().maxCoeff();
  double worst = 0.0;
  for (Eigen::Index i = 0; i < fd.rows(); ++i) {
    const double row_scale = std::max(fd.row(i).cwiseAbs().maxCoeff(), 1e-4 * scale);
    worst = std::max(worst, (analytic.row(i) - fd.row(i)).cwiseAbs().maxCoeff() / row_scale);
  }
  return worst;
}

TEST_P(AllTerms, PartialsMatchCentralDifferences) {
  const TermCase& c = GetParam();
  const model::Model& model = *c.model;
  const terms::Term& term = *c.term;
  terms::SampleData sample(model, c.ground);
  sample.contact = c.contact;
  std::unique_ptr<terms::TermData> data = term.create_data();
  std::mt19937 rng(3);
  for (int trial = 0; trial < 3; ++trial) {
    set_random_state(sample, rng);
    const VectorXd q = sample.q, v = sample.v, a = sample.a;
    sample.fill(term.needs(), true);
    term.calc(sample, *data, true);
    const MatrixXd dq = data->dq, dv = data->dv, da = data->da;
    const VectorXd with_partials = data->value;

    MatrixXd fq(term.rows(), model.nv), fv(term.rows(), model.nv), fa(term.rows(), model.nv);
    for (int k = 0; k < model.nv; ++k) {
      VectorXd step = VectorXd::Zero(model.nv);
      step[k] = kStepQ;
      sample.q = model::integrate(model, q, step);
      const VectorXd plus = values(sample, *data);
      sample.q = model::integrate(model, q, -step);
      fq.col(k) = (plus - values(sample, *data)) / (2.0 * kStepQ);
      sample.q = q;
      sample.v[k] = v[k] + kStepV;
      const VectorXd v_plus = values(sample, *data);
      sample.v[k] = v[k] - kStepV;
      fv.col(k) = (v_plus - values(sample, *data)) / (2.0 * kStepV);
      sample.v = v;
      sample.a[k] = a[k] + kStepA;
      const VectorXd a_plus = values(sample, *data);
      sample.a[k] = a[k] - kStepA;
      fa.col(k) = (a_plus - values(sample, *data)) / (2.0 * kStepA);
      sample.a = a;
    }
    EXPECT_LT(worst_row_error(dq, fq), kTolerance) << "d/dq, trial " << trial;
    EXPECT_LT(worst_row_error(dv, fv), kTolerance) << "d/dv, trial " << trial;
    EXPECT_LT(worst_row_error(da, fa), kTolerance) << "d/da, trial " << trial;

    // The pattern covers every non-zero: analytic entries outside it are exactly 0, and so (to the
    // differences' round-off, relative to the matrix) are the finite differences.
    const terms::Pattern& pattern = term.pattern();
    const std::array<std::tuple<const char*, const terms::PatternMatrix*, const MatrixXd*, const MatrixXd*>,
                     3>
        all = {{{"q", &pattern.q, &dq, &fq}, {"v", &pattern.v, &dv, &fv}, {"a", &pattern.a, &da, &fa}}};
    for (const auto& [name, p, analytic, fd] : all) {
      const double floor = kTolerance * std::max(1.0, fd->cwiseAbs().maxCoeff());
      for (int i = 0; i < term.rows(); ++i) {
        for (int k = 0; k < model.nv; ++k) {
          if ((*p)(i, k)) continue;
          EXPECT_EQ((*analytic)(i, k), 0.0) << name << " row " << term.describe(i) << " dof " << k;
          EXPECT_LE(std::abs((*fd)(i, k)), floor) << name << " row " << term.describe(i) << " dof " << k;
        }
      }
    }
    // The two modes give the same values (through different calls for the ground reaction and the feet).
    sample.q = q;
    const VectorXd without_partials = values(sample, *data);
    EXPECT_LT((with_partials - without_partials).cwiseAbs().maxCoeff(),
              1e-10 * std::max(1.0, without_partials.cwiseAbs().maxCoeff()));
  }
}

// Torque values against rnea(); every row has a description.
TEST_P(AllTerms, ValuesMatchDirectComputation) {
  const TermCase& c = GetParam();
  const model::Model& model = *c.model;
  terms::SampleData sample(model, c.ground);
  sample.contact = c.contact;
  std::mt19937 rng(5);
  set_random_state(sample, rng);
  std::unique_ptr<terms::TermData> data = c.term->create_data();
  sample.fill(c.term->needs(), false);
  c.term->calc(sample, *data, false);
  ASSERT_EQ(data->value.size(), c.term->rows());
  for (int i = 0; i < c.term->rows(); ++i) EXPECT_FALSE(c.term->describe(i).empty());

  if (c.term->needs() == terms::kTorques) {
    model::Data reference(model);
    const VectorXd tau = dynamics::rnea(model, reference, sample.q, sample.v, sample.a).tail(model.nj);
    // Two implementations of inverse dynamics (the derivative pass and rnea()): round-off apart.
    EXPECT_LT((data->value - tau).cwiseAbs().maxCoeff(), 1e-10 * tau.cwiseAbs().maxCoeff());
  }
}

INSTANTIATE_TEST_SUITE_P(Terms, AllTerms, ::testing::ValuesIn(all_term_cases()),
                         [](const ::testing::TestParamInfo<TermCase>& info) { return info.param.name; });

}  // namespace
}  // namespace mimic::test
