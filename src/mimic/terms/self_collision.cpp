#include "mimic/terms/self_collision.hpp"

#include <algorithm>
#include <stdexcept>

#include "mimic/geometry/distances.hpp"
#include "mimic/terms/sample_data.hpp"

namespace mimic::terms {

namespace {

struct SelfCollisionData : TermData {
  SelfCollisionData(int rows, int nv, const geometry::CollisionModel& cmodel)
      : TermData(rows, nv), placed(cmodel) {}
  geometry::PlacedShapes placed;
};

}  // namespace

SelfCollision::SelfCollision(const model::Model& model,
                             std::shared_ptr<const geometry::CollisionModel> cmodel, std::vector<int> pairs,
                             double safety_distance)
    : Term(model, static_cast<int>(pairs.size()), RowKind::kInequality, kKinematics | kPlacementDerivatives),
      cmodel_(std::move(cmodel)),
      pairs_(std::move(pairs)),
      safety_distance_(safety_distance) {
  if (!cmodel_ || pairs_.empty()) throw std::invalid_argument("SelfCollision: a collision model and pairs");
  if (!(safety_distance > 0.0)) throw std::invalid_argument("SelfCollision: safety distance > 0");
  std::vector<int> sorted = pairs_;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end() || sorted.front() < 0 ||
      sorted.back() >= static_cast<int>(cmodel_->pairs.size()))
    throw std::invalid_argument("SelfCollision: pair indices of the collision model, each once");
  lower_.setConstant(-safety_distance);  // upper_: +infinity (Term's default), one-sided
  for (int row = 0; row < rows(); ++row) {
    const geometry::CollisionPair& pair = cmodel_->pairs[static_cast<std::size_t>(pairs_[row])];
    for (const auto* columns : {&pair.first_only, &pair.second_only})
      for (const int c : *columns) pattern_.q(row, c) = true;
  }
}

std::unique_ptr<TermData> SelfCollision::create_data() const {
  return std::make_unique<SelfCollisionData>(rows(), model_.nv, *cmodel_);
}

void SelfCollision::calc(const SampleData& sample, TermData& data, bool partials) const {
  auto& own = static_cast<SelfCollisionData&>(data);
  geometry::place_shapes(*cmodel_, sample.data.oMi, own.placed);
  if (partials) {  // pair_gradient writes the pattern's entries only
    data.dq.setZero();
    data.dv.setZero();
    data.da.setZero();
  }
  for (int row = 0; row < rows(); ++row) {
    const geometry::Contact contact = geometry::pair_distance(*cmodel_, own.placed, pairs_[row]);
    data.value[row] = contact.distance - 2.0 * safety_distance_;
    if (partials)
      geometry::pair_gradient(*cmodel_, pairs_[row], contact, sample.derivatives.J, data.dq.row(row));
  }
}

std::string SelfCollision::describe(int row) const {
  return cmodel_->pair_name(pairs_[static_cast<std::size_t>(row)]) + " distance";
}

}  // namespace mimic::terms
