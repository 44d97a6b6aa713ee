#include "mimic/motion/spline_problem.hpp"

#include <algorithm>
#include <cmath>
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
  RowSet set{std::move(sum), state, {}, {}, {}, {}, {}, {}, {}, {}, {0}};
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
  // One stored row per finite bound (write_inequalities), upper first.
  for (Eigen::Index r = 0; r < set.upper.size(); ++r) {
    const bool upper = std::isfinite(set.upper[r]), lower = std::isfinite(set.lower[r]);
    if ((!upper && !lower) || (upper && !(set.upper[r] > 0.0)) || (lower && !(set.lower[r] < 0.0)))
      throw std::invalid_argument(
          "SplineProblem: " + set.sum.describe(RowKind::kInequality, static_cast<int>(r)) +
          ": an inequality row needs a finite bound, lower < 0 < upper");
    set.has_upper.push_back(upper);
    set.has_lower.push_back(lower);
    set.inequality_first.push_back(set.inequality_first.back() + (upper ? 1 : 0) + (lower ? 1 : 0));
  }
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
    const int rows = stored_rows(row_sets_[set], kind);
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
      // An inequality row's finite bounds, the upper one first (block_of).
      if (inequality) {
        const RowSet& set = row_sets_[static_cast<std::size_t>(block.set)];
        if (set.has_upper[row]) keys.push_back(key + " upper");
        if (set.has_lower[row]) keys.push_back(key + " lower");
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

int SplineProblem::stored_rows(const RowSet& set, RowKind kind) {
  return kind == RowKind::kInequality ? set.inequality_first.back() : set.sum.rows(kind);
}

void SplineProblem::add_pattern(optim::PatternBuilder& builder, RowKind kind) const {
  const bool inequality = kind == RowKind::kInequality;
  std::vector<int> columns;
  for (const Block& block : blocks_) {
    const int first = block.first[index_of(kind)];
    if (first < 0) continue;
    const RowSet& set = row_sets_[block.set];
    const auto& rows = set.coordinates[index_of(kind)];
    for (std::size_t r = 0; r < rows.size(); ++r) {
      columns.clear();
      basis_.append_columns(block.sample, rows[r], columns);
      const int begin = inequality ? set.inequality_first[r] : static_cast<int>(r);
      const int end = inequality ? set.inequality_first[r + 1] : begin + 1;
      for (int row = begin; row < end; ++row) builder.add_columns(first + row, columns);
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
    // Each active term's rows from its own data, without TermSum::calc's stacked copy of every value and
    // partial row (5 % of the bar walk's smoothing, perf, 1 thread).
    set.sum.calc_terms(data.sample, rows, jacobians,
                       [&](const terms::TermSum::Item& item, const terms::TermData& own) {
                         const RowKind kind = item.term->kind();
                         if (kind == RowKind::kInequality) {
                           write_inequalities(block, item.offset, own, jacobians, out, data);
                         } else {
                           write_rows(block, kind, item.offset, own, jacobians, out, data);
                         }
                       });
  }
}

void SplineProblem::write_rows(const Block& block, RowKind kind, int offset, const terms::TermData& rows,
                               bool jacobians, optim::Evaluation& out, SplineProblemData& data) const {
  const RowSet& set = row_sets_[block.set];
  const auto k = index_of(kind);
  const bool residual = kind == RowKind::kResidual;
  const Eigen::VectorXd& scale = residual ? set.residual_scale : set.equality_scale;
  Eigen::VectorXd& values = residual ? out.residuals : out.equalities;
  optim::SparseMatrix& jacobian = residual ? out.residual_jacobian : out.equality_jacobian;
  for (Eigen::Index i = 0; i < rows.value.size(); ++i) {
    const Eigen::Index r = offset + i;  // the row in the set's stacked rows of `kind`
    const int row = block.first[k] + static_cast<int>(r);
    values[row] = scale[r] * rows.value[i];
    if (!jacobians) continue;
    const std::span<double> target = optim::row_values(jacobian, row);
    if (set.scale_first[k][r]) {
      data.gq = scale[r] * rows.dq.row(i);
      data.gv = scale[r] * rows.dv.row(i);
      data.ga = scale[r] * rows.da.row(i);
      chain_row(block.sample, set.coordinates[k][r], data.gq, data.gv, data.ga, target.data(), data);
    } else {
      chain_row(block.sample, set.coordinates[k][r], rows.dq.row(i), rows.dv.row(i), rows.da.row(i),
                target.data(), data);
      for (double& v : target) v *= scale[r];
    }
  }
}

// Each finite bound b as the normalised row u / b - 1 <= 0 (term.hpp), as u * (1 / b): upper, then lower;
// an infinite bound has no row (its u * (1 / b) - 1 = -1 could never be active). With symmetric bounds the
// lower row is the negated upper one (exactly: 1 / -b = -(1 / b) in floating point). A row whose factor
// comes after the chain rule chains its partials once and scales that row by each inverse bound.
void SplineProblem::write_inequalities(const Block& block, int offset, const terms::TermData& rows,
                                       bool jacobians, optim::Evaluation& out,
                                       SplineProblemData& data) const {
  const RowSet& set = row_sets_[block.set];
  const auto k = index_of(RowKind::kInequality);
  for (Eigen::Index i = 0; i < rows.value.size(); ++i) {
    const Eigen::Index r = offset + i;  // the row in the set's stacked inequality rows
    const bool has_upper = set.has_upper[r], has_lower = set.has_lower[r];
    const int upper_row = block.first[k] + set.inequality_first[r];
    const int lower_row = upper_row + (has_upper ? 1 : 0);
    const double inverse_upper = 1.0 / set.upper[r], inverse_lower = 1.0 / set.lower[r];
    if (has_upper) out.inequalities[upper_row] = rows.value[i] * inverse_upper - 1.0;
    if (has_lower) out.inequalities[lower_row] = rows.value[i] * inverse_lower - 1.0;
    if (!jacobians) continue;
    const std::span<double> upper =
        has_upper ? optim::row_values(out.inequality_jacobian, upper_row) : std::span<double>();
    const std::span<double> lower =
        has_lower ? optim::row_values(out.inequality_jacobian, lower_row) : std::span<double>();
    if (!set.scale_first[k][r]) {
      const std::span<double> chained = has_upper ? upper : lower;
      chain_row(block.sample, set.coordinates[k][r], rows.dq.row(i), rows.dv.row(i), rows.da.row(i),
                chained.data(), data);
      if (!has_upper) {
        for (double& v : lower) v *= inverse_lower;
        continue;
      }
      if (has_lower)
        for (std::size_t c = 0; c < upper.size(); ++c) lower[c] = upper[c] * inverse_lower;
      for (double& v : upper) v *= inverse_upper;
      continue;
    }
    for (int side = 0; side < 2; ++side) {
      if (!(side == 0 ? has_upper : has_lower)) continue;
      const std::span<double> target = side == 0 ? upper : lower;
      if (side == 1 && set.lower[r] == -set.upper[r]) {
        for (std::size_t c = 0; c < target.size(); ++c) target[c] = -upper[c];
        continue;
      }
      const double inverse_bound = side == 0 ? inverse_upper : inverse_lower;
      data.gq = inverse_bound * rows.dq.row(i);
      data.gv = inverse_bound * rows.dv.row(i);
      data.ga = inverse_bound * rows.da.row(i);
      chain_row(block.sample, set.coordinates[k][r], data.gq, data.gv, data.ga, target.data(), data);
    }
  }
}

const SplineProblem::Block* SplineProblem::block_of(RowKind kind, int index, int& row, bool& upper) const {
  const auto k = index_of(kind);
  for (const Block& block : blocks_) {
    const int first = block.first[k];
    if (first < 0 || index < first) continue;
    const RowSet& set = row_sets_[block.set];
    const int local = index - first;
    if (local >= stored_rows(set, kind)) continue;
    if (kind != RowKind::kInequality) {
      row = local;
      upper = true;
      return &block;
    }
    // The term row whose stored rows [inequality_first[r], inequality_first[r + 1]) hold `local`.
    const auto next = std::upper_bound(set.inequality_first.begin(), set.inequality_first.end(), local);
    row = static_cast<int>(next - set.inequality_first.begin()) - 1;
    upper = set.has_upper[row] && local == set.inequality_first[row];
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
