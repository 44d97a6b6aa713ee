// TermSum: names, weights, switching terms on and off, row offsets per kind, stacked scales, bounds,
// patterns and values, and the mistakes it refuses.
#include "mimic/terms/term_sum.hpp"

#include <gtest/gtest.h>

#include <random>

#include "factory.hpp"

namespace mimic::test {
namespace {

using namespace terms;

struct Sum {
  const model::Model& model = hrp2_model();
  Feet feet = feet_of(model);
  std::mt19937 rng{2};
  std::shared_ptr<JointImitation> imitation =
      std::make_shared<JointImitation>(model, std::vector<int>{3, 5, 7}, random_table(3, rng));
  std::shared_ptr<TorqueResidual> torque = std::make_shared<TorqueResidual>(model, all_joints(model));
  std::shared_ptr<TorqueLimits> limits =
      std::make_shared<TorqueLimits>(model, std::vector<int>{0, 1}, Eigen::Vector2d(40.0, 80.0));
  std::shared_ptr<SupportFoot> foot = std::make_shared<SupportFoot>(
      model, feet.right_frame, random_placements(rng), RowKind::kEquality, 1e3, 2e3);
  TermSum sum{model};
  Sum() {
    sum.add("imitation", imitation, 2.0);
    sum.add("torque", torque, 3.0);
    sum.add("limits", limits);
    sum.add("foot", foot);
  }
};

TEST(TermSum, StacksRowsPerKindInTheOrderAdded) {
  Sum s;
  EXPECT_EQ(s.sum.rows(RowKind::kResidual), 3 + s.model.nj);
  EXPECT_EQ(s.sum.rows(RowKind::kEquality), 6);
  EXPECT_EQ(s.sum.rows(RowKind::kInequality), 2);
  EXPECT_EQ(s.sum.item("imitation").offset, 0);
  EXPECT_EQ(s.sum.item("torque").offset, 3);
  EXPECT_EQ(s.sum.item("limits").offset, 0);
  EXPECT_EQ(s.sum.item("foot").offset, 0);
  EXPECT_EQ(s.sum.needs(), kTorques | kKinematics | kPlacementDerivatives);

  const Eigen::VectorXd scale = s.sum.scale(RowKind::kResidual);
  EXPECT_EQ(scale.head(3), Eigen::VectorXd::Constant(3, 2.0));
  EXPECT_EQ(scale.tail(s.model.nj), Eigen::VectorXd::Constant(s.model.nj, 3.0));
  const Eigen::VectorXd equality_scale = s.sum.scale(RowKind::kEquality);
  EXPECT_EQ(equality_scale.head(3), Eigen::VectorXd::Constant(3, 1e3));
  EXPECT_EQ(equality_scale.tail(3), Eigen::VectorXd::Constant(3, 2e3));
  EXPECT_EQ(s.sum.upper(), Eigen::Vector2d(40.0, 80.0));
  EXPECT_EQ(s.sum.lower(), Eigen::Vector2d(-40.0, -80.0));
  EXPECT_EQ(s.sum.describe(RowKind::kResidual, 4), "torque: " + s.model.joint_names[1] + " torque");
  EXPECT_EQ(s.sum.describe(RowKind::kEquality, 5), "foot: r_sole rotation z");
  EXPECT_EQ(s.sum.pattern(RowKind::kResidual).q.bottomRows(s.model.nj).matrix(),
            s.torque->pattern().q.matrix());
}

TEST(TermSum, SwitchingATermOffMovesTheOthersUp) {
  Sum s;
  s.sum.set_active("imitation", false);
  EXPECT_FALSE(s.sum.active("imitation"));
  EXPECT_EQ(s.sum.rows(RowKind::kResidual), s.model.nj);
  EXPECT_EQ(s.sum.item("torque").offset, 0);
  EXPECT_EQ(s.sum.describe(RowKind::kResidual, 0), "torque: " + s.model.joint_names[0] + " torque");
  s.sum.set_active("torque", false);
  s.sum.set_active("limits", false);
  EXPECT_EQ(s.sum.needs(), kKinematics | kPlacementDerivatives);  // inactive terms need nothing
  s.sum.set_active("imitation", true);
  EXPECT_EQ(s.sum.rows(RowKind::kResidual), 3);
}

TEST(TermSum, CalcStacksEachTermsOwnOutput) {
  Sum s;
  SampleData sample(s.model);
  std::mt19937 rng(9);
  set_random_state(sample, rng);
  sample.fill(s.sum.needs(), true);
  TermSumData data = s.sum.create_data();
  s.sum.calc(sample, data, true);
  for (const TermSum::Item& item : s.sum.items()) {
    std::unique_ptr<TermData> own = item.term->create_data();
    item.term->calc(sample, *own, true);
    const TermData& stacked = data.of(item.term->kind());
    const int rows = item.term->rows();
    EXPECT_EQ(stacked.value.segment(item.offset, rows), own->value) << item.name;
    EXPECT_EQ(stacked.dq.middleRows(item.offset, rows), own->dq) << item.name;
    EXPECT_EQ(stacked.dv.middleRows(item.offset, rows), own->dv) << item.name;
    EXPECT_EQ(stacked.da.middleRows(item.offset, rows), own->da) << item.name;
  }
}

TEST(TermSum, RefusesMistakes) {
  Sum s;
  EXPECT_THROW(s.sum.add("torque", s.torque), std::invalid_argument);              // duplicate name
  EXPECT_THROW(s.sum.add("limits2", s.limits, 2.0), std::invalid_argument);        // weight on a constraint
  EXPECT_THROW(s.sum.add("imitation2", s.imitation, 0.0), std::invalid_argument);  // non-positive weight
  EXPECT_THROW(s.sum.set_active("nothing", false), std::invalid_argument);         // unknown name
  const auto ground = std::make_shared<TorqueResidual>(s.model, all_joints(s.model), &s.feet.ground);
  EXPECT_THROW(s.sum.add("ground", ground), std::invalid_argument);  // two torque models in one sample
  EXPECT_THROW(
      s.sum.add("other model", std::make_shared<TorqueResidual>(generic_model(), std::vector<int>{0})),
      std::invalid_argument);

  TermSumData stale = s.sum.create_data();
  s.sum.set_active("foot", false);
  SampleData sample(s.model);
  sample.fill(s.sum.needs(), false);
  EXPECT_THROW(s.sum.calc(sample, stale, false), std::logic_error);

  SampleData no_feet(s.model);
  EXPECT_THROW(no_feet.fill(kTorquesWithGroundReaction, false), std::logic_error);
}

}  // namespace
}  // namespace mimic::test
