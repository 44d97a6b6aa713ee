#include "mimic/geometry/distances.hpp"

#include <memory>
#include <utility>

#include "mimic/dynamics/kinematics.hpp"

namespace mimic::geometry {
namespace {

using spatial::SE3;

Contact flipped(Contact c) {
  std::swap(c.on_first, c.on_second);
  c.normal = -c.normal;
  return c;
}

// The six columns of WorldAxes (coordinate k of every dof's [v; w] at col[k][dof]).
struct AxisColumns {
  explicit AxisColumns(const WorldAxes& axes) {
    for (int k = 0; k < 6; ++k) col[k] = axes.col(k).data();
  }
  const double* col[6];
};

// Gradient entries on the velocity columns of one shape, a run of columns at a time. The axes' columns
// are contiguous over a run's dofs, so two entries are computed at once in one SIMD register (fixed-size
// 2-vectors: a dynamic-size Eigen expression costs more to set up than a run of 1 to 7 dofs takes to
// compute): two(c) gives entries c and c + 1, one(c) entry c alone (runs of one dof). An odd run's last
// two entries overlap the pair before them: the overlapped entry is written twice with the same value.
// The columns of the two shapes of a pair are disjoint, so no other entry is written twice. Forced inline
// (GCC keeps the call otherwise): a call's set-up costs as much as a short run's products.
template <class Two, class One>
[[gnu::always_inline]] inline void write_runs(const std::vector<ColumnRange>& ranges, const Two& two,
                                              const One& one, double* out) {
  for (const ColumnRange& r : ranges) {
    if (r.size == 1) {
      out[r.start] = one(r.start);
      continue;
    }
    const int last = r.start + r.size - 2;
    for (int c = r.start; c < last; c += 2) Eigen::Map<Eigen::Vector2d>(out + c) = two(c);
    Eigen::Map<Eigen::Vector2d>(out + last) = two(last);
  }
}

// [v_c; w_c] . [n; m] with m = p x n, that is n . (v_c + w_c x p), from the broadcasts w of (n, m);
// negated when `negate` (exactly the entries of [-n; -m]: negation is exact and commutes with the products
// and sums).
[[gnu::always_inline]] inline void write_ranges(const AxisColumns& axes,
                                                const std::vector<ColumnRange>& ranges,
                                                const Eigen::Vector2d (&w)[6], bool negate, double* out) {
  using Two = Eigen::Vector2d;
  using Column = Eigen::Map<const Two>;
  const double *const c0 = axes.col[0], *const c1 = axes.col[1], *const c2 = axes.col[2],
                      *const c3 = axes.col[3], *const c4 = axes.col[4], *const c5 = axes.col[5];
  const auto two = [&](int c) {
    const Two x = Column(c0 + c).cwiseProduct(w[0]) + Column(c1 + c).cwiseProduct(w[1]) +
                  Column(c2 + c).cwiseProduct(w[2]) + Column(c3 + c).cwiseProduct(w[3]) +
                  Column(c4 + c).cwiseProduct(w[4]) + Column(c5 + c).cwiseProduct(w[5]);
    return negate ? Two(-x) : x;
  };
  const auto one = [&](int c) {
    const double x = c0[c] * w[0][0] + c1[c] * w[1][0] + c2[c] * w[2][0] + c3[c] * w[3][0] + c4[c] * w[4][0] +
                     c5[c] * w[5][0];
    return negate ? -x : x;
  };
  write_runs(ranges, two, one, out);
}

// The pair's gradient row (out: its first entry, contiguous): n . (J_p1 - J_p2) on the columns that move
// one shape only; the broadcasts of n serve both shapes.
[[gnu::always_inline]] inline void pair_row(const CollisionPair& pair, const Contact& contact,
                                            const AxisColumns& axes, double* out) {
  using Two = Eigen::Vector2d;
  const Vec3& n = contact.normal;
  const Vec3 m1 = contact.on_first.cross(n), m2 = contact.on_second.cross(n);
  Two w[6] = {Two::Constant(n.x()),  Two::Constant(n.y()),  Two::Constant(n.z()),
              Two::Constant(m1.x()), Two::Constant(m1.y()), Two::Constant(m1.z())};
  write_ranges(axes, pair.first_ranges, w, false, out);
  w[3] = Two::Constant(m2.x()), w[4] = Two::Constant(m2.y()), w[5] = Two::Constant(m2.z());
  write_ranges(axes, pair.second_ranges, w, true, out);
}

// The corner's gradient row: e_z . J_p on the columns that move its body, e_z . (v_c + w_c x p) =
// v_c.z + p.y w_c.x - p.x w_c.y: three of the six axis coordinates (the general row with n = e_z sums the
// same three products in the same order, and zeros).
void write_corner(const AxisColumns& axes, const std::vector<ColumnRange>& ranges, const Vec3& p,
                  double* out) {
  using Two = Eigen::Vector2d;
  using Column = Eigen::Map<const Two>;
  const double *const vz = axes.col[2], *const wx = axes.col[3], *const wy = axes.col[4];
  const Two y = Two::Constant(p.y()), x = Two::Constant(p.x());
  const auto two = [&](int c) {
    return Two(Column(vz + c) + Column(wx + c).cwiseProduct(y) - Column(wy + c).cwiseProduct(x));
  };
  const auto one = [&](int c) { return vz[c] + wx[c] * p.y() - wy[c] * p.x(); };
  write_runs(ranges, two, one, out);
}

// Row c of `axes`: the world axis [v; w] of dof c (the columns of dynamics::body_jacobian in kWorld,
// computed once for every dof instead of once per kinematic chain).
void world_axes(const model::Model& model, const model::Data& data, WorldAxes& axes) {
  const auto set = [&axes](int c, const spatial::Motion& s) {
    axes.row(c) << s.v.transpose(), s.w.transpose();
  };
  for (int j = 0; j < model.nj; ++j) {
    const auto b = static_cast<size_t>(model::Model::body_of_joint(j));
    const Vec3 axis = data.oMi[b].R * model.axes[b];
    if (model.joint_types[b] == model::JointType::kRevolute)
      set(model.idx_v(j), spatial::Motion(data.oMi[b].p.cross(axis), axis));
    else
      set(model.idx_v(j), spatial::Motion(axis, Vec3::Zero()));
  }
  if (model.has_free_flyer()) {
    // The base twist is body 0's twist in its own frame: its unit twists along the base's 6 axes, moved to
    // the world (SE3::act of a unit twist, written out: [R e_k; 0] and [p x R e_k; R e_k]).
    const SE3& base = data.oMi[0];
    for (int k = 0; k < 3; ++k) {
      set(k, spatial::Motion(base.R.col(k), Vec3::Zero()));
      set(3 + k, spatial::Motion(base.p.cross(base.R.col(k)), base.R.col(k)));
    }
  }
}

void corners(const model::Data& data, const CollisionModel& cmodel, CollisionData& cdata,
             const AxisColumns* axes) {
  for (size_t k = 0; k < cmodel.corners.size(); ++k) {
    const SoleCorner& corner = cmodel.corners[k];
    const auto row = static_cast<Eigen::Index>(k);
    const Vec3 p = data.oMi[static_cast<size_t>(corner.body)].act(corner.point);
    cdata.corner_height[row] = p.z();
    if (axes) write_corner(*axes, corner.ranges, p, cdata.corner_gradient.row(row).data());
  }
}

}  // namespace

void place_shapes(const CollisionModel& cmodel, const std::vector<SE3>& oMi, PlacedShapes& placed) {
  for (size_t s = 0; s < cmodel.shapes.size(); ++s) {
    const CollisionShape& shape = cmodel.shapes[s];
    const SE3& pose = oMi[static_cast<size_t>(shape.body)];
    placed.bounding_centre[s] = pose.act(shape.bounding_centre);
    if (shape.kind == ShapeKind::kCapsule) {
      placed.a[s] = pose.act(shape.a);
      placed.b[s] = pose.act(shape.b);
    } else {
      placed.box[s] = {pose.R * shape.placement.R, pose.act(shape.placement.p), shape.half};
    }
  }
}

double bounding_gap(const CollisionModel& cmodel, const PlacedShapes& placed, int pair) {
  const CollisionPair& p = cmodel.pairs[static_cast<size_t>(pair)];
  const auto first = static_cast<size_t>(p.first), second = static_cast<size_t>(p.second);
  return (placed.bounding_centre[first] - placed.bounding_centre[second]).norm() -
         cmodel.shapes[first].bounding_radius - cmodel.shapes[second].bounding_radius;
}

namespace {

// The pair's distance and closest points into `out`, which the closest-point routine's result initialises
// directly (a prvalue: no copy through a temporary).
[[gnu::always_inline]] inline void write_contact(const CollisionModel& cmodel, const PlacedShapes& placed,
                                                 int pair, Contact& out) {
  const CollisionPair& p = cmodel.pairs[static_cast<size_t>(pair)];
  const auto i = static_cast<size_t>(p.first), j = static_cast<size_t>(p.second);
  Contact& c = *std::construct_at(&out, [&] {
    switch (p.kind) {
      case PairKind::kCapsuleCapsule:
        return segment_segment(placed.a[i], placed.b[i], placed.a[j], placed.b[j]);
      case PairKind::kCapsuleBox:
        return segment_box(placed.a[i], placed.b[i], placed.box[j]);
      case PairKind::kBoxCapsule:
        return flipped(segment_box(placed.a[j], placed.b[j], placed.box[i]));
      case PairKind::kBoxBox:
        break;
    }
    return box_box(placed.box[i], placed.box[j]);
  }());
  // The capsules' radii move the surfaces along the normal: the witness points go with them.
  const double r1 = p.first_radius, r2 = p.second_radius;
  c.distance -= r1 + r2;
  c.on_first -= r1 * c.normal;
  c.on_second += r2 * c.normal;
}

}  // namespace

Contact pair_distance(const CollisionModel& cmodel, const PlacedShapes& placed, int pair) {
  Contact c;
  write_contact(cmodel, placed, pair, c);
  return c;
}

void pair_gradient(const CollisionModel& cmodel, int pair, const Contact& contact, const WorldAxes& axes,
                   GradientRow row) {
  pair_row(cmodel.pairs[static_cast<size_t>(pair)], contact, AxisColumns(axes), row.data());
}

double corner_height(const SoleCorner& corner, const std::vector<SE3>& oMi) {
  return oMi[static_cast<size_t>(corner.body)].act(corner.point).z();
}

void corner_gradient(const SoleCorner& corner, const std::vector<SE3>& oMi, const WorldAxes& axes,
                     GradientRow row) {
  const Vec3 p = oMi[static_cast<size_t>(corner.body)].act(corner.point);
  write_corner(AxisColumns(axes), corner.ranges, p, row.data());
}

namespace {

// The pair's contact and distance in cdata, and its gradient row when given the axes.
void evaluate_pair(const CollisionModel& cmodel, CollisionData& cdata, int pair, const AxisColumns* axes) {
  const auto k = static_cast<size_t>(pair);
  Contact& contact = cdata.contacts[k];
  write_contact(cmodel, cdata.placed, pair, contact);
  cdata.distance[pair] = contact.distance;
  if (axes) pair_row(cmodel.pairs[k], contact, *axes, cdata.distance_gradient.row(pair).data());
}

}  // namespace

void compute_distances(const model::Model& model, model::Data& data, const CollisionModel& cmodel,
                       CollisionData& cdata, const ConfigRef& q) {
  dynamics::forward_kinematics(model, data, q);
  place_shapes(cmodel, data.oMi, cdata.placed);
  for (int pair = 0; pair < static_cast<int>(cmodel.pairs.size()); ++pair)
    evaluate_pair(cmodel, cdata, pair, nullptr);
  corners(data, cmodel, cdata, nullptr);
}

void compute_distance_gradients(const model::Model& model, model::Data& data, const CollisionModel& cmodel,
                                CollisionData& cdata, const ConfigRef& q) {
  dynamics::forward_kinematics(model, data, q);
  place_shapes(cmodel, data.oMi, cdata.placed);
  world_axes(model, data, cdata.world_axes);
  const AxisColumns axes(cdata.world_axes);
  for (int pair = 0; pair < static_cast<int>(cmodel.pairs.size()); ++pair)
    evaluate_pair(cmodel, cdata, pair, &axes);
  corners(data, cmodel, cdata, &axes);
}

void compute_near_distance_gradients(const model::Model& model, model::Data& data,
                                     const CollisionModel& cmodel, CollisionData& cdata, const ConfigRef& q,
                                     double margin) {
  dynamics::forward_kinematics(model, data, q);
  place_shapes(cmodel, data.oMi, cdata.placed);
  world_axes(model, data, cdata.world_axes);
  const AxisColumns axes(cdata.world_axes);
  cdata.near_count = 0;
  for (int pair = 0; pair < static_cast<int>(cmodel.pairs.size()); ++pair) {
    if (bounding_gap(cmodel, cdata.placed, pair) >= margin) continue;
    cdata.near_pairs[cdata.near_count++] = pair;
    evaluate_pair(cmodel, cdata, pair, &axes);
  }
  corners(data, cmodel, cdata, &axes);
}

}  // namespace mimic::geometry
