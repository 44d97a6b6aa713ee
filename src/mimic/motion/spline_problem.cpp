#include "mimic/motion/spline_problem.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace mimic::motion {

using terms::RowKind;

namespace {

constexpr std::size_t index_of(RowKind kind) { return static_cast<std::size_t>(kind); }

std::string format(const char* pattern, double a, double b, double c) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, pattern, a, b, c);
  return buffer;
}

}  // namespace

SplineProblemData::SplineProblemData(const SplineProblem& problem)
    : sample(problem.model(), problem.ground_) {
  sums.reserve(problem.row_sets_.size());
  for (const auto& set : problem.row_sets_)
    sums.push_back(std::make_unique<terms::TermSumData>(set.sum.create_data()));
  const int nv = problem.model().nv, coordinates = problem.coordinate_count();
  const int samples_count = problem.sample_count();
  samples.q.resize(coordinates, samples_count);
  samples.qdot.resize(coordinates, samples_count);
  samples.qddot.resize(coordinates, samples_count);
  for (Eigen::RowVectorXd* g : {&gq, &gv, &ga}) g->resize(nv);
  for (Eigen::VectorXd* p : {&pq, &pv, &pa, &pqs, &pvs, &pas}) p->resize(coordinates);
}

SplineProblem::SplineProblem(const model::Model& model, trajectory::SplineParameterization parameterization,
                             std::vector<double> times, std::vector<std::vector<int>> coordinate_dofs,
                             terms::GroundReaction ground)
    : model_(model),
      parameterization_(std::move(parameterization)),
      basis_(parameterization_, std::move(times)),
      coordinate_dofs_(std::move(coordinate_dofs)),
      ground_(std::move(ground)) {}

void SplineProblem::set_velocity_rows(terms::VelocityRows rows) {
  if (rows_[index_of(RowKind::kInequality)] != velocity_.num_rows())
    throw std::logic_error("SplineProblem: velocity rows after inequality blocks");
  velocity_ = std::move(rows);
  rows_[index_of(RowKind::kInequality)] = velocity_.num_rows();
}

int SplineProblem::add_row_set(terms::TermSum sum, int state,
                               const std::function<ScaleOrder(const terms::Term&)>& order) {
  RowSet set{std::move(sum), state, {}, {}, {}, {}, {}, {}};
  for (const auto& item : set.sum.items()) {
    if (!item.active) continue;
    const terms::Term& term = *item.term;
    const auto kind = index_of(term.kind());
    for (int r = 0; r < term.rows(); ++r) {
      set.coordinates[kind].push_back(row_coordinates(term, r));
      set.scale_first[kind].push_back(order(term) == ScaleOrder::kBeforeChainRule);
    }
  }
  set.residual_scale = set.sum.scale(RowKind::kResidual);
  set.equality_scale = set.sum.scale(RowKind::kEquality);
  set.lower = set.sum.lower();
  set.upper = set.sum.upper();
  row_sets_.push_back(std::move(set));
  return static_cast<int>(row_sets_.size()) - 1;
}

std::vector<int> SplineProblem::row_coordinates(const terms::Term& term, int row) const {
  const terms::Pattern& pattern = term.pattern();
  std::vector<int> coordinates;
  for (int c = 0; c < coordinate_count(); ++c) {
    const bool moved = std::any_of(coordinate_dofs_[c].begin(), coordinate_dofs_[c].end(), [&](int dof) {
      return pattern.q(row, dof) || pattern.v(row, dof) || pattern.a(row, dof);
    });
    if (moved) coordinates.push_back(c);
  }
  return coordinates;
}

void SplineProblem::add_block(int sample, int set) {
  Block block{sample, set, {-1, -1, -1}};
  for (const RowKind kind : {RowKind::kResidual, RowKind::kEquality, RowKind::kInequality}) {
    const int rows = row_sets_[set].sum.rows(kind) * (kind == RowKind::kInequality ? 2 : 1);
    if (rows == 0) continue;
    block.first[index_of(kind)] = rows_[index_of(kind)];
    rows_[index_of(kind)] += rows;
  }
  blocks_.push_back(block);
}

std::vector<std::string> SplineProblem::row_keys(RowKind kind) const {
  std::vector<std::string> keys;
  keys.reserve(static_cast<std::size_t>(rows_[index_of(kind)]));
  const bool inequality = kind == RowKind::kInequality;
  if (inequality)
    for (int i = 0; i < velocity_.num_rows(); ++i) keys.push_back("velocity " + std::to_string(i));
  for (const Block& block : blocks_) {
    if (block.first[index_of(kind)] < 0) continue;
    const terms::TermSum& sum = row_sets_[static_cast<std::size_t>(block.set)].sum;
    for (int row = 0; row < sum.rows(kind); ++row) {
      const terms::TermSum::Item& item = *sum.item_at(kind, row);
      const std::string key = std::to_string(block.sample) + " " + item.name + " " +
                              std::to_string(item.term->rows()) + " " + std::to_string(row - item.offset);
      // Inequality rows come in pairs, the upper bound's first (block_of).
      if (inequality) {
        keys.push_back(key + " upper");
        keys.push_back(key + " lower");
      } else {
        keys.push_back(key);
      }
    }
  }
  return keys;
}

void SplineProblem::finish() { data_ = create_data(); }

void SplineProblem::variable_bounds(Eigen::VectorXd& lower, Eigen::VectorXd& upper) const {
  lower = lower_;
  upper = upper_;
}

Eigen::VectorXd SplineProblem::clamped(Eigen::VectorXd x) const {
  return x.cwiseMax(lower_).cwiseMin(upper_);
}

void SplineProblem::add_pattern(optim::PatternBuilder& builder, RowKind kind) const {
  const int copies = kind == RowKind::kInequality ? 2 : 1;
  std::vector<int> columns;
  for (const Block& block : blocks_) {
    const int first = block.first[index_of(kind)];
    if (first < 0) continue;
    const auto& rows = row_sets_[block.set].coordinates[index_of(kind)];
    for (std::size_t r = 0; r < rows.size(); ++r) {
      columns.clear();
      basis_.append_columns(block.sample, rows[r], columns);
      for (int c = 0; c < copies; ++c) builder.add_columns(first + copies * static_cast<int>(r) + c, columns);
    }
  }
}

optim::SparseMatrix SplineProblem::residual_jacobian_pattern() const {
  optim::PatternBuilder builder(num_residuals(), num_variables());
  add_pattern(builder, RowKind::kResidual);
  return builder.build();
}

optim::SparseMatrix SplineProblem::equality_jacobian_pattern() const {
  optim::PatternBuilder builder(num_equalities(), num_variables());
  add_pattern(builder, RowKind::kEquality);
  return builder.build();
}

optim::SparseMatrix SplineProblem::inequality_jacobian_pattern() const {
  optim::PatternBuilder builder(num_inequalities(), num_variables());
  velocity_.add_pattern(builder, 0);
  add_pattern(builder, RowKind::kInequality);
  return builder.build();
}

void SplineProblem::map_partials(int /*n*/, const RowRef& gq, const RowRef& gv, const RowRef& ga,
                                 SplineProblemData& data) const {
  for (int c = 0; c < coordinate_count(); ++c) {
    const int dof = coordinate_dofs_[c].front();
    data.pq[c] = gq[dof];
    data.pv[c] = gv[dof];
    data.pa[c] = ga[dof];
  }
}

void SplineProblem::chain_row(int n, const std::vector<int>& coordinates, const RowRef& gq, const RowRef& gv,
                              const RowRef& ga, double* values, SplineProblemData& data) const {
  map_partials(n, gq, gv, ga, data);
  const auto count = static_cast<Eigen::Index>(coordinates.size());
  for (Eigen::Index i = 0; i < count; ++i) {
    data.pqs[i] = data.pq[coordinates[i]];
    data.pvs[i] = data.pv[coordinates[i]];
    data.pas[i] = data.pa[coordinates[i]];
  }
  basis_.chain_rule(n, coordinates, data.pqs.head(count), data.pvs.head(count), data.pas.head(count), values);
}

void SplineProblem::set_thread_pool(core::ThreadPool* pool) {
  pool_ = pool != nullptr && pool->size() > 1 ? pool : nullptr;
  if (pool_ == nullptr) return;
  while (static_cast<int>(thread_data_.size()) < pool_->size() - 1) thread_data_.push_back(create_data());
}

void SplineProblem::evaluate(const Eigen::VectorXd& x, bool jacobians, optim::Evaluation& out) {
  if (pool_ == nullptr) {
    evaluate(x, jacobians, out, *data_);
    return;
  }
  // Chunks of consecutive blocks handed out to whichever thread is free (blocks differ in cost: torque
  // and collision rows at some samples only); each thread evaluates the spline before its first chunk.
  const int threads = pool_->size();
  const std::size_t chunks = std::min(blocks_.size(), static_cast<std::size_t>(8 * threads));
  std::vector<char> spline_ready(static_cast<std::size_t>(threads), 0);
  pool_->run(static_cast<int>(chunks), [&](int chunk, int worker) {
    SplineProblemData& data = worker == 0 ? *data_ : *thread_data_[static_cast<std::size_t>(worker - 1)];
    if (spline_ready[static_cast<std::size_t>(worker)] == 0) {
      basis_.evaluate(x, data.samples);
      spline_ready[static_cast<std::size_t>(worker)] = 1;
    }
    const auto c = static_cast<std::size_t>(chunk);
    evaluate_blocks(blocks_.size() * c / chunks, blocks_.size() * (c + 1) / chunks, jacobians, out, data);
  });
  velocity_.evaluate(x, out.inequalities, jacobians ? &out.inequality_jacobian : nullptr, 0);
}

void SplineProblem::evaluate(const Eigen::VectorXd& x, bool jacobians, optim::Evaluation& out,
                             SplineProblemData& data) const {
  basis_.evaluate(x, data.samples);
  evaluate_blocks(0, blocks_.size(), jacobians, out, data);
  velocity_.evaluate(x, out.inequalities, jacobians ? &out.inequality_jacobian : nullptr, 0);
}

void SplineProblem::evaluate_blocks(std::size_t first, std::size_t last, bool jacobians,
                                    optim::Evaluation& out, SplineProblemData& data) const {
  for (std::size_t b = first; b < last; ++b) {
    const Block& block = blocks_[b];
    const RowSet& set = row_sets_[block.set];
    terms::TermSumData& rows = *data.sums[block.set];
    set_state(block.sample, set.state, data);
    data.sample.fill(set.sum.needs(), jacobians);
    set.sum.calc(data.sample, rows, jacobians);
    if (block.first[0] >= 0) write_rows(block, RowKind::kResidual, rows.residual, jacobians, out, data);
    if (block.first[1] >= 0) write_rows(block, RowKind::kEquality, rows.equality, jacobians, out, data);
    if (block.first[2] >= 0) write_inequalities(block, rows.inequality, jacobians, out, data);
  }
}

void SplineProblem::write_rows(const Block& block, RowKind kind, const terms::TermData& rows, bool jacobians,
                               optim::Evaluation& out, SplineProblemData& data) const {
  const RowSet& set = row_sets_[block.set];
  const auto k = index_of(kind);
  const bool residual = kind == RowKind::kResidual;
  const Eigen::VectorXd& scale = residual ? set.residual_scale : set.equality_scale;
  Eigen::VectorXd& values = residual ? out.residuals : out.equalities;
  optim::SparseMatrix& jacobian = residual ? out.residual_jacobian : out.equality_jacobian;
  for (Eigen::Index r = 0; r < rows.value.size(); ++r) {
    const int row = block.first[k] + static_cast<int>(r);
    values[row] = scale[r] * rows.value[r];
    if (!jacobians) continue;
    const std::span<double> target = optim::row_values(jacobian, row);
    if (set.scale_first[k][r]) {
      data.gq = scale[r] * rows.dq.row(r);
      data.gv = scale[r] * rows.dv.row(r);
      data.ga = scale[r] * rows.da.row(r);
      chain_row(block.sample, set.coordinates[k][r], data.gq, data.gv, data.ga, target.data(), data);
    } else {
      chain_row(block.sample, set.coordinates[k][r], rows.dq.row(r), rows.dv.row(r), rows.da.row(r),
                target.data(), data);
      for (double& v : target) v *= scale[r];
    }
  }
}

// Each bound b as the normalised row u / b - 1 <= 0 (term.hpp), as u * (1 / b): upper, then lower. With
// symmetric bounds the lower row is the negated upper one (exactly: 1 / -b = -(1 / b) in floating point).
// A row whose factor comes after the chain rule chains its partials once and scales that row by each
// inverse bound.
void SplineProblem::write_inequalities(const Block& block, const terms::TermData& rows, bool jacobians,
                                       optim::Evaluation& out, SplineProblemData& data) const {
  const RowSet& set = row_sets_[block.set];
  const auto k = index_of(RowKind::kInequality);
  for (Eigen::Index r = 0; r < rows.value.size(); ++r) {
    const int row = block.first[k] + 2 * static_cast<int>(r);
    const double inverse_upper = 1.0 / set.upper[r], inverse_lower = 1.0 / set.lower[r];
    out.inequalities[row] = rows.value[r] * inverse_upper - 1.0;
    out.inequalities[row + 1] = rows.value[r] * inverse_lower - 1.0;
    if (!jacobians) continue;
    const std::span<double> upper = optim::row_values(out.inequality_jacobian, row);
    const std::span<double> lower = optim::row_values(out.inequality_jacobian, row + 1);
    if (!set.scale_first[k][r]) {
      chain_row(block.sample, set.coordinates[k][r], rows.dq.row(r), rows.dv.row(r), rows.da.row(r),
                upper.data(), data);
      for (std::size_t i = 0; i < upper.size(); ++i) {
        lower[i] = upper[i] * inverse_lower;
        upper[i] *= inverse_upper;
      }
      continue;
    }
    for (int side = 0; side < 2; ++side) {
      const std::span<double> target = side == 0 ? upper : lower;
      if (side == 1 && set.lower[r] == -set.upper[r]) {
        for (std::size_t i = 0; i < target.size(); ++i) target[i] = -upper[i];
        continue;
      }
      const double inverse_bound = side == 0 ? inverse_upper : inverse_lower;
      data.gq = inverse_bound * rows.dq.row(r);
      data.gv = inverse_bound * rows.dv.row(r);
      data.ga = inverse_bound * rows.da.row(r);
      chain_row(block.sample, set.coordinates[k][r], data.gq, data.gv, data.ga, target.data(), data);
    }
  }
}

const SplineProblem::Block* SplineProblem::block_of(RowKind kind, int index, int& row, bool& upper) const {
  const auto k = index_of(kind);
  const int copies = kind == RowKind::kInequality ? 2 : 1;
  for (const Block& block : blocks_) {
    const int first = block.first[k];
    if (first < 0 || index < first) continue;
    const int local = index - first;
    if (local >= copies * row_sets_[block.set].sum.rows(kind)) continue;
    row = local / copies;
    upper = local % copies == 0;
    return &block;
  }
  return nullptr;
}

std::string SplineProblem::describe_velocity_row(int index, double value, const std::vector<int>& joints,
                                                 const Eigen::VectorXd& limits) const {
  const int joint = joints[static_cast<std::size_t>(velocity_.limited_joint(index))];
  const double limit = limits[joint];
  return model_.joint_names[joint] +
         format(" velocity (control polygon near t=%.3f s) exceeds its limit %.4g rad/s by %.3g rad/s",
                velocity_.time(index), limit, value * limit);
}

}  // namespace mimic::motion
