#include "mimic/terms/sole_clearance.hpp"

#include <algorithm>
#include <stdexcept>

#include "mimic/geometry/distances.hpp"
#include "mimic/terms/sample_data.hpp"

namespace mimic::terms {

SoleClearance::SoleClearance(const model::Model& model,
                             std::shared_ptr<const geometry::CollisionModel> cmodel, std::vector<int> corners)
    : Term(model, static_cast<int>(corners.size()), RowKind::kInequality,
           kKinematics | kPlacementDerivatives),
      cmodel_(std::move(cmodel)),
      corners_(std::move(corners)) {
  if (!cmodel_ || corners_.empty())
    throw std::invalid_argument("SoleClearance: a collision model and corners");
  std::vector<int> sorted = corners_;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end() || sorted.front() < 0 ||
      sorted.back() >= static_cast<int>(cmodel_->corners.size()))
    throw std::invalid_argument("SoleClearance: corner indices of the collision model, each once");
  lower_.setConstant(-kHeightUnit);  // upper_: +infinity (Term's default), one-sided
  for (int row = 0; row < rows(); ++row)
    for (const int c : cmodel_->corners[static_cast<std::size_t>(corners_[row])].columns)
      pattern_.q(row, c) = true;
}

void SoleClearance::calc(const SampleData& sample, TermData& data, bool partials) const {
  if (partials) {  // corner_gradient writes the pattern's entries only
    data.dq.setZero();
    data.dv.setZero();
    data.da.setZero();
  }
  for (int row = 0; row < rows(); ++row) {
    const geometry::SoleCorner& corner = cmodel_->corners[static_cast<std::size_t>(corners_[row])];
    data.value[row] = geometry::corner_height(corner, sample.data.oMi) - kHeightUnit;
    if (partials) geometry::corner_gradient(corner, sample.data.oMi, sample.derivatives.J, data.dq.row(row));
  }
}

std::string SoleClearance::describe(int row) const {
  const int index = corners_[static_cast<std::size_t>(row)];
  const geometry::SoleCorner& corner = cmodel_->corners[static_cast<std::size_t>(index)];
  // build_collision_model lists each sole's corners as (x_min, y_min), (x_min, y_max), (x_max, y_min),
  // (x_max, y_max) in the sole frame (x forward, y to the left).
  static constexpr const char* kNames[] = {"back right", "back left", "front right", "front left"};
  return corner.foot + " sole " + kNames[index % 4] + " corner height";
}

}  // namespace mimic::terms
