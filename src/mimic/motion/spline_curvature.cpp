// SplineProblem's residual curvature (optim::Problem::evaluate_residual_curvature): the exact second-order
// term S = sum_i w_i Hess r_i of the free-motion torque residuals, r_i = f_i tau_j(i)(q(t_n), v(t_n), a(t_n))
// (f_i: the row's weight * scale), on the control points.
//
// Per sample n: the rows' weights make one torque weight vector, w_dof(j(i)) = w_i f_i, whose Hessian
// H_n = Hess_(q, v, a) w^T tau over the coordinates' joints comes from dynamics::RneaWeightedHessian. Each
// coordinate is one joint dof (the default map_partials) and q, v, a of a coordinate are linear in the
// control points, q = sum_k beta0_k x_k, v = sum_k beta1_k x_k, a = sum_k beta2_k x_k over the sample's slots
// k, so the map has no second-order term of its own and the block of slots (k, k') is
//   sum_(X, Y in q, v, a) beta^X_k beta^Y_k' H_n(X, Y)      (coordinates x coordinates).
// The samples of one knot interval share their slots: their blocks are summed densely per interval (a
// "group"), then merged into S once, as NormalEquations does with the Gram matrices.
//
// Pattern: a residual's Hessian couples only the coordinates it depends on, so S holds, per group, the
// pairs of coordinates that one torque row of the set depends on together (its Jacobian columns): a subset
// of J_r^T J_r's pattern, as optim::Problem requires. The other entries of H_n are zero up to the rounding
// of its differences and are left out.
//
// Threads: the groups are computed on the pool lent to evaluate() (each worker with its own
// SplineProblemData and Hessian scratch) into buffers of their own, then merged in group order: S does not
// depend on the thread count.
#include <algorithm>
#include <stdexcept>

#include "mimic/dynamics/rnea_second_order.hpp"
#include "mimic/motion/spline_problem.hpp"
#include "mimic/terms/joint_torque_rows.hpp"

namespace mimic::motion {

struct SplineProblem::Curvature {
  struct Row {
    int stacked = 0;  // row among the set's residual rows
    int dof = 0;      // model dof of its torque
  };
  struct Set {
    std::vector<Row> rows;
    std::vector<int> coordinates;  // ascending: those the torque rows depend on
    std::vector<int> joints;       // their model joints
    std::vector<char> coupled;     // m x m, column-major: a torque row depends on both
  };
  struct Group {
    int set = 0, first_slot = 0, slot_count = 0;
    std::size_t first_block = 0, last_block = 0;  // into `blocks`
    std::vector<int> columns;                     // slot-major, coordinate-minor, ascending
    std::vector<double> gram;                     // columns^2, column-major
  };
  struct Scratch {
    explicit Scratch(const model::Model& model) : hessian(model) {}
    dynamics::RneaWeightedHessian hessian;
    Eigen::MatrixXd h, p;
    Eigen::VectorXd w;
  };
  bool available = false;
  std::vector<Set> sets;    // per row set (empty rows: none)
  std::vector<int> blocks;  // blocks with curvature rows, in block order
  std::vector<Group> groups;
  std::vector<std::unique_ptr<Scratch>> scratch;  // per worker
};

const SplineProblem::Curvature& SplineProblem::curvature() const {
  if (curvature_) return *curvature_;
  auto c = std::make_shared<Curvature>();
  const int nc = coordinate_count();
  bool single_dofs = true;
  for (const auto& dofs : coordinate_dofs_)
    single_dofs = single_dofs && dofs.size() == 1 && dofs[0] >= model_.nv - model_.nj;
  c->sets.resize(row_sets_.size());
  for (std::size_t s = 0; single_dofs && s < row_sets_.size(); ++s) {
    Curvature::Set& set = c->sets[s];
    std::vector<char> used(static_cast<std::size_t>(nc), 0);
    std::vector<std::vector<int>> row_coords;
    for (const auto& item : row_sets_[s].sum.items()) {
      const auto* torque = dynamic_cast<const terms::JointTorqueRows*>(item.term.get());
      if (!item.active || torque == nullptr || !torque->free_motion() ||
          torque->kind() != terms::RowKind::kResidual)
        continue;
      for (int r = 0; r < torque->rows(); ++r) {
        const int stacked = item.offset + r;
        set.rows.push_back({stacked, model_.idx_v(torque->joints()[static_cast<std::size_t>(r)])});
        row_coords.push_back(row_sets_[s].coordinates[0][static_cast<std::size_t>(stacked)]);
        for (const int coord : row_coords.back()) used[static_cast<std::size_t>(coord)] = 1;
      }
    }
    for (int coord = 0; coord < nc; ++coord) {
      if (!used[static_cast<std::size_t>(coord)]) continue;
      set.coordinates.push_back(coord);
      set.joints.push_back(coordinate_dofs_[coord][0] - (model_.nv - model_.nj));
    }
    const auto m = set.coordinates.size();
    set.coupled.assign(m * m, 0);
    for (const auto& coords : row_coords) {
      for (const int a : coords) {
        const auto ia = static_cast<std::size_t>(
            std::lower_bound(set.coordinates.begin(), set.coordinates.end(), a) - set.coordinates.begin());
        for (const int b : coords) {
          const auto ib = static_cast<std::size_t>(
              std::lower_bound(set.coordinates.begin(), set.coordinates.end(), b) - set.coordinates.begin());
          set.coupled[ia + m * ib] = 1;
        }
      }
    }
  }
  for (std::size_t b = 0; b < blocks_.size(); ++b) {
    const Block& block = blocks_[b];
    const Curvature::Set& set = c->sets[static_cast<std::size_t>(block.set)];
    if (set.rows.empty() || basis_.slot_count(block.sample) == 0) continue;
    const int first = basis_.first_slot(block.sample), count = basis_.slot_count(block.sample);
    if (c->groups.empty() || c->groups.back().set != block.set || c->groups.back().first_slot != first ||
        c->groups.back().slot_count != count) {
      Curvature::Group group;
      group.set = block.set;
      group.first_slot = first;
      group.slot_count = count;
      group.first_block = c->blocks.size();
      for (int k = 0; k < count; ++k)
        for (const int coord : set.coordinates) group.columns.push_back((first + k) * nc + coord);
      group.gram.resize(group.columns.size() * group.columns.size());
      c->groups.push_back(std::move(group));
    }
    c->blocks.push_back(static_cast<int>(b));
    c->groups.back().last_block = c->blocks.size();
  }
  c->available = !c->groups.empty();
  curvature_ = std::move(c);
  return *curvature_;
}

bool SplineProblem::has_residual_curvature() const { return curvature().available; }

optim::SymmetricMatrix SplineProblem::residual_curvature_pattern() const {
  const Curvature& c = curvature();
  std::vector<Eigen::Triplet<double>> entries;
  for (const Curvature::Group& group : c.groups) {
    const Curvature::Set& set = c.sets[static_cast<std::size_t>(group.set)];
    const std::size_t m = set.coordinates.size(), k = group.columns.size();
    for (std::size_t b = 0; b < k; ++b) {
      for (std::size_t a = b; a < k; ++a) {
        if (set.coupled[a % m + m * (b % m)]) entries.emplace_back(group.columns[a], group.columns[b], 0.0);
      }
    }
  }
  optim::SymmetricMatrix pattern(num_variables(), num_variables());
  pattern.setFromTriplets(entries.begin(), entries.end());
  pattern.makeCompressed();
  return pattern;
}

void SplineProblem::evaluate_residual_curvature(const Eigen::VectorXd& x, const Eigen::VectorXd& weights,
                                                optim::SymmetricMatrix& curvature_out) {
  const Curvature& c = curvature();
  if (!c.available)
    throw std::logic_error(
        "SplineProblem: evaluate_residual_curvature() without free-motion torque residuals");
  if (weights.size() != num_residuals())
    throw std::invalid_argument("SplineProblem::evaluate_residual_curvature: one weight per residual");
  const int workers = pool_ != nullptr ? pool_->size() : 1;
  auto& scratch = curvature_->scratch;
  while (static_cast<int>(scratch.size()) < workers)
    scratch.push_back(std::make_unique<Curvature::Scratch>(model_));
  std::vector<char> spline_ready(static_cast<std::size_t>(workers), 0);

  const auto group_task = [&](int g, int worker) {
    SplineProblemData& data = worker == 0 ? *data_ : *thread_data_[static_cast<std::size_t>(worker - 1)];
    if (spline_ready[static_cast<std::size_t>(worker)] == 0) {
      basis_.evaluate(x, data.samples);
      spline_ready[static_cast<std::size_t>(worker)] = 1;
    }
    Curvature::Scratch& s = *scratch[static_cast<std::size_t>(worker)];
    auto& group = curvature_->groups[static_cast<std::size_t>(g)];
    const Curvature::Set& set = c.sets[static_cast<std::size_t>(group.set)];
    const auto m = static_cast<Eigen::Index>(set.coordinates.size());
    const auto k = static_cast<Eigen::Index>(group.columns.size());
    Eigen::Map<Eigen::MatrixXd> gram(group.gram.data(), k, k);
    gram.setZero();
    for (std::size_t i = group.first_block; i < group.last_block; ++i) {
      const Block& block = blocks_[static_cast<std::size_t>(c.blocks[i])];
      const RowSet& rows = row_sets_[static_cast<std::size_t>(block.set)];
      set_state(block.sample, rows.state, data);
      s.w.setZero(model_.nv);
      for (const Curvature::Row& row : set.rows)
        s.w[row.dof] += weights[block.first[0] + row.stacked] * rows.residual_scale[row.stacked];
      s.hessian.compute(data.sample.q, data.sample.v, data.sample.a, s.w, set.joints, s.h);
      // Slot block (a, b) += sum_(X, Y) beta^X_a beta^Y_b H(X, Y) (file comment).
      for (int b = 0; b < group.slot_count; ++b) {
        s.p.noalias() = basis_.coefficient(block.sample, 0, b) * s.h.middleCols(0, m);
        s.p.noalias() += basis_.coefficient(block.sample, 1, b) * s.h.middleCols(m, m);
        s.p.noalias() += basis_.coefficient(block.sample, 2, b) * s.h.middleCols(2 * m, m);
        for (int a = b; a < group.slot_count; ++a) {
          auto target = gram.block(a * m, b * m, m, m);
          for (int order = 0; order < 3; ++order)
            target.noalias() += basis_.coefficient(block.sample, order, a) * s.p.middleRows(order * m, m);
        }
      }
    }
  };
  const int group_count = static_cast<int>(c.groups.size());
  if (pool_ != nullptr) {
    pool_->run(group_count, group_task);
  } else {
    for (int g = 0; g < group_count; ++g) group_task(g, 0);
  }

  // Merge in group order (lower triangle; each column's rows are sorted, as the group's columns).
  double* values = curvature_out.valuePtr();
  const int* inner = curvature_out.innerIndexPtr();
  const int* outer = curvature_out.outerIndexPtr();
  std::fill(values, values + curvature_out.nonZeros(), 0.0);
  for (const Curvature::Group& group : c.groups) {
    const Curvature::Set& set = c.sets[static_cast<std::size_t>(group.set)];
    const std::size_t m = set.coordinates.size(), k = group.columns.size();
    for (std::size_t b = 0; b < k; ++b) {
      const int column = group.columns[b];
      int position = outer[column];
      for (std::size_t a = b; a < k; ++a) {
        if (!set.coupled[a % m + m * (b % m)]) continue;
        while (inner[position] < group.columns[a]) ++position;
        values[position] += group.gram[a + k * b];
      }
    }
  }
}

}  // namespace mimic::motion
