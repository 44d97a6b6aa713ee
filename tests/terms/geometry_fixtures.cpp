// The geometry terms see today's failures (tests/data, issue 13): on the boxing fixture's sample with the
// right hand deepest in the head, the SelfCollision row of that pair is violated; on the smoothed walk's
// sample with the lowest sole corner, a SoleClearance row is violated. "Violated": u < lower, i.e. the
// problems' normalised row u / lower - 1 is positive (term.hpp).
#include <gtest/gtest.h>

#include <numeric>

#include "factory.hpp"
#include "mimic/geometry/distances.hpp"
#include "support/fixture_motion.hpp"

namespace mimic::test {
namespace {

using geometry::CollisionModel;

// The index of the sample where `measure` (a vector over the motion's samples) is smallest.
template <typename Measure>
Eigen::Index worst_sample(const model::SampledMotion& motion, Measure measure) {
  const CollisionModel& cmodel = *hrp2_collision_model();
  model::Data data(hrp2_model());
  geometry::CollisionData cdata(hrp2_model(), cmodel);
  Eigen::Index worst = 0;
  double lowest = std::numeric_limits<double>::infinity();
  for (Eigen::Index k = 0; k < motion.size(); ++k) {
    geometry::compute_distances(hrp2_model(), data, cmodel, cdata, motion.q.col(k));
    if (const double value = measure(cdata); value < lowest) lowest = value, worst = k;
  }
  return worst;
}

// The term's values at sample `k` of `motion`, values only and with partials (both must agree).
Eigen::VectorXd values_at(const terms::Term& term, const model::SampledMotion& motion, Eigen::Index k) {
  terms::SampleData sample(hrp2_model());
  sample.q = motion.q.col(k);
  std::unique_ptr<terms::TermData> data = term.create_data();
  sample.fill(term.needs(), true);
  term.calc(sample, *data, true);
  const Eigen::VectorXd with_partials = data->value;
  sample.fill(term.needs(), false);
  term.calc(sample, *data, false);
  EXPECT_EQ(with_partials, data->value);
  return data->value;
}

std::vector<int> all_indices(std::size_t n) {
  std::vector<int> indices(n);
  std::iota(indices.begin(), indices.end(), 0);
  return indices;
}

TEST(GeometryTerms, SelfCollisionRowOfHandAndHeadIsViolatedOnTheBoxingFixture) {
  const auto cmodel = hrp2_collision_model();
  int pair = -1;
  for (int k = 0; k < static_cast<int>(cmodel->pairs.size()); ++k)
    if (cmodel->pair_name(k) == "HEAD_LINK1 / RARM_LINK6") pair = k;
  ASSERT_GE(pair, 0);
  const model::SampledMotion motion = read_fixture(hrp2_model(), fixture_path("boxing_hand_in_head"));
  const Eigen::Index worst = worst_sample(motion, [&](const auto& cdata) { return cdata.distance[pair]; });

  const terms::SelfCollision term(hrp2_model(), cmodel, all_indices(cmodel->pairs.size()), 0.01);
  const Eigen::VectorXd u = values_at(term, motion, worst);
  EXPECT_LT(u[pair], term.lower()[pair]) << term.describe(pair);
  EXPECT_EQ(term.describe(pair), "HEAD_LINK1 / RARM_LINK6 distance");
  // The half-sitting pose satisfies every row.
  const terms::SelfCollision near(hrp2_model(), cmodel, {pair}, 0.01);
  model::SampledMotion nominal;
  nominal.q = model::load_robot(model::default_robot_description_path()).description.nominal_q(hrp2_model());
  const Eigen::VectorXd free = values_at(term, nominal, 0);
  EXPECT_TRUE((free.array() > term.lower().array()).all());
  EXPECT_GT(values_at(near, nominal, 0)[0], near.lower()[0]);
}

TEST(GeometryTerms, SoleClearanceRowIsViolatedOnTheSmoothedWalkFixture) {
  const auto cmodel = hrp2_collision_model();
  const model::SampledMotion motion =
      read_fixture(hrp2_model(), fixture_path("walk_bar_smooth_toe_below_floor"));
  const Eigen::Index worst =
      worst_sample(motion, [](const auto& cdata) { return cdata.corner_height.minCoeff(); });

  const terms::SoleClearance term(hrp2_model(), cmodel, all_indices(cmodel->corners.size()));
  const Eigen::VectorXd u = values_at(term, motion, worst);
  Eigen::Index row = 0;
  (u - term.lower()).minCoeff(&row);
  EXPECT_LT(u[row], term.lower()[row]) << term.describe(static_cast<int>(row));
  // The planned walk it was smoothed from keeps every corner on or above the floor.
  const model::SampledMotion planned =
      read_fixture(hrp2_model(), std::string(MIMIC_SOURCE_DIR) + "/data/motions/walk_bar_planned");
  const Eigen::Index lowest =
      worst_sample(planned, [](const auto& cdata) { return cdata.corner_height.minCoeff(); });
  EXPECT_TRUE((values_at(term, planned, lowest).array() >= term.lower().array() - 1e-9).all());
}

}  // namespace
}  // namespace mimic::test
