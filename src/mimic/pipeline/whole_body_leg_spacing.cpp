#include "mimic/pipeline/whole_body_leg_spacing.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mimic/dynamics/kinematics.hpp"
#include "mimic/geometry/collision_data.hpp"
#include "mimic/geometry/distances.hpp"
#include "mimic/model/base_pose.hpp"

namespace mimic::pipeline {
namespace {

bool moved_by(const std::vector<int>& columns, const std::vector<int>& leg_columns) {
  return std::any_of(columns.begin(), columns.end(), [&](int c) {
    return std::find(leg_columns.begin(), leg_columns.end(), c) != leg_columns.end();
  });
}

// The checked pairs with one shape moved by a right-leg joint and the other by a left-leg joint.
std::vector<int> leg_pairs(const model::Model& model, const stability::Legs& legs,
                           const geometry::CollisionModel& collision) {
  std::array<std::vector<int>, 2> columns;
  for (const int side : {stability::Legs::kRight, stability::Legs::kLeft})
    for (const int joint : legs.leg[static_cast<std::size_t>(side)].joints())
      columns[static_cast<std::size_t>(side)].push_back(model.idx_v(joint));
  std::vector<int> pairs;
  for (std::size_t p = 0; p < collision.pairs.size(); ++p) {
    const geometry::CollisionPair& pair = collision.pairs[p];
    const bool across = (moved_by(pair.first_only, columns[0]) && moved_by(pair.second_only, columns[1])) ||
                        (moved_by(pair.first_only, columns[1]) && moved_by(pair.second_only, columns[0]));
    if (across) pairs.push_back(static_cast<int>(p));
  }
  return pairs;
}

}  // namespace

LegSpacing leg_spacing(const model::Model& model, const model::RobotDescription& description,
                       const stability::Legs& legs, const geometry::CollisionModel& collision,
                       double safety_distance, double clearance) {
  LegSpacing result;
  const std::vector<int> pairs = leg_pairs(model, legs, collision);
  const Eigen::VectorXd nominal = description.nominal_q(model);
  model::Data data(model);
  geometry::CollisionData cdata(model, collision);
  dynamics::forward_kinematics(model, data, nominal);
  dynamics::update_frame_placements(model, data);
  const spatial::SE3 right = data.oMf[static_cast<std::size_t>(model.frame_index(legs.right().sole_frame()))];
  const spatial::SE3 left = data.oMf[static_cast<std::size_t>(model.frame_index(legs.left().sole_frame()))];
  const spatial::SE3 root = model::base_pose(model, nominal);
  Eigen::Vector3d across = left.translation() - right.translation();
  across.z() = 0.0;
  result.nominal_spacing = across.norm();
  if (pairs.empty() || !(result.nominal_spacing > 0.0)) return result;
  across /= result.nominal_spacing;
  const Eigen::Vector3d middle = 0.5 * (left.translation() + right.translation());

  // The legs' distance with the soles `spacing` apart (the nominal soles' orientations); +inf where a leg
  // cannot reach (a spacing that the plan's other bounds exclude anyway), with the closest pair.
  Eigen::VectorXd q = nominal;
  const auto distance = [&](double spacing, int* closest) {
    q = nominal;
    Eigen::Vector3d r = middle - 0.5 * spacing * across, l = middle + 0.5 * spacing * across;
    r.z() = right.translation().z();
    l.z() = left.translation().z();
    const spatial::SE3 right_sole(right.rotation(), r), left_sole(left.rotation(), l);
    if (!stability::refit_legs(model, legs, root, right_sole, left_sole, q).ok())
      return std::numeric_limits<double>::infinity();
    geometry::compute_distances(model, data, collision, cdata, q);
    double d = std::numeric_limits<double>::infinity();
    for (const int p : pairs) {
      if (cdata.distance(p) < d) {
        d = cdata.distance(p);
        if (closest != nullptr) *closest = p;
      }
    }
    return d;
  };
  const double required = safety_distance + clearance;
  result.nominal_distance = distance(result.nominal_spacing, &result.closest_pair);
  if (result.nominal_distance < required) {
    result.spacing = result.nominal_spacing;
    return result;
  }
  // Bisection between the soles' widths side by side (the narrowest the sole rectangles allow, the soles
  // parallel) and the nominal spacing.
  const auto width = [](const model::SoleRectangle& s) { return s.y_max - s.y_min; };
  double low = 0.5 * (width(description.right_sole) + width(description.left_sole));
  double high = result.nominal_spacing;
  if (distance(low, nullptr) >= required) return result;  // the soles' bound is the narrower
  while (high - low > 1e-4) {
    const double mid = 0.5 * (low + high);
    (distance(mid, nullptr) >= required ? high : low) = mid;
  }
  result.spacing = high;
  distance(high, &result.closest_pair);
  return result;
}

}  // namespace mimic::pipeline
