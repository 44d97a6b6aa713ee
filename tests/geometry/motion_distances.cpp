// motion_distances: column k is compute_distances at sample k, bit for bit, whatever the pool's size (each
// sample is written by the one task that computed it).
#include "mimic/geometry/motion_distances.hpp"

#include <gtest/gtest.h>

#include <random>

#include "mimic/geometry/collision_data.hpp"
#include "mimic/geometry/distances.hpp"
#include "mimic/model/data.hpp"
#include "mimic/model/robot.hpp"

namespace mimic::geometry {
namespace {

TEST(MotionDistances, EachColumnIsItsSampleForEveryThreadCount) {
  const model::Robot r = model::load_robot(model::default_robot_description_path());
  const CollisionModel cmodel = build_collision_model(r.model, r.description);
  // Half-sitting with random joint offsets of up to 0.6 rad: every sample has other distances.
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> offset(-0.6, 0.6);
  const int n = 301;
  Eigen::MatrixXd q = r.description.nominal_q(r.model).replicate(1, n);
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < r.model.nj; ++j) q(r.model.idx_q(j), k) += offset(rng);

  model::Data data(r.model);
  CollisionData cdata(r.model, cmodel);
  for (const int threads : {1, 2, 3}) {
    core::ThreadPool pool(threads);
    const MotionDistances distances = motion_distances(r.model, cmodel, q, &pool);
    ASSERT_EQ(distances.distance.rows(), static_cast<Eigen::Index>(cmodel.pairs.size()));
    ASSERT_EQ(distances.corner_height.rows(), static_cast<Eigen::Index>(cmodel.corners.size()));
    ASSERT_EQ(distances.distance.cols(), n);
    for (int k = 0; k < n; ++k) {
      compute_distances(r.model, data, cmodel, cdata, q.col(k));
      EXPECT_TRUE(distances.distance.col(k) == cdata.distance) << "sample " << k;
      EXPECT_TRUE(distances.corner_height.col(k) == cdata.corner_height) << "sample " << k;
    }
  }
}

}  // namespace
}  // namespace mimic::geometry
