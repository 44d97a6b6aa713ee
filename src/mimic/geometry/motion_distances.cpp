#include "mimic/geometry/motion_distances.hpp"

#include <vector>

#include "mimic/geometry/collision_data.hpp"
#include "mimic/geometry/distances.hpp"
#include "mimic/model/data.hpp"

namespace mimic::geometry {

MotionDistances motion_distances(const model::Model& model, const CollisionModel& cmodel,
                                 const Eigen::MatrixXd& q, core::ThreadPool* pool) {
  const Eigen::Index n = q.cols();
  MotionDistances out{Eigen::MatrixXd(static_cast<Eigen::Index>(cmodel.pairs.size()), n),
                      Eigen::MatrixXd(static_cast<Eigen::Index>(cmodel.corners.size()), n)};
  const auto workers = static_cast<std::size_t>(core::worker_count(pool));
  std::vector<model::Data> data(workers, model::Data(model));
  std::vector<CollisionData> cdata(workers, CollisionData(model, cmodel));
  core::for_each_range(pool, static_cast<int>(n), [&](int first, int last, int worker) {
    const auto w = static_cast<std::size_t>(worker);
    for (int k = first; k < last; ++k) {
      compute_distances(model, data[w], cmodel, cdata[w], q.col(k));
      out.distance.col(k) = cdata[w].distance;
      out.corner_height.col(k) = cdata[w].corner_height;
    }
  });
  return out;
}

}  // namespace mimic::geometry
